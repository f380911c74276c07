// BrushController on the synthetic platform: the scene plays the desktop and, through moveCursor(), the
// human at the mouse.

#include "core/brush/brushcontroller.h"
#include "core/model/metatypes.h"
#include "platform/synthetic/syntheticscene.h"

#include <QJsonDocument>
#include <QTest>
#include <QTimer>

using namespace ciu;
using platform::SyntheticScene;

namespace {

constexpr int kWaitMs = 5000;

ZoneType zoneTypeOf(SyntheticScene::WidgetKind kind)
{
    switch (kind) {
    case SyntheticScene::WidgetKind::Button:
        return ZoneType::Button;
    case SyntheticScene::WidgetKind::TextField:
        return ZoneType::TextField;
    case SyntheticScene::WidgetKind::CheckBox:
        return ZoneType::CheckBox;
    case SyntheticScene::WidgetKind::Label:
        return ZoneType::Static;
    }
    return ZoneType::Static;
}

SyntheticScene::Widget widget(const QString& name, QRect rect,
                              SyntheticScene::WidgetKind kind = SyntheticScene::WidgetKind::Button)
{
    SyntheticScene::Widget w;
    w.name = name;
    w.rect = rect;
    w.kind = kind;
    w.label = name;
    return w;
}

// What the canvas mapper would report for the scene: one zone per widget, id = widget name.
ZoneMapPtr mapOf(const SyntheticScene& scene, quint64 version = 1)
{
    QList<Zone> zones;
    for (const SyntheticScene::Widget& w : scene.widgets()) {
        Zone z;
        z.id = w.name;
        z.bounds = w.rect;
        z.type = zoneTypeOf(w.kind);
        z.label = w.label;
        z.isPassword = w.name.contains(QLatin1String("password"));
        z.source = ZoneSource::Synthetic;
        zones << z;
    }
    return std::make_shared<const ZoneMap>(version, 0, scene.size(), zones);
}

Action zoneAction(Action::Type type, const QString& zoneId)
{
    Action a;
    a.type = type;
    a.zoneId = zoneId;
    return a;
}

QString describe(const SpatialEvent& e)
{
    return toString(e.kind) + QLatin1Char(' ') + e.zoneId;
}

QStringList inputKinds(const QList<SyntheticScene::InputRecord>& log, const QString& kind)
{
    QStringList out;
    for (const auto& r : log) {
        if (r.kind == kind)
            out << r.detail;
    }
    return out;
}

// One brush on a fresh synthetic display, with everything it signals recorded.
struct Harness
{
    QString display;
    std::shared_ptr<SyntheticScene> scene;
    SessionClock clock;
    std::unique_ptr<BrushController> brush;
    QList<SpatialEvent> events;
    QList<std::pair<quint64, ActionResult>> finished;
    QList<quint64> startedIds;
    QList<std::pair<QList<QPoint>, QString>> trajectories;
    QList<SpatialEvent> takeovers;
    QList<bool> paused;
    QList<bool> active;
    int failSafes = 0;

    explicit Harness(BrushSettings settings = fastSettings())
        : display(QStringLiteral("brush-test-%1").arg(QString::fromLatin1(QTest::currentTestFunction())))
    {
        if (const char* tag = QTest::currentDataTag())
            display += QLatin1Char('-') + QString::fromLatin1(tag);
        scene = SyntheticScene::forDisplay(display);
        scene->moveCursor({100, 100});
        brush = std::make_unique<BrushController>(
            platform::PlatformOptions{QStringLiteral("synthetic"), display}, settings, clock);
        QObject::connect(brush.get(), &BrushController::eventOccurred,
                         [this](const SpatialEvent& e) { events << e; });
        QObject::connect(brush.get(), &BrushController::actionFinished,
                         [this](quint64 id, const ActionResult& r) {
                             finished << std::pair{id, r};
                         });
        QObject::connect(brush.get(), &BrushController::actionStarted,
                         [this](quint64 id, const Action&) { startedIds << id; });
        QObject::connect(brush.get(), &BrushController::trajectoryPlanned,
                         [this](const QList<QPoint>& path, const QString& zone) {
                             trajectories << std::pair{path, zone};
                         });
        QObject::connect(brush.get(), &BrushController::takeoverDetected,
                         [this](const SpatialEvent& e) { takeovers << e; });
        QObject::connect(brush.get(), &BrushController::pausedChanged, [this](bool p) { paused << p; });
        QObject::connect(brush.get(), &BrushController::actionActive, [this](bool a) { active << a; });
        QObject::connect(brush.get(), &BrushController::failSafeTriggered, [this] { ++failSafes; });
    }

    static BrushSettings fastSettings()
    {
        BrushSettings s;
        s.trajectory.speedPxPerS = 4000;
        s.trajectory.stepRateHz = 200;
        s.pollIntervalMs = 20;
        s.changeTimeoutMs = 300;
        return s;
    }
    static BrushSettings slowSettings()
    {
        BrushSettings s = fastSettings();
        s.trajectory.speedPxPerS = 300;
        s.trajectory.stepRateHz = 100;
        return s;
    }

    void start()
    {
        brush->start();
        brush->onZoneMap(mapOf(*scene));
    }
    void remap(quint64 version = 2) { brush->onZoneMap(mapOf(*scene, version)); }

    // Runs one action to its end; returns its result.
    ActionResult run(const Action& a, quint64 id = 1)
    {
        const qsizetype before = finished.size();
        brush->executeAction(id, a);
        if (!QTest::qWaitFor([&] { return finished.size() > before; }, kWaitMs))
            return ActionResult{false, QStringLiteral("test: timed out")};
        return finished.constLast().second;
    }

    QList<SpatialEvent> eventsOf(std::initializer_list<SpatialEvent::Kind> kinds) const
    {
        QList<SpatialEvent> out;
        for (const SpatialEvent& e : events) {
            if (std::find(kinds.begin(), kinds.end(), e.kind) != kinds.end())
                out << e;
        }
        return out;
    }
    QStringList enterExitSequence() const
    {
        QStringList out;
        for (const SpatialEvent& e : eventsOf({SpatialEvent::Kind::ZoneEnter, SpatialEvent::Kind::ZoneExit}))
            out << describe(e);
        return out;
    }
};

} // namespace

class TestBrushController : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void notStartedFails();
    void startFailsOnUnknownBackend();
    void moveToNamedZoneAndClick();
    void excludedRegionsAreNeverActedOn();
    void eventSequenceCrossingZones_data();
    void eventSequenceCrossingZones();
    void clicksLandInEveryZone();
    void refusedActions_data();
    void refusedActions();
    void busyRejectsSecondAction();
    void brushLostWhenZoneMovesMidMotion();
    void brushLostTwiceFails();
    void brushLostWhenZoneVanishes();
    void takeoverDuringMotion();
    void pointerHeldByAGrabIsNotATakeover();
    void takeoverBetweenActionsReleasesButton();
    void takeoverDuringHoldKey();
    void failSafeCorner();
    void failSafeFromCursorSample();
    void pauseAndStopAbort();
    void typeMasksPasswords();
    void actionSet();
    void dragZoneToZone();
    void watchesForChanges();
    void buttonEffectAfterItsOwnLook();
    void waitForChange();
    void safeTrajectoryAvoidsZones();
    void exploreSweepsRegion();
    void speedModes();
};

void TestBrushController::initTestCase()
{
    registerMetaTypes();
}

void TestBrushController::cleanup()
{
    SyntheticScene::resetAll();
}

void TestBrushController::notStartedFails()
{
    Harness h;
    const ActionResult r = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("x")));
    QVERIFY(!r.success);
    QVERIFY2(r.error.contains(QStringLiteral("no platform")), qPrintable(r.error));
    QVERIFY(h.startedIds.isEmpty());
}

void TestBrushController::startFailsOnUnknownBackend()
{
    BrushController brush(platform::PlatformOptions{QStringLiteral("martian"), {}});
    QString error;
    bool ok = true;
    connect(&brush, &BrushController::started, this, [&](bool started, const QString& e) {
        ok = started;
        error = e;
    });
    brush.start();
    QVERIFY(!ok);
    QVERIFY(error.contains(QStringLiteral("martian")));
    QVERIFY(!brush.isStarted());
}

void TestBrushController::moveToNamedZoneAndClick()
{
    Harness h;
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(600, 400, 100, 30)));
    h.scene->addWidget(widget(QStringLiteral("cancel"), QRect(750, 400, 100, 30)));
    h.start();
    const ActionResult r = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("ok")), 42);
    QVERIFY2(r.success, qPrintable(r.error));
    QCOMPARE(h.finished.constLast().first, quint64(42));
    QCOMPARE(h.startedIds, QList<quint64>{42});
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 1);
    QCOMPARE(h.scene->widget(QStringLiteral("cancel"))->clicks, 0);
    QVERIFY(QRect(600, 400, 100, 30).contains(r.pointUsed));
    QVERIFY(r.durationNs > 0);
    QCOMPARE(h.active, (QList<bool>{true, false}));
    // The planned path ends at the zone's centre; the cursor really went there.
    QCOMPARE(h.trajectories.size(), 1);
    QCOMPARE(h.trajectories.first().second, QStringLiteral("ok"));
    QCOMPARE(h.trajectories.first().first.constLast(), QRect(600, 400, 100, 30).center());
    QCOMPARE(h.scene->cursor(), QRect(600, 400, 100, 30).center());
    // Entered, then clicked; the click event carries the button.
    const QList<SpatialEvent> seq =
        h.eventsOf({SpatialEvent::Kind::ZoneEnter, SpatialEvent::Kind::ZoneClick});
    QCOMPARE(seq.size(), 2);
    QCOMPARE(describe(seq.at(0)), QStringLiteral("zone_enter ok"));
    QCOMPARE(describe(seq.at(1)), QStringLiteral("zone_click ok"));
    QCOMPARE(seq.at(1).data.value(QStringLiteral("button")).toString(), QStringLiteral("left"));
    QCOMPARE(h.scene->inputLog().constLast().detail, QStringLiteral("left up"));
}

void TestBrushController::excludedRegionsAreNeverActedOn()
{
    Harness h;
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(600, 400, 100, 30)));
    h.scene->addWidget(widget(QStringLiteral("own"), QRect(200, 200, 100, 30)));
    h.start();
    h.brush->setExcludedRegions({QRect(180, 180, 300, 100)});
    // A zone inside the excluded region, and a raw point inside it: refused, nothing pressed.
    ActionResult r = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("own")), 1);
    QVERIFY(!r.success);
    QVERIFY2(r.error.contains(QLatin1String("own windows")), qPrintable(r.error));
    Action raw;
    raw.type = Action::Type::DoubleClick;
    raw.point = QPoint(250, 215);
    r = h.run(raw, 2);
    QVERIFY(!r.success);
    QCOMPARE(h.scene->widget(QStringLiteral("own"))->clicks, 0);
    // Elsewhere the brush acts as usual; clearing the list lifts the ban.
    r = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("ok")), 3);
    QVERIFY2(r.success, qPrintable(r.error));
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 1);
    h.brush->setExcludedRegions({});
    r = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("own")), 4);
    QVERIFY2(r.success, qPrintable(r.error));
    QCOMPARE(h.scene->widget(QStringLiteral("own"))->clicks, 1);
}

void TestBrushController::eventSequenceCrossingZones_data()
{
    QTest::addColumn<double>("speed");
    QTest::addColumn<bool>("humanLike");
    QTest::newRow("direct") << 3000.0 << false;
    QTest::newRow("human-like") << 3000.0 << true;
    QTest::newRow("jump") << 0.0 << false;
}

void TestBrushController::eventSequenceCrossingZones()
{
    QFETCH(double, speed);
    QFETCH(bool, humanLike);
    BrushSettings s = Harness::fastSettings();
    s.trajectory.speedPxPerS = speed;
    s.trajectory.humanLike = humanLike;
    Harness h(s);
    // Tall buttons on one row; the slight human-like bend stays inside them.
    for (const auto& [name, x] :
         {std::pair{"a", 200}, std::pair{"b", 400}, std::pair{"c", 600}, std::pair{"d", 800}})
        h.scene->addWidget(widget(QString::fromLatin1(name), QRect(x, 300, 100, 200)));
    h.scene->moveCursor({100, 400});
    h.start();
    const ActionResult r = h.run(zoneAction(Action::Type::MouseMove, QStringLiteral("d")));
    QVERIFY2(r.success, qPrintable(r.error));
    QCOMPARE(h.enterExitSequence(),
             (QStringList{QStringLiteral("zone_enter a"), QStringLiteral("zone_exit a"),
                          QStringLiteral("zone_enter b"), QStringLiteral("zone_exit b"),
                          QStringLiteral("zone_enter c"), QStringLiteral("zone_exit c"),
                          QStringLiteral("zone_enter d")}));
    // Entry points are on the zones' left edges.
    for (const SpatialEvent& e : h.eventsOf({SpatialEvent::Kind::ZoneEnter}))
        QCOMPARE(e.point.x(), h.scene->widget(e.zoneId)->rect.left());
    // Times never go backwards.
    for (qsizetype i = 1; i < h.events.size(); ++i)
        QVERIFY(h.events.at(i - 1).tNs <= h.events.at(i).tNs);
}

void TestBrushController::clicksLandInEveryZone()
{
    Harness h;
    const QList<SyntheticScene::Widget> widgets{
        widget(QStringLiteral("tiny"), QRect(50, 50, 6, 6)),
        widget(QStringLiteral("wide"), QRect(100, 700, 1000, 20)),
        widget(QStringLiteral("check"), QRect(900, 100, 120, 20), SyntheticScene::WidgetKind::CheckBox),
        widget(QStringLiteral("field"), QRect(300, 300, 200, 24), SyntheticScene::WidgetKind::TextField),
        widget(QStringLiteral("edge"), QRect(1260, 780, 20, 20))};
    for (const auto& w : widgets)
        h.scene->addWidget(w);
    h.start();
    quint64 id = 1;
    for (const auto& w : widgets) {
        const ActionResult r = h.run(zoneAction(Action::Type::LeftClick, w.name), id++);
        QVERIFY2(r.success, qPrintable(w.name + QStringLiteral(": ") + r.error));
        QVERIFY(w.rect.contains(r.pointUsed));
        QCOMPARE(h.scene->widget(w.name)->clicks, 1);
    }
    QVERIFY(h.scene->widget(QStringLiteral("check"))->checked);
    // A point inside a zone, given as an offset from its top-left.
    Action a = zoneAction(Action::Type::LeftClick, QStringLiteral("wide"));
    a.point = QPoint(990, 10);
    const ActionResult r = h.run(a, id++);
    QVERIFY(r.success);
    QCOMPARE(r.pointUsed, QPoint(1090, 710));
}

void TestBrushController::refusedActions_data()
{
    QTest::addColumn<Action>("action");
    QTest::addColumn<QString>("error");
    QTest::newRow("unknown zone") << zoneAction(Action::Type::LeftClick, QStringLiteral("nope"))
                                  << QStringLiteral("zone not found");
    Action noText = zoneAction(Action::Type::TypeText, QStringLiteral("ok"));
    QTest::newRow("type without text") << noText << QStringLiteral("needs text");
    Action off;
    off.type = Action::Type::LeftClick;
    off.point = QPoint(5000, 10);
    QTest::newRow("off screen") << off << QStringLiteral("outside");
    Action corner;
    corner.type = Action::Type::LeftClick;
    corner.point = QPoint(1, 2);
    QTest::newRow("fail-safe corner") << corner << QStringLiteral("fail-safe corner");
    Action outside = zoneAction(Action::Type::LeftClick, QStringLiteral("ok"));
    outside.point = QPoint(500, 5);
    QTest::newRow("offset outside zone") << outside << QStringLiteral("outside zone");
    Action shot;
    shot.type = Action::Type::Screenshot;
    QTest::newRow("screenshot") << shot << QStringLiteral("not executed by the brush");
    Action badKey;
    badKey.type = Action::Type::Key;
    badKey.text = QStringLiteral("ctrl+nosuchkey");
    QTest::newRow("bad key name") << badKey << QStringLiteral("nosuchkey");
    Action badHold;
    badHold.type = Action::Type::HoldKey;
    badHold.text = QStringLiteral("a b");
    QTest::newRow("hold two combos") << badHold << QStringLiteral("one key combination");
    Action badScroll;
    badScroll.type = Action::Type::Scroll;
    badScroll.amount = 0;
    QTest::newRow("scroll zero") << badScroll << QStringLiteral("scroll amount");
}

void TestBrushController::refusedActions()
{
    QFETCH(Action, action);
    QFETCH(QString, error);
    Harness h;
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(600, 400, 100, 30)));
    h.start();
    h.scene->clearInputLog();
    const ActionResult r = h.run(action);
    QVERIFY(!r.success);
    QVERIFY2(r.error.contains(error), qPrintable(r.error));
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 0);
    QVERIFY(inputKinds(h.scene->inputLog(), QStringLiteral("button")).isEmpty());
    QVERIFY(!h.brush->isBusy());
    if (!h.active.isEmpty())
        QCOMPARE(h.active.constLast(), false);
}

void TestBrushController::busyRejectsSecondAction()
{
    Harness h(Harness::slowSettings());
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(600, 400, 100, 30)));
    h.start();
    h.brush->executeAction(1, zoneAction(Action::Type::LeftClick, QStringLiteral("ok")));
    QVERIFY(h.brush->isBusy());
    h.brush->executeAction(2, zoneAction(Action::Type::LeftClick, QStringLiteral("ok")));
    QCOMPARE(h.finished.size(), 1);
    QCOMPARE(h.finished.first().first, quint64(2));
    QVERIFY(h.finished.first().second.error.contains(QStringLiteral("busy")));
    QTRY_COMPARE_WITH_TIMEOUT(h.finished.size(), 2, kWaitMs);
    QVERIFY(h.finished.at(1).second.success);
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 1);
}

void TestBrushController::brushLostWhenZoneMovesMidMotion()
{
    Harness h(Harness::slowSettings());
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(400, 100, 100, 30)));
    h.start();
    h.brush->executeAction(7, zoneAction(Action::Type::LeftClick, QStringLiteral("ok")));
    QTRY_VERIFY_WITH_TIMEOUT(h.scene->cursor().x() > 150, kWaitMs);
    QVERIFY(h.finished.isEmpty());
    // The button moves away while the brush is on its way; the canvas reports the new place.
    h.scene->updateWidget(QStringLiteral("ok"), [](SyntheticScene::Widget& w) { w.rect.moveTo(200, 500); });
    h.remap();
    QTRY_COMPARE_WITH_TIMEOUT(h.finished.size(), 1, kWaitMs);
    const ActionResult r = h.finished.first().second;
    QVERIFY2(r.success, qPrintable(r.error));
    const QList<SpatialEvent> lost = h.eventsOf({SpatialEvent::Kind::BrushLost});
    QCOMPARE(lost.size(), 1);
    QCOMPARE(lost.first().zoneId, QStringLiteral("ok"));
    QCOMPARE(lost.first().data.value(QStringLiteral("expected_zone")).toString(), QStringLiteral("ok"));
    QCOMPARE(lost.first().data.value(QStringLiteral("reason")).toString(), QStringLiteral("target_moved"));
    QVERIFY(lost.first().point.x() > 100); // the actual position mid-way
    // Re-planned to the new place and clicked there.
    QCOMPARE(h.trajectories.size(), 2);
    QCOMPARE(h.trajectories.at(1).first.constLast(), QRect(200, 500, 100, 30).center());
    QVERIFY(QRect(200, 500, 100, 30).contains(r.pointUsed));
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 1);
    QVERIFY(h.takeovers.isEmpty());
}

void TestBrushController::brushLostTwiceFails()
{
    Harness h(Harness::slowSettings());
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(400, 100, 100, 30)));
    h.start();
    h.brush->executeAction(1, zoneAction(Action::Type::LeftClick, QStringLiteral("ok")));
    QTRY_VERIFY_WITH_TIMEOUT(h.scene->cursor().x() > 150, kWaitMs);
    h.scene->updateWidget(QStringLiteral("ok"), [](SyntheticScene::Widget& w) { w.rect.moveTo(200, 500); });
    h.remap(2);
    QTRY_COMPARE_WITH_TIMEOUT(h.trajectories.size(), 2, kWaitMs);
    const QPoint replannedAt = h.scene->cursor();
    QTRY_VERIFY_WITH_TIMEOUT(h.scene->cursor() != replannedAt, kWaitMs); // on its new way
    h.scene->updateWidget(QStringLiteral("ok"), [](SyntheticScene::Widget& w) { w.rect.moveTo(900, 600); });
    h.remap(3);
    QTRY_COMPARE_WITH_TIMEOUT(h.finished.size(), 1, kWaitMs);
    const ActionResult r = h.finished.first().second;
    QVERIFY(!r.success);
    QVERIFY2(r.error.contains(QStringLiteral("brush lost")), qPrintable(r.error));
    QCOMPARE(h.eventsOf({SpatialEvent::Kind::BrushLost}).size(), 2);
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 0);
}

void TestBrushController::brushLostWhenZoneVanishes()
{
    Harness h(Harness::slowSettings());
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(400, 100, 100, 30)));
    h.start();
    h.brush->executeAction(1, zoneAction(Action::Type::LeftClick, QStringLiteral("ok")));
    QTRY_VERIFY_WITH_TIMEOUT(h.scene->cursor().x() > 150, kWaitMs);
    h.scene->removeWidget(QStringLiteral("ok"));
    h.remap();
    QTRY_COMPARE_WITH_TIMEOUT(h.finished.size(), 1, kWaitMs);
    QVERIFY(!h.finished.first().second.success);
    QVERIFY2(h.finished.first().second.error.contains(QStringLiteral("zone not found")),
             qPrintable(h.finished.first().second.error));
    const QList<SpatialEvent> lost = h.eventsOf({SpatialEvent::Kind::BrushLost});
    QCOMPARE(lost.size(), 1);
    QCOMPARE(lost.first().data.value(QStringLiteral("reason")).toString(), QStringLiteral("target_vanished"));
}

void TestBrushController::takeoverDuringMotion()
{
    Harness h(Harness::slowSettings());
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(600, 400, 100, 30)));
    h.start();
    h.brush->setRunActive(true);
    h.brush->executeAction(1, zoneAction(Action::Type::LeftClick, QStringLiteral("ok")));
    QTRY_VERIFY_WITH_TIMEOUT(h.scene->cursor().x() > 130, kWaitMs);
    // The human grabs the mouse.
    h.scene->moveCursor({900, 150});
    QTRY_COMPARE_WITH_TIMEOUT(h.finished.size(), 1, kWaitMs);
    const ActionResult r = h.finished.first().second;
    QVERIFY(!r.success);
    QVERIFY2(r.error.contains(QStringLiteral("takeover")), qPrintable(r.error));
    QCOMPARE(h.takeovers.size(), 1);
    QCOMPARE(h.takeovers.first().point, QPoint(900, 150));
    QVERIFY(h.takeovers.first().data.value(QStringLiteral("during_action")).toBool());
    QCOMPARE(h.paused, QList<bool>{true});
    QVERIFY(h.brush->isPaused());
    // brush_lost first, then takeover, both in the event stream.
    const QList<SpatialEvent> safety =
        h.eventsOf({SpatialEvent::Kind::BrushLost, SpatialEvent::Kind::Takeover});
    QCOMPARE(safety.size(), 2);
    QVERIFY(safety.at(0).kind == SpatialEvent::Kind::BrushLost);
    QVERIFY(safety.at(1).kind == SpatialEvent::Kind::Takeover);
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 0);

    // No further input until resumed: not from the timers (no job runs), not from new actions.
    QVERIFY(!h.brush->isBusy());
    h.scene->clearInputLog();
    h.scene->moveCursor({901, 151}); // the user keeps moving; no fight
    h.scene->clearInputLog();
    QCoreApplication::processEvents();
    QVERIFY(h.scene->inputLog().isEmpty());
    ActionResult refused = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("ok")), 2);
    QVERIFY(!refused.success);
    QVERIFY(refused.error.contains(QStringLiteral("paused")));
    QVERIFY(h.scene->inputLog().isEmpty());
    QCOMPARE(h.takeovers.size(), 1);

    h.brush->resume();
    QCOMPARE(h.paused, (QList<bool>{true, false}));
    BrushSettings fast = Harness::fastSettings();
    h.brush->setSettings(fast);
    const ActionResult again = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("ok")), 3);
    QVERIFY2(again.success, qPrintable(again.error));
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 1);
}

// After a click a window manager's synchronous grab can hold the pointer back: the moves sent meanwhile take
// effect once the manager has handled the click, and until then the pointer reads where it was. That is no
// takeover: the brush lets the input settle and reads again (MCP e2e, a loaded machine: a scroll, then a drag
// whose first read found the pointer one step behind, paused the task for good).
void TestBrushController::pointerHeldByAGrabIsNotATakeover()
{
    Harness h(Harness::slowSettings());
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(600, 400, 100, 30)));
    h.start();
    h.brush->setRunActive(true);
    h.scene->holdPointer();
    const ActionResult r = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("ok")));
    QVERIFY2(r.success, qPrintable(r.error));
    QVERIFY(h.takeovers.isEmpty());
    QVERIFY(!h.brush->isPaused());
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 1);
    QVERIFY(QRect(600, 400, 100, 30).contains(h.scene->cursor()));
    // A hand on the mouse is still one (the pointer elsewhere once the input settled): takeoverDuringMotion.
}

void TestBrushController::takeoverBetweenActionsReleasesButton()
{
    Harness h;
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(600, 400, 100, 30)));
    h.start();
    h.brush->setRunActive(true);
    const ActionResult down = h.run(zoneAction(Action::Type::LeftMouseDown, QStringLiteral("ok")));
    QVERIFY2(down.success, qPrintable(down.error));
    QCOMPARE(inputKinds(h.scene->inputLog(), QStringLiteral("button")),
             QStringList{QStringLiteral("left down")});
    QCoreApplication::processEvents();
    QVERIFY(h.takeovers.isEmpty()); // the pointer stays where the brush left it: nothing happens
    h.scene->clearInputLog();
    h.scene->moveCursor({300, 300});
    QTRY_COMPARE_WITH_TIMEOUT(h.takeovers.size(), 1, kWaitMs);
    QVERIFY(!h.takeovers.first().data.value(QStringLiteral("during_action")).toBool());
    QCOMPARE(inputKinds(h.scene->inputLog(), QStringLiteral("button")),
             QStringList{QStringLiteral("left up")});
    QVERIFY(h.brush->isPaused());
    QCOMPARE(h.finished.size(), 1); // no action was running
}

void TestBrushController::takeoverDuringHoldKey()
{
    Harness h;
    h.start();
    h.brush->setRunActive(true);
    Action hold;
    hold.type = Action::Type::HoldKey;
    hold.text = QStringLiteral("shift");
    hold.durationMs = 20000;
    h.brush->executeAction(1, hold);
    QCOMPARE(inputKinds(h.scene->inputLog(), QStringLiteral("key")),
             QStringList{QStringLiteral("Shift_L down")});
    QVERIFY(h.brush->isBusy()); // holding
    h.scene->moveCursor({500, 500});
    QTRY_COMPARE_WITH_TIMEOUT(h.finished.size(), 1, kWaitMs); // long before the 20 s hold ends
    QVERIFY(h.finished.first().second.error.contains(QStringLiteral("takeover")));
    QCOMPARE(inputKinds(h.scene->inputLog(), QStringLiteral("key")),
             (QStringList{QStringLiteral("Shift_L down"), QStringLiteral("Shift_L up")}));
}

void TestBrushController::failSafeCorner()
{
    Harness h(Harness::slowSettings());
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(600, 400, 100, 30)));
    h.start();
    h.brush->executeAction(1, zoneAction(Action::Type::LeftClick, QStringLiteral("ok")));
    QTRY_VERIFY_WITH_TIMEOUT(h.scene->cursor().x() > 130, kWaitMs);
    h.scene->moveCursor({2, 1}); // slammed into the corner
    QTRY_COMPARE_WITH_TIMEOUT(h.failSafes, 1, kWaitMs);
    QCOMPARE(h.finished.size(), 1);
    QVERIFY(h.finished.first().second.error.contains(QStringLiteral("fail-safe")));
    QVERIFY(h.brush->isFailSafeTriggered());
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 0);
    h.scene->moveCursor({300, 300});
    const ActionResult refused = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("ok")), 2);
    QVERIFY(refused.error.contains(QStringLiteral("fail-safe")));
    h.brush->resetFailSafe();
    QVERIFY(!h.brush->isFailSafeTriggered());
    h.brush->setSettings(Harness::fastSettings());
    const ActionResult ok = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("ok")), 3);
    QVERIFY2(ok.success, qPrintable(ok.error));
    QCOMPARE(h.failSafes, 1);
}

void TestBrushController::failSafeFromCursorSample()
{
    BrushSettings s = Harness::fastSettings();
    s.failSafeCorner = QPoint(1279, 0); // configurable: the top-right corner
    Harness h(s);
    h.start();
    h.brush->onCursor(CursorSample{h.clock.nowNs(), {10, 10}, {}});
    QCOMPARE(h.failSafes, 0);
    h.brush->onCursor(CursorSample{h.clock.nowNs(), {1277, 2}, {}});
    QCOMPARE(h.failSafes, 1);
    QVERIFY(h.brush->isFailSafeTriggered());
}

void TestBrushController::pauseAndStopAbort()
{
    Harness h(Harness::slowSettings());
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(600, 400, 100, 30)));
    h.start();
    h.brush->executeAction(1, zoneAction(Action::Type::LeftClick, QStringLiteral("ok")));
    QTRY_VERIFY_WITH_TIMEOUT(h.scene->cursor().x() > 120, kWaitMs);
    h.brush->pause();
    QCOMPARE(h.finished.size(), 1);
    QCOMPARE(h.finished.first().second.error, QStringLiteral("paused"));
    QCOMPARE(h.paused, QList<bool>{true});
    const QPoint stoppedAt = h.scene->cursor();
    QVERIFY(!h.brush->isBusy()); // no job drives the pointer any more
    QCoreApplication::processEvents();
    QCOMPARE(h.scene->cursor(), stoppedAt); // the motion really stopped
    h.brush->resume();
    h.brush->executeAction(2, zoneAction(Action::Type::LeftClick, QStringLiteral("ok")));
    QTRY_VERIFY_WITH_TIMEOUT(h.scene->cursor().x() > stoppedAt.x() + 20, kWaitMs);
    h.brush->stop();
    QCOMPARE(h.finished.size(), 2);
    QCOMPARE(h.finished.at(1).second.error, QStringLiteral("stopped"));
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 0);
    QVERIFY(!h.brush->isBusy());
    QCOMPARE(h.active.constLast(), false);
}

void TestBrushController::typeMasksPasswords()
{
    Harness h;
    h.scene->addWidget(
        widget(QStringLiteral("name"), QRect(300, 200, 200, 24), SyntheticScene::WidgetKind::TextField));
    h.scene->addWidget(
        widget(QStringLiteral("password"), QRect(300, 260, 200, 24), SyntheticScene::WidgetKind::TextField));
    h.start();
    Action typeName = zoneAction(Action::Type::TypeText, QStringLiteral("name"));
    typeName.text = QStringLiteral("Alice");
    QVERIFY(h.run(typeName, 1).success);
    Action typeSecret = zoneAction(Action::Type::TypeText, QStringLiteral("password"));
    typeSecret.text = QStringLiteral("hunter2");
    QVERIFY(h.run(typeSecret, 2).success);
    // The text went to the fields (each focused by a click first) ...
    QCOMPARE(h.scene->widget(QStringLiteral("name"))->text, QStringLiteral("Alice"));
    QCOMPARE(h.scene->widget(QStringLiteral("password"))->text, QStringLiteral("hunter2"));
    // ... and the events show it, masked for the password.
    const QList<SpatialEvent> typed = h.eventsOf({SpatialEvent::Kind::ZoneType});
    QCOMPARE(typed.size(), 2);
    QCOMPARE(typed.at(0).zoneId, QStringLiteral("name"));
    QCOMPARE(typed.at(0).data.value(QStringLiteral("text")).toString(), QStringLiteral("Alice"));
    QCOMPARE(typed.at(1).zoneId, QStringLiteral("password"));
    QCOMPARE(typed.at(1).data.value(QStringLiteral("text")).toString(),
             QStringLiteral("\u2022\u2022\u2022\u2022"));
    for (const SpatialEvent& e : h.events)
        QVERIFY(!QString::fromUtf8(QJsonDocument(e.toJson()).toJson()).contains(QStringLiteral("hunter2")));
    QCOMPARE(h.eventsOf({SpatialEvent::Kind::ZoneClick}).size(), 2);
}

void TestBrushController::actionSet()
{
    Harness h;
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(600, 400, 100, 30)));
    h.scene->addWidget(widget(QStringLiteral("list"), QRect(100, 300, 200, 300)));
    h.start();
    quint64 id = 1;
    auto run = [&](const Action& a) {
        h.scene->clearInputLog();
        const ActionResult r = h.run(a, id++);
        if (!r.success)
            qWarning("%s: %s", qPrintable(a.describe()), qPrintable(r.error));
        return r;
    };

    QVERIFY(run(zoneAction(Action::Type::DoubleClick, QStringLiteral("ok"))).success);
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 2);
    QVERIFY(run(zoneAction(Action::Type::TripleClick, QStringLiteral("ok"))).success);
    QCOMPARE(h.scene->widget(QStringLiteral("ok"))->clicks, 5);

    Action right = zoneAction(Action::Type::RightClick, QStringLiteral("ok"));
    right.heldKeys = QStringLiteral("shift");
    QVERIFY(run(right).success);
    QStringList log;
    for (const auto& r : h.scene->inputLog()) {
        if (r.kind != QLatin1String("move"))
            log << r.detail;
    }
    QCOMPARE(log, (QStringList{QStringLiteral("Shift_L down"), QStringLiteral("right down"),
                               QStringLiteral("right up"), QStringLiteral("Shift_L up")}));
    QCOMPARE(h.eventsOf({SpatialEvent::Kind::ZoneClick})
                 .constLast()
                 .data.value(QStringLiteral("held_keys"))
                 .toString(),
             QStringLiteral("shift"));

    QVERIFY(run(zoneAction(Action::Type::MiddleClick, QStringLiteral("ok"))).success);
    QCOMPARE(inputKinds(h.scene->inputLog(), QStringLiteral("button")),
             (QStringList{QStringLiteral("middle down"), QStringLiteral("middle up")}));

    Action scroll = zoneAction(Action::Type::Scroll, QStringLiteral("list"));
    scroll.scrollDirection = platform::ScrollDirection::Down;
    scroll.amount = 3;
    QVERIFY(run(scroll).success);
    QCOMPARE(inputKinds(h.scene->inputLog(), QStringLiteral("wheel")).size(), 3);
    QVERIFY(QRect(100, 300, 200, 300).contains(h.scene->cursor()));

    Action key;
    key.type = Action::Type::Key;
    key.text = QStringLiteral("ctrl+s");
    QVERIFY(run(key).success);
    QCOMPARE(inputKinds(h.scene->inputLog(), QStringLiteral("key")),
             (QStringList{QStringLiteral("Control_L down"), QStringLiteral("s down"), QStringLiteral("s up"),
                          QStringLiteral("Control_L up")}));

    for (const auto& [type, letter] :
         {std::pair{Action::Type::Copy, "c"}, std::pair{Action::Type::Paste, "v"},
          std::pair{Action::Type::Cut, "x"}, std::pair{Action::Type::SelectAll, "a"}}) {
        Action a;
        a.type = type;
        QVERIFY(run(a).success);
        QVERIFY(inputKinds(h.scene->inputLog(), QStringLiteral("key"))
                    .contains(QString::fromLatin1(letter) + QStringLiteral(" down")));
    }

    Action hold;
    hold.type = Action::Type::HoldKey;
    hold.text = QStringLiteral("alt");
    hold.durationMs = 80;
    QVERIFY(run(hold).success);
    QCOMPARE(inputKinds(h.scene->inputLog(), QStringLiteral("key")),
             (QStringList{QStringLiteral("Alt_L down"), QStringLiteral("Alt_L up")}));

    Action write;
    write.type = Action::Type::ClipboardWrite;
    write.text = QStringLiteral("copied text");
    QVERIFY(run(write).success);
    QCOMPARE(h.scene->clipboardText(), QStringLiteral("copied text"));
    Action read;
    read.type = Action::Type::ClipboardRead;
    const ActionResult readResult = run(read);
    QVERIFY(readResult.success);
    QCOMPARE(readResult.output, QStringLiteral("copied text"));

    Action where;
    where.type = Action::Type::CursorPosition;
    const ActionResult pos = run(where);
    QVERIFY(pos.success);
    QCOMPARE(pos.output, QStringLiteral("[%1, %2]").arg(h.scene->cursor().x()).arg(h.scene->cursor().y()));

    Action wait;
    wait.type = Action::Type::Wait;
    wait.durationMs = 60;
    const ActionResult waited = run(wait);
    QVERIFY(waited.success);
    QVERIFY(waited.durationNs >= 50'000'000);
    QVERIFY(h.scene->inputLog().isEmpty());

    Action move;
    move.type = Action::Type::MouseMove;
    move.point = QPoint(1000, 100);
    QVERIFY(run(move).success);
    QCOMPARE(h.scene->cursor(), QPoint(1000, 100));

    Action down;
    down.type = Action::Type::LeftMouseDown;
    QVERIFY(run(down).success);
    Action up;
    up.type = Action::Type::LeftMouseUp;
    QVERIFY(run(up).success);
    QCOMPARE(inputKinds(h.scene->inputLog(), QStringLiteral("button")),
             QStringList{QStringLiteral("left up")});
}

void TestBrushController::dragZoneToZone()
{
    Harness h;
    h.scene->addWidget(widget(QStringLiteral("from"), QRect(200, 200, 80, 40)));
    h.scene->addWidget(widget(QStringLiteral("to"), QRect(800, 500, 80, 40)));
    h.start();
    Action drag = zoneAction(Action::Type::LeftClickDrag, QStringLiteral("from"));
    drag.endZoneId = QStringLiteral("to");
    h.scene->clearInputLog();
    const ActionResult r = h.run(drag);
    QVERIFY2(r.success, qPrintable(r.error));
    // Pressed inside `from`, moved in several steps, released inside `to`.
    const QList<SyntheticScene::InputRecord> log = h.scene->inputLog();
    qsizetype downAt = -1;
    qsizetype upAt = -1;
    QPoint lastMove;
    int movesWhilePressed = 0;
    for (qsizetype i = 0; i < log.size(); ++i) {
        if (log.at(i).detail == QLatin1String("left down")) {
            downAt = i;
            QVERIFY(QRect(200, 200, 80, 40).contains(lastMove));
        } else if (log.at(i).detail == QLatin1String("left up")) {
            upAt = i;
            QVERIFY(QRect(800, 500, 80, 40).contains(lastMove));
        } else if (log.at(i).kind == QLatin1String("move")) {
            const QStringList xy = log.at(i).detail.split(QLatin1Char(','));
            lastMove = QPoint(xy.at(0).toInt(), xy.at(1).toInt());
            if (downAt >= 0 && upAt < 0)
                ++movesWhilePressed;
        }
    }
    QVERIFY(downAt >= 0 && upAt > downAt);
    QVERIFY(movesWhilePressed >= 5);
    // Drag to a raw point.
    Action toPoint;
    toPoint.type = Action::Type::LeftClickDrag;
    toPoint.point = QPoint(840, 520);
    toPoint.endPoint = QPoint(500, 100);
    QVERIFY(h.run(toPoint, 2).success);
    QCOMPARE(h.scene->cursor(), QPoint(500, 100));
    // An unknown end zone fails and releases the button.
    Action bad = zoneAction(Action::Type::LeftClickDrag, QStringLiteral("from"));
    bad.endZoneId = QStringLiteral("nowhere");
    h.scene->clearInputLog();
    const ActionResult failed = h.run(bad, 3);
    QVERIFY(!failed.success);
    QVERIFY(failed.error.contains(QStringLiteral("zone not found")));
    QCOMPARE(inputKinds(h.scene->inputLog(), QStringLiteral("button")),
             (QStringList{QStringLiteral("left down"), QStringLiteral("left up")}));
}

void TestBrushController::watchesForChanges()
{
    BrushSettings s = Harness::fastSettings();
    s.changeScope = ChangeScope::Target;
    s.changeTimeoutMs = 2000;
    Harness h(s);
    h.scene->addWidget(widget(QStringLiteral("ok"), QRect(600, 400, 100, 30)));
    h.start();
    // Without any diff ever received there is no capture engine: no waiting.
    QVERIFY(h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("ok")), 1).success);
    QVERIFY(!h.finished.constLast().second.changeObserved);

    h.brush->onChanges(FrameDiff{}); // the capture engine is connected
    // After the click: first a change elsewhere (ignored for the target scope), then on the button.
    QMetaObject::Connection c =
        connect(h.brush.get(), &BrushController::eventOccurred, this, [&](const SpatialEvent& e) {
            if (e.kind != SpatialEvent::Kind::ZoneClick)
                return;
            QTimer::singleShot(10, this, [&] {
                FrameDiff cursorOnly{
                    40, h.clock.nowNs(), {ChangeRegion{QRect(600, 400, 20, 20), 50}}, 0.1, true};
                h.brush->onChanges(cursorOnly);
                FrameDiff elsewhere{41, h.clock.nowNs(), {ChangeRegion{QRect(0, 700, 50, 50), 100}}, 0.2};
                h.brush->onChanges(elsewhere);
            });
            QTimer::singleShot(30, this, [&] {
                FrameDiff onButton{42, h.clock.nowNs(), {ChangeRegion{QRect(590, 395, 40, 20), 80}}, 0.3};
                h.brush->onChanges(onButton);
            });
        });
    const ActionResult r = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("ok")), 2);
    disconnect(c);
    QVERIFY(r.success);
    QVERIFY(r.changeObserved);
    QCOMPARE(r.frameAfter, quint64(42));
    QCOMPARE(r.changes.size(), 1);
    QCOMPARE(r.changes.first().rect, QRect(590, 395, 40, 20));
    // The click went out before the watch for its effect, which the action's duration includes.
    QVERIFY(r.actedNs >= r.startNs);
    QVERIFY(r.actedNs < r.startNs + r.durationNs);

    // A stale diff (captured before the action) does not count; the watch times out, still a success.
    BrushSettings quick = s;
    quick.changeTimeoutMs = 100;
    h.brush->setSettings(quick);
    const qint64 before = h.clock.nowNs();
    c = connect(h.brush.get(), &BrushController::eventOccurred, this, [&](const SpatialEvent& e) {
        if (e.kind == SpatialEvent::Kind::ZoneClick)
            QTimer::singleShot(0, this, [&] {
                h.brush->onChanges(FrameDiff{50, before, {ChangeRegion{QRect(600, 400, 10, 10), 100}}, 0.1});
            });
    });
    const ActionResult stale = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("ok")), 3);
    disconnect(c);
    QVERIFY(stale.success);
    QVERIFY(!stale.changeObserved);
    QCOMPARE(stale.frameAfter, quint64(0));
}

void TestBrushController::buttonEffectAfterItsOwnLook()
{
    BrushSettings s = Harness::fastSettings();
    s.changeTimeoutMs = 2000;
    s.ownLookGraceMs = 400;
    Harness h(s);
    h.scene->addWidget(widget(QStringLiteral("submit"), QRect(600, 400, 100, 30)));
    h.start();
    h.brush->onChanges(FrameDiff{}); // the capture engine is connected
    // The button's pressed look first, then, a few frames later, its effect: a status line below.
    QMetaObject::Connection c =
        connect(h.brush.get(), &BrushController::eventOccurred, this, [&](const SpatialEvent& e) {
            if (e.kind != SpatialEvent::Kind::ZoneClick)
                return;
            QTimer::singleShot(5, this, [&] {
                h.brush->onChanges(
                    FrameDiff{60, h.clock.nowNs(), {ChangeRegion{QRect(598, 398, 104, 34), 90}}, 0.1});
            });
            QTimer::singleShot(80, this, [&] {
                h.brush->onChanges(
                    FrameDiff{61, h.clock.nowNs(), {ChangeRegion{QRect(10, 700, 120, 14), 60}}, 0.1});
            });
        });
    const ActionResult r = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("submit")), 1);
    disconnect(c);
    QVERIFY(r.success);
    QCOMPARE(r.frameAfter, quint64(61));
    QCOMPARE(r.changes.size(), 2);
    QCOMPARE(r.changes.at(0).rect, QRect(598, 398, 104, 34));
    QCOMPARE(r.changes.at(1).rect, QRect(10, 700, 120, 14));

    // Only its own look: the action still ends as a success once the grace time is over (not at the change
    // timeout), its result holding that change.
    c = connect(h.brush.get(), &BrushController::eventOccurred, this, [&](const SpatialEvent& e) {
        if (e.kind == SpatialEvent::Kind::ZoneClick)
            QTimer::singleShot(5, this, [&] {
                h.brush->onChanges(
                    FrameDiff{70, h.clock.nowNs(), {ChangeRegion{QRect(598, 398, 104, 34), 90}}, 0.1});
            });
    });
    const ActionResult own = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("submit")), 2);
    disconnect(c);
    QVERIFY(own.success);
    QCOMPARE(own.frameAfter, quint64(70));
    QCOMPARE(own.changes.size(), 1);
    QVERIFY2(own.actedNs + 2'000'000'000 > own.startNs + own.durationNs, "ended at the change timeout");
    QVERIFY(own.startNs + own.durationNs >= own.actedNs + 400'000'000);
}

void TestBrushController::waitForChange()
{
    Harness h;
    h.start();
    Action wait;
    wait.type = Action::Type::WaitForChange;
    wait.durationMs = 80;
    const ActionResult none = h.run(wait, 1);
    QVERIFY(!none.success);
    QVERIFY2(none.error.contains(QStringLiteral("no canvas change")), qPrintable(none.error));
    QTimer::singleShot(20, this, [&] {
        h.brush->onChanges(FrameDiff{9, h.clock.nowNs(), {ChangeRegion{QRect(1, 1, 5, 5), 100}}, 0.01});
    });
    wait.durationMs = 2000;
    const ActionResult seen = h.run(wait, 2);
    QVERIFY(seen.success);
    QCOMPARE(seen.frameAfter, quint64(9));
}

void TestBrushController::safeTrajectoryAvoidsZones()
{
    BrushSettings s = Harness::fastSettings();
    s.trajectoryKind = TrajectoryKind::Safe;
    Harness h(s);
    h.scene->addWidget(widget(QStringLiteral("wall"), QRect(400, 100, 60, 400)));
    h.scene->addWidget(widget(QStringLiteral("other"), QRect(560, 280, 60, 60)));
    h.scene->addWidget(widget(QStringLiteral("target"), QRect(700, 280, 80, 40)));
    h.scene->moveCursor({200, 300});
    h.start();
    const ActionResult r = h.run(zoneAction(Action::Type::LeftClick, QStringLiteral("target")));
    QVERIFY2(r.success, qPrintable(r.error));
    QCOMPARE(h.scene->widget(QStringLiteral("target"))->clicks, 1);
    QVERIFY(h.trajectories.first().first.size() >= 3);
    QCOMPARE(h.enterExitSequence(), QStringList{QStringLiteral("zone_enter target")});
    // Every pointer position the scene saw stayed out of the other buttons.
    for (const auto& rec : h.scene->inputLog()) {
        if (rec.kind != QLatin1String("move"))
            continue;
        const QStringList xy = rec.detail.split(QLatin1Char(','));
        const QPoint p(xy.at(0).toInt(), xy.at(1).toInt());
        QVERIFY(!QRect(400, 100, 60, 400).contains(p));
        QVERIFY(!QRect(560, 280, 60, 60).contains(p));
    }
}

void TestBrushController::exploreSweepsRegion()
{
    BrushSettings s = Harness::fastSettings();
    s.trajectory.exploreSpeedPxPerS = 3000;
    s.trajectory.sweepSpacingPx = 20;
    Harness h(s);
    h.scene->addWidget(widget(QStringLiteral("hidden"), QRect(330, 250, 12, 12)));
    h.start();
    h.brush->explore(5, QRect(300, 200, 200, 100));
    QTRY_COMPARE_WITH_TIMEOUT(h.finished.size(), 1, kWaitMs);
    QVERIFY2(h.finished.first().second.success, qPrintable(h.finished.first().second.error));
    QCOMPARE(h.trajectories.size(), 1);
    QVERIFY(h.trajectories.first().first.size() > 6);
    QVERIFY(h.enterExitSequence().contains(QStringLiteral("zone_enter hidden")));
    h.brush->explore(6, QRect());
    QCOMPARE(h.finished.size(), 2);
    QVERIFY(!h.finished.at(1).second.success);
}

void TestBrushController::speedModes()
{
    QCOMPARE(BrushSettings::speedForMode(QStringLiteral("max")), 0.0);
    QVERIFY(*BrushSettings::speedForMode(QStringLiteral("high")) >
            *BrushSettings::speedForMode(QStringLiteral("low")));
    QVERIFY(!BrushSettings::speedForMode(QStringLiteral("warp")));
}

QTEST_MAIN(TestBrushController)
#include "tst_brushcontroller.moc"
