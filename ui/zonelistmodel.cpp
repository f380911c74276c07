#include "ui/zonelistmodel.h"

#include "ui/zonestyle.h"

#include <QColor>

namespace ciu::ui {

ZoneListModel::ZoneListModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

int ZoneListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_map ? 0 : int(m_map->size());
}

int ZoneListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

int ZoneListModel::rowOf(const QString& zoneId) const
{
    if (!m_map)
        return -1;
    const auto& zones = m_map->zones();
    for (int i = 0; i < zones.size(); ++i) {
        if (zones.at(i).id == zoneId)
            return i;
    }
    return -1;
}

QVariant ZoneListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !m_map || index.row() >= m_map->size())
        return {};
    const Zone& zone = m_map->zones().at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case IdColumn:
            return zone.id;
        case TypeColumn:
            return zoneTypeDisplayName(zone.type);
        case LabelColumn:
            return zone.isPassword ? QStringLiteral("••••") : zone.label;
        case ConfidenceColumn:
            return QStringLiteral("%1 %").arg(qRound(zone.confidence * 100));
        case SourceColumn:
            return toString(zone.source);
        default:
            return {};
        }
    case Qt::DecorationRole:
        return index.column() == TypeColumn ? QVariant(zoneColor(zone.type)) : QVariant();
    case Qt::ToolTipRole:
        return QStringLiteral("%1 (%2,%3 %4×%5)")
            .arg(zone.id)
            .arg(zone.bounds.x())
            .arg(zone.bounds.y())
            .arg(zone.bounds.width())
            .arg(zone.bounds.height());
    case ZoneIdRole:
        return zone.id;
    default:
        return {};
    }
}

QVariant ZoneListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case IdColumn:
        return tr("Id");
    case TypeColumn:
        return tr("Type");
    case LabelColumn:
        return tr("Label");
    case ConfidenceColumn:
        return tr("Confidence");
    case SourceColumn:
        return tr("Source");
    default:
        return {};
    }
}

void ZoneListModel::setZoneMap(ZoneMapPtr map)
{
    // Same zones in the same order: only the values changed, keep the views' selection and scroll.
    const bool sameRows = m_map && map && m_map->size() == map->size() &&
                          std::equal(m_map->zones().cbegin(), m_map->zones().cend(), map->zones().cbegin(),
                                     [](const Zone& a, const Zone& b) { return a.id == b.id; });
    if (sameRows) {
        m_map = std::move(map);
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_map = std::move(map);
    endResetModel();
}

} // namespace ciu::ui
