#include "ui/taskconsole.h"

#include "core/director/commandscript.h"
#include "core/knowledge/taskmemory.h"
#include "ui/planmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace ciu::ui {

TaskConsole::TaskConsole(RunState* runState, QWidget* parent)
    : QWidget(parent)
    , m_runState(runState)
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
    , m_hint(new QFrame(this))
    , m_hintLabel(new QLabel(m_hint))
    , m_hintButton(new QPushButton(m_hint))
    , m_planView(new QListView(this))
    , m_plan(new PlanModel(this))
    , m_similar(new QWidget(this))
    , m_similarLabel(new QLabel(m_similar))
    , m_replay(new QPushButton(tr("Re&play its steps"), m_similar))
    , m_similarTimer(new QTimer(this))
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

    // "Similar to: …": the remembered task most like the one typed, looked up once typing pauses.
    m_similarLabel->setWordWrap(true);
    m_similarLabel->setTextFormat(Qt::PlainText);
    m_similarLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_replay->setToolTip(tr("Run the remembered task again with the steps that worked (by label, verified)"));
    auto* similarLayout = new QHBoxLayout(m_similar);
    similarLayout->setContentsMargins(0, 0, 0, 0);
    similarLayout->addWidget(m_similarLabel, 1);
    similarLayout->addWidget(m_replay, 0, Qt::AlignTop);
    m_similar->hide();
    m_similarTimer->setSingleShot(true);
    m_similarTimer->setInterval(300);

    auto* form = new QFormLayout;
    form->addRow(tr("&Task:"), m_taskEdit);
    form->addRow(QString(), m_similar);
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

    auto* hintFrame = static_cast<QFrame*>(m_hint);
    hintFrame->setFrameShape(QFrame::StyledPanel);
    hintFrame->setObjectName(QStringLiteral("TaskHint"));
    m_hintLabel->setWordWrap(true);
    m_hintLabel->setTextFormat(Qt::RichText);
    auto* closeHint = new QToolButton(m_hint);
    closeHint->setAutoRaise(true);
    closeHint->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    closeHint->setToolTip(tr("Hide this hint"));
    closeHint->setAccessibleName(tr("Hide hint"));
    auto* hintLayout = new QVBoxLayout(m_hint);
    hintLayout->setContentsMargins(6, 4, 4, 4);
    auto* hintTop = new QHBoxLayout;
    hintTop->addWidget(m_hintLabel, 1);
    hintTop->addWidget(closeHint, 0, Qt::AlignTop);
    hintLayout->addLayout(hintTop);
    hintLayout->addWidget(m_hintButton, 0, Qt::AlignLeft);
    m_hint->hide();
    connect(closeHint, &QToolButton::clicked, this, [this] {
        hideHint();
        emit hintClosed();
    });
    connect(m_hintButton, &QPushButton::clicked, this, &TaskConsole::settingsRequested);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(form);
    layout->addWidget(m_hint);
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
    connect(m_taskEdit, &QPlainTextEdit::textChanged, this, &TaskConsole::updateFromState);
    connect(m_taskEdit, &QPlainTextEdit::textChanged, m_similarTimer, qOverload<>(&QTimer::start));
    connect(m_similarTimer, &QTimer::timeout, this, &TaskConsole::updateSimilar);
    connect(m_replay, &QPushButton::clicked, this, &TaskConsole::replaySimilar);
    connect(m_runState, &RunState::changed, this, &TaskConsole::updateFromState);
    updateFromState();
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

void TaskConsole::setPlan(const Plan& plan, bool dryRun)
{
    m_plan->setPlan(plan, dryRun);
    const int current = m_plan->currentRow();
    if (current >= 0)
        m_planView->scrollTo(m_plan->index(current));
}

QString TaskConsole::hintText() const
{
    return m_hint->isHidden() ? QString() : m_hintLabel->text();
}

void TaskConsole::showHint(const QString& text, const QString& buttonText)
{
    m_hintLabel->setText(text);
    m_hintButton->setText(buttonText);
    m_hintButton->setVisible(!buttonText.isEmpty());
    m_hint->show();
}

void TaskConsole::hideHint()
{
    m_hint->hide();
}

bool TaskConsole::checkPlannable(const TaskRequest& request)
{
    if (request.provider != QLatin1String("local"))
        return true;
    const ScriptParseResult parsed = parseScript(request.task);
    if (parsed.ok())
        return true;
    // The offline planner reads commands only; a task in plain words needs a model.
    showHint(tr("The offline planner understands only commands such as <i>click OK</i> (Help ▸ Command "
                "language); for a task in your own words, set up Anthropic or an OpenAI-compatible model in "
                "the settings."),
             tr("Set up a &provider…"));
    return false;
}

QString TaskConsole::similarText() const
{
    return m_similar->isHidden() ? QString() : m_similarLabel->text();
}

void TaskConsole::setTaskMemoryDirectory(const QString& directory)
{
    m_taskMemoryDir = directory;
    updateSimilar();
}

void TaskConsole::updateSimilar()
{
    m_similarTimer->stop();
    const QString text = m_taskEdit->toPlainText().trimmed();
    const QList<SimilarTask> found =
        text.isEmpty() ? QList<SimilarTask>()
                       : TaskMemory(m_taskMemoryDir).similar(text, 1, TaskMemory::kDefaultFloor);
    if (found.isEmpty()) {
        m_similarId.clear();
        m_similarTask.clear();
        m_similar->hide();
        updateFromState();
        return;
    }
    const PastTask& past = found.first().task;
    m_similarId = past.id;
    m_similarTask = past.task;
    const qsizetype steps = past.steps.size();
    m_similarLabel->setText(tr("Similar to: “%1” (%2, %3)")
                                .arg(past.task.simplified(),
                                     past.recordedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd")),
                                     steps == 1 ? tr("1 step") : tr("%1 steps").arg(steps)));
    m_similarLabel->setToolTip(past.narrative);
    m_similar->show();
    updateFromState();
}

void TaskConsole::replaySimilar()
{
    if (m_similarId.isEmpty() || !m_runState->canRun())
        return;
    TaskRequest r = request();
    r.task = m_similarTask;
    r.replayTaskId = m_similarId;
    hideHint();
    emit runRequested(r);
}

QString TaskConsole::statusText() const
{
    return m_statusLabel->text();
}

void TaskConsole::run()
{
    const TaskRequest r = request();
    if (r.task.isEmpty() || !m_runState->canRun() || !checkPlannable(r))
        return;
    hideHint();
    emit runRequested(r);
}

void TaskConsole::step()
{
    if (m_runState->canResume()) {
        emit stepRequested();
        return;
    }
    TaskRequest r = request();
    if (r.task.isEmpty() || !m_runState->canRun() || !checkPlannable(r))
        return;
    hideHint();
    r.startPaused = true;
    emit runRequested(r);
}

void TaskConsole::updateFromState()
{
    const RunState& rs = *m_runState;
    const bool hasTask = !m_taskEdit->toPlainText().trimmed().isEmpty();
    m_run->setEnabled(rs.canRun() && hasTask);
    m_pause->setEnabled(rs.canPause());
    m_resume->setEnabled(rs.canResume());
    m_step->setEnabled(rs.canResume() || (rs.canRun() && hasTask));
    m_stop->setEnabled(rs.canStop());
    m_replay->setEnabled(rs.canRun() && !m_similarId.isEmpty());
    for (QWidget* w : {static_cast<QWidget*>(m_taskEdit), static_cast<QWidget*>(m_providerBox),
                       static_cast<QWidget*>(m_modelBox), static_cast<QWidget*>(m_speedBox),
                       static_cast<QWidget*>(m_dryRunBox)})
        w->setEnabled(rs.canEditTask());
    m_statusLabel->setText(rs.statusText());
    // A preview is not a success: its own colour, never the green of a done task.
    QString color;
    switch (rs.state() == AgentState::Finished ? rs.outcome() : RunState::Outcome::None) {
    case RunState::Outcome::Completed:
        color = QStringLiteral("#2e7d32");
        break;
    case RunState::Outcome::Preview:
        color = QStringLiteral("#1565c0");
        break;
    case RunState::Outcome::Failed:
    case RunState::Outcome::LimitReached:
    case RunState::Outcome::Unverified:
        color = QStringLiteral("#c62828");
        break;
    case RunState::Outcome::Stopped:
    case RunState::Outcome::None:
        break;
    }
    m_statusLabel->setStyleSheet(color.isEmpty() ? QString() : QStringLiteral("color: %1;").arg(color));
    if (rs.state() == AgentState::Starting)
        m_plan->clear();
    m_plan->setFinished(rs.state() == AgentState::Finished || rs.state() == AgentState::Idle);
}

} // namespace ciu::ui
