#include "platform/x11/x11platform.h"

#include "platform/x11/x11clipboard.h"
#include "platform/x11/x11connection.h"
#include "platform/x11/x11input.h"
#include "platform/x11/x11pointer.h"
#include "platform/x11/x11screen.h"
#include "platform/x11/x11windows.h"

namespace ciu::platform {
namespace {

// The X11 backend: one xcb connection (used from the thread that created the platform) shared by the
// per-concern parts; the clipboard owner runs its own connection and thread.
class X11Platform final : public Platform
{
public:
    explicit X11Platform(std::unique_ptr<x11::X11Connection> conn)
        : m_conn(std::move(conn))
        , m_screen(*m_conn)
        , m_pointer(*m_conn)
        , m_input(*m_conn)
        , m_windows(*m_conn)
        , m_clipboard(*m_conn)
    {
    }

    QString backendName() const override { return QStringLiteral("x11"); }
    QString displayName() const override { return m_conn->displayName(); }

    Capabilities capabilities() const override
    {
        Capabilities caps;
        if (!m_conn->isAlive())
            return caps;
        const auto& ext = m_conn->extensions();
        if (m_screen.usesSharedMemory())
            caps |= Capability::SharedMemoryGrab;
        if (m_screen.damageSupported())
            caps |= Capability::Damage;
        if (ext.xfixes)
            caps |= Capability::CursorShape;
        if (ext.xtest)
            caps |= Capability::InputInjection;
        if (ext.randr)
            caps |= Capability::Monitors;
        if (m_windows.hasWindowManager())
            caps |= Capability::WindowList;
        caps |= Capability::Clipboard;
        return caps;
    }

    bool isConnected() const override
    {
        m_conn->dispatchPending(); // notices a closed socket
        return m_conn->isAlive();
    }

    Screen& screen() override { return m_screen; }
    Pointer& pointer() override { return m_pointer; }
    Input& input() override { return m_input; }
    WindowSystem& windows() override { return m_windows; }
    Clipboard& clipboard() override { return m_clipboard; }

    // Attaches the shared-memory segment now, so capabilities() tells the truth from the start.
    void probeGrab()
    {
        const QImage probe = m_screen.grab(QRect(0, 0, 1, 1));
        Q_UNUSED(probe)
    }

private:
    std::unique_ptr<x11::X11Connection> m_conn;
    // Mutable: capabilities() and isConnected() ask the server.
    mutable x11::X11Screen m_screen;
    x11::X11Pointer m_pointer;
    x11::X11Input m_input;
    mutable x11::X11Windows m_windows;
    x11::X11Clipboard m_clipboard;
};

} // namespace

PlatformResult createX11Platform(const QString& displayName)
{
    PlatformResult result;
    QString error;
    auto conn = x11::X11Connection::open(displayName, &error);
    if (!conn) {
        result.error = error;
        return result;
    }
    auto platform = std::make_unique<X11Platform>(std::move(conn));
    platform->probeGrab();
    if (!platform->isConnected()) {
        result.error = QStringLiteral("the X display %1 went away").arg(platform->displayName());
        return result;
    }
    result.platform = std::move(platform);
    return result;
}

} // namespace ciu::platform
