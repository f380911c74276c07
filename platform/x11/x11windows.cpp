#include "platform/x11/x11windows.h"

#include <QDeadlineTimer>
#include <QThread>

namespace ciu::platform::x11 {

X11Windows::X11Windows(X11Connection& conn)
    : m_conn(conn)
{
}

bool X11Windows::fail(const QString& message)
{
    m_error = message;
    return false;
}

bool X11Windows::hasWindowManager()
{
    if (!m_conn.isAlive())
        return false;
    const xcb_atom_t check = m_conn.atom("_NET_SUPPORTING_WM_CHECK");
    const auto onRoot = m_conn.property(m_conn.root(), check, XCB_ATOM_WINDOW);
    if (!onRoot || onRoot->values32().isEmpty())
        return false;
    const xcb_window_t wm = onRoot->values32().first();
    const auto onWm = m_conn.property(wm, check, XCB_ATOM_WINDOW);
    return onWm && !onWm->values32().isEmpty() && onWm->values32().first() == wm;
}

bool X11Windows::supports(const char* atomName)
{
    const auto supported = m_conn.property(m_conn.root(), m_conn.atom("_NET_SUPPORTED"), XCB_ATOM_ATOM);
    return supported && supported->values32().contains(m_conn.atom(atomName));
}

xcb_window_t X11Windows::activeId()
{
    const auto active = m_conn.property(m_conn.root(), m_conn.atom("_NET_ACTIVE_WINDOW"), XCB_ATOM_WINDOW);
    if (active && !active->values32().isEmpty() && active->values32().first() != XCB_NONE)
        return active->values32().first();
    if (!active || !active->isEmpty())
        return XCB_NONE; // an EWMH window manager says nothing is active
    return focusTopLevel();
}

xcb_window_t X11Windows::focusTopLevel()
{
    xcb_connection_t* c = m_conn.xcb();
    Reply<xcb_get_input_focus_reply_t> focus(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nullptr));
    if (!focus || focus->focus == XCB_NONE || focus->focus == XCB_INPUT_FOCUS_POINTER_ROOT ||
        focus->focus == m_conn.root())
        return XCB_NONE;
    xcb_window_t window = focus->focus;
    for (int depth = 0; depth < 64; ++depth) {
        Reply<xcb_query_tree_reply_t> tree(xcb_query_tree_reply(c, xcb_query_tree(c, window), nullptr));
        if (!tree)
            return XCB_NONE;
        if (tree->parent == m_conn.root() || tree->parent == XCB_NONE)
            return window;
        window = tree->parent;
    }
    return XCB_NONE;
}

QList<xcb_window_t> X11Windows::fallbackTopLevels()
{
    xcb_connection_t* c = m_conn.xcb();
    QList<xcb_window_t> result;
    Reply<xcb_query_tree_reply_t> tree(xcb_query_tree_reply(c, xcb_query_tree(c, m_conn.root()), nullptr));
    if (!tree)
        return result;
    const xcb_window_t* children = xcb_query_tree_children(tree.get());
    const int count = xcb_query_tree_children_length(tree.get());
    QList<xcb_get_window_attributes_cookie_t> cookies;
    for (int i = 0; i < count; ++i)
        cookies << xcb_get_window_attributes(c, children[i]);
    for (int i = 0; i < count; ++i) {
        Reply<xcb_get_window_attributes_reply_t> attrs(
            xcb_get_window_attributes_reply(c, cookies.at(i), nullptr));
        if (attrs && attrs->map_state == XCB_MAP_STATE_VIEWABLE && !attrs->override_redirect &&
            attrs->_class == XCB_WINDOW_CLASS_INPUT_OUTPUT)
            result << children[i];
    }
    return result;
}

QString X11Windows::textProperty(xcb_get_property_reply_t* reply)
{
    if (!reply || reply->type == XCB_ATOM_NONE || reply->format != 8)
        return {};
    const auto* data = static_cast<const char*>(xcb_get_property_value(reply));
    const int length = xcb_get_property_value_length(reply);
    if (reply->type == XCB_ATOM_STRING)
        return QString::fromLatin1(data, length);
    return QString::fromUtf8(data, length); // UTF8_STRING; COMPOUND_TEXT read as its ASCII subset
}

QList<WindowInfo> X11Windows::describe(const QList<xcb_window_t>& windows, xcb_window_t active)
{
    xcb_connection_t* c = m_conn.xcb();
    const xcb_atom_t netWmName = m_conn.atom("_NET_WM_NAME");
    const xcb_atom_t utf8 = m_conn.atom("UTF8_STRING");
    const xcb_atom_t netWmPid = m_conn.atom("_NET_WM_PID");
    struct Cookies
    {
        xcb_get_property_cookie_t netName, name, wmClass, pid;
        xcb_get_geometry_cookie_t geometry;
        xcb_translate_coordinates_cookie_t origin;
    };
    // All requests first, then all replies: one round trip for the whole list.
    QList<Cookies> cookies;
    cookies.reserve(windows.size());
    for (const xcb_window_t w : windows) {
        cookies << Cookies{xcb_get_property(c, 0, w, netWmName, utf8, 0, 4096),
                           xcb_get_property(c, 0, w, XCB_ATOM_WM_NAME, XCB_ATOM_ANY, 0, 4096),
                           xcb_get_property(c, 0, w, XCB_ATOM_WM_CLASS, XCB_ATOM_STRING, 0, 1024),
                           xcb_get_property(c, 0, w, netWmPid, XCB_ATOM_CARDINAL, 0, 1),
                           xcb_get_geometry(c, w),
                           xcb_translate_coordinates(c, w, m_conn.root(), 0, 0)};
    }
    QList<WindowInfo> result;
    for (qsizetype i = 0; i < windows.size(); ++i) {
        const Cookies& k = cookies.at(i);
        Reply<xcb_get_property_reply_t> netName(xcb_get_property_reply(c, k.netName, nullptr));
        Reply<xcb_get_property_reply_t> name(xcb_get_property_reply(c, k.name, nullptr));
        Reply<xcb_get_property_reply_t> wmClass(xcb_get_property_reply(c, k.wmClass, nullptr));
        Reply<xcb_get_property_reply_t> pid(xcb_get_property_reply(c, k.pid, nullptr));
        Reply<xcb_get_geometry_reply_t> geometry(xcb_get_geometry_reply(c, k.geometry, nullptr));
        Reply<xcb_translate_coordinates_reply_t> origin(
            xcb_translate_coordinates_reply(c, k.origin, nullptr));
        if (!geometry || !origin)
            continue; // destroyed meanwhile
        WindowInfo info;
        info.id = windows.at(i);
        info.title = textProperty(netName.get());
        if (info.title.isEmpty())
            info.title = textProperty(name.get());
        if (wmClass && wmClass->format == 8) {
            // "instance\0class\0"
            const QByteArray raw(static_cast<const char*>(xcb_get_property_value(wmClass.get())),
                                 xcb_get_property_value_length(wmClass.get()));
            const QList<QByteArray> parts = raw.split('\0');
            info.instance = QString::fromLocal8Bit(parts.value(0));
            info.windowClass = QString::fromLocal8Bit(parts.value(1));
        }
        if (pid && pid->format == 32 && xcb_get_property_value_length(pid.get()) >= 4)
            info.pid = *static_cast<const quint32*>(xcb_get_property_value(pid.get()));
        info.geometry = QRect(origin->dst_x, origin->dst_y, geometry->width, geometry->height);
        info.active = active != XCB_NONE && info.id == active;
        result << info;
    }
    return result;
}

std::optional<WindowInfo> X11Windows::activeWindow()
{
    if (!m_conn.isAlive()) {
        fail(m_conn.lostError());
        return std::nullopt;
    }
    const xcb_window_t id = activeId();
    if (id == XCB_NONE) {
        fail(m_conn.isAlive() ? QStringLiteral("no window is active") : m_conn.lostError());
        return std::nullopt;
    }
    const QList<WindowInfo> info = describe({id}, id);
    if (info.isEmpty()) {
        fail(m_conn.isAlive() ? QStringLiteral("the active window 0x%1 vanished").arg(id, 0, 16)
                              : m_conn.lostError());
        return std::nullopt;
    }
    return info.first();
}

QList<WindowInfo> X11Windows::topLevelWindows()
{
    if (!m_conn.isAlive()) {
        fail(m_conn.lostError());
        return {};
    }
    QList<xcb_window_t> ids;
    for (const char* name : {"_NET_CLIENT_LIST_STACKING", "_NET_CLIENT_LIST"}) {
        const auto list = m_conn.property(m_conn.root(), m_conn.atom(name), XCB_ATOM_WINDOW);
        if (list && !list->isEmpty()) {
            for (const quint32 w : list->values32())
                ids << w;
            break;
        }
    }
    if (ids.isEmpty() && !hasWindowManager())
        ids = fallbackTopLevels();
    const QList<WindowInfo> result = describe(ids, activeId());
    if (!m_conn.isAlive())
        fail(m_conn.lostError());
    return result;
}

bool X11Windows::activate(quint64 windowId)
{
    if (!m_conn.isAlive())
        return fail(m_conn.lostError());
    xcb_connection_t* c = m_conn.xcb();
    const auto window = xcb_window_t(windowId);
    Reply<xcb_get_window_attributes_reply_t> attrs(
        xcb_get_window_attributes_reply(c, xcb_get_window_attributes(c, window), nullptr));
    if (windowId > 0xffffffffu || !attrs)
        return fail(m_conn.isAlive() ? QStringLiteral("no window 0x%1").arg(windowId, 0, 16)
                                     : m_conn.lostError());

    if (hasWindowManager() && supports("_NET_ACTIVE_WINDOW")) {
        // Source indication 2 (pager): window managers honour it without focus-stealing prevention.
        xcb_client_message_event_t event{};
        event.response_type = XCB_CLIENT_MESSAGE;
        event.format = 32;
        event.window = window;
        event.type = m_conn.atom("_NET_ACTIVE_WINDOW");
        event.data.data32[0] = 2;
        event.data.data32[1] = XCB_CURRENT_TIME;
        event.data.data32[2] = activeId();
        xcb_send_event(c, 0, m_conn.root(),
                       XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
                       reinterpret_cast<const char*>(&event));
        if (!m_conn.sync())
            return fail(m_conn.lostError());
        // The window manager acts asynchronously; wait until it reports the change.
        QDeadlineTimer deadline(1000);
        while (!deadline.hasExpired()) {
            if (activeId() == window)
                return true;
            if (!m_conn.isAlive())
                return fail(m_conn.lostError());
            QThread::msleep(10);
        }
        return fail(QStringLiteral("the window manager did not activate window 0x%1").arg(windowId, 0, 16));
    }
    const quint32 above = XCB_STACK_MODE_ABOVE;
    xcb_configure_window(c, window, XCB_CONFIG_WINDOW_STACK_MODE, &above);
    xcb_set_input_focus(c, XCB_INPUT_FOCUS_PARENT, window, XCB_CURRENT_TIME);
    return m_conn.sync() ||
           fail(m_conn.requestError(QStringLiteral("activating window 0x%1").arg(windowId, 0, 16)));
}

} // namespace ciu::platform::x11
