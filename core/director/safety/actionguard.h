#pragma once

#include "core/director/safety/riskassessor.h"
#include "core/model/action.h"
#include "core/model/zonemap.h"

namespace ciu::safety {

// Who can answer a confirmation request.
enum class ConfirmationMode : quint8
{
    Ask = 1, // a person can: confirmationRequested() is answered through answerConfirmation()
    Refuse,  // nobody can (headless, no terminal): high-risk actions are refused, never executed
};

struct GuardOptions
{
    ActionLimits limits;        // screen size, text and duration limits
    double minConfidence = 0.1; // zones below it are not acted on (request a re-analysis instead)
    // Where typing goes when the action names no zone: the zone clicked last (else a focused text field).
    QString focusedZoneId;
};

// The check every proposed action passes before execution: known action, coordinates on screen, sizes
// within limits (ciu::validate), target zones that exist and are confident enough, and the risk.
struct GuardVerdict
{
    bool secretText = false; // the action types into a credential field: show and record its text masked
    enum class Kind : quint8
    {
        Allowed = 1,
        Invalid,           // refused: the action itself is malformed or outside the limits
        ZoneMissing,       // refused: a zone id the map does not have (re-analysis helps)
        LowConfidence,     // refused: the zone is too uncertain to act on (re-analysis helps)
        NeedsConfirmation, // valid, but high risk
    };
    Kind kind = Kind::Allowed;
    QString reason;
    Risk risk;
    bool allowed() const { return kind == Kind::Allowed; }
};

GuardVerdict checkAction(const Action& action, const ZoneMap* map, const GuardOptions& options,
                         const QString& windowTitle = {}, const QString& windowClass = {});

} // namespace ciu::safety
