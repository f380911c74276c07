// Placeholder replaced by the X11 backend work in progress.
#include "platform/x11/x11platform.h"

namespace ciu::platform {

PlatformResult createX11Platform(const QString& displayName)
{
    PlatformResult result;
    result.error = QStringLiteral("the X11 backend is not available in this build (display %1)").arg(displayName);
    return result;
}

}  // namespace ciu::platform
