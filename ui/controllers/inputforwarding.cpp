#include "ui/controllers/inputforwarding.h"

#include "core/engine/inputforwarder.h"

namespace ciu::ui {

InputForwarding::InputForwarding(QObject* parent)
    : QObject(parent)
{
}

InputForwarding::~InputForwarding()
{
    if (m_forwarder)
        QMetaObject::invokeMethod(m_forwarder, &InputForwarder::close, Qt::QueuedConnection);
    m_thread.reset();
}

void InputForwarding::open(const QString& backend, const QString& displayName)
{
    if (!m_forwarder) {
        m_forwarder = new InputForwarder;
        m_thread = startWorkerThread(m_forwarder, QStringLiteral("forward"));
        connect(m_forwarder, &InputForwarder::opened, this, &InputForwarding::opened);
        connect(m_forwarder, &InputForwarder::failed, this, &InputForwarding::failed);
    }
    if (m_display == displayName)
        return;
    m_display = displayName;
    InputForwarder* forwarder = m_forwarder;
    QMetaObject::invokeMethod(
        forwarder, [forwarder, backend, displayName] { forwarder->open(backend, displayName); },
        Qt::QueuedConnection);
}

void InputForwarding::moveTo(QPoint rootPos)
{
    if (InputForwarder* forwarder = m_forwarder)
        QMetaObject::invokeMethod(
            forwarder, [forwarder, rootPos] { forwarder->moveTo(rootPos); }, Qt::QueuedConnection);
}

void InputForwarding::button(int button, bool down)
{
    if (InputForwarder* forwarder = m_forwarder)
        QMetaObject::invokeMethod(
            forwarder, [forwarder, button, down] { forwarder->button(button, down); }, Qt::QueuedConnection);
}

void InputForwarding::wheel(int direction)
{
    if (InputForwarder* forwarder = m_forwarder)
        QMetaObject::invokeMethod(
            forwarder, [forwarder, direction] { forwarder->wheel(direction); }, Qt::QueuedConnection);
}

void InputForwarding::key(quint32 keysym, bool down)
{
    if (InputForwarder* forwarder = m_forwarder)
        QMetaObject::invokeMethod(
            forwarder, [forwarder, keysym, down] { forwarder->key(keysym, down); }, Qt::QueuedConnection);
}

} // namespace ciu::ui
