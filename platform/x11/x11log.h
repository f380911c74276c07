#pragma once

#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcX11)
Q_DECLARE_LOGGING_CATEGORY(lcHotkey)
