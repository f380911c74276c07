#pragma once

// Value types shared by every platform backend.
//
// Coordinate space: every point and rectangle in the platform layer, and in the whole program, is in
// X11 root-window pixels (physical pixels of the target display, origin at the top-left of the root
// window, spanning all monitors). The scale factor is recorded (Screen::scaleFactor()) but never applied
// implicitly: a model that sees a resized screenshot maps its coordinates back before they reach here.

#include <QFlags>
#include <QList>
#include <QMetaType>
#include <QRect>
#include <QString>

#include <cstdint>
#include <optional>

namespace ciu::platform {

struct MonitorInfo
{
    QString name;   // e.g. "DP-1" or "screen" when RandR is missing
    QRect geometry; // root coordinates
    bool primary = false;
};

struct WindowInfo
{
    quint64 id = 0;
    QString title;
    QString windowClass; // WM_CLASS class part (e.g. "XTerm")
    QString instance;    // WM_CLASS instance part (e.g. "xterm")
    qint64 pid = -1;     // _NET_WM_PID, -1 when unknown
    QRect geometry;      // root coordinates of the client area
    bool active = false;
};

struct CursorInfo
{
    QPoint position;  // hot spot in root coordinates
    QRect spriteRect; // where the sprite is drawn, empty when unknown
    QString shape;    // cursor name (e.g. "left_ptr", "xterm"), empty when unknown
    quint32 serial = 0;
};

enum class MouseButton : quint8
{
    Left = 1,
    Middle = 2,
    Right = 3
};
enum class ScrollDirection : quint8
{
    Up = 1,
    Down,
    Left,
    Right
};

enum class Capability : quint32
{
    SharedMemoryGrab = 1u << 0, // fast grabs (MIT-SHM)
    Damage = 1u << 1,           // the server reports damaged regions
    CursorShape = 1u << 2,      // cursor name and sprite (XFixes)
    InputInjection = 1u << 3,   // synthetic input (XTest)
    Monitors = 1u << 4,         // per-monitor geometry (RandR)
    WindowList = 1u << 5,       // EWMH window list and active window
    Clipboard = 1u << 6,
};
Q_DECLARE_FLAGS(Capabilities, Capability)
Q_DECLARE_OPERATORS_FOR_FLAGS(Capabilities)

QString toString(MouseButton button);
QString toString(ScrollDirection direction);
std::optional<MouseButton> mouseButtonFromString(const QString& name);
std::optional<ScrollDirection> scrollDirectionFromString(const QString& name);

} // namespace ciu::platform

Q_DECLARE_METATYPE(ciu::platform::MonitorInfo)
Q_DECLARE_METATYPE(ciu::platform::WindowInfo)
Q_DECLARE_METATYPE(ciu::platform::CursorInfo)
