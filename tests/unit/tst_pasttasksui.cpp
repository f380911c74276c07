// The past tasks in the desktop app (offscreen): the task panel's "Similar to: …" line under the task with
// its replay button (the run request carries the remembered task's id, and the engine bridge passes it to
// the Director), and the settings page that lists and forgets remembered tasks (a corrupt file is shown and
// kept).

#include "core/knowledge/taskmemory.h"
#include "core/model/metatypes.h"
#include "ui/enginebridge.h"
#include "ui/pasttaskspage.h"
#include "ui/runstate.h"
#include "ui/settingsdialog.h"
#include "ui/taskconsole.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using ciu::ui::RunState;

namespace {

PastTask task(const QString& text, int steps)
{
    PastTask t;
    t.task = text;
    t.application = QStringLiteral("ciu-fixture-app");
    t.planner = QStringLiteral("local");
    for (int i = 0; i < steps; ++i) {
        t.stepLines << QStringLiteral("left_click button \"B%1\"").arg(i);
        t.steps.append(QJsonObject{
            {QStringLiteral("action"), QJsonObject{{QStringLiteral("type"), QStringLiteral("left_click")}}}});
    }
    t.narrative = TaskMemory::narrate(t.task, t.application, t.stepLines);
    return t;
}

} // namespace

class TestPastTasksUi : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { registerMetaTypes(); }
    void similarLineAndReplay();
    void settingsPageListsAndForgets();
};

void TestPastTasksUi::similarLineAndReplay()
{
    QTemporaryDir dir;
    const TaskMemory memory(dir.path());
    const auto past = memory.remember(task(QStringLiteral("type \"Ada\" into Name; click Submit"), 2));
    QVERIFY(past);
    QVERIFY(memory.remember(task(QStringLiteral("open Calculator and compute 12 times 7"), 4)));

    RunState rs;
    ui::TaskConsole console(&rs);
    console.setTaskMemoryDirectory(dir.path());
    QVERIFY(console.similarText().isEmpty());
    console.setTask(QStringLiteral("type \"Grace\" into Name; click Submit"));
    const QString expected =
        QStringLiteral("Similar to: “type \"Ada\" into Name; click Submit” (%1, 2 steps)")
            .arg(past->recordedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd")));
    QTRY_COMPARE(console.similarText(), expected);
    QCOMPARE(console.similarTaskId(), past->id);
    QVERIFY(console.replayButton()->isEnabled());

    // Replay: the past task, by its id, with the panel's other choices.
    console.setDryRun(false);
    QSignalSpy runs(&console, &ui::TaskConsole::runRequested);
    console.replayButton()->click();
    QCOMPARE(runs.count(), 1);
    const auto request = runs.first().first().value<ui::TaskRequest>();
    QCOMPARE(request.replayTaskId, past->id);
    QCOMPARE(request.task, past->task);
    QVERIFY(!request.dryRun);
    QCOMPARE(ui::EngineBridge::directorOptions(request, 20, 1.0).replayTaskId, past->id);
    ui::TaskRequest embedded = request;
    embedded.embeddingModel = QStringLiteral("bge-m3"); // Settings ▸ Agent ▸ Embedding model, for openai
    QCOMPARE(ui::EngineBridge::directorOptions(embedded, 20, 1.0).embeddingModel, QStringLiteral("bge-m3"));

    // Not while a task runs.
    rs.start(false);
    QVERIFY(!console.replayButton()->isEnabled());
    rs.requestStop();
    rs.finish(TaskOutcome{});
    QVERIFY(console.replayButton()->isEnabled());

    // A task like none remembered: the line goes.
    console.setTask(QStringLiteral("play some music"));
    QTRY_VERIFY(console.similarText().isEmpty());
    QVERIFY(console.similarTaskId().isEmpty());
    QVERIFY(!console.replayButton()->isEnabled());
}

void TestPastTasksUi::settingsPageListsAndForgets()
{
    QTemporaryDir dir;
    const TaskMemory memory(dir.path());
    const auto older = memory.remember(task(QStringLiteral("check Subscribe then click OK"), 2));
    QVERIFY(older);
    PastTask newerTask = task(QStringLiteral("type \"Ada\" into Name; click Submit"), 2);
    newerTask.recordedAt = older->recordedAt.addSecs(60);
    const auto newer = memory.remember(newerTask);
    QVERIFY(newer);
    const QString corrupt = dir.filePath(QStringLiteral("t00000000dead.json"));
    {
        QFile file(corrupt);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not json");
    }

    ui::PastTasksPage page(dir.path());
    QCOMPARE(page.list()->count(), 2);
    QVERIFY(page.list()->item(0)->text().endsWith(QStringLiteral("type \"Ada\" into Name; click Submit")));
    QCOMPARE(page.list()->item(0)->data(Qt::UserRole).toString(), newer->id);
    QCOMPARE(page.list()->item(0)->toolTip(), newer->narrative);
    QVERIFY2(page.statusText().contains(corrupt), qPrintable(page.statusText()));
    QVERIFY(!page.forgetButton()->isEnabled());

    page.list()->item(1)->setSelected(true);
    QVERIFY(page.forgetButton()->isEnabled());
    page.forgetButton()->click();
    QVERIFY(!QFile::exists(memory.pathFor(older->id)));
    QCOMPARE(page.list()->count(), 1);
    QCOMPARE(page.list()->item(0)->data(Qt::UserRole).toString(), newer->id);

    page.clearButton()->click();
    QCOMPARE(page.list()->count(), 0);
    QVERIFY(memory.load().tasks.isEmpty());
    QVERIFY(QFile::exists(corrupt)); // never deleted
    QVERIFY(!page.clearButton()->isEnabled());

    // The settings dialog carries the page (the default location, this test's own XDG folder).
    ui::SettingsDialog dialog(ui::AppSettings::defaults());
    QVERIFY(dialog.pastTasksPage());
    QCOMPARE(dialog.pastTasksPage()->list()->count(), 0);
}

QTEST_MAIN(TestPastTasksUi)
#include "tst_pasttasksui.moc"
