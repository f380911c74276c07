#include "platform/x11/x11input.h"

#include <QDeadlineTimer>
#include <QSet>
#include <QThread>

#include <xcb/xtest.h>
#include <xkbcommon/xkbcommon-keysyms.h>

namespace ciu::platform::x11 {
namespace {
constexpr int kPointerWaitMs = 300;
// Window managers redo their key grabs after every keyboard-map change: right after typing characters
// outside the map they may need seconds (on a loaded machine) before they handle a click.
constexpr int kWindowManagerWaitMs = 10'000;
constexpr int kGrabberGraceMs = 100;
} // namespace

X11Input::X11Input(X11Connection& conn)
    : m_conn(conn)
    , m_keymap(conn)
{
}

X11Input::~X11Input()
{
    // Never leave a key or button stuck down on the user's display.
    releaseAll();
}

bool X11Input::fail(const QString& message)
{
    m_error = message;
    return false;
}

bool X11Input::ready()
{
    if (!m_conn.isAlive())
        return fail(m_conn.lostError());
    if (!isAvailable())
        return fail(QStringLiteral("the X display %1 has no XTEST extension: cannot send input")
                        .arg(m_conn.displayName()));
    return true;
}

bool X11Input::fake(quint8 type, quint8 detail, QPoint pos)
{
    xcb_test_fake_input(m_conn.xcb(), type, detail, XCB_CURRENT_TIME,
                        type == XCB_MOTION_NOTIFY ? m_conn.root() : XCB_NONE, qint16(pos.x()),
                        qint16(pos.y()), 0);
    return m_conn.isAlive() || fail(m_conn.lostError());
}

bool X11Input::moveTo(QPoint rootPos)
{
    if (!ready())
        return false;
    return fake(XCB_MOTION_NOTIFY, 0, rootPos);
}

bool X11Input::button(MouseButton button, bool down)
{
    if (!ready())
        return false;
    const auto detail = quint8(button);
    if (down)
        ++m_buttonsDown[detail];
    else
        m_buttonsDown.remove(detail);
    m_buttonSent = true;
    return fake(down ? XCB_BUTTON_PRESS : XCB_BUTTON_RELEASE, detail);
}

bool X11Input::wheel(ScrollDirection direction)
{
    if (!ready())
        return false;
    quint8 detail = 0;
    switch (direction) {
    case ScrollDirection::Up:
        detail = 4;
        break;
    case ScrollDirection::Down:
        detail = 5;
        break;
    case ScrollDirection::Left:
        detail = 6;
        break;
    case ScrollDirection::Right:
        detail = 7;
        break;
    }
    if (detail == 0)
        return fail(QStringLiteral("unknown scroll direction"));
    m_buttonSent = true;
    return fake(XCB_BUTTON_PRESS, detail) && fake(XCB_BUTTON_RELEASE, detail);
}

bool X11Input::shiftHeld() const
{
    for (auto it = m_down.cbegin(); it != m_down.cend(); ++it) {
        if (it.value())
            return true; // a Shift we pressed for a shifted keysym
    }
    auto* self = const_cast<X11Input*>(this);
    for (const Keysym shift : {Keysym(XKB_KEY_Shift_L), Keysym(XKB_KEY_Shift_R)}) {
        if (const auto code = self->m_keymap.keycodeOf(shift); code && m_down.contains(*code))
            return true;
    }
    return false;
}

bool X11Input::keycode(quint8 code, bool down)
{
    return fake(down ? XCB_KEY_PRESS : XCB_KEY_RELEASE, code);
}

bool X11Input::key(Keysym keysym, bool down)
{
    if (!ready())
        return false;
    const auto pos = m_keymap.resolve(keysym);
    if (!pos)
        return fail(
            QStringLiteral("cannot send the key %1: %2").arg(keysymName(keysym), m_keymap.errorString()));
    m_keymap.touched(pos->keycode);
    if (down) {
        waitUntilPointerUnfrozen();
        const bool addShift = pos->needsShift && !shiftHeld();
        if (addShift) {
            const auto shift = m_keymap.keycodeOf(XKB_KEY_Shift_L);
            if (!shift)
                return fail(QStringLiteral("cannot type %1: the keyboard map has no Shift_L")
                                .arg(keysymName(keysym)));
            if (!keycode(*shift, true))
                return false;
        }
        const bool combo = !isModifier(keysym) && modifierHeld();
        m_down.insert(pos->keycode, addShift);
        if (!keycode(pos->keycode, true))
            return false;
        if (combo)
            letKeyGrabberCatchUp();
        return m_conn.isAlive() || fail(m_conn.lostError());
    }
    const bool pressedShift = m_down.value(pos->keycode, false);
    m_down.remove(pos->keycode);
    bool ok = keycode(pos->keycode, false);
    if (pressedShift) {
        if (const auto shift = m_keymap.keycodeOf(XKB_KEY_Shift_L))
            ok = keycode(*shift, false) && ok;
    }
    return ok;
}

bool X11Input::typeText(const QString& text, int perCharDelayMs)
{
    if (!ready())
        return false;
    // Keysyms first, so that bad input fails before anything is typed.
    QList<Keysym> keysyms;
    const QList<uint> codePoints = text.toUcs4();
    for (qsizetype i = 0; i < codePoints.size(); ++i) {
        const uint cp = codePoints.at(i);
        if (cp == '\r' && i + 1 < codePoints.size() && codePoints.at(i + 1) == '\n')
            continue; // CR LF is one Return
        if (cp == '\n' || cp == '\r')
            keysyms << XKB_KEY_Return;
        else if (cp == '\t')
            keysyms << XKB_KEY_Tab;
        else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
            return fail(
                QStringLiteral("cannot type the control character U+%1").arg(cp, 4, 16, QLatin1Char('0')));
        else
            keysyms << keysymFromCodePoint(char32_t(cp));
    }
    // Bind the missing keysyms of a run up front (as many as there are spare keycodes): one keyboard-map
    // change per character, all before the key events, so the client has read each new map before the
    // first key that needs it.
    qsizetype start = 0;
    while (start < keysyms.size()) {
        QSet<Keysym> missing;
        qsizetype end = start;
        for (; end < keysyms.size(); ++end) {
            const Keysym sym = keysyms.at(end);
            if (missing.contains(sym) || m_keymap.hasKey(sym))
                continue;
            if (missing.size() == m_keymap.spareCount())
                break;
            missing.insert(sym);
        }
        if (end == start)
            end = start + 1; // no spare keycodes at all: key() reports the error
        for (qsizetype i = start; i < end; ++i) {
            if (!m_keymap.resolve(keysyms.at(i)))
                return fail(QStringLiteral("cannot type %1: %2")
                                .arg(keysymName(keysyms.at(i)), m_keymap.errorString()));
        }
        for (qsizetype i = start; i < end; ++i) {
            const Keysym sym = keysyms.at(i);
            if (!key(sym, true) || !key(sym, false))
                return false;
            if (perCharDelayMs > 0) {
                if (!sync())
                    return false;
                QThread::msleep(static_cast<unsigned long>(perCharDelayMs));
            }
        }
        start = end;
    }
    return true;
}

bool X11Input::sync()
{
    return m_conn.sync() || fail(m_conn.lostError());
}

bool X11Input::settle()
{
    // The manager answers a request of ours after the events queued before it: by then it has handled a
    // press its grab froze the pointer on and let the held events through (a manager without
    // _NET_REQUEST_FRAME_EXTENTS: nothing to wait for).
    m_conn.syncWithWindowManager(kWindowManagerWaitMs);
    return sync();
}

void X11Input::waitUntilPointerUnfrozen()
{
    if (!m_buttonSent)
        return;
    m_buttonSent = false;
    if (!m_buttonsDown.isEmpty())
        return; // our own held button means an implicit grab by the client: expected
    // Probe with a grab of our own: it succeeds once no other client holds the pointer. Qt and most
    // toolkits ignore the crossing events of a grab.
    xcb_connection_t* c = m_conn.xcb();
    auto pointerFree = [&] {
        const auto cookie = xcb_grab_pointer(c, 0, m_conn.root(), 0, XCB_GRAB_MODE_ASYNC, XCB_GRAB_MODE_ASYNC,
                                             XCB_NONE, XCB_NONE, XCB_CURRENT_TIME);
        Reply<xcb_grab_pointer_reply_t> reply(xcb_grab_pointer_reply(c, cookie, nullptr));
        if (!reply)
            return true; // connection trouble: reported by the key request itself
        if (reply->status != XCB_GRAB_STATUS_SUCCESS)
            return false;
        xcb_ungrab_pointer(c, XCB_CURRENT_TIME);
        return true;
    };
    if (pointerFree())
        return;
    // Held by the window manager's click-to-focus grab until it has handled the click, which may take
    // a while after keyboard-map changes; a round trip through the manager says when.
    m_conn.syncWithWindowManager(kWindowManagerWaitMs);
    QDeadlineTimer deadline(kPointerWaitMs);
    while (m_conn.isAlive() && !pointerFree()) {
        if (deadline.hasExpired()) {
            // Someone else's grab (an open popup menu): keys go where the grabber wants them.
            qCDebug(lcX11) << "the pointer is still grabbed by another client; sending the key anyway";
            return;
        }
        QThread::msleep(2);
    }
}

bool X11Input::modifierHeld()
{
    for (const Keysym sym :
         {XKB_KEY_Control_L, XKB_KEY_Control_R, XKB_KEY_Alt_L, XKB_KEY_Alt_R, XKB_KEY_Super_L,
          XKB_KEY_Super_R, XKB_KEY_Meta_L, XKB_KEY_Meta_R, XKB_KEY_Hyper_L, XKB_KEY_ISO_Level3_Shift}) {
        if (const auto code = m_keymap.keycodeOf(sym); code && m_down.contains(*code))
            return true;
    }
    return false;
}

void X11Input::letKeyGrabberCatchUp()
{
    // A grab of our own fails while another client's passive grab on this key is active.
    xcb_connection_t* c = m_conn.xcb();
    const auto cookie =
        xcb_grab_keyboard(c, 0, m_conn.root(), XCB_CURRENT_TIME, XCB_GRAB_MODE_ASYNC, XCB_GRAB_MODE_ASYNC);
    Reply<xcb_grab_keyboard_reply_t> reply(xcb_grab_keyboard_reply(c, cookie, nullptr));
    if (!reply)
        return;
    if (reply->status == XCB_GRAB_STATUS_SUCCESS) {
        xcb_ungrab_keyboard(c, XCB_CURRENT_TIME);
        return;
    }
    qCDebug(lcX11) << "a key combo went to another client's grab; holding the modifiers for"
                   << kGrabberGraceMs << "ms";
    QThread::msleep(kGrabberGraceMs);
}

void X11Input::releaseAll()
{
    if ((m_down.isEmpty() && m_buttonsDown.isEmpty()) || !m_conn.isAlive() || !isAvailable())
        return;
    for (auto it = m_down.cbegin(); it != m_down.cend(); ++it)
        keycode(it.key(), false);
    if (const auto shift = m_keymap.keycodeOf(XKB_KEY_Shift_L);
        shift && std::any_of(m_down.cbegin(), m_down.cend(), [](bool s) { return s; }))
        keycode(*shift, false);
    for (auto it = m_buttonsDown.cbegin(); it != m_buttonsDown.cend(); ++it)
        fake(XCB_BUTTON_RELEASE, it.key());
    m_down.clear();
    m_buttonsDown.clear();
    m_conn.sync();
}

} // namespace ciu::platform::x11
