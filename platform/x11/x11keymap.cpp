#include "platform/x11/x11keymap.h"

#include <QThread>

#include <algorithm>
#include <xkbcommon/xkbcommon-keysyms.h>

namespace ciu::platform::x11 {

bool isKeypadKeysym(Keysym keysym)
{
    return keysym >= XKB_KEY_KP_Space && keysym <= XKB_KEY_KP_Equal;
}

KeymapTable::KeymapTable(int minKeycode, int perKeycode, const QList<quint32>& keysyms,
                         const QList<quint8>& ignored)
{
    if (perKeycode <= 0)
        return;
    const qsizetype count = keysyms.size() / perKeycode;
    for (qsizetype i = 0; i < count; ++i) {
        const int keycode = minKeycode + int(i);
        if (keycode > 255)
            break;
        const auto code = quint8(keycode);
        if (ignored.contains(code))
            continue;
        const quint32* syms = keysyms.constData() + i * perKeycode;
        if (std::all_of(syms, syms + perKeycode, [](quint32 s) { return s == 0; })) {
            m_empty << code;
            continue;
        }
        // Group 1 only: levels 1 and 2 (columns 0 and 1). A key with one symbol in column 0 and
        // NoSymbol in column 1 behaves as if both were that symbol (core protocol rules), which
        // needs no shift either way.
        for (int level = 0; level < qMin(2, perKeycode); ++level) {
            const Keysym sym = syms[level];
            if (sym == 0)
                continue;
            // The second level of a keypad key is reached with NumLock, not Shift (XKB type KEYPAD):
            // such keysyms are treated as missing and get a key of their own.
            if (level == 1 && isKeypadKeysym(sym))
                continue;
            const KeyPosition pos{code, level == 1};
            const auto it = m_positions.constFind(sym);
            // Prefer unshifted positions, then the lowest keycode.
            if (it == m_positions.cend() || (it->needsShift && !pos.needsShift))
                m_positions.insert(sym, pos);
        }
    }
}

std::optional<KeyPosition> KeymapTable::find(Keysym keysym) const
{
    const auto it = m_positions.constFind(keysym);
    if (it == m_positions.cend())
        return std::nullopt;
    return *it;
}

X11Keymap::X11Keymap(X11Connection& conn)
    : m_conn(conn)
{
    m_clock.start();
    m_handlerId = m_conn.addEventHandler([this](const xcb_generic_event_t* e) { handleEvent(e); });
}

X11Keymap::~X11Keymap()
{
    m_conn.removeEventHandler(m_handlerId);
    restore();
}

void X11Keymap::handleEvent(const xcb_generic_event_t* event)
{
    if ((event->response_type & 0x7f) != XCB_MAPPING_NOTIFY)
        return;
    const auto* e = reinterpret_cast<const xcb_mapping_notify_event_t*>(event);
    if (e->request != XCB_MAPPING_KEYBOARD)
        return;
    // Our own bindings of spare keycodes need no reload.
    if (e->count == 1 && isSpare(e->first_keycode))
        return;
    m_loaded = false;
}

bool X11Keymap::isSpare(quint8 keycode) const
{
    return std::any_of(m_slots.cbegin(), m_slots.cend(),
                       [keycode](const Slot& s) { return s.keycode == keycode; });
}

bool X11Keymap::load()
{
    m_conn.dispatchPending(); // MappingNotify from someone else's change
    if (m_loaded)
        return true;
    if (!m_conn.isAlive()) {
        m_error = m_conn.lostError();
        return false;
    }
    xcb_connection_t* c = m_conn.xcb();
    const xcb_setup_t* setup = xcb_get_setup(c);
    const int minKeycode = setup->min_keycode;
    const int count = setup->max_keycode - setup->min_keycode + 1;
    Reply<xcb_get_keyboard_mapping_reply_t> reply(xcb_get_keyboard_mapping_reply(
        c, xcb_get_keyboard_mapping(c, setup->min_keycode, quint8(count)), nullptr));
    if (!reply) {
        m_error = m_conn.requestError(QStringLiteral("reading the keyboard map"));
        return false;
    }
    const xcb_keysym_t* syms = xcb_get_keyboard_mapping_keysyms(reply.get());
    const int length = xcb_get_keyboard_mapping_keysyms_length(reply.get());
    const QList<quint32> keysyms(syms, syms + length);
    QList<quint8> spare;
    for (const Slot& s : std::as_const(m_slots))
        spare << s.keycode;
    m_table = KeymapTable(minKeycode, reply->keysyms_per_keycode, keysyms, spare);
    if (m_slots.isEmpty()) {
        // Keycodes no physical key sends: the high end first, as xdotool does. Keycode 8 is left alone
        // (some toolkits treat it specially).
        QList<quint8> empty = m_table.emptyKeycodes();
        std::sort(empty.begin(), empty.end(), std::greater<>());
        for (const quint8 code : std::as_const(empty)) {
            if (code > 8)
                m_slots << Slot{code, 0, -1};
        }
        qCDebug(lcX11) << m_slots.size() << "spare keycodes for characters outside the keyboard map";
    }
    m_loaded = true;
    return true;
}

bool X11Keymap::hasKey(Keysym keysym)
{
    if (!load())
        return false;
    return m_table.find(keysym) || std::any_of(m_slots.cbegin(), m_slots.cend(),
                                               [keysym](const Slot& s) { return s.keysym == keysym; });
}

std::optional<quint8> X11Keymap::keycodeOf(Keysym keysym)
{
    if (!load())
        return std::nullopt;
    if (const auto pos = m_table.find(keysym))
        return pos->keycode;
    return std::nullopt;
}

void X11Keymap::waitSettled(const Slot& slot)
{
    if (slot.lastUsedMs < 0 || slot.lastUsedMs < m_settledAtMs)
        return; // not used since the focused client last caught up
    // The window manager reloads the map and regrabs its keys on every change; let it catch up too, or
    // clicks stay frozen in its button grabs while it works through a backlog of changes.
    m_conn.syncWithWindowManager(kWindowManagerTimeoutMs);
    if (pingFocusedClient()) {
        m_settledAtMs = m_clock.elapsed();
        return;
    }
    // A client that does not answer pings: give it time.
    const qint64 waitMs = slot.lastUsedMs + kSettleMs - m_clock.elapsed();
    if (waitMs > 0) {
        m_conn.sync();
        QThread::msleep(static_cast<unsigned long>(waitMs));
    }
}

xcb_window_t X11Keymap::focusedPingableWindow()
{
    xcb_connection_t* c = m_conn.xcb();
    Reply<xcb_get_input_focus_reply_t> focus(xcb_get_input_focus_reply(c, xcb_get_input_focus(c), nullptr));
    if (!focus || focus->focus == XCB_NONE || focus->focus == XCB_INPUT_FOCUS_POINTER_ROOT)
        return XCB_NONE;
    const xcb_atom_t protocols = m_conn.atom("WM_PROTOCOLS");
    const xcb_atom_t ping = m_conn.atom("_NET_WM_PING");
    xcb_window_t window = focus->focus;
    for (int depth = 0; depth < 16 && window != XCB_NONE && window != m_conn.root(); ++depth) {
        const auto supported = m_conn.property(window, protocols, XCB_ATOM_ATOM);
        if (supported && supported->values32().contains(ping))
            return window;
        Reply<xcb_query_tree_reply_t> tree(xcb_query_tree_reply(c, xcb_query_tree(c, window), nullptr));
        if (!tree)
            return XCB_NONE;
        window = tree->parent;
    }
    return XCB_NONE;
}

bool X11Keymap::pingFocusedClient()
{
    // _NET_WM_PING: the client answers once it has handled every event queued before the ping, the key
    // events we sent included, so their keysyms have been looked up and the keys can be rebound.
    const xcb_window_t window = focusedPingableWindow();
    if (window == XCB_NONE)
        return false;
    xcb_connection_t* c = m_conn.xcb();
    const xcb_atom_t protocols = m_conn.atom("WM_PROTOCOLS");
    const xcb_atom_t ping = m_conn.atom("_NET_WM_PING");
    const quint32 token = ++m_pingToken;
    // The answer goes to the root window, for the window manager: Qt sends it with StructureNotify, GTK
    // and others with SubstructureNotify. Listen for both while waiting.
    const quint32 listen = XCB_EVENT_MASK_STRUCTURE_NOTIFY | XCB_EVENT_MASK_SUBSTRUCTURE_NOTIFY;
    xcb_change_window_attributes(c, m_conn.root(), XCB_CW_EVENT_MASK, &listen);
    xcb_client_message_event_t event{};
    event.response_type = XCB_CLIENT_MESSAGE;
    event.format = 32;
    event.window = window;
    event.type = protocols;
    event.data.data32[0] = ping;
    event.data.data32[1] = token;
    event.data.data32[2] = window;
    xcb_send_event(c, 0, window, XCB_EVENT_MASK_NO_EVENT, reinterpret_cast<const char*>(&event));
    const auto pong = m_conn.waitForEvent(
        [&](const xcb_generic_event_t* e) {
            if ((e->response_type & 0x7f) != XCB_CLIENT_MESSAGE)
                return false;
            const auto* m = reinterpret_cast<const xcb_client_message_event_t*>(e);
            return m->type == protocols && m->data.data32[0] == ping && m->data.data32[1] == token;
        },
        kPingTimeoutMs);
    const quint32 none = XCB_EVENT_MASK_NO_EVENT;
    xcb_change_window_attributes(c, m_conn.root(), XCB_CW_EVENT_MASK, &none);
    if (!pong)
        qCDebug(lcX11) << "the focused client did not answer a ping within" << kPingTimeoutMs << "ms";
    return pong != nullptr;
}

bool X11Keymap::setMapping(quint8 keycode, Keysym keysym)
{
    // Two columns with the same symbol: the key gives it with or without Shift.
    const xcb_keysym_t syms[2] = {keysym, keysym};
    xcb_change_keyboard_mapping(m_conn.xcb(), 1, keycode, 2, syms);
    return m_conn.isAlive();
}

std::optional<KeyPosition> X11Keymap::resolve(Keysym keysym)
{
    if (!load())
        return std::nullopt;
    if (const auto pos = m_table.find(keysym))
        return pos;
    if (keysym == 0) {
        m_error = QStringLiteral("no key for keysym 0");
        return std::nullopt;
    }
    for (const Slot& s : std::as_const(m_slots)) {
        if (s.keysym == keysym)
            return KeyPosition{s.keycode, false};
    }
    if (m_slots.isEmpty()) {
        m_error = QStringLiteral("the keyboard map of %1 has no free keycode to bind %2 to")
                      .arg(m_conn.displayName(), keysymName(keysym));
        return std::nullopt;
    }
    // A free slot, else the least recently used one once its last key event has surely been read.
    auto it = std::find_if(m_slots.begin(), m_slots.end(), [](const Slot& s) { return s.keysym == 0; });
    if (it == m_slots.end()) {
        it = std::min_element(m_slots.begin(), m_slots.end(),
                              [](const Slot& a, const Slot& b) { return a.lastUsedMs < b.lastUsedMs; });
        waitSettled(*it);
    }
    if (!setMapping(it->keycode, keysym)) {
        m_error = m_conn.lostError();
        return std::nullopt;
    }
    it->keysym = keysym;
    it->lastUsedMs = m_clock.elapsed();
    qCDebug(lcX11) << "bound" << keysymName(keysym) << "to spare keycode" << it->keycode;
    return KeyPosition{it->keycode, false};
}

void X11Keymap::touched(quint8 keycode)
{
    for (Slot& s : m_slots) {
        if (s.keycode == keycode)
            s.lastUsedMs = m_clock.elapsed();
    }
}

void X11Keymap::restore()
{
    const bool anyBound =
        std::any_of(m_slots.cbegin(), m_slots.cend(), [](const Slot& s) { return s.keysym != 0; });
    if (!anyBound || !m_conn.isAlive())
        return;
    // One wait for the most recent use covers all slots.
    const auto latest = std::max_element(m_slots.cbegin(), m_slots.cend(), [](const Slot& a, const Slot& b) {
        return a.lastUsedMs < b.lastUsedMs;
    });
    waitSettled(*latest);
    for (Slot& s : m_slots) {
        if (s.keysym == 0)
            continue;
        setMapping(s.keycode, 0);
        s.keysym = 0;
        s.lastUsedMs = -1;
    }
    m_conn.sync();
}

} // namespace ciu::platform::x11
