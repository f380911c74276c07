// The AT-SPI thread: starts libatspi on its own GLib main context, walks the tree, listens to events,
// coalesces them in an idle callback and publishes snapshots to the AtspiAccessibility fronts.

#include "platform/atspi/atspihost.h"

#include "platform/atspi/atspiaccessibility.h"
#include "platform/atspi/atspicache.h"
#include "platform/atspi/atspilog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QMutexLocker>

#include <atspi/atspi.h>

namespace ciu::platform::atspi {
namespace {

std::mutex g_instanceMutex;
// libatspi cannot be initialised again once it has been shut down in a process: the first host lives
// until the process ends (its thread is stopped by this static's destructor), and a failure to start is
// remembered.
std::shared_ptr<AtspiHost> g_instance;
QString g_startError;

// Where libdbus would find a session bus, without starting one (no X11 autolaunch): empty when none.
QString busUnavailableReason()
{
    if (!qEnvironmentVariableIsEmpty("AT_SPI_BUS_ADDRESS") ||
        !qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"))
        return {};
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QFileInfo::exists(QDir(runtime).filePath(QStringLiteral("bus"))))
        return {};
    return QStringLiteral("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)");
}

// What an event means for the cache. A state that was cleared (detail1 0) is a change of that node only:
// GTK reports "defunct" cleared for objects it has just exported, which are there, not gone.
AtspiCache::Change changeOf(const char* type, int detail1)
{
    const QByteArray t(type);
    // What a list or table shows moved (it scrolled: GTK's tree view says so, and reports no row's new
    // place), like its children changing: its subtree is read again.
    if (t.startsWith("object:children-changed") || t.startsWith("object:bounds-changed") ||
        t.startsWith("window:create") || t.startsWith("object:state-changed:showing") ||
        t.startsWith("object:state-changed:visible") || t.startsWith("object:visible-data-changed"))
        return AtspiCache::Change::Subtree;
    if (t.startsWith("window:destroy") || (t.startsWith("object:state-changed:defunct") && detail1 != 0))
        return AtspiCache::Change::Removed;
    return AtspiCache::Change::Node;
}

// libatspi asks the registry with its default wait (25 s) for every listener it registers, a dozen of
// them: a registry that does not answer (stopped, or started against another bus) would hold the caller
// for minutes. It is asked once first, with a bounded wait; the error says what went wrong.
QString registryProblem(DBusConnection* bus, int timeoutMs)
{
    DBusMessage* ping = dbus_message_new_method_call("org.a11y.atspi.Registry", "/org/a11y/atspi/registry",
                                                     "org.freedesktop.DBus.Peer", "Ping");
    if (!ping)
        return QStringLiteral("out of memory");
    DBusError error;
    dbus_error_init(&error);
    DBusMessage* reply = dbus_connection_send_with_reply_and_block(bus, ping, timeoutMs, &error);
    dbus_message_unref(ping);
    if (reply) {
        dbus_message_unref(reply);
        return {};
    }
    const QString why = QStringLiteral("the AT-SPI registry (org.a11y.atspi.Registry) does not answer on the "
                                       "accessibility bus within %1 ms: %2")
                            .arg(timeoutMs)
                            .arg(QString::fromUtf8(error.message ? error.message : "no reply"));
    dbus_error_free(&error);
    return why;
}

constexpr const char* kEvents[] = {
    "object:children-changed",
    "object:state-changed",
    "object:property-change:accessible-name",
    "object:property-change:accessible-value",
    "object:property-change:accessible-description",
    "object:text-changed",
    "object:bounds-changed",
    "object:visible-data-changed",
    "window:create",
    "window:destroy",
    "window:activate",
    "window:deactivate",
};

// Runs in ~QCoreApplication: the thread is stopped while everything it uses still exists.
void stopAtExit()
{
    std::shared_ptr<AtspiHost> host;
    {
        std::lock_guard lock(g_instanceMutex);
        host = std::exchange(g_instance, nullptr);
        g_startError = QStringLiteral("the process is shutting down");
    }
    if (host)
        host->stop();
}

} // namespace

std::shared_ptr<AtspiHost> AtspiHost::acquire(const AccessibilityLimits& limits, QString* error)
{
    std::lock_guard lock(g_instanceMutex);
    if (g_instance)
        return g_instance;
    if (!g_startError.isEmpty()) {
        *error = g_startError;
        return nullptr;
    }
    const QString reason = busUnavailableReason();
    if (!reason.isEmpty()) {
        *error = reason;
        return nullptr;
    }
    std::shared_ptr<AtspiHost> host(new AtspiHost(limits));
    if (!host->start(error)) {
        g_startError = *error;
        return nullptr;
    }
    g_instance = host;
    if (QCoreApplication::instance())
        qAddPostRoutine(&stopAtExit);
    return host;
}

AtspiHost::AtspiHost(const AccessibilityLimits& limits)
    : m_limits(limits)
{
}

bool AtspiHost::start(QString* error)
{
    std::promise<QString> started;
    auto result = started.get_future();
    m_thread = std::thread([this, &started] { threadMain(&started); });
    // threadMain() answers once libatspi is up (an empty error) or failed, then runs its loop.
    const QString startError = result.get();
    if (!startError.isEmpty()) {
        m_thread.join();
        *error = startError;
        return false;
    }
    return true;
}

void AtspiHost::threadMain(std::promise<QString>* started)
{
    m_context = g_main_context_new();
    g_main_context_push_thread_default(m_context);
    atspi_set_timeout(m_limits.callTimeoutMs, qMax(m_limits.callTimeoutMs, 3000));
    atspi_init();
    if (!atspi_get_a11y_bus()) {
        atspi_exit();
        g_main_context_pop_thread_default(m_context);
        started->set_value(
            QStringLiteral("no accessibility bus (is at-spi-bus-launcher running on the session bus?)"));
        return;
    }
    if (const QString problem = registryProblem(atspi_get_a11y_bus(), m_limits.registryTimeoutMs);
        !problem.isEmpty()) {
        atspi_exit();
        g_main_context_pop_thread_default(m_context);
        started->set_value(problem);
        return;
    }
    atspi_set_main_context(m_context);
    // libatspi trusts its own cache only when asked to (or under atspi_event_main(), which this thread does
    // not run): role, name, states, children, parent and interfaces then cost no call. The cache is filled
    // by each application's org.a11y.atspi.Cache GetItems reply (sent when libatspi first meets it) and by
    // every call's answer, and kept current by the events libatspi receives before our listener does.
    if (AtspiAccessible* desktop = atspi_get_desktop(0)) {
        atspi_accessible_set_cache_mask(desktop, ATSPI_CACHE_DEFAULT);
        g_object_unref(desktop);
    }
    m_loop = g_main_loop_new(m_context, FALSE);
    m_cache = std::make_unique<AtspiCache>(m_limits);
    m_cache->setWakeUp([this] { scheduleFlush(); });
    m_cache->setStopRequested([this] { return m_stopping.load(); });
    m_bus = atspi_get_a11y_bus();
    dbus_connection_add_filter(m_bus, &AtspiHost::onBusMessage, this, nullptr);
    registerListeners();
    started->set_value(QString()); // `started` is gone after this
    walkAndPublish();
    GSource* retry = g_timeout_source_new(guint(qMax(500, m_limits.slowRetryMs / 2)));
    g_source_set_callback(retry, &AtspiHost::onRetry, this, nullptr);
    g_source_attach(retry, m_context);
    g_source_unref(retry);

    if (!m_stopping)
        g_main_loop_run(m_loop);

    for (const char* type : kEvents)
        atspi_event_listener_deregister(m_listener, type, nullptr);
    g_object_unref(m_listener);
    m_listener = nullptr;
    dbus_connection_remove_filter(m_bus, &AtspiHost::onBusMessage, this);
    m_cache.reset();
    atspi_exit();
    g_main_context_pop_thread_default(m_context);
}

void AtspiHost::stop()
{
    m_stopping = true;
    if (m_loop && m_thread.joinable()) {
        GMainLoop* loop = m_loop;
        g_main_context_invoke(
            m_context,
            [](gpointer data) -> gboolean {
                g_main_loop_quit(static_cast<GMainLoop*>(data));
                return G_SOURCE_REMOVE;
            },
            loop);
    }
    if (m_thread.joinable())
        m_thread.join();
}

AtspiHost::~AtspiHost()
{
    stop();
    if (m_loop)
        g_main_loop_unref(m_loop);
    if (m_context)
        g_main_context_unref(m_context);
}

void AtspiHost::registerListeners()
{
    m_listener = atspi_event_listener_new(&AtspiHost::onEvent, this, nullptr);
    for (const char* type : kEvents) {
        GError* error = nullptr;
        if (!atspi_event_listener_register(m_listener, type, &error)) {
            qCWarning(lcAtspi) << "cannot listen to" << type << ":"
                               << (error ? QString::fromUtf8(error->message) : QString());
        }
        if (error)
            g_error_free(error);
    }
}

void AtspiHost::onEvent(AtspiEvent* event, void* data)
{
    auto* self = static_cast<AtspiHost*>(data);
    self->m_cache->note(event->source, changeOf(event->type, event->detail1));
    if (self->m_cache->hasPending())
        self->scheduleFlush();
    g_boxed_free(ATSPI_TYPE_EVENT, event);
}

DBusHandlerResult AtspiHost::onBusMessage(DBusConnection*, DBusMessage* message, void* data)
{
    if (!dbus_message_is_signal(message, DBUS_INTERFACE_DBUS, "NameOwnerChanged"))
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
    const char* name = nullptr;
    const char* oldOwner = nullptr;
    const char* newOwner = nullptr;
    if (dbus_message_get_args(message, nullptr, DBUS_TYPE_STRING, &name, DBUS_TYPE_STRING, &oldOwner,
                              DBUS_TYPE_STRING, &newOwner, DBUS_TYPE_INVALID) &&
        name[0] == ':' && !newOwner[0]) {
        // A unique name without a new owner: that connection (an application, or anything else on the
        // bus) has left. Queued: this can run in the middle of a walk.
        auto* self = static_cast<AtspiHost*>(data);
        self->m_cache->noteGone(QString::fromUtf8(name));
        self->scheduleFlush();
    }
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED; // libatspi handles it too
}

void AtspiHost::scheduleFlush()
{
    if (m_flushScheduled)
        return;
    m_flushScheduled = true;
    // Default-idle priority: every event already received is queued before the flush runs.
    GSource* idle = g_idle_source_new();
    g_source_set_callback(idle, &AtspiHost::onIdle, this, nullptr);
    g_source_attach(idle, m_context);
    g_source_unref(idle);
}

int AtspiHost::onIdle(void* data)
{
    auto* self = static_cast<AtspiHost*>(data);
    self->m_flushScheduled = false;
    QStringList changed = self->m_cache->flush();
    if (self->m_cache->hasSlow()) {
        // Slow applications that answered their probe are read now, not at the next retry tick.
        for (const QString& w : self->m_cache->retrySlow()) {
            if (!changed.contains(w))
                changed << w;
        }
    }
    if (!changed.isEmpty())
        self->publish(changed);
    return G_SOURCE_REMOVE;
}

int AtspiHost::onRetry(void* data)
{
    auto* self = static_cast<AtspiHost*>(data);
    QStringList changed;
    if (self->m_cache->hasMisplaced())
        changed = self->m_cache->recheckMisplaced();
    if (self->m_cache->hasSlow()) {
        for (const QString& w : self->m_cache->retrySlow()) {
            if (!changed.contains(w))
                changed << w;
        }
    }
    if (!changed.isEmpty())
        self->publish(changed);
    return G_SOURCE_CONTINUE;
}

void AtspiHost::walkAndPublish()
{
    m_cache->walkAll();
    publish(m_cache->windowRefs());
}

void AtspiHost::publish(const QStringList& changedWindows)
{
    const AccessibilitySnapshotPtr snapshot = m_cache->snapshot(++m_version);
    QMutexLocker lock(&m_mutex);
    m_latest = snapshot;
    for (AtspiAccessibility* front : std::as_const(m_fronts)) {
        QMetaObject::invokeMethod(
            front, [front, snapshot, changedWindows] { front->deliver(snapshot, changedWindows); },
            Qt::QueuedConnection);
    }
}

void AtspiHost::attach(AtspiAccessibility* front)
{
    QMutexLocker lock(&m_mutex);
    if (m_fronts.contains(front))
        return;
    m_fronts << front;
    if (const AccessibilitySnapshotPtr latest = m_latest) {
        QStringList windows;
        for (const AccessibleNode& n : latest->nodes) {
            if (n.depth == 0)
                windows << n.ref;
        }
        QMetaObject::invokeMethod(
            front, [front, latest, windows] { front->deliver(latest, windows); }, Qt::QueuedConnection);
    }
}

void AtspiHost::detach(AtspiAccessibility* front)
{
    QMutexLocker lock(&m_mutex);
    m_fronts.removeAll(front);
}

void AtspiHost::requestWalk()
{
    g_main_context_invoke(
        m_context,
        [](gpointer data) -> gboolean {
            static_cast<AtspiHost*>(data)->walkAndPublish();
            return G_SOURCE_REMOVE;
        },
        this);
}

} // namespace ciu::platform::atspi
