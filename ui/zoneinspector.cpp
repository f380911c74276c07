#include "ui/zoneinspector.h"

#include "ui/zonecorrections.h"
#include "ui/zoneeditcommands.h"
#include "ui/zonelistmodel.h"
#include "ui/zonestyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

#include <memory>

namespace ciu::ui {
namespace {

struct StateFlagName
{
    ZoneStateFlag flag;
    const char* text;
};

const StateFlagName kStateFlags[] = {
    {ZoneStateFlag::Enabled, QT_TRANSLATE_NOOP("ciu::ui::ZoneInspector", "Enabled")},
    {ZoneStateFlag::Disabled, QT_TRANSLATE_NOOP("ciu::ui::ZoneInspector", "Disabled")},
    {ZoneStateFlag::Focused, QT_TRANSLATE_NOOP("ciu::ui::ZoneInspector", "Focused")},
    {ZoneStateFlag::Hovered, QT_TRANSLATE_NOOP("ciu::ui::ZoneInspector", "Hovered")},
    {ZoneStateFlag::Pressed, QT_TRANSLATE_NOOP("ciu::ui::ZoneInspector", "Pressed")},
    {ZoneStateFlag::Checked, QT_TRANSLATE_NOOP("ciu::ui::ZoneInspector", "Checked")},
    {ZoneStateFlag::Unchecked, QT_TRANSLATE_NOOP("ciu::ui::ZoneInspector", "Unchecked")},
    {ZoneStateFlag::Expanded, QT_TRANSLATE_NOOP("ciu::ui::ZoneInspector", "Expanded")},
    {ZoneStateFlag::Collapsed, QT_TRANSLATE_NOOP("ciu::ui::ZoneInspector", "Collapsed")},
};

QSpinBox* coordinateBox(QWidget* parent, int minimum, const QString& name)
{
    auto* box = new QSpinBox(parent);
    box->setRange(minimum, 65535);
    box->setAccessibleName(name);
    box->setKeyboardTracking(false);
    return box;
}

} // namespace

ZoneInspector::ZoneInspector(ZoneCorrections* document, QWidget* parent)
    : QWidget(parent)
    , m_document(document)
    , m_undo(new QUndoStack(this))
    , m_listModel(new ZoneListModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_filterEdit(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_idLabel(new QLabel(this))
    , m_sourceLabel(new QLabel(this))
    , m_roleLabel(new QLabel(this))
    , m_valueLabel(new QLabel(this))
    , m_pathLabel(new QLabel(this))
    , m_labelEdit(new QLineEdit(this))
    , m_typeBox(new QComboBox(this))
    , m_x(coordinateBox(this, -65535, tr("Left")))
    , m_y(coordinateBox(this, -65535, tr("Top")))
    , m_w(coordinateBox(this, 1, tr("Width")))
    , m_h(coordinateBox(this, 1, tr("Height")))
    , m_drawButton(new QToolButton(this))
    , m_deleteButton(new QPushButton(this))
    , m_form(new QWidget(this))
{
    m_proxy->setSourceModel(m_listModel);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setSortRole(Qt::DisplayRole);
    m_filterEdit->setPlaceholderText(tr("Filter zones…"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterEdit->setAccessibleName(tr("Zone filter"));

    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAccessibleName(tr("Zones"));

    for (ZoneType type :
         {ZoneType::Button, ZoneType::TextField, ZoneType::Link, ZoneType::Dropdown, ZoneType::CheckBox,
          ZoneType::Slider, ZoneType::MenuItem, ZoneType::Tab, ZoneType::ScrollArea, ZoneType::Static})
        m_typeBox->addItem(zoneTypeDisplayName(type), int(type));
    m_labelEdit->setAccessibleName(tr("Zone label"));
    m_typeBox->setAccessibleName(tr("Zone type"));

    auto* states = new QGridLayout;
    int i = 0;
    for (const StateFlagName& s : kStateFlags) {
        auto* box = new QCheckBox(tr(s.text), m_form);
        box->setProperty("flag", int(s.flag));
        states->addWidget(box, i / 3, i % 3);
        m_stateBoxes << box;
        connect(box, &QCheckBox::clicked, this, &ZoneInspector::commitProperties);
        ++i;
    }
    auto* geometry = new QGridLayout;
    geometry->addWidget(new QLabel(tr("X"), m_form), 0, 0);
    geometry->addWidget(m_x, 0, 1);
    geometry->addWidget(new QLabel(tr("Y"), m_form), 0, 2);
    geometry->addWidget(m_y, 0, 3);
    geometry->addWidget(new QLabel(tr("W"), m_form), 1, 0);
    geometry->addWidget(m_w, 1, 1);
    geometry->addWidget(new QLabel(tr("H"), m_form), 1, 2);
    geometry->addWidget(m_h, 1, 3);

    auto* form = new QFormLayout(m_form);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Id:"), m_idLabel);
    form->addRow(tr("Source:"), m_sourceLabel);
    form->addRow(tr("Role:"), m_roleLabel);
    form->addRow(tr("Value:"), m_valueLabel);
    form->addRow(tr("Accessible path:"), m_pathLabel);
    m_roleLabel->setAccessibleName(tr("Zone role"));
    m_valueLabel->setAccessibleName(tr("Zone value"));
    m_pathLabel->setAccessibleName(tr("Accessible path"));
    for (QLabel* l : {m_roleLabel, m_valueLabel, m_pathLabel}) {
        l->setTextFormat(Qt::PlainText); // screen text, never markup
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
        form->setRowVisible(l, false);
    }
    form->addRow(tr("&Label:"), m_labelEdit);
    form->addRow(tr("&Type:"), m_typeBox);
    form->addRow(tr("State:"), states);
    form->addRow(tr("Bounds:"), geometry);

    m_drawButton->setText(tr("&Draw zone"));
    m_drawButton->setToolTip(tr("Draw a new zone in the live view"));
    m_drawButton->setCheckable(true);
    m_drawButton->setIcon(QIcon(QStringLiteral(":/icons/draw-zone.svg")));
    m_drawButton->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_deleteButton->setText(tr("De&lete zone"));
    m_deleteButton->setIcon(style()->standardIcon(QStyle::SP_TrashIcon));
    auto* undoButton = new QToolButton(this);
    undoButton->setDefaultAction(m_undo->createUndoAction(this, tr("Undo")));
    undoButton->defaultAction()->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
    auto* redoButton = new QToolButton(this);
    redoButton->setDefaultAction(m_undo->createRedoAction(this, tr("Redo")));
    redoButton->defaultAction()->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_drawButton);
    buttons->addWidget(m_deleteButton);
    buttons->addStretch(1);
    buttons->addWidget(undoButton);
    buttons->addWidget(redoButton);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(m_filterEdit);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_form);
    layout->addLayout(buttons);

    connect(m_filterEdit, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        if (m_updatingSelection)
            return;
        const QModelIndexList rows = m_table->selectionModel()->selectedRows();
        const QString id =
            rows.isEmpty() ? QString() : rows.first().data(ZoneListModel::ZoneIdRole).toString();
        if (id == m_selectedId)
            return;
        m_selectedId = id;
        refreshForm();
        emit zoneSelected(id);
    });
    connect(m_labelEdit, &QLineEdit::editingFinished, this, &ZoneInspector::commitProperties);
    connect(m_typeBox, &QComboBox::activated, this, &ZoneInspector::commitProperties);
    for (QSpinBox* box : {m_x, m_y, m_w, m_h})
        connect(box, &QSpinBox::editingFinished, this, &ZoneInspector::commitGeometry);
    connect(m_drawButton, &QToolButton::toggled, this, &ZoneInspector::drawModeRequested);
    connect(m_deleteButton, &QPushButton::clicked, this, &ZoneInspector::deleteSelectedZone);
    connect(m_document, &ZoneCorrections::effectiveMapChanged, this, &ZoneInspector::onMapChanged);
    connect(m_document, &ZoneCorrections::selectionRequested, this, [this](const QString& id) {
        setSelectedZone(id);
        emit zoneSelected(id);
    });
    onMapChanged();
}

void ZoneInspector::onMapChanged()
{
    m_listModel->setZoneMap(m_document->effectiveMap());
    if (!m_selectedId.isEmpty() && !m_document->zone(m_selectedId)) {
        m_selectedId.clear();
        emit zoneSelected({});
    }
    selectRow();
    refreshForm();
}

void ZoneInspector::setSelectedZone(const QString& zoneId)
{
    const QString id = m_document->zone(zoneId) ? zoneId : QString();
    if (id == m_selectedId)
        return;
    m_selectedId = id;
    selectRow();
    refreshForm();
}

void ZoneInspector::selectRow()
{
    m_updatingSelection = true;
    const int row = m_listModel->rowOf(m_selectedId);
    if (row < 0) {
        m_table->clearSelection();
    } else {
        const QModelIndex index = m_proxy->mapFromSource(m_listModel->index(row, 0));
        if (index.isValid()) {
            m_table->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect |
                                                         QItemSelectionModel::Rows);
            m_table->scrollTo(index);
        }
    }
    m_updatingSelection = false;
}

void ZoneInspector::refreshForm()
{
    const Zone* zone = m_document->zone(m_selectedId);
    m_form->setEnabled(zone != nullptr);
    m_deleteButton->setEnabled(zone != nullptr);
    const QSignalBlocker b1(m_labelEdit), b2(m_typeBox), b3(m_x), b4(m_y), b5(m_w), b6(m_h);
    if (!zone) {
        m_idLabel->setText(tr("(no zone selected)"));
        m_sourceLabel->clear();
        showTreeFields(nullptr);
        m_labelEdit->clear();
        for (QCheckBox* box : std::as_const(m_stateBoxes))
            box->setChecked(false);
        return;
    }
    m_idLabel->setText(
        zone->application.isEmpty() ? zone->id : QStringLiteral("%1 · %2").arg(zone->id, zone->application));
    m_sourceLabel->setText(
        tr("%1, confidence %2 %").arg(toString(zone->source)).arg(qRound(zone->confidence * 100)));
    showTreeFields(zone);
    if (!m_labelEdit->hasFocus())
        m_labelEdit->setText(zone->label);
    m_typeBox->setCurrentIndex(m_typeBox->findData(int(zone->type)));
    for (QCheckBox* box : std::as_const(m_stateBoxes))
        box->setChecked(zone->state.testFlag(ZoneStateFlag(box->property("flag").toInt())));
    m_x->setValue(zone->bounds.x());
    m_y->setValue(zone->bounds.y());
    m_w->setValue(zone->bounds.width());
    m_h->setValue(zone->bounds.height());
}

void ZoneInspector::showTreeFields(const Zone* zone)
{
    auto* form = qobject_cast<QFormLayout*>(m_form->layout());
    const QString value = zone && !zone->isPassword ? zone->value : QString();
    const QList<std::pair<QLabel*, QString>> rows{
        {m_roleLabel, zone ? zone->role : QString()},
        {m_valueLabel, value},
        // The index path in the tree, then the object itself ("bus-name:object-path").
        {m_pathLabel, !zone || zone->accessiblePath.isEmpty() ? QString()
                      : zone->accessibleRef.isEmpty()
                          ? zone->accessiblePath
                          : QStringLiteral("%1 (%2)").arg(zone->accessiblePath, zone->accessibleRef)}};
    for (const auto& [label, text] : rows) {
        label->setText(text);
        form->setRowVisible(label, !text.isEmpty());
    }
}

ZoneState ZoneInspector::formState() const
{
    ZoneState state;
    for (QCheckBox* box : m_stateBoxes) {
        if (box->isChecked())
            state |= ZoneStateFlag(box->property("flag").toInt());
    }
    return state;
}

bool ZoneInspector::push(ZoneEditCommand* command)
{
    std::unique_ptr<ZoneEditCommand> owned(command);
    if (!owned->isValid())
        return false;
    m_undo->push(owned.release());
    return true;
}

bool ZoneInspector::editProperties(const QString& label, ZoneType type, ZoneState state)
{
    if (m_selectedId.isEmpty())
        return false;
    return push(new SetZonePropertiesCommand(m_document, m_selectedId, label, type, state));
}

bool ZoneInspector::editGeometry(const QRect& bounds)
{
    if (m_selectedId.isEmpty())
        return false;
    return push(new SetZoneGeometryCommand(m_document, m_selectedId, bounds));
}

void ZoneInspector::commitProperties()
{
    if (!m_document->zone(m_selectedId))
        return;
    editProperties(m_labelEdit->text(), ZoneType(m_typeBox->currentData().toInt()), formState());
}

void ZoneInspector::commitGeometry()
{
    if (!m_document->zone(m_selectedId))
        return;
    editGeometry(QRect(m_x->value(), m_y->value(), m_w->value(), m_h->value()));
}

void ZoneInspector::addZone(const QRect& bounds)
{
    Zone zone;
    zone.bounds = bounds;
    zone.type = ZoneType::Button;
    zone.label = tr("New zone");
    zone.labelSource = LabelSource::User;
    zone.source = ZoneSource::User;
    zone.confidence = 1.0;
    // The new zone belongs to the application of the zone it was drawn on.
    if (const ZoneMapPtr map = m_document->effectiveMap()) {
        if (const Zone* under = map->zoneAt(bounds.center()))
            zone.application = under->application;
    }
    push(new AddZoneCommand(m_document, zone));
    setDrawMode(false);
}

void ZoneInspector::setZoneGeometry(const QString& zoneId, const QRect& bounds)
{
    push(new SetZoneGeometryCommand(m_document, zoneId, bounds));
}

void ZoneInspector::deleteSelectedZone()
{
    if (!m_selectedId.isEmpty())
        push(new DeleteZoneCommand(m_document, m_selectedId));
}

void ZoneInspector::setDrawMode(bool on)
{
    const QSignalBlocker blocker(m_drawButton);
    m_drawButton->setChecked(on);
}

} // namespace ciu::ui
