// `ciu-agent bench a11y`: the accessibility tree as a zone source. Starts a program with accessibility on
// (default gtk3-widget-factory) on the target display and measures, in one run: a full map of its window
// (walk + zones), event → updated zone map latency (a check box clicked with XTest until the map shows the
// new state), and a full re-walk of the same window with pyatspi (what OSWorld does at every step), with
// the ratio; and the memory of the cache. Needs a session bus with the AT-SPI bus.

#include "bench/benchmark.h"
#include "core/canvas/accessibilityzones.h"
#include "platform/platformfactory.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QTimer>

namespace ciu::bench {
namespace {

// Walks the program's windows the way OSWorld's Linux observation does (role, name, states, extents, text;
// showing nodes only, depth 50, 1,024 children), three times; prints the milliseconds of each walk.
const char* kPyatspiWalk = R"PY(
import sys, time, pyatspi
pid = int(sys.argv[1])
def walk(a, depth):
    n = 1
    states = a.getState()
    a.getRoleName(); a.name
    try: a.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    except Exception: pass
    try:
        t = a.queryText(); t.getText(0, min(t.characterCount, 2000))
    except Exception: pass
    if depth >= 50 or not states.contains(pyatspi.STATE_SHOWING): return n
    for i in range(min(a.childCount, 1024)):
        c = a.getChildAtIndex(i)
        if c is not None: n += walk(c, depth + 1)
    return n
app = next(a for a in pyatspi.Registry.getDesktop(0) if a is not None and a.get_process_id() == pid)
for _ in range(3):
    t = time.perf_counter()
    nodes = sum(walk(w, 0) for w in app)
    print(nodes, (time.perf_counter() - t) * 1000.0, flush=True)
)PY";

// Runs the event loop until `done` or the deadline.
bool waitUntil(const std::function<bool()>& done, int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (!done()) {
        if (deadline.hasExpired())
            return false;
        QEventLoop loop;
        QTimer::singleShot(5, &loop, &QEventLoop::quit);
        loop.exec();
    }
    return true;
}

QList<platform::AccessibleNode> nodesOf(const platform::AccessibilitySnapshotPtr& s, qint64 pid)
{
    QList<platform::AccessibleNode> nodes;
    for (const platform::AccessibleNode& n : s->nodes) {
        if (n.pid == pid)
            nodes << n;
    }
    return nodes;
}

} // namespace

int runA11yBenchmark(const Context& context, Reporter& out)
{
    QString program = QStringLiteral("gtk3-widget-factory");
    int rounds = context.iterations > 0 ? context.iterations : 20;
    for (const QString& arg : context.args) {
        if (arg.startsWith(QLatin1String("program=")))
            program = arg.mid(8);
        else if (arg.startsWith(QLatin1String("rounds=")))
            rounds = qMax(1, arg.mid(7).toInt());
    }
    auto opened = platform::createPlatform({context.platform, context.display});
    if (!opened.platform) {
        out.note(opened.error);
        return 3;
    }
    platform::Platform& display = *opened.platform;
    const std::unique_ptr<platform::Accessibility> a11y = platform::createAccessibility();
    if (!a11y->isAvailable()) {
        out.note(QStringLiteral("no accessibility: %1").arg(a11y->errorString()));
        return 1;
    }
    a11y->start();

    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), display.displayName());
    env.remove(QStringLiteral("NO_AT_BRIDGE"));
    env.insert(QStringLiteral("GNOME_ACCESSIBILITY"), QStringLiteral("1"));
    env.insert(QStringLiteral("QT_LINUX_ACCESSIBILITY_ALWAYS_ON"), QStringLiteral("1"));
    QProcess app;
    app.setProcessEnvironment(env);
    app.setStandardOutputFile(QProcess::nullDevice());
    app.setStandardErrorFile(QProcess::nullDevice());
    const QStringList parts = QProcess::splitCommand(program);
    app.start(parts.value(0), parts.mid(1));
    if (!app.waitForStarted()) {
        out.note(QStringLiteral("cannot start %1").arg(program));
        return 1;
    }
    const qint64 pid = app.processId();
    // Its tree is there and has settled: the same nodes for half a second (a program that animates, as
    // gtk3-widget-factory's spinner and progress bars do, changes values all the time, not its nodes).
    qsizetype lastCount = -1;
    QElapsedTimer settled;
    settled.start();
    const bool ready = waitUntil(
        [&] {
            const qsizetype count = nodesOf(a11y->snapshot(), pid).size();
            if (count != lastCount) {
                lastCount = count;
                settled.restart();
            }
            return count > 0 && settled.elapsed() > 500;
        },
        30'000);
    if (!ready) {
        out.note(QStringLiteral("%1 never showed an accessibility tree").arg(program));
        app.kill();
        app.waitForFinished();
        return 1;
    }

    canvas::AccessibilityScene scene;
    scene.windows = display.windows().topLevelWindows();
    scene.screen = QRect(QPoint(0, 0), display.screen().grab().size());
    scene.ownPid = QCoreApplication::applicationPid();

    // Full map: a full walk of everything plus the zones, five times.
    QList<double> walkMs, zonesMs;
    qsizetype nodes = 0, zones = 0;
    for (int i = 0; i < 5; ++i) {
        const int walks = a11y->snapshot()->stats.fullWalks;
        a11y->refresh();
        waitUntil([&] { return a11y->snapshot()->stats.fullWalks > walks; }, 60'000);
        const auto s = a11y->snapshot();
        walkMs << double(s->stats.lastWalkNs) / 1e6;
        QElapsedTimer t;
        t.start();
        const canvas::AccessibilityZones z = canvas::zonesFromAccessibility(*s, scene);
        zonesMs << double(t.nsecsElapsed()) / 1e6;
        nodes = nodesOf(s, pid).size();
        zones = z.zones.size();
    }
    out.figure(QStringLiteral("full_map_ms"), median(walkMs) + median(zonesMs), QStringLiteral("ms"),
               {{QStringLiteral("walk_ms"), median(walkMs)},
                {QStringLiteral("zones_ms"), median(zonesMs)},
                {QStringLiteral("nodes"), nodes},
                {QStringLiteral("zones"), zones},
                {QStringLiteral("program"), program}});
    out.figure(QStringLiteral("cache_kib"), double(a11y->snapshot()->cacheBytes) / 1024.0,
               QStringLiteral("KiB"), {{QStringLiteral("nodes_cached"), a11y->snapshot()->nodes.size()}});

    // Event → map: click an enabled check box or toggle button; the map shows the new state.
    const canvas::AccessibilityZones now = canvas::zonesFromAccessibility(*a11y->snapshot(), scene);
    const Zone* target = nullptr;
    // A real check box (role "check box": a toggle button in a radio-like group may not toggle back).
    for (const Zone& z : now.zones) {
        if (z.role == QLatin1String("check box") && !z.state.testFlag(ZoneStateFlag::Disabled) &&
            z.windowId != 0 && !z.label.isEmpty()) {
            target = &z;
            break;
        }
    }
    double eventMs = 0;
    if (target) {
        const int walksBefore = a11y->snapshot()->stats.fullWalks;
        const QString ref = target->accessibleRef;
        const QPoint at = target->center();
        display.windows().activate(target->windowId);
        QList<double> latency, update;
        for (int i = 0; i < rounds; ++i) {
            const auto checkedNow = [&] {
                const auto s = a11y->snapshot();
                for (const platform::AccessibleNode& n : s->nodes) {
                    if (n.ref == ref)
                        return n.hasState(QStringLiteral("checked"));
                }
                return false;
            };
            const bool before = checkedNow();
            QElapsedTimer t;
            t.start();
            display.input().moveTo(at);
            display.input().button(platform::MouseButton::Left, true);
            display.input().button(platform::MouseButton::Left, false);
            display.input().sync();
            bool changed = false;
            waitUntil(
                [&] {
                    if (checkedNow() == before)
                        return false;
                    canvas::zonesFromAccessibility(*a11y->snapshot(), scene); // the map, updated
                    changed = true;
                    return true;
                },
                5'000);
            if (changed) {
                latency << double(t.nsecsElapsed()) / 1e6;
                update << double(a11y->snapshot()->stats.lastUpdateNs) / 1e6;
            }
        }
        eventMs = median(latency);
        out.figure(QStringLiteral("event_to_map_ms"), eventMs, QStringLiteral("ms"),
                   {{QStringLiteral("p90_ms"), percentile(latency, 90)},
                    {QStringLiteral("update_ms"), median(update)},
                    {QStringLiteral("rounds"), latency.size()},
                    {QStringLiteral("label"), target->label},
                    {QStringLiteral("full_walks_during"), a11y->snapshot()->stats.fullWalks - walksBefore}});
    } else {
        out.note(QStringLiteral("no enabled check box in %1: no event latency").arg(program));
    }

    // The same window re-walked by pyatspi.
    QProcess python;
    python.setProcessEnvironment(QProcessEnvironment::systemEnvironment());
    python.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral("-c"), QString::fromUtf8(kPyatspiWalk), QString::number(pid)});
    if (python.waitForFinished(300'000) && python.exitCode() == 0) {
        QList<double> pyMs;
        qsizetype pyNodes = 0;
        for (const QByteArray& line : python.readAllStandardOutput().split('\n')) {
            const QList<QByteArray> f = line.trimmed().split(' ');
            if (f.size() == 2) {
                pyNodes = f.at(0).toLongLong();
                pyMs << f.at(1).toDouble();
            }
        }
        const double ours = median(walkMs);
        out.figure(QStringLiteral("pyatspi_walk_ms"), median(pyMs), QStringLiteral("ms"),
                   {{QStringLiteral("nodes"), pyNodes},
                    {QStringLiteral("ratio_vs_full_walk"), ours > 0 ? median(pyMs) / ours : 0},
                    {QStringLiteral("ratio_vs_event_update"), eventMs > 0 ? median(pyMs) / eventMs : 0}});
    } else {
        out.note(QStringLiteral("pyatspi walk failed (python3-pyatspi installed?): %1")
                     .arg(QString::fromUtf8(python.readAllStandardError())));
    }
    app.terminate();
    if (!app.waitForFinished(5000))
        app.kill();
    return 0;
}

} // namespace ciu::bench
