#pragma once

#include "core/model/spatialevent.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

#include <deque>
#include <optional>

namespace ciu::ui {

// Every event of the session, one row each: time, kind, zone, details, with secrets redacted (redacted()).
// Routine repeats (the same tier decision for the same reason, hovering the same zone) fold into the row
// before them with a count, so an idle screen does not flood the log. Appending is cheap; beyond maxRows()
// the oldest rows are dropped in blocks.
class EventLogModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column : int
    {
        TimeColumn = 0,
        KindColumn,
        ZoneColumn,
        DetailsColumn,
        ColumnCount
    };
    enum Role : int
    {
        KindRole = Qt::UserRole + 1, // int(SpatialEvent::Kind)
        ZoneIdRole,                  // QString
        PointRole,                   // QPoint
        TimeNsRole,                  // qint64
        SearchTextRole,              // all columns joined, for the text filter
        RepeatCountRole,             // int: how many events the row stands for (1: not folded)
    };

    explicit EventLogModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    const SpatialEvent& eventAt(int row) const { return m_events.at(size_t(row)); }
    int repeatCount(int row) const { return m_repeats.at(size_t(row)).count; }
    int maxRows() const { return m_maxRows; }
    void setMaxRows(int maxRows);

    // "t=12.345 s" formatting of a session time, and the details text of an event.
    static QString formatTime(qint64 tNs);
    static QString formatDetails(const SpatialEvent& event);
    static QString kindDisplayName(SpatialEvent::Kind kind);
    // True when `next` only repeats `previous` (a routine event with the same meaning) and folds into it.
    static bool isRepeat(const SpatialEvent& previous, const SpatialEvent& next);
    // The event as the log keeps it: API keys and every known secret in its texts redacted, as on the
    // terminal (an event may carry a model's reply or an error that quotes a key).
    static SpatialEvent redacted(SpatialEvent event);

public slots:
    void appendEvent(const ciu::SpatialEvent& event);
    void appendEvents(const QList<ciu::SpatialEvent>& events);
    void clear();

private:
    struct Repeat
    {
        int count = 1;
        qint64 lastNs = 0;
    };
    void trim();
    // Folds `event` into the last row if it repeats it; true when it did.
    bool fold(const SpatialEvent& event);

    std::deque<SpatialEvent> m_events;
    std::deque<Repeat> m_repeats; // one per row
    int m_maxRows = 20000;
};

// Filters the log by kind and by text (case-insensitive, in any column).
class EventLogFilterModel final : public QSortFilterProxyModel
{
    Q_OBJECT
public:
    explicit EventLogFilterModel(QObject* parent = nullptr);

    std::optional<SpatialEvent::Kind> kindFilter() const { return m_kind; }
    QString textFilter() const { return m_text; }

public slots:
    void setKindFilter(std::optional<ciu::SpatialEvent::Kind> kind);
    void setTextFilter(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    std::optional<SpatialEvent::Kind> m_kind;
    QString m_text;
};

} // namespace ciu::ui
