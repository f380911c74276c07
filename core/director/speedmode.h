#pragma once

#include "core/model/action.h"
#include "core/model/zone.h"

#include <QString>

#include <optional>

namespace ciu {

// How much verification the Director does between actions.
enum class SpeedMode : quint8
{
    Max = 1, // verify only at checkpoints the plan names ("wait for …")
    High,    // verify at transitions (window/dialog/app switch, form submission, navigation)
    Medium,  // transitions plus every state-changing click, text input, scroll and shortcut (default)
    Low,     // verify after every action
};

QString toString(SpeedMode mode);
std::optional<SpeedMode> speedModeFromString(const QString& name); // "max", "high", "medium", "low"

// How an action is checked afterwards.
enum class Verification : quint8
{
    None = 1, // go on without waiting for the canvas
    Local,    // wait for the canvas to settle and check the expected change in the zone map
    Model,    // like Local, then let the model confirm (with a screenshot when the mode says so)
};
QString toString(Verification verification);

// What the policy needs to know about one action.
struct ActionContext
{
    Action action;
    std::optional<ZoneType> zoneType; // of the target zone, when the action has one
    QString zoneLabel;
    bool checkpoint = false;     // the plan marked it ("wait for …")
    bool modelAvailable = false; // a model backend can verify; otherwise Model becomes Local
};

// The speed mode of one session: which actions are verification points and how, and escalation on a
// failed verification (Max → High → Medium → Low), never back down within the session.
class SpeedPolicy
{
public:
    explicit SpeedPolicy(SpeedMode mode = SpeedMode::Medium)
        : m_mode(mode)
        , m_initial(mode)
    {
    }

    SpeedMode mode() const { return m_mode; }
    SpeedMode initialMode() const { return m_initial; }

    // True for actions that switch applications, open or close windows and dialogs, submit forms or
    // navigate (the SPEED-HIGH list).
    static bool isTransition(const ActionContext& context);
    // True for actions that should change the UI state (the SPEED-MEDIUM list).
    static bool changesState(const ActionContext& context);

    Verification verificationFor(const ActionContext& context) const;
    // Whether a verification of this kind sends a screenshot to the model.
    bool screenshotForVerification(const ActionContext& context) const;

    // After a failed verification: moves one mode slower. Returns the new mode, or nullopt at Low.
    std::optional<SpeedMode> escalate();
    // Asks for a mode; only slower (safer) modes are accepted within a session. Returns whether it changed.
    bool request(SpeedMode mode);
    int escalations() const { return m_escalations; }

private:
    SpeedMode m_mode;
    SpeedMode m_initial;
    int m_escalations = 0;
};

} // namespace ciu
