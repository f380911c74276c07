#pragma once

// Zones for unit tests: what a planner, the director or the verifier is given as seen on a screen.

#include "core/model/zone.h"

namespace ciu::test {

inline Zone zone(const QString& id, ZoneType type, const QString& label, QRect bounds,
                 ZoneState state = ZoneStateFlag::Enabled)
{
    Zone z;
    z.id = id;
    z.type = type;
    z.label = label;
    z.bounds = bounds;
    z.state = state;
    z.confidence = 0.9;
    return z;
}

} // namespace ciu::test
