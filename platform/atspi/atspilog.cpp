#include "platform/atspi/atspilog.h"

Q_LOGGING_CATEGORY(lcAtspi, "ciu.platform.atspi")
