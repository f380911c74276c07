// BrushController's motion: resolving a leg's target (zone, point, screen, fail-safe corner), planning its
// trajectory, stepping along it at the step rate, verifying from the OS cursor that it arrived inside the
// target, and recalibrating (brush_lost, re-plan from where the cursor is) when it did not.

#include "core/brush/brushcontroller.h"
#include "core/brush/brushlog.h"
#include "platform/inputactions.h"

#include <QLineF>

#include <algorithm>

namespace ciu {

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
    if (m_settings.failSafeEnabled && m_guard.inFailSafeCorner(leg.target)) {
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

bool BrushController::moveTo(QPoint pos)
{
    // The brush itself never enters the fail-safe corner.
    pos = m_guard.outsideFailSafeCorner(pos);
    const QRect screen = screenRect();
    if (!screen.isNull())
        pos = QPoint(std::clamp(pos.x(), 0, screen.right()), std::clamp(pos.y(), 0, screen.bottom()));
    m_guard.setLastCommanded(pos);
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
        inside = QLineF(*pos, leg.target).length() <= m_settings.lostTolerancePx;
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

} // namespace ciu
