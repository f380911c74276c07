#pragma once

#include "platform/platform.h"

#include <QObject>
#include <QString>

#include <memory>

namespace ciu::platform {

// A system-wide hotkey (the emergency stop): fires while any window has the focus. Each backend listens
// on its own connection to the display and emits activated() in the thread the object lives in.
class GlobalHotkey : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~GlobalHotkey() override = default;

    // The key sequence in xdotool syntax ("ctrl+alt+End").
    virtual QString sequence() const = 0;
    virtual QString errorString() const = 0;

signals:
    void activated();
};

struct GlobalHotkeyResult
{
    std::unique_ptr<GlobalHotkey> hotkey;
    QString error; // set when hotkey is null
};

// Grabs `sequence` (one combo, xdotool syntax) on the display of `options` (backend chosen like
// createPlatform()). The synthetic backend returns a hotkey that only fires through triggerForTest().
GlobalHotkeyResult createGlobalHotkey(const QString& sequence, const PlatformOptions& options = {});

// Fires a hotkey made by the synthetic backend (no-op for others).
void triggerForTest(GlobalHotkey& hotkey);

} // namespace ciu::platform
