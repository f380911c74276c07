#include "app/applog.h"

Q_LOGGING_CATEGORY(lcGui, "ciu.gui")
