#include "core/model/zonemap.h"

#include <algorithm>

namespace ciu {

ZoneMap::ZoneMap(quint64 version, qint64 tNs, QSize screenSize, QList<Zone> zones)
    : m_version(version)
    , m_tNs(tNs)
    , m_screenSize(screenSize)
    , m_zones(std::move(zones))
{
    buildIndex();
}

void ZoneMap::buildIndex()
{
    m_byId.clear();
    for (int i = 0; i < m_zones.size(); ++i)
        m_byId.insert(m_zones.at(i).id, i);
    if (m_screenSize.isEmpty()) {
        for (int i = 0; i < m_zones.size(); ++i)
            m_outside << i;
        return;
    }
    m_cols = (m_screenSize.width() + m_cellSize - 1) / m_cellSize;
    m_rows = (m_screenSize.height() + m_cellSize - 1) / m_cellSize;
    m_cells.assign(size_t(m_cols) * size_t(m_rows), {});
    const QRect screen(QPoint(0, 0), m_screenSize);
    for (int i = 0; i < m_zones.size(); ++i) {
        const QRect b = m_zones.at(i).bounds;
        if (!screen.contains(b))
            m_outside << i;
        const QRect r = b.intersected(screen);
        if (r.isEmpty())
            continue;
        for (int cy = r.top() / m_cellSize; cy <= r.bottom() / m_cellSize; ++cy) {
            for (int cx = r.left() / m_cellSize; cx <= r.right() / m_cellSize; ++cx)
                m_cells[size_t(cy) * size_t(m_cols) + size_t(cx)].push_back(i);
        }
    }
}

QList<int> ZoneMap::candidates(QPoint p) const
{
    QList<int> result = m_outside;
    if (m_cols > 0 && p.x() >= 0 && p.y() >= 0 && p.x() < m_screenSize.width() && p.y() < m_screenSize.height()) {
        const auto& cell = m_cells[size_t(p.y() / m_cellSize) * size_t(m_cols) + size_t(p.x() / m_cellSize)];
        for (const int i : cell)
            result << i;
    }
    return result;
}

const Zone* ZoneMap::find(const QString& id) const
{
    const auto it = m_byId.constFind(id);
    return it == m_byId.cend() ? nullptr : &m_zones.at(*it);
}

QList<const Zone*> ZoneMap::zonesAt(QPoint p) const
{
    QList<const Zone*> result;
    for (const int i : candidates(p)) {
        const Zone& z = m_zones.at(i);
        if (z.bounds.contains(p) && !result.contains(&z))
            result << &z;
    }
    // Outermost first: larger area first, then by depth of the parent chain.
    std::stable_sort(result.begin(), result.end(), [](const Zone* a, const Zone* b) {
        return qint64(a->bounds.width()) * a->bounds.height() > qint64(b->bounds.width()) * b->bounds.height();
    });
    return result;
}

const Zone* ZoneMap::zoneAt(QPoint p) const
{
    const Zone* best = nullptr;
    qint64 bestArea = 0;
    for (const int i : candidates(p)) {
        const Zone& z = m_zones.at(i);
        if (!z.bounds.contains(p))
            continue;
        const qint64 area = qint64(z.bounds.width()) * z.bounds.height();
        if (!best || area < bestArea) {
            best = &z;
            bestArea = area;
        }
    }
    return best;
}

QList<const Zone*> ZoneMap::zonesIntersecting(const QRect& rect) const
{
    QList<const Zone*> result;
    for (const Zone& z : m_zones) {
        if (z.bounds.intersects(rect))
            result << &z;
    }
    return result;
}

QList<const Zone*> ZoneMap::children(const QString& parentId) const
{
    QList<const Zone*> result;
    for (const Zone& z : m_zones) {
        if (z.parentId == parentId)
            result << &z;
    }
    return result;
}

QJsonArray ZoneMap::toJson() const
{
    QJsonArray array;
    for (const Zone& z : m_zones)
        array.append(ciu::toJson(z));
    return array;
}

}  // namespace ciu
