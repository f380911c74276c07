#pragma once

#include "core/replay/sessionreader.h"

#include <QAbstractTableModel>

namespace ciu::ui {

// The session log (events, actions, Director records in time order) as a table for the replay viewer.
// Rows at or before the current time are "past"; the row at the current time is highlighted.
class ReplayEventModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column : int
    {
        TimeColumn = 0,
        SourceColumn,
        KindColumn,
        ZoneColumn,
        TextColumn,
        ColumnCount
    };
    enum Role : int
    {
        TimeNsRole = Qt::UserRole + 1,
        ErrorRole
    };

    explicit ReplayEventModel(QObject* parent = nullptr);

    void setEntries(QList<replay::LogEntry> entries);
    const QList<replay::LogEntry>& entries() const { return m_entries; }
    // Marks rows up to tNs as past; returns the current row (the last at or before tNs), -1 before the first.
    int setCurrentTime(qint64 tNs);
    int currentRow() const { return m_currentRow; }
    // The row of the last entry at or before tNs, -1 if none.
    int rowAt(qint64 tNs) const;
    qint64 timeAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QList<replay::LogEntry> m_entries;
    int m_currentRow = -1;
};

} // namespace ciu::ui
