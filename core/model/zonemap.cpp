#include "core/model/zonemap.h"

#include "core/model/geometry.h"

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
    // The grid covers only the zones' real extent on the screen (not the screen size, which comes from
    // recordings and can be anything) and never has more than kMaxCells cells: the cell size grows instead.
    const QRect screen(QPoint(0, 0), m_screenSize);
    qint64 extentWidth = 0;
    qint64 extentHeight = 0;
    QList<QRect> onScreen(m_zones.size());
    std::vector<bool> listed(size_t(m_zones.size()), false);
    for (int i = 0; i < m_zones.size(); ++i) {
        const QRect b = m_zones.at(i).bounds;
        if (!screen.contains(b)) {
            m_outside << i;
            listed[size_t(i)] = true;
        }
        onScreen[i] = b.intersected(screen);
        if (onScreen.at(i).isEmpty())
            continue;
        extentWidth = std::max(extentWidth, qint64(onScreen.at(i).right()) + 1);
        extentHeight = std::max(extentHeight, qint64(onScreen.at(i).bottom()) + 1);
    }
    if (extentWidth == 0 || extentHeight == 0)
        return;
    qint64 cellSize = m_cellSize;
    auto cellsFor = [&](qint64 size) {
        return ((extentWidth + size - 1) / size) * ((extentHeight + size - 1) / size);
    };
    while (cellsFor(cellSize) > kMaxCells)
        cellSize *= 2;
    m_cellSize = int(cellSize);
    m_cols = int((extentWidth + cellSize - 1) / cellSize);
    m_rows = int((extentHeight + cellSize - 1) / cellSize);
    m_cells.assign(size_t(m_cols) * size_t(m_rows), {});
    for (int i = 0; i < m_zones.size(); ++i) {
        const QRect r = onScreen.at(i);
        if (r.isEmpty())
            continue;
        const int left = r.left() / m_cellSize, right = r.right() / m_cellSize;
        const int top = r.top() / m_cellSize, bottom = r.bottom() / m_cellSize;
        // A zone spanning many cells is checked for every query instead (bounded index size).
        if (qint64(right - left + 1) * (bottom - top + 1) > kMaxCellsPerZone) {
            if (!listed[size_t(i)])
                m_outside << i;
            continue;
        }
        for (int cy = top; cy <= bottom; ++cy) {
            for (int cx = left; cx <= right; ++cx)
                m_cells[size_t(cy) * size_t(m_cols) + size_t(cx)].push_back(i);
        }
    }
    std::sort(m_outside.begin(), m_outside.end());
}

const std::vector<int>* ZoneMap::cellAt(QPoint p) const
{
    if (m_cols > 0 && p.x() >= 0 && p.y() >= 0 && p.x() / m_cellSize < m_cols && p.y() / m_cellSize < m_rows)
        return &m_cells[size_t(p.y() / m_cellSize) * size_t(m_cols) + size_t(p.x() / m_cellSize)];
    return nullptr;
}

const Zone* ZoneMap::find(const QString& id) const
{
    const auto it = m_byId.constFind(id);
    return it == m_byId.cend() ? nullptr : &m_zones.at(*it);
}

QList<const Zone*> ZoneMap::zonesAt(QPoint p) const
{
    // Iterates the point's grid cell and the zones outside the screen in place (no candidate copy).
    QList<const Zone*> result;
    auto consider = [&](int i) {
        const Zone& z = m_zones.at(i);
        if (z.bounds.contains(p) && !result.contains(&z))
            result << &z;
    };
    for (const int i : m_outside)
        consider(i);
    if (const std::vector<int>* cell = cellAt(p)) {
        for (const int i : *cell)
            consider(i);
    }
    // Outermost first: larger area first, then by depth of the parent chain.
    std::stable_sort(result.begin(), result.end(),
                     [](const Zone* a, const Zone* b) { return area(a->bounds) > area(b->bounds); });
    return result;
}

const Zone* ZoneMap::zoneAt(QPoint p) const
{
    const Zone* best = nullptr;
    qint64 bestArea = 0;
    auto consider = [&](int i) {
        const Zone& z = m_zones.at(i);
        if (!z.bounds.contains(p))
            return;
        const qint64 zoneArea = area(z.bounds);
        if (!best || zoneArea < bestArea) {
            best = &z;
            bestArea = zoneArea;
        }
    };
    for (const int i : m_outside)
        consider(i);
    if (const std::vector<int>* cell = cellAt(p)) {
        for (const int i : *cell)
            consider(i);
    }
    return best;
}

QList<const Zone*> ZoneMap::zonesIntersecting(const QRect& rect) const
{
    QList<const Zone*> result;
    const QRect screen(QPoint(0, 0), m_screenSize);
    const QRect r = rect.normalized();
    // Small rectangles on the screen use the grid; the result keeps the map's order either way.
    if (m_cols > 0 && screen.contains(r) && area(r) <= area(screen) / 16) {
        std::vector<int> indices(m_outside.cbegin(), m_outside.cend());
        const int bottom = std::min(r.bottom() / m_cellSize, m_rows - 1);
        const int right = std::min(r.right() / m_cellSize, m_cols - 1);
        for (int cy = r.top() / m_cellSize; cy <= bottom; ++cy) {
            for (int cx = r.left() / m_cellSize; cx <= right; ++cx) {
                const auto& cell = m_cells[size_t(cy) * size_t(m_cols) + size_t(cx)];
                indices.insert(indices.end(), cell.cbegin(), cell.cend());
            }
        }
        std::sort(indices.begin(), indices.end());
        indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
        for (const int i : indices) {
            if (m_zones.at(i).bounds.intersects(rect))
                result << &m_zones.at(i);
        }
        return result;
    }
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

} // namespace ciu
