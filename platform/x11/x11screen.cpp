#include "platform/x11/x11screen.h"

#include <algorithm>
#include <xcb/damage.h>
#include <xcb/randr.h>
#include <xcb/xfixes.h>

namespace ciu::platform::x11 {

X11Screen::X11Screen(X11Connection& conn)
    : m_conn(conn)
    , m_grabber(conn)
{
    xcb_screen_t* s = m_conn.screen();
    m_size = QSize(s->width_in_pixels, s->height_in_pixels);
    m_sizeMm = s->width_in_millimeters;
    m_handlerId = m_conn.addEventHandler([this](const xcb_generic_event_t* e) { handleEvent(e); });
    if (m_conn.extensions().randr)
        xcb_randr_select_input(m_conn.xcb(), m_conn.root(), XCB_RANDR_NOTIFY_MASK_SCREEN_CHANGE);
    setupDamage();
}

X11Screen::~X11Screen()
{
    m_conn.removeEventHandler(m_handlerId);
    if (m_conn.isAlive()) {
        if (m_damage)
            xcb_damage_destroy(m_conn.xcb(), m_damage);
        if (m_damageRegion)
            xcb_xfixes_destroy_region(m_conn.xcb(), m_damageRegion);
        xcb_flush(m_conn.xcb());
    }
}

bool X11Screen::fail(const QString& message)
{
    m_error = message;
    return false;
}

void X11Screen::setupDamage()
{
    if (!m_conn.extensions().damage)
        return;
    xcb_connection_t* c = m_conn.xcb();
    // NonEmpty: one event when the region becomes non-empty; the region itself is fetched on demand
    // (subtract into an XFixes region), so the event queue never fills with rectangles.
    m_damage = xcb_generate_id(c);
    m_damageRegion = xcb_generate_id(c);
    xcb_damage_create(c, m_damage, m_conn.root(), XCB_DAMAGE_REPORT_LEVEL_NON_EMPTY);
    xcb_xfixes_create_region(c, m_damageRegion, 0, nullptr);
    if (!m_conn.sync()) {
        m_damage = 0;
        m_damageRegion = 0;
    }
}

void X11Screen::handleEvent(const xcb_generic_event_t* event)
{
    const quint8 type = event->response_type & 0x7f;
    const auto& ext = m_conn.extensions();
    if (ext.randr && type == ext.randrEventBase + XCB_RANDR_SCREEN_CHANGE_NOTIFY) {
        const auto* e = reinterpret_cast<const xcb_randr_screen_change_notify_event_t*>(event);
        const bool rotated = e->rotation & (XCB_RANDR_ROTATION_ROTATE_90 | XCB_RANDR_ROTATION_ROTATE_270);
        m_size = rotated ? QSize(e->height, e->width) : QSize(e->width, e->height);
        m_sizeMm = rotated ? e->mheight : e->mwidth;
        // The setup block's screen is what the grabber sizes its segment by; keep it current (as Qt does).
        m_conn.screen()->width_in_pixels = quint16(m_size.width());
        m_conn.screen()->height_in_pixels = quint16(m_size.height());
        m_conn.screen()->width_in_millimeters = quint16(m_sizeMm);
        qCDebug(lcX11) << "screen size changed to" << m_size;
    }
    // Damage notifications need no handling: takeDamage() fetches the region itself.
}

QSize X11Screen::size() const
{
    m_conn.dispatchPending();
    return m_size;
}

QList<MonitorInfo> X11Screen::randrMonitors() const
{
    QList<MonitorInfo> result;
    xcb_connection_t* c = m_conn.xcb();
    Reply<xcb_randr_get_monitors_reply_t> reply(
        xcb_randr_get_monitors_reply(c, xcb_randr_get_monitors(c, m_conn.root(), 1), nullptr));
    if (!reply)
        return result;
    for (auto it = xcb_randr_get_monitors_monitors_iterator(reply.get()); it.rem;
         xcb_randr_monitor_info_next(&it)) {
        const xcb_randr_monitor_info_t* m = it.data;
        MonitorInfo info;
        info.name = m_conn.atomName(m->name);
        info.geometry = QRect(m->x, m->y, m->width, m->height);
        info.primary = m->primary != 0;
        if (!info.geometry.isEmpty())
            result << info;
    }
    return result;
}

QList<MonitorInfo> X11Screen::monitors() const
{
    if (!m_conn.isAlive())
        return {};
    QList<MonitorInfo> result;
    if (m_conn.extensions().randr)
        result = randrMonitors();
    if (result.isEmpty()) {
        MonitorInfo whole;
        whole.name = QStringLiteral("screen");
        whole.geometry = QRect(QPoint(0, 0), size());
        whole.primary = true;
        result << whole;
    }
    // Exactly one primary: RandR may flag none (no primary output configured).
    if (std::none_of(result.cbegin(), result.cend(), [](const MonitorInfo& m) { return m.primary; }))
        result.first().primary = true;
    return result;
}

double X11Screen::dpi() const
{
    if (m_conn.isAlive()) {
        if (const auto resources =
                m_conn.property(m_conn.root(), XCB_ATOM_RESOURCE_MANAGER, XCB_ATOM_STRING)) {
            if (const auto xft = xftDpiFromResources(resources->data))
                return *xft;
        }
    }
    return dpiFromPhysicalSize(size().width(), m_sizeMm);
}

QImage X11Screen::grab(const QRect& region)
{
    if (!m_conn.isAlive()) {
        fail(m_conn.lostError());
        return {};
    }
    const QRect screen(QPoint(0, 0), size());
    const QRect wanted = region.isNull() ? screen : region.intersected(screen);
    if (wanted.isEmpty()) {
        fail(QStringLiteral("region %1,%2 %3x%4 is outside the %5x%6 screen")
                 .arg(region.x())
                 .arg(region.y())
                 .arg(region.width())
                 .arg(region.height())
                 .arg(screen.width())
                 .arg(screen.height()));
        return {};
    }
    QImage image = m_grabber.grab(wanted);
    if (image.isNull())
        fail(m_grabber.errorString());
    return image;
}

bool X11Screen::grabInto(QImage& target, QPoint targetOrigin, const QRect& region)
{
    if (!m_conn.isAlive())
        return fail(m_conn.lostError());
    if (target.format() != QImage::Format_RGB32)
        return fail(QStringLiteral("grabInto needs a Format_RGB32 target"));
    const QRect clipped =
        region.intersected(QRect(targetOrigin, target.size())).intersected(QRect(QPoint(0, 0), size()));
    if (clipped.isEmpty())
        return true;
    if (!m_grabber.grabInto(target, clipped.topLeft() - targetOrigin, clipped))
        return fail(m_grabber.errorString());
    return true;
}

QRegion X11Screen::takeDamage()
{
    if (!m_conn.isAlive()) {
        fail(m_conn.lostError());
        return {};
    }
    const QRect whole(QPoint(0, 0), size()); // also drains pending events
    if (!m_damage)
        return whole; // without tracking, everything may have changed
    xcb_connection_t* c = m_conn.xcb();
    xcb_damage_subtract(c, m_damage, XCB_NONE, m_damageRegion);
    Reply<xcb_xfixes_fetch_region_reply_t> reply(
        xcb_xfixes_fetch_region_reply(c, xcb_xfixes_fetch_region(c, m_damageRegion), nullptr));
    if (!reply) {
        fail(m_conn.requestError(QStringLiteral("fetching the damaged region")));
        return {};
    }
    QRegion damage;
    const xcb_rectangle_t* rects = xcb_xfixes_fetch_region_rectangles(reply.get());
    const int count = xcb_xfixes_fetch_region_rectangles_length(reply.get());
    for (int i = 0; i < count; ++i)
        damage += QRect(rects[i].x, rects[i].y, rects[i].width, rects[i].height);
    if (m_firstDamage) {
        m_firstDamage = false;
        damage = whole;
    }
    return damage.intersected(whole);
}

} // namespace ciu::platform::x11
