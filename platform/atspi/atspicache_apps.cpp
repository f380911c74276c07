// The AT-SPI cache's applications: reading one application's windows within its own budget, dropping an
// application as soon as its connection leaves the bus (never calling a gone one), and slow applications
// probed asynchronously, read again only once they answer.

#include "platform/atspi/atspicache.h"
#include "platform/atspi/atspilog.h"

#include <atspi/atspi.h>

namespace ciu::platform::atspi {
namespace {

constexpr int kProbeTimeoutMs = 60'000; // a probe waits this long for a busy program, then is sent again

bool isGoneError(const char* name)
{
    return name && (!qstrcmp(name, DBUS_ERROR_SERVICE_UNKNOWN) ||
                    !qstrcmp(name, DBUS_ERROR_NAME_HAS_NO_OWNER) || !qstrcmp(name, DBUS_ERROR_DISCONNECTED));
}

} // namespace

void AtspiCache::startBudget()
{
    // A window of a few hundred widgets reads in well under a second; a program that needs this long
    // answers too slowly to be read in one go and is served by vision.
    m_budget.setRemainingTime(qMax(10'000, 5 * m_limits.callTimeoutMs));
}

bool AtspiCache::isLive(const QString& busName)
{
    if (busName.isEmpty() || m_gone.contains(busName) || m_goneQueue.contains(busName))
        return false;
    DBusConnection* bus = atspi_get_a11y_bus();
    if (!bus)
        return true;
    DBusError error;
    dbus_error_init(&error);
    const bool owned = dbus_bus_name_has_owner(bus, busName.toUtf8().constData(), &error);
    if (dbus_error_is_set(&error)) {
        dbus_error_free(&error);
        return true; // the bus daemon could not tell: the application's own calls will
    }
    if (!owned) {
        qCDebug(lcAtspi).noquote() << "application" << busName << "has left the bus";
        m_gone.insert(busName);
    }
    return owned;
}

void AtspiCache::noteGone(const QString& busName)
{
    if (busName.isEmpty() || m_gone.contains(busName) || m_goneQueue.contains(busName))
        return;
    m_goneQueue << busName;
}

void AtspiCache::applyGone()
{
    const QStringList gone = m_goneQueue;
    m_goneQueue.clear();
    for (const QString& bus : gone) {
        for (auto it = m_pending.begin(); it != m_pending.end();) {
            if (busOf(it.key()) == bus) {
                g_object_unref(it->object);
                it = m_pending.erase(it);
            } else {
                ++it;
            }
        }
        // Any connection that leaves is reported; only the applications read so far matter (isLive()
        // asks the bus daemon about the others).
        if (!m_applications.contains(bus) && !m_slow.contains(bus))
            continue;
        m_gone.insert(bus);
        m_names.remove(bus);
        removeApplication(bus);
        dropSlow(bus);
        qCDebug(lcAtspi).noquote() << "application" << bus << "left the bus: its windows are dropped";
    }
}

void AtspiCache::walkApplication(AtspiAccessible* appObject, int index)
{
    Application app;
    app.busName = busOf(AtspiReader::refOf(appObject));
    app.index = index;
    if (isSlow(app.busName) || !isLive(app.busName))
        return;
    QElapsedTimer timer;
    timer.start();
    startBudget();
    ReadStatus status;
    app.name = m_reader.nameOf(appObject, status);
    if (app.name.isEmpty())
        app.name = m_names.value(app.busName);
    else
        m_names.insert(app.busName, app.name);
    if (!status.timedOut)
        app.pid = m_reader.processId(appObject, status);
    const int windows = status.timedOut ? 0 : m_reader.childCount(appObject, status);
    if (status.timedOut) {
        markSlow(app);
        return;
    }
    m_applications.insert(app.busName, app);
    const int timeoutsBefore = m_reader.timeouts();
    const qsizetype windowsBefore = m_windows.size();
    for (int w = 0; w < windows && w < m_limits.maxChildren; ++w) {
        AtspiAccessible* window = m_reader.childAt(appObject, w, status);
        if (status.timedOut) {
            markSlow(app);
            return;
        }
        if (!window)
            continue;
        bool ok = true;
        const QString ref = walk(window, {}, {}, {index, w}, 0, app, &ok);
        g_object_unref(window);
        if (!ok)
            return; // marked slow, its windows dropped
        if (!ref.isEmpty() && !m_windows.contains(ref))
            m_windows << ref;
    }
    // Calls libatspi answers without an error (an empty state set) still take the whole timeout when the
    // program is busy: nothing read in that time is a program that does not answer.
    if (m_windows.size() == windowsBefore && m_reader.timeouts() == timeoutsBefore &&
        timer.elapsed() >= m_limits.callTimeoutMs * 9 / 10)
        markSlow(app);
    qCDebug(lcAtspi).noquote() << "application" << app.name << app.busName << "read in" << timer.elapsed()
                               << "ms";
}

void AtspiCache::markSlow(const Application& app, bool overBudget)
{
    if (!m_slow.contains(app.busName)) {
        const QString what = overBudget
                                 ? QStringLiteral("could not be read within %1 ms")
                                       .arg(qMax(10'000, 5 * m_limits.callTimeoutMs))
                                 : QStringLiteral("did not answer within %1 ms").arg(m_limits.callTimeoutMs);
        qCWarning(lcAtspi).noquote()
            << QStringLiteral(
                   "accessibility: application \"%1\" (%2) %3; served by vision until it answers again")
                   .arg(app.name, app.busName, what);
        Slow slow;
        slow.name = app.name;
        slow.since.start();
        m_slow.insert(app.busName, slow);
    }
    m_stats.timeouts = m_reader.timeouts();
    removeApplication(app.busName);
}

void AtspiCache::dropSlow(const QString& busName)
{
    const auto it = m_slow.find(busName);
    if (it == m_slow.end())
        return;
    if (it->probe) {
        dbus_pending_call_cancel(it->probe);
        dbus_pending_call_unref(it->probe);
    }
    m_slow.erase(it);
}

void AtspiCache::removeApplication(const QString& busName)
{
    const QStringList windows = m_windows;
    for (const QString& w : windows) {
        if (busOf(w) == busName) {
            removeSubtree(w, true);
            m_changedWindows.insert(w);
        }
    }
    m_applications.remove(busName);
}

void AtspiCache::probe(const QString& busName, Slow& slow)
{
    DBusConnection* bus = atspi_get_a11y_bus();
    if (!bus || slow.probe)
        return;
    // A property of the application's root: answered by the program's main loop (the one that is busy),
    // not by a D-Bus thread of its own.
    const QByteArray name = busName.toUtf8();
    DBusMessage* message = dbus_message_new_method_call(name.constData(), "/org/a11y/atspi/accessible/root",
                                                        DBUS_INTERFACE_PROPERTIES, "Get");
    if (!message)
        return;
    const char* interface = "org.a11y.atspi.Accessible";
    const char* property = "ChildCount";
    dbus_message_append_args(message, DBUS_TYPE_STRING, &interface, DBUS_TYPE_STRING, &property,
                             DBUS_TYPE_INVALID);
    DBusPendingCall* pending = nullptr;
    if (dbus_connection_send_with_reply(bus, message, &pending, kProbeTimeoutMs) && pending) {
        dbus_pending_call_set_notify(pending, &AtspiCache::onProbeReply, new ProbeContext{this, busName},
                                     [](void* data) { delete static_cast<ProbeContext*>(data); });
        slow.probe = pending;
    }
    dbus_message_unref(message);
}

void AtspiCache::onProbeReply(DBusPendingCall* pending, void* data)
{
    const auto* context = static_cast<ProbeContext*>(data);
    AtspiCache* self = context->cache;
    DBusMessage* reply = dbus_pending_call_steal_reply(pending);
    const auto it = self->m_slow.find(context->busName);
    if (it != self->m_slow.end() && it->probe == pending) {
        it->probe = nullptr;
        const bool error = !reply || dbus_message_get_type(reply) == DBUS_MESSAGE_TYPE_ERROR;
        const char* errorName = reply ? dbus_message_get_error_name(reply) : nullptr;
        if (!error ||
            (errorName && qstrcmp(errorName, DBUS_ERROR_NO_REPLY) != 0 && !isGoneError(errorName))) {
            it->answered = true; // any answer of its own: its main loop runs again
        } else if (isGoneError(errorName)) {
            self->noteGone(context->busName);
        }
        // No reply yet: probed again at the next retry.
        if ((it->answered || self->hasPending()) && self->m_wakeUp)
            self->m_wakeUp();
        dbus_pending_call_unref(pending); // the reference the probe held (set in probe())
    }
    if (reply)
        dbus_message_unref(reply);
}

QStringList AtspiCache::retrySlow()
{
    applyGone();
    QStringList retried;
    for (auto it = m_slow.begin(); it != m_slow.end();) {
        if (it->answered) {
            retried << it.key();
            it = m_slow.erase(it);
            continue;
        }
        if (!it->probe && it->since.elapsed() >= m_limits.slowRetryMs)
            probe(it.key(), *it);
        ++it;
    }
    if (retried.isEmpty()) {
        QStringList changed(m_changedWindows.cbegin(), m_changedWindows.cend());
        m_changedWindows.clear();
        return changed;
    }
    // Find the applications on the desktop again and read their windows.
    AtspiAccessible* desktop = atspi_get_desktop(0);
    ReadStatus status;
    const int count = m_reader.childCount(desktop, status);
    for (int i = 0; i < count; ++i) {
        AtspiAccessible* app = m_reader.childAt(desktop, i, status);
        if (!app)
            continue;
        if (retried.contains(busOf(AtspiReader::refOf(app)))) {
            ++m_stats.windowWalks;
            walkApplication(app, i);
        }
        g_object_unref(app);
    }
    g_object_unref(desktop);
    for (const QString& w : std::as_const(m_windows)) {
        if (retried.contains(busOf(w)))
            m_changedWindows.insert(w);
    }
    QStringList changed(m_changedWindows.cbegin(), m_changedWindows.cend());
    m_changedWindows.clear();
    return changed;
}

void AtspiCache::syncApplications()
{
    AtspiAccessible* desktop = atspi_get_desktop(0);
    if (!desktop)
        return;
    ReadStatus status;
    QSet<QString> present;
    const int count = m_reader.childCount(desktop, status);
    for (int i = 0; i < count; ++i) {
        AtspiAccessible* app = m_reader.childAt(desktop, i, status);
        if (!app)
            continue;
        const QString bus = busOf(AtspiReader::refOf(app));
        present.insert(bus);
        if (!m_applications.contains(bus) && !isSlow(bus)) {
            const qsizetype windowsBefore = m_windows.size();
            walkApplication(app, i);
            ++m_stats.windowWalks;
            for (qsizetype w = windowsBefore; w < m_windows.size(); ++w)
                m_changedWindows.insert(m_windows.at(w));
        }
        g_object_unref(app);
    }
    g_object_unref(desktop);
    const QList<QString> known = m_applications.keys();
    for (const QString& bus : known) {
        if (!present.contains(bus))
            removeApplication(bus);
    }
}

} // namespace ciu::platform::atspi
