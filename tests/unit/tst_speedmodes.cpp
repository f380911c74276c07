// Speed modes: verification points per mode, escalation, never de-escalating.

#include "core/director/speedmode.h"

Q_DECLARE_METATYPE(ciu::ActionContext)

#include <QTest>

using namespace ciu;

class TestSpeedModes : public QObject
{
    Q_OBJECT
private slots:
    void names();
    void verification_data();
    void verification();
    void withoutModel();
    void screenshots();
    void escalation();
    void neverDeescalates();
};

namespace {

ActionContext ctx(Action::Type type, std::optional<ZoneType> zoneType = std::nullopt,
                  const QString& label = {}, const QString& text = {}, bool checkpoint = false)
{
    ActionContext c;
    c.action.type = type;
    c.action.text = text;
    c.zoneType = zoneType;
    c.zoneLabel = label;
    c.checkpoint = checkpoint;
    c.modelAvailable = true;
    return c;
}

} // namespace

void TestSpeedModes::names()
{
    for (SpeedMode m : {SpeedMode::Max, SpeedMode::High, SpeedMode::Medium, SpeedMode::Low})
        QVERIFY(speedModeFromString(toString(m)) == m);
    QCOMPARE(int(speedModeFromString(QStringLiteral("SPEED-HIGH")).value_or(SpeedMode(0))),
             int(SpeedMode::High));
    QVERIFY(!speedModeFromString(QStringLiteral("ludicrous")));
    QCOMPARE(int(SpeedPolicy().mode()), int(SpeedMode::Medium)); // the default
}

void TestSpeedModes::verification_data()
{
    QTest::addColumn<ActionContext>("context");
    QTest::addColumn<int>("max");
    QTest::addColumn<int>("high");
    QTest::addColumn<int>("medium");
    QTest::addColumn<int>("low");
    const int n = int(Verification::None);
    const int l = int(Verification::Local);
    const int m = int(Verification::Model);
    QTest::newRow("submit button") << ctx(Action::Type::LeftClick, ZoneType::Button, QStringLiteral("Submit"))
                                   << n << m << m << m;
    QTest::newRow("plain button") << ctx(Action::Type::LeftClick, ZoneType::Button, QStringLiteral("Bold"))
                                  << n << n << l << m;
    QTest::newRow("check box") << ctx(Action::Type::LeftClick, ZoneType::CheckBox,
                                      QStringLiteral("Subscribe"))
                               << n << n << l << m;
    QTest::newRow("tab (navigation)")
        << ctx(Action::Type::LeftClick, ZoneType::Tab, QStringLiteral("Second")) << n << m << m << m;
    QTest::newRow("menu item") << ctx(Action::Type::LeftClick, ZoneType::MenuItem, QStringLiteral("File"))
                               << n << m << m << m;
    QTest::newRow("typing") << ctx(Action::Type::TypeText, std::nullopt, {}, QStringLiteral("Ada")) << n << n
                            << l << m;
    QTest::newRow("scroll") << ctx(Action::Type::Scroll, ZoneType::ScrollArea) << n << n << l << m;
    QTest::newRow("shortcut") << ctx(Action::Type::Key, std::nullopt, {}, QStringLiteral("ctrl+b")) << n << n
                              << l << m;
    QTest::newRow("enter submits") << ctx(Action::Type::Key, std::nullopt, {}, QStringLiteral("Return")) << n
                                   << m << m << m;
    QTest::newRow("app switch") << ctx(Action::Type::Key, std::nullopt, {}, QStringLiteral("alt+Tab")) << n
                                << m << m << m;
    QTest::newRow("launch") << ctx(Action::Type::Launch, std::nullopt, {}, QStringLiteral("xterm")) << n << m
                            << m << m;
    QTest::newRow("mouse move") << ctx(Action::Type::MouseMove, ZoneType::Button) << n << n << n << m;
    QTest::newRow("checkpoint wait") << ctx(Action::Type::WaitForChange, std::nullopt, {},
                                            QStringLiteral("Saved"), true)
                                     << l << l << l << m;
    QTest::newRow("plain wait") << ctx(Action::Type::Wait) << n << n << n << n;
}

void TestSpeedModes::verification()
{
    QFETCH(ActionContext, context);
    QFETCH(int, max);
    QFETCH(int, high);
    QFETCH(int, medium);
    QFETCH(int, low);
    QCOMPARE(int(SpeedPolicy(SpeedMode::Max).verificationFor(context)), max);
    QCOMPARE(int(SpeedPolicy(SpeedMode::High).verificationFor(context)), high);
    QCOMPARE(int(SpeedPolicy(SpeedMode::Medium).verificationFor(context)), medium);
    // WaitForChange is answered by the director itself: a checkpoint, never a model call.
    if (context.action.type == Action::Type::WaitForChange || context.action.type == Action::Type::Wait)
        low = context.checkpoint ? int(Verification::Local) : int(Verification::None);
    QCOMPARE(int(SpeedPolicy(SpeedMode::Low).verificationFor(context)), low);
}

void TestSpeedModes::withoutModel()
{
    ActionContext c = ctx(Action::Type::LeftClick, ZoneType::Button, QStringLiteral("Submit"));
    c.modelAvailable = false;
    QCOMPARE(int(SpeedPolicy(SpeedMode::Low).verificationFor(c)), int(Verification::Local));
    QCOMPARE(int(SpeedPolicy(SpeedMode::High).verificationFor(c)), int(Verification::Local));
}

void TestSpeedModes::screenshots()
{
    const ActionContext submit = ctx(Action::Type::LeftClick, ZoneType::Button, QStringLiteral("Submit"));
    const ActionContext typing = ctx(Action::Type::TypeText, std::nullopt, {}, QStringLiteral("x"));
    QVERIFY(!SpeedPolicy(SpeedMode::Max).screenshotForVerification(submit));
    QVERIFY(SpeedPolicy(SpeedMode::High).screenshotForVerification(submit));
    QVERIFY(SpeedPolicy(SpeedMode::Medium).screenshotForVerification(submit));
    QVERIFY(!SpeedPolicy(SpeedMode::Medium).screenshotForVerification(typing));
    QVERIFY(SpeedPolicy(SpeedMode::Low).screenshotForVerification(typing));
}

void TestSpeedModes::escalation()
{
    SpeedPolicy p(SpeedMode::Max);
    QCOMPARE(int(p.escalate().value_or(SpeedMode(0))), int(SpeedMode::High));
    QCOMPARE(int(p.escalate().value_or(SpeedMode(0))), int(SpeedMode::Medium));
    QCOMPARE(int(p.escalate().value_or(SpeedMode(0))), int(SpeedMode::Low));
    QVERIFY(!p.escalate());
    QCOMPARE(int(p.mode()), int(SpeedMode::Low));
    QCOMPARE(p.escalations(), 3);
    QCOMPARE(int(p.initialMode()), int(SpeedMode::Max));
}

void TestSpeedModes::neverDeescalates()
{
    SpeedPolicy p(SpeedMode::Medium);
    QVERIFY(!p.request(SpeedMode::High));
    QVERIFY(!p.request(SpeedMode::Max));
    QVERIFY(!p.request(SpeedMode::Medium));
    QCOMPARE(int(p.mode()), int(SpeedMode::Medium));
    QVERIFY(p.request(SpeedMode::Low));
    QCOMPARE(int(p.mode()), int(SpeedMode::Low));
    QVERIFY(!p.request(SpeedMode::Medium));
    QCOMPARE(int(p.mode()), int(SpeedMode::Low));
}

QTEST_GUILESS_MAIN(TestSpeedModes)
#include "tst_speedmodes.moc"
