#include "platform/x11/x11hotkey.h"

#include "platform/x11/x11log.h"

#include <QSocketNotifier>

#include <cstdlib>
#include <xcb/xcb.h>
#include <xcb/xcb_keysyms.h>

namespace ciu::platform {
namespace {

std::optional<uint16_t> modifierMask(Keysym keysym)
{
    switch (keysym) {
    case 0xffe1: // Shift_L
    case 0xffe2:
        return XCB_MOD_MASK_SHIFT;
    case 0xffe3: // Control_L
    case 0xffe4:
        return XCB_MOD_MASK_CONTROL;
    case 0xffe7: // Meta_L
    case 0xffe8:
    case 0xffe9: // Alt_L
    case 0xffea:
        return XCB_MOD_MASK_1;
    case 0xffeb: // Super_L
    case 0xffec:
    case 0xffed: // Hyper_L
    case 0xffee:
        return XCB_MOD_MASK_4;
    default:
        return std::nullopt;
    }
}

class X11GlobalHotkey final : public GlobalHotkey
{
public:
    X11GlobalHotkey(QString sequence, xcb_connection_t* connection, xcb_window_t root, xcb_keycode_t keycode,
                    uint16_t modifiers)
        : m_sequence(std::move(sequence))
        , m_connection(connection)
        , m_root(root)
        , m_keycode(keycode)
        , m_modifiers(modifiers)
        , m_notifier(xcb_get_file_descriptor(connection), QSocketNotifier::Read)
    {
        connect(&m_notifier, &QSocketNotifier::activated, this, [this] { readEvents(); });
    }

    ~X11GlobalHotkey() override
    {
        for (uint16_t extra : kIgnoredMasks)
            xcb_ungrab_key(m_connection, m_keycode, m_root, m_modifiers | extra);
        xcb_flush(m_connection);
        xcb_disconnect(m_connection);
    }

    // Grabs the combination with every state of Caps Lock and Num Lock.
    QString grab()
    {
        for (uint16_t extra : kIgnoredMasks) {
            const auto cookie = xcb_grab_key_checked(m_connection, 1, m_root, m_modifiers | extra, m_keycode,
                                                     XCB_GRAB_MODE_ASYNC, XCB_GRAB_MODE_ASYNC);
            if (xcb_generic_error_t* error = xcb_request_check(m_connection, cookie)) {
                const int code = error->error_code;
                std::free(error);
                return code == XCB_ACCESS
                           ? QStringLiteral("another program already uses the hotkey %1").arg(m_sequence)
                           : QStringLiteral("cannot grab the hotkey %1 (X error %2)")
                                 .arg(m_sequence)
                                 .arg(code);
            }
        }
        return {};
    }

    QString sequence() const override { return m_sequence; }
    QString errorString() const override { return m_error; }

private:
    static constexpr uint16_t kIgnoredMasks[] = {0, XCB_MOD_MASK_LOCK, XCB_MOD_MASK_2,
                                                 XCB_MOD_MASK_LOCK | XCB_MOD_MASK_2};

    void readEvents()
    {
        while (xcb_generic_event_t* event = xcb_poll_for_event(m_connection)) {
            const uint8_t type = event->response_type & 0x7f;
            if (type == XCB_KEY_PRESS) {
                const auto* press = reinterpret_cast<xcb_key_press_event_t*>(event);
                const uint16_t relevant = press->state & ~(XCB_MOD_MASK_LOCK | XCB_MOD_MASK_2);
                if (press->detail == m_keycode && relevant == m_modifiers) {
                    qCInfo(lcHotkey) << "hotkey" << m_sequence << "pressed";
                    emit activated();
                }
            }
            std::free(event);
        }
        if (xcb_connection_has_error(m_connection) && m_notifier.isEnabled()) {
            m_notifier.setEnabled(false);
            m_error = QStringLiteral("the display connection of the hotkey was lost");
            qCWarning(lcHotkey) << m_error;
        }
    }

    QString m_sequence;
    xcb_connection_t* m_connection;
    xcb_window_t m_root;
    xcb_keycode_t m_keycode;
    uint16_t m_modifiers;
    QSocketNotifier m_notifier;
    QString m_error;
};

} // namespace

GlobalHotkeyResult createX11GlobalHotkey(const QString& sequence, const KeyCombo& combo,
                                         const QString& displayName)
{
    GlobalHotkeyResult result;
    uint16_t modifiers = 0;
    for (Keysym keysym : combo.modifiers) {
        const auto mask = modifierMask(keysym);
        if (!mask) {
            result.error =
                QStringLiteral("\"%1\" is not a modifier in the hotkey %2").arg(keysymName(keysym), sequence);
            return result;
        }
        modifiers |= *mask;
    }
    const QByteArray name = displayName.toLocal8Bit();
    int screenNumber = 0;
    xcb_connection_t* connection = xcb_connect(name.isEmpty() ? nullptr : name.constData(), &screenNumber);
    if (xcb_connection_has_error(connection)) {
        xcb_disconnect(connection);
        result.error = QStringLiteral("cannot open display \"%1\" for the hotkey")
                           .arg(displayName.isEmpty() ? qEnvironmentVariable("DISPLAY") : displayName);
        return result;
    }
    xcb_screen_iterator_t it = xcb_setup_roots_iterator(xcb_get_setup(connection));
    for (int i = 0; i < screenNumber && it.rem; ++i)
        xcb_screen_next(&it);
    const xcb_window_t root = it.data->root;

    xcb_key_symbols_t* symbols = xcb_key_symbols_alloc(connection);
    xcb_keycode_t* codes = symbols ? xcb_key_symbols_get_keycode(symbols, combo.key) : nullptr;
    const xcb_keycode_t keycode = codes ? codes[0] : XCB_NO_SYMBOL;
    std::free(codes);
    if (symbols)
        xcb_key_symbols_free(symbols);
    if (keycode == XCB_NO_SYMBOL) {
        xcb_disconnect(connection);
        result.error =
            QStringLiteral("the key \"%1\" of the hotkey is not on the keyboard").arg(keysymName(combo.key));
        return result;
    }

    auto hotkey = std::make_unique<X11GlobalHotkey>(sequence, connection, root, keycode, modifiers);
    const QString error = hotkey->grab();
    if (!error.isEmpty()) {
        result.error = error;
        return result;
    }
    xcb_flush(connection);
    qCDebug(lcHotkey) << "grabbed" << sequence << "keycode" << keycode << "modifiers" << modifiers;
    result.hotkey = std::move(hotkey);
    return result;
}

} // namespace ciu::platform
