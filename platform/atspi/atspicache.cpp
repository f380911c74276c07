// The AT-SPI thread's tree cache: full walk with OSWorld's limits (depth, children a node, only showing
// rows of big containers), event-driven re-reading of one node or one subtree, slow applications.

#include "platform/atspi/atspicache.h"

#include "platform/atspi/atspilog.h"

#include <atspi/atspi.h>

namespace ciu::platform::atspi {

AtspiCache::AtspiCache(const AccessibilityLimits& limits)
    : m_limits(limits)
    , m_reader(limits.callTimeoutMs)
{
}

AtspiCache::~AtspiCache()
{
    for (const QString& bus : m_slow.keys())
        dropSlow(bus);
    for (Entry& e : m_entries)
        g_object_unref(e.object);
    for (Pending& p : m_pending)
        g_object_unref(p.object);
}

void AtspiCache::walkAll()
{
    QElapsedTimer timer;
    timer.start();
    applyGone();
    for (Entry& e : m_entries)
        g_object_unref(e.object);
    m_entries.clear();
    m_windows.clear();
    m_applications.clear();
    AtspiAccessible* desktop = atspi_get_desktop(0);
    if (!desktop)
        return;
    ReadStatus status;
    QSet<QString> listed;
    const int count = m_reader.childCount(desktop, status);
    for (int i = 0; i < count; ++i) {
        AtspiAccessible* app = m_reader.childAt(desktop, i, status);
        if (!app)
            continue;
        listed.insert(busOf(AtspiReader::refOf(app)));
        walkApplication(app, i); // each within its own budget; a gone one is not asked
        g_object_unref(app);
    }
    g_object_unref(desktop);
    m_gone.intersect(listed); // what the desktop no longer lists cannot come back under that name
    ++m_stats.fullWalks;
    m_stats.lastWalkNs = timer.nsecsElapsed();
    m_stats.timeouts = m_reader.timeouts();
    for (const QString& w : std::as_const(m_windows))
        m_changedWindows.insert(w);
    qCDebug(lcAtspi) << "full walk:" << m_entries.size() << "nodes in" << m_windows.size() << "windows,"
                     << m_stats.lastWalkNs / 1000000 << "ms";
}

QString AtspiCache::walk(AtspiAccessible* object, const QString& parentRef, const QString& windowRef,
                         const QList<int>& path, int depth, const Application& app, bool* ok)
{
    Entry entry;
    entry.busName = app.busName;
    if (m_stopRequested && m_stopRequested()) {
        *ok = false;
        return {};
    }
    if (m_budget.hasExpired()) {
        markSlow(app, true);
        *ok = false;
        return {};
    }
    ReadStatus status = m_reader.readNode(object, entry.node);
    if (!status.timedOut && status.ok && !status.defunct && !entry.node.hasState(QStringLiteral("showing"))) {
        // Not showing by libatspi's copy of its states, which may date from before it was shown: a program
        // does not report every node it shows (Qt: a menu bar's items), and a stale "hidden" would keep it
        // off the map for good. Asked once more, of the program itself.
        atspi_accessible_clear_cache(object);
        status = m_reader.readNode(object, entry.node);
    }
    if (status.timedOut) {
        markSlow(app);
        *ok = false;
        return {};
    }
    if (!status.ok || status.defunct || !entry.node.hasState(QStringLiteral("showing")))
        return {};
    AccessibleNode& node = entry.node;
    node.parentRef = parentRef;
    node.windowRef = depth == 0 ? node.ref : windowRef;
    node.childPath = path;
    node.depth = depth;
    node.application = app.name;
    node.pid = app.pid;
    if (depth == 0) {
        m_walkWindowRef = node.ref;
        m_walkWindowBounds = node.bounds;
    } else {
        checkPlacement(node);
    }
    ReadStatus childStatus;
    node.childCount = m_reader.childCount(object, childStatus);
    if (childStatus.timedOut) {
        markSlow(app);
        *ok = false;
        return {};
    }
    if (depth < m_limits.maxDepth) {
        const int n = qMin(node.childCount, m_limits.maxChildren);
        const bool big = node.childCount > m_limits.bigContainer;
        bool seenShowing = false;
        for (int i = 0; i < n; ++i) {
            AtspiAccessible* child = m_reader.childAt(object, i, childStatus);
            if (childStatus.timedOut) {
                markSlow(app);
                *ok = false;
                return {};
            }
            if (!child)
                continue;
            if (big) {
                // Rows of a big table or list: the showing ones are contiguous; stop after them.
                QStringList states;
                m_reader.readStates(child, states);
                if (!states.contains(QLatin1String("showing"))) {
                    g_object_unref(child);
                    if (seenShowing)
                        break;
                    continue;
                }
                seenShowing = true;
            }
            const QString childRef =
                walk(child, node.ref, node.windowRef, path + QList<int>{i}, depth + 1, app, ok);
            g_object_unref(child);
            if (!*ok)
                return {};
            if (!childRef.isEmpty())
                entry.children << childRef;
        }
    }
    entry.object = static_cast<AtspiAccessible*>(g_object_ref(object));
    const QString ref = node.ref;
    auto existing = m_entries.find(ref);
    if (existing != m_entries.end()) {
        g_object_unref(existing->object);
        *existing = std::move(entry);
    } else {
        m_entries.insert(ref, std::move(entry));
    }
    if (depth == 0)
        m_walkWindowRef.clear(); // stored: its entry has the bounds from now on
    return ref;
}

void AtspiCache::removeSubtree(const QString& ref, bool detachFromParent)
{
    auto it = m_entries.find(ref);
    if (it == m_entries.end())
        return;
    const QStringList children = it->children;
    const QString parent = it->node.parentRef;
    g_object_unref(it->object);
    m_entries.erase(it);
    for (const QString& child : children)
        removeSubtree(child, false);
    if (!detachFromParent)
        return;
    if (parent.isEmpty())
        m_windows.removeAll(ref);
    else if (auto p = m_entries.find(parent); p != m_entries.end())
        p->children.removeAll(ref);
}

void AtspiCache::note(AtspiAccessible* source, Change change)
{
    if (!source)
        return;
    const QString ref = AtspiReader::refOf(source);
    const QString bus = busOf(ref);
    if (bus.isEmpty() || isSlow(bus) || m_gone.contains(bus))
        return; // gone, or served by vision until it answers again
    ++m_stats.events;
    auto it = m_pending.find(ref);
    if (it == m_pending.end())
        it = m_pending.insert(ref, Pending{static_cast<AtspiAccessible*>(g_object_ref(source)), 0});
    it->changes |= int(change);
}

bool AtspiCache::underWalked(const QString& ref, const QSet<QString>& walked) const
{
    QString current = ref;
    for (int guard = 0; guard <= m_limits.maxDepth + 1 && !current.isEmpty(); ++guard) {
        if (walked.contains(current))
            return true;
        const auto it = m_entries.constFind(current);
        if (it == m_entries.cend())
            return false;
        current = it->node.parentRef;
    }
    return false;
}

void AtspiCache::rewalk(const QString& ref)
{
    const auto it = m_entries.constFind(ref);
    if (it == m_entries.cend())
        return;
    const Entry old = *it; // the object stays referenced by `old` until the walk is done
    g_object_ref(old.object);
    const auto app = m_applications.constFind(old.busName);
    if (app == m_applications.cend()) {
        g_object_unref(old.object);
        return;
    }
    for (const QString& child : old.children)
        removeSubtree(child, false);
    // The subtree changed (children, bounds, shown): libatspi's cached children, states and names of it
    // are asked again rather than trusted, as before libatspi's cache was on.
    atspi_accessible_clear_cache(old.object);
    startBudget();
    bool ok = true;
    const QString stored = walk(old.object, old.node.parentRef, old.node.windowRef, old.node.childPath,
                                old.node.depth, *app, &ok);
    g_object_unref(old.object);
    if (ok && stored.isEmpty()) // no longer showing
        removeSubtree(ref, true);
    qCDebug(lcAtspi).noquote() << "subtree" << ref << old.node.role << "read again:" << old.children.size()
                               << "children before," << m_entries.value(stored).children.size() << "now"
                               << (ok ? (stored.isEmpty() ? "(no longer showing)" : "") : "(not answered)");
    ++m_stats.subtreeWalks;
    m_changedWindows.insert(old.node.windowRef);
}

void AtspiCache::reread(const QString& ref)
{
    auto it = m_entries.find(ref);
    if (it == m_entries.end())
        return;
    AccessibleNode node;
    const ReadStatus status = m_reader.readNode(it->object, node);
    const QString windowRef = it->node.windowRef;
    m_changedWindows.insert(windowRef);
    ++m_stats.nodeUpdates;
    if (status.timedOut) {
        Application app = m_applications.value(it->busName);
        app.busName = it->busName;
        markSlow(app);
        return;
    }
    if (!status.ok || status.defunct || !node.hasState(QStringLiteral("showing"))) {
        removeSubtree(ref, true);
        return;
    }
    AccessibleNode& cached = it->node;
    cached.states = node.states;
    cached.name = node.name;
    cached.value = node.value;
    cached.characterCount = node.characterCount;
    cached.bounds = node.bounds;
    cached.keyBinding = node.keyBinding;
    cached.labelledBy = node.labelledBy;
    if (cached.depth > 0)
        checkPlacement(cached);
}

void AtspiCache::checkPlacement(const AccessibleNode& node)
{
    // Enough for a misreporting program's nodes, small enough that the re-reads stay cheap.
    constexpr int kMaxMisplaced = 64;
    // Re-reads of one node, one a retry tick (at least 500 ms apart): a program has settled by then.
    constexpr int kRereads = 12;
    QRect window;
    if (node.windowRef == m_walkWindowRef)
        window = m_walkWindowBounds;
    else if (const auto it = m_entries.constFind(node.windowRef); it != m_entries.cend())
        window = it->node.bounds;
    if (window.isEmpty() || node.bounds.isEmpty() || window.intersects(node.bounds)) {
        m_misplaced.remove(node.ref);
        return;
    }
    if (!m_misplaced.contains(node.ref) && m_misplaced.size() < kMaxMisplaced) {
        qCDebug(lcAtspi).noquote() << "node" << node.ref << node.role << node.name << "at" << node.bounds
                                   << "lies outside its window at" << window << ": read again later";
        m_misplaced.insert(node.ref, kRereads);
    }
}

QStringList AtspiCache::recheckMisplaced()
{
    applyGone();
    for (auto it = m_misplaced.begin(); it != m_misplaced.end();) {
        const auto entry = m_entries.find(it.key());
        if (entry == m_entries.end() || isSlow(entry->busName) || --it.value() < 0) {
            it = m_misplaced.erase(it);
            continue;
        }
        AccessibleNode node;
        atspi_accessible_clear_cache(entry->object);
        const ReadStatus status = m_reader.readNode(entry->object, node);
        if (!status.ok || status.timedOut || status.defunct) {
            ++it; // asked again at the next tick; events say whether it went
            continue;
        }
        if (node.bounds != entry->node.bounds) {
            qCDebug(lcAtspi).noquote() << "misplaced node" << it.key() << "now at" << node.bounds;
            entry->node.bounds = node.bounds;
            entry->node.states = node.states;
            m_changedWindows.insert(entry->node.windowRef);
            ++m_stats.nodeUpdates;
        }
        const auto window = m_entries.constFind(entry->node.windowRef);
        if (window != m_entries.cend() && window->node.bounds.intersects(node.bounds))
            it = m_misplaced.erase(it);
        else
            ++it;
    }
    QStringList changed(m_changedWindows.cbegin(), m_changedWindows.cend());
    m_changedWindows.clear();
    return changed;
}

void AtspiCache::locate(AtspiAccessible* object, QString* cachedAncestor, AtspiAccessible** window,
                        Application* app, bool* ok)
{
    ReadStatus status;
    AtspiAccessible* current = static_cast<AtspiAccessible*>(g_object_ref(object));
    AtspiAccessible* previous = nullptr;
    for (int guard = 0; guard <= m_limits.maxDepth + 1 && current; ++guard) {
        const QString ref = AtspiReader::refOf(current);
        if (m_entries.contains(ref)) {
            *cachedAncestor = ref;
            break;
        }
        const QString role = m_reader.roleName(current, status);
        if (status.timedOut) {
            *ok = false;
            break;
        }
        if (role == QLatin1String("application") || role == QLatin1String("desktop frame")) {
            // `previous` is the top-level window under the application.
            if (previous) {
                *window = static_cast<AtspiAccessible*>(g_object_ref(previous));
                app->busName = busOf(ref);
                const auto known = m_applications.constFind(app->busName);
                if (known != m_applications.cend()) {
                    *app = *known;
                } else {
                    app->name = m_reader.nameOf(current, status);
                    app->pid = m_reader.processId(current, status);
                    app->index = int(m_applications.size());
                    m_applications.insert(app->busName, *app);
                }
            }
            break;
        }
        AtspiAccessible* parent = m_reader.parentOf(current, status);
        if (previous)
            g_object_unref(previous);
        previous = current;
        current = parent;
    }
    if (previous)
        g_object_unref(previous);
    if (current)
        g_object_unref(current);
}

QStringList AtspiCache::flush()
{
    QElapsedTimer timer;
    timer.start();
    applyGone();
    // Parents first: a subtree read covers the events of its descendants.
    QList<QPair<QString, Pending>> queue;
    for (auto it = m_pending.cbegin(); it != m_pending.cend(); ++it)
        queue.append({it.key(), it.value()});
    m_pending.clear();
    std::sort(queue.begin(), queue.end(), [this](const auto& a, const auto& b) {
        const int da = m_entries.contains(a.first) ? m_entries.value(a.first).node.depth : 1000;
        const int db = m_entries.contains(b.first) ? m_entries.value(b.first).node.depth : 1000;
        return da < db;
    });
    QSet<QString> walked;
    for (const auto& [ref, pending] : queue) {
        qCDebug(lcAtspi).noquote() << "event on" << ref << "changes" << pending.changes
                                   << (m_entries.contains(ref) ? m_entries.value(ref).node.role
                                                               : QStringLiteral("(not cached)"));
        if (pending.changes & int(Change::Removed)) {
            if (m_entries.contains(ref)) {
                m_changedWindows.insert(m_entries.value(ref).node.windowRef);
                removeSubtree(ref, true);
            }
        } else if (m_entries.contains(ref)) {
            if (underWalked(ref, walked)) {
                // already read by an ancestor's subtree walk in this batch
            } else if (pending.changes & int(Change::Subtree)) {
                rewalk(ref);
                walked.insert(ref);
            } else {
                reread(ref);
            }
        } else if (ReadStatus status;
                   m_reader.roleName(pending.object, status) == QLatin1String("desktop frame")) {
            // An application registered or left.
            syncApplications();
        } else if (!isSlow(busOf(ref)) && isLive(busOf(ref))) {
            // Not cached: hidden so far, new, or in a new window. Ignore what is still not showing.
            QStringList states;
            if (!m_reader.readStates(pending.object, states).ok ||
                !states.contains(QLatin1String("showing"))) {
                g_object_unref(pending.object);
                continue;
            }
            QString ancestor;
            AtspiAccessible* window = nullptr;
            Application app;
            bool ok = true;
            locate(pending.object, &ancestor, &window, &app, &ok);
            if (!ancestor.isEmpty() && !underWalked(ancestor, walked)) {
                rewalk(ancestor);
                walked.insert(ancestor);
            } else if (window && !isSlow(app.busName)) {
                bool walkOk = true;
                const QString windowRef = AtspiReader::refOf(window);
                if (!m_entries.contains(windowRef)) {
                    startBudget();
                    const QString stored =
                        walk(window, {}, {}, {app.index, int(m_windows.size())}, 0, app, &walkOk);
                    if (!stored.isEmpty() && !m_windows.contains(stored))
                        m_windows << stored;
                    if (!stored.isEmpty()) {
                        m_changedWindows.insert(stored);
                        walked.insert(stored);
                    }
                    ++m_stats.windowWalks;
                }
            }
            if (window)
                g_object_unref(window);
        }
        g_object_unref(pending.object);
    }
    m_stats.timeouts = m_reader.timeouts();
    m_stats.lastUpdateNs = timer.nsecsElapsed();
    QStringList changed(m_changedWindows.cbegin(), m_changedWindows.cend());
    m_changedWindows.clear();
    return changed;
}

AccessibilitySnapshotPtr AtspiCache::snapshot(quint64 version) const
{
    auto snapshot = std::make_shared<AccessibilitySnapshot>();
    snapshot->version = version;
    snapshot->stats = m_stats;
    snapshot->nodes.reserve(m_entries.size());
    qint64 bytes = 0;
    // Pre-order through the children lists, window by window.
    QList<QString> stack;
    for (auto w = m_windows.crbegin(); w != m_windows.crend(); ++w)
        stack << *w;
    while (!stack.isEmpty()) {
        const QString ref = stack.takeLast();
        const auto it = m_entries.constFind(ref);
        if (it == m_entries.cend())
            continue;
        snapshot->nodes << it->node;
        const AccessibleNode& n = it->node;
        bytes += qint64(sizeof(Entry)) +
                 2 * (n.ref.size() + n.parentRef.size() + n.windowRef.size() + n.role.size() + n.name.size() +
                      n.description.size() + n.value.size() + n.keyBinding.size() + n.labelledBy.size() +
                      n.application.size()) +
                 n.states.size() * 24 + n.childPath.size() * 4 + it->children.size() * 8;
        for (auto c = it->children.crbegin(); c != it->children.crend(); ++c)
            stack << *c;
    }
    snapshot->cacheBytes = bytes;
    for (const Slow& slow : m_slow)
        snapshot->slowApplications << slow.name;
    return snapshot;
}

} // namespace ciu::platform::atspi
