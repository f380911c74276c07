#pragma once

#include "core/model/zone.h"

#include <QHash>
#include <QJsonArray>

#include <memory>

namespace ciu {

// An immutable, versioned snapshot of the zone registry. Shared across threads as
// std::shared_ptr<const ZoneMap>; queries are cheap (a uniform grid index for point lookups).
class ZoneMap
{
public:
    ZoneMap() = default;
    ZoneMap(quint64 version, qint64 tNs, QSize screenSize, QList<Zone> zones);

    quint64 version() const { return m_version; }
    qint64 tNs() const { return m_tNs; }
    QSize screenSize() const { return m_screenSize; }
    const QList<Zone>& zones() const { return m_zones; }
    qsizetype size() const { return m_zones.size(); }
    bool isEmpty() const { return m_zones.isEmpty(); }

    const Zone* find(const QString& id) const;
    // Every zone containing the point, outermost first (parents before children).
    QList<const Zone*> zonesAt(QPoint p) const;
    // The innermost (smallest) zone containing the point, or null.
    const Zone* zoneAt(QPoint p) const;
    QList<const Zone*> zonesIntersecting(const QRect& rect) const;
    QList<const Zone*> children(const QString& parentId) const;

    QJsonArray toJson() const;

private:
    void buildIndex();
    const std::vector<int>* cellAt(QPoint p) const; // the grid cell of an on-screen point

    quint64 m_version = 0;
    qint64 m_tNs = 0;
    QSize m_screenSize;
    QList<Zone> m_zones;
    QHash<QString, int> m_byId;
    // Uniform grid of zone indices for point queries, over the zones' extent on the screen.
    static constexpr qint64 kMaxCells = 4096;
    static constexpr qint64 kMaxCellsPerZone = 256;
    int m_cellSize = 64; // doubled until the grid has at most kMaxCells cells
    int m_cols = 0;
    int m_rows = 0;
    std::vector<std::vector<int>> m_cells;
    QList<int> m_outside; // zones checked by every query: (partly) off the screen, or spanning many cells
};

using ZoneMapPtr = std::shared_ptr<const ZoneMap>;

} // namespace ciu

Q_DECLARE_METATYPE(ciu::ZoneMapPtr)
