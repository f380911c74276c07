#pragma once

#include "platform/types.h"

#include <QImage>
#include <QRegion>

namespace ciu::platform {

// The target display's pixels. Implementations are used from one thread at a time; create one Platform
// per thread that needs one.
class Screen
{
public:
    virtual ~Screen() = default;

    // Size of the whole root window.
    virtual QSize size() const = 0;
    virtual QList<MonitorInfo> monitors() const = 0;
    // Dots per inch as reported by the server (Xft.dpi when set, else from the physical size); the
    // scale factor is dpi / 96. Recorded for the model prompt and the session metadata only.
    virtual double dpi() const = 0;
    double scaleFactor() const { return dpi() / 96.0; }

    // Grabs a region (root coordinates, clipped to the screen) into a new QImage::Format_RGB32 image.
    // A null rect grabs the whole screen. Returns a null image on failure (see errorString()).
    virtual QImage grab(const QRect& region = {}) = 0;

    // Grabs `region` (root coordinates) into `target`, whose top-left pixel is root point `targetOrigin`.
    // `target` must be Format_RGB32 and already detached; the region is clipped to the target and the
    // screen. Used by the capture loop to patch only damaged areas into a frame.
    virtual bool grabInto(QImage& target, QPoint targetOrigin, const QRect& region) = 0;

    // Damage tracking: when supported, returns the union of regions the server reported as changed
    // since the previous call (the first call reports the whole screen).
    virtual bool damageSupported() const = 0;
    virtual QRegion takeDamage() = 0;

    virtual QString errorString() const = 0;
};

} // namespace ciu::platform
