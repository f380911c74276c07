#include "platform/x11/x11log.h"

Q_LOGGING_CATEGORY(lcX11, "ciu.platform.x11")
Q_LOGGING_CATEGORY(lcHotkey, "ciu.platform.hotkey")
