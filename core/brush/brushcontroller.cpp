#include "core/brush/brushcontroller.h"

#include "core/brush/brushlog.h"
#include "platform/inputactions.h"
#include "platform/keys.h"
#include "platform/platformfactory.h"

#include <QJsonArray>
#include <QLineF>

#include <algorithm>
#include <cmath>

namespace ciu {
namespace {

QVariantMap pointMap(QPoint p)
{
    return {{QStringLiteral("x"), p.x()}, {QStringLiteral("y"), p.y()}};
}

double distance(QPoint a, QPoint b)
{
    return QLineF(a, b).length();
}

} // namespace

std::optional<double> BrushSettings::speedForMode(const QString& mode)
{
    const QString m = mode.trimmed().toLower();
    if (m == QLatin1String("max"))
        return 0.0;
    if (m == QLatin1String("high"))
        return 4000.0;
    if (m == QLatin1String("medium"))
        return 1500.0;
    if (m == QLatin1String("low"))
        return 600.0;
    return std::nullopt;
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
    if (m_settings.failSafeEnabled && !m_failSafe && inFailSafeCorner(sample.pos))
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
        }
    }
    if (matched) {
        m_job->result.changeObserved = true;
        m_job->result.frameAfter = diff.frameIndex;
        m_job->sawChange = true;
    }
    if (m_job->sawChange && (!m_settings.waitForStable || diff.stable)) {
        m_job->result.frameAfter = diff.frameIndex;
        finish(true);
    }
}

void BrushController::poll()
{
    if (!m_platform)
        return;
    const qint64 now = m_clock.nowNs();
    if (m_job || m_runActive) {
        if (m_paused || m_failSafe)
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
// Safety

std::optional<QPoint> BrushController::readPointer()
{
    return m_platform ? m_platform->pointer().position() : std::nullopt;
}

bool BrushController::inFailSafeCorner(QPoint pos) const
{
    const int t = std::max(0, m_settings.failSafeTolerancePx);
    return std::abs(pos.x() - m_settings.failSafeCorner.x()) <= t &&
           std::abs(pos.y() - m_settings.failSafeCorner.y()) <= t;
}

bool BrushController::checkPointer(QPoint pos)
{
    if (m_settings.failSafeEnabled && !m_failSafe && inFailSafeCorner(pos)) {
        triggerFailSafe(pos);
        return false;
    }
    if (m_failSafe)
        return false;
    if (m_settings.takeoverDetection && m_lastCommanded &&
        distance(pos, *m_lastCommanded) > m_settings.lostTolerancePx) {
        takeover(pos);
        return false;
    }
    return true;
}

void BrushController::releaseAll()
{
    if (!m_platform)
        return;
    platform::Input& input = m_platform->input();
    for (const platform::MouseButton b : std::as_const(m_pressedButtons))
        input.button(b, false);
    for (auto it = m_pressedKeys.crbegin(); it != m_pressedKeys.crend(); ++it)
        input.key(*it, false);
    if (!m_pressedButtons.isEmpty() || !m_pressedKeys.isEmpty()) {
        qCInfo(lcBrush) << "released" << m_pressedButtons.size() << "buttons and" << m_pressedKeys.size()
                        << "keys";
        input.sync();
    }
    m_pressedButtons.clear();
    m_pressedKeys.clear();
}

void BrushController::abortJob(const QString& error)
{
    m_stepTimer.stop();
    m_holdTimer.stop();
    m_waitTimer.stop();
    m_watchTimer.stop();
    releaseAll();
    if (m_job)
        fail(error);
}

void BrushController::takeover(QPoint pos)
{
    const QPoint expected = m_lastCommanded.value_or(pos);
    qCWarning(lcBrush) << "takeover: the pointer is at" << pos << "but the brush put it at" << expected;
    SpatialEvent lost;
    lost.kind = SpatialEvent::Kind::BrushLost;
    lost.tNs = m_clock.nowNs();
    lost.zoneId = m_job && m_job->leg ? m_job->leg->zoneId : m_job ? m_job->actZoneId : QString();
    lost.point = pos;
    lost.data = {{QStringLiteral("expected"), pointMap(expected)},
                 {QStringLiteral("reason"), QStringLiteral("pointer_moved")}};
    emitEvent(lost);

    SpatialEvent event;
    event.kind = SpatialEvent::Kind::Takeover;
    event.tNs = lost.tNs;
    event.zoneId = zoneIdAt(pos);
    event.point = pos;
    event.data = {{QStringLiteral("expected"), pointMap(expected)},
                  {QStringLiteral("during_action"), m_job != nullptr},
                  {QStringLiteral("reason"), QStringLiteral("pointer_moved")}};
    const bool wasPaused = m_paused;
    m_paused = true;
    abortJob(QStringLiteral("takeover: the user moved the pointer; the brush is paused until resumed"));
    m_lastCommanded.reset();
    emitEvent(event);
    emit takeoverDetected(event);
    if (!wasPaused)
        emit pausedChanged(true);
}

void BrushController::triggerFailSafe(QPoint pos)
{
    qCWarning(lcBrush) << "fail-safe: the pointer reached the corner at" << pos;
    m_failSafe = true;
    abortJob(QStringLiteral("fail-safe: the pointer was pushed into the fail-safe corner"));
    SpatialEvent event;
    event.kind = SpatialEvent::Kind::Info;
    event.tNs = m_clock.nowNs();
    event.point = pos;
    event.data = {{QStringLiteral("reason"), QStringLiteral("fail_safe")}};
    emitEvent(event);
    emit failSafeTriggered();
}

void BrushController::pause()
{
    if (m_paused)
        return;
    m_paused = true;
    abortJob(QStringLiteral("paused"));
    emit pausedChanged(true);
}

void BrushController::resume()
{
    if (!m_paused)
        return;
    m_paused = false;
    // Adopt wherever the user left the pointer.
    m_lastCommanded = readPointer();
    emit pausedChanged(false);
}

void BrushController::stop()
{
    m_runActive = false;
    abortJob(QStringLiteral("stopped"));
    releaseAll();
}

void BrushController::setRunActive(bool active)
{
    m_runActive = active;
    if (active)
        m_lastCommanded = readPointer();
}

void BrushController::resetFailSafe()
{
    if (!m_failSafe)
        return;
    m_failSafe = false;
    m_lastCommanded = readPointer();
    qCInfo(lcBrush) << "fail-safe reset";
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
    if (m_failSafe)
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
        m_lastCommanded = *pos; // outside a run, start from wherever the pointer is
    if (!checkPointer(*pos))
        return;
    dispatch();
}

void BrushController::explore(quint64 id, const QRect& region)
{
    Action a;
    a.type = Action::Type::MouseMove;
    a.point = region.center();
    if (!m_platform || m_failSafe || m_paused || m_job || region.isEmpty()) {
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
        m_lastCommanded = *pos;
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

bool BrushController::resolve(Leg& leg, QString* error) const
{
    if (!leg.zoneId.isEmpty()) {
        const Zone* zone = m_map ? m_map->find(leg.zoneId) : nullptr;
        if (!zone) {
            *error = QStringLiteral("zone not found: \"%1\"").arg(leg.zoneId);
            return false;
        }
        leg.target = leg.offset ? zone->bounds.topLeft() + *leg.offset : zone->center();
        if (!zone->bounds.contains(leg.target)) {
            *error = QStringLiteral("point (%1, %2) is outside zone \"%3\"")
                         .arg(leg.target.x())
                         .arg(leg.target.y())
                         .arg(leg.zoneId);
            return false;
        }
    }
    const QRect screen = screenRect();
    if (!screen.isNull() && !screen.contains(leg.target)) {
        *error = QStringLiteral("target (%1, %2) is off the screen").arg(leg.target.x()).arg(leg.target.y());
        return false;
    }
    if (m_settings.failSafeEnabled && inFailSafeCorner(leg.target)) {
        *error = QStringLiteral("target (%1, %2) is inside the fail-safe corner")
                     .arg(leg.target.x())
                     .arg(leg.target.y());
        return false;
    }
    return true;
}

bool BrushController::planLeg(Leg& leg, QPoint from)
{
    switch (leg.kind) {
    case TrajectoryKind::Exploratory:
        leg.trajectory = m_planner.exploratory(from, leg.exploreRegion, m_map);
        break;
    case TrajectoryKind::Safe:
        leg.trajectory = m_planner.safe(from, leg.target, m_map,
                                        leg.zoneId.isEmpty() ? QStringList{} : QStringList{leg.zoneId});
        if (!leg.trajectory.isValid()) {
            qCWarning(lcBrush) << "no safe path:" << leg.trajectory.error << "- moving directly";
            leg.trajectory = m_planner.direct(from, leg.target, m_map);
        }
        break;
    case TrajectoryKind::Direct:
        leg.trajectory = m_planner.direct(from, leg.target, m_map);
        break;
    }
    if (!leg.trajectory.isValid()) {
        fail(QStringLiteral("cannot plan the motion: %1").arg(leg.trajectory.error));
        return false;
    }
    leg.step = 0;
    if (!leg.trajectory.zonesCrossed.isEmpty()) {
        qCInfo(lcBrush) << toString(leg.trajectory.kind) << "trajectory to" << leg.target << "crosses"
                        << leg.trajectory.zonesCrossed;
    }
    SpatialEvent info;
    info.kind = SpatialEvent::Kind::Info;
    info.tNs = m_clock.nowNs();
    info.zoneId = leg.zoneId;
    info.point = leg.target;
    info.data = {{QStringLiteral("reason"), QStringLiteral("trajectory")},
                 {QStringLiteral("trajectory"), toString(leg.trajectory.kind)},
                 {QStringLiteral("zones_crossed"), leg.trajectory.zonesCrossed},
                 {QStringLiteral("duration_ms"), double(leg.trajectory.durationNs()) / 1e6}};
    emitEvent(info);
    emit trajectoryPlanned(leg.trajectory.path, leg.zoneId);
    return true;
}

void BrushController::beginLeg(Leg leg)
{
    QString error;
    if (leg.kind != TrajectoryKind::Exploratory && !resolve(leg, &error))
        return fail(error);
    if (isExcluded(leg.target))
        return fail(QStringLiteral("refused: (%1, %2) is on one of the agent's own windows")
                        .arg(leg.target.x())
                        .arg(leg.target.y()));
    const auto from = readPointer();
    if (!from)
        return fail(QStringLiteral("cannot read the cursor position: the display is gone"));
    if (!planLeg(leg, *from))
        return;
    m_job->leg = std::move(leg);
    // The first step goes out at once; the timer paces the rest.
    stepMotion();
    if (m_job && m_job->leg && m_job->leg->step > 0 && m_job->leg->step < m_job->leg->trajectory.steps.size())
        m_stepTimer.start();
}

bool BrushController::isExcluded(QPoint pos) const
{
    return std::any_of(m_excluded.cbegin(), m_excluded.cend(),
                       [pos](const QRect& r) { return r.contains(pos); });
}

void BrushController::setExcludedRegions(const QList<QRect>& rects)
{
    m_excluded = rects;
}

bool BrushController::moveTo(QPoint pos)
{
    // The brush itself never enters the fail-safe corner.
    if (m_settings.failSafeEnabled && inFailSafeCorner(pos)) {
        const int t = m_settings.failSafeTolerancePx + 1;
        pos = QPoint(m_settings.failSafeCorner.x() + (pos.x() >= m_settings.failSafeCorner.x() ? t : -t),
                     pos.y());
    }
    const QRect screen = screenRect();
    if (!screen.isNull())
        pos = QPoint(std::clamp(pos.x(), 0, screen.right()), std::clamp(pos.y(), 0, screen.bottom()));
    m_lastCommanded = pos;
    if (!m_actions->moveTo(pos)) {
        fail(QStringLiteral("moving the pointer failed: %1").arg(m_actions->errorString()));
        return false;
    }
    return true;
}

void BrushController::stepMotion()
{
    if (!m_job || !m_job->leg) {
        m_stepTimer.stop();
        return;
    }
    const auto pos = readPointer();
    if (!pos) {
        m_stepTimer.stop();
        return fail(QStringLiteral("cannot read the cursor position: the display is gone"));
    }
    feed(*pos, m_clock.nowNs());
    if (!checkPointer(*pos))
        return; // takeover or fail-safe already ended the job
    Leg& leg = *m_job->leg;
    if (leg.step >= leg.trajectory.steps.size()) {
        m_stepTimer.stop();
        verifyLeg();
        return;
    }
    if (!moveTo(leg.trajectory.steps.at(leg.step).pos))
        return;
    ++leg.step;
    if (leg.step >= leg.trajectory.steps.size()) {
        m_stepTimer.stop();
        verifyLeg();
    }
}

void BrushController::verifyLeg()
{
    if (!m_job || !m_job->leg)
        return;
    const auto pos = readPointer();
    if (!pos)
        return fail(QStringLiteral("cannot read the cursor position: the display is gone"));
    feed(*pos, m_clock.nowNs());
    if (!checkPointer(*pos))
        return;
    Leg& leg = *m_job->leg;
    bool inside = false;
    if (leg.kind == TrajectoryKind::Exploratory) {
        inside = true;
    } else if (!leg.zoneId.isEmpty()) {
        const Zone* zone = m_map ? m_map->find(leg.zoneId) : nullptr;
        inside = zone && zone->bounds.contains(*pos);
    } else {
        inside = distance(*pos, leg.target) <= m_settings.lostTolerancePx;
    }
    if (!inside) {
        recalibrate(QStringLiteral("outside_target"), *pos);
        return;
    }
    m_job->result.pointUsed = *pos;
    m_job->actZoneId = leg.zoneId.isEmpty() ? zoneIdAt(*pos) : leg.zoneId;
    const Zone* acted = m_map && !m_job->actZoneId.isEmpty() ? m_map->find(m_job->actZoneId) : nullptr;
    m_job->watchRect = acted ? acted->bounds : QRect(*pos - QPoint(8, 8), QSize(17, 17));
    const auto then = std::move(leg.then);
    m_job->leg.reset();
    then();
}

void BrushController::recalibrate(const QString& reason, QPoint pos)
{
    Leg leg = std::move(*m_job->leg);
    m_stepTimer.stop();
    SpatialEvent lost;
    lost.kind = SpatialEvent::Kind::BrushLost;
    lost.tNs = m_clock.nowNs();
    lost.zoneId = leg.zoneId;
    lost.point = pos;
    lost.data = {{QStringLiteral("expected_zone"), leg.zoneId},
                 {QStringLiteral("expected"), pointMap(leg.target)},
                 {QStringLiteral("reason"), reason},
                 {QStringLiteral("retry"), m_job->retries < m_settings.verifyRetries}};
    qCInfo(lcBrush) << "brush lost:" << reason << "at" << pos << "expected zone" << leg.zoneId;
    emitEvent(lost);
    if (m_job->retries >= m_settings.verifyRetries) {
        m_job->leg.reset();
        return fail(QStringLiteral("brush lost: the cursor at (%1, %2) is not inside zone \"%3\" (%4)")
                        .arg(pos.x())
                        .arg(pos.y())
                        .arg(leg.zoneId, reason));
    }
    ++m_job->retries;
    // Recalibrate: re-read the zone from the latest map and plan again from where the cursor is.
    m_job->leg.reset();
    leg.trajectory = {};
    leg.step = 0;
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
    if (!success)
        qCInfo(lcBrush) << "action" << job->id << toString(job->action.type) << "failed:" << error;
    emit actionFinished(job->id, job->result);
    emit actionActive(false);
}

} // namespace ciu
