#include "core/capture/capturesettings.h"

namespace ciu {

QString CaptureSettings::validate() const
{
    if (fps < 15 || fps > 30)
        return QStringLiteral("capture rate must be 15..30 fps (got %1)").arg(fps);
    if (idleFps < 1 || idleFps > fps)
        return QStringLiteral("idle capture rate must be 1..%1 fps (got %2)").arg(fps).arg(idleFps);
    if (!(ringSeconds > 0.0 && ringSeconds <= 600.0))
        return QStringLiteral("frame ring length must be more than 0 and at most 600 s (got %1)")
            .arg(ringSeconds);
    if (ringMaxBytes < (1LL << 20))
        return QStringLiteral("frame ring memory bound must be at least 1 MiB (got %1 bytes)")
            .arg(ringMaxBytes);
    if (!(thresholdPercent >= 0.0 && thresholdPercent <= 100.0))
        return QStringLiteral("change threshold must be 0..100 percent (got %1)").arg(thresholdPercent);
    if (tileSize < 8 || tileSize > 256)
        return QStringLiteral("tile size must be 8..256 pixels (got %1)").arg(tileSize);
    if (stabilityWindowMs < 0 || stabilityWindowMs > 60000)
        return QStringLiteral("stability window must be 0..60000 ms (got %1)").arg(stabilityWindowMs);
    if (animationFrames < 2 || animationFrames > 1000)
        return QStringLiteral("animation frames must be 2..1000 (got %1)").arg(animationFrames);
    if (monitorIndex < -1)
        return QStringLiteral("monitor index must be -1 (whole screen) or a monitor number (got %1)")
            .arg(monitorIndex);
    return {};
}

} // namespace ciu
