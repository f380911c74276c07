#pragma once

// An app schema's named zones on the map: each named zone of a program (window-relative, NamedZone) names
// the zone detected at its place in each window of the program, or is one when nothing is detected there.
// Priority, highest first: the user's hand corrections (source User, their labels), the accessibility tree's
// names, the schema's names, then what vision read. The canvas mapper applies it to every map it publishes
// (core/canvas/canvasmapper_filters.cpp); the place matches by the corrections' rule, isSameZone().

#include "core/knowledge/shortcuts.h"
#include "core/model/zone.h"
#include "platform/types.h"

#include <QList>
#include <QString>

namespace ciu {

// A named zone with nothing detected there is put on the map with this confidence (a hand correction has 1).
inline constexpr double kSchemaZoneConfidence = 0.9;

// Whether a zone's label outranks a schema's name: typed by the user (or a user zone) or the tree's.
bool hasAuthoritativeLabel(const Zone& zone);

// The id of the zone a named zone puts on the map in a window: stable while the window lives ("s" + 8 hex).
QString schemaZoneId(quint64 windowId, const QString& name);

// Applies `named` (the zones of `window`'s program, window-relative) to `zones` (root coordinates). A zone of
// the program (or of no known program) centred in the window whose place is a named zone's (isSameZone())
// takes the name as its label (LabelSource::Schema) unless hasAuthoritativeLabel(); a named zone with no zone
// there is added (ZoneSource::Schema, kSchemaZoneConfidence, the named zone's type, last seen at `tNs`)
// unless a window above `window` covers its centre (`windows`: stacking order, bottom first) or it does not
// fit in the window. Named zones without a name are skipped. Idempotent.
QList<Zone> applySchemaZones(const QList<NamedZone>& named, const platform::WindowInfo& window,
                             const QList<Zone>& zones, const QList<platform::WindowInfo>& windows,
                             qint64 tNs = 0);

} // namespace ciu
