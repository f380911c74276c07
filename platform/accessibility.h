#pragma once

// The accessibility tree of the target display's programs (AT-SPI on Linux) as plain values: an
// interface with a capability flag, a null backend, and the cache snapshot the backends publish.

#include <QList>
#include <QMetaType>
#include <QObject>
#include <QRect>
#include <QString>
#include <QStringList>

#include <memory>

namespace ciu::platform {

// One accessible object, read from its application. Plain values: no handle to the OS.
struct AccessibleNode
{
    QString ref;         // "bus-name:object-path": stable while the object lives
    QString parentRef;   // empty for a top-level window
    QString windowRef;   // the top-level window the node belongs to
    QString role;        // AT-SPI role name: "push button", "check box", "page tab", ...
    QString name;        // accessible name
    QString description; // accessible description
    QStringList states;  // AT-SPI state names: "enabled", "showing", "focused", "checked", ...
    QRect bounds;        // root coordinates; null when the node reports no extents
    QString value;       // text content, numeric value or selected item; empty when none
    QString keyBinding;  // first action's key binding ("<Alt>f", "Ctrl+S"), empty when none
    QString labelledBy;  // name of the node of its "labelled-by" relation
    // A password field's: how many characters it holds (its text is never read); -1 for every other node.
    int characterCount = -1;
    QList<int> childPath; // index path from the application (window first)
    QString application;  // the application's accessible name
    qint64 pid = -1;
    int depth = 0; // 0 for a top-level window
    int childCount = 0;

    bool hasState(const QString& state) const { return states.contains(state); }
    QString pathString() const; // childPath as "0/3/1"
};

// Counts of the backend's work since it started: a test proves an update came by event (no walk).
struct AccessibilityStats
{
    int fullWalks = 0;       // every application and window read from scratch
    int windowWalks = 0;     // one top-level window read again (a window created or shown)
    int subtreeWalks = 0;    // one subtree read again (children or bounds changed)
    int nodeUpdates = 0;     // one node's state, name, value or text read again
    int events = 0;          // events received
    int timeouts = 0;        // calls that hit the timeout
    qint64 lastWalkNs = 0;   // duration of the latest full walk
    qint64 lastUpdateNs = 0; // duration of the latest event-driven update (read + snapshot)
};

// The cache at one moment: every node of the showing top-level windows, pre-order (parents first).
struct AccessibilitySnapshot
{
    quint64 version = 0;
    QList<AccessibleNode> nodes;
    QStringList slowApplications; // applications that did not answer in time (served by vision)
    AccessibilityStats stats;
    qint64 cacheBytes = 0; // approximate memory of the cached nodes
};
using AccessibilitySnapshotPtr = std::shared_ptr<const AccessibilitySnapshot>;

// Limits of a walk, as OSWorld's Linux observation uses: a huge tree cannot stall the map.
struct AccessibilityLimits
{
    int maxDepth = 50;
    int maxChildren = 1024;   // children read per node
    int bigContainer = 100;   // above this many children, only the showing ones are read (big tables)
    int callTimeoutMs = 2000; // every call to an application (a loaded machine answers in well under that)
    // The first call to the AT-SPI registry, which the bus may have to start first.
    int registryTimeoutMs = 10'000;
    int slowRetryMs = 3000; // a slow application is asked again after this long
};

// The accessibility tree of the programs on the target display. Lives on the thread that created it;
// a backend does its reading elsewhere (AT-SPI: a thread of its own) and reports snapshots here.
class Accessibility : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    ~Accessibility() override = default;

    virtual QString backendName() const = 0; // "atspi", "none"
    // False when there is no accessibility bus (then errorString() says why, once).
    virtual bool isAvailable() const = 0;
    virtual QString errorString() const = 0;
    // Reads every showing window, then follows events. snapshotChanged() reports each new state.
    virtual void start() = 0;
    // A full re-walk (benchmarks and recovery), reported like any other change.
    virtual void refresh() = 0;
    // The latest snapshot (empty before the first walk finished).
    virtual AccessibilitySnapshotPtr snapshot() const = 0;

Q_SIGNALS:
    // `changedWindows`: refs of the top-level windows whose nodes changed (all of them after a walk).
    void snapshotChanged(const ciu::platform::AccessibilitySnapshotPtr& snapshot,
                         const QStringList& changedWindows);
};

// No accessibility (no bus, another OS, tests of the vision path): never reports anything.
class NullAccessibility final : public Accessibility
{
    Q_OBJECT
public:
    explicit NullAccessibility(QString reason, QObject* parent = nullptr);
    QString backendName() const override { return QStringLiteral("none"); }
    bool isAvailable() const override { return false; }
    QString errorString() const override { return m_reason; }
    void start() override {}
    void refresh() override {}
    AccessibilitySnapshotPtr snapshot() const override { return m_empty; }

private:
    QString m_reason;
    AccessibilitySnapshotPtr m_empty;
};

struct AccessibilityOptions
{
    QString backend; // "atspi" or "none"; empty: $CIU_ACCESSIBILITY, else atspi
    AccessibilityLimits limits;
};

} // namespace ciu::platform

Q_DECLARE_METATYPE(ciu::platform::AccessibilitySnapshotPtr)
