#pragma once

#include "core/director/actionflight.h"
#include "core/director/directortypes.h"
#include "core/director/mapwaiter.h"
#include "core/director/planbackend.h"
#include "core/director/processlauncher.h"
#include "core/director/readback.h"
#include "core/director/recentevents.h"
#include "core/director/recovery.h"
#include "core/director/safety/limits.h"
#include "core/director/secretmask.h"
#include "core/director/tasklearning.h"
#include "core/model/action.h"
#include "core/model/frame.h"
#include "core/model/sessionclock.h"
#include "core/model/spatialevent.h"
#include "core/model/zonemap.h"

#include <QJsonObject>
#include <QObject>
#include <QProcessEnvironment>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace ciu {

// The planning layer, a worker for the "director" thread. It works on structured data —
// zone maps, spatial events, action results — asks its planner (local, zone-level model loop or the
// classic screenshot loop) what to do, checks every proposed action (validation, zone existence,
// confidence, risk, dry run, limits), hands it to the brush (actionRequested → onActionFinished),
// verifies the result as the speed mode asks (ActionVerifier), and recovers from errors (RecoveryController):
//
//   zone not found      → analysisRequested (Tier 2), then re-plan
//   wrong zone clicked  → undo (ctrl+z) or back (Escape), then re-plan
//   zone state unexpected (disabled) → wait, retry, else let the planner find an alternative
//   brush lost          → recalibrate (move to a known position), restart the step
//   timeout / no change → re-execute once, then re-plan
//   task impossible     → finished() with the explanation
//
// Jobs of their own, each one member: what a task teaches for the next ones (TaskLearning: recorded
// sequences replayed in SPEED-MAX, past tasks remembered and looked up; the normal planner takes over,
// logged, when a replay cannot go on), reading typed text back from the tree or the latest frame (ReadBack,
// fed the frames and windows), waiting for zone maps and the account of second looks (MapWaiter), the
// spatial events kept for the planner and the recovery (RecentEvents), and the Launcher of `launch` actions.
class Director final : public QObject
{
    Q_OBJECT
public:
    // Creates the planner for a task (the engine installs one that knows the providers).
    using BackendFactory =
        std::function<std::unique_ptr<PlanBackend>(const DirectorOptions&, QString* error)>;

    explicit Director(QObject* parent = nullptr);
    ~Director() override;

    void setBackendFactory(BackendFactory factory) { m_factory = std::move(factory); }
    void setSessionClock(const SessionClock& clock) { m_clock = clock; }
    // Where `launch` starts programs (DISPLAY of the target display): a ProcessLauncher with `environment`.
    void setLaunchEnvironment(const QProcessEnvironment& environment);
    // What starts the programs of `launch` actions (default: a ProcessLauncher with the system environment).
    void setLauncher(std::unique_ptr<Launcher> launcher);

    DirectorState state() const { return m_state; }
    Plan plan() const;
    DirectorUsage usage() const { return m_usage; }
    SpeedMode speed() const { return m_speed.mode(); }
    bool isRunning() const { return m_phase != Phase::Idle && m_phase != Phase::Finished; }

public slots:
    void startTask(const QString& task, const ciu::DirectorOptions& options);
    void pause();
    void resume();
    void step(); // one action, then paused again
    // Ends the task as stopped; `reason` is the outcome's message (empty: "stopped by the user").
    void stop(const QString& reason = QString());
    void onZoneMap(const ciu::ZoneMapPtr& map);
    void onEvent(const ciu::SpatialEvent& event);
    void onFrame(const ciu::Frame& frame);
    // The top-level windows (bottom first) and the active one, as the window tracker reports them: steps
    // may name a window, and text typed into one is read back from its area.
    void onWindows(const QList<ciu::platform::WindowInfo>& windows,
                   const std::optional<ciu::platform::WindowInfo>& active);
    void onActionFinished(quint64 id, const ciu::ActionResult& result);
    // The canvas' answer to lookAgainRequested(token): the map once it caught up with a fresh frame.
    void onLookedAgain(quint64 token, const ciu::ZoneMapPtr& map);
    void answerConfirmation(quint64 id, bool approved);

signals:
    void actionRequested(quint64 id, const ciu::Action& action);
    void planUpdated(const ciu::Plan& plan);
    void eventOccurred(const ciu::SpatialEvent& event);
    void decisionRecorded(const QJsonObject& record);
    void confirmationRequested(quint64 id, const ciu::Action& action, const QString& reason);
    void analysisRequested(const QString& reason);
    // A verification found no effect within the settle time: the canvas is asked for a second look (a
    // fresh frame, everything it holds back analysed) and answers with onLookedAgain(token, map).
    void lookAgainRequested(quint64 token);
    void statusChanged(ciu::DirectorState state, const QString& detail);
    void usageUpdated(const ciu::DirectorUsage& usage);
    void finished(const ciu::TaskOutcome& outcome);

private:
    // What the task's loop is doing: the one source of truth for "is something outstanding". Each phase but
    // Ready has an outward DirectorState (statusChanged); Ready (between two steps, a proceed() is queued)
    // keeps the last one reported.
    enum class Phase : quint8
    {
        Idle = 1,             // no task yet                                      (Idle)
        Starting,             // task begun, maybe waiting for the first zone map (Starting)
        Ready,                // between steps: nothing outstanding               (unchanged)
        Deciding,             // the planner decides                              (Planning)
        AwaitingConfirmation, // the user is asked to confirm a high-risk action  (Confirming)
        Executing,            // an action with the brush, or a wait              (Executing)
        Recovering,           // a recovery move (recalibration, undo) with the brush (Recovering)
        AwaitingMap,          // waiting for a re-analysed map or a disabled zone (Recovering)
        Verifying,            // waiting for the canvas to settle / an expected change (Verifying)
        Paused,               // the loop is held by pause() or after step()      (Paused)
        Finished,             // the task ended                                   (Finished)
    };
    // How the loop goes on once the current step is done (pause, resume and step set it).
    enum class RunMode : quint8
    {
        Continuous = 1,
        Paused,     // hold before the next step
        SingleStep, // one more action, then Paused
    };
    // Whether setPhase reports the phase's outward state now or leaves it to the caller (finish()).
    enum class Report : quint8
    {
        Now = 1,
        Silently,
    };
    using MapPredicate = MapWaiter::Predicate;
    // A fresh look before a decision waits for the canvas up to this many re-analysis times.
    static constexpr int kFreshLookRounds = 3;
    int freshLookTimeoutMs() const { return kFreshLookRounds * m_options.reanalysisTimeoutMs; }

    static const char* phaseName(Phase phase);
    static std::optional<DirectorState> outwardState(Phase phase);
    void setPhase(Phase phase, const QString& detail = {}, Report report = Report::Now);
    // The brush, the planner or the user has something of ours (pause() reports Paused only otherwise).
    bool waitingForOthers() const;
    void setState(DirectorState state, const QString& detail = {});
    void scheduleProceed();
    void proceed();
    void requestDecision();
    void onDecided(const ciu::Decision& decision);
    // Learns the secrets among the texts a decision types (a password field as target, a text that looks
    // like a key), before the decision is recorded.
    void noteSecrets(const QList<ProposedAction>& actions);
    void executeNext();
    void runLocal(const ProposedAction& proposed);
    void dispatch(ActionFlight flight);
    void onActionTimeout();
    void afterExecution(ActionFlight flight, const ActionResult& result);
    void afterRecovery(const ActionResult& result); // of the pending recovery move
    void verify(ActionFlight flight, const ActionResult& result);
    // Reads the field `flight` typed into back (ReadBack::readSettled) with the current map and a second
    // look; `frameAfter`: the frame the brush saw the typing change (0: none).
    void readFieldTextSettled(const ActionFlight& flight, quint64 frameAfter,
                              std::function<void(const std::optional<QString>&)> done);
    // Before a verification concludes that the effect of `proposed` did not show: asks the canvas for a
    // second look and calls `then` once it answered, a map meeting `met` (if given) came, or the
    // re-analysis time is over (recorded as "second_look"). Without a canvas to ask, `then` at once.
    void takeSecondLook(const ProposedAction& proposed, const MapPredicate& met, std::function<void()> then);
    // Whether the zone map may not show the screen as the last action left it: it was built from a frame
    // older than the action's end and no look was answered since (an unchanged map keeps its frame's time).
    bool mapPredatesLastAction() const;
    // Before a decision on such a map: asks the canvas for a look and decides once it answered or a map of a
    // later frame came (recorded as "fresh_look"); when neither comes within the time of a few
    // re-analyses, the decision is taken on the outdated map and onDecided() treats it as such.
    void takeFreshLook();
    void finishAction(ActionOutcome outcome, bool cutBatch = false);
    void skipRemaining(const QString& why);
    static QString subjectKey(const ProposedAction& proposed); // what an action acted on (m_unseenEffects)
    void noteEffectSeen(const ProposedAction& proposed, const ActionOutcome& outcome);
    // Calls `then` once no new map came for a quiet period (a third of the settle time), or at `deadlineNs`.
    void waitForQuietMaps(qint64 deadlineNs, std::function<void()> then);
    void finish(TaskOutcome::Result result, const QString& message);
    void emitEvent(SpatialEvent::Kind kind, const QVariantMap& data, const QString& zoneId = {});
    void emitInfo(const QString& what, const QString& message, QVariantMap data = {});
    void emitError(const QString& what, const QString& message, QVariantMap data = {});
    void record(const QString& type, QJsonObject record);
    void escalate(const QString& reason);
    void emitPlan();
    ActionContext contextFor(const ProposedAction& proposed) const;
    std::unique_ptr<PlanBackend> defaultBackend(const DirectorOptions& options, QString* error) const;
    std::unique_ptr<PlanBackend> createBackend(QString* error) const;
    // Makes `backend` the planner and begins the task with it; false when it cannot begin (finished).
    bool installBackend(std::unique_ptr<PlanBackend> backend);
    // The replay planner gave up (Decision::Kind::Fallback): the normal planner takes over.
    void fallBackFromReplay(const QString& why);

    ActionResult launch(const Action& action);

    BackendFactory m_factory;
    std::unique_ptr<Launcher> m_launcher;
    SessionClock m_clock;
    DirectorOptions m_options;
    Phase m_phase = Phase::Idle;
    RunMode m_runMode = RunMode::Continuous;
    DirectorState m_state = DirectorState::Idle; // the outward state last reported
    std::unique_ptr<PlanBackend> m_backend;
    QString m_task;
    // The secrets this task types (its script's, and every text the guard marked secret since): masked in
    // every record, event, message and plan the Director gives out.
    SecretMask m_secrets;
    SpeedPolicy m_speed;
    safety::IterationBudget m_iterations;
    safety::CostBudget m_cost;
    DirectorUsage m_usage;

    ZoneMapPtr m_map;
    // The last maps received, oldest first: an action's effect is judged against the newest map of a frame
    // from before it acted (baselineFor()), which may have come after the action was sent.
    QList<ZoneMapPtr> m_recentMaps;
    static constexpr qsizetype kRecentMaps = 16;
    ZoneMapPtr baselineFor(const ActionFlight& flight, qint64 actedNs) const;
    qint64 m_actedNs = 0;       // when the last action ended (session clock; 0: none in this task)
    bool m_mapOutdated = false; // the decision asked for is taken on a map from before the last action
    ReadBack m_readBack;        // holds the latest frame and window list; reads typed text back
    RecentEvents m_events; // since the last decision, since the last dispatch; the pointer's last zone point

    QList<ProposedAction> m_queue;          // of the current decision, front = next
    std::optional<ActionFlight> m_inFlight; // Executing / Recovering: the action with the brush (or a wait)
    RecoveryController m_recovery;
    QString m_disabledWaitedFor; // the disabled zone waited for once (a second time fails the action)
    QString m_focusedZoneId;     // the zone clicked last: where typing without a zone goes
    // Executed actions whose effect was not seen, with what was seen. A later action whose effect is seen
    // takes out the entries of the same step (a run_steps step that got there another way) or of the same
    // subject (the model retried it). A model planner's "done" with any left ends the task unverified.
    struct UnseenEffect
    {
        QString step;    // "<tool_use_id>#<plan step>", empty: not part of a step
        QString subject; // what it acted on and how (subjectKey())
        QString message;
    };
    QList<UnseenEffect> m_unseenEffects;
    quint64 m_generation = 0; // bumped when a task starts or ends: stale timers do nothing
    TaskOutcome::Result m_result = TaskOutcome::Result::Failed;
    quint64 m_nextActionId = 0;

    struct Confirmation
    {
        quint64 id = 0;
        ActionFlight flight;
    };
    std::optional<Confirmation> m_confirmation; // AwaitingConfirmation: the action waiting for the answer

    QTimer m_actionTimer;
    MapWaiter m_maps; // Starting / AwaitingMap / Verifying: the map waited for; the second looks

    TaskLearning m_learning; // recorded sequences and past tasks
};

} // namespace ciu
