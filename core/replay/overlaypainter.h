#pragma once

#include "core/model/frame.h"
#include "core/model/zonemap.h"

#include <QColor>
#include <QList>

class QPainter;

namespace ciu::replay {

// Draws the replay overlay (zones coloured by type, the cursor trail, the cursor) in root coordinates:
// the caller sets the painter's transform from root pixels to the target. Used by the viewer and the
// exports so they show the same thing.
struct OverlayOptions
{
    bool zones = true;
    bool labels = true;
    bool trail = true;
    qint64 trailWindowNs = 2'000'000'000;
    double lineScale = 1.0; // line widths are multiplied by this (1 / view scale keeps them thin)
};

QColor zoneColor(ZoneType type);

void paintZones(QPainter& painter, const ZoneMap& map, const OverlayOptions& options = {});
// `trail` oldest first; the last sample is drawn as the cursor. `tNs` is the time shown (fades the trail).
void paintCursorTrail(QPainter& painter, const QList<CursorSample>& trail, qint64 tNs,
                      const OverlayOptions& options = {});

} // namespace ciu::replay
