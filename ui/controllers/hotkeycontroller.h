#pragma once

#include "platform/platform.h"

#include <QObject>
#include <QString>

#include <memory>

namespace ciu::platform {
class GlobalHotkey;
}

namespace ciu::ui {

// The global emergency-stop hotkey: grabs one key combination system-wide through the platform backend
// (platform::createGlobalHotkey) and emits activated() whenever it is pressed, whichever window has the
// focus. Grabbing again releases the previous combination first.
class HotkeyController final : public QObject
{
    Q_OBJECT
public:
    enum class GrabResult : quint8
    {
        Grabbed = 1,
        Unsupported, // the X11 backend needs the app on an X server (xcb)
        Failed       // errorString() says why
    };
    Q_ENUM(GrabResult)

    // `options` picks the backend and display the hotkey is grabbed on.
    explicit HotkeyController(platform::PlatformOptions options, QObject* parent = nullptr);
    ~HotkeyController() override;

    GrabResult grab(const QString& sequence);
    void release();
    bool isGrabbed() const { return m_hotkey != nullptr; }
    // The grabbed combination (empty when none is grabbed).
    QString sequence() const;
    QString errorString() const { return m_error; }
    // The grabbed hotkey (null when none is), e.g. for platform::triggerForTest.
    platform::GlobalHotkey* hotkey() const { return m_hotkey.get(); }

signals:
    void activated();

private:
    platform::PlatformOptions m_options;
    std::unique_ptr<platform::GlobalHotkey> m_hotkey;
    QString m_error;
};

} // namespace ciu::ui
