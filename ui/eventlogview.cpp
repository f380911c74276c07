#include "ui/eventlogview.h"

#include "ui/eventlogmodel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace ciu::ui {

EventLogView::EventLogView(QWidget* parent)
    : QWidget(parent)
    , m_model(new EventLogModel(this))
    , m_filter(new EventLogFilterModel(this))
    , m_kindBox(new QComboBox(this))
    , m_textEdit(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_countLabel(new QLabel(this))
{
    m_filter->setSourceModel(m_model);

    m_kindBox->addItem(tr("All kinds"), -1);
    for (int k = int(SpatialEvent::Kind::ZoneEnter); k <= int(SpatialEvent::Kind::Info); ++k)
        m_kindBox->addItem(EventLogModel::kindDisplayName(SpatialEvent::Kind(k)), k);
    m_kindBox->setAccessibleName(tr("Event kind filter"));
    m_textEdit->setPlaceholderText(tr("Filter events…"));
    m_textEdit->setClearButtonEnabled(true);
    m_textEdit->setAccessibleName(tr("Event text filter"));

    m_table->setModel(m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->resizeSection(EventLogModel::TimeColumn, 80);
    m_table->horizontalHeader()->resizeSection(EventLogModel::KindColumn, 110);
    m_table->horizontalHeader()->resizeSection(EventLogModel::ZoneColumn, 80);

    auto* filters = new QHBoxLayout;
    filters->addWidget(m_kindBox);
    filters->addWidget(m_textEdit, 1);
    filters->addWidget(m_countLabel);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addLayout(filters);
    layout->addWidget(m_table, 1);

    connect(m_kindBox, &QComboBox::currentIndexChanged, this, [this] {
        const int kind = m_kindBox->currentData().toInt();
        m_filter->setKindFilter(kind > 0 ? std::optional(SpatialEvent::Kind(kind)) : std::nullopt);
        updateCount();
    });
    connect(m_textEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_filter->setTextFilter(text);
        updateCount();
    });
    connect(m_filter, &QAbstractItemModel::rowsInserted, this, &EventLogView::onRowsInserted);
    connect(m_filter, &QAbstractItemModel::rowsRemoved, this, &EventLogView::updateCount);
    connect(m_filter, &QAbstractItemModel::modelReset, this, &EventLogView::updateCount);
    connect(m_table->verticalScrollBar(), &QScrollBar::valueChanged, this, &EventLogView::onScrolled);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &EventLogView::onSelectionChanged);
    setFocusProxy(m_table);
    updateCount();
}

void EventLogView::appendEvent(const SpatialEvent& event)
{
    m_model->appendEvent(event);
}

void EventLogView::clear()
{
    m_model->clear();
    m_following = true;
}

void EventLogView::setFollowing(bool following)
{
    m_following = following;
    if (following) {
        m_autoScrolling = true;
        m_table->scrollToBottom();
        m_autoScrolling = false;
    }
}

void EventLogView::onRowsInserted()
{
    updateCount();
    if (!m_following)
        return;
    m_autoScrolling = true;
    m_table->scrollToBottom();
    m_autoScrolling = false;
}

void EventLogView::onScrolled(int value)
{
    if (m_autoScrolling)
        return;
    // Scrolled up by the user: stop following; back at the bottom: follow again.
    m_following = value >= m_table->verticalScrollBar()->maximum();
}

void EventLogView::onSelectionChanged()
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return;
    const QModelIndex index = rows.first();
    emit eventSelected(index.data(EventLogModel::ZoneIdRole).toString(),
                       index.data(EventLogModel::PointRole).toPoint());
}

void EventLogView::updateCount()
{
    m_countLabel->setText(tr("%1 of %2").arg(m_filter->rowCount()).arg(m_model->rowCount()));
}

} // namespace ciu::ui
