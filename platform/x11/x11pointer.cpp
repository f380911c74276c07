#include "platform/x11/x11pointer.h"

#include <xcb/xfixes.h>

namespace ciu::platform::x11 {

X11Pointer::X11Pointer(X11Connection& conn)
    : m_conn(conn)
{
}

std::optional<QPoint> X11Pointer::position()
{
    if (!m_conn.isAlive())
        return std::nullopt;
    xcb_connection_t* c = m_conn.xcb();
    Reply<xcb_query_pointer_reply_t> reply(
        xcb_query_pointer_reply(c, xcb_query_pointer(c, m_conn.root()), nullptr));
    if (!reply)
        return std::nullopt;
    return QPoint(reply->root_x, reply->root_y);
}

std::optional<CursorInfo> X11Pointer::cursor()
{
    if (!m_conn.isAlive())
        return std::nullopt;
    if (!m_conn.extensions().xfixes) {
        const auto pos = position();
        if (!pos)
            return std::nullopt;
        CursorInfo info;
        info.position = *pos;
        return info;
    }
    xcb_connection_t* c = m_conn.xcb();
    Reply<xcb_xfixes_get_cursor_image_and_name_reply_t> reply(
        xcb_xfixes_get_cursor_image_and_name_reply(c, xcb_xfixes_get_cursor_image_and_name(c), nullptr));
    if (!reply)
        return std::nullopt;
    CursorInfo info;
    info.position = QPoint(reply->x, reply->y);
    info.spriteRect = QRect(reply->x - reply->xhot, reply->y - reply->yhot, reply->width, reply->height);
    info.serial = reply->cursor_serial;
    const int nameLength = xcb_xfixes_get_cursor_image_and_name_name_length(reply.get());
    if (nameLength > 0)
        info.shape = QString::fromUtf8(xcb_xfixes_get_cursor_image_and_name_name(reply.get()), nameLength);
    return info;
}

} // namespace ciu::platform::x11
