#pragma once

// Small helpers shared by the files of CanvasMapper (canvasmapper*.cpp). Internal to core/canvas.

#include <QList>
#include <QRect>
#include <QVariantMap>

namespace ciu::canvas::detail {

// A rectangle as event data.
inline QVariantMap rectData(const QRect& r)
{
    return {{QStringLiteral("x"), r.x()},
            {QStringLiteral("y"), r.y()},
            {QStringLiteral("width"), r.width()},
            {QStringLiteral("height"), r.height()}};
}

// The bounding rectangle of `rects` (null for none).
inline QRect united(const QList<QRect>& rects)
{
    QRect all;
    for (const QRect& r : rects)
        all = all.united(r);
    return all;
}

} // namespace ciu::canvas::detail
