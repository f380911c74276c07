#include "platform/x11/x11input.h"

#include <QSet>
#include <QThread>

#include <xcb/xtest.h>
#include <xkbcommon/xkbcommon-keysyms.h>

namespace ciu::platform::x11 {

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
        const bool addShift = pos->needsShift && !shiftHeld();
        if (addShift) {
            const auto shift = m_keymap.keycodeOf(XKB_KEY_Shift_L);
            if (!shift)
                return fail(QStringLiteral("cannot type %1: the keyboard map has no Shift_L")
                                .arg(keysymName(keysym)));
            if (!keycode(*shift, true))
                return false;
        }
        m_down.insert(pos->keycode, addShift);
        return keycode(pos->keycode, true);
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
