#include "core/director/director.h"
#include "core/director/directorinternal.h"

// The seed's error table after an action: timeout → re-execute once, then re-plan; brush lost →
// recalibrate and restart the step; wrong zone → undo (ctrl+z) or back (Escape), then re-plan.

namespace ciu {

void Director::onActionTimeout()
{
    if (!m_inFlight)
        return;
    InFlight flight = *m_inFlight;
    m_inFlight.reset();
    const QString what = QStringLiteral("no result for %1 within %2 ms")
                             .arg(flight.sent.describe())
                             .arg(m_options.actionTimeoutMs + std::max(0, flight.sent.durationMs));
    emitError(QStringLiteral("action_timeout"), what);
    escalate(what);
    if (flight.recovery) {
        m_recovery = Recovery::None;
        m_recoveryOf.reset();
        ActionOutcome o;
        o.status = ActionOutcome::Status::Failed;
        o.retry = true;
        o.message = QStringLiteral("recovery failed: %1").arg(what);
        finishAction(o);
        return;
    }
    // Timeout: re-execute once, then re-plan.
    if (!flight.reexecuted && canReexecute(flight)) {
        emitInfo(QStringLiteral("reexecute"),
                 QStringLiteral("re-executing %1 after a timeout").arg(flight.sent.describe()));
        flight.reexecuted = true;
        dispatch(flight);
        return;
    }
    ActionOutcome o;
    o.status = ActionOutcome::Status::Failed;
    o.retry = true;
    o.result.error = what;
    o.message = what;
    finishAction(o);
}

void Director::afterExecution(InFlight flight, const ActionResult& result)
{
    // Brush lost: recalibrate (move to a known position), then restart the step.
    bool lost = result.error.contains(QLatin1String("brush lost"), Qt::CaseInsensitive) ||
                result.error.contains(QLatin1String("brush_lost"), Qt::CaseInsensitive);
    for (const SpatialEvent& e : std::as_const(m_eventsSinceDispatch))
        lost = lost || e.kind == SpatialEvent::Kind::BrushLost;
    if (lost) {
        escalate(QStringLiteral("brush lost"));
        if (!flight.recalibrated) {
            flight.recalibrated = true;
            InFlight calibration;
            calibration.recovery = true;
            calibration.sent.type = Action::Type::MouseMove;
            QPoint known = flight.target ? flight.target->center() : QPoint();
            if (!flight.target) {
                const QSize screen = m_map ? m_map->screenSize() : m_lastFrame.image.size();
                known = QPoint(screen.width() / 2, screen.height() / 2);
            }
            calibration.sent.point = known;
            m_recovery = Recovery::Recalibrate;
            m_recoveryOf = flight;
            m_recoveryReason = QStringLiteral("brush lost");
            emitInfo(QStringLiteral("recalibrate"),
                     QStringLiteral("brush lost during %1; recalibrating at (%2, %3)")
                         .arg(flight.sent.describe())
                         .arg(known.x())
                         .arg(known.y()));
            dispatch(calibration);
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
    // Wrong zone: the click or the text landed somewhere else.
    QString wrong;
    QString wrongType;
    if (flight.target && flight.sent.isClick()) {
        for (const SpatialEvent& e : std::as_const(m_eventsSinceDispatch)) {
            if (e.kind == SpatialEvent::Kind::ZoneClick && !e.zoneId.isEmpty() &&
                e.zoneId != flight.target->id && !flight.target->bounds.contains(e.point)) {
                // A click inside a child of the target (its caption) is still the target.
                const Zone* z = flight.mapBefore ? flight.mapBefore->find(e.zoneId) : nullptr;
                if (!z || !flight.target->bounds.contains(z->bounds))
                    wrong = e.zoneId;
            }
        }
        if (wrong.isEmpty() && !result.pointUsed.isNull() &&
            !flight.target->bounds.adjusted(-3, -3, 3, 3).contains(result.pointUsed)) {
            const Zone* z = flight.mapBefore ? flight.mapBefore->zoneAt(result.pointUsed) : nullptr;
            wrong =
                z ? z->id : QStringLiteral("(%1, %2)").arg(result.pointUsed.x()).arg(result.pointUsed.y());
        }
    }
    if (flight.sent.type == Action::Type::TypeText && !flight.proposed.focusZoneId.isEmpty()) {
        for (const SpatialEvent& e : std::as_const(m_eventsSinceDispatch)) {
            if (e.kind == SpatialEvent::Kind::ZoneType && !e.zoneId.isEmpty() &&
                e.zoneId != flight.proposed.focusZoneId)
                wrong = e.zoneId;
        }
    }
    if (!wrong.isEmpty()) {
        const QString expected = flight.target ? flight.target->id : flight.proposed.focusZoneId;
        const QString message =
            QStringLiteral("%1 landed in %2 instead of %3").arg(flight.sent.describe(), wrong, expected);
        emitError(QStringLiteral("wrong_zone"), message);
        escalate(message);
        if (flight.proposed.undoable && !flight.undone) {
            flight.undone = true;
            InFlight undo;
            undo.recovery = true;
            undo.sent.type = Action::Type::Key;
            undo.sent.text = flight.sent.type == Action::Type::TypeText ? QStringLiteral("ctrl+z")
                                                                        : QStringLiteral("Escape");
            m_recovery = Recovery::Undo;
            m_recoveryOf = flight;
            m_recoveryReason = message;
            emitInfo(QStringLiteral("undo"),
                     QStringLiteral("undoing with %1: %2").arg(undo.sent.text, message));
            dispatch(undo);
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

void Director::afterRecovery(const InFlight& recovery, const ActionResult& result)
{
    Q_UNUSED(recovery)
    const Recovery kind = m_recovery;
    std::optional<InFlight> original = m_recoveryOf;
    const QString reason = m_recoveryReason;
    m_recovery = Recovery::None;
    m_recoveryOf.reset();
    if (!original) {
        scheduleProceed();
        return;
    }
    if (kind == Recovery::Recalibrate && result.success) {
        // Restart the step.
        dispatch(*original);
        return;
    }
    ActionOutcome o;
    o.status = ActionOutcome::Status::Executed;
    o.result.success = false;
    o.result.error = reason;
    o.retry = true;
    o.message = kind == Recovery::Undo ? QStringLiteral("%1; undone, re-planning").arg(reason)
                                       : QStringLiteral("recalibration failed: %1").arg(result.error);
    o.mapAfter = m_map;
    finishAction(o);
}

bool Director::canReexecute(const InFlight& flight) const
{
    switch (flight.sent.type) {
    case Action::Type::TypeText:
    case Action::Type::Paste:
    case Action::Type::Cut:
    case Action::Type::Launch:
    case Action::Type::Key:
    case Action::Type::HoldKey:
    case Action::Type::ClipboardWrite:
        return false; // repeating them would type, paste or run twice
    default:
        break;
    }
    const Expectation::Kind kind = flight.proposed.expect.kind;
    if (kind == Expectation::Kind::StateChecked || kind == Expectation::Kind::StateUnchecked)
        return false; // a second click would toggle it back: the planner re-plans from the map instead
    if (flight.target && flight.target->type == ZoneType::CheckBox)
        return false;
    return true;
}

} // namespace ciu
