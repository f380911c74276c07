#pragma once

#include "core/director/actionflight.h"

#include <QPoint>
#include <QString>

#include <optional>

namespace ciu {

// The recovery ladder after an action goes wrong, without the Director around it: which recovery comes next
// for which failure and when it gives up (the planner then re-plans from the outcome).
//
//   timeout / no change  → re-execute once (not for typing, keys, launches or check boxes), then give up
//   brush lost           → recalibrate (a move to a known position), restart the step; lost again: give up
//   wrong zone           → after a click: Escape once, then give up; after typing: give up at once (no
//   ctrl+z:
//                          the planner clears the field and retypes)
//   a recovery move fails or times out → give up
//
// It holds the one pending recovery move (recalibration or undo) and the action it serves: the Director
// dispatches the move a decision names and calls afterRecovery() with the move's result.
class RecoveryController final
{
public:
    struct Step
    {
        enum class Kind : quint8
        {
            GiveUp = 1,  // report the failure; the planner re-plans
            Reexecute,   // dispatch `flight` (the same action) again
            Recalibrate, // dispatch `flight` (a recovery move); afterRecovery() restarts the action
            Undo,        // dispatch `flight` (a recovery key); afterRecovery() reports the wrong zone
        };
        Kind kind = Kind::GiveUp;
        ActionFlight flight; // what to dispatch (not for GiveUp)
    };

    // What to do once a recovery move is back.
    struct Resolution
    {
        enum class Kind : quint8
        {
            Proceed = 1, // no recovery was pending: go on with the loop
            Restart,     // dispatch `original` again (recalibrated)
            Fail,        // report `message` as the action's failure (`error`: the reason of the recovery)
        };
        Kind kind = Kind::Proceed;
        ActionFlight original;
        QString error;
        QString message;
    };

    // An action that may be sent a second time: not one that types, pastes, presses keys, runs a program or
    // toggles a check box (repeating it would do it twice).
    static bool canReexecute(const ActionFlight& flight);

    // No result for `flight` in time. A recovery move that times out ends its recovery (give up).
    Step afterTimeout(ActionFlight flight);
    // The brush was lost during `flight`; `screenCentre` is where to recalibrate without a target zone.
    Step afterBrushLost(ActionFlight flight, QPoint screenCentre);
    // `flight` landed in another zone (`message` says which).
    Step afterWrongZone(ActionFlight flight, const QString& message);
    // `flight` executed, but its expected change did not show.
    Step afterFailedVerification(ActionFlight flight);

    // The pending recovery move is back with `result`; clears it.
    Resolution afterRecovery(const ActionResult& result);

    bool isRecovering() const { return m_pending != Pending::None; }
    // Forgets a pending recovery (a task starts or ends, a recovery move timed out).
    void reset();

private:
    enum class Pending : quint8
    {
        None = 1,
        Recalibrate,
        Undo
    };

    Pending m_pending = Pending::None;
    std::optional<ActionFlight> m_of; // the action the recovery serves
    QString m_reason;
};

} // namespace ciu
