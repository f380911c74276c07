#pragma once

#include "platform/platform.h"

namespace ciu::platform {

// Opens the X11 backend on a display (":1"; empty means $DISPLAY). Never throws: a missing server or
// extension is reported in the result's error.
PlatformResult createX11Platform(const QString& displayName);

} // namespace ciu::platform
