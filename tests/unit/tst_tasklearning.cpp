// What a task teaches for the next ones, without a Director: the steps of a completed run become a stored
// sequence and a remembered task; a dry run, a replay, a failed step or a step that cannot be recorded (a
// secret, a window, raw coordinates) stores nothing; a SPEED-MAX task with a stored sequence is replayed;
// a remembered task is found again as similar.

#include "core/director/tasklearning.h"
#include "tests/support/testzones.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using ciu::test::zone;

namespace {

const QString kTask = QStringLiteral("type Ada into Name and press Submit");

ZoneMapPtr form()
{
    Zone name = zone(QStringLiteral("b"), ZoneType::TextField, QString(), QRect(90, 58, 300, 24));
    name.application = QStringLiteral("fixture");
    Zone submit =
        zone(QStringLiteral("e"), ZoneType::Button, QStringLiteral("Submit"), QRect(20, 500, 80, 30));
    submit.application = QStringLiteral("fixture");
    return std::make_shared<const ZoneMap>(1, 0, QSize(1280, 800),
                                           QList<Zone>{zone(QStringLiteral("a"), ZoneType::Static,
                                                            QStringLiteral("Name:"), QRect(20, 60, 50, 20)),
                                                       name, submit});
}

ActionFlight flightOf(const ProposedAction& proposed)
{
    ActionFlight flight;
    flight.proposed = proposed;
    flight.sent = proposed.action;
    flight.mapBefore = form();
    return flight;
}

ProposedAction typeName()
{
    ProposedAction p;
    p.action.type = Action::Type::TypeText;
    p.action.text = QStringLiteral("Ada");
    p.action.zoneId = QStringLiteral("b");
    p.focusZoneId = QStringLiteral("b");
    return p;
}

ProposedAction clickSubmit()
{
    ProposedAction p;
    p.action.type = Action::Type::LeftClick;
    p.action.zoneId = QStringLiteral("e");
    return p;
}

ActionOutcome executed()
{
    ActionOutcome o;
    o.status = ActionOutcome::Status::Executed;
    o.result.success = true;
    return o;
}

// What the learning reported, as "info what", "error what" and "record type" lines.
struct Reports
{
    QStringList lines;
    QStringList infoMessages;

    TaskLearning::Log log()
    {
        return {
            [this](const QString& what, const QString& message, const QVariantMap&) {
                lines << QStringLiteral("info ") + what;
                infoMessages << message;
            },
            [this](const QString& what, const QString&, const QVariantMap&) {
                lines << QStringLiteral("error ") + what;
            },
            [this](const QString& type, const QJsonObject&) { lines << QStringLiteral("record ") + type; }};
    }
};

} // namespace

class TestTaskLearning : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void completedRunIsStoredAndRemembered();
    void nothingStored_data();
    void nothingStored();
    void failedStepIsNotRecorded();
    void speedMaxReplaysStoredSequence();
    void otherSpeedsDoNotReplay();
    void rememberedTaskIsSimilar();

private:
    DirectorOptions options() const;
    void run(TaskLearning& learning, const QList<ProposedAction>& steps);

    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestTaskLearning::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

DirectorOptions TestTaskLearning::options() const
{
    DirectorOptions o;
    o.dryRun = false;
    o.recordSequences = true;
    o.rememberTasks = true;
    o.sequenceDir = m_dir->filePath(QStringLiteral("sequences"));
    o.taskMemoryDir = m_dir->filePath(QStringLiteral("tasks"));
    return o;
}

void TestTaskLearning::run(TaskLearning& learning, const QList<ProposedAction>& steps)
{
    for (const ProposedAction& p : steps) {
        learning.noteDispatched(flightOf(p));
        learning.noteOutcome(p, executed());
    }
}

void TestTaskLearning::completedRunIsStoredAndRemembered()
{
    Reports reports;
    TaskLearning learning(reports.log());
    learning.begin(kTask, options());
    QVERIFY(learning.similarTasks().isEmpty());
    QCOMPARE(learning.replayPlanner(), nullptr); // SPEED-MEDIUM: no replay
    QVERIFY(!learning.replaying());
    run(learning, {typeName(), clickSubmit()});
    QCOMPARE(learning.recordedSteps().size(), 2);
    learning.completed(QStringLiteral("local"));

    const std::optional<RecordedSequence> stored = SequenceLibrary(options().sequenceDir).find(kTask);
    QVERIFY(stored);
    QCOMPARE(stored->planner, QStringLiteral("local"));
    QCOMPARE(stored->steps.size(), 2);
    QVERIFY(stored->steps.at(0).action.type == Action::Type::TypeText);
    QCOMPARE(stored->steps.at(0).action.text, QStringLiteral("Ada"));
    QVERIFY(stored->steps.at(1).action.type == Action::Type::LeftClick);
    QCOMPARE(stored->steps.at(1).target.label, QStringLiteral("Submit"));

    QVERIFY(!learning.rememberedTaskId().isEmpty());
    const std::optional<PastTask> past =
        TaskMemory(options().taskMemoryDir).find(learning.rememberedTaskId());
    QVERIFY(past);
    QCOMPARE(past->task, kTask);
    QCOMPARE(past->planner, QStringLiteral("local"));
    QCOMPARE(past->application, QStringLiteral("fixture"));
    QCOMPARE(past->steps.size(), 2);
    QCOMPARE(
        reports.lines,
        (QStringList{QStringLiteral("info sequence_recorded"), QStringLiteral("record sequence_recorded"),
                     QStringLiteral("info task_remembered"), QStringLiteral("record task_remembered")}));
}

void TestTaskLearning::nothingStored_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QStringList>("reports");
    QTest::addColumn<QString>("why");
    QTest::newRow("dry run") << QStringLiteral("dry") << QStringList() << QString();
    QTest::newRow("secret") << QStringLiteral("secret")
                            << QStringList{QStringLiteral("info sequence_not_recorded"),
                                           QStringLiteral("info task_not_remembered")}
                            << QStringLiteral("not recorded for replay: an action typed a secret");
    QTest::newRow("window") << QStringLiteral("window")
                            << QStringList{QStringLiteral("info sequence_not_recorded"),
                                           QStringLiteral("info task_not_remembered")}
                            << QStringLiteral("not recorded for replay: a step named a window");
    QTest::newRow("coordinates") << QStringLiteral("coordinates")
                                 << QStringList{QStringLiteral("info sequence_not_recorded"),
                                                QStringLiteral("info task_not_remembered")}
                                 << QStringLiteral("not recorded for replay: an action used raw screen "
                                                   "coordinates");
}

void TestTaskLearning::nothingStored()
{
    QFETCH(QString, kind);
    QFETCH(QStringList, reports);
    QFETCH(QString, why);
    DirectorOptions o = options();
    o.dryRun = kind == QLatin1String("dry");
    Reports log;
    TaskLearning learning(log.log());
    learning.begin(kTask, o);
    ProposedAction odd = typeName();
    if (kind == QLatin1String("secret")) {
        odd.action.secretText = true;
    } else if (kind == QLatin1String("window")) {
        odd = ProposedAction();
        odd.action.type = Action::Type::ActivateWindow;
        odd.action.windowId = 42;
    } else if (kind == QLatin1String("coordinates")) {
        odd = ProposedAction();
        odd.action.type = Action::Type::LeftClick;
        odd.action.point = QPoint(30, 510);
    }
    run(learning, {odd, clickSubmit()});
    learning.completed(QStringLiteral("local"));

    QVERIFY(!SequenceLibrary(o.sequenceDir).find(kTask));
    QVERIFY(learning.rememberedTaskId().isEmpty());
    QVERIFY(TaskMemory(o.taskMemoryDir).load().tasks.isEmpty());
    QCOMPARE(log.lines, reports);
    for (const QString& message : std::as_const(log.infoMessages))
        QCOMPARE(message, why);
}

void TestTaskLearning::failedStepIsNotRecorded()
{
    Reports reports;
    TaskLearning learning(reports.log());
    learning.begin(kTask, options());
    const ProposedAction type = typeName();
    learning.noteDispatched(flightOf(type));
    ActionOutcome unseen = executed();
    unseen.verificationFailed = true;
    learning.noteOutcome(type, unseen);
    const ProposedAction click = clickSubmit();
    learning.noteDispatched(flightOf(click));
    ActionOutcome failed = executed();
    failed.result.success = false;
    learning.noteOutcome(click, failed);
    QVERIFY(learning.recordedSteps().isEmpty());
    learning.completed(QStringLiteral("local"));
    QVERIFY(!SequenceLibrary(options().sequenceDir).find(kTask));
    QVERIFY(reports.lines.isEmpty());
}

void TestTaskLearning::speedMaxReplaysStoredSequence()
{
    {
        Reports reports;
        TaskLearning learning(reports.log());
        learning.begin(kTask, options());
        run(learning, {typeName(), clickSubmit()});
        learning.completed(QStringLiteral("anthropic"));
    }
    DirectorOptions o = options();
    o.speed = SpeedMode::Max;
    o.rememberTasks = false; // no similar task looked up: the replay is the sequence's
    Reports reports;
    TaskLearning learning(reports.log());
    learning.begin(kTask, o);
    const std::unique_ptr<PlanBackend> replay = learning.replayPlanner();
    QVERIFY(replay);
    QVERIFY(learning.replaying());
    QCOMPARE(reports.lines,
             (QStringList{QStringLiteral("info sequence_replay"), QStringLiteral("record sequence_replay")}));
    // A replay records nothing new; once the normal planner takes over, its steps are recorded again.
    run(learning, {clickSubmit()});
    learning.completed(QStringLiteral("replay"));
    QCOMPARE(SequenceLibrary(o.sequenceDir).find(kTask)->planner, QStringLiteral("anthropic"));
    learning.replayEnded();
    QVERIFY(!learning.replaying());
    run(learning, {clickSubmit()});
    learning.completed(QStringLiteral("local"));
    QCOMPARE(SequenceLibrary(o.sequenceDir).find(kTask)->planner, QStringLiteral("local"));
}

void TestTaskLearning::otherSpeedsDoNotReplay()
{
    {
        Reports reports;
        TaskLearning learning(reports.log());
        learning.begin(kTask, options());
        run(learning, {clickSubmit()});
        learning.completed(QStringLiteral("local"));
    }
    DirectorOptions o = options();
    o.speed = SpeedMode::Low;
    o.rememberTasks = false;
    Reports reports;
    TaskLearning learning(reports.log());
    learning.begin(kTask, o);
    QCOMPARE(learning.replayPlanner(), nullptr);
    QVERIFY(!learning.replaying());
    QVERIFY(reports.lines.isEmpty());
}

void TestTaskLearning::rememberedTaskIsSimilar()
{
    QString id;
    {
        Reports reports;
        TaskLearning learning(reports.log());
        learning.begin(kTask, options());
        run(learning, {typeName(), clickSubmit()});
        learning.completed(QStringLiteral("local"));
        id = learning.rememberedTaskId();
    }
    QVERIFY(!id.isEmpty());
    Reports reports;
    TaskLearning learning(reports.log());
    learning.begin(kTask, options());
    QCOMPARE(learning.similarTasks().size(), 1);
    QCOMPARE(learning.similarTasks().first().task.id, id);
    QVERIFY(learning.pastTaskReference().contains(kTask));
    QCOMPARE(reports.lines,
             (QStringList{QStringLiteral("info similar_tasks"), QStringLiteral("record similar_tasks")}));
    // A new task forgets what the last one was remembered as.
    QVERIFY(learning.rememberedTaskId().isEmpty());
}

QTEST_GUILESS_MAIN(TestTaskLearning)
#include "tst_tasklearning.moc"
