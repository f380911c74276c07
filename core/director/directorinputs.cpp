#include "core/director/director.h"
#include "core/director/directorinternal.h"

#include <algorithm>
#include <utility>

// The Director's inputs: the zone maps, spatial events, window lists and frames its thread is sent
// (onZoneMap, onEvent, onWindows, onFrame), and the wait for the zone maps to go quiet (MapWaiter).

namespace ciu {

void Director::onZoneMap(const ZoneMapPtr& map)
{
    if (!map)
        return;
    m_map = map;
    m_recentMaps.append(map);
    if (m_recentMaps.size() > kRecentMaps)
        m_recentMaps.removeFirst();
    m_maps.check();
}

ZoneMapPtr Director::baselineFor(const ActionFlight& flight, qint64 actedNs) const
{
    ZoneMapPtr best = flight.mapBefore;
    if (actedNs <= 0)
        return best;
    for (const ZoneMapPtr& m : m_recentMaps) {
        if (m->tNs() < actedNs && (!best || m->version() > best->version()))
            best = m;
    }
    return best;
}

void Director::onEvent(const SpatialEvent& event)
{
    if (event.kind == SpatialEvent::Kind::ModelCall || event.kind == SpatialEvent::Kind::Action)
        return; // our own
    m_events.add(event);
    if (event.kind == SpatialEvent::Kind::Takeover && isRunning() && m_runMode != RunMode::Paused) {
        if (!m_options.resumable) {
            const QString where =
                event.point.isNull()
                    ? QString()
                    : QStringLiteral(" (the pointer at %1, %2)").arg(event.point.x()).arg(event.point.y());
            emitInfo(QStringLiteral("takeover"),
                     QStringLiteral("the user took over the mouse or keyboard%1; stopping").arg(where));
            stop(QStringLiteral("stopped: the user took over the mouse or keyboard%1, and nothing here can "
                                "resume a paused task")
                     .arg(where));
            return;
        }
        emitInfo(QStringLiteral("takeover"),
                 QStringLiteral("the user took over the mouse or keyboard; paused"));
        pause();
    }
}

void Director::onWindows(const QList<platform::WindowInfo>& windows,
                         const std::optional<platform::WindowInfo>& active)
{
    Q_UNUSED(active)
    m_readBack.onWindows(windows);
}

void Director::onFrame(const Frame& frame)
{
    m_readBack.onFrame(frame);
}

// ---------------------------------------------------------------------------------------------------------
// Waiting for zone maps

void Director::waitForQuietMaps(qint64 deadlineNs, std::function<void()> then)
{
    m_maps.waitForQuiet(deadlineNs, std::max(50, m_options.settleTimeoutMs / 3), m_clock, std::move(then));
}

} // namespace ciu
