#include "ui/runstate.h"

#include "ui/uilog.h"

#include <QCoreApplication>

namespace ciu::ui {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("ciu::ui::RunState", text);
}

} // namespace

QString toDisplayString(AgentState state)
{
    switch (state) {
    case AgentState::Idle:
        return tr("Idle");
    case AgentState::Starting:
        return tr("Starting");
    case AgentState::Running:
        return tr("Running");
    case AgentState::Paused:
        return tr("Paused");
    case AgentState::TakenOver:
        return tr("Taken over");
    case AgentState::Stopping:
        return tr("Stopping");
    case AgentState::Finished:
        return tr("Finished");
    }
    return {};
}

RunState::Outcome runOutcome(const TaskOutcome& outcome)
{
    switch (outcome.result) {
    case TaskOutcome::Result::Completed:
        return outcome.dryRun ? RunState::Outcome::Preview : RunState::Outcome::Completed;
    case TaskOutcome::Result::Stopped:
        return RunState::Outcome::Stopped;
    case TaskOutcome::Result::IterationLimit:
    case TaskOutcome::Result::CostLimit:
        return RunState::Outcome::LimitReached;
    case TaskOutcome::Result::Failed:
    case TaskOutcome::Result::Impossible:
        return RunState::Outcome::Failed;
    case TaskOutcome::Result::Unverified:
        return outcome.dryRun ? RunState::Outcome::Preview : RunState::Outcome::Unverified;
    }
    return RunState::Outcome::Failed;
}

QString outcomeText(const TaskOutcome& outcome)
{
    switch (runOutcome(outcome)) {
    case RunState::Outcome::Completed:
        return tr("Done: %1").arg(outcome.message);
    case RunState::Outcome::Preview:
        return tr("Preview only: nothing was done. Planned steps: %1. Untick Dry run to execute.")
            .arg(outcome.plan.steps.size());
    case RunState::Outcome::Stopped:
        return tr("Stopped by you.");
    case RunState::Outcome::LimitReached:
        return tr("Stopped at the limit: %1").arg(outcome.message);
    case RunState::Outcome::Failed:
        return tr("Failed: %1").arg(outcome.message);
    case RunState::Outcome::Unverified:
        return tr("Not verified: %1").arg(outcome.message);
    case RunState::Outcome::None:
        break;
    }
    return {};
}

RunState::RunState(QObject* parent)
    : QObject(parent)
    , m_text(tr("Ready. Type a task and press Run."))
{
}

bool RunState::isActive() const
{
    return m_state == AgentState::Starting || m_state == AgentState::Running ||
           m_state == AgentState::Paused || m_state == AgentState::TakenOver ||
           m_state == AgentState::Stopping;
}

bool RunState::canRun() const
{
    return m_state == AgentState::Idle || m_state == AgentState::Finished;
}

bool RunState::canPause() const
{
    return m_state == AgentState::Running;
}

bool RunState::canResume() const
{
    return m_state == AgentState::Paused;
}

bool RunState::canStep() const
{
    return m_state == AgentState::Paused || canRun();
}

bool RunState::canStop() const
{
    return m_state == AgentState::Starting || m_state == AgentState::Running ||
           m_state == AgentState::Paused || m_state == AgentState::TakenOver;
}

void RunState::set(AgentState state, const QString& text)
{
    if (state == m_state && text == m_text)
        return;
    qCDebug(lcUi).noquote() << "run state" << toDisplayString(m_state) << "→" << toDisplayString(state)
                            << text;
    m_state = state;
    m_text = text;
    emit changed();
}

void RunState::start(bool dryRun)
{
    if (!canRun())
        return;
    m_dryRun = dryRun;
    m_outcome = Outcome::None;
    set(AgentState::Starting, dryRun ? tr("Starting a preview (dry run)…") : tr("Starting…"));
}

void RunState::setDirectorState(DirectorState state, const QString& detail)
{
    // Only a running task's reports count: a late report after Stop or the end changes nothing, and while
    // the user has the display the run stays taken over whatever the Director says.
    if (m_state == AgentState::Idle || m_state == AgentState::Finished || m_state == AgentState::Stopping ||
        m_state == AgentState::TakenOver)
        return;
    switch (state) {
    case DirectorState::Idle:
    case DirectorState::Finished:
        return; // the end comes with its outcome (finish())
    case DirectorState::Paused:
        set(AgentState::Paused, tr("Paused. Resume to continue, Step for one action, Stop to end."));
        return;
    case DirectorState::Confirming:
        set(AgentState::Running, tr("Waiting for your answer: %1").arg(detail));
        return;
    case DirectorState::Starting:
        // Its detail is the task itself; it waits for the first zone map.
        set(AgentState::Starting, tr("Looking at the screen before the first step…"));
        return;
    case DirectorState::Planning:
    case DirectorState::Executing:
    case DirectorState::Verifying:
    case DirectorState::Recovering:
        if (detail.isEmpty() && m_state == AgentState::Running)
            return;
        set(AgentState::Running, detail.isEmpty() ? (m_dryRun ? tr("Previewing (dry run)…") : tr("Running…"))
                                                  : (m_dryRun ? tr("Previewing: %1").arg(detail) : detail));
        return;
    }
}

void RunState::setTakeover(bool on)
{
    if (on == m_takenOver)
        return;
    m_takenOver = on;
    if (on) {
        if (m_state == AgentState::Starting || m_state == AgentState::Running ||
            m_state == AgentState::Paused)
            set(AgentState::TakenOver, tr("You have control of the target display; the agent is paused."));
        return;
    }
    if (m_state == AgentState::TakenOver)
        set(AgentState::Paused, tr("Paused after your takeover. Resume to continue, Stop to end."));
}

void RunState::requestStop()
{
    if (!canStop())
        return;
    set(AgentState::Stopping, tr("Stopping…"));
}

void RunState::finish(const TaskOutcome& outcome)
{
    m_outcome = runOutcome(outcome);
    m_dryRun = outcome.dryRun;
    set(AgentState::Finished, outcomeText(outcome));
}

void RunState::engineFailed(const QString& error)
{
    if (isActive())
        m_outcome = Outcome::Failed;
    set(isActive() || m_state == AgentState::Finished ? AgentState::Finished : AgentState::Idle,
        tr("The engine failed: %1").arg(error));
}

} // namespace ciu::ui
