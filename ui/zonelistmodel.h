#pragma once

#include "core/model/zonemap.h"

#include <QAbstractTableModel>

namespace ciu::ui {

// The zones of a map as a table: id, type, label, confidence, source.
class ZoneListModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column : int
    {
        IdColumn = 0,
        TypeColumn,
        LabelColumn,
        ConfidenceColumn,
        SourceColumn,
        ColumnCount
    };
    enum Role : int
    {
        ZoneIdRole = Qt::UserRole + 1
    };

    explicit ZoneListModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    ZoneMapPtr zoneMap() const { return m_map; }
    int rowOf(const QString& zoneId) const;

public slots:
    void setZoneMap(ciu::ZoneMapPtr map);

private:
    ZoneMapPtr m_map;
};

} // namespace ciu::ui
