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

template<typename Call> void InputForwarding::post(Call call)
{
    if (InputForwarder* forwarder = m_forwarder)
        QMetaObject::invokeMethod(
            forwarder, [forwarder, call] { call(forwarder); }, Qt::QueuedConnection);
}

void InputForwarding::moveTo(QPoint rootPos)
{
    post([rootPos](InputForwarder* f) { f->moveTo(rootPos); });
}

void InputForwarding::button(int button, bool down)
{
    post([button, down](InputForwarder* f) { f->button(button, down); });
}

void InputForwarding::wheel(int direction)
{
    post([direction](InputForwarder* f) { f->wheel(direction); });
}

void InputForwarding::key(quint32 keysym, bool down)
{
    post([keysym, down](InputForwarder* f) { f->key(keysym, down); });
}

} // namespace ciu::ui
