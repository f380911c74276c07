// BrushController: construction and settings, cursor tracking (spatial events, hover ticks, the canvas
// changes an action is waiting for), accepting actions and reporting them finished. The motion lives in
// brushcontrollermotion.cpp, the safety (takeover, fail-safe, excluded regions) in
// brushcontrollersafety.cpp, the acting itself in brushcontrolleractions.cpp.

#include "core/brush/brushcontroller.h"

#include "core/brush/brushlog.h"
#include "platform/inputactions.h"
#include "platform/platformfactory.h"

#include <algorithm>

namespace ciu {

QVariantMap BrushController::pointMap(QPoint p)
{
    return {{QStringLiteral("x"), p.x()}, {QStringLiteral("y"), p.y()}};
}

BrushController::BrushController(platform::PlatformOptions platformOptions, BrushSettings settings,
                                 SessionClock clock, QObject* parent)
    : QObject(parent)
    , m_platformOptions(std::move(platformOptions))
    , m_settings(settings)
    , m_clock(clock)
    , m_stepTimer(this)
    , m_pollTimer(this)
    , m_holdTimer(this)
    , m_waitTimer(this)
    , m_watchTimer(this)
{
    qRegisterMetaType<BrushSettings>();
    qRegisterMetaType<QList<QPoint>>();
    m_stepTimer.setTimerType(Qt::PreciseTimer);
    m_holdTimer.setSingleShot(true);
    m_waitTimer.setSingleShot(true);
    m_watchTimer.setSingleShot(true);
    // A coarse timer may fire up to 5 % early; the grace after a button's own look must be whole.
    m_watchTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_stepTimer, &QTimer::timeout, this, &BrushController::stepMotion);
    connect(&m_pollTimer, &QTimer::timeout, this, &BrushController::poll);
    connect(&m_holdTimer, &QTimer::timeout, this, &BrushController::holdKeyDone);
    connect(&m_waitTimer, &QTimer::timeout, this, [this] {
        if (m_job)
            finish(true);
    });
    connect(&m_watchTimer, &QTimer::timeout, this, [this] {
        if (!m_job || !m_job->watching)
            return;
        if (m_job->action.type == Action::Type::WaitForChange && !m_job->result.changeObserved)
            fail(QStringLiteral("no canvas change within %1 ms").arg(m_watchTimer.interval()));
        else
            finish(true);
    });
    applySettings();
}

BrushController::~BrushController()
{
    // Never leave a button or key pressed behind.
    if (m_platform)
        releaseAll();
}

void BrushController::applySettings()
{
    ZoneTracker::Settings ts = m_tracker.settings();
    ts.hoverDwellNs = qint64(std::max(0, m_settings.hoverDwellMs)) * 1'000'000;
    m_tracker.setSettings(ts);
    m_planner.setSettings(m_settings.trajectory);
    m_guard.setSettings(m_settings);
    m_stepTimer.setInterval(std::max(1, 1000 / std::clamp(m_settings.trajectory.stepRateHz, 1, 1000)));
    m_pollTimer.setInterval(std::max(5, m_settings.pollIntervalMs));
}

void BrushController::setSettings(const BrushSettings& settings)
{
    m_settings = settings;
    applySettings();
}

void BrushController::start()
{
    if (m_platform) {
        emit started(true, {});
        return;
    }
    platform::PlatformResult opened = platform::createPlatform(m_platformOptions);
    if (!opened.platform) {
        qCWarning(lcBrush) << "cannot open the platform:" << opened.error;
        emit started(false, opened.error);
        return;
    }
    m_platform = std::move(opened.platform);
    m_actions = std::make_unique<platform::InputActions>(m_platform->input(), m_platform->pointer());
    m_pollTimer.start();
    qCInfo(lcBrush) << "brush started on" << m_platform->backendName() << m_platform->displayName();
    emit started(true, {});
}

// ---------------------------------------------------------------------------------------------------
// Tracking

void BrushController::emitEvent(const SpatialEvent& event)
{
    emit eventOccurred(event);
}

void BrushController::emitEvents(const QList<SpatialEvent>& events)
{
    for (const SpatialEvent& e : events)
        emitEvent(e);
}

void BrushController::feed(QPoint pos, qint64 tNs)
{
    emitEvents(m_tracker.update(CursorSample{tNs, pos, {}}));
}

void BrushController::onCursor(const CursorSample& sample)
{
    emitEvents(m_tracker.update(sample));
    if (m_guard.check(sample.pos) == PointerGuard::Verdict::FailSafe)
        triggerFailSafe(sample.pos);
}

void BrushController::onZoneMap(const ZoneMapPtr& map)
{
    m_map = map;
    emitEvents(m_tracker.setZoneMap(map, m_clock.nowNs()));
    // A target that moved away mid-motion: brush_lost now, and re-plan while moving.
    if (!m_job || !m_job->leg || m_job->leg->zoneId.isEmpty() || !m_stepTimer.isActive())
        return;
    const Leg& leg = *m_job->leg;
    const Zone* zone = m_map ? m_map->find(leg.zoneId) : nullptr;
    if (zone && zone->bounds.contains(leg.target))
        return;
    const auto pos = readPointer();
    if (!pos) {
        fail(QStringLiteral("cannot read the cursor position: the display is gone"));
        return;
    }
    recalibrate(zone ? QStringLiteral("target_moved") : QStringLiteral("target_vanished"), *pos);
}

void BrushController::onChanges(const FrameDiff& diff)
{
    m_haveChangeFeed = true;
    if (!m_job || !m_job->watching || diff.cursorOnly || diff.regions.isEmpty())
        return;
    if (diff.tNs < m_job->actNs)
        return; // captured before the action
    bool matched = false;
    for (const ChangeRegion& r : diff.regions) {
        if (m_settings.changeScope == ChangeScope::Anywhere || m_job->watchRect.isNull() ||
            r.rect.intersects(m_job->watchRect)) {
            m_job->result.changes << r;
            matched = true;
            if (m_job->ownLook.isNull() || !m_job->ownLook.contains(r.rect))
                m_job->sawEffect = true;
        }
    }
    if (matched) {
        m_job->result.changeObserved = true;
        m_job->result.frameAfter = diff.frameIndex;
        m_job->sawChange = true;
    }
    if (!m_job->sawChange || (m_settings.waitForStable && !diff.stable))
        return;
    if (!m_job->sawEffect) {
        // Only the clicked button's own look so far: its effect may be a frame away. Watch on until the
        // grace time after the click is over (the watch timer then ends the action as a success).
        const qint64 graceEndNs = m_job->actNs + qint64(std::max(0, m_settings.ownLookGraceMs)) * 1'000'000;
        const qint64 leftMs = (graceEndNs - m_clock.nowNs() + 999'999) / 1'000'000; // rounded up
        if (leftMs > 0) {
            if (!m_watchTimer.isActive() || m_watchTimer.remainingTime() > leftMs)
                m_watchTimer.start(int(leftMs));
            return;
        }
    }
    m_job->result.frameAfter = diff.frameIndex;
    finish(true);
}

void BrushController::poll()
{
    if (!m_platform)
        return;
    const qint64 now = m_clock.nowNs();
    if (m_job || m_runActive) {
        if (m_paused || m_guard.isFailSafeTriggered())
            return;
        const auto pos = readPointer();
        if (!pos)
            return;
        feed(*pos, now);
        checkPointer(*pos);
        return;
    }
    emitEvents(m_tracker.tick(now));
}

// ---------------------------------------------------------------------------------------------------
// Actions

QRect BrushController::screenRect() const
{
    if (m_platform) {
        const QSize s = m_platform->screen().size();
        if (!s.isEmpty())
            return QRect(QPoint(0, 0), s);
    }
    if (m_map && !m_map->screenSize().isEmpty())
        return QRect(QPoint(0, 0), m_map->screenSize());
    return {};
}

QString BrushController::zoneIdAt(QPoint pos) const
{
    const Zone* z = m_map ? m_map->zoneAt(pos) : nullptr;
    return z ? z->id : QString();
}

bool BrushController::isPasswordZone(const QString& zoneId) const
{
    const Zone* z = m_map && !zoneId.isEmpty() ? m_map->find(zoneId) : nullptr;
    if (!z)
        return false;
    return z->isPassword || (z->type == ZoneType::TextField &&
                             z->label.contains(QLatin1String("password"), Qt::CaseInsensitive));
}

void BrushController::executeAction(quint64 id, const Action& action)
{
    auto reject = [&](const QString& error) {
        ActionResult r;
        r.startNs = m_clock.nowNs();
        r.error = error;
        qCInfo(lcBrush) << "action" << id << toString(action.type) << "refused:" << error;
        emit actionFinished(id, r);
    };
    if (!m_platform)
        return reject(QStringLiteral("the brush has no platform (start() failed or was not called)"));
    if (m_guard.isFailSafeTriggered())
        return reject(QStringLiteral("fail-safe triggered: reset it before acting"));
    if (m_paused)
        return reject(QStringLiteral("the brush is paused; resume first"));
    if (m_job)
        return reject(QStringLiteral("busy: action %1 is still running").arg(m_job->id));
    if (action.type == Action::Type::Screenshot || action.type == Action::Type::Launch)
        return reject(QStringLiteral("%1 is not executed by the brush").arg(toString(action.type)));
    ActionLimits limits;
    limits.screenSize = screenRect().size();
    if (const QString invalid = validate(action, limits); !invalid.isEmpty())
        return reject(invalid);

    m_job = std::make_unique<Job>();
    m_job->id = id;
    m_job->action = action;
    m_job->result.startNs = m_clock.nowNs();
    qCInfo(lcBrush) << "action" << id << toString(action.type)
                    << (action.zoneId.isEmpty() ? QString() : action.zoneId);
    emit actionStarted(id, action);
    emit actionActive(true);

    // The pointer must still be where the brush left it during a run (the user may have taken over).
    const auto pos = readPointer();
    if (!pos)
        return fail(QStringLiteral("cannot read the cursor position: the display is gone"));
    if (!m_runActive && !m_stepTimer.isActive())
        m_guard.setLastCommanded(*pos); // outside a run, start from wherever the pointer is
    if (!checkPointer(*pos))
        return;
    dispatch();
}

void BrushController::explore(quint64 id, const QRect& region)
{
    Action a;
    a.type = Action::Type::MouseMove;
    a.point = region.center();
    if (!m_platform || m_guard.isFailSafeTriggered() || m_paused || m_job || region.isEmpty()) {
        ActionResult r;
        r.error =
            region.isEmpty()
                ? QStringLiteral("the region to explore is empty")
                : QStringLiteral("the brush cannot explore now (not started, paused, busy or fail-safe)");
        emit actionFinished(id, r);
        return;
    }
    m_job = std::make_unique<Job>();
    m_job->id = id;
    m_job->action = a;
    m_job->result.startNs = m_clock.nowNs();
    emit actionStarted(id, a);
    emit actionActive(true);
    const auto pos = readPointer();
    if (!pos)
        return fail(QStringLiteral("cannot read the cursor position: the display is gone"));
    if (!m_runActive)
        m_guard.setLastCommanded(*pos);
    if (!checkPointer(*pos))
        return;
    Leg leg;
    leg.kind = TrajectoryKind::Exploratory;
    leg.exploreRegion = region;
    leg.target = region.center();
    leg.then = [this] { finish(true); };
    beginLeg(std::move(leg));
}

void BrushController::dispatch()
{
    const Action& a = m_job->action;
    const bool hasTarget = !a.zoneId.isEmpty() || a.point.has_value();
    if (!hasTarget) {
        act();
        return;
    }
    Leg leg;
    leg.zoneId = a.zoneId;
    if (a.zoneId.isEmpty())
        leg.target = *a.point;
    else
        leg.offset = a.point;
    leg.kind = m_settings.trajectoryKind;
    leg.then = [this] { act(); };
    beginLeg(std::move(leg));
}

void BrushController::finish(bool success, const QString& error)
{
    if (!m_job)
        return;
    m_stepTimer.stop();
    m_holdTimer.stop();
    m_waitTimer.stop();
    m_watchTimer.stop();
    // A failed action leaves nothing pressed (a drag that lost its end zone, a half-done hold).
    if (!success)
        releaseAll();
    std::unique_ptr<Job> job = std::move(m_job);
    job->result.success = success;
    job->result.error = error;
    job->result.durationNs = m_clock.nowNs() - job->result.startNs;
    job->result.actedNs = job->actNs > 0 ? job->actNs : job->result.startNs + job->result.durationNs;
    if (!success)
        qCInfo(lcBrush) << "action" << job->id << toString(job->action.type) << "failed:" << error;
    emit actionFinished(job->id, job->result);
    emit actionActive(false);
}

} // namespace ciu
