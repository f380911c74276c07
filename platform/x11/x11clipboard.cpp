#include "platform/x11/x11clipboard.h"

namespace ciu::platform::x11 {
namespace {
constexpr int kOwnTimeoutMs = 2000;
}

X11Clipboard::X11Clipboard(X11Connection& conn)
    : m_conn(conn)
{
}

X11Clipboard::~X11Clipboard()
{
    if (m_requestor != XCB_NONE && m_conn.isAlive()) {
        xcb_destroy_window(m_conn.xcb(), m_requestor);
        xcb_flush(m_conn.xcb());
    }
}

bool X11Clipboard::fail(const QString& message)
{
    m_error = message;
    return false;
}

bool X11Clipboard::ensureRequestor()
{
    if (!m_conn.isAlive())
        return fail(m_conn.lostError());
    if (m_requestor != XCB_NONE)
        return true;
    xcb_connection_t* c = m_conn.xcb();
    m_clipboard = m_conn.atom("CLIPBOARD");
    m_property = m_conn.atom("_CIU_CLIPBOARD_DATA");
    m_requestor = xcb_generate_id(c);
    const quint32 values[] = {1, XCB_EVENT_MASK_PROPERTY_CHANGE};
    xcb_create_window(c, XCB_COPY_FROM_PARENT, m_requestor, m_conn.root(), -10, -10, 1, 1, 0,
                      XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT,
                      XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK, values);
    if (!m_conn.sync()) {
        m_requestor = XCB_NONE;
        return fail(m_conn.lostError());
    }
    return true;
}

bool X11Clipboard::hasOwner()
{
    xcb_connection_t* c = m_conn.xcb();
    Reply<xcb_get_selection_owner_reply_t> owner(
        xcb_get_selection_owner_reply(c, xcb_get_selection_owner(c, m_clipboard), nullptr));
    if (!owner)
        return fail(m_conn.requestError(QStringLiteral("reading the clipboard owner")));
    if (owner->owner == XCB_NONE)
        return fail(QStringLiteral("the clipboard is empty"));
    return true;
}

std::optional<X11Clipboard::Converted> X11Clipboard::convert(const QByteArray& target, int timeoutMs)
{
    xcb_connection_t* c = m_conn.xcb();
    const xcb_atom_t targetAtom = m_conn.atom(target.constData());
    xcb_delete_property(c, m_requestor, m_property);
    xcb_convert_selection(c, m_requestor, m_clipboard, targetAtom, m_property, XCB_CURRENT_TIME);
    auto notify = m_conn.waitForEvent(
        [&](const xcb_generic_event_t* e) {
            if ((e->response_type & 0x7f) != XCB_SELECTION_NOTIFY)
                return false;
            const auto* n = reinterpret_cast<const xcb_selection_notify_event_t*>(e);
            return n->requestor == m_requestor && n->selection == m_clipboard && n->target == targetAtom;
        },
        timeoutMs);
    if (!notify) {
        fail(m_conn.isAlive()
                 ? QStringLiteral("the clipboard owner did not answer within %1 ms").arg(timeoutMs)
                 : m_conn.lostError());
        return std::nullopt;
    }
    if (reinterpret_cast<const xcb_selection_notify_event_t*>(notify.get())->property == XCB_NONE) {
        fail(QStringLiteral("the clipboard has no %1 content").arg(QString::fromLatin1(target)));
        return std::nullopt;
    }
    const auto prop = m_conn.property(m_requestor, m_property, XCB_ATOM_ANY, true);
    if (!prop) {
        fail(m_conn.requestError(QStringLiteral("reading the clipboard")));
        return std::nullopt;
    }
    if (prop->type == m_conn.atom("INCR"))
        return readIncremental(timeoutMs);
    return Converted{prop->data, prop->type};
}

std::optional<X11Clipboard::Converted> X11Clipboard::readIncremental(int timeoutMs)
{
    // Deleting the INCR property (done by the read) asks the owner for the first chunk; each further
    // deletion asks for the next; a zero-length chunk ends the transfer.
    Converted result;
    while (true) {
        auto changed = m_conn.waitForEvent(
            [&](const xcb_generic_event_t* e) {
                if ((e->response_type & 0x7f) != XCB_PROPERTY_NOTIFY)
                    return false;
                const auto* p = reinterpret_cast<const xcb_property_notify_event_t*>(e);
                return p->window == m_requestor && p->atom == m_property &&
                       p->state == XCB_PROPERTY_NEW_VALUE;
            },
            timeoutMs);
        if (!changed) {
            fail(m_conn.isAlive() ? QStringLiteral("the clipboard owner stopped sending after %1 bytes")
                                        .arg(result.data.size())
                                  : m_conn.lostError());
            return std::nullopt;
        }
        const auto chunk = m_conn.property(m_requestor, m_property, XCB_ATOM_ANY, true);
        if (!chunk) {
            fail(m_conn.requestError(QStringLiteral("reading the clipboard")));
            return std::nullopt;
        }
        if (chunk->data.isEmpty())
            return result;
        result.type = chunk->type;
        result.data += chunk->data;
    }
}

std::optional<QString> X11Clipboard::text(int timeoutMs)
{
    if (!ensureRequestor() || !hasOwner())
        return std::nullopt;
    if (const auto utf8 = convert("UTF8_STRING", timeoutMs))
        return QString::fromUtf8(utf8->data);
    if (!m_conn.isAlive())
        return std::nullopt;
    if (const auto latin1 = convert("STRING", timeoutMs))
        return QString::fromLatin1(latin1->data);
    if (m_conn.isAlive())
        fail(QStringLiteral("the clipboard holds no text"));
    return std::nullopt;
}

std::optional<QImage> X11Clipboard::image(int timeoutMs)
{
    if (!ensureRequestor() || !hasOwner())
        return std::nullopt;
    const auto targets = convert("TARGETS", timeoutMs);
    if (!targets)
        return std::nullopt;
    QList<QByteArray> offered;
    if (targets->data.size() % 4 == 0) {
        const auto* atoms = reinterpret_cast<const quint32*>(targets->data.constData());
        for (qsizetype i = 0; i < targets->data.size() / 4; ++i)
            offered << m_conn.atomName(atoms[i]).toLatin1();
    }
    const auto target = preferredImageTarget(offered);
    if (!target) {
        fail(QStringLiteral("the clipboard holds no image"));
        return std::nullopt;
    }
    const auto data = convert(*target, timeoutMs);
    if (!data)
        return std::nullopt;
    QImage image = QImage::fromData(data->data);
    if (image.isNull()) {
        fail(QStringLiteral("the clipboard's %1 data cannot be decoded").arg(QString::fromLatin1(*target)));
        return std::nullopt;
    }
    return image;
}

bool X11Clipboard::own(const SelectionData& data)
{
    if (!m_conn.isAlive())
        return fail(m_conn.lostError());
    if (!m_owner || !m_owner->isValid())
        m_owner = std::make_unique<X11SelectionOwner>(m_conn.displayName());
    if (!m_owner->isValid())
        return fail(m_owner->errorString());
    if (!m_owner->own(data, kOwnTimeoutMs))
        return fail(m_owner->errorString());
    return true;
}

bool X11Clipboard::setText(const QString& text)
{
    return own(selectionDataForText(text));
}

bool X11Clipboard::setImage(const QImage& image)
{
    if (image.isNull())
        return fail(QStringLiteral("cannot put a null image on the clipboard"));
    const SelectionData data = selectionDataForImage(image);
    if (data.isEmpty())
        return fail(QStringLiteral("cannot encode the image as PNG"));
    return own(data);
}

} // namespace ciu::platform::x11
