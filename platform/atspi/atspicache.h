#pragma once

// The AT-SPI thread's copy of the tree: every showing node of every showing top-level window, read once by
// a full walk and then kept current by events, re-reading only the node or the subtree that changed.
// Used only on the AT-SPI thread.

#include "platform/accessibility.h"
#include "platform/atspi/atspireader.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QHash>
#include <QSet>

#include <functional>

struct DBusPendingCall;

namespace ciu::platform::atspi {

class AtspiCache
{
public:
    enum class Change : quint8
    {
        Node = 1,    // state, name, value or text of one object
        Subtree = 2, // children or bounds, an object shown: its subtree is read again
        Removed = 4, // a window destroyed, an object defunct
    };

    explicit AtspiCache(const AccessibilityLimits& limits);
    ~AtspiCache();
    AtspiCache(const AtspiCache&) = delete;
    AtspiCache& operator=(const AtspiCache&) = delete;

    // Everything from scratch.
    void walkAll();
    // Queues an event on `source` (a new reference is taken); flush() applies the queue.
    void note(AtspiAccessible* source, Change change);
    // The application's connection left the bus (NameOwnerChanged, or its root removed from the desktop):
    // flush() drops its windows, and it is never asked anything again.
    void noteGone(const QString& busName);
    bool hasPending() const { return !m_pending.isEmpty() || !m_goneQueue.isEmpty(); }
    // Applies the queued events. Returns the refs of the windows that changed.
    QStringList flush();
    // Slow applications: each is probed without waiting (an asynchronous call the application answers when
    // its main loop runs again); those that answered are read again. Returns the windows that changed.
    QStringList retrySlow();
    bool hasSlow() const { return !m_slow.isEmpty(); }
    // Nodes whose bounds lay outside their own window when read: a program may report a position from
    // before its window was placed (Qt: a menu bar's items, mapped while the window was still at 0,0) and
    // send no event once it knows better. Each is read again, a few times at most; returns the windows
    // whose nodes moved.
    QStringList recheckMisplaced();
    bool hasMisplaced() const { return !m_misplaced.isEmpty(); }
    // Called on the AT-SPI thread when a slow application answered its probe or a gone one was noticed.
    void setWakeUp(std::function<void()> wakeUp) { m_wakeUp = std::move(wakeUp); }
    // Asked during a walk: true ends it at once (the process is shutting down).
    void setStopRequested(std::function<bool()> stopRequested) { m_stopRequested = std::move(stopRequested); }

    AccessibilitySnapshotPtr snapshot(quint64 version) const;
    AccessibilityStats& stats() { return m_stats; }
    QStringList windowRefs() const { return m_windows; }

private:
    struct Entry
    {
        AccessibleNode node;
        AtspiAccessible* object = nullptr; // a reference held by the cache
        QStringList children;
        QString busName;
    };
    struct Application
    {
        QString name;
        qint64 pid = -1;
        QString busName;
        int index = 0; // among the desktop's children
    };
    struct Slow
    {
        QString name;
        QElapsedTimer since;
        DBusPendingCall* probe = nullptr; // the outstanding probe, owned
        bool answered = false;
    };
    struct ProbeContext
    {
        AtspiCache* cache = nullptr;
        QString busName;
    };
    struct Pending
    {
        AtspiAccessible* object = nullptr;
        int changes = 0;
    };

    // Reads `object` and its showing descendants into the cache. Returns the stored ref (empty when the
    // object is not showing or gone); false in *ok when the application timed out (it is then slow).
    QString walk(AtspiAccessible* object, const QString& parentRef, const QString& windowRef,
                 const QList<int>& path, int depth, const Application& app, bool* ok);
    void walkApplication(AtspiAccessible* app, int index);
    // False for an application that is gone: no bus name (libatspi disposed it), noted gone, or its name
    // has no owner on the bus any more (asked of the bus daemon, never of the application).
    bool isLive(const QString& busName);
    void applyGone();
    // Sends a probe to a slow application unless one is outstanding.
    void probe(const QString& busName, Slow& slow);
    static void onProbeReply(DBusPendingCall* pending, void* context);
    void dropSlow(const QString& busName);
    // Reads the applications that registered since, forgets those that left.
    void syncApplications();
    void rewalk(const QString& ref);
    void reread(const QString& ref);
    // Notes `node` (a window's descendant just read) as misplaced when its bounds lie outside its window.
    void checkPlacement(const AccessibleNode& node);
    // The application of an object not in the cache and its top-level window; climbs the parents up to
    // the first cached ancestor (returned in *cachedAncestor) or the application.
    void locate(AtspiAccessible* object, QString* cachedAncestor, AtspiAccessible** window, Application* app,
                bool* ok);
    void removeSubtree(const QString& ref, bool detachFromParent);
    void removeApplication(const QString& busName);
    void markSlow(const Application& app, bool overBudget = false);
    // Each application's read gets its own budget: one that answers slowly cannot hold up the others.
    void startBudget();
    bool isSlow(const QString& busName) const { return m_slow.contains(busName); }
    bool underWalked(const QString& ref, const QSet<QString>& walked) const;
    // The bus name of "bus-name:object-path". A unique name starts with ':' itself (":1.42"), an object
    // path with '/': the first ":/" ends the bus name.
    static QString busOf(const QString& ref)
    {
        const qsizetype end = ref.indexOf(QLatin1String(":/"));
        return end < 0 ? QString() : ref.left(end);
    }

    AccessibilityLimits m_limits;
    AtspiReader m_reader;
    QHash<QString, Entry> m_entries;
    QStringList m_windows;                      // top-level windows, desktop order
    QHash<QString, Application> m_applications; // by bus name
    QHash<QString, Slow> m_slow;                // by bus name
    QHash<QString, Pending> m_pending;          // by ref
    QSet<QString> m_changedWindows;
    QHash<QString, int> m_misplaced; // ref -> re-reads left
    QString m_walkWindowRef;         // the top-level window of the walk under way, and its bounds (its
    QRect m_walkWindowBounds;        // entry is stored after its children)
    QHash<QString, QString> m_names; // application names by bus name, for messages about a busy one
    QSet<QString> m_gone;            // bus names that left the bus (unique names are never reused)
    QStringList m_goneQueue;         // noted, not applied yet
    QDeadlineTimer m_budget;         // of the application being read
    std::function<void()> m_wakeUp;
    std::function<bool()> m_stopRequested;
    AccessibilityStats m_stats;
};

} // namespace ciu::platform::atspi
