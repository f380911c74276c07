#pragma once

#include "platform/input.h"
#include "platform/x11/x11connection.h"
#include "platform/x11/x11keymap.h"

#include <QHash>

namespace ciu::platform::x11 {

// Synthetic input through XTest: pointer motion, buttons 1-3, wheel buttons 4-7 and keys by keysym.
// Keysyms on the shifted level get Shift pressed around them; keysyms missing from the keyboard map
// are bound to a spare keycode first (see X11Keymap), so any Unicode text can be typed.
//
// Window managers (openbox among them) grab the buttons of client windows synchronously to focus and
// raise on click: the server holds the click until the window manager replays it, while key events
// pass straight on. A key sent right after a click would then reach the previously focused widget. So
// the first key after a button event waits (bounded) until nobody holds the pointer grabbed.
//
// Likewise a combo the window manager binds (alt+Tab in openbox) activates its passive key grab; the
// manager then grabs the keyboard to watch for the modifier's release. Sent as one burst, the release
// would reach the application before that grab exists and the manager would wait for it forever. When
// a combo's key lands in another client's grab, the modifiers stay down for a moment (as a hand would).
class X11Input final : public Input
{
public:
    explicit X11Input(X11Connection& conn);
    ~X11Input() override;

    bool moveTo(QPoint rootPos) override;
    bool button(MouseButton button, bool down) override;
    bool wheel(ScrollDirection direction) override;
    bool key(Keysym keysym, bool down) override;
    bool typeText(const QString& text, int perCharDelayMs = 0) override;
    bool sync() override;
    bool settle() override;
    QString errorString() const override { return m_error; }

    bool isAvailable() const { return m_conn.extensions().xtest; }

private:
    bool ready();
    bool fail(const QString& message);
    bool fake(quint8 type, quint8 detail, QPoint pos = {});
    bool keycode(quint8 code, bool down);
    bool shiftHeld() const;
    void releaseAll();
    void waitUntilPointerUnfrozen();
    void letKeyGrabberCatchUp();
    bool modifierHeld();

    X11Connection& m_conn;
    X11Keymap m_keymap;
    QHash<quint8, bool> m_down; // keycodes we hold → whether we pressed Shift for it
    QHash<quint8, int> m_buttonsDown;
    bool m_buttonSent = false; // a button event may still sit in a window manager's synchronous grab
    QString m_error;
};

} // namespace ciu::platform::x11
