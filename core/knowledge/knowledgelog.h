#pragma once

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcCorrections)
Q_DECLARE_LOGGING_CATEGORY(lcTaskMemory)
