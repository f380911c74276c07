#include "core/engine/enginelog.h"

Q_LOGGING_CATEGORY(lcBackends, "ciu.director.backends")
Q_LOGGING_CATEGORY(lcEngine, "ciu.engine")
Q_LOGGING_CATEGORY(lcForward, "ciu.forward")
Q_LOGGING_CATEGORY(lcSandbox, "ciu.sandbox")
