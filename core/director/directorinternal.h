#pragma once

// Internal to the Director's source files (director*.cpp): the logging category and shared helpers.

#include "core/director/directorlog.h"
#include "core/director/planbackend.h"

#include <QJsonObject>
#include <QList>
#include <QRect>

#include <utility>

namespace ciu {

namespace directordetail {
// A proposed action as director.jsonl records it.
QJsonObject proposedJson(const ProposedAction& proposed);
// The zones whose centre is in `region`, as label and place, in the map's order: what moves when a list
// scrolls.
QList<std::pair<QString, QRect>> rowsIn(const ZoneMap& map, const QRect& region);
} // namespace directordetail

} // namespace ciu
