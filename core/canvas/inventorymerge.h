#pragma once

// The one rule for combining a Tier 2 answer with the Tier 1 view of the same region: a model may miss
// elements, so the model's inventory is kept whole and the local zones it did not report are added to
// it. Used by the canvas mapper (live) and by the analyze command (one screenshot).

#include "core/model/zone.h"

#include <QList>

#include <functional>

namespace ciu::canvas {

// A local zone overlapping a model zone at least this much (IoU) counts as reported by the model.
inline constexpr double kModelCoversLocalIoU = 0.3;

// The model's zones (in their order), then the local zones that no model zone covers (in their order).
// `keepLocal`, when set, must also accept a local zone for it to be added.
QList<Zone> mergeInventory(const QList<Zone>& modelZones, const QList<Zone>& localZones,
                           const std::function<bool(const Zone&)>& keepLocal = {});

} // namespace ciu::canvas
