#include "ui/taskconsole.h"

#include "ui/planmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace ciu::ui {

QString toDisplayString(AgentState state)
{
    switch (state) {
    case AgentState::Idle:
        return QCoreApplication::translate("ciu::ui::TaskConsole", "Idle");
    case AgentState::Running:
        return QCoreApplication::translate("ciu::ui::TaskConsole", "Running");
    case AgentState::Paused:
        return QCoreApplication::translate("ciu::ui::TaskConsole", "Paused");
    case AgentState::Stopping:
        return QCoreApplication::translate("ciu::ui::TaskConsole", "Stopping");
    case AgentState::Finished:
        return QCoreApplication::translate("ciu::ui::TaskConsole", "Finished");
    }
    return {};
}

TaskConsole::TaskConsole(QWidget* parent)
    : QWidget(parent)
    , m_taskEdit(new QPlainTextEdit(this))
    , m_providerBox(new QComboBox(this))
    , m_modelBox(new QComboBox(this))
    , m_speedBox(new QComboBox(this))
    , m_dryRunBox(new QCheckBox(tr("&Dry run (plan and show, do not act)"), this))
    , m_run(new QPushButton(style()->standardIcon(QStyle::SP_MediaPlay), tr("&Run"), this))
    , m_pause(new QPushButton(style()->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), this))
    , m_resume(new QPushButton(style()->standardIcon(QStyle::SP_MediaSeekForward), tr("Res&ume"), this))
    , m_step(new QPushButton(style()->standardIcon(QStyle::SP_MediaSkipForward), tr("S&tep"), this))
    , m_stop(new QPushButton(style()->standardIcon(QStyle::SP_MediaStop), tr("St&op"), this))
    , m_statusLabel(new QLabel(this))
    , m_planView(new QListView(this))
    , m_plan(new PlanModel(this))
{
    m_taskEdit->setPlaceholderText(
        tr("Describe the task, e.g. “Type hello into the name field and press OK”"));
    m_taskEdit->setTabChangesFocus(true);
    m_taskEdit->setAccessibleName(tr("Task"));
    m_taskEdit->setMaximumHeight(m_taskEdit->fontMetrics().height() * 5);

    m_providerBox->addItem(tr("Local planner (offline)"), QStringLiteral("local"));
    m_providerBox->addItem(tr("Anthropic (Claude)"), QStringLiteral("anthropic"));
    m_providerBox->addItem(tr("OpenAI-compatible"), QStringLiteral("openai"));
    m_modelBox->setEditable(true);
    m_modelBox->setInsertPolicy(QComboBox::NoInsert);
    m_modelBox->lineEdit()->setPlaceholderText(tr("provider default"));
    m_speedBox->addItem(tr("Max (recorded sequences)"), QStringLiteral("max"));
    m_speedBox->addItem(tr("High (check at transitions)"), QStringLiteral("high"));
    m_speedBox->addItem(tr("Medium (balanced)"), QStringLiteral("medium"));
    m_speedBox->addItem(tr("Low (check every action)"), QStringLiteral("low"));
    m_speedBox->setCurrentIndex(2);
    m_dryRunBox->setChecked(true);

    auto* form = new QFormLayout;
    form->addRow(tr("&Task:"), m_taskEdit);
    form->addRow(tr("&Provider:"), m_providerBox);
    form->addRow(tr("&Model:"), m_modelBox);
    form->addRow(tr("&Speed:"), m_speedBox);
    form->addRow(QString(), m_dryRunBox);
    qobject_cast<QLabel*>(form->labelForField(m_taskEdit))->setBuddy(m_taskEdit);

    auto* buttons = new QGridLayout;
    buttons->addWidget(m_run, 0, 0);
    buttons->addWidget(m_pause, 0, 1);
    buttons->addWidget(m_resume, 0, 2);
    buttons->addWidget(m_step, 1, 0);
    buttons->addWidget(m_stop, 1, 1, 1, 2);
    m_run->setDefault(true);
    m_run->setToolTip(tr("Start the task (Ctrl+Return)"));
    m_stop->setToolTip(tr("Stop the agent now"));
    m_step->setToolTip(tr("Execute one action, then pause"));

    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_planView->setModel(m_plan);
    m_planView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_planView->setWordWrap(true);
    m_planView->setAccessibleName(tr("Plan"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(m_statusLabel);
    auto* planLabel = new QLabel(tr("P&lan:"), this);
    planLabel->setBuddy(m_planView);
    layout->addWidget(planLabel);
    layout->addWidget(m_planView, 1);

    connect(m_run, &QPushButton::clicked, this, &TaskConsole::run);
    connect(m_pause, &QPushButton::clicked, this, &TaskConsole::pauseRequested);
    connect(m_resume, &QPushButton::clicked, this, &TaskConsole::resumeRequested);
    connect(m_step, &QPushButton::clicked, this, &TaskConsole::step);
    connect(m_stop, &QPushButton::clicked, this, &TaskConsole::stopRequested);
    connect(m_taskEdit, &QPlainTextEdit::textChanged, this, &TaskConsole::updateButtons);
    updateButtons();
}

TaskRequest TaskConsole::request() const
{
    TaskRequest r;
    r.task = m_taskEdit->toPlainText().trimmed();
    r.provider = m_providerBox->currentData().toString();
    r.model = m_modelBox->currentText().trimmed();
    r.speed = m_speedBox->currentData().toString();
    r.dryRun = m_dryRunBox->isChecked();
    return r;
}

void TaskConsole::setTask(const QString& task)
{
    m_taskEdit->setPlainText(task);
}

void TaskConsole::setProvider(const QString& provider)
{
    const int i = m_providerBox->findData(provider);
    if (i >= 0)
        m_providerBox->setCurrentIndex(i);
}

void TaskConsole::setModel(const QString& model)
{
    m_modelBox->setCurrentText(model);
}

void TaskConsole::setSpeed(const QString& speed)
{
    const int i = m_speedBox->findData(speed);
    if (i >= 0)
        m_speedBox->setCurrentIndex(i);
}

void TaskConsole::setDryRun(bool dryRun)
{
    m_dryRunBox->setChecked(dryRun);
}

void TaskConsole::setAgentState(AgentState state)
{
    m_state = state;
    updateButtons();
}

void TaskConsole::setPlan(const QStringList& steps, int currentStep)
{
    m_plan->setPlan(steps, currentStep);
    if (currentStep >= 0 && currentStep < steps.size())
        m_planView->scrollTo(m_plan->index(currentStep));
}

void TaskConsole::setStatusText(const QString& text)
{
    m_statusLabel->setText(text);
}

void TaskConsole::run()
{
    const TaskRequest r = request();
    if (r.task.isEmpty() || (m_state != AgentState::Idle && m_state != AgentState::Finished))
        return;
    emit runRequested(r);
}

void TaskConsole::step()
{
    if (m_state == AgentState::Paused) {
        emit stepRequested();
        return;
    }
    TaskRequest r = request();
    if (r.task.isEmpty() || (m_state != AgentState::Idle && m_state != AgentState::Finished))
        return;
    r.startPaused = true;
    emit runRequested(r);
}

void TaskConsole::updateButtons()
{
    const bool idle = m_state == AgentState::Idle || m_state == AgentState::Finished;
    const bool hasTask = !m_taskEdit->toPlainText().trimmed().isEmpty();
    m_run->setEnabled(idle && hasTask);
    m_pause->setEnabled(m_state == AgentState::Running);
    m_resume->setEnabled(m_state == AgentState::Paused);
    m_step->setEnabled(m_state == AgentState::Paused || (idle && hasTask));
    m_stop->setEnabled(m_state == AgentState::Running || m_state == AgentState::Paused);
    for (QWidget* w : {static_cast<QWidget*>(m_taskEdit), static_cast<QWidget*>(m_providerBox),
                       static_cast<QWidget*>(m_modelBox), static_cast<QWidget*>(m_speedBox),
                       static_cast<QWidget*>(m_dryRunBox)})
        w->setEnabled(idle);
}

} // namespace ciu::ui
