#pragma once

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

} // namespace ciu::platform
