#pragma once

#include "platform/keys.h"
#include "platform/platform.h"

#include <QObject>
#include <QPoint>

#include <memory>

namespace ciu {

// Forwards the user's input from the live view to the target display (takeover of a sandbox display).
// A worker: create it, move it to a thread, call open() through a queued connection, then send input.
// Coordinates are root coordinates of the target display.
class InputForwarder final : public QObject
{
    Q_OBJECT
public:
    explicit InputForwarder(QObject* parent = nullptr);
    ~InputForwarder() override;

    bool isOpen() const { return m_platform != nullptr; }

public slots:
    // Opens the display; emits opened() or failed().
    void open(const QString& backend, const QString& displayName);
    void close();
    void moveTo(QPoint rootPos);
    // button: 1 left, 2 middle, 3 right (platform::MouseButton values).
    void button(int button, bool down);
    // direction: platform::ScrollDirection value.
    void wheel(int direction);
    void key(quint32 keysym, bool down);
    void typeText(const QString& text);

signals:
    void opened(const QString& displayName);
    void failed(const QString& error);

private:
    bool ready();
    void check(bool ok);

    std::unique_ptr<platform::Platform> m_platform;
    int m_failures = 0;
};

} // namespace ciu
