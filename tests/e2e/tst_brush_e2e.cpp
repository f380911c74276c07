// The brush against the fixture app on a private Xvfb, through the real X11 backend. The zone map is
// built from the geometry the fixture app reports (the canvas mapper is tested on its own).

#include "core/brush/brushcontroller.h"
#include "core/model/metatypes.h"
#include "platform/platformfactory.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

using namespace ciu;
using test::FixtureApp;
using test::XvfbServer;

namespace {

constexpr int kWaitMs = 10000;

ZoneMapPtr mapOf(const QList<FixtureApp::Widget>& widgets, QSize screen, quint64 version = 1)
{
    QList<Zone> zones;
    for (const FixtureApp::Widget& w : widgets) {
        if (w.type.isEmpty() || w.rect.isEmpty())
            continue;
        Zone z;
        z.id = w.name;
        z.bounds = w.rect;
        z.type = zoneTypeFromString(w.type).value_or(ZoneType::Static);
        z.label = w.label;
        z.isPassword = w.name == QLatin1String("password");
        z.source = ZoneSource::Synthetic;
        zones << z;
    }
    return std::make_shared<const ZoneMap>(version, 0, screen, zones);
}

Action zoneAction(Action::Type type, const QString& zoneId)
{
    Action a;
    a.type = type;
    a.zoneId = zoneId;
    return a;
}

BrushSettings fastSettings()
{
    BrushSettings s;
    s.trajectory.speedPxPerS = 3000;
    s.trajectory.stepRateHz = 120;
    s.pollIntervalMs = 20;
    return s;
}

} // namespace

class TestBrushE2E : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void cleanupTestCase();
    void moveToNamedZoneAndClick();
    void eventSequenceCrossingButtons();
    void clicksLandInEveryWidget();
    void typeIntoFields();
    void buttonMovedAwayGivesBrushLost();
    void safePathNeverEntersAnotherButton();
    void userMotionTriggersTakeover();

private:
    void startBrush(BrushSettings settings);
    ActionResult run(const Action& a, quint64 id);
    QList<SpatialEvent> eventsOf(SpatialEvent::Kind kind) const;
    std::optional<QJsonObject> waitForClick(const QString& name);

    std::unique_ptr<XvfbServer> m_xvfb;
    std::unique_ptr<FixtureApp> m_app;
    std::unique_ptr<BrushController> m_brush;
    QSize m_screen{1280, 800};
    QList<SpatialEvent> m_events;
    QList<std::pair<quint64, ActionResult>> m_finished;
    QList<QList<QPoint>> m_paths;
    QList<SpatialEvent> m_takeovers;
};

void TestBrushE2E::initTestCase()
{
    registerMetaTypes();
    if (!test::xvfbAvailable())
        QFAIL("Xvfb is not installed (packaging/install-deps.sh)");
    XvfbServer::Options options;
    options.size = m_screen;
    m_xvfb = std::make_unique<XvfbServer>(options);
    QVERIFY2(m_xvfb->start(), qPrintable(m_xvfb->errorString()));
    m_app = std::make_unique<FixtureApp>();
    QVERIFY2(
        m_app->start(m_xvfb->environment(), {QStringLiteral("--geometry"), QStringLiteral("40,40,900,640")}),
        qPrintable(m_app->errorString()));
}

void TestBrushE2E::init()
{
    m_events.clear();
    m_finished.clear();
    m_paths.clear();
    m_takeovers.clear();
    QVERIFY(m_app->refreshWidgets());
    m_app->clearPending();
}

void TestBrushE2E::cleanup()
{
    m_brush.reset();
}

void TestBrushE2E::cleanupTestCase()
{
    m_brush.reset();
    if (m_app)
        m_app->stop();
    m_app.reset();
    m_xvfb.reset();
}

void TestBrushE2E::startBrush(BrushSettings settings)
{
    m_brush = std::make_unique<BrushController>(
        platform::PlatformOptions{QStringLiteral("x11"), m_xvfb->displayName()}, settings);
    bool ok = false;
    QString error;
    connect(m_brush.get(), &BrushController::started, this, [&](bool started, const QString& e) {
        ok = started;
        error = e;
    });
    connect(m_brush.get(), &BrushController::eventOccurred, this,
            [this](const SpatialEvent& e) { m_events << e; });
    connect(m_brush.get(), &BrushController::actionFinished, this, [this](quint64 id, const ActionResult& r) {
        m_finished << std::pair{id, r};
    });
    connect(m_brush.get(), &BrushController::trajectoryPlanned, this,
            [this](const QList<QPoint>& path, const QString&) { m_paths << path; });
    connect(m_brush.get(), &BrushController::takeoverDetected, this,
            [this](const SpatialEvent& e) { m_takeovers << e; });
    m_brush->start();
    QVERIFY2(ok, qPrintable(error));
    m_brush->onZoneMap(mapOf(m_app->widgets(), m_screen));
}

ActionResult TestBrushE2E::run(const Action& a, quint64 id)
{
    const qsizetype before = m_finished.size();
    m_brush->executeAction(id, a);
    if (!QTest::qWaitFor([&] { return m_finished.size() > before; }, kWaitMs))
        return ActionResult{false, QStringLiteral("test: timed out")};
    return m_finished.constLast().second;
}

QList<SpatialEvent> TestBrushE2E::eventsOf(SpatialEvent::Kind kind) const
{
    QList<SpatialEvent> out;
    for (const SpatialEvent& e : m_events) {
        if (e.kind == kind)
            out << e;
    }
    return out;
}

std::optional<QJsonObject> TestBrushE2E::waitForClick(const QString& name)
{
    return m_app->waitFor(
        [&](const QJsonObject& o) {
            return o.value(QLatin1String("event")).toString() == QLatin1String("clicked") &&
                   o.value(QLatin1String("name")).toString() == name;
        },
        kWaitMs);
}

void TestBrushE2E::moveToNamedZoneAndClick()
{
    startBrush(fastSettings());
    const auto ok = m_app->widget(QStringLiteral("ok"));
    QVERIFY(ok);
    const ActionResult r = run(zoneAction(Action::Type::LeftClick, QStringLiteral("ok")), 1);
    QVERIFY2(r.success, qPrintable(r.error));
    QVERIFY(ok->rect.contains(r.pointUsed));
    QVERIFY2(waitForClick(QStringLiteral("ok")), "the fixture app did not report the click");
    const QList<SpatialEvent> clicks = eventsOf(SpatialEvent::Kind::ZoneClick);
    QCOMPARE(clicks.size(), 1);
    QCOMPARE(clicks.first().zoneId, QStringLiteral("ok"));
}

void TestBrushE2E::eventSequenceCrossingButtons()
{
    startBrush(fastSettings());
    const QStringList row{QStringLiteral("ok"), QStringLiteral("cancel"), QStringLiteral("submit"),
                          QStringLiteral("open_dialog")};
    const auto first = m_app->widget(row.first());
    QVERIFY(first);
    // Start left of the row, on its centre line, then move to the last button.
    Action start;
    start.type = Action::Type::MouseMove;
    start.point = QPoint(first->rect.left() - 6, first->rect.center().y());
    QVERIFY(run(start, 1).success);
    m_events.clear();
    const ActionResult r = run(zoneAction(Action::Type::MouseMove, row.last()), 2);
    QVERIFY2(r.success, qPrintable(r.error));
    QStringList seen;
    for (const SpatialEvent& e : m_events) {
        if ((e.kind == SpatialEvent::Kind::ZoneEnter || e.kind == SpatialEvent::Kind::ZoneExit) &&
            row.contains(e.zoneId))
            seen << toString(e.kind) + QLatin1Char(' ') + e.zoneId;
    }
    QStringList expected;
    for (const QString& name : row) {
        expected << QStringLiteral("zone_enter ") + name;
        if (name != row.last())
            expected << QStringLiteral("zone_exit ") + name;
    }
    QCOMPARE(seen, expected);
    // Entry points lie on the buttons' left edges.
    for (const SpatialEvent& e : eventsOf(SpatialEvent::Kind::ZoneEnter)) {
        if (row.contains(e.zoneId))
            QCOMPARE(e.point.x(), m_app->widget(e.zoneId)->rect.left());
    }
}

void TestBrushE2E::clicksLandInEveryWidget()
{
    startBrush(fastSettings());
    // Everything that can be clicked without opening a popup, a dialog or another tab.
    const QStringList skip{QStringLiteral("open_dialog"), QStringLiteral("color"),
                           QStringLiteral("tab_second")};
    quint64 id = 1;
    int clicked = 0;
    for (const FixtureApp::Widget& w : m_app->widgets()) {
        if (w.type.isEmpty() || w.type == QLatin1String("static") || w.type == QLatin1String("menu_item") ||
            skip.contains(w.name))
            continue;
        m_app->clearPending();
        const ActionResult r = run(zoneAction(Action::Type::LeftClick, w.name), id++);
        QVERIFY2(r.success, qPrintable(w.name + QStringLiteral(": ") + r.error));
        const auto press = m_app->waitForEvent(QStringLiteral("mouse_press"), kWaitMs);
        QVERIFY2(press, qPrintable(QStringLiteral("no press seen for ") + w.name));
        const QPoint at(press->value(QLatin1String("x")).toInt(), press->value(QLatin1String("y")).toInt());
        QVERIFY2(w.rect.contains(at), qPrintable(QStringLiteral("%1: pressed at (%2, %3) outside %4,%5 %6x%7")
                                                     .arg(w.name)
                                                     .arg(at.x())
                                                     .arg(at.y())
                                                     .arg(w.rect.x())
                                                     .arg(w.rect.y())
                                                     .arg(w.rect.width())
                                                     .arg(w.rect.height())));
        ++clicked;
    }
    QVERIFY(clicked >= 12);
}

void TestBrushE2E::typeIntoFields()
{
    startBrush(fastSettings());
    Action type = zoneAction(Action::Type::TypeText, QStringLiteral("name"));
    type.text = QStringLiteral("Brush");
    QVERIFY(run(type, 1).success);
    const auto changed = m_app->waitFor(
        [](const QJsonObject& o) {
            return o.value(QLatin1String("event")).toString() == QLatin1String("text_changed") &&
                   o.value(QLatin1String("text")).toString().endsWith(QLatin1String("Brush"));
        },
        kWaitMs);
    QVERIFY(changed);
    QCOMPARE(changed->value(QLatin1String("name")).toString(), QStringLiteral("name"));
    Action secret = zoneAction(Action::Type::TypeText, QStringLiteral("password"));
    secret.text = QStringLiteral("s3cret");
    QVERIFY(run(secret, 2).success);
    const QList<SpatialEvent> typed = eventsOf(SpatialEvent::Kind::ZoneType);
    QCOMPARE(typed.size(), 2);
    QCOMPARE(typed.at(1).data.value(QStringLiteral("text")).toString(),
             QStringLiteral("\u2022\u2022\u2022\u2022"));
}

void TestBrushE2E::buttonMovedAwayGivesBrushLost()
{
    BrushSettings s = fastSettings();
    s.trajectory.speedPxPerS = 250; // slow enough to move the button mid-way
    startBrush(s);
    Action start;
    start.type = Action::Type::MouseMove;
    start.point = QPoint(900, 100);
    BrushSettings fast = fastSettings();
    m_brush->setSettings(fast);
    QVERIFY(run(start, 1).success);
    m_brush->setSettings(s);
    m_app->clearPending();
    m_brush->executeAction(2, zoneAction(Action::Type::LeftClick, QStringLiteral("submit")));
    QVERIFY(QTest::qWaitFor([&] { return m_paths.size() >= 2; }, kWaitMs));
    QVERIFY(m_brush->isBusy()); // still moving
    QCOMPARE(m_finished.size(), 1);
    m_app->send(QStringLiteral("move submit 20 20"));
    const auto moved = m_app->waitForEvent(QStringLiteral("moved"), kWaitMs);
    QVERIFY(moved);
    const QRect newRect = test::rectFromJson(moved->value(QLatin1String("rect")).toObject());
    QVERIFY(!newRect.isEmpty());
    QList<FixtureApp::Widget> widgets = m_app->widgets();
    for (FixtureApp::Widget& w : widgets) {
        if (w.name == QLatin1String("submit"))
            w.rect = newRect;
    }
    m_brush->onZoneMap(mapOf(widgets, m_screen, 2));
    QVERIFY(QTest::qWaitFor([&] { return m_finished.size() == 2; }, 30000));
    const ActionResult r = m_finished.constLast().second;
    QVERIFY2(r.success, qPrintable(r.error));
    const QList<SpatialEvent> lost = eventsOf(SpatialEvent::Kind::BrushLost);
    QCOMPARE(lost.size(), 1);
    QCOMPARE(lost.first().zoneId, QStringLiteral("submit"));
    QVERIFY(newRect.contains(r.pointUsed));
    QVERIFY2(waitForClick(QStringLiteral("submit")), "the moved button was not clicked");
}

void TestBrushE2E::safePathNeverEntersAnotherButton()
{
    BrushSettings s = fastSettings();
    s.trajectoryKind = TrajectoryKind::Safe;
    startBrush(s);
    const auto ok = m_app->widget(QStringLiteral("ok"));
    QVERIFY(ok);
    Action start;
    start.type = Action::Type::MouseMove;
    start.point = QPoint(ok->rect.left() - 6, ok->rect.center().y());
    QVERIFY(run(start, 1).success);
    m_events.clear();
    const ActionResult r = run(zoneAction(Action::Type::LeftClick, QStringLiteral("open_dialog")), 2);
    QVERIFY2(r.success, qPrintable(r.error));
    QVERIFY(m_paths.constLast().size() >= 3); // not the straight line through the other buttons
    for (const SpatialEvent& e : eventsOf(SpatialEvent::Kind::ZoneEnter)) {
        const auto w = m_app->widget(e.zoneId);
        QVERIFY(w);
        QVERIFY2(e.zoneId == QLatin1String("open_dialog") || w->type == QLatin1String("static"),
                 qPrintable(QStringLiteral("entered ") + e.zoneId));
    }
    QVERIFY(waitForClick(QStringLiteral("open_dialog")));
    // Close the dialog the click opened.
    QVERIFY(m_app->waitForEvent(QStringLiteral("dialog_opened"), kWaitMs));
    QVERIFY(m_app->refreshWidgets());
    m_brush->onZoneMap(mapOf(m_app->widgets(), m_screen, 3));
    QVERIFY(m_app->widget(QStringLiteral("no")));
    s.trajectoryKind = TrajectoryKind::Direct;
    m_brush->setSettings(s);
    QVERIFY(run(zoneAction(Action::Type::LeftClick, QStringLiteral("no")), 3).success);
    QVERIFY(m_app->waitForEvent(QStringLiteral("dialog_closed"), kWaitMs));
}

void TestBrushE2E::userMotionTriggersTakeover()
{
    const QString xdotool = QStandardPaths::findExecutable(QStringLiteral("xdotool"));
    if (xdotool.isEmpty())
        QFAIL("xdotool is not installed (packaging/install-deps.sh)");
    BrushSettings s = fastSettings();
    s.trajectory.speedPxPerS = 200;
    startBrush(s);
    m_brush->setRunActive(true);
    m_app->clearPending();
    m_brush->executeAction(1, zoneAction(Action::Type::LeftClick, QStringLiteral("cancel")));
    QVERIFY(QTest::qWaitFor([&] { return !m_paths.isEmpty(); }, kWaitMs)); // on its way
    QVERIFY(m_brush->isBusy());
    QVERIFY(m_finished.isEmpty());
    // The human moves the mouse, from another X client.
    QProcess user;
    user.setProcessEnvironment(m_xvfb->environment());
    user.start(xdotool, {QStringLiteral("mousemove"), QStringLiteral("1100"), QStringLiteral("700")});
    QVERIFY(user.waitForFinished(5000));
    QCOMPARE(user.exitCode(), 0);
    QVERIFY(QTest::qWaitFor([&] { return !m_finished.isEmpty(); }, kWaitMs));
    QVERIFY(!m_finished.first().second.success);
    QVERIFY2(m_finished.first().second.error.contains(QStringLiteral("takeover")),
             qPrintable(m_finished.first().second.error));
    QCOMPARE(m_takeovers.size(), 1);
    QCOMPARE(m_takeovers.first().point, QPoint(1100, 700));
    QVERIFY(m_brush->isPaused());
    // The brush leaves the pointer alone and acts no more until resumed: no job drives it.
    QVERIFY(!m_brush->isBusy());
    QCoreApplication::processEvents();
    auto opened = platform::createPlatform({QStringLiteral("x11"), m_xvfb->displayName()});
    QVERIFY2(opened.platform, qPrintable(opened.error));
    QCOMPARE(opened.platform->pointer().position(), QPoint(1100, 700));
    const ActionResult refused = run(zoneAction(Action::Type::LeftClick, QStringLiteral("cancel")), 2);
    QVERIFY(refused.error.contains(QStringLiteral("paused")));
    QVERIFY(!m_app->waitFor(
        [](const QJsonObject& o) {
            return o.value(QLatin1String("event")).toString() == QLatin1String("mouse_press");
        },
        300));
    m_brush->resume();
    m_brush->setSettings(fastSettings());
    QVERIFY(run(zoneAction(Action::Type::LeftClick, QStringLiteral("cancel")), 3).success);
    QVERIFY(waitForClick(QStringLiteral("cancel")));
}

QTEST_MAIN(TestBrushE2E)
#include "tst_brush_e2e.moc"
