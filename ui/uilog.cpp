#include "ui/uilog.h"

Q_LOGGING_CATEGORY(lcBridge, "ciu.ui.engine")
Q_LOGGING_CATEGORY(lcUi, "ciu.ui")
Q_LOGGING_CATEGORY(lcUiCorrections, "ciu.ui.corrections")
