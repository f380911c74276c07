#pragma once

#include "core/model/zone.h"

#include <QColor>

namespace ciu::ui {

// How the overlay shows a zone: a colour per type, more opaque the more confident the analysis.
QColor zoneColor(ZoneType type);
// Fill alpha in 0..1 for a confidence in 0..1 (clamped): 0.08 at no confidence up to 0.40.
double zoneFillOpacity(double confidence);
// Outline alpha in 0..1: 0.35 up to 1.
double zoneOutlineOpacity(double confidence);
// The user-facing name of a zone type ("Text field"), translated.
QString zoneTypeDisplayName(ZoneType type);

} // namespace ciu::ui
