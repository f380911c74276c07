#include "core/model/geometry.h"

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

} // namespace ciu
