#pragma once

#include "platform/types.h"

#include <optional>

namespace ciu::platform {

// Top-level windows as the window manager sees them (EWMH).
class WindowSystem
{
public:
    virtual ~WindowSystem() = default;
    virtual std::optional<WindowInfo> activeWindow() = 0;
    // Managed top-level windows in stacking order, bottom first.
    virtual QList<WindowInfo> topLevelWindows() = 0;
    virtual bool activate(quint64 windowId) = 0;
    virtual QString errorString() const = 0;
};

} // namespace ciu::platform
