#pragma once

// Reads one accessible object of libatspi into a plain AccessibleNode, every call bounded by the
// library's timeout; a call that timed out is reported so the caller can mark the application slow.
// Used only on the AT-SPI thread.

#include "platform/accessibility.h"
#include "platform/atspi/atspiconnections.h"

#include <QElapsedTimer>

using AtspiAccessible = struct _AtspiAccessible;
using GError = struct _GError;

namespace ciu::platform::atspi {

// The outcome of the calls made for one object.
struct ReadStatus
{
    bool ok = true;        // the object answered (it may still have no extents)
    bool timedOut = false; // a call took the whole timeout: the application is busy
    bool defunct = false;  // the object is gone
};

class AtspiReader
{
public:
    explicit AtspiReader(int timeoutMs)
        : m_timeoutMs(timeoutMs)
        , m_connections(timeoutMs)
    {
    }

    // "bus-name:object-path" of an object (no call).
    static QString refOf(AtspiAccessible* object);
    // Fills every field of `node` that comes from the object itself (not the tree fields).
    ReadStatus readNode(AtspiAccessible* object, AccessibleNode& node);
    // Just the states (cheap; from libatspi's cache where the application supports it).
    ReadStatus readStates(AtspiAccessible* object, QStringList& states);
    int childCount(AtspiAccessible* object, ReadStatus& status);
    // A new reference, or null.
    AtspiAccessible* childAt(AtspiAccessible* object, int index, ReadStatus& status);
    AtspiAccessible* parentOf(AtspiAccessible* object, ReadStatus& status);
    QString roleName(AtspiAccessible* object, ReadStatus& status);
    qint64 processId(AtspiAccessible* object, ReadStatus& status);
    QString nameOf(AtspiAccessible* object, ReadStatus& status);
    int timeouts() const { return m_timeouts; }
    // Direct connections to applications moved to this thread so far.
    int connectionsMoved() const { return m_connections.moved(); }

private:
    // Takes the error of a call that started at `started`: updates `status`, frees the error.
    void take(GError* error, const QElapsedTimer& started, ReadStatus& status);
    QRect extents(AtspiAccessible* object, ReadStatus& status);
    QString value(AtspiAccessible* object, const AccessibleNode& node, ReadStatus& status);
    // How many characters a text object holds, without reading them (a password field); -1 when unknown.
    int characterCount(AtspiAccessible* object, ReadStatus& status);
    QString keyBinding(AtspiAccessible* object, ReadStatus& status);
    QString labelledBy(AtspiAccessible* object, ReadStatus& status);

    int m_timeoutMs;
    int m_timeouts = 0;
    AtspiConnections m_connections;
};

} // namespace ciu::platform::atspi
