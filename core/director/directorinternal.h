#pragma once

// Internal to the Director's source files (director*.cpp): the logging category and shared helpers.

#include "core/director/planbackend.h"

#include <QJsonObject>
#include <QLoggingCategory>

namespace ciu {

Q_DECLARE_LOGGING_CATEGORY(lcDirector)

namespace directordetail {
// A proposed action as director.jsonl records it.
QJsonObject proposedJson(const ProposedAction& proposed);
} // namespace directordetail

} // namespace ciu
