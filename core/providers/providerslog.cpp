#include "core/providers/providerslog.h"

Q_LOGGING_CATEGORY(lcProvider, "ciu.provider")
