#pragma once

#include "core/director/planbackend.h"
#include "core/model/action.h"
#include "core/model/zonemap.h"

#include <optional>

namespace ciu {

// One action on its way through the Director: what the planner proposed, what was sent to the brush (a
// recovery move differs from the proposal), the zone map and target zone it was resolved against, and which
// rungs of the recovery ladder it has already used. The Director keeps the one with the brush; the recovery
// controller and the action verifier read it to decide what comes next.
struct ActionFlight
{
    quint64 id = 0;
    ProposedAction proposed;
    Action sent; // what went to the brush (a recovery may differ from proposed)
    ZoneMapPtr mapBefore;
    std::optional<Zone> target;
    qint64 sentNs = 0;
    bool recovery = false;   // an undo / recalibration move, not the planner's action
    bool reexecuted = false; // the timeout row's one re-execution happened
    bool recalibrated = false;
    bool undone = false;
};

} // namespace ciu
