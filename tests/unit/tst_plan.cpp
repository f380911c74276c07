// Plan: the seed's text format and JSON round trips.

#include "core/model/plan.h"

#include <QJsonDocument>
#include <QTest>

using namespace ciu;

class TestPlan : public QObject
{
    Q_OBJECT
private slots:
    void seedExample();
    void stepText_data();
    void stepText();
    void jsonRoundTrip();
    void badJson_data();
    void badJson();
    void counts();
};

namespace {

PlanStep zoneStep(const QString& label, ZoneType type, const QString& verb)
{
    PlanStep s;
    s.kind = PlanStep::Kind::ZoneAction;
    s.zoneLabel = label;
    s.zoneType = type;
    s.verb = verb;
    return s;
}

PlanStep waitStep(const QString& expected)
{
    PlanStep s;
    s.kind = PlanStep::Kind::WaitForChange;
    s.expectedChange = expected;
    return s;
}

} // namespace

void TestPlan::seedExample()
{
    Plan p;
    p.task = QStringLiteral("Open the document and save it as PDF");
    p.steps = {zoneStep(QStringLiteral("File"), ZoneType::MenuItem, QStringLiteral("click")),
               waitStep(QStringLiteral("menu dropdown")),
               zoneStep(QStringLiteral("Save As"), ZoneType::MenuItem, QStringLiteral("click")),
               waitStep(QStringLiteral("dialog")),
               zoneStep(QStringLiteral("Format"), ZoneType::Dropdown, QStringLiteral("click")),
               zoneStep(QStringLiteral("PDF"), ZoneType::MenuItem, QStringLiteral("click")),
               zoneStep(QStringLiteral("Save"), ZoneType::Button, QStringLiteral("click"))};
    p.currentStep = 1;
    p.status = Plan::Status::Executing;
    // The plan text format, verbatim.
    const QString expected =
        QStringLiteral("Task: \"Open the document and save it as PDF\"\n"
                       "\n"
                       "Plan:\n"
                       "  Step 1: Navigate to zone \"File\" (type: menu_item) \u2192 click\n"
                       "  Step 2: Wait for canvas change (menu dropdown expected)\n"
                       "  Step 3: Navigate to zone \"Save As\" (type: menu_item) \u2192 click\n"
                       "  Step 4: Wait for canvas change (dialog expected)\n"
                       "  Step 5: Navigate to zone \"Format\" (type: dropdown) \u2192 click\n"
                       "  Step 6: Navigate to zone \"PDF\" (type: menu_item) \u2192 click\n"
                       "  Step 7: Navigate to zone \"Save\" (type: button) \u2192 click\n"
                       "\n"
                       "Current step: 1\n"
                       "Status: executing\n");
    QCOMPARE(p.toText(), expected);
}

void TestPlan::stepText_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("verb");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<QString>("text");
    QTest::newRow("zone without type") << int(PlanStep::Kind::ZoneAction) << "OK"
                                       << "click"
                                       << "" << QStringLiteral("Navigate to zone \"OK\" \u2192 click");
    QTest::newRow("wait without expectation") << int(PlanStep::Kind::WaitForChange) << ""
                                              << ""
                                              << ""
                                              << "Wait for canvas change";
    QTest::newRow("other") << int(PlanStep::Kind::Other) << ""
                           << ""
                           << ""
                           << "Press ctrl+s";
}

void TestPlan::stepText()
{
    QFETCH(int, kind);
    QFETCH(QString, label);
    QFETCH(QString, verb);
    QFETCH(QString, expected);
    QFETCH(QString, text);
    PlanStep s;
    s.kind = PlanStep::Kind(kind);
    s.zoneLabel = label;
    s.verb = verb;
    s.expectedChange = expected;
    s.description = QStringLiteral("Press ctrl+s");
    QCOMPARE(s.text(), text);
}

void TestPlan::jsonRoundTrip()
{
    Plan p;
    p.task = QStringLiteral("fill the form");
    p.steps = {zoneStep(QStringLiteral("Name"), ZoneType::TextField, QStringLiteral("type \"Ada\"")),
               waitStep(QStringLiteral("dialog"))};
    p.steps[0].zoneId = QStringLiteral("z4");
    p.steps[0].status = PlanStep::Status::Done;
    p.steps[1].status = PlanStep::Status::Running;
    p.currentStep = 2;
    p.status = Plan::Status::Paused;
    QString error;
    const auto back = Plan::fromJson(p.toJson(), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->toText(), p.toText());
    QCOMPARE(back->toJson(), p.toJson());
    QCOMPARE(back->steps[0].zoneId, QStringLiteral("z4"));
    QCOMPARE(int(back->steps[1].status), int(PlanStep::Status::Running));
    QCOMPARE(p.toJson().value(QStringLiteral("status")).toString(), QStringLiteral("paused"));
}

void TestPlan::badJson_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("no task") << QByteArray(R"({"status":"executing","steps":[]})") << "task";
    QTest::newRow("bad status") << QByteArray(R"({"task":"t","status":"dancing","steps":[]})") << "dancing";
    QTest::newRow("bad step kind")
        << QByteArray(R"({"task":"t","status":"executing","steps":[{"kind":"x","status":"done"}]})")
        << "step 1";
    QTest::newRow("bad zone type")
        << QByteArray(
               R"({"task":"t","status":"executing","steps":[{"kind":"zone_action","status":"done","zone_type":"blob"}]})")
        << "blob";
    QTest::newRow("current out of range")
        << QByteArray(R"({"task":"t","status":"executing","steps":[],"current_step":3})") << "current_step";
}

void TestPlan::badJson()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, fragment);
    QString error;
    const auto p = Plan::fromJson(QJsonDocument::fromJson(json).object(), &error);
    QVERIFY(!p);
    QVERIFY2(error.contains(fragment), qPrintable(error));
}

void TestPlan::counts()
{
    Plan p;
    p.steps = {waitStep({}), waitStep({}), waitStep({})};
    p.steps[0].status = PlanStep::Status::Done;
    p.steps[1].status = PlanStep::Status::Done;
    QCOMPARE(p.count(PlanStep::Status::Done), 2);
    QCOMPARE(p.count(PlanStep::Status::Pending), 1);
    QCOMPARE(p.count(PlanStep::Status::Failed), 0);
}

QTEST_GUILESS_MAIN(TestPlan)
#include "tst_plan.moc"
