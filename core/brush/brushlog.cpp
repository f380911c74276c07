#include "core/brush/brushlog.h"

Q_LOGGING_CATEGORY(lcBrush, "ciu.brush")
Q_LOGGING_CATEGORY(lcTrajectory, "ciu.brush.trajectory")
