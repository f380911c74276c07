#pragma once

#include "core/model/zonemap.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QTableView;
class QToolButton;
class QUndoStack;

namespace ciu::ui {

class ZoneCorrections;
class ZoneListModel;

// Lists the zones, shows the selected one's properties and edits them through undoable commands on a
// ZoneCorrections document: label, type, state, bounds, add (drawn in the live view), delete.
class ZoneInspector final : public QWidget
{
    Q_OBJECT
public:
    explicit ZoneInspector(ZoneCorrections* document, QWidget* parent = nullptr);

    QUndoStack* undoStack() const { return m_undo; }
    QString selectedZone() const { return m_selectedId; }
    ZoneListModel* listModel() const { return m_listModel; }

    // Edits as the form would make them (also used by tests).
    bool editProperties(const QString& label, ZoneType type, ZoneState state);
    bool editGeometry(const QRect& bounds);

public slots:
    void setSelectedZone(const QString& zoneId);
    // From the live view: a drawn rectangle becomes a new user zone; a dragged zone gets new bounds.
    void addZone(const QRect& bounds);
    void setZoneGeometry(const QString& zoneId, const QRect& bounds);
    void deleteSelectedZone();
    void setDrawMode(bool on);

signals:
    void zoneSelected(const QString& zoneId);
    void drawModeRequested(bool on);

private:
    void onMapChanged();
    void refreshForm();
    void selectRow();
    void commitProperties();
    void commitGeometry();
    bool push(class ZoneEditCommand* command);
    ZoneState formState() const;
    void showTreeFields(const Zone* zone);

    ZoneCorrections* m_document;
    QUndoStack* m_undo;
    ZoneListModel* m_listModel;
    QSortFilterProxyModel* m_proxy;
    QLineEdit* m_filterEdit;
    QTableView* m_table;
    QLabel* m_idLabel;
    QLabel* m_sourceLabel;
    // From the accessibility tree (rows shown only for a zone that has them):
    QLabel* m_roleLabel;
    QLabel* m_valueLabel;
    QLabel* m_pathLabel;
    QLineEdit* m_labelEdit;
    QComboBox* m_typeBox;
    QList<QCheckBox*> m_stateBoxes;
    QSpinBox* m_x;
    QSpinBox* m_y;
    QSpinBox* m_w;
    QSpinBox* m_h;
    QToolButton* m_drawButton;
    QPushButton* m_deleteButton;
    QWidget* m_form;
    QString m_selectedId;
    bool m_updatingSelection = false;
};

} // namespace ciu::ui
