#include "ui/pasttaskspage.h"

#include "core/knowledge/taskmemory.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace ciu::ui {

PastTasksPage::PastTasksPage(const QString& directory, QWidget* parent)
    : QWidget(parent)
    , m_directory(directory)
    , m_list(new QListWidget(this))
    , m_forget(new QPushButton(tr("&Forget"), this))
    , m_clear(new QPushButton(tr("Forget &all"), this))
    , m_status(new QLabel(this))
{
    auto* intro = new QLabel(tr("Tasks that completed and were verified, with the steps that worked. A new "
                                "task like one of them gets it as a reference, and the task panel offers "
                                "to replay it. Typed passwords and keys are never kept."),
                             this);
    intro->setWordWrap(true);
    m_list->setAccessibleName(tr("Remembered tasks"));
    m_list->setWordWrap(true);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_forget->setToolTip(tr("Forget the selected tasks now"));
    m_clear->setToolTip(tr("Forget every remembered task now"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_forget);
    buttons->addWidget(m_clear);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_status);

    connect(m_forget, &QPushButton::clicked, this, &PastTasksPage::forgetSelected);
    connect(m_clear, &QPushButton::clicked, this, &PastTasksPage::clearAll);
    connect(m_list, &QListWidget::itemSelectionChanged, this, &PastTasksPage::updateButtons);
    reload();
}

QString PastTasksPage::statusText() const
{
    return m_status->text();
}

void PastTasksPage::reload()
{
    const TaskMemory memory(m_directory);
    const TaskMemory::Contents contents = memory.load();
    m_list->clear();
    for (const PastTask& t : contents.tasks) {
        auto* item = new QListWidgetItem(
            tr("%1 — %2").arg(t.recordedAt.toLocalTime().toString(Qt::ISODate), t.task.simplified()), m_list);
        item->setData(Qt::UserRole, t.id);
        item->setToolTip(t.narrative);
    }
    QString status =
        contents.tasks.isEmpty()
            ? tr("No remembered tasks in %1.").arg(memory.directory())
            : tr("%n remembered task(s) in %1.", nullptr, int(contents.tasks.size())).arg(memory.directory());
    if (!contents.problems.isEmpty())
        status += QLatin1Char('\n') +
                  tr("Unreadable, left as they are: %1").arg(contents.problems.join(QStringLiteral("; ")));
    m_status->setText(status);
    updateButtons();
}

void PastTasksPage::forgetSelected()
{
    const TaskMemory memory(m_directory);
    QStringList errors;
    for (const QListWidgetItem* item : m_list->selectedItems()) {
        QString error;
        if (!memory.forget(item->data(Qt::UserRole).toString(), &error))
            errors << error;
    }
    reload();
    if (!errors.isEmpty())
        m_status->setText(m_status->text() + QLatin1Char('\n') + errors.join(QLatin1Char('\n')));
}

void PastTasksPage::clearAll()
{
    QStringList problems;
    TaskMemory(m_directory).clear(&problems);
    reload();
}

void PastTasksPage::updateButtons()
{
    m_forget->setEnabled(!m_list->selectedItems().isEmpty());
    m_clear->setEnabled(m_list->count() > 0);
}

} // namespace ciu::ui
