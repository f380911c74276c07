#include "core/canvas/canvaslog.h"

Q_LOGGING_CATEGORY(lcCanvas, "ciu.canvas", QtInfoMsg)
