#include "core/director/replayplanner.h"

#include <QTimer>

namespace ciu {

ReplayPlanner::ReplayPlanner(RecordedSequence sequence, QObject* parent)
    : PlanBackend(parent)
    , m_sequence(std::move(sequence))
{
}

bool ReplayPlanner::begin(const QString& task, QString* error)
{
    if (m_sequence.steps.isEmpty()) {
        *error = QStringLiteral("the recorded sequence has no steps");
        return false;
    }
    m_plan = Plan();
    m_plan.task = task;
    m_plan.status = Plan::Status::Executing;
    for (const RecordedStep& s : std::as_const(m_sequence.steps)) {
        PlanStep step;
        const ZoneRef& ref = s.target.isEmpty() ? s.focus : s.target;
        if (!ref.isEmpty()) {
            step.kind = PlanStep::Kind::ZoneAction;
            step.zoneLabel = ref.label.isEmpty() ? ref.caption : ref.label;
            step.zoneType = ref.type;
            step.verb = toString(s.action.type);
        } else {
            step.description = s.action.describe();
        }
        step.description = QStringLiteral("replayed: %1").arg(s.action.describe());
        m_plan.steps.append(step);
    }
    m_next = 0;
    m_resolveAttempts = 0;
    m_failure.clear();
    return true;
}

void ReplayPlanner::emitDecision(Decision decision)
{
    // decided() is queued by the Director; emitted from the event loop like the other planners.
    QTimer::singleShot(0, this, [this, decision] { emit decided(decision); });
}

Decision ReplayPlanner::fallback(const QString& why)
{
    if (m_next < m_plan.steps.size())
        m_plan.steps[m_next].status = PlanStep::Status::Failed;
    m_plan.status = Plan::Status::Failed;
    emit planChanged();
    Decision d;
    d.kind = Decision::Kind::Fallback;
    d.message = why;
    return d;
}

void ReplayPlanner::decide(const WorldState& world)
{
    if (!m_failure.isEmpty()) {
        emitDecision(fallback(m_failure));
        return;
    }
    if (m_next >= m_sequence.steps.size()) {
        m_plan.status = Plan::Status::Completed;
        emit planChanged();
        Decision d;
        d.kind = Decision::Kind::Complete;
        d.message = QStringLiteral("replayed the recorded sequence (%1 actions, recorded by the %2 planner)")
                        .arg(m_sequence.steps.size())
                        .arg(m_sequence.planner);
        emitDecision(d);
        return;
    }
    const RecordedStep& step = m_sequence.steps.at(m_next);
    ProposedAction p;
    p.action = step.action;
    p.expect = step.expect;
    p.planStep = m_next + 1;
    p.local = step.action.type == Action::Type::WaitForChange || step.action.type == Action::Type::Wait;
    // Verify only at the end (and at the waits the task named).
    p.checkpoint = m_next == m_sequence.steps.size() - 1 || step.action.type == Action::Type::WaitForChange;
    if (p.checkpoint && p.expect.kind == Expectation::Kind::None && !p.local)
        p.expect.kind = Expectation::Kind::AnyChange;
    QString missing;
    auto resolve = [&](const ZoneRef& ref, QString* id) {
        if (ref.isEmpty())
            return true;
        QString error;
        const auto zone = world.map ? ref.resolve(*world.map, &error) : std::nullopt;
        if (!zone) {
            missing = world.map ? error : QStringLiteral("no zone map");
            return false;
        }
        *id = zone->id;
        return true;
    };
    if (!resolve(step.target, &p.action.zoneId) || !resolve(step.end, &p.action.endZoneId) ||
        !resolve(step.focus, &p.focusZoneId)) {
        if (++m_resolveAttempts < kMaxResolveAttempts) {
            Decision d;
            d.kind = Decision::Kind::Reanalyze;
            d.message = QStringLiteral("replay: %1; waiting for a fresh zone map").arg(missing);
            emitDecision(d);
            return;
        }
        emitDecision(fallback(QStringLiteral("step %1 cannot be resolved: %2").arg(m_next + 1).arg(missing)));
        return;
    }
    m_resolveAttempts = 0;
    PlanStep& planStep = m_plan.steps[m_next];
    planStep.zoneId = p.action.zoneId.isEmpty() ? p.focusZoneId : p.action.zoneId;
    planStep.status = PlanStep::Status::Running;
    m_plan.currentStep = m_next + 1;
    emit planChanged();
    Decision d;
    d.kind = Decision::Kind::Act;
    d.actions = {p};
    emitDecision(d);
}

void ReplayPlanner::report(const ProposedAction& action, const ActionOutcome& outcome)
{
    const int index = action.planStep - 1;
    if (index < 0 || index >= m_plan.steps.size())
        return;
    const bool ok = outcome.status == ActionOutcome::Status::DryRun ||
                    (outcome.status == ActionOutcome::Status::Executed && outcome.result.success &&
                     !outcome.verificationFailed);
    if (!ok) {
        m_failure = QStringLiteral("step %1 (%2): %3")
                        .arg(index + 1)
                        .arg(action.action.describe(),
                             outcome.message.isEmpty() ? outcome.result.error : outcome.message);
        m_plan.steps[index].status = PlanStep::Status::Failed;
    } else {
        m_plan.steps[index].status = PlanStep::Status::Done;
        m_next = index + 1;
    }
    emit planChanged();
}

} // namespace ciu
