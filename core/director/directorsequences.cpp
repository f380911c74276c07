#include "core/director/director.h"
#include "core/director/directorinternal.h"
#include "core/director/replayplanner.h"
#include "core/director/sequencelibrary.h"

// The MAX speed mode's recorded sequences: what a successful task did is stored (zone references, never
// coordinates); a later SPEED-MAX task that matches is replayed without model calls, and the normal planner
// takes over when the replay cannot go on.

namespace ciu {

std::unique_ptr<PlanBackend> Director::replayBackend()
{
    if (!m_options.replayTaskId.isEmpty())
        return pastTaskReplay();
    if (m_options.speed != SpeedMode::Max || !m_options.replaySequences)
        return nullptr;
    const SequenceLibrary library(m_options.sequenceDir);
    QString warning;
    std::optional<RecordedSequence> sequence = library.find(m_task, &warning);
    if (!warning.isEmpty())
        emitError(QStringLiteral("sequence_ignored"), warning);
    if (!sequence)
        return nullptr;
    emitInfo(
        QStringLiteral("sequence_replay"),
        QStringLiteral("replaying the recorded sequence for this task (%1 actions, recorded %2 by the %3 "
                       "planner); no model calls, verified at the end")
            .arg(sequence->steps.size())
            .arg(sequence->recordedAt.toString(Qt::ISODate), sequence->planner),
        {{QStringLiteral("file"), library.pathFor(m_task)}});
    record(QStringLiteral("sequence_replay"), {{QStringLiteral("file"), library.pathFor(m_task)},
                                               {QStringLiteral("steps"), int(sequence->steps.size())}});
    return std::make_unique<ReplayPlanner>(std::move(*sequence));
}

void Director::fallBackFromReplay(const QString& why)
{
    const QString message = QStringLiteral("replay → normal planning: %1")
                                .arg(why.isEmpty() ? QStringLiteral("replay failed") : why);
    emitError(QStringLiteral("replay_escalated"), message);
    record(QStringLiteral("replay_escalated"), {{QStringLiteral("reason"), why}});
    escalate(QStringLiteral("the recorded sequence did not fit the screen"));
    m_replaying = false; // the replayed actions that worked stay: the planner's follow them in the record
    QString error;
    std::unique_ptr<PlanBackend> backend = createBackend(&error);
    if (!backend) {
        finish(TaskOutcome::Result::Failed,
               QStringLiteral("%1; no planner to take over: %2")
                   .arg(message, error.isEmpty() ? QStringLiteral("none") : error));
        return;
    }
    // The replay planner sent this decision: it may only go once the signal has been delivered.
    m_backend->disconnect(this);
    m_backend.release()->deleteLater();
    if (!installBackend(std::move(backend)))
        return;
    emitPlan();
    emitInfo(
        QStringLiteral("planner_changed"),
        QStringLiteral("%1 planner takes over, speed %2").arg(m_backend->name(), toString(m_speed.mode())));
    scheduleProceed();
}

void Director::noteDispatched(const ActionFlight& flight)
{
    m_pendingStep.reset();
    if (flight.recovery)
        return;
    if (flight.proposed.action.secretText || flight.sent.secretText) {
        // A password is never written to a sequence file.
        m_sequenceNotRecordableWhy = QStringLiteral("not recorded for replay: an action typed a secret");
        return;
    }
    if (flight.sent.type == Action::Type::ActivateWindow) {
        // A window id is good for this session only.
        m_sequenceNotRecordableWhy = QStringLiteral("not recorded for replay: a step named a window");
        return;
    }
    m_pendingStep = RecordedStep::from(flight.proposed, flight.mapBefore.get());
    if (const Zone* target = flight.mapBefore ? flight.mapBefore->find(flight.sent.zoneId) : nullptr;
        target && !target->application.isEmpty())
        ++m_stepApplications[target->application];
    if (!m_pendingStep) {
        // Raw coordinates: not replayable on another run.
        m_sequenceNotRecordableWhy =
            QStringLiteral("not recorded for replay: an action used raw screen coordinates");
    }
}

void Director::noteOutcome(const ProposedAction& proposed, const ActionOutcome& outcome)
{
    const bool succeeded = outcome.status == ActionOutcome::Status::Executed && outcome.result.success &&
                           !outcome.verificationFailed;
    if (proposed.local) {
        // A wait the task named ("wait for \"Saved\"") is part of the sequence; screenshots are not.
        if (succeeded && proposed.action.type == Action::Type::WaitForChange) {
            if (auto step = RecordedStep::from(proposed, nullptr))
                m_recordedSteps.append(*step);
        }
        return;
    }
    std::optional<RecordedStep> step = std::exchange(m_pendingStep, std::nullopt);
    if (succeeded && step)
        m_recordedSteps.append(*step);
}

void Director::storeSequence()
{
    if (!m_options.recordSequences || m_options.dryRun || m_replaying || m_recordedSteps.isEmpty())
        return;
    if (!m_sequenceNotRecordableWhy.isEmpty()) {
        emitInfo(QStringLiteral("sequence_not_recorded"), m_sequenceNotRecordableWhy);
        return;
    }
    RecordedSequence sequence;
    sequence.task = m_task;
    sequence.planner = m_backend ? m_backend->name() : m_options.provider;
    sequence.recordedAt = QDateTime::currentDateTimeUtc();
    sequence.steps = m_recordedSteps;
    const SequenceLibrary library(m_options.sequenceDir);
    QString error;
    if (!library.store(sequence, &error)) {
        emitError(QStringLiteral("sequence_not_recorded"), error);
        return;
    }
    emitInfo(QStringLiteral("sequence_recorded"),
             QStringLiteral("recorded %1 actions for replay in SPEED-MAX").arg(sequence.steps.size()),
             {{QStringLiteral("file"), library.pathFor(m_task)}});
    record(QStringLiteral("sequence_recorded"), {{QStringLiteral("file"), library.pathFor(m_task)},
                                                 {QStringLiteral("steps"), int(sequence.steps.size())}});
}

} // namespace ciu
