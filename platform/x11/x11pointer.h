#pragma once

#include "platform/pointer.h"
#include "platform/x11/x11connection.h"

namespace ciu::platform::x11 {

// The cursor: position from QueryPointer, sprite and shape name from XFixes when present.
class X11Pointer final : public Pointer
{
public:
    explicit X11Pointer(X11Connection& conn);

    std::optional<QPoint> position() override;
    std::optional<CursorInfo> cursor() override;

private:
    X11Connection& m_conn;
};

} // namespace ciu::platform::x11
