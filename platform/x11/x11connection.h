#pragma once
#include "platform/x11/x11log.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <xcb/xcb.h>

namespace ciu::platform::x11 {

// Frees xcb replies (malloc'ed by libxcb).
struct FreeDeleter
{
    void operator()(void* p) const { std::free(p); }
};
template<typename T> using Reply = std::unique_ptr<T, FreeDeleter>;

// A window property as read from the server.
struct Property
{
    xcb_atom_t type = XCB_ATOM_NONE;
    int format = 0; // 8, 16 or 32
    QByteArray data;
    bool isEmpty() const { return type == XCB_ATOM_NONE; }
    QList<quint32> values32() const;
};

// One xcb connection to a display, used from one thread. Knows whether the server is still there: once
// the connection has failed every component reports "the X display :N went away" instead of talking to it.
class X11Connection final
{
public:
    struct Extensions
    {
        bool shm = false;
        bool xtest = false;
        bool xfixes = false; // version >= 2 (cursor image and name)
        bool damage = false;
        bool randr = false;
        quint8 damageEventBase = 0;
        quint8 randrEventBase = 0;
    };

    ~X11Connection();
    X11Connection(const X11Connection&) = delete;
    X11Connection& operator=(const X11Connection&) = delete;

    // Connects to `displayName` (empty: $DISPLAY). On failure returns null and sets `error`.
    static std::unique_ptr<X11Connection> open(const QString& displayName, QString* error);

    xcb_connection_t* xcb() const { return m_c; }
    xcb_screen_t* screen() const { return m_screen; }
    xcb_window_t root() const { return m_screen->root; }
    QString displayName() const { return m_displayName; }
    const Extensions& extensions() const { return m_ext; }

    // False once the connection failed (server gone, protocol error); then logs once.
    bool isAlive();
    // "the X display :N went away"
    QString lostError() const;
    // An error message for a failed request: the lost-display message when that is the cause.
    QString requestError(const QString& what);
    // Sends pending requests and waits until the server processed them.
    bool sync();
    // Waits until the window manager has handled everything sent before (a _NET_REQUEST_FRAME_EXTENTS
    // round trip). False when there is no EWMH window manager supporting it, or on timeout.
    bool syncWithWindowManager(int timeoutMs);

    xcb_atom_t atom(const char* name);
    QString atomName(xcb_atom_t atom);
    std::optional<Property> property(xcb_window_t window, xcb_atom_t property, xcb_atom_t type = XCB_ATOM_ANY,
                                     bool deleteAfter = false);

    // Events: components that care register a handler; handlers see every event read from the server
    // that is not the one a waitForEvent() caller asked for.
    using EventHandler = std::function<void(const xcb_generic_event_t*)>;
    int addEventHandler(EventHandler handler);
    void removeEventHandler(int id);
    // Reads and dispatches every queued event without blocking.
    void dispatchPending();
    // Waits for an event matching `predicate` (dispatching the others) until `timeoutMs` passed.
    Reply<xcb_generic_event_t> waitForEvent(const std::function<bool(const xcb_generic_event_t*)>& predicate,
                                            int timeoutMs);

private:
    X11Connection(xcb_connection_t* c, xcb_screen_t* screen, QString displayName);
    void queryExtensions();
    void dispatch(const xcb_generic_event_t* event);

    xcb_connection_t* m_c = nullptr;
    xcb_screen_t* m_screen = nullptr;
    QString m_displayName;
    Extensions m_ext;
    bool m_lost = false;
    QHash<QByteArray, xcb_atom_t> m_atoms;
    xcb_window_t m_probeWindow = XCB_NONE; // for window-manager round trips
    QList<std::pair<int, EventHandler>> m_handlers;
    int m_nextHandlerId = 1;
};

// "cannot open the X display :N (...)" for an xcb_connection_has_error() code.
QString connectErrorString(const QString& displayName, int code);

} // namespace ciu::platform::x11
