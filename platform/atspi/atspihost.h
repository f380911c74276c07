#pragma once

// The AT-SPI thread: libatspi on a GLib main context of its own, the tree cache, the event listener.
// libatspi keeps process-wide state (and cannot be started again after a shutdown), so there is one host
// per process, shared by every AtspiAccessibility; it stops when the QCoreApplication is destroyed (before
// the process' static data is: its thread must not outlive what it reads).

#include "platform/accessibility.h"

#include <QMutex>

#include <atomic>
#include <dbus/dbus.h>
#include <future>
#include <memory>
#include <thread>

using GMainContext = struct _GMainContext;
using GMainLoop = struct _GMainLoop;
using AtspiEvent = struct _AtspiEvent;
using AtspiEventListener = struct _AtspiEventListener;

namespace ciu::platform::atspi {

class AtspiAccessibility;
class AtspiCache;

class AtspiHost
{
public:
    // The running host, started when none is. Null with *error when there is no accessibility bus.
    static std::shared_ptr<AtspiHost> acquire(const AccessibilityLimits& limits, QString* error);
    ~AtspiHost();
    AtspiHost(const AtspiHost&) = delete;
    AtspiHost& operator=(const AtspiHost&) = delete;

    // `front` receives every snapshot from now on (queued to its thread); the latest one at once.
    void attach(AtspiAccessibility* front);
    void detach(AtspiAccessibility* front);
    // A full walk on the AT-SPI thread (the first one happens when the host starts).
    void requestWalk();
    // Ends the AT-SPI thread (a walk under way stops at its next node) and waits for it. Idempotent; not on
    // the AT-SPI thread.
    void stop();

private:
    explicit AtspiHost(const AccessibilityLimits& limits);
    bool start(QString* error);
    void threadMain(std::promise<QString>* started);
    void registerListeners();
    void walkAndPublish();
    void publish(const QStringList& changedWindows);
    static void onEvent(AtspiEvent* event, void* self);
    static int onIdle(void* self);
    static int onRetry(void* self);
    // Every message of the accessibility bus, before libatspi's handlers see it: an application whose
    // connection left the bus is dropped from the cache at once.
    static DBusHandlerResult onBusMessage(DBusConnection* bus, DBusMessage* message, void* self);
    void scheduleFlush();

    AccessibilityLimits m_limits;
    GMainContext* m_context = nullptr;
    GMainLoop* m_loop = nullptr;
    std::thread m_thread;
    std::atomic_bool m_stopping = false;
    // AT-SPI thread only:
    std::unique_ptr<AtspiCache> m_cache;
    AtspiEventListener* m_listener = nullptr;
    bool m_flushScheduled = false;
    DBusConnection* m_bus = nullptr; // libatspi's connection to the accessibility bus (its filter is ours)
    quint64 m_version = 0;
    // Shared with the fronts' threads:
    QMutex m_mutex;
    QList<AtspiAccessibility*> m_fronts;
    AccessibilitySnapshotPtr m_latest;
};

} // namespace ciu::platform::atspi
