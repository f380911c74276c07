#pragma once

// The direct connections libatspi opens to applications, moved to the AT-SPI thread's GLib context.
// libatspi attaches each such connection to the process's default context, which Qt's main thread
// iterates: two threads then read one socket, a reply the main thread takes leaves the AT-SPI thread's
// call waiting out its whole timeout (a GTK program "did not answer" at random), and the main thread runs
// libatspi's handlers beside the AT-SPI thread. Used only on the AT-SPI thread.

#include <QHash>

using AtspiAccessible = struct _AtspiAccessible;
using DBusConnection = struct DBusConnection;

namespace ciu::platform::atspi {

class AtspiConnections
{
public:
    explicit AtspiConnections(int waitMs)
        : m_waitMs(waitMs)
    {
    }
    ~AtspiConnections();
    AtspiConnections(const AtspiConnections&) = delete;
    AtspiConnections& operator=(const AtspiConnections&) = delete;

    // Before a call to `object`'s application: its direct connection, if it has one that is not yet on this
    // thread's context, is moved there. The move runs on the main thread (the one that dispatches the
    // default context) while this thread waits, so neither thread is inside the connection meanwhile.
    void own(AtspiAccessible* object);
    int moved() const { return m_moved; }

private:
    void forgetClosed();

    int m_waitMs;
    int m_moved = 0;
    QHash<DBusConnection*, bool> m_owned; // a reference held on each, so an address is never reused
    QHash<DBusConnection*, qint64> m_failedAtMs;
};

} // namespace ciu::platform::atspi
