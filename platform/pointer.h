#pragma once

#include "platform/types.h"

#include <optional>

namespace ciu::platform {

// The OS cursor (never found by vision).
class Pointer
{
public:
    virtual ~Pointer() = default;
    // Current position in root coordinates, or nullopt when the display is gone.
    virtual std::optional<QPoint> position() = 0;
    // Position plus sprite rectangle and shape name where the server provides them.
    virtual std::optional<CursorInfo> cursor() = 0;
};

} // namespace ciu::platform
