#include "core/director/recentevents.h"

namespace ciu {

void RecentEvents::add(const SpatialEvent& event)
{
    if (event.kind == SpatialEvent::Kind::ZoneEnter || event.kind == SpatialEvent::Kind::ZoneHover ||
        event.kind == SpatialEvent::Kind::ZoneClick)
        m_lastCursor = event.point;
    m_sinceDecision.append(event);
    if (m_sinceDecision.size() > kMaxKept)
        m_sinceDecision.removeFirst();
    m_sinceDispatch.append(event);
    if (m_sinceDispatch.size() > kMaxKept)
        m_sinceDispatch.removeFirst();
}

} // namespace ciu
