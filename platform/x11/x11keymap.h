#pragma once

#include "platform/keys.h"
#include "platform/x11/x11connection.h"

#include <QElapsedTimer>
#include <QHash>
#include <QList>

#include <optional>

namespace ciu::platform::x11 {

// Where a keysym sits in a core keyboard map.
struct KeyPosition
{
    quint8 keycode = 0;
    bool needsShift = false; // the keysym is on shift level 2 of its key
    bool operator==(const KeyPosition&) const = default;
};

// KP_Space .. KP_Equal.
bool isKeypadKeysym(Keysym keysym);

// The keysym → key table of a core keyboard map (GetKeyboardMapping). Pure; unit-tested.
class KeymapTable
{
public:
    KeymapTable() = default;
    // `keysyms` holds `perKeycode` entries for each keycode from `minKeycode` on.
    KeymapTable(int minKeycode, int perKeycode, const QList<quint32>& keysyms,
                const QList<quint8>& ignored = {});

    // The unshifted position when there is one, else the shifted one; only group 1 is used.
    std::optional<KeyPosition> find(Keysym keysym) const;
    // Keycodes without any keysym: free for temporary bindings.
    QList<quint8> emptyKeycodes() const { return m_empty; }

private:
    QHash<Keysym, KeyPosition> m_positions;
    QList<quint8> m_empty;
};

// The server's keyboard map as input needs it: finds keys for keysyms and, for keysyms the map lacks
// (e.g. "東" on a US keyboard), binds a spare keycode with ChangeKeyboardMapping the way xdotool does.
// Bindings stay until the slots are needed for other keysyms or restore() (called by the destructor)
// puts the empty entries back: a client looks a key event up in the map it has when it reads the event,
// so changing a binding before the client has read the events that used it would turn the typed
// character into another one.
class X11Keymap final
{
public:
    explicit X11Keymap(X11Connection& conn);
    ~X11Keymap();
    X11Keymap(const X11Keymap&) = delete;
    X11Keymap& operator=(const X11Keymap&) = delete;

    // Finds or binds a key for `keysym`; nullopt with errorString() set when impossible.
    std::optional<KeyPosition> resolve(Keysym keysym);
    // Keycode of a modifier key such as Shift_L.
    std::optional<quint8> keycodeOf(Keysym keysym);
    // Notes that a bound key was just used (its binding must outlive the key event).
    void touched(quint8 keycode);
    // Puts the original (empty) entries back on every bound spare keycode.
    void restore();
    bool isSpare(quint8 keycode) const;
    // True when the keysym needs no binding (it is on a key, or bound to a spare keycode already).
    bool hasKey(Keysym keysym);
    int spareCount() const { return int(m_slots.size()); }
    QString errorString() const { return m_error; }

    // Before a binding changes, the focused client must have read the key events that used it: it is
    // pinged (_NET_WM_PING) and its answer awaited; clients without ping support get kSettleMs.
    static constexpr int kSettleMs = 150;
    static constexpr int kPingTimeoutMs = 2000;
    // Window managers redo their key grabs on every map change, which can take a while under load.
    static constexpr int kWindowManagerTimeoutMs = 10'000;

private:
    struct Slot
    {
        quint8 keycode = 0;
        Keysym keysym = 0; // 0: free
        qint64 lastUsedMs = -1;
    };

    bool load();
    void handleEvent(const xcb_generic_event_t* event);
    void waitSettled(const Slot& slot);
    xcb_window_t focusedPingableWindow();
    bool pingFocusedClient();
    bool setMapping(quint8 keycode, Keysym keysym);

    X11Connection& m_conn;
    KeymapTable m_table;
    bool m_loaded = false;
    QList<Slot> m_slots;
    QElapsedTimer m_clock;
    qint64 m_settledAtMs = -1; // when the focused client last confirmed it had read our key events
    quint32 m_pingToken = 0x43495500;
    xcb_window_t m_probeWindow = XCB_NONE; // for window-manager round trips
    int m_handlerId = 0;
    QString m_error;
};

} // namespace ciu::platform::x11
