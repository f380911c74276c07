#include "core/director/director.h"
#include "core/director/directorinternal.h"
#include "core/director/verification.h"

// The Director's side of the recovery ladder after an action: it asks the RecoveryController what comes next
// (re-execute, recalibrate, undo or give up) and carries it out: messages, records, dispatch, the outcome.

namespace ciu {

void Director::onActionTimeout()
{
    if (!m_inFlight)
        return;
    const ActionFlight flight = *std::exchange(m_inFlight, std::nullopt);
    setPhase(Phase::Ready);
    const QString what = QStringLiteral("no result for %1 within %2 ms")
                             .arg(flight.sent.describe())
                             .arg(m_options.actionTimeoutMs + std::max(0, flight.sent.durationMs));
    emitError(QStringLiteral("action_timeout"), what);
    escalate(what);
    const RecoveryController::Step next = m_recovery.afterTimeout(flight);
    if (next.kind == RecoveryController::Step::Kind::Reexecute) {
        emitInfo(QStringLiteral("reexecute"),
                 QStringLiteral("re-executing %1 after a timeout").arg(flight.sent.describe()));
        dispatch(next.flight);
        return;
    }
    ActionOutcome o;
    o.status = ActionOutcome::Status::Failed;
    o.retry = true;
    if (flight.recovery) {
        o.message = QStringLiteral("recovery failed: %1").arg(what);
    } else {
        o.result.error = what;
        o.message = what;
    }
    finishAction(o);
}

void Director::afterExecution(ActionFlight flight, const ActionResult& result)
{
    // Brush lost: recalibrate (move to a known position), then restart the step.
    if (ActionVerifier::brushLost(result, m_events.sinceDispatch())) {
        escalate(QStringLiteral("brush lost"));
        const QSize screen = m_map ? m_map->screenSize() : m_readBack.lastFrame().image.size();
        const RecoveryController::Step next =
            m_recovery.afterBrushLost(flight, QPoint(screen.width() / 2, screen.height() / 2));
        if (next.kind == RecoveryController::Step::Kind::Recalibrate) {
            const QPoint known = next.flight.sent.point.value_or(QPoint());
            emitInfo(QStringLiteral("recalibrate"),
                     QStringLiteral("brush lost during %1; recalibrating at (%2, %3)")
                         .arg(flight.sent.describe())
                         .arg(known.x())
                         .arg(known.y()));
            dispatch(next.flight);
            return;
        }
        ActionOutcome o;
        o.status = ActionOutcome::Status::Failed;
        o.retry = true;
        o.result = result;
        o.message = QStringLiteral("the brush was lost again after recalibrating");
        finishAction(o);
        return;
    }
    if (!result.success) {
        emitError(QStringLiteral("action_failed"),
                  QStringLiteral("%1 failed: %2").arg(flight.sent.describe(), result.error));
        escalate(QStringLiteral("action failed"));
        ActionOutcome o;
        o.status = ActionOutcome::Status::Executed;
        o.result = result;
        o.retry = true;
        o.message = QStringLiteral("failed: %1").arg(result.error);
        o.mapAfter = m_map;
        finishAction(o);
        return;
    }
    // Wrong zone: the click or the text landed somewhere else; undo it once, then re-plan.
    const QString wrong = ActionVerifier::wrongZone(flight, result, m_events.sinceDispatch());
    if (!wrong.isEmpty()) {
        const QString expected = flight.target ? flight.target->id : flight.proposed.focusZoneId;
        const QString message =
            QStringLiteral("%1 landed in %2 instead of %3").arg(flight.sent.describe(), wrong, expected);
        emitError(QStringLiteral("wrong_zone"), message);
        escalate(message);
        const RecoveryController::Step next = m_recovery.afterWrongZone(flight, message);
        if (next.kind == RecoveryController::Step::Kind::Undo) {
            emitInfo(QStringLiteral("undo"),
                     QStringLiteral("undoing with %1: %2").arg(next.flight.sent.text, message));
            dispatch(next.flight);
            return;
        }
        ActionOutcome o;
        o.status = ActionOutcome::Status::Executed;
        o.result = result;
        o.result.success = false;
        o.result.error = message;
        o.retry = true;
        o.message = message;
        o.mapAfter = m_map;
        finishAction(o);
        return;
    }
    verify(flight, result);
}

void Director::afterRecovery(const ActionResult& result)
{
    const RecoveryController::Resolution r = m_recovery.afterRecovery(result);
    switch (r.kind) {
    case RecoveryController::Resolution::Kind::Proceed:
        scheduleProceed();
        return;
    case RecoveryController::Resolution::Kind::Restart:
        dispatch(r.original);
        return;
    case RecoveryController::Resolution::Kind::Fail:
        break;
    }
    ActionOutcome o;
    o.status = ActionOutcome::Status::Executed;
    o.result.success = false;
    o.result.error = r.error;
    o.retry = true;
    o.message = r.message;
    o.mapAfter = m_map;
    finishAction(o);
}

} // namespace ciu
