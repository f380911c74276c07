#pragma once

// The one place for rectangle arithmetic on zones (root-window pixels).

#include <QRect>
#include <QRegion>
#include <QtGlobal>

namespace ciu {

// Pixels covered by `r`; 0 for an empty or invalid rectangle. 64-bit: a screen-sized product never overflows.
qint64 area(const QRect& r);
// Pixels covered by the rectangles of `region` (they do not overlap).
qint64 area(const QRegion& region);

// Intersection over union of two rectangles: 1 for equal ones, 0 for disjoint or empty ones.
double intersectionOverUnion(const QRect& a, const QRect& b);

// The share of `r` that lies inside `region`, from 0 to 1 (0 for an empty `r`).
double shareInside(const QRect& r, const QRect& region);

} // namespace ciu
