// RunState, the one model of a run the window reads: every transition of the state machine (start, the
// Director's reports, takeover on and off, stop, the end in each outcome, an engine failure), what the user
// may do in each state, the status line (a dry run is a preview, a user's stop is not an error, a stale
// detail never outlives its state), and the task console and plan that follow it.

#include "core/model/metatypes.h"
#include "ui/planmodel.h"
#include "ui/runstate.h"
#include "ui/taskconsole.h"

#include <QApplication>
#include <QFont>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace ciu;
using ciu::ui::AgentState;
using ciu::ui::RunState;

namespace {

TaskOutcome outcome(TaskOutcome::Result result, bool dryRun, const QString& message = {}, int steps = 3)
{
    TaskOutcome o;
    o.result = result;
    o.dryRun = dryRun;
    o.message = message;
    for (int i = 0; i < steps; ++i) {
        PlanStep s;
        s.kind = PlanStep::Kind::ZoneAction;
        s.zoneLabel = QStringLiteral("Key %1").arg(i);
        s.verb = QStringLiteral("click");
        s.status = PlanStep::Status::Done;
        o.plan.steps << s;
    }
    return o;
}

// The state's permissions as a string: R(un) P(ause) U (resume) S(tep) O (stop); '-' where not allowed.
QString permissions(const RunState& rs)
{
    return QString(rs.canRun() ? QLatin1Char('R') : QLatin1Char('-')) +
           (rs.canPause() ? QLatin1Char('P') : QLatin1Char('-')) +
           (rs.canResume() ? QLatin1Char('U') : QLatin1Char('-')) +
           (rs.canStep() ? QLatin1Char('S') : QLatin1Char('-')) +
           (rs.canStop() ? QLatin1Char('O') : QLatin1Char('-'));
}

} // namespace

class TestRunState : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { registerMetaTypes(); }
    void permissionsPerState_data();
    void permissionsPerState();
    void lateReportsChangeNothing();
    void takeoverWhileIdleKeepsIdle();
    void outcomes_data();
    void outcomes();
    void engineFailure();
    void consoleFollowsState();
    void planShowsEachStepsStatus();
    void dryRunPlanIsPreview();
};

// Each row drives a fresh RunState through `events` and checks the state, permissions and status line.
// Events: run, dry, dir:<Planning|Executing|Paused|Finished|Confirming>, over, back, stop, done, fail.
void TestRunState::permissionsPerState_data()
{
    QTest::addColumn<QStringList>("events");
    QTest::addColumn<int>("state");
    QTest::addColumn<QString>("allowed");
    QTest::addColumn<QString>("text"); // a part of the status line

    const auto row = [](const char* name, const char* events, AgentState state, const char* allowed,
                        const char* text) {
        QTest::newRow(name) << QString::fromLatin1(events).split(QLatin1Char(' '), Qt::SkipEmptyParts)
                            << int(state) << QString::fromLatin1(allowed) << QString::fromUtf8(text);
    };
    row("idle", "", AgentState::Idle, "R--S-", "Ready");
    row("run → starting", "run", AgentState::Starting, "----O", "Starting");
    row("dry run → starting preview", "dry", AgentState::Starting, "----O", "preview");
    row("starting → running", "run dir:Executing", AgentState::Running, "-P--O", "executing click");
    row("dry running says previewing", "dry dir:Executing", AgentState::Running, "-P--O", "Previewing");
    row("running → paused", "run dir:Executing dir:Paused", AgentState::Paused, "--USO", "Paused");
    row("paused → running", "run dir:Paused dir:Planning", AgentState::Running, "-P--O", "planning");
    row("confirming is running", "run dir:Confirming", AgentState::Running, "-P--O", "your answer");
    row("running → taken over", "run dir:Executing over", AgentState::TakenOver, "----O", "You have control");
    row("taken over ignores the director", "run over dir:Executing", AgentState::TakenOver, "----O",
        "You have control");
    row("takeover ends → paused", "run dir:Executing over back", AgentState::Paused, "--USO",
        "after your takeover");
    row("paused → taken over", "run dir:Paused over", AgentState::TakenOver, "----O", "You have control");
    row("running → stopping", "run dir:Executing stop", AgentState::Stopping, "-----", "Stopping");
    row("taken over → stopping", "run over stop", AgentState::Stopping, "-----", "Stopping");
    row("starting → stopping", "run stop", AgentState::Stopping, "-----", "Stopping");
    row("stopping → finished", "run stop stopped", AgentState::Finished, "R--S-", "Stopped by you");
    // The sequence: takeover on, off, emergency stop; then Run is possible again.
    row("takeover on/off/stop → can run", "run dir:Executing over back stop stopped", AgentState::Finished,
        "R--S-", "Stopped by you");
    row("finished → run again", "run done run", AgentState::Starting, "----O", "Starting");
    row("stop while idle does nothing", "stop", AgentState::Idle, "R--S-", "Ready");
    row("director finished waits for the outcome", "run dir:Finished", AgentState::Starting, "----O",
        "Starting");
}

void TestRunState::permissionsPerState()
{
    QFETCH(QStringList, events);
    QFETCH(int, state);
    QFETCH(QString, allowed);
    QFETCH(QString, text);
    RunState rs;
    QSignalSpy changed(&rs, &RunState::changed);
    int expectedChanges = 0;
    for (const QString& e : events) {
        const AgentState before = rs.state();
        const QString textBefore = rs.statusText();
        if (e == QLatin1String("run"))
            rs.start(false);
        else if (e == QLatin1String("dry"))
            rs.start(true);
        else if (e == QLatin1String("dir:Executing"))
            rs.setDirectorState(DirectorState::Executing, QStringLiteral("executing click OK"));
        else if (e == QLatin1String("dir:Planning"))
            rs.setDirectorState(DirectorState::Planning, QStringLiteral("planning"));
        else if (e == QLatin1String("dir:Paused"))
            rs.setDirectorState(DirectorState::Paused, QStringLiteral("paused"));
        else if (e == QLatin1String("dir:Confirming"))
            rs.setDirectorState(DirectorState::Confirming, QStringLiteral("type sudo"));
        else if (e == QLatin1String("dir:Finished"))
            rs.setDirectorState(DirectorState::Finished, QStringLiteral("done"));
        else if (e == QLatin1String("over"))
            rs.setTakeover(true);
        else if (e == QLatin1String("back"))
            rs.setTakeover(false);
        else if (e == QLatin1String("stop"))
            rs.requestStop();
        else if (e == QLatin1String("stopped"))
            rs.finish(outcome(TaskOutcome::Result::Stopped, false, QStringLiteral("stopped by the user")));
        else if (e == QLatin1String("done"))
            rs.finish(outcome(TaskOutcome::Result::Completed, false, QStringLiteral("all 3 steps done")));
        else
            QFAIL(qPrintable(e));
        if (rs.state() != before || rs.statusText() != textBefore)
            ++expectedChanges;
    }
    QCOMPARE(int(rs.state()), state);
    QCOMPARE(permissions(rs), allowed);
    QVERIFY2(rs.statusText().contains(text, Qt::CaseInsensitive), qPrintable(rs.statusText()));
    // changed() fires exactly when the state or its line changed.
    QCOMPARE(changed.count(), expectedChanges);
    QCOMPARE(rs.isActive(), state != int(AgentState::Idle) && state != int(AgentState::Finished));
}

void TestRunState::lateReportsChangeNothing()
{
    RunState rs;
    rs.start(false);
    rs.setDirectorState(DirectorState::Executing, QStringLiteral("waiting 2000 ms"));
    rs.requestStop();
    // A report of the step that was under way arrives after Stop: the state stays stopping.
    rs.setDirectorState(DirectorState::Executing, QStringLiteral("waiting 2000 ms"));
    QCOMPARE(rs.state(), AgentState::Stopping);
    rs.finish(outcome(TaskOutcome::Result::Stopped, false));
    rs.setDirectorState(DirectorState::Verifying, QStringLiteral("waiting 2000 ms"));
    QCOMPARE(rs.state(), AgentState::Finished);
    QVERIFY(!rs.statusText().contains(QLatin1String("waiting")));
    // A takeover after the end changes nothing either, and its end leaves no "Takeover" line.
    rs.setTakeover(true);
    QCOMPARE(rs.state(), AgentState::Finished);
    rs.setTakeover(false);
    QCOMPARE(rs.state(), AgentState::Finished);
    QVERIFY(rs.canRun());
}

void TestRunState::takeoverWhileIdleKeepsIdle()
{
    RunState rs;
    rs.setTakeover(true);
    QCOMPARE(rs.state(), AgentState::Idle);
    QVERIFY(rs.canRun());
    rs.setTakeover(false);
    QCOMPARE(rs.state(), AgentState::Idle);
}

void TestRunState::outcomes_data()
{
    QTest::addColumn<int>("result");
    QTest::addColumn<bool>("dryRun");
    QTest::addColumn<int>("expected");
    QTest::addColumn<QString>("text");
    QTest::newRow("done") << int(TaskOutcome::Result::Completed) << false << int(RunState::Outcome::Completed)
                          << QStringLiteral("Done: all 3 steps done");
    QTest::newRow("dry run is a preview")
        << int(TaskOutcome::Result::Completed) << true << int(RunState::Outcome::Preview)
        << QStringLiteral("Preview only: nothing was done. Planned steps: 3.");
    QTest::newRow("stopped") << int(TaskOutcome::Result::Stopped) << false << int(RunState::Outcome::Stopped)
                             << QStringLiteral("Stopped by you.");
    QTest::newRow("failed") << int(TaskOutcome::Result::Failed) << false << int(RunState::Outcome::Failed)
                            << QStringLiteral("Failed: all 3 steps done");
    QTest::newRow("impossible") << int(TaskOutcome::Result::Impossible) << true
                                << int(RunState::Outcome::Failed)
                                << QStringLiteral("Failed: all 3 steps done");
    QTest::newRow("iterations") << int(TaskOutcome::Result::IterationLimit) << false
                                << int(RunState::Outcome::LimitReached)
                                << QStringLiteral("Stopped at the limit: all 3 steps done");
    QTest::newRow("unverified") << int(TaskOutcome::Result::Unverified) << false
                                << int(RunState::Outcome::Unverified)
                                << QStringLiteral("Not verified: all 3 steps done");
    QTest::newRow("cost") << int(TaskOutcome::Result::CostLimit) << false
                          << int(RunState::Outcome::LimitReached)
                          << QStringLiteral("Stopped at the limit: all 3 steps done");
}

void TestRunState::outcomes()
{
    QFETCH(int, result);
    QFETCH(bool, dryRun);
    QFETCH(int, expected);
    QFETCH(QString, text);
    RunState rs;
    rs.start(dryRun);
    rs.setDirectorState(DirectorState::Executing, QStringLiteral("executing"));
    rs.finish(outcome(TaskOutcome::Result(result), dryRun, QStringLiteral("all 3 steps done")));
    QCOMPARE(rs.state(), AgentState::Finished);
    QCOMPARE(int(rs.outcome()), expected);
    QVERIFY2(rs.statusText().startsWith(text), qPrintable(rs.statusText()));
    QCOMPARE(rs.isDryRun(), dryRun);
    // A new run clears the outcome.
    rs.start(false);
    QCOMPARE(rs.outcome(), RunState::Outcome::None);
}

void TestRunState::engineFailure()
{
    RunState idle;
    idle.engineFailed(QStringLiteral("cannot open display :99"));
    QCOMPARE(idle.state(), AgentState::Idle);
    QCOMPARE(idle.outcome(), RunState::Outcome::None);
    QVERIFY(idle.statusText().contains(QLatin1String(":99")));

    RunState running;
    running.start(false);
    running.setDirectorState(DirectorState::Executing, QStringLiteral("executing"));
    running.engineFailed(QStringLiteral("the display connection was lost"));
    QCOMPARE(running.state(), AgentState::Finished);
    QCOMPARE(running.outcome(), RunState::Outcome::Failed);
    QVERIFY(running.canRun());
}

void TestRunState::consoleFollowsState()
{
    RunState rs;
    ui::TaskConsole console(&rs);
    console.setTask(QStringLiteral("click OK"));
    QSignalSpy runs(&console, &ui::TaskConsole::runRequested);
    QVERIFY(console.runButton()->isEnabled());
    QVERIFY(!console.resumeButton()->isEnabled());
    rs.start(false);
    QVERIFY(!console.runButton()->isEnabled());
    QVERIFY(console.stopButton()->isEnabled());
    QCOMPARE(console.statusText(), rs.statusText());
    rs.setDirectorState(DirectorState::Executing, QStringLiteral("executing click OK"));
    rs.setTakeover(true);
    QVERIFY(!console.resumeButton()->isEnabled());
    QVERIFY(!console.pauseButton()->isEnabled());
    rs.setTakeover(false);
    QVERIFY(console.resumeButton()->isEnabled());
    QVERIFY(console.stepButton()->isEnabled());
    QCOMPARE(console.statusText(), rs.statusText());
    rs.requestStop();
    QVERIFY(!console.stopButton()->isEnabled());
    console.run(); // not while stopping
    QCOMPARE(runs.count(), 0);
    rs.finish(outcome(TaskOutcome::Result::Stopped, false));
    QVERIFY(console.runButton()->isEnabled());
    QVERIFY(!console.resumeButton()->isEnabled());
    QCOMPARE(console.statusText(), QStringLiteral("Stopped by you."));
    console.run();
    QCOMPARE(runs.count(), 1);
}

void TestRunState::planShowsEachStepsStatus()
{
    RunState rs;
    ui::TaskConsole console(&rs);
    ui::PlanModel* model = console.planModel();
    Plan plan;
    for (const PlanStep::Status s :
         {PlanStep::Status::Done, PlanStep::Status::Failed, PlanStep::Status::Running,
          PlanStep::Status::Skipped, PlanStep::Status::Pending}) {
        PlanStep step;
        step.description = QStringLiteral("step");
        step.status = s;
        plan.steps << step;
    }
    rs.start(false);
    console.setPlan(plan, false);
    QCOMPARE(model->currentRow(), 2);
    QCOMPARE(model->index(0).data(Qt::AccessibleDescriptionRole).toString(), QStringLiteral("done"));
    QCOMPARE(model->index(1).data(Qt::AccessibleDescriptionRole).toString(), QStringLiteral("failed"));
    QCOMPARE(model->index(2).data(Qt::AccessibleDescriptionRole).toString(), QStringLiteral("current step"));
    QCOMPARE(model->index(3).data(Qt::AccessibleDescriptionRole).toString(), QStringLiteral("skipped"));
    QCOMPARE(model->index(4).data(Qt::AccessibleDescriptionRole).toString(), QStringLiteral("pending"));
    QVERIFY(model->index(2).data(Qt::FontRole).value<QFont>().bold());
    // The task ends (stopped): the step that was running is no longer marked as running.
    rs.requestStop();
    rs.finish(outcome(TaskOutcome::Result::Stopped, false));
    QCOMPARE(model->currentRow(), -1);
    QCOMPARE(model->index(2).data(Qt::AccessibleDescriptionRole).toString(), QStringLiteral("interrupted"));
    QVERIFY(!model->index(2).data(Qt::FontRole).isValid());
    // A new run starts with an empty plan.
    rs.start(false);
    QCOMPARE(model->rowCount(), 0);
}

void TestRunState::dryRunPlanIsPreview()
{
    RunState rs;
    ui::TaskConsole console(&rs);
    const TaskOutcome o = outcome(TaskOutcome::Result::Completed, true);
    rs.start(true);
    rs.finish(o);
    console.setPlan(o.plan, true);
    ui::PlanModel* model = console.planModel();
    QCOMPARE(model->rowCount(), 3);
    QCOMPARE(model->stepText(0), QStringLiteral("would click “Key 0”"));
    QCOMPARE(model->index(0).data().toString(), QStringLiteral("1. would click “Key 0”"));
    QCOMPARE(model->index(0).data(Qt::AccessibleDescriptionRole).toString(),
             QStringLiteral("preview, not executed"));
    QVERIFY(!console.statusText().contains(QLatin1String("completed"), Qt::CaseInsensitive));
    QVERIFY(console.statusText().startsWith(QLatin1String("Preview only")));
    // The same plan executed is done, with the step's own text.
    console.setPlan(o.plan, false);
    QCOMPARE(model->index(0).data(Qt::AccessibleDescriptionRole).toString(), QStringLiteral("done"));
    QVERIFY(model->stepText(0).startsWith(QLatin1String("Navigate to zone")));
}

QTEST_MAIN(TestRunState)
#include "tst_runstate.moc"
