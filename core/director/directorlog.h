#pragma once

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcDirector)
Q_DECLARE_LOGGING_CATEGORY(lcLocalPlanner)
Q_DECLARE_LOGGING_CATEGORY(lcModelPlanner)
