#include "core/canvas/inventorymerge.h"

#include "core/model/geometry.h"

#include <algorithm>

namespace ciu::canvas {

QList<Zone> mergeInventory(const QList<Zone>& modelZones, const QList<Zone>& localZones,
                           const std::function<bool(const Zone&)>& keepLocal)
{
    QList<Zone> merged = modelZones;
    for (const Zone& local : localZones) {
        const bool covered = std::any_of(modelZones.cbegin(), modelZones.cend(), [&](const Zone& model) {
            return intersectionOverUnion(model.bounds, local.bounds) >= kModelCoversLocalIoU;
        });
        if (!covered && (!keepLocal || keepLocal(local)))
            merged << local;
    }
    return merged;
}

} // namespace ciu::canvas
