// BrushController's safety: reading the pointer and judging it (PointerGuard), the takeover by the human
// and the fail-safe corner, letting go of everything held, pause / resume / stop, and the regions the brush
// never acts on (the agent's own windows).

#include "core/brush/brushcontroller.h"
#include "core/brush/brushlog.h"

#include <algorithm>

namespace ciu {

std::optional<QPoint> BrushController::readPointer()
{
    return m_platform ? m_platform->pointer().position() : std::nullopt;
}

bool BrushController::checkPointer(QPoint pos)
{
    if (m_guard.check(pos) == PointerGuard::Verdict::Takeover && m_platform) {
        // Not where it was sent: a window manager's grab may still hold the last moves back (the pointer
        // reads where it was until the manager has handled a click). Once the input has settled, a pointer
        // that is still elsewhere was moved by someone else.
        // (A display that is gone fails the next read.)
        if (const auto again = m_platform->input().settle() ? readPointer() : std::nullopt) {
            if (*again != pos)
                qCDebug(lcBrush) << "the pointer caught up after the input settled:" << pos << "→" << *again;
            pos = *again;
        }
    }
    switch (m_guard.check(pos)) {
    case PointerGuard::Verdict::Ok:
        return true;
    case PointerGuard::Verdict::FailSafe:
        triggerFailSafe(pos);
        return false;
    case PointerGuard::Verdict::FailSafeActive:
        return false;
    case PointerGuard::Verdict::Takeover:
        takeover(pos);
        return false;
    }
    return false;
}

void BrushController::releaseAll()
{
    if (m_platform)
        m_held.releaseAll(m_platform->input());
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
    const QPoint expected = m_guard.lastCommanded().value_or(pos);
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
    m_guard.setLastCommanded(std::nullopt);
    emitEvent(event);
    emit takeoverDetected(event);
    if (!wasPaused)
        emit pausedChanged(true);
}

void BrushController::triggerFailSafe(QPoint pos)
{
    qCWarning(lcBrush) << "fail-safe: the pointer reached the corner at" << pos;
    m_guard.setFailSafeTriggered(true);
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
    m_guard.setLastCommanded(readPointer());
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
        m_guard.setLastCommanded(readPointer());
}

void BrushController::resetFailSafe()
{
    if (!m_guard.isFailSafeTriggered())
        return;
    m_guard.setFailSafeTriggered(false);
    m_guard.setLastCommanded(readPointer());
    qCInfo(lcBrush) << "fail-safe reset";
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

} // namespace ciu
