#include "platform/x11/x11selectionowner.h"

#include "platform/x11/x11connection.h"

#include <chrono>
#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <xcb/xfixes.h>

namespace ciu::platform::x11 {
namespace {
constexpr int kTransferIdleMs = 10'000;
}

X11SelectionOwner::X11SelectionOwner(const QString& displayName)
    : m_displayName(displayName)
{
    const QByteArray name = displayName.toLocal8Bit();
    m_c = xcb_connect(name.constData(), nullptr);
    if (const int code = xcb_connection_has_error(m_c)) {
        m_error = connectErrorString(displayName, code);
        return;
    }
    xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(m_c)).data;
    m_clipboard = intern("CLIPBOARD");
    m_targets = intern("TARGETS");
    m_timestampTarget = intern("TIMESTAMP");
    m_incr = intern("INCR");
    m_stampProperty = intern("_CIU_OWNER_TIMESTAMP");
    m_atomType = XCB_ATOM_ATOM;

    // A hidden (never mapped) window whose property changes give us server timestamps.
    m_window = xcb_generate_id(m_c);
    const quint32 values[] = {1, XCB_EVENT_MASK_PROPERTY_CHANGE};
    xcb_create_window(m_c, XCB_COPY_FROM_PARENT, m_window, screen->root, -10, -10, 1, 1, 0,
                      XCB_WINDOW_CLASS_INPUT_ONLY, XCB_COPY_FROM_PARENT,
                      XCB_CW_OVERRIDE_REDIRECT | XCB_CW_EVENT_MASK, values);
    const QByteArray title = "ciu-agent clipboard";
    xcb_change_property(m_c, XCB_PROP_MODE_REPLACE, m_window, XCB_ATOM_WM_NAME, XCB_ATOM_STRING, 8,
                        quint32(title.size()), title.constData());
    // Every change of the clipboard's owner, with the time it was made at: ours must come later (below).
    if (const xcb_query_extension_reply_t* fixes = xcb_get_extension_data(m_c, &xcb_xfixes_id);
        fixes && fixes->present) {
        Reply<xcb_xfixes_query_version_reply_t> version(
            xcb_xfixes_query_version_reply(m_c, xcb_xfixes_query_version(m_c, 1, 0), nullptr));
        if (version) {
            m_xfixesEvent = fixes->first_event;
            xcb_xfixes_select_selection_input(m_c, m_window, m_clipboard,
                                              XCB_XFIXES_SELECTION_EVENT_MASK_SET_SELECTION_OWNER);
        }
    }
    // Chunks well below the server's request limit (in 4-byte units).
    m_chunkBytes = qBound(qsizetype(4096), qsizetype(xcb_get_maximum_request_length(m_c)) * 4 - 1024,
                          qsizetype(64 * 1024));
    xcb_flush(m_c);
    if (xcb_connection_has_error(m_c)) {
        m_error = QStringLiteral("the X display %1 went away").arg(displayName);
        return;
    }
    m_wakeFd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (m_wakeFd < 0) {
        m_error = QStringLiteral("cannot create the clipboard thread's wake-up descriptor");
        return;
    }
    m_alive = true;
    m_thread = std::thread([this] { run(); });
}

X11SelectionOwner::~X11SelectionOwner()
{
    m_quit = true;
    if (m_wakeFd >= 0) {
        const quint64 one = 1;
        [[maybe_unused]] const ssize_t n = ::write(m_wakeFd, &one, sizeof one);
    }
    if (m_thread.joinable())
        m_thread.join();
    if (m_wakeFd >= 0)
        ::close(m_wakeFd);
    if (m_c) {
        if (!xcb_connection_has_error(m_c) && m_window != XCB_NONE) {
            xcb_destroy_window(m_c, m_window);
            xcb_flush(m_c);
        }
        xcb_disconnect(m_c);
    }
}

QString X11SelectionOwner::errorString() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

xcb_atom_t X11SelectionOwner::intern(const QByteArray& name)
{
    Reply<xcb_intern_atom_reply_t> r(
        xcb_intern_atom_reply(m_c, xcb_intern_atom(m_c, 0, quint16(name.size()), name.constData()), nullptr));
    return r ? r->atom : xcb_atom_t(XCB_NONE);
}

bool X11SelectionOwner::own(const SelectionData& data, int timeoutMs)
{
    std::unique_lock lock(m_mutex);
    if (!m_alive) {
        if (m_error.isEmpty())
            m_error = QStringLiteral("the X display %1 went away").arg(m_displayName);
        return false;
    }
    m_request = data;
    const quint64 seq = ++m_requestSeq;
    const quint64 one = 1;
    [[maybe_unused]] const ssize_t n = ::write(m_wakeFd, &one, sizeof one);
    const bool answered = m_done.wait_for(lock, std::chrono::milliseconds(qMax(1, timeoutMs)),
                                          [&] { return m_finishedSeq >= seq || !m_alive; });
    if (!answered) {
        m_error = QStringLiteral("the X display %1 did not confirm the clipboard ownership within %2 ms")
                      .arg(m_displayName)
                      .arg(timeoutMs);
        return false;
    }
    if (m_finishedSeq < seq)
        return false; // the thread ended; m_error says why
    return m_lastOk;
}

void X11SelectionOwner::finishRequest(bool ok, const QString& error)
{
    {
        std::lock_guard lock(m_mutex);
        m_finishedSeq = m_requestSeq;
        m_lastOk = ok;
        if (!ok)
            m_error = error;
    }
    m_done.notify_all();
}

void X11SelectionOwner::run()
{
    while (!m_quit) {
        bool requested = false;
        {
            std::lock_guard lock(m_mutex);
            requested = m_finishedSeq < m_requestSeq;
        }
        if (requested)
            takeOwnership();

        xcb_flush(m_c);
        while (Reply<xcb_generic_event_t> e{xcb_poll_for_event(m_c)}) {
            handleEvent(e.get());
            xcb_flush(m_c);
        }
        if (xcb_connection_has_error(m_c))
            break;
        expireTransfers();

        pollfd fds[2] = {{xcb_get_file_descriptor(m_c), POLLIN, 0}, {m_wakeFd, POLLIN, 0}};
        ::poll(fds, 2, m_transfers.isEmpty() ? -1 : 1000);
        if (fds[1].revents & POLLIN) {
            quint64 value = 0;
            [[maybe_unused]] const ssize_t n = ::read(m_wakeFd, &value, sizeof value);
        }
    }
    m_owning = false;
    {
        std::lock_guard lock(m_mutex);
        if (xcb_connection_has_error(m_c))
            m_error = QStringLiteral("the X display %1 went away").arg(m_displayName);
        m_alive = false;
    }
    m_done.notify_all();
}

xcb_timestamp_t X11SelectionOwner::serverTime()
{
    // The server's clock moves only when input comes or a request brings it up to date: an append alone is
    // stamped with the time of the last input. UngrabPointer brings it up to date (and releases nothing: we
    // hold no grab).
    xcb_ungrab_pointer(m_c, XCB_CURRENT_TIME);
    xcb_change_property(m_c, XCB_PROP_MODE_APPEND, m_window, m_stampProperty, XCB_ATOM_INTEGER, 8, 0,
                        nullptr);
    xcb_flush(m_c);
    while (Reply<xcb_generic_event_t> e{xcb_wait_for_event(m_c)}) {
        if ((e->response_type & 0x7f) == XCB_PROPERTY_NOTIFY) {
            const auto* p = reinterpret_cast<const xcb_property_notify_event_t*>(e.get());
            if (p->window == m_window && p->atom == m_stampProperty)
                return p->time;
        }
        handleEvent(e.get());
    }
    return XCB_CURRENT_TIME;
}

void X11SelectionOwner::takeOwnership()
{
    SelectionData data;
    {
        std::lock_guard lock(m_mutex);
        data = m_request;
    }
    // ICCCM: own with a real server time. And a later one than the last change of owner: a program keeps
    // its ownership against a change stamped no later than its own (Qt ignores both the SelectionClear and
    // the XFixes notice then), and would paste its old text. Two changes within a millisecond are common
    // (a program sets the clipboard, the agent takes it at once): wait for the clock to move on.
    xcb_timestamp_t time = serverTime();
    for (int waited = 0;
         time != XCB_CURRENT_TIME && waited < 100 && (time <= m_lastChange || time <= m_ownedSince);
         ++waited) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        time = serverTime();
    }
    if (time == XCB_CURRENT_TIME || xcb_connection_has_error(m_c)) {
        finishRequest(false, QStringLiteral("the X display %1 went away").arg(m_displayName));
        return;
    }
    m_data = data;
    m_itemByTarget.clear();
    for (qsizetype i = 0; i < m_data.items.size(); ++i)
        m_itemByTarget.insert(intern(m_data.items.at(i).target), i);
    xcb_set_selection_owner(m_c, m_window, m_clipboard, time);
    Reply<xcb_get_selection_owner_reply_t> owner(
        xcb_get_selection_owner_reply(m_c, xcb_get_selection_owner(m_c, m_clipboard), nullptr));
    if (!owner || owner->owner != m_window) {
        m_owning = false;
        finishRequest(false, QStringLiteral("the X server did not give us the clipboard"));
        return;
    }
    m_ownedSince = time;
    m_owning = true;
    qCDebug(lcX11) << "own the clipboard with" << m_data.targets();
    finishRequest(true, {});
}

void X11SelectionOwner::handleEvent(const xcb_generic_event_t* event)
{
    switch (event->response_type & 0x7f) {
    case XCB_SELECTION_REQUEST:
        answerRequest(reinterpret_cast<const xcb_selection_request_event_t*>(event));
        break;
    case XCB_SELECTION_CLEAR: {
        const auto* e = reinterpret_cast<const xcb_selection_clear_event_t*>(event);
        if (e->selection == m_clipboard && e->owner == m_window) {
            m_owning = false;
            m_data = {};
            m_itemByTarget.clear();
            qCDebug(lcX11) << "another client took the clipboard";
        }
        break;
    }
    case XCB_PROPERTY_NOTIFY: {
        const auto* e = reinterpret_cast<const xcb_property_notify_event_t*>(event);
        if (e->state == XCB_PROPERTY_DELETE)
            continueTransfer(e->window, e->atom);
        break;
    }
    case 0: // an error, e.g. BadWindow for a requestor that went away: its transfer expires
        break;
    default:
        if (m_xfixesEvent != 0 &&
            (event->response_type & 0x7f) == m_xfixesEvent + XCB_XFIXES_SELECTION_NOTIFY) {
            const auto* e = reinterpret_cast<const xcb_xfixes_selection_notify_event_t*>(event);
            if (e->selection == m_clipboard && e->selection_timestamp > m_lastChange)
                m_lastChange = e->selection_timestamp;
        }
        break;
    }
}

bool X11SelectionOwner::writeTarget(xcb_window_t requestor, xcb_atom_t property, xcb_atom_t target)
{
    if (target == m_targets) {
        QList<xcb_atom_t> atoms{m_targets, m_timestampTarget};
        for (auto it = m_itemByTarget.cbegin(); it != m_itemByTarget.cend(); ++it)
            atoms << it.key();
        xcb_change_property(m_c, XCB_PROP_MODE_REPLACE, requestor, property, m_atomType, 32,
                            quint32(atoms.size()), atoms.constData());
        return true;
    }
    if (target == m_timestampTarget) {
        const quint32 time = m_ownedSince;
        xcb_change_property(m_c, XCB_PROP_MODE_REPLACE, requestor, property, XCB_ATOM_INTEGER, 32, 1, &time);
        return true;
    }
    const auto it = m_itemByTarget.constFind(target);
    if (it == m_itemByTarget.cend())
        return false;
    const SelectionItem& item = m_data.items.at(*it);
    const xcb_atom_t type = intern(item.type);
    if (item.data.size() > kIncrThreshold) {
        // Incremental: announce the size, then one chunk per deletion of the property by the reader.
        const quint32 events = XCB_EVENT_MASK_PROPERTY_CHANGE;
        xcb_change_window_attributes(m_c, requestor, XCB_CW_EVENT_MASK, &events);
        const quint32 size = quint32(item.data.size());
        xcb_change_property(m_c, XCB_PROP_MODE_REPLACE, requestor, property, m_incr, 32, 1, &size);
        Transfer transfer;
        transfer.requestor = requestor;
        transfer.property = property;
        transfer.type = type;
        transfer.data = item.data;
        transfer.idle.start();
        m_transfers << transfer;
        return true;
    }
    xcb_change_property(m_c, XCB_PROP_MODE_REPLACE, requestor, property, type, 8, quint32(item.data.size()),
                        item.data.constData());
    return true;
}

void X11SelectionOwner::answerRequest(const xcb_selection_request_event_t* request)
{
    // Obsolete clients pass no property: use the target name.
    xcb_atom_t property = request->property != XCB_NONE ? request->property : request->target;
    // No check of the request time against the ownership time (ICCCM): readers such as Qt send their
    // last seen server time, which may well predate our ownership, and would be refused for no reason.
    const bool valid = request->selection == m_clipboard && m_owning;
    if (!valid || !writeTarget(request->requestor, property, request->target))
        property = XCB_NONE; // refused
    xcb_selection_notify_event_t notify{};
    notify.response_type = XCB_SELECTION_NOTIFY;
    notify.time = request->time;
    notify.requestor = request->requestor;
    notify.selection = request->selection;
    notify.target = request->target;
    notify.property = property;
    xcb_send_event(m_c, 0, request->requestor, XCB_EVENT_MASK_NO_EVENT,
                   reinterpret_cast<const char*>(&notify));
}

void X11SelectionOwner::continueTransfer(xcb_window_t requestor, xcb_atom_t property)
{
    for (qsizetype i = 0; i < m_transfers.size(); ++i) {
        Transfer& t = m_transfers[i];
        if (t.requestor != requestor || t.property != property)
            continue;
        if (t.done) {
            m_transfers.removeAt(i);
            return;
        }
        const qsizetype chunk = qMin(m_chunkBytes, t.data.size() - t.offset);
        xcb_change_property(m_c, XCB_PROP_MODE_REPLACE, requestor, property, t.type, 8, quint32(chunk),
                            t.data.constData() + t.offset);
        t.offset += chunk;
        t.done = chunk == 0; // the zero-length chunk ends the transfer
        t.idle.restart();
        if (t.done) {
            const quint32 none = XCB_EVENT_MASK_NO_EVENT;
            xcb_change_window_attributes(m_c, requestor, XCB_CW_EVENT_MASK, &none);
            m_transfers.removeAt(i);
        }
        return;
    }
}

void X11SelectionOwner::expireTransfers()
{
    m_transfers.removeIf([](const Transfer& t) { return t.idle.hasExpired(kTransferIdleMs); });
}

} // namespace ciu::platform::x11
