#include "ui/replay/replayeventmodel.h"

#include "ui/replay/timelinemapping.h"

#include <QBrush>
#include <QFont>
#include <QPalette>

#include <algorithm>

namespace ciu::ui {

ReplayEventModel::ReplayEventModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void ReplayEventModel::setEntries(QList<replay::LogEntry> entries)
{
    beginResetModel();
    m_entries = std::move(entries);
    m_currentRow = -1;
    endResetModel();
}

int ReplayEventModel::rowAt(qint64 tNs) const
{
    const auto it = std::upper_bound(m_entries.cbegin(), m_entries.cend(), tNs,
                                     [](qint64 t, const replay::LogEntry& e) { return t < e.tNs; });
    return int(it - m_entries.cbegin()) - 1;
}

qint64 ReplayEventModel::timeAt(int row) const
{
    return row >= 0 && row < m_entries.size() ? m_entries.at(row).tNs : 0;
}

int ReplayEventModel::setCurrentTime(qint64 tNs)
{
    const int row = rowAt(tNs);
    if (row == m_currentRow)
        return row;
    const int first = qMax(0, qMin(row, m_currentRow));
    const int last = qMax(row, m_currentRow);
    m_currentRow = row;
    if (!m_entries.isEmpty() && last >= 0)
        emit dataChanged(index(first, 0), index(qMin(last + 1, int(m_entries.size()) - 1), ColumnCount - 1));
    return row;
}

int ReplayEventModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_entries.size());
}

int ReplayEventModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ReplayEventModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_entries.size())
        return {};
    const replay::LogEntry& e = m_entries.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return TimelineMapping::formatTime(e.tNs, 1'000'000);
        case SourceColumn:
            return e.source == replay::LogEntry::Source::Event    ? tr("event")
                   : e.source == replay::LogEntry::Source::Action ? tr("action")
                                                                  : tr("director");
        case KindColumn:
            return e.kind;
        case ZoneColumn:
            return e.zoneId;
        case TextColumn:
            return e.text;
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return index.column() == TextColumn ? QVariant(e.text) : QVariant();
    case Qt::ForegroundRole:
        if (e.error)
            return QBrush(QColor(0xb0, 0x00, 0x20));
        if (index.row() > m_currentRow)
            return QBrush(QPalette().color(QPalette::Disabled, QPalette::Text));
        return {};
    case Qt::FontRole:
        if (index.row() == m_currentRow) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case TimeNsRole:
        return e.tNs;
    case ErrorRole:
        return e.error;
    default:
        return {};
    }
}

QVariant ReplayEventModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case SourceColumn:
        return tr("Source");
    case KindColumn:
        return tr("Kind");
    case ZoneColumn:
        return tr("Zone");
    case TextColumn:
        return tr("Detail");
    default:
        return {};
    }
}

} // namespace ciu::ui
