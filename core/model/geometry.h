#pragma once

// The one place for rectangle arithmetic on zones (root-window pixels).

#include <QRect>
#include <QRegion>
#include <QtGlobal>

#include <optional>

namespace ciu {

// Pixels covered by `r`; 0 for an empty or invalid rectangle. 64-bit: a screen-sized product never overflows.
qint64 area(const QRect& r);
// Pixels covered by the rectangles of `region` (they do not overlap).
qint64 area(const QRegion& region);

// Intersection over union of two rectangles: 1 for equal ones, 0 for disjoint or empty ones.
double intersectionOverUnion(const QRect& a, const QRect& b);

// The share of `r` that lies inside `region`, from 0 to 1 (0 for an empty `r`).
double shareInside(const QRect& r, const QRect& region);

// A rectangle from untrusted numbers (a recording, a model's reply, a client): x, y, width, height rounded to
// integers; nullopt when one is not finite, a size is negative, or an edge does not fit in an int (QRect
// computes x + width - 1 in int: 2147483647 + 100 would overflow).
std::optional<QRect> checkedRect(double x, double y, double width, double height);

} // namespace ciu
