#pragma once

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcMcp)
Q_DECLARE_LOGGING_CATEGORY(lcMcpHttp)
Q_DECLARE_LOGGING_CATEGORY(lcMcpTools)
