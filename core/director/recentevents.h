#pragma once

#include "core/model/spatialevent.h"

#include <QList>
#include <QPoint>

#include <utility>

namespace ciu {

// The spatial events the Director was sent (its own left out by the caller), kept for two readers: those
// since the planner last decided (handed to it with the next decision) and those since the last action went
// to the brush (the recovery checks them: brush lost, wrong zone); and where the pointer last entered,
// hovered or clicked a zone. Each list keeps the latest kMaxKept events.
class RecentEvents
{
public:
    static constexpr int kMaxKept = 200;

    void add(const SpatialEvent& event);
    // The events since the last decision; the next decision's start anew.
    QList<SpatialEvent> takeSinceDecision() { return std::exchange(m_sinceDecision, {}); }
    void clearSinceDecision() { m_sinceDecision.clear(); }
    // An action went to the brush (or a program was launched): its events start anew.
    void dispatched() { m_sinceDispatch.clear(); }
    const QList<SpatialEvent>& sinceDispatch() const { return m_sinceDispatch; }
    QPoint lastCursor() const { return m_lastCursor; }

private:
    QList<SpatialEvent> m_sinceDecision;
    QList<SpatialEvent> m_sinceDispatch;
    QPoint m_lastCursor;
};

} // namespace ciu
