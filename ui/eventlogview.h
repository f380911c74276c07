#pragma once

#include "core/model/spatialevent.h"

#include <QWidget>

class QComboBox;
class QLineEdit;
class QTableView;
class QLabel;

namespace ciu::ui {

class EventLogModel;
class EventLogFilterModel;

// The event log dock: filter by kind and text, follows new events unless the user scrolled up, and
// reports the zone of the selected event.
class EventLogView final : public QWidget
{
    Q_OBJECT
public:
    explicit EventLogView(QWidget* parent = nullptr);

    EventLogModel* model() const { return m_model; }
    EventLogFilterModel* filterModel() const { return m_filter; }
    QTableView* tableView() const { return m_table; }
    bool isFollowing() const { return m_following; }

public slots:
    void appendEvent(const ciu::SpatialEvent& event);
    void clear();
    void setFollowing(bool following);

signals:
    void eventSelected(const QString& zoneId, QPoint point);

private:
    void onRowsInserted();
    void onScrolled(int value);
    void onSelectionChanged();
    void updateCount();

    EventLogModel* m_model;
    EventLogFilterModel* m_filter;
    QComboBox* m_kindBox;
    QLineEdit* m_textEdit;
    QTableView* m_table;
    QLabel* m_countLabel;
    bool m_following = true;
    bool m_autoScrolling = false;
};

} // namespace ciu::ui
