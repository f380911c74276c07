#include "platform/x11/x11connection.h"

#include "platform/x11/x11log.h"

#include <QDeadlineTimer>

#include <csignal>
#include <cstring>
#include <mutex>
#include <poll.h>
#include <xcb/damage.h>
#include <xcb/randr.h>
#include <xcb/shm.h>
#include <xcb/xfixes.h>
#include <xcb/xtest.h>

namespace ciu::platform::x11 {
namespace {

// Writing to the socket of a server that died raises SIGPIPE, which would kill the process. The
// platform layer promises a clear error instead, so SIGPIPE is ignored unless the program installed
// its own handler.
void ignoreSigpipeOnce()
{
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction current
        {
        };
        if (sigaction(SIGPIPE, nullptr, &current) == 0 && current.sa_handler == SIG_DFL) {
            struct sigaction ignore
            {
            };
            ignore.sa_handler = SIG_IGN;
            sigemptyset(&ignore.sa_mask);
            sigaction(SIGPIPE, &ignore, nullptr);
        }
    });
}

} // namespace

QList<quint32> Property::values32() const
{
    QList<quint32> values;
    if (format != 32)
        return values;
    values.resize(data.size() / 4);
    std::memcpy(values.data(), data.constData(), size_t(values.size()) * 4);
    return values;
}

QString connectErrorString(const QString& displayName, int code)
{
    QString reason;
    switch (code) {
    case XCB_CONN_ERROR:
        reason = QStringLiteral("no X server answers there");
        break;
    case XCB_CONN_CLOSED_EXT_NOTSUPPORTED:
        reason = QStringLiteral("a required extension is missing");
        break;
    case XCB_CONN_CLOSED_MEM_INSUFFICIENT:
        reason = QStringLiteral("out of memory");
        break;
    case XCB_CONN_CLOSED_REQ_LEN_EXCEED:
        reason = QStringLiteral("request too long");
        break;
    case XCB_CONN_CLOSED_PARSE_ERR:
        reason = QStringLiteral("the display name cannot be parsed");
        break;
    case XCB_CONN_CLOSED_INVALID_SCREEN:
        reason = QStringLiteral("the display has no such screen");
        break;
    default:
        reason = QStringLiteral("connection refused (error %1; check $XAUTHORITY)").arg(code);
        break;
    }
    return QStringLiteral("cannot open the X display %1: %2").arg(displayName, reason);
}

X11Connection::X11Connection(xcb_connection_t* c, xcb_screen_t* screen, QString displayName)
    : m_c(c)
    , m_screen(screen)
    , m_displayName(std::move(displayName))
{
}

X11Connection::~X11Connection()
{
    if (m_c) {
        if (m_probeWindow != XCB_NONE && !xcb_connection_has_error(m_c))
            xcb_destroy_window(m_c, m_probeWindow);
        xcb_disconnect(m_c);
    }
}

std::unique_ptr<X11Connection> X11Connection::open(const QString& displayName, QString* error)
{
    ignoreSigpipeOnce();
    QString name = displayName;
    if (name.isEmpty())
        name = qEnvironmentVariable("DISPLAY");
    if (name.isEmpty()) {
        *error =
            QStringLiteral("no X display: $DISPLAY is not set and no display was given (use --display :N)");
        return nullptr;
    }
    const QByteArray latin = name.toLocal8Bit();
    int screenNumber = 0;
    xcb_connection_t* c = xcb_connect(latin.constData(), &screenNumber);
    if (const int code = xcb_connection_has_error(c)) {
        xcb_disconnect(c);
        *error = connectErrorString(name, code);
        return nullptr;
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(c));
    for (int i = 0; i < screenNumber && it.rem; ++i)
        xcb_screen_next(&it);
    if (!it.rem || !it.data) {
        xcb_disconnect(c);
        *error = connectErrorString(name, XCB_CONN_CLOSED_INVALID_SCREEN);
        return nullptr;
    }
    std::unique_ptr<X11Connection> conn(new X11Connection(c, it.data, name));
    conn->queryExtensions();
    if (!conn->isAlive()) {
        *error = conn->lostError();
        return nullptr;
    }
    return conn;
}

void X11Connection::queryExtensions()
{
    // Prefetch all at once: one round trip for the lot.
    xcb_prefetch_extension_data(m_c, &xcb_shm_id);
    xcb_prefetch_extension_data(m_c, &xcb_test_id);
    xcb_prefetch_extension_data(m_c, &xcb_xfixes_id);
    xcb_prefetch_extension_data(m_c, &xcb_damage_id);
    xcb_prefetch_extension_data(m_c, &xcb_randr_id);
    auto present = [this](xcb_extension_t* ext) -> const xcb_query_extension_reply_t* {
        const xcb_query_extension_reply_t* data = xcb_get_extension_data(m_c, ext);
        return data && data->present ? data : nullptr;
    };
    m_ext.shm = present(&xcb_shm_id) != nullptr;
    m_ext.xtest = present(&xcb_test_id) != nullptr;
    const auto* fixes = present(&xcb_xfixes_id);
    const auto* damage = present(&xcb_damage_id);
    const auto* randr = present(&xcb_randr_id);

    // XFixes and Damage must be told the client's version before use.
    xcb_xfixes_query_version_cookie_t fixesCookie{};
    xcb_damage_query_version_cookie_t damageCookie{};
    xcb_randr_query_version_cookie_t randrCookie{};
    if (fixes)
        fixesCookie = xcb_xfixes_query_version(m_c, 5, 0);
    if (damage)
        damageCookie = xcb_damage_query_version(m_c, 1, 1);
    if (randr)
        randrCookie = xcb_randr_query_version(m_c, 1, 5);
    if (fixes) {
        Reply<xcb_xfixes_query_version_reply_t> r(xcb_xfixes_query_version_reply(m_c, fixesCookie, nullptr));
        m_ext.xfixes = r && r->major_version >= 2;
    }
    if (damage) {
        Reply<xcb_damage_query_version_reply_t> r(xcb_damage_query_version_reply(m_c, damageCookie, nullptr));
        m_ext.damage = r != nullptr && m_ext.xfixes; // damage regions are fetched through XFixes
        m_ext.damageEventBase = damage->first_event;
    }
    if (randr) {
        Reply<xcb_randr_query_version_reply_t> r(xcb_randr_query_version_reply(m_c, randrCookie, nullptr));
        m_ext.randr = r && (r->major_version > 1 || r->minor_version >= 2);
        m_ext.randrEventBase = randr->first_event;
    }
    qCDebug(lcX11) << "display" << m_displayName << "shm" << m_ext.shm << "xtest" << m_ext.xtest << "xfixes"
                   << m_ext.xfixes << "damage" << m_ext.damage << "randr" << m_ext.randr;
}

bool X11Connection::isAlive()
{
    if (m_lost)
        return false;
    if (xcb_connection_has_error(m_c)) {
        m_lost = true;
        qCWarning(lcX11, "the X display %s went away", qPrintable(m_displayName));
    }
    return !m_lost;
}

QString X11Connection::lostError() const
{
    return QStringLiteral("the X display %1 went away").arg(m_displayName);
}

QString X11Connection::requestError(const QString& what)
{
    if (!isAlive())
        return lostError();
    return QStringLiteral("%1 failed on the X display %2").arg(what, m_displayName);
}

bool X11Connection::sync()
{
    if (!isAlive())
        return false;
    Reply<xcb_get_input_focus_reply_t> r(xcb_get_input_focus_reply(m_c, xcb_get_input_focus(m_c), nullptr));
    return r != nullptr && isAlive();
}

bool X11Connection::syncWithWindowManager(int timeoutMs)
{
    if (!isAlive())
        return false;
    // The manager answers _NET_REQUEST_FRAME_EXTENTS for a window of ours by setting _NET_FRAME_EXTENTS
    // on it, after everything queued before the request.
    const xcb_atom_t request = atom("_NET_REQUEST_FRAME_EXTENTS");
    const auto supported = property(root(), atom("_NET_SUPPORTED"), XCB_ATOM_ATOM);
    if (!supported || !supported->values32().contains(request))
        return false;
    if (m_probeWindow == XCB_NONE) {
        m_probeWindow = xcb_generate_id(m_c);
        const quint32 mask = XCB_EVENT_MASK_PROPERTY_CHANGE;
        xcb_create_window(m_c, XCB_COPY_FROM_PARENT, m_probeWindow, root(), -10, -10, 1, 1, 0,
                          XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT, XCB_CW_EVENT_MASK, &mask);
    }
    const xcb_atom_t extents = atom("_NET_FRAME_EXTENTS");
    xcb_client_message_event_t event{};
    event.response_type = XCB_CLIENT_MESSAGE;
    event.format = 32;
    event.window = m_probeWindow;
    event.type = request;
    xcb_send_event(m_c, 0, root(), XCB_EVENT_MASK_SUBSTRUCTURE_REDIRECT | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY,
                   reinterpret_cast<const char*>(&event));
    const auto answer = waitForEvent(
        [&](const xcb_generic_event_t* e) {
            if ((e->response_type & 0x7f) != XCB_PROPERTY_NOTIFY)
                return false;
            const auto* p = reinterpret_cast<const xcb_property_notify_event_t*>(e);
            return p->window == m_probeWindow && p->atom == extents;
        },
        timeoutMs);
    if (!answer)
        qCDebug(lcX11) << "the window manager did not answer within" << timeoutMs << "ms";
    return answer != nullptr;
}

xcb_atom_t X11Connection::atom(const char* name)
{
    const QByteArray key(name);
    if (const auto it = m_atoms.constFind(key); it != m_atoms.cend())
        return *it;
    Reply<xcb_intern_atom_reply_t> r(
        xcb_intern_atom_reply(m_c, xcb_intern_atom(m_c, 0, uint16_t(key.size()), key.constData()), nullptr));
    if (!r)
        return XCB_ATOM_NONE;
    m_atoms.insert(key, r->atom);
    return r->atom;
}

QString X11Connection::atomName(xcb_atom_t atom)
{
    if (atom == XCB_ATOM_NONE)
        return {};
    Reply<xcb_get_atom_name_reply_t> r(xcb_get_atom_name_reply(m_c, xcb_get_atom_name(m_c, atom), nullptr));
    if (!r)
        return {};
    return QString::fromUtf8(xcb_get_atom_name_name(r.get()), xcb_get_atom_name_name_length(r.get()));
}

std::optional<Property> X11Connection::property(xcb_window_t window, xcb_atom_t prop, xcb_atom_t type,
                                                bool deleteAfter)
{
    // 0x1fffffff 32-bit units: the whole property in one reply.
    const auto cookie = xcb_get_property(m_c, deleteAfter ? 1 : 0, window, prop, type, 0, 0x1fffffff);
    Reply<xcb_get_property_reply_t> r(xcb_get_property_reply(m_c, cookie, nullptr));
    if (!r)
        return std::nullopt;
    Property p;
    p.type = r->type;
    p.format = r->format;
    p.data = QByteArray(static_cast<const char*>(xcb_get_property_value(r.get())),
                        xcb_get_property_value_length(r.get()));
    return p;
}

int X11Connection::addEventHandler(EventHandler handler)
{
    const int id = m_nextHandlerId++;
    m_handlers.append({id, std::move(handler)});
    return id;
}

void X11Connection::removeEventHandler(int id)
{
    m_handlers.removeIf([id](const auto& h) { return h.first == id; });
}

void X11Connection::dispatch(const xcb_generic_event_t* event)
{
    for (const auto& h : std::as_const(m_handlers))
        h.second(event);
}

void X11Connection::dispatchPending()
{
    if (!isAlive())
        return;
    while (Reply<xcb_generic_event_t> e{xcb_poll_for_event(m_c)})
        dispatch(e.get());
    isAlive();
}

Reply<xcb_generic_event_t>
X11Connection::waitForEvent(const std::function<bool(const xcb_generic_event_t*)>& predicate, int timeoutMs)
{
    QDeadlineTimer deadline(qMax(0, timeoutMs));
    xcb_flush(m_c);
    while (isAlive()) {
        while (Reply<xcb_generic_event_t> e{xcb_poll_for_event(m_c)}) {
            if (predicate(e.get()))
                return e;
            dispatch(e.get());
        }
        if (!isAlive() || deadline.hasExpired())
            break;
        pollfd fd{xcb_get_file_descriptor(m_c), POLLIN, 0};
        ::poll(&fd, 1, int(qBound(qint64(1), deadline.remainingTime(), qint64(100))));
    }
    return nullptr;
}

} // namespace ciu::platform::x11
