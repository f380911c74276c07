#pragma once

#include <QImage>
#include <QList>
#include <QMetaType>
#include <QRect>
#include <QString>

namespace ciu {

// One captured frame. `image` is implicitly shared: an unchanged frame shares pixels with its predecessor.
struct Frame
{
    quint64 index = 0;
    qint64 tNs = 0;
    QImage image;  // Format_RGB32
    QPoint origin; // root position of image's top-left (monitor capture)
    bool isValid() const { return !image.isNull(); }
    QRect rootRect() const { return QRect(origin, image.size()); }
};

struct CursorSample
{
    qint64 tNs = 0;
    QPoint pos;
    QString shape;
};

struct ChangeRegion
{
    QRect rect;                // root coordinates
    double changedPercent = 0; // share of the region's pixels that changed, 0..100
    bool animating = false;    // part of this region has kept changing over recent frames
};

// Tier 0 result for one frame.
struct FrameDiff
{
    quint64 frameIndex = 0;
    qint64 tNs = 0;
    QList<ChangeRegion> regions;
    double totalPercent = 0; // share of the whole frame's pixels that changed, 0..100
    bool cursorOnly = false; // only the cursor sprite changed
    bool animating = false;  // some region keeps changing
    bool stable = false;     // true on the first frame after changes settle for the stability window
    bool isEmpty() const { return regions.isEmpty(); }
};

} // namespace ciu

Q_DECLARE_METATYPE(ciu::Frame)
Q_DECLARE_METATYPE(ciu::CursorSample)
Q_DECLARE_METATYPE(ciu::FrameDiff)
