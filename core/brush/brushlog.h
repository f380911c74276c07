#pragma once

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcBrush)
Q_DECLARE_LOGGING_CATEGORY(lcTrajectory)
