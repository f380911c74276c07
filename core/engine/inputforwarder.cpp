#include "core/engine/inputforwarder.h"

#include "core/engine/enginelog.h"
#include "platform/platformfactory.h"

namespace ciu {

InputForwarder::InputForwarder(QObject* parent)
    : QObject(parent)
{
}

InputForwarder::~InputForwarder() = default;

void InputForwarder::open(const QString& backend, const QString& displayName)
{
    auto result = platform::createPlatform({backend, displayName});
    if (!result.platform) {
        emit failed(result.error);
        return;
    }
    if (!(result.platform->capabilities() & platform::Capability::InputInjection)) {
        emit failed(tr("The display %1 does not accept synthetic input.").arg(displayName));
        return;
    }
    m_platform = std::move(result.platform);
    m_failures = 0;
    qCInfo(lcForward) << "forwarding input to" << m_platform->displayName();
    emit opened(m_platform->displayName());
}

void InputForwarder::close()
{
    m_platform.reset();
}

bool InputForwarder::ready()
{
    return m_platform && m_platform->isConnected();
}

void InputForwarder::check(bool ok)
{
    // Input is forwarded as it happens: push each event to the server now (XTest requests are buffered).
    if (ok && m_platform)
        ok = m_platform->input().sync();
    if (ok || !m_platform)
        return;
    // Report the first failure of a burst, not every mouse move of it.
    if (m_failures++ == 0)
        emit failed(m_platform->input().errorString());
}

void InputForwarder::moveTo(QPoint rootPos)
{
    if (ready())
        check(m_platform->input().moveTo(rootPos));
}

void InputForwarder::button(int button, bool down)
{
    if (button < 1 || button > 3 || !ready())
        return;
    check(m_platform->input().button(platform::MouseButton(button), down));
}

void InputForwarder::wheel(int direction)
{
    if (direction < 1 || direction > 4 || !ready())
        return;
    check(m_platform->input().wheel(platform::ScrollDirection(direction)));
}

void InputForwarder::key(quint32 keysym, bool down)
{
    if (keysym == 0 || !ready())
        return;
    check(m_platform->input().key(keysym, down));
}

void InputForwarder::typeText(const QString& text)
{
    if (!text.isEmpty() && ready())
        check(m_platform->input().typeText(text));
}

} // namespace ciu
