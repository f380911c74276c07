#pragma once

// Internal to the Director's source files (director*.cpp): the logging category and shared helpers.

#include "core/director/directorlog.h"
#include "core/director/planbackend.h"

#include <QJsonObject>

namespace ciu {

namespace directordetail {
// A proposed action as director.jsonl records it.
QJsonObject proposedJson(const ProposedAction& proposed);
} // namespace directordetail

} // namespace ciu
