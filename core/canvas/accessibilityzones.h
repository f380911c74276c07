#pragma once

// The accessibility tree as a zone source, and its fusion with vision. Pure functions over values: the
// canvas mapper and the analyze command call them with an AccessibilitySnapshot and the window list.

#include "core/model/zone.h"
#include "platform/accessibility.h"
#include "platform/types.h"

#include <QHash>
#include <QList>
#include <QRegion>

#include <optional>

namespace ciu::canvas {

// Where the tree's windows are on the screen and what covers them.
struct AccessibilityScene
{
    QList<platform::WindowInfo> windows; // managed top-level windows, stacking order, bottom first
    QRect screen;                        // the union of the monitors (root coordinates); null: no clipping
    QList<QRect> excluded;               // the agent's own windows: nothing there becomes a zone
    qint64 ownPid = -1;                  // the agent's process: its accessible windows are skipped
};

struct AccessibilityZones
{
    QList<Zone> zones;
    // Per accessible window (ref): the part of the screen it shows, where its zones come from the tree.
    QHash<QString, QRegion> windowRegions;
    QHash<QString, quint64> windowIds; // accessible window ref → X window (0: an unmanaged popup)
    int skipped = 0;                   // showing nodes that became no zone (covered, off screen, no role)
};

// The zone type of an AT-SPI role, nullopt for containers and decoration (panel, filler, frame, ...).
std::optional<ZoneType> zoneTypeForRole(const QString& role);
// The zone state of AT-SPI states (and a role, for check boxes that are unchecked).
ZoneState zoneStateFor(const QStringList& states, const QString& role);

// Every node a person sees and can act on or read, as a zone of source Accessibility: clipped to its
// window and the screen, minus what windows above it cover, none from the agent's own windows or pid.
// Ids are stable (zoneidentity.h: program, role and the role/name path from the window; the same element
// has the same id in every process); parents link to the nearest ancestor that is a zone.
AccessibilityZones zonesFromAccessibility(const platform::AccessibilitySnapshot& snapshot,
                                          const AccessibilityScene& scene);

// Tree and vision together: a vision zone matching a tree zone (IoU >= matchIou) or lying mostly inside
// one is that zone (the tree wins label, type and state; vision confirms it: confidence 1); vision zones
// the tree does not explain are kept (canvases, custom-drawn widgets). Tree zones first, then vision.
QList<Zone> fuseZones(const QList<Zone>& treeZones, const QList<Zone>& visionZones, double matchIou = 0.5);

} // namespace ciu::canvas
