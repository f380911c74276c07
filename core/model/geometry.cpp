#include "core/model/geometry.h"

#include <cmath>
#include <limits>

namespace ciu {

qint64 area(const QRect& r)
{
    return r.isEmpty() ? 0 : qint64(r.width()) * r.height();
}

qint64 area(const QRegion& region)
{
    qint64 sum = 0;
    for (const QRect& r : region)
        sum += area(r);
    return sum;
}

double intersectionOverUnion(const QRect& a, const QRect& b)
{
    const qint64 inter = area(a.intersected(b));
    if (inter == 0)
        return 0.0;
    return double(inter) / double(area(a) + area(b) - inter);
}

double shareInside(const QRect& r, const QRect& region)
{
    const qint64 whole = area(r);
    return whole == 0 ? 0.0 : double(area(r.intersected(region))) / double(whole);
}

std::optional<QRect> checkedRect(double x, double y, double width, double height)
{
    constexpr double lowest = std::numeric_limits<int>::min();
    constexpr double highest = std::numeric_limits<int>::max();
    const double values[] = {std::round(x), std::round(y), std::round(width), std::round(height)};
    for (const double v : values) {
        if (!(v >= lowest && v <= highest)) // also false for NaN
            return std::nullopt;
    }
    const double left = values[0], top = values[1], w = values[2], h = values[3];
    // The last column and row (left + w - 1) and the one past them must be ints too.
    if (w < 0 || h < 0 || left + w > highest || top + h > highest)
        return std::nullopt;
    return QRect(int(left), int(top), int(w), int(h));
}

} // namespace ciu
