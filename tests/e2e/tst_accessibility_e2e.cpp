// The accessibility tree as a zone source, end to end: a private D-Bus session (the test runs under
// dbus-run-session) with the real AT-SPI bus, a real Xvfb with openbox, the fixture app with Qt's
// accessibility on and a GTK program from Debian. Every state is proven by the fixture's JSON output, the
// X window list, or the program's own accessible state; walks are counted to prove updates came by event.

#include "core/canvas/accessibilityzones.h"
#include "core/canvas/canvasmapper.h"
#include "core/capture/changedetector.h"
#include "platform/platformfactory.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineF>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <csignal>

using namespace ciu;
using namespace ciu::test;
using canvas::CanvasMapper;
using platform::AccessibilitySnapshotPtr;
using platform::AccessibleNode;

namespace {

QList<AccessibleNode> nodesOf(const AccessibilitySnapshotPtr& snapshot, qint64 pid)
{
    QList<AccessibleNode> nodes;
    if (!snapshot)
        return nodes;
    for (const AccessibleNode& n : snapshot->nodes) {
        if (n.pid == pid)
            nodes << n;
    }
    return nodes;
}

std::optional<AccessibleNode> nodeWith(const AccessibilitySnapshotPtr& snapshot, qint64 pid,
                                       const QString& role, const QString& name)
{
    for (const AccessibleNode& n : nodesOf(snapshot, pid)) {
        if (n.role == role && n.name == name)
            return n;
    }
    return std::nullopt;
}

// The zone of a widget the fixture reports: the same rectangle. Qt gives a check box (or radio button) the
// rectangle of its indicator and text, not of the whole widget the layout stretched: that zone lies inside
// the widget, on its left edge.
bool isZoneOf(const Zone& z, const FixtureApp::Widget& w)
{
    if (z.bounds == w.rect)
        return true;
    return w.type == QLatin1String("checkbox") && z.source == ZoneSource::Accessibility &&
           w.rect.contains(z.bounds) && z.bounds.left() == w.rect.left() && z.bounds.width() < w.rect.width();
}

bool run(const QString& program, const QStringList& args, const QProcessEnvironment& env,
         QByteArray* out = nullptr, QByteArray* err = nullptr, int* exitCode = nullptr)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(120'000))
        return false;
    if (out)
        *out = p.readAllStandardOutput();
    if (err)
        *err = p.readAllStandardError();
    if (exitCode)
        *exitCode = p.exitCode();
    return p.exitStatus() == QProcess::NormalExit;
}

// The address of this private session's AT-SPI bus (D-Bus activation starts it); empty, with the error in
// *error, when it cannot be had.
QString accessibilityBusAddress(QByteArray* error)
{
    QByteArray out;
    int code = -1;
    if (!run(QStringLiteral("dbus-send"),
             {QStringLiteral("--session"), QStringLiteral("--print-reply"),
              QStringLiteral("--dest=org.a11y.Bus"), QStringLiteral("/org/a11y/bus"),
              QStringLiteral("org.a11y.Bus.GetAddress")},
             QProcessEnvironment::systemEnvironment(), &out, error, &code) ||
        code != 0)
        return {};
    const qsizetype quote = out.indexOf('"');
    const QString address = QString::fromUtf8(out.mid(quote + 1, out.indexOf('"', quote + 1) - quote - 1));
    return address.startsWith(QLatin1String("unix:")) ? address : QString();
}

} // namespace

class TestAccessibilityE2e : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();

    void fixtureWidgetsAreZones();
    void toggleUpdatesMapByEvent();
    void tabDialogAndMenuByEvent();
    void windowAboveHidesZones();
    void misplacedNodeIsReadAgain();
    void hungProgramIsServedByVision();
    void hungProgramBesideLiveOne();
    void gtkTreeKeepsItsNodesAfterStartup();
    void noBusFallsBackWithOneWarning();
    void stoppedRegistryFallsBack();
    // Last: after every case before has started and stopped a program (regression test of a GTK program
    // started late taking minutes to be mapped while the walks waited on applications that were gone).
    void gtkProgramMaps();

private:
    qint64 fixturePid() const;
    QList<platform::WindowInfo> windows();
    canvas::AccessibilityZones zonesNow();
    void click(const QPoint& p);

    std::unique_ptr<XvfbServer> m_xvfb;
    std::unique_ptr<platform::Platform> m_platform;
    std::unique_ptr<FixtureApp> m_fixture;
    std::unique_ptr<platform::Accessibility> m_a11y;
    QList<qint64> m_pastPids; // programs that ran in an earlier case and have exited
};

void TestAccessibilityE2e::initTestCase()
{
    QVERIFY2(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
             "run under dbus-run-session (ctest does): the test needs a session bus of its own");
    m_xvfb = std::make_unique<XvfbServer>();
    QVERIFY2(m_xvfb->start(), qPrintable(m_xvfb->errorString()));
    // The AT-SPI bus, started by D-Bus activation on this private session bus.
    QByteArray err;
    QVERIFY2(!accessibilityBusAddress(&err).isEmpty(), err.constData());
    auto opened = platform::createPlatform({QStringLiteral("x11"), m_xvfb->displayName()});
    QVERIFY2(opened.platform, qPrintable(opened.error));
    m_platform = std::move(opened.platform);
}

void TestAccessibilityE2e::init()
{
    m_fixture = std::make_unique<FixtureApp>();
    QVERIFY2(m_fixture->start(m_xvfb->accessibleEnvironment()), qPrintable(m_fixture->errorString()));
    m_a11y = platform::createAccessibility();
    QVERIFY2(m_a11y->isAvailable(), qPrintable(m_a11y->errorString()));
    m_a11y->start();
    // The fixture's tree: its window and the widgets it reports (the bridge may register after "ready").
    const qint64 pid = fixturePid();
    QTRY_VERIFY_WITH_TIMEOUT(
        nodeWith(m_a11y->snapshot(), pid, QStringLiteral("check box"), QStringLiteral("Subscribe")), 20'000);
    // The window manager no longer lists a window of an earlier case's program (one still listed would
    // cover this one's zones for a mapper given the window list now).
    const auto pastWindowListed = [this] {
        const QList<platform::WindowInfo> list = windows();
        return std::any_of(list.cbegin(), list.cend(), [this](const platform::WindowInfo& w) {
            return w.pid > 0 && m_pastPids.contains(w.pid);
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(!pastWindowListed(), 10'000);
}

void TestAccessibilityE2e::cleanup()
{
    if (fixturePid() > 0)
        m_pastPids << fixturePid();
    m_a11y.reset();
    m_fixture.reset();
}

void TestAccessibilityE2e::cleanupTestCase()
{
    m_platform.reset();
    m_xvfb.reset();
}

qint64 TestAccessibilityE2e::fixturePid() const
{
    if (!m_fixture)
        return -1;
    for (const QJsonObject& line : m_fixture->allLines()) {
        if (line.contains(QStringLiteral("pid")))
            return line.value(QStringLiteral("pid")).toInteger();
    }
    return -1;
}

QList<platform::WindowInfo> TestAccessibilityE2e::windows()
{
    return m_platform->windows().topLevelWindows();
}

canvas::AccessibilityZones TestAccessibilityE2e::zonesNow()
{
    canvas::AccessibilityScene scene;
    scene.windows = windows();
    scene.screen = QRect(QPoint(0, 0), m_platform->screen().grab().size());
    scene.ownPid = QCoreApplication::applicationPid();
    return canvas::zonesFromAccessibility(*m_a11y->snapshot(), scene);
}

void TestAccessibilityE2e::click(const QPoint& p)
{
    int code = -1;
    QVERIFY(run(QStringLiteral("xdotool"),
                {QStringLiteral("mousemove"), QString::number(p.x()), QString::number(p.y()),
                 QStringLiteral("click"), QStringLiteral("1")},
                m_xvfb->environment(), nullptr, nullptr, &code));
    QCOMPARE(code, 0);
}

void TestAccessibilityE2e::fixtureWidgetsAreZones()
{
    QVERIFY(m_fixture->refreshWidgets());
    const canvas::AccessibilityZones result = zonesNow();
    QVERIFY(!result.zones.isEmpty());
    int matched = 0;
    QStringList missing;
    for (const FixtureApp::Widget& w : m_fixture->widgets()) {
        const Zone* found = nullptr;
        for (const Zone& z : result.zones) {
            if (isZoneOf(z, w))
                found = &z;
        }
        if (!found) {
            missing << QStringLiteral("%1 %2,%3 %4x%5")
                           .arg(w.name)
                           .arg(w.rect.x())
                           .arg(w.rect.y())
                           .arg(w.rect.width())
                           .arg(w.rect.height());
            continue;
        }
        ++matched;
        QCOMPARE(toString(found->type), w.type);
        QCOMPARE(int(found->source), int(ZoneSource::Accessibility));
        // The fixture's label is what it shows; a field's placeholder and a slider's tag are no
        // accessible names.
        if (w.type != QLatin1String("text_field") && w.type != QLatin1String("slider") &&
            w.type != QLatin1String("scroll_area"))
            QCOMPARE(found->label, w.label);
    }
    QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("no zone with the geometry of: ") +
                                           missing.join(QStringLiteral("; "))));
    QCOMPARE(matched, int(m_fixture->widgets().size()));
    // The initial state: nothing checked, the name field has the focus or not, but every check box is a
    // check box with its state known.
    for (const Zone& z : result.zones) {
        if (z.role == QLatin1String("check box"))
            QVERIFY(z.state.testFlag(ZoneStateFlag::Checked) || z.state.testFlag(ZoneStateFlag::Unchecked));
    }
}

void TestAccessibilityE2e::toggleUpdatesMapByEvent()
{
    canvas::CanvasMapper mapper;
    mapper.setAccessibility(platform::createAccessibility());
    QVERIFY(mapper.accessibility()->isAvailable());
    mapper.onWindows(windows(), m_platform->windows().activeWindow());
    Frame frame;
    frame.index = 1;
    frame.tNs = 1;
    frame.image = m_platform->screen().grab();
    mapper.onFrame(frame);
    const qint64 pid = fixturePid();
    const auto subscribeZone = [&mapper]() -> std::optional<Zone> {
        for (const Zone& z : mapper.currentMap()->zones()) {
            if (z.role == QLatin1String("check box") && z.label == QLatin1String("Subscribe"))
                return z;
        }
        return std::nullopt;
    };
    QTRY_VERIFY_WITH_TIMEOUT(subscribeZone().has_value(), 20'000);
    const Zone before = *subscribeZone();
    QVERIFY(before.state.testFlag(ZoneStateFlag::Unchecked));
    QCOMPARE(int(before.source), int(ZoneSource::Accessibility));
    const platform::AccessibilityStats stats = mapper.accessibility()->snapshot()->stats;

    m_fixture->clearPending();
    click(before.bounds.center());
    const auto toggled = m_fixture->waitFor([](const QJsonObject& o) {
        return o.value(QStringLiteral("event")) == QLatin1String("toggled") &&
               o.value(QStringLiteral("name")) == QLatin1String("subscribe");
    });
    QVERIFY(toggled);
    QVERIFY(toggled->value(QStringLiteral("checked")).toBool());
    // The map follows by the tree's event: same zone (id), now checked; no walk of anything.
    QTRY_VERIFY_WITH_TIMEOUT(subscribeZone() && subscribeZone()->state.testFlag(ZoneStateFlag::Checked),
                             10'000);
    const Zone after = *subscribeZone();
    QCOMPARE(after.id, before.id);
    QVERIFY(!after.state.testFlag(ZoneStateFlag::Unchecked));
    const platform::AccessibilityStats now = mapper.accessibility()->snapshot()->stats;
    QCOMPARE(now.fullWalks, stats.fullWalks);
    QCOMPARE(now.windowWalks, stats.windowWalks);
    QVERIFY(now.nodeUpdates > stats.nodeUpdates || now.subtreeWalks > stats.subtreeWalks);
    QVERIFY(nodeWith(mapper.accessibility()->snapshot(), pid, QStringLiteral("check box"),
                     QStringLiteral("Subscribe"))
                ->hasState(QStringLiteral("checked")));

    // The repaint of the box is a change of the screen that the tree explains: no tier 1, no OCR. Every
    // changed pixel is reported (threshold 0) so the change reaches the mapper.
    QVERIFY(m_fixture->sync());
    Frame repainted;
    repainted.index = 2;
    repainted.tNs = 2;
    repainted.image = m_platform->screen().grab();
    capture::ChangeDetector detector;
    capture::ChangeDetectorSettings settings;
    settings.thresholdPercent = 0.0;
    QVERIFY(detector.setSettings(settings));
    detector.process(frame);
    const capture::ChangeDetector::Result change = detector.process(repainted);
    QVERIFY(change.reported);
    QVERIFY(std::any_of(change.diff.regions.cbegin(), change.diff.regions.cend(),
                        [&](const ChangeRegion& c) { return c.rect.intersects(after.bounds); }));
    const auto analyses = [](CanvasMapper& m, const FrameDiff& diff, const Frame& f) {
        QSignalSpy events(&m, &canvas::CanvasMapper::eventOccurred);
        QSignalSpy keyFrames(&m, &canvas::CanvasMapper::keyFrameAnalysed);
        m.onFrame(f);
        m.onChanges(diff);
        int local = int(keyFrames.count());
        for (const QList<QVariant>& args : std::as_const(events)) {
            const auto e = args.at(0).value<SpatialEvent>();
            if (e.kind == SpatialEvent::Kind::Analysis && e.data.value(QStringLiteral("tier")).toInt() > 0)
                ++local;
        }
        return local;
    };
    QCOMPARE(analyses(mapper, change.diff, repainted), 0);
    QCOMPARE(mapper.accessibility()->snapshot()->stats.fullWalks, stats.fullWalks);
    // A change over a container is not one widget's own look: something may have opened above its widgets (a
    // popup list over a dialog, its rows not in the tree yet). Vision looks there.
    std::optional<Zone> container;
    const QList<Zone> zones = mapper.currentMap()->zones();
    for (const Zone& z : zones) {
        if (z.source == ZoneSource::Accessibility &&
            std::any_of(zones.cbegin(), zones.cend(), [&z](const Zone& c) { return c.parentId == z.id; }))
            container = z;
    }
    QVERIFY(container);
    FrameDiff across = change.diff;
    across.frameIndex = 3;
    across.tNs = 3;
    const QRect acrossRect = container->bounds.adjusted(2, 2, -2, -2);
    across.regions = {ChangeRegion{acrossRect, 40.0, false}};
    across.totalPercent = 40.0 * acrossRect.width() * acrossRect.height() /
                          (double(repainted.image.width()) * repainted.image.height());
    Frame again = repainted;
    again.index = 3;
    again.tNs = 3;
    QVERIFY(analyses(mapper, across, again) > 0);
    // The same change without the tree (the box a known zone of vision's): read again by tier 1.
    canvas::CanvasMapper visionOnly;
    visionOnly.onFrame(frame);
    Zone known = before;
    known.source = ZoneSource::User;
    visionOnly.applyUserCorrection(known);
    QVERIFY(analyses(visionOnly, change.diff, repainted) > 0);
}

void TestAccessibilityE2e::tabDialogAndMenuByEvent()
{
    const qint64 pid = fixturePid();
    const platform::AccessibilityStats stats = m_a11y->snapshot()->stats;
    QVERIFY(m_fixture->refreshWidgets());

    // A tab switch: the second page's widgets appear with the geometry the fixture reports.
    const auto tab = m_fixture->widget(QStringLiteral("tab_second"));
    QVERIFY(tab);
    m_fixture->clearPending();
    click(tab->rect.center());
    QVERIFY(m_fixture->waitForEvent(QStringLiteral("tab_changed")));
    QVERIFY(m_fixture->refreshWidgets());
    QList<FixtureApp::Widget> secondPage;
    for (const FixtureApp::Widget& w : m_fixture->widgets()) {
        if (w.type == QLatin1String("button") || w.type == QLatin1String("checkbox") ||
            w.type == QLatin1String("text_field"))
            secondPage << w;
    }
    QVERIFY(!secondPage.isEmpty());
    const auto allShown = [&] {
        const canvas::AccessibilityZones zones = zonesNow();
        for (const FixtureApp::Widget& w : std::as_const(secondPage)) {
            const bool found = std::any_of(zones.zones.cbegin(), zones.zones.cend(),
                                           [&w](const Zone& z) { return isZoneOf(z, w); });
            if (!found)
                return false;
        }
        return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(allShown(), 10'000);

    // A dialog: its buttons appear where the fixture says.
    m_fixture->send(QStringLiteral("open-dialog"));
    QVERIFY(m_fixture->waitForEvent(QStringLiteral("dialog_opened")));
    QVERIFY(m_fixture->refreshWidgets());
    const auto yes = m_fixture->widget(QStringLiteral("yes"));
    QVERIFY(yes);
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto n =
                nodeWith(m_a11y->snapshot(), pid, QStringLiteral("push button"), QStringLiteral("Yes"));
            return n && n->bounds == yes->rect;
        }(),
        10'000);
    click(yes->rect.center());
    QVERIFY(m_fixture->waitForEvent(QStringLiteral("dialog_closed")));
    QTRY_VERIFY_WITH_TIMEOUT(
        !nodeWith(m_a11y->snapshot(), pid, QStringLiteral("push button"), QStringLiteral("Yes")), 10'000);

    // A menu: the popup's items appear (a window the window manager does not list).
    const auto file = m_fixture->widget(QStringLiteral("menu_file"));
    QVERIFY(file);
    click(file->rect.center());
    const auto menuItemsShown = [&] {
        const canvas::AccessibilityZones zones = zonesNow();
        return std::count_if(zones.zones.cbegin(), zones.zones.cend(), [&](const Zone& z) {
                   return z.role == QLatin1String("menu item") && z.bounds.top() >= file->rect.bottom();
               }) > 0;
    };
    QTRY_VERIFY_WITH_TIMEOUT(menuItemsShown(), 10'000);
    run(QStringLiteral("xdotool"), {QStringLiteral("key"), QStringLiteral("Escape")}, m_xvfb->environment());
    QTRY_VERIFY_WITH_TIMEOUT(!menuItemsShown(), 10'000);

    const platform::AccessibilityStats now = m_a11y->snapshot()->stats;
    QCOMPARE(now.fullWalks, stats.fullWalks); // all of it by events
}

// A program that reports a node outside its own window (Qt maps a menu bar's items before the window
// manager has placed the window) and corrects itself without an event: the node is read again, and its
// zone appears where the widget is.
void TestAccessibilityE2e::misplacedNodeIsReadAgain()
{
    m_fixture->send(QStringLiteral("add-drifting -3000 -3000"));
    const auto added = m_fixture->waitForEvent(QStringLiteral("drifting_added"));
    QVERIFY(added);
    const QRect truth = rectFromJson(added->value(QStringLiteral("rect")).toObject());
    const qint64 pid = fixturePid();
    const QString button = QStringLiteral("push button");
    const QString name = QStringLiteral("Drifting");
    // As the program reports it: far off its window, so not a zone.
    QTRY_VERIFY_WITH_TIMEOUT(nodeWith(m_a11y->snapshot(), pid, button, name), 10'000);
    QCOMPARE(nodeWith(m_a11y->snapshot(), pid, button, name)->bounds, truth.translated(-3000, -3000));
    const auto hasZone = [&] {
        const canvas::AccessibilityZones result = zonesNow();
        return std::any_of(result.zones.cbegin(), result.zones.cend(),
                           [&](const Zone& z) { return z.label == name && z.bounds == truth; });
    };
    QVERIFY(!hasZone());
    m_fixture->send(QStringLiteral("settle-drifting"));
    QVERIFY(m_fixture->waitForEvent(QStringLiteral("drifting_settled")));
    QTRY_COMPARE_WITH_TIMEOUT(nodeWith(m_a11y->snapshot(), pid, button, name)->bounds, truth, 10'000);
    QTRY_VERIFY_WITH_TIMEOUT(hasZone(), 5'000);
}

void TestAccessibilityE2e::windowAboveHidesZones()
{
    QVERIFY(m_fixture->refreshWidgets());
    const auto subscribe = m_fixture->widget(QStringLiteral("subscribe"));
    QVERIFY(subscribe);
    m_fixture->send(QStringLiteral("open-window"));
    const auto opened = m_fixture->waitForEvent(QStringLiteral("window_opened"));
    QVERIFY(opened);
    const QRect second = rectFromJson(opened->value(QStringLiteral("client")).toObject());
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const QList<platform::WindowInfo> list = windows();
            return !list.isEmpty() && list.last().geometry == second;
        }(),
        10'000);
    const qint64 pid = fixturePid();
    QTRY_VERIFY_WITH_TIMEOUT(
        nodeWith(m_a11y->snapshot(), pid, QStringLiteral("push button"), QStringLiteral("Close me")), 10'000);
    // The main window's tree as the walks have it once the new window is in: a program that has just started
    // may still be filling it (its menu bar a walk later), so wait until what the new window does not cover
    // is there. Occlusion is then checked on that map.
    canvas::AccessibilityZones result;
    const QList<FixtureApp::Widget> widgets = m_fixture->widgets();
    QString missing; // the uncovered widgets without a zone, and the zones over them
    const auto uncoveredShown = [&] {
        result = zonesNow();
        missing.clear();
        for (const FixtureApp::Widget& w : widgets) {
            if (second.intersects(w.rect) || std::any_of(result.zones.cbegin(), result.zones.cend(),
                                                         [&w](const Zone& z) { return isZoneOf(z, w); }))
                continue;
            missing += QStringLiteral("%1 at %2,%3 %4x%5;")
                           .arg(w.name)
                           .arg(w.rect.x())
                           .arg(w.rect.y())
                           .arg(w.rect.width())
                           .arg(w.rect.height());
            for (const Zone& z : result.zones) {
                if (z.bounds.intersects(w.rect))
                    missing += QStringLiteral(" zone \"%1\" (%2) at %3,%4 %5x%6;")
                                   .arg(z.label, z.role)
                                   .arg(z.bounds.x())
                                   .arg(z.bounds.y())
                                   .arg(z.bounds.width())
                                   .arg(z.bounds.height());
            }
            // And what the tree has there or under that name: stale bounds, a state or a missing node.
            for (const AccessibleNode& n : nodesOf(m_a11y->snapshot(), pid)) {
                if (n.bounds.intersects(w.rect) || (!w.label.isEmpty() && n.name == w.label))
                    missing += QStringLiteral(" node \"%1\" (%2) at %3,%4 %5x%6 [%7];")
                                   .arg(n.name, n.role)
                                   .arg(n.bounds.x())
                                   .arg(n.bounds.y())
                                   .arg(n.bounds.width())
                                   .arg(n.bounds.height())
                                   .arg(n.states.join(QLatin1Char(',')));
            }
        }
        return missing.isEmpty();
    };
    // The menu bar's items may first be read at the window's position before the window manager placed it
    // (outside the window, so not zones): they are read again (misplacedNodeIsReadAgain).
    QTRY_VERIFY2_WITH_TIMEOUT(uncoveredShown(), qPrintable(missing), 10'000);
    QVERIFY(!result.zones.isEmpty());
    bool closeMe = false;
    for (const Zone& z : result.zones) {
        closeMe = closeMe || z.label == QLatin1String("Close me");
        if (z.label == QLatin1String("Close me"))
            continue;
        // Nothing of the main window shows through the second one.
        QVERIFY2(!second.contains(z.bounds.center()), qPrintable(z.label));
    }
    QVERIFY(closeMe);
    // What the second window covers entirely is gone; what it does not cover is still there.
    for (const FixtureApp::Widget& w : m_fixture->widgets()) {
        const bool has = std::any_of(result.zones.cbegin(), result.zones.cend(),
                                     [&w](const Zone& z) { return isZoneOf(z, w); });
        if (second.contains(w.rect))
            QVERIFY2(!has, qPrintable(w.name));
        else if (!second.intersects(w.rect))
            QVERIFY2(has, qPrintable(w.name));
    }
}

void TestAccessibilityE2e::hungProgramIsServedByVision()
{
    const qint64 pid = fixturePid();
    canvas::CanvasMapper mapper;
    mapper.setAccessibility(platform::createAccessibility());
    mapper.onWindows(windows(), m_platform->windows().activeWindow());
    Frame frame;
    frame.index = 1;
    frame.tNs = 1;
    frame.image = m_platform->screen().grab();
    mapper.onFrame(frame);
    const auto treeZones = [&mapper] {
        return std::count_if(mapper.currentMap()->zones().cbegin(), mapper.currentMap()->zones().cend(),
                             [](const Zone& z) { return z.source == ZoneSource::Accessibility; });
    };
    QTRY_VERIFY_WITH_TIMEOUT(treeZones() > 0, 20'000);

    // Each map the canvas publishes while the tree says the program is slow: is the window served by
    // vision (zones of tier 1 there, none of the tree)?
    const QRect window = m_fixture->windowRect();
    QVERIFY(!window.isEmpty());
    int mapsWhileSlow = 0;
    int servedByVision = 0;
    int staleStates = 0; // zones of the window still carrying a state only the tree could tell
    connect(&mapper, &CanvasMapper::zoneMapUpdated, this, [&](const ZoneMapPtr& map) {
        if (mapper.accessibility()->snapshot()->slowApplications.isEmpty())
            return;
        ++mapsWhileSlow;
        bool tree = false;
        bool vision = false;
        for (const Zone& z : map->zones()) {
            if (!window.contains(z.bounds.center()))
                continue;
            tree = tree || z.source == ZoneSource::Accessibility;
            vision = vision || z.source == ZoneSource::Local;
            if (z.source == ZoneSource::Local && z.state.testFlag(ZoneStateFlag::Disabled))
                ++staleStates;
        }
        if (vision && !tree)
            ++servedByVision;
    });

    // The tree says Submit is disabled; then the program stops answering, and Submit is enabled again
    // meanwhile would never be told: vision's zones must not keep the tree's old word.
    m_fixture->send(QStringLiteral("enable submit 0"));
    QVERIFY(m_fixture->waitForEvent(QStringLiteral("enabled")));
    const QRect submit = m_fixture->widget(QStringLiteral("submit")).value_or(FixtureApp::Widget()).rect;
    QTRY_VERIFY_WITH_TIMEOUT(
        std::any_of(mapper.currentMap()->zones().cbegin(), mapper.currentMap()->zones().cend(),
                    [&submit](const Zone& z) {
                        return z.source == ZoneSource::Accessibility && z.bounds.intersects(submit) &&
                               z.state.testFlag(ZoneStateFlag::Disabled);
                    }),
        10'000);
    m_fixture->clearPending();
    m_fixture->send(QStringLiteral("block 10000"));
    QVERIFY(m_fixture->waitForEvent(QStringLiteral("blocking")));
    // A walk now meets a program that does not answer: it is marked slow and its tree is dropped, and this
    // thread (the mapper's) never waits.
    m_a11y->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(!m_a11y->snapshot()->slowApplications.isEmpty(), 8'000);
    QVERIFY(nodesOf(m_a11y->snapshot(), pid).isEmpty());
    // The canvas serves the window by vision meanwhile: its tree zones are replaced by what tier 1 reads.
    QTRY_VERIFY_WITH_TIMEOUT(servedByVision > 0, 8'000);
    QCOMPARE(servedByVision, mapsWhileSlow);
    QCOMPARE(staleStates, 0);
    QVERIFY(m_fixture->waitForEvent(QStringLiteral("unblocked"), 15'000));
    // Answering again: the tree is back after the retry.
    QTRY_VERIFY_WITH_TIMEOUT(
        m_a11y->snapshot()->slowApplications.isEmpty() &&
            nodeWith(m_a11y->snapshot(), pid, QStringLiteral("check box"), QStringLiteral("Subscribe")),
        20'000);
}

void TestAccessibilityE2e::hungProgramBesideLiveOne()
{
    // Two programs mapped: this case's fixture, which will stop answering, and a second one above it on the
    // right, which keeps answering (placed by Qt's own X11 option: -geometry WxH+X+Y).
    const qint64 hungPid = fixturePid();
    FixtureApp live;
    QVERIFY2(live.start(m_xvfb->accessibleEnvironment(),
                        {QStringLiteral("--geometry"), QStringLiteral("700x600+570+150")}),
             qPrintable(live.errorString()));
    qint64 livePid = -1;
    for (const QJsonObject& line : live.allLines()) {
        if (line.contains(QStringLiteral("pid")))
            livePid = line.value(QStringLiteral("pid")).toInteger();
    }
    QVERIFY(livePid > 0 && livePid != hungPid);
    const auto forgetLive = qScopeGuard([&] { m_pastPids << livePid; });
    QTRY_VERIFY_WITH_TIMEOUT(
        nodeWith(m_a11y->snapshot(), livePid, QStringLiteral("check box"), QStringLiteral("Subscribe")),
        20'000);
    QVERIFY(m_fixture->refreshWidgets());
    QVERIFY(live.refreshWidgets());
    const QRect liveWindow = live.windowRect();
    // What a person sees of the program that will hang: its window minus the live one's above it.
    const QRegion hungShown = QRegion(m_fixture->windowRect()) - QRegion(liveWindow.adjusted(-8, -40, 8, 8));
    QVERIFY(!hungShown.isEmpty());
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const QList<platform::WindowInfo> list = windows();
            return std::any_of(list.cbegin(), list.cend(), [&](const platform::WindowInfo& w) {
                return w.pid == livePid && w.geometry.intersects(liveWindow);
            });
        }(),
        10'000);

    canvas::CanvasMapper mapper;
    mapper.setAccessibility(platform::createAccessibility());
    mapper.onWindows(windows(), m_platform->windows().activeWindow());
    Frame frame;
    frame.index = 1;
    frame.tNs = 1;
    frame.image = m_platform->screen().grab();
    mapper.onFrame(frame);
    const auto liveSubscribe = [&]() -> std::optional<Zone> {
        for (const Zone& z : mapper.currentMap()->zones()) {
            if (z.role == QLatin1String("check box") && z.label == QLatin1String("Subscribe") &&
                liveWindow.contains(z.bounds.center()))
                return z;
        }
        return std::nullopt;
    };
    // Zones of the hung program's visible part, by source.
    const auto hungZones = [&](ZoneSource source) {
        const QList<Zone> zones = mapper.currentMap()->zones();
        return std::count_if(zones.cbegin(), zones.cend(), [&](const Zone& z) {
            return z.source == source && hungShown.contains(z.bounds.center());
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(liveSubscribe() && hungZones(ZoneSource::Accessibility) > 0, 20'000);
    QCOMPARE(int(liveSubscribe()->source), int(ZoneSource::Accessibility));

    m_fixture->clearPending();
    m_fixture->send(QStringLiteral("block 15000"));
    QVERIFY(m_fixture->waitForEvent(QStringLiteral("blocking")));
    m_a11y->refresh();
    QTRY_VERIFY_WITH_TIMEOUT(!m_a11y->snapshot()->slowApplications.isEmpty(), 8'000);
    // Only the hung program is dropped from the tree; the live one's nodes stay.
    QVERIFY(nodesOf(m_a11y->snapshot(), hungPid).isEmpty());
    QVERIFY(nodeWith(m_a11y->snapshot(), livePid, QStringLiteral("check box"), QStringLiteral("Subscribe")));
    // The canvas serves the hung window by vision, the live one still by the tree.
    QTRY_VERIFY_WITH_TIMEOUT(hungZones(ZoneSource::Accessibility) == 0 && hungZones(ZoneSource::Local) > 0,
                             10'000);
    const Zone before = *liveSubscribe();
    QCOMPARE(int(before.source), int(ZoneSource::Accessibility));
    QVERIFY(before.state.testFlag(ZoneStateFlag::Unchecked));
    const platform::AccessibilityStats stats = mapper.accessibility()->snapshot()->stats;

    // A toggle in the live program reaches the map by the tree's event while the other one still hangs.
    live.clearPending();
    click(before.bounds.center());
    const auto toggled = live.waitFor([](const QJsonObject& o) {
        return o.value(QStringLiteral("event")) == QLatin1String("toggled") &&
               o.value(QStringLiteral("name")) == QLatin1String("subscribe");
    });
    QVERIFY(toggled);
    QVERIFY(toggled->value(QStringLiteral("checked")).toBool());
    QTRY_VERIFY_WITH_TIMEOUT(liveSubscribe() && liveSubscribe()->state.testFlag(ZoneStateFlag::Checked),
                             5'000);
    const Zone after = *liveSubscribe();
    QCOMPARE(after.id, before.id);
    QCOMPARE(int(after.source), int(ZoneSource::Accessibility));
    const platform::AccessibilityStats now = mapper.accessibility()->snapshot()->stats;
    QCOMPARE(now.fullWalks, stats.fullWalks);
    QVERIFY(now.nodeUpdates > stats.nodeUpdates || now.subtreeWalks > stats.subtreeWalks);
    // All of that happened while the first program was still hanging (it has not said "unblocked").
    const QList<QJsonObject> hungLines = m_fixture->pending();
    QVERIFY(std::none_of(hungLines.cbegin(), hungLines.cend(), [](const QJsonObject& o) {
        return o.value(QStringLiteral("event")) == QLatin1String("unblocked");
    }));
    QVERIFY(!mapper.accessibility()->snapshot()->slowApplications.isEmpty());
    QCOMPARE(hungZones(ZoneSource::Accessibility), 0);

    // The hung program answers again: its tree zones come back, the live one's are untouched.
    QVERIFY(m_fixture->waitForEvent(QStringLiteral("unblocked"), 20'000));
    QTRY_VERIFY_WITH_TIMEOUT(
        m_a11y->snapshot()->slowApplications.isEmpty() &&
            nodeWith(m_a11y->snapshot(), hungPid, QStringLiteral("check box"), QStringLiteral("Subscribe")),
        20'000);
    QTRY_VERIFY_WITH_TIMEOUT(hungZones(ZoneSource::Accessibility) > 0, 10'000);
    QVERIFY(liveSubscribe() && liveSubscribe()->state.testFlag(ZoneStateFlag::Checked));
    QCOMPARE(liveSubscribe()->id, before.id);
}

void TestAccessibilityE2e::gtkTreeKeepsItsNodesAfterStartup()
{
    // GTK reports "defunct" cleared (object:state-changed:defunct, detail 0) for the objects of a window
    // just after they are first read: they are there, not gone. Read as gone, the dialog's whole content
    // left the map for good (a list dialog's rows never came back: "no zone matches Cherry").
    const QString python =
        QStandardPaths::findExecutable(QStringLiteral("python3"), {QStringLiteral("/usr/bin")});
    QVERIFY2(!python.isEmpty(), "/usr/bin/python3 is not installed");
    QProcess gtk;
    gtk.setProcessEnvironment(m_xvfb->accessibleEnvironment());
    gtk.setStandardErrorFile(QProcess::nullDevice());
    gtk.start(python, {QStringLiteral(CIU_SOURCE_DIR "/tests/support/gtklistdialog.py")});
    QVERIFY2(gtk.waitForStarted(), qPrintable(gtk.errorString()));
    const auto stop = qScopeGuard([&gtk] {
        gtk.kill();
        gtk.waitForFinished(5000);
    });
    QByteArray out;
    const auto printed = [&](const QByteArray& line) {
        out += gtk.readAllStandardOutput();
        return out.split('\n').contains(line);
    };
    QTRY_VERIFY2_WITH_TIMEOUT(printed("ready"), "python3-gi (gir1.2-gtk-3.0) is not installed", 20'000);
    const qint64 pid = gtk.processId();
    const QStringList rows = {QStringLiteral("Apple"), QStringLiteral("Banana"), QStringLiteral("Cherry")};
    const auto rowsInTree = [&] {
        const AccessibilitySnapshotPtr s = m_a11y->snapshot();
        return std::all_of(rows.cbegin(), rows.cend(), [&](const QString& row) {
            return nodeWith(s, pid, QStringLiteral("table cell"), row).has_value();
        });
    };
    QTRY_VERIFY_WITH_TIMEOUT(rowsInTree(), 20'000);
    // The program's events up to now have been applied once its status window shows a new label: D-Bus
    // keeps one sender's messages in order, and that change touches another window only.
    gtk.write("status synced\n");
    QTRY_VERIFY_WITH_TIMEOUT(printed("status synced"), 10'000);
    QTRY_VERIFY_WITH_TIMEOUT(
        nodeWith(m_a11y->snapshot(), pid, QStringLiteral("label"), QStringLiteral("synced")), 10'000);
    QVERIFY(rowsInTree());
    QStringList zoned;
    for (const Zone& z : zonesNow().zones) {
        if (z.source == ZoneSource::Accessibility && rows.contains(z.label))
            zoned << z.label;
    }
    zoned.sort();
    QCOMPARE(zoned, rows);
}

void TestAccessibilityE2e::gtkProgramMaps()
{
    // Programs have come and gone on the bus: one fixture per earlier case, and one more killed outright
    // (no goodbye to the bus) right before the GTK program starts.
    QVERIFY(m_pastPids.size() >= 5);
    {
        FixtureApp killed;
        QVERIFY2(killed.start(m_xvfb->accessibleEnvironment()), qPrintable(killed.errorString()));
        qint64 killedPid = -1;
        for (const QJsonObject& line : killed.allLines()) {
            if (line.contains(QStringLiteral("pid")))
                killedPid = line.value(QStringLiteral("pid")).toInteger();
        }
        QVERIFY(killedPid > 0);
        QTRY_VERIFY_WITH_TIMEOUT(!nodesOf(m_a11y->snapshot(), killedPid).isEmpty(), 20'000);
        QVERIFY(::kill(pid_t(killedPid), SIGKILL) == 0);
        m_pastPids << killedPid;
    }
    // Every one of them is dropped from the tree as soon as it leaves, without waiting for it.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const AccessibilitySnapshotPtr s = m_a11y->snapshot();
            return std::all_of(m_pastPids.cbegin(), m_pastPids.cend(),
                               [&](qint64 pid) { return nodesOf(s, pid).isEmpty(); });
        }(),
        10'000);
    const platform::AccessibilityStats before = m_a11y->snapshot()->stats;

    QProcess gtk;
    gtk.setProcessEnvironment(m_xvfb->accessibleEnvironment());
    gtk.setStandardOutputFile(QProcess::nullDevice());
    gtk.setStandardErrorFile(QProcess::nullDevice());
    gtk.start(QStringLiteral("gtk3-widget-factory"), {});
    QVERIFY2(gtk.waitForStarted(), "gtk3-widget-factory (gtk-3-examples) is not installed");
    const qint64 pid = gtk.processId();
    const auto gtkCheckBoxes = [&] {
        QList<Zone> boxes;
        for (const Zone& z : zonesNow().zones) {
            if (z.role == QLatin1String("check box") && z.windowId != 0 && !z.label.isEmpty() &&
                nodeWith(m_a11y->snapshot(), pid, z.role, z.label))
                boxes << z;
        }
        return boxes;
    };
    QTRY_VERIFY_WITH_TIMEOUT(!gtkCheckBoxes().isEmpty(), 90'000);
    const QList<Zone> boxes = gtkCheckBoxes();
    const QRect screen(QPoint(0, 0), m_platform->screen().grab().size());
    for (const Zone& z : boxes)
        QVERIFY(screen.contains(z.bounds));
    // Nothing waited for a call to time out on the way: no program was taken for a slow one.
    const AccessibilitySnapshotPtr mapped = m_a11y->snapshot();
    QCOMPARE(mapped->stats.timeouts, before.timeouts);
    QVERIFY2(mapped->slowApplications.isEmpty(), qPrintable(mapped->slowApplications.join(QLatin1Char(','))));
    // Walk after walk, the program answers every call. libatspi talks to a GTK program over a connection
    // of its own that it hands to the process's default GLib context, which this thread iterates while it
    // waits (as the app's main thread does): when both threads read that connection, a reply went to the
    // wrong one and about one walk in three took the program for a slow one (zenity's list read as empty).
    const Zone probe = boxes.first();
    for (int walk = 0; walk < 6; ++walk) {
        const int walksBefore = m_a11y->snapshot()->stats.fullWalks;
        m_a11y->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(m_a11y->snapshot()->stats.fullWalks > walksBefore, 30'000);
        const AccessibilitySnapshotPtr again = m_a11y->snapshot();
        QCOMPARE(again->stats.timeouts, before.timeouts);
        QVERIFY2(again->slowApplications.isEmpty(),
                 qPrintable(again->slowApplications.join(QLatin1Char(','))));
        QVERIFY2(nodeWith(again, pid, probe.role, probe.label), qPrintable(probe.label));
    }
    gtk.terminate();
    gtk.waitForFinished(5000);
    QTRY_VERIFY_WITH_TIMEOUT(nodesOf(m_a11y->snapshot(), pid).isEmpty(), 10'000);
}

void TestAccessibilityE2e::noBusFallsBackWithOneWarning()
{
    QProcessEnvironment env = m_xvfb->environment();
    for (const char* name : {"DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "XDG_RUNTIME_DIR"})
        env.remove(QLatin1String(name));
    env.insert(QStringLiteral("CIU_PLATFORM"), QStringLiteral("x11"));
    QByteArray out, err;
    int code = -1;
    QVERIFY(run(QStringLiteral(CIU_AGENT_BIN), {QStringLiteral("analyze"), QStringLiteral("--json")}, env,
                &out, &err, &code));
    QCOMPARE(code, 0);
    const QList<QByteArray> lines = err.split('\n');
    const qsizetype warnings = std::count_if(lines.cbegin(), lines.cend(), [](const QByteArray& l) {
        return l.contains("accessibility") || l.contains("AT-SPI") || l.contains("at-spi");
    });
    QVERIFY2(warnings == 1, err.constData());
    QVERIFY(err.contains("no D-Bus session bus"));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(out, &parseError);
    QVERIFY2(doc.isArray(), qPrintable(parseError.errorString()));
    QVERIFY(!doc.array().isEmpty()); // vision still maps the fixture
    for (const QJsonValue& v : doc.array())
        QVERIFY(v.toObject().value(QStringLiteral("source")).toString() != QLatin1String("accessibility"));

    // Asked for the tree only: a clear error, nothing else.
    QVERIFY(run(QStringLiteral(CIU_AGENT_BIN),
                {QStringLiteral("analyze"), QStringLiteral("--source"), QStringLiteral("atspi")}, env, &out,
                &err, &code));
    QCOMPARE(code, 1);
    QVERIFY2(err.contains("no accessibility tree: no D-Bus session bus"), err.constData());
    QVERIFY(out.isEmpty());

    // And with the bus, the same command reports tree zones with role and value.
    env = m_xvfb->environment();
    QVERIFY(run(QStringLiteral(CIU_AGENT_BIN),
                {QStringLiteral("analyze"), QStringLiteral("--json"), QStringLiteral("--source"),
                 QStringLiteral("atspi")},
                env, &out, &err, &code));
    QVERIFY2(code == 0, err.constData());
    const QJsonArray zones = QJsonDocument::fromJson(out).array();
    const bool subscribe = std::any_of(zones.cbegin(), zones.cend(), [](const QJsonValue& v) {
        const QJsonObject o = v.toObject();
        return o.value(QStringLiteral("source")) == QLatin1String("accessibility") &&
               o.value(QStringLiteral("role")) == QLatin1String("check box") &&
               o.value(QStringLiteral("label")) == QLatin1String("Subscribe");
    });
    QVERIFY2(subscribe, out.constData());
}

void TestAccessibilityE2e::stoppedRegistryFallsBack()
{
    // This session's AT-SPI registry, stopped: it keeps its name on the bus and answers nothing. The agent
    // says so after a bounded wait and maps by vision (libatspi alone would wait 25 s per listener it
    // registers, minutes in all).
    QByteArray out, err;
    int code = -1;
    const QString address = accessibilityBusAddress(&err);
    QVERIFY2(!address.isEmpty(), err.constData());
    QVERIFY(run(QStringLiteral("dbus-send"),
                {QStringLiteral("--bus=") + address, QStringLiteral("--print-reply"),
                 QStringLiteral("--dest=org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
                 QStringLiteral("org.freedesktop.DBus.GetConnectionUnixProcessID"),
                 QStringLiteral("string:org.a11y.atspi.Registry")},
                QProcessEnvironment::systemEnvironment(), &out, &err, &code));
    QVERIFY2(code == 0, err.constData());
    const qint64 registry = out.mid(out.lastIndexOf("uint32") + 6).trimmed().toLongLong();
    QVERIFY2(registry > 0, out.constData());
    QCOMPARE(::kill(pid_t(registry), SIGSTOP), 0);
    const auto resume = qScopeGuard([registry] { ::kill(pid_t(registry), SIGCONT); });

    QProcessEnvironment env = m_xvfb->environment();
    env.insert(QStringLiteral("CIU_PLATFORM"), QStringLiteral("x11"));
    QVERIFY(run(QStringLiteral(CIU_AGENT_BIN),
                {QStringLiteral("analyze"), QStringLiteral("--source"), QStringLiteral("atspi")}, env, &out,
                &err, &code));
    QCOMPARE(code, 1);
    QVERIFY2(err.contains("no accessibility tree: the AT-SPI registry (org.a11y.atspi.Registry) does not "
                          "answer on the accessibility bus"),
             err.constData());
    QVERIFY(out.isEmpty());
    QVERIFY(run(QStringLiteral(CIU_AGENT_BIN), {QStringLiteral("analyze"), QStringLiteral("--json")}, env,
                &out, &err, &code));
    QVERIFY2(code == 0, err.constData());
    const QJsonArray zones = QJsonDocument::fromJson(out).array();
    QVERIFY(!zones.isEmpty()); // vision maps the fixture
    for (const QJsonValue& v : zones)
        QVERIFY(v.toObject().value(QStringLiteral("source")).toString() != QLatin1String("accessibility"));
}

QTEST_MAIN(TestAccessibilityE2e)
#include "tst_accessibility_e2e.moc"
