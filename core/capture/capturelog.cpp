#include "core/capture/capturelog.h"

Q_LOGGING_CATEGORY(lcCapture, "ciu.capture")
