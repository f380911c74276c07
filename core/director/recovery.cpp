#include "core/director/recovery.h"

#include "core/director/directorlog.h"

namespace ciu {

bool RecoveryController::canReexecute(const ActionFlight& flight)
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

RecoveryController::Step RecoveryController::afterTimeout(ActionFlight flight)
{
    if (flight.recovery) {
        reset();
        return {};
    }
    return afterFailedVerification(std::move(flight)); // the same row: re-execute once, then re-plan
}

RecoveryController::Step RecoveryController::afterBrushLost(ActionFlight flight, QPoint screenCentre)
{
    if (flight.recalibrated)
        return {};
    flight.recalibrated = true;
    ActionFlight calibration;
    calibration.recovery = true;
    calibration.sent.type = Action::Type::MouseMove;
    calibration.sent.point = flight.target ? flight.target->center() : screenCentre;
    m_pending = Pending::Recalibrate;
    m_of = std::move(flight);
    m_reason = QStringLiteral("brush lost");
    qCDebug(lcDirector) << "recovery: recalibrate at" << *calibration.sent.point;
    return {Step::Kind::Recalibrate, calibration};
}

RecoveryController::Step RecoveryController::afterWrongZone(ActionFlight flight, const QString& message)
{
    if (!flight.proposed.undoable || flight.undone)
        return {};
    // Text that went astray is never "undone" with ctrl+z: many programs have no undo there (a GTK entry),
    // and where they do it may undo something else. The step is re-planned: its field is cleared and
    // retyped.
    if (flight.sent.type == Action::Type::TypeText || flight.sent.type == Action::Type::Paste)
        return {};
    flight.undone = true;
    ActionFlight undo;
    undo.recovery = true;
    undo.sent.type = Action::Type::Key;
    undo.sent.text = QStringLiteral("Escape");
    m_pending = Pending::Undo;
    m_of = std::move(flight);
    m_reason = message;
    qCDebug(lcDirector) << "recovery: undo with" << undo.sent.text;
    return {Step::Kind::Undo, undo};
}

RecoveryController::Step RecoveryController::afterFailedVerification(ActionFlight flight)
{
    if (flight.reexecuted || !canReexecute(flight))
        return {};
    flight.reexecuted = true;
    return {Step::Kind::Reexecute, std::move(flight)};
}

RecoveryController::Resolution RecoveryController::afterRecovery(const ActionResult& result)
{
    const Pending kind = m_pending;
    std::optional<ActionFlight> original = std::exchange(m_of, std::nullopt);
    const QString reason = m_reason;
    m_pending = Pending::None;
    Resolution r;
    if (!original)
        return r;
    r.original = std::move(*original);
    if (kind == Pending::Recalibrate && result.success) {
        r.kind = Resolution::Kind::Restart;
        return r;
    }
    r.kind = Resolution::Kind::Fail;
    r.error = reason;
    r.message = kind == Pending::Undo ? QStringLiteral("%1; undone, re-planning").arg(reason)
                                      : QStringLiteral("recalibration failed: %1").arg(result.error);
    return r;
}

void RecoveryController::reset()
{
    m_pending = Pending::None;
    m_of.reset();
}

} // namespace ciu
