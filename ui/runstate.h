// The one model of a run that the window shows: the task console's buttons, the toolbar's actions, the
// "agent active" indicator, the status line and the plan all read it, so none of them can go stale on its
// own. It is a pure state machine (no engine, no widgets): the window feeds it what happened (the user
// pressed Run or Stop, took over, the Director reported a state, the task finished) and reads back the state,
// what the user may do now and one sentence that says where the run stands.
#pragma once

#include "core/director/directortypes.h"

#include <QObject>
#include <QString>

namespace ciu::ui {

enum class AgentState : quint8
{
    Idle = 1,  // no task has run yet, or the engine is not there
    Starting,  // Run pressed; waiting for the engine and the Director to take the task
    Running,   // the Director plans, acts, verifies
    Paused,    // paused by the user (Pause, Step) or after a takeover ended
    TakenOver, // the user controls the target display; the agent is paused
    Stopping,  // Stop pressed; waiting for the Director to confirm
    Finished   // the task ended: see RunState::outcome()
};
QString toDisplayString(AgentState state);

class RunState final : public QObject
{
    Q_OBJECT
public:
    // How the last task ended.
    enum class Outcome : quint8
    {
        None = 1,     // no task ended yet
        Completed,    // executed and done
        Preview,      // a dry run that went through: nothing was done
        Stopped,      // the user stopped it
        Failed,       // failed, impossible, refused, declined, or the engine failed
        LimitReached, // the iteration or cost limit
        Unverified,   // every step ran, but an effect was not seen on the screen: not a success
    };
    Q_ENUM(Outcome)

    explicit RunState(QObject* parent = nullptr);

    AgentState state() const { return m_state; }
    Outcome outcome() const { return m_outcome; }
    bool isDryRun() const { return m_dryRun; }
    // A run is under way (the agent may move the mouse or is about to).
    bool isActive() const;
    // One sentence: where the run stands now.
    QString statusText() const { return m_text; }

    // What the user may do now.
    bool canRun() const;
    bool canPause() const;
    bool canResume() const;
    bool canStep() const;
    bool canStop() const;
    bool canEditTask() const { return canRun(); }

public slots:
    // Run (or Step from idle) pressed: a new task starts.
    void start(bool dryRun);
    // The Director's state and its detail ("executing click OK", "waiting 2000 ms").
    void setDirectorState(ciu::DirectorState state, const QString& detail);
    // The user took over the target display (or gave it back).
    void setTakeover(bool on);
    // Stop pressed (button, menu, hotkey).
    void requestStop();
    void finish(const ciu::TaskOutcome& outcome);
    // The engine failed or went away (display lost, restart): nothing runs any more.
    void engineFailed(const QString& error);

signals:
    void changed();

private:
    void set(AgentState state, const QString& text);

    AgentState m_state = AgentState::Idle;
    Outcome m_outcome = Outcome::None;
    bool m_dryRun = true;
    bool m_takenOver = false;
    QString m_text;
};

// The outcome of a finished task in the app's words: a dry run is a preview, a user's stop is not an error.
RunState::Outcome runOutcome(const TaskOutcome& outcome);
QString outcomeText(const TaskOutcome& outcome);

} // namespace ciu::ui
