#pragma once

#include "core/brush/brushsettings.h"
#include "core/brush/heldinputs.h"
#include "core/brush/pointerguard.h"
#include "core/brush/trajectoryplanner.h"
#include "core/brush/zonetracker.h"
#include "core/model/action.h"
#include "core/model/frame.h"
#include "core/model/sessionclock.h"
#include "core/model/spatialevent.h"
#include "core/model/zonemap.h"
#include "platform/platform.h"

#include <QList>
#include <QObject>
#include <QPoint>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace ciu {

namespace platform {
class InputActions;
}

// The real-time bridge between the cursor and the canvas, a worker for the "brush"
// thread. It tracks the OS cursor against the latest ZoneMap (spatial events) and executes actions:
// look the zone up, plan, move along the trajectory at the step rate (a QTimer, so samples, maps and
// pause/stop are handled during motion), verify from the OS cursor that it is inside the target, act,
// watch for the canvas change, report an ActionResult.
//
// Safety: the brush remembers where it last put the pointer. While an action or a run is active, a
// cursor farther than lostTolerancePx from there means the human moved it: brush_lost, then takeover:
// everything pressed is released, the action fails, and the brush stays paused until resume(). Typing by
// the human is not detected (that needs XInput2/XRecord); pointer divergence is the takeover signal.
// A cursor pushed into the fail-safe corner stops everything until resetFailSafe().
//
// Every executeAction() gets exactly one actionFinished(); actionStarted() only when it was accepted.
// One action at a time: a second one while busy fails with "busy".
class BrushController final : public QObject
{
    Q_OBJECT
public:
    explicit BrushController(platform::PlatformOptions platformOptions, BrushSettings settings = {},
                             SessionClock clock = {}, QObject* parent = nullptr);
    ~BrushController() override;

    // State, for the owning thread (tests).
    bool isStarted() const { return m_platform != nullptr; }
    bool isPaused() const { return m_paused; }
    bool isFailSafeTriggered() const { return m_guard.isFailSafeTriggered(); }
    bool isBusy() const { return m_job != nullptr; }
    bool isRunActive() const { return m_runActive; }
    BrushSettings settings() const { return m_settings; }
    const ZoneTracker& tracker() const { return m_tracker; }
    ZoneMapPtr zoneMap() const { return m_map; }

public slots:
    // Opens the platform on the calling (brush) thread; emits started().
    void start();
    void onCursor(const ciu::CursorSample& sample);
    void onZoneMap(const ciu::ZoneMapPtr& map);
    void onChanges(const ciu::FrameDiff& diff);
    void executeAction(quint64 id, const ciu::Action& action);
    // Sweeps `region` slowly (exploratory trajectory) to trigger hover effects; reported like an action.
    void explore(quint64 id, const QRect& region);
    // Aborts the current action (releasing everything) and pauses until resume().
    void pause();
    void resume();
    // Aborts the current action and ends the run.
    void stop();
    // While a run is active, pointer motion between actions is a takeover too.
    void setRunActive(bool active);
    void resetFailSafe();
    void setSettings(const ciu::BrushSettings& settings);
    // Regions the brush never acts on (root coordinates): the agent's own windows when it works on the
    // display it is shown on. An action whose target lies inside one is refused; an empty list clears.
    void setExcludedRegions(const QList<QRect>& rects);

signals:
    void started(bool ok, const QString& error);
    void eventOccurred(const ciu::SpatialEvent& event);
    void actionStarted(quint64 id, const ciu::Action& action);
    void actionFinished(quint64 id, const ciu::ActionResult& result);
    void trajectoryPlanned(const QList<QPoint>& path, const QString& targetZoneId);
    void takeoverDetected(const ciu::SpatialEvent& event);
    void failSafeTriggered();
    void pausedChanged(bool paused);
    void actionActive(bool active);

private:
    struct Leg
    {
        QString zoneId;               // empty: a raw point
        std::optional<QPoint> offset; // inside the zone, from its top-left
        QPoint target;
        TrajectoryKind kind = TrajectoryKind::Direct;
        QRect exploreRegion;
        Trajectory trajectory;
        qsizetype step = 0;
        std::function<void()> then; // runs once the cursor is verified at the target
    };
    struct Job
    {
        quint64 id = 0;
        Action action;
        ActionResult result;
        std::optional<Leg> leg;
        int retries = 0;
        QString actZoneId; // the zone acted on (events, change scope)
        QRect watchRect;
        QRect ownLook; // a clicked button's or link's box: its own look changing is not yet its effect
        bool watching = false;
        bool sawChange = false;
        bool sawEffect = false; // a change outside ownLook
        qint64 actNs = 0;
    };

    // Execution steps (motion: brushcontrollermotion.cpp; acting: brushcontrolleractions.cpp).
    void dispatch();
    void act();
    bool resolve(Leg& leg, QString* error) const;
    void beginLeg(Leg leg);
    bool isExcluded(QPoint pos) const;
    bool planLeg(Leg& leg, QPoint from);
    void stepMotion();
    void verifyLeg();
    void recalibrate(const QString& reason, QPoint pos);
    void watchForChange();
    void finish(bool success, const QString& error = {});
    void fail(const QString& error) { finish(false, error); }
    void abortJob(const QString& error);
    void holdKeyDone();

    // Safety (brushcontrollersafety.cpp).
    std::optional<QPoint> readPointer();
    bool checkPointer(QPoint pos); // false when the fail-safe or a takeover fired
    void triggerFailSafe(QPoint pos);
    void takeover(QPoint pos);
    void releaseAll();
    bool moveTo(QPoint pos);

    void poll();
    void feed(QPoint pos, qint64 tNs);
    void emitEvents(const QList<SpatialEvent>& events);
    void emitEvent(const SpatialEvent& event);
    QString zoneIdAt(QPoint pos) const;
    void noteWindowAt(QPoint pos); // remembers the window an action aimed at
    void focusWindowForKeys();     // no window focused: activates the one acted on last, or the topmost
    bool isPasswordZone(const QString& zoneId) const;
    QRect screenRect() const;
    void applySettings();
    static QVariantMap pointMap(QPoint p);

    platform::PlatformOptions m_platformOptions;
    BrushSettings m_settings;
    QList<QRect> m_excluded; // never acted on (the agent's own windows)
    SessionClock m_clock;
    std::unique_ptr<platform::Platform> m_platform;
    std::unique_ptr<platform::InputActions> m_actions;
    ZoneTracker m_tracker;
    TrajectoryPlanner m_planner;
    ZoneMapPtr m_map;
    std::unique_ptr<Job> m_job;
    QTimer m_stepTimer;
    QTimer m_pollTimer;
    QTimer m_holdTimer;
    QTimer m_waitTimer;
    QTimer m_watchTimer;
    PointerGuard m_guard; // where the brush last put the pointer, the fail-safe, takeovers
    HeldInputs m_held;    // released on failure, takeover, fail-safe and stop
    bool m_paused = false;
    bool m_runActive = false;
    bool m_haveChangeFeed = false;
    quint64 m_lastWindowId = 0; // the top-level window the last aimed action went to
};

} // namespace ciu
