#pragma once

#include "platform/windowsystem.h"
#include "platform/x11/x11connection.h"

namespace ciu::platform::x11 {

// Top-level windows through EWMH (_NET_ACTIVE_WINDOW, _NET_CLIENT_LIST_STACKING, _NET_WM_NAME,
// WM_CLASS, _NET_WM_PID). Without an EWMH window manager it falls back to the input focus and the
// mapped children of the root window. Geometry is the client area in root coordinates.
class X11Windows final : public WindowSystem
{
public:
    explicit X11Windows(X11Connection& conn);

    std::optional<WindowInfo> activeWindow() override;
    QList<WindowInfo> topLevelWindows() override;
    bool activate(quint64 windowId) override;
    QString errorString() const override { return m_error; }

    // True when an EWMH window manager runs (_NET_SUPPORTING_WM_CHECK).
    bool hasWindowManager();

private:
    bool fail(const QString& message);
    bool supports(const char* atomName);
    xcb_window_t activeId();
    xcb_window_t focusTopLevel();
    QList<xcb_window_t> fallbackTopLevels();
    QList<WindowInfo> describe(const QList<xcb_window_t>& windows, xcb_window_t active);
    QString textProperty(xcb_get_property_reply_t* reply);

    X11Connection& m_conn;
    QString m_error;
};

} // namespace ciu::platform::x11
