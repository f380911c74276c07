#pragma once

#include "platform/clipboard.h"
#include "platform/input.h"
#include "platform/pointer.h"
#include "platform/screen.h"
#include "platform/types.h"
#include "platform/windowsystem.h"

#include <memory>

namespace ciu::platform {

// One connection to a target display, split by concern. Not shared between threads: each worker that
// needs the OS creates its own with createPlatform() (platform/platformfactory.h).
class Platform
{
public:
    virtual ~Platform() = default;

    virtual QString backendName() const = 0; // "x11", "synthetic"
    virtual QString displayName() const = 0; // ":1"
    virtual Capabilities capabilities() const = 0;
    // False once the display has gone away; every call then fails with a clear error.
    virtual bool isConnected() const = 0;

    virtual Screen& screen() = 0;
    virtual Pointer& pointer() = 0;
    virtual Input& input() = 0;
    virtual WindowSystem& windows() = 0;
    virtual Clipboard& clipboard() = 0;
};

struct PlatformOptions
{
    QString backend;     // "x11" or "synthetic"; empty: $CIU_PLATFORM, else x11
    QString displayName; // empty: $DISPLAY (x11) or "synthetic:0"
};

struct PlatformResult
{
    std::unique_ptr<Platform> platform;
    QString error; // set when platform is null
};

} // namespace ciu::platform
