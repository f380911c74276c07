// Moving libatspi's direct connections to applications onto the AT-SPI thread's context (see the header).

#include "platform/atspi/atspiconnections.h"

#include "platform/atspi/atspilog.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QThread>

#include <atspi/atspi.h>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

namespace ciu::platform::atspi {
namespace {

constexpr qint64 kRetryAfterMs = 1000; // a move the main thread had no time for is tried again after this

// Moves `bus` to `context` on the main thread and waits up to `waitMs` for it; false when the main thread
// did not get to it (then it never will: the move is called off).
bool moveOnMainThread(DBusConnection* bus, GMainContext* context, int waitMs)
{
    QCoreApplication* app = QCoreApplication::instance();
    if (!app || app->thread() == QThread::currentThread()) {
        atspi_dbus_connection_setup_with_g_main(bus, context);
        return true;
    }
    struct Move
    {
        std::mutex mutex;
        std::condition_variable done;
        bool moved = false;
        bool calledOff = false;
    };
    auto move = std::make_shared<Move>();
    dbus_connection_ref(bus);
    g_main_context_ref(context);
    QMetaObject::invokeMethod(
        app,
        [move, bus, context] {
            {
                const std::lock_guard<std::mutex> lock(move->mutex);
                if (!move->calledOff) {
                    atspi_dbus_connection_setup_with_g_main(bus, context);
                    move->moved = true;
                }
            }
            move->done.notify_all();
            dbus_connection_unref(bus);
            g_main_context_unref(context);
        },
        Qt::QueuedConnection);
    std::unique_lock<std::mutex> lock(move->mutex);
    if (!move->done.wait_for(lock, std::chrono::milliseconds(waitMs), [&move] { return move->moved; }))
        move->calledOff = true;
    return move->moved;
}

} // namespace

AtspiConnections::~AtspiConnections()
{
    for (auto it = m_owned.cbegin(); it != m_owned.cend(); ++it)
        dbus_connection_unref(it.key());
}

void AtspiConnections::own(AtspiAccessible* object)
{
    auto* o = ATSPI_OBJECT(object);
    if (!o || !o->app || !o->app->bus)
        return;
    DBusConnection* bus = o->app->bus;
    if (bus == atspi_get_a11y_bus() || m_owned.contains(bus))
        return;
    GMainContext* context = g_main_context_get_thread_default();
    if (!context)
        return;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    if (const auto failed = m_failedAtMs.constFind(bus);
        failed != m_failedAtMs.cend() && nowMs - *failed < kRetryAfterMs)
        return;
    forgetClosed();
    if (!moveOnMainThread(bus, context, m_waitMs)) {
        qCWarning(lcAtspi).noquote() << "accessibility: the main thread was busy for" << m_waitMs
                                     << "ms; an application's direct connection stays shared";
        m_failedAtMs.insert(bus, nowMs);
        return;
    }
    m_failedAtMs.remove(bus);
    m_owned.insert(bus, true);
    dbus_connection_ref(bus);
    ++m_moved;
}

void AtspiConnections::forgetClosed()
{
    for (auto it = m_owned.begin(); it != m_owned.end();) {
        if (dbus_connection_get_is_connected(it.key())) {
            ++it;
            continue;
        }
        dbus_connection_unref(it.key());
        it = m_owned.erase(it);
    }
    m_failedAtMs.clear();
}

} // namespace ciu::platform::atspi
