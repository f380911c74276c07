// The memory of past tasks: BM25 ranking of task texts (exact order), the store's round trip, corrupt files
// (reported, never overwritten or deleted), secrets never written (checked on disk), and the Director's hook:
// only a verified, executed completion is remembered; a new task gets the similar ones (logged, in its
// outcome, in the model's first message); a remembered task's steps replay.

#include "core/director/director.h"
#include "core/director/modelplanner.h"
#include "core/knowledge/bm25.h"
#include "core/knowledge/taskmemory.h"
#include "core/model/metatypes.h"
#include "core/model/secrets.h"
#include "core/providers/keystore.h"
#include "tests/support/fakeapiserver.h"
#include "tests/support/testzones.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace ciu;
using ciu::test::FakeApiServer;
using ciu::test::zone;

namespace {

const QStringList kTexts{
    QStringLiteral("open the File menu and save the document as report.txt"), // 0
    QStringLiteral("type Ada into Name and click Submit"),                    // 1
    QStringLiteral("check Subscribe then click OK"),                          // 2
    QStringLiteral("open Calculator and compute 12 times 7"),                 // 3
    QStringLiteral("set the color to Blue and submit the form"),              // 4
};

QList<int> documentsOf(const QList<Bm25Index::Hit>& hits)
{
    QList<int> out;
    for (const Bm25Index::Hit& h : hits)
        out << h.document;
    return out;
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Every byte of every file under `dir`.
QByteArray everythingUnder(const QString& dir)
{
    QByteArray all;
    const QDir d(dir);
    for (const QString& name : d.entryList(QDir::Files))
        all += readAll(d.filePath(name));
    return all;
}

PastTask sampleTask(const QString& text = QStringLiteral("type Ada into Name and click Submit"))
{
    PastTask t;
    t.task = text;
    t.application = QStringLiteral("ciu-fixture-app");
    t.planner = QStringLiteral("local");
    t.stepLines = {QStringLiteral("left_click text_field beside \"Name:\""),
                   QStringLiteral("type_text \"Ada\""), QStringLiteral("left_click button \"Submit\"")};
    t.steps = QJsonArray{QJsonObject{
        {QStringLiteral("action"), QJsonObject{{QStringLiteral("type"), QStringLiteral("left_click")}}}}};
    t.narrative = TaskMemory::narrate(t.task, t.application, t.stepLines);
    return t;
}

QList<Zone> formZones()
{
    QList<Zone> zones{
        zone(QStringLiteral("z1"), ZoneType::Static, QStringLiteral("Name:"), QRect(20, 60, 50, 20)),
        zone(QStringLiteral("z2"), ZoneType::TextField, QString(), QRect(90, 58, 300, 24)),
        zone(QStringLiteral("z3"), ZoneType::Static, QStringLiteral("Password:"), QRect(20, 120, 80, 20)),
        zone(QStringLiteral("z4"), ZoneType::TextField, QString(), QRect(110, 118, 300, 24)),
        zone(QStringLiteral("z5"), ZoneType::CheckBox, QStringLiteral("Subscribe"), QRect(20, 200, 120, 22)),
        zone(QStringLiteral("z7"), ZoneType::Button, QStringLiteral("OK"), QRect(20, 500, 80, 30)),
        zone(QStringLiteral("z9"), ZoneType::Button, QStringLiteral("Submit"), QRect(200, 500, 80, 30))};
    zones[3].isPassword = true;
    for (Zone& z : zones)
        z.application = QStringLiteral("ciu-fixture-app");
    return zones;
}

// A Director with a fake brush (as in tst_director): every action succeeds and changes the screen unless
// `answer` says otherwise; a new zone map follows each change.
class Harness : public QObject
{
public:
    explicit Harness(const QString& memoryDir)
        : m_zones(formZones())
    {
        registerMetaTypes();
        publish();
        QObject::connect(&director, &Director::actionRequested, this, [this](quint64 id, const Action& a) {
            requested.append(a);
            QTimer::singleShot(0, this, [this, id, a] {
                ActionResult r;
                r.success = true;
                r.changeObserved = changes;
                if (r.changeObserved) {
                    ChangeRegion region;
                    region.rect = QRect(600, 700, 40, 20);
                    for (const Zone& z : std::as_const(m_zones)) {
                        if (z.id == a.zoneId && z.type != ZoneType::Button)
                            region.rect = z.bounds;
                    }
                    region.changedPercent = 60;
                    r.changes << region;
                    publish();
                }
                director.onActionFinished(id, r);
            });
        });
        QObject::connect(&director, &Director::finished, this, [this](const TaskOutcome& o) { outcome = o; });
        QObject::connect(&director, &Director::eventOccurred, this,
                         [this](const SpatialEvent& e) { events.append(e); });
        QObject::connect(&director, &Director::decisionRecorded, this,
                         [this](const QJsonObject& r) { records.append(r); });
        options.settleTimeoutMs = 30;
        options.reanalysisTimeoutMs = 100;
        options.actionTimeoutMs = 300;
        options.firstMapTimeoutMs = 100;
        options.dryRun = false;
        options.sequenceDir = sequences.path();
        options.taskMemoryDir = memoryDir;
    }

    void publish()
    {
        ++m_version;
        director.onZoneMap(std::make_shared<const ZoneMap>(m_version, 0, QSize(1280, 800), m_zones));
    }
    bool run(const QString& task)
    {
        outcome.reset();
        requested.clear();
        director.startTask(task, options);
        return QTest::qWaitFor([this] { return outcome.has_value(); }, 5000);
    }
    QStringList infos(const QString& what) const
    {
        QStringList out;
        for (const SpatialEvent& e : events) {
            if (e.data.value(QStringLiteral("what")).toString() == what)
                out << e.data.value(QStringLiteral("message")).toString();
        }
        return out;
    }

    QTemporaryDir sequences;
    Director director;
    DirectorOptions options;
    bool changes = true;
    QList<Action> requested;
    std::optional<TaskOutcome> outcome;
    QList<SpatialEvent> events;
    QList<QJsonObject> records;

private:
    QList<Zone> m_zones;
    quint64 m_version = 0;
};

} // namespace

class TestTaskMemory : public QObject
{
    Q_OBJECT
private slots:
    void tokenize_data();
    void tokenize();
    void bm25Ranking_data();
    void bm25Ranking();
    void bm25Relevance();
    void storeRoundTrip();
    void sameTaskReplacesItsMemory();
    void forgetAndClear();
    void corruptFileIsReportedAndKept();
    void badJson_data();
    void badJson();
    void similarAboveTheFloor();
    void secretsNeverWritten();
    void directorRemembersOnlyVerifiedCompletions();
    void directorNeverRemembersATypedPassword();
    void directorGivesSimilarTasksAndReplaysOne();
    void modelPlannerGetsTheReference();
};

void TestTaskMemory::tokenize_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("tokens");
    QTest::newRow("fillers dropped, lower case")
        << QStringLiteral("Please open the File menu, then Save.")
        << QStringList{QStringLiteral("open"), QStringLiteral("file"), QStringLiteral("menu"),
                       QStringLiteral("save")};
    QTest::newRow("plural s stripped, ss kept")
        << QStringLiteral("opens files in class")
        << QStringList{QStringLiteral("open"), QStringLiteral("file"), QStringLiteral("class")};
    QTest::newRow("short words and digits kept")
        << QStringLiteral("is 12 x 7?")
        << QStringList{QStringLiteral("is"), QStringLiteral("12"), QStringLiteral("x"), QStringLiteral("7")};
    QTest::newRow("punctuation splits")
        << QStringLiteral("report.txt") << QStringList{QStringLiteral("report"), QStringLiteral("txt")};
    QTest::newRow("nothing") << QStringLiteral(" , the ") << QStringList{};
}

void TestTaskMemory::tokenize()
{
    QFETCH(QString, text);
    QFETCH(QStringList, tokens);
    QCOMPARE(Bm25Index::tokenize(text), tokens);
}

void TestTaskMemory::bm25Ranking_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QList<int>>("order");
    // Every document that shares a term, best first; the expected neighbour is first.
    QTest::newRow("same form, other name")
        << QStringLiteral("type Grace into Name and click Submit") << QList<int>{1, 2, 4};
    QTest::newRow("save as") << QStringLiteral("save the document as notes.txt") << QList<int>{0};
    QTest::newRow("stemmed: opens calculators")
        << QStringLiteral("opens the calculators") << QList<int>{3, 0};
    QTest::newRow("submit the form") << QStringLiteral("submit the form") << QList<int>{4, 1};
    QTest::newRow("no shared word") << QStringLiteral("play some music") << QList<int>{};
}

void TestTaskMemory::bm25Ranking()
{
    QFETCH(QString, query);
    QFETCH(QList<int>, order);
    Bm25Index index;
    for (const QString& text : kTexts)
        index.addDocument(text);
    QCOMPARE(index.size(), 5);
    QCOMPARE(documentsOf(index.search(query)), order);
    QCOMPARE(documentsOf(index.search(query, 1)), order.mid(0, 1));
}

void TestTaskMemory::bm25Relevance()
{
    Bm25Index index;
    for (const QString& text : kTexts)
        index.addDocument(text);
    QCOMPARE(index.parameters().k1, 1.2);
    QCOMPARE(index.parameters().b, 0.75);
    // The text itself is the most relevant; a query of mostly new words is barely relevant to anything.
    const auto self = index.search(kTexts[1]);
    QCOMPARE(self.first().document, 1);
    QCOMPARE(self.first().relevance, 1.0); // every word, in a text shorter than the average: capped at 1
    const auto vague = index.search(QStringLiteral("play music loudly then click nothing"));
    QCOMPARE(documentsOf(vague), (QList<int>{2, 1})); // "click" only; the shorter text first
    QVERIFY(vague.first().relevance < TaskMemory::kDefaultFloor);
    // An empty index or a query of fillers finds nothing.
    QVERIFY(Bm25Index().search(QStringLiteral("click OK")).isEmpty());
    QVERIFY(index.search(QStringLiteral("the and then")).isEmpty());
}

void TestTaskMemory::storeRoundTrip()
{
    QTemporaryDir dir;
    const TaskMemory memory(dir.path());
    QString error;
    const auto stored = memory.remember(sampleTask(), &error);
    QVERIFY2(stored, qPrintable(error));
    QVERIFY(stored->id.startsWith(QLatin1Char('t')));
    QCOMPARE(stored->id.size(), 13);
    QVERIFY(stored->recordedAt.isValid());
    QCOMPARE(memory.pathFor(stored->id),
             dir.path() + QLatin1Char('/') + stored->id + QStringLiteral(".json"));
    QVERIFY(QFile::exists(memory.pathFor(stored->id)));
    // Plain, readable JSON.
    const QJsonObject onDisk = QJsonDocument::fromJson(readAll(memory.pathFor(stored->id))).object();
    QCOMPARE(onDisk.value(QStringLiteral("task")).toString(), sampleTask().task);
    QCOMPARE(onDisk.value(QStringLiteral("application")).toString(), QStringLiteral("ciu-fixture-app"));
    QCOMPARE(onDisk.value(QStringLiteral("narrative")).toString(),
             QStringLiteral("To \"type Ada into Name and click Submit\" in ciu-fixture-app, 3 steps worked: "
                            "1. left_click text_field beside \"Name:\"; 2. type_text \"Ada\"; 3. left_click "
                            "button \"Submit\". The result was verified."));
    const auto back = memory.find(stored->id, &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(*back, *stored);
    const TaskMemory::Contents contents = memory.load();
    QCOMPARE(contents.tasks.size(), 1);
    QCOMPARE(contents.tasks.first(), *stored);
    QVERIFY(contents.problems.isEmpty());
    QCOMPARE(PastTask::fromJson(stored->toJson()).value_or(PastTask()), *stored);

    // No text, no steps: nothing written.
    PastTask empty = sampleTask(QStringLiteral("  "));
    QVERIFY(!memory.remember(empty, &error));
    QVERIFY(error.contains(QStringLiteral("without text")));
    PastTask stepless = sampleTask(QStringLiteral("click OK"));
    stepless.steps = {};
    QVERIFY(!memory.remember(stepless, &error));
    QVERIFY(error.contains(QStringLiteral("without steps")));
    QCOMPARE(memory.load().tasks.size(), 1);
    QVERIFY(!memory.find(QStringLiteral("../etc/passwd"), &error));
    QVERIFY(error.contains(QStringLiteral("not a task id")));
}

void TestTaskMemory::sameTaskReplacesItsMemory()
{
    QTemporaryDir dir;
    const TaskMemory memory(dir.path());
    const auto first = memory.remember(sampleTask());
    QVERIFY(first);
    PastTask again = sampleTask(QStringLiteral("Type Ada into  name and click submit"));
    again.stepLines.removeLast();
    const auto second = memory.remember(again);
    QVERIFY(second);
    QCOMPARE(second->id, first->id); // the same task (case and spacing aside): one memory, the newest
    QCOMPARE(memory.load().tasks.size(), 1);
    QCOMPARE(memory.find(first->id)->stepLines.size(), 2);
    PastTask otherProgram = sampleTask();
    otherProgram.application = QStringLiteral("mousepad");
    const auto third = memory.remember(otherProgram);
    QVERIFY(third);
    QVERIFY(third->id != first->id);
    QCOMPARE(memory.load().tasks.size(), 2);
}

void TestTaskMemory::forgetAndClear()
{
    QTemporaryDir dir;
    const TaskMemory memory(dir.path());
    const auto a = memory.remember(sampleTask());
    const auto b = memory.remember(sampleTask(QStringLiteral("check Subscribe then click OK")));
    QVERIFY(a && b);
    QString error;
    QVERIFY2(memory.forget(a->id, &error), qPrintable(error));
    QVERIFY(!QFile::exists(memory.pathFor(a->id)));
    QVERIFY(!memory.forget(a->id, &error));
    QCOMPARE(error, QStringLiteral("no remembered task %1").arg(a->id));
    QCOMPARE(memory.load().tasks.size(), 1);
    QStringList problems;
    QCOMPARE(memory.clear(&problems), 1);
    QVERIFY(problems.isEmpty());
    QVERIFY(memory.load().tasks.isEmpty());
}

void TestTaskMemory::corruptFileIsReportedAndKept()
{
    QTemporaryDir dir;
    const TaskMemory memory(dir.path());
    const auto good = memory.remember(sampleTask());
    QVERIFY(good);
    const QString corruptPath = dir.path() + QStringLiteral("/t0123456789ab.json");
    const QByteArray garbage = "{\"format\": 1, \"id\": \"t0123456789ab\", \"task\": ";
    {
        QFile file(corruptPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(garbage);
    }
    // Listed by name, the good task still there.
    const TaskMemory::Contents contents = memory.load();
    QCOMPARE(contents.tasks.size(), 1);
    QCOMPARE(contents.problems.size(), 1);
    QVERIFY2(contents.problems.first().startsWith(corruptPath + QStringLiteral(": not a JSON object")),
             qPrintable(contents.problems.first()));
    QStringList problems;
    QCOMPARE(
        memory.similar(QStringLiteral("type Grace into Name and click Submit"), 3, 0.0, &problems).size(), 1);
    QCOMPARE(problems, contents.problems);
    QString error;
    QVERIFY(!memory.find(QStringLiteral("t0123456789ab"), &error));
    QVERIFY(error.startsWith(corruptPath));
    // Never overwritten, never deleted: not by a task with its id, not by clear().
    PastTask same = sampleTask(QStringLiteral("click OK"));
    same.id = QStringLiteral("t0123456789ab");
    QVERIFY(!memory.remember(same, &error));
    QVERIFY2(error.contains(QStringLiteral("not overwritten")), qPrintable(error));
    QCOMPARE(memory.clear(&problems), 1);
    QCOMPARE(problems.size(), 1);
    QCOMPARE(readAll(corruptPath), garbage);
    QVERIFY(!memory.forget(QStringLiteral("t0123456789ab"), &error));
    QCOMPARE(readAll(corruptPath), garbage);
}

void TestTaskMemory::badJson_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("fragment");
    const QByteArray good = QJsonDocument([] {
                                PastTask t = sampleTask();
                                t.id = QStringLiteral("t0000000000aa");
                                t.recordedAt = QDateTime::fromSecsSinceEpoch(1'700'000'000, Qt::UTC);
                                return t.toJson();
                            }())
                                .toJson();
    auto with = [&good](const QString& key, const QJsonValue& value) {
        QJsonObject o = QJsonDocument::fromJson(good).object();
        o.insert(key, value);
        return QJsonDocument(o).toJson();
    };
    QTest::newRow("format") << with(QStringLiteral("format"), 9) << "unsupported task format";
    QTest::newRow("task") << with(QStringLiteral("task"), 3) << "\"task\" must be a string";
    QTest::newRow("empty task") << with(QStringLiteral("task"), QStringLiteral(" ")) << "empty task";
    QTest::newRow("id") << with(QStringLiteral("id"), QStringLiteral("x/../y")) << "invalid id";
    QTest::newRow("date") << with(QStringLiteral("recorded_at"), QStringLiteral("soon")) << "recorded_at";
    QTest::newRow("steps") << with(QStringLiteral("steps"), QStringLiteral("all")) << "must be arrays";
    QTest::newRow("step kind") << with(QStringLiteral("steps"), QJsonArray{1}) << "must hold objects";
    QTest::newRow("lines") << with(QStringLiteral("step_lines"), QJsonArray{1}) << "must hold strings";
}

void TestTaskMemory::badJson()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, fragment);
    QString error;
    QVERIFY(!PastTask::fromJson(QJsonDocument::fromJson(json).object(), &error));
    QVERIFY2(error.contains(fragment), qPrintable(error));
}

void TestTaskMemory::similarAboveTheFloor()
{
    QTemporaryDir dir;
    const TaskMemory memory(dir.path());
    QMap<int, QString> ids;
    for (int i = 0; i < kTexts.size(); ++i) {
        const auto t = memory.remember(sampleTask(kTexts[i]));
        QVERIFY(t);
        ids[i] = t->id;
    }
    const QList<SimilarTask> found = memory.similar(QStringLiteral("type Grace into Name and click Submit"));
    QCOMPARE(found.size(), 1); // "check Subscribe then click OK" shares "click" only: below the floor
    QCOMPARE(found.first().task.id, ids[1]);
    QVERIFY(found.first().relevance >= TaskMemory::kDefaultFloor);
    // Without a floor: every task that shares a word, in BM25 order.
    QStringList order;
    for (const SimilarTask& s :
         memory.similar(QStringLiteral("type Grace into Name and click Submit"), 10, 0))
        order << s.task.id;
    QCOMPARE(order, (QStringList{ids[1], ids[2], ids[4]}));
    QVERIFY(memory.similar(QStringLiteral("play some music")).isEmpty());
    // The reference a planner gets names the narratives.
    const QString reference = TaskMemory::referenceText(found);
    QVERIFY(reference.startsWith(QStringLiteral("Similar tasks done before on this computer")));
    QVERIFY(reference.contains(found.first().task.narrative));
    QVERIFY(TaskMemory::referenceText({}).isEmpty());
}

void TestTaskMemory::secretsNeverWritten()
{
    QTemporaryDir dir;
    const TaskMemory memory(dir.path());
    QString error;
    // A step the safety layer marked as typing a secret: the task is refused, nothing is written.
    PastTask typed = sampleTask(QStringLiteral("log in"));
    typed.steps = QJsonArray{QJsonObject{
        {QStringLiteral("action"), QJsonObject{{QStringLiteral("type"), QStringLiteral("type_text")},
                                               {QStringLiteral("text"), QStringLiteral("••••••")},
                                               {QStringLiteral("secret"), true}}}}};
    QVERIFY(!memory.remember(typed, &error));
    QCOMPARE(error, QStringLiteral("not remembered: a step typed a secret"));
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());

    // Keys and the values of the environment's secrets: scrubbed from every text and every step.
    const QByteArray apiKey = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
    const QByteArray password = "correct-horse-battery";
    qputenv("CIU_TEST_PASSWORD", password);
    refreshEnvironmentSecrets();
    PastTask leaky = sampleTask(QStringLiteral("paste %1 into Key and type %2 into Token")
                                    .arg(QString::fromLatin1(apiKey), QString::fromLatin1(password)));
    leaky.stepLines << QStringLiteral("type_text \"%1\"").arg(QString::fromLatin1(password));
    leaky.steps.append(QJsonObject{
        {QStringLiteral("action"), QJsonObject{{QStringLiteral("type"), QStringLiteral("type_text")},
                                               {QStringLiteral("text"), QString::fromLatin1(apiKey)}}}});
    leaky.narrative = TaskMemory::narrate(leaky.task, leaky.application, leaky.stepLines);
    const auto stored = memory.remember(leaky, &error);
    QVERIFY2(stored, qPrintable(error));
    const QByteArray onDisk = everythingUnder(dir.path());
    QVERIFY(!onDisk.isEmpty());
    QVERIFY(!onDisk.contains(apiKey));
    QVERIFY(!onDisk.contains("sk-ant-"));
    QVERIFY(!onDisk.contains(password));
    QVERIFY(onDisk.contains("[redacted]"));
    QVERIFY(stored->task.contains(QStringLiteral("[redacted]")));
    qunsetenv("CIU_TEST_PASSWORD");
    refreshEnvironmentSecrets();
}

void TestTaskMemory::directorRemembersOnlyVerifiedCompletions()
{
    QTemporaryDir dir;
    const TaskMemory memory(dir.path());
    {
        // Not verified: the click shows no effect.
        Harness h(dir.path());
        h.changes = false;
        QVERIFY(h.run(QStringLiteral("click Submit")));
        QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Unverified));
        QVERIFY(h.outcome->rememberedTaskId.isEmpty());
    }
    {
        // Failed: no such zone.
        Harness h(dir.path());
        QVERIFY(h.run(QStringLiteral("click Cancel")));
        QVERIFY(!h.outcome->success());
        QVERIFY(h.outcome->rememberedTaskId.isEmpty());
    }
    {
        // A dry run "completes" without executing anything.
        Harness h(dir.path());
        h.options.dryRun = true;
        QVERIFY(h.run(QStringLiteral("check Subscribe; click OK")));
        QVERIFY(h.outcome->success());
        QVERIFY(h.outcome->rememberedTaskId.isEmpty());
    }
    {
        // Stopped by the user.
        Harness h(dir.path());
        QObject::connect(&h.director, &Director::actionRequested, &h,
                         [&h] { QTimer::singleShot(0, &h, [&h] { h.director.stop(); }); });
        QVERIFY(h.run(QStringLiteral("check Subscribe; click OK")));
        QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Stopped));
        QVERIFY(h.outcome->rememberedTaskId.isEmpty());
    }
    QCOMPARE(memory.load().tasks.size(), 0);
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());

    // Completed and verified: remembered, with the steps as run and the program.
    Harness h(dir.path());
    QVERIFY(h.run(QStringLiteral("type \"Ada\" into Name; check Subscribe; click Submit")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QVERIFY(!h.outcome->rememberedTaskId.isEmpty());
    const TaskMemory::Contents contents = memory.load();
    QCOMPARE(contents.tasks.size(), 1);
    const PastTask& t = contents.tasks.first();
    QCOMPARE(t.id, h.outcome->rememberedTaskId);
    QCOMPARE(t.task, QStringLiteral("type \"Ada\" into Name; check Subscribe; click Submit"));
    QCOMPARE(t.application, QStringLiteral("ciu-fixture-app"));
    QCOMPARE(t.planner, QStringLiteral("local"));
    QCOMPARE(t.stepLines, (QStringList{QStringLiteral("left_click text_field beside \"Name:\""),
                                       QStringLiteral("key \"ctrl+a\" into text_field beside \"Name:\""),
                                       QStringLiteral("type \"Ada\" into text_field beside \"Name:\""),
                                       QStringLiteral("left_click checkbox \"Subscribe\""),
                                       QStringLiteral("left_click button \"Submit\"")}));
    QCOMPARE(t.steps.size(), 5);
    QVERIFY(t.narrative.startsWith(QStringLiteral("To \"type \"Ada\" into Name; check Subscribe; click "
                                                  "Submit\" in ciu-fixture-app, 5 steps worked: 1. ")));
    QCOMPARE(h.infos(QStringLiteral("task_remembered")).size(), 1);
    QCOMPARE(h.records.last().value(QStringLiteral("remembered_task")).toString(), t.id);
}

void TestTaskMemory::directorNeverRemembersATypedPassword()
{
    QTemporaryDir dir;
    Harness h(dir.path());
    h.options.confirmation = safety::ConfirmationMode::Ask;
    QObject::connect(&h.director, &Director::confirmationRequested, &h, [&h](quint64 id) {
        QTimer::singleShot(0, &h, [&h, id] { h.director.answerConfirmation(id, true); });
    });
    QVERIFY(h.run(QStringLiteral("type \"Ada\" into Name; type \"hunter2-secret\" into Password")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.requested.last().text, QStringLiteral("hunter2-secret")); // typed, as asked
    QVERIFY(h.requested.last().secretText);
    QVERIFY(h.outcome->rememberedTaskId.isEmpty());
    QCOMPARE(h.infos(QStringLiteral("task_not_remembered")),
             QStringList{QStringLiteral("not recorded for replay: an action typed a secret")});
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    QVERIFY(!everythingUnder(h.sequences.path()).contains("hunter2"));
}

void TestTaskMemory::directorGivesSimilarTasksAndReplaysOne()
{
    QTemporaryDir dir;
    QString id;
    {
        Harness h(dir.path());
        QVERIFY(h.run(QStringLiteral("type \"Ada\" into Name; check Subscribe; click Submit")));
        QVERIFY(h.outcome->success());
        id = h.outcome->rememberedTaskId;
        QVERIFY(!id.isEmpty());
        QVERIFY(h.outcome->similarTasks.isEmpty()); // nothing remembered before it
    }
    {
        // A similar task: logged, in the outcome (the CLI's JSON), and remembered on its own.
        Harness h(dir.path());
        QVERIFY(h.run(QStringLiteral("type \"Grace\" into Name; click Submit")));
        QVERIFY(h.outcome->success());
        QCOMPARE(h.outcome->similarTasks.size(), 1);
        const QJsonObject similar = h.outcome->similarTasks.first().toObject();
        QCOMPARE(similar.value(QStringLiteral("id")).toString(), id);
        QCOMPARE(similar.value(QStringLiteral("task")).toString(),
                 QStringLiteral("type \"Ada\" into Name; check Subscribe; click Submit"));
        const QStringList logged = h.infos(QStringLiteral("similar_tasks"));
        QCOMPARE(logged.size(), 1);
        QVERIFY2(
            logged.first().startsWith(
                QStringLiteral("similar to: \"type \"Ada\" into Name; check Subscribe; click Submit\" (%1, "
                               "relevance ")
                    .arg(id)),
            qPrintable(logged.first()));
        QVERIFY(h.outcome->rememberedTaskId != id);
    }
    {
        // Replaying the remembered task runs its steps again, by label, without its planner.
        Harness h(dir.path());
        h.options.replayTaskId = id;
        QVERIFY(h.run(QStringLiteral("type \"Ada\" into Name; check Subscribe; click Submit")));
        QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
        QCOMPARE(h.outcome->planner, QStringLiteral("replay"));
        QCOMPARE(h.requested.size(), 5);
        QCOMPARE(h.requested[0].zoneId, QStringLiteral("z2"));
        QCOMPARE(h.requested[2].text, QStringLiteral("Ada"));
        QCOMPARE(h.requested[3].zoneId, QStringLiteral("z5"));
        QCOMPARE(h.requested[4].zoneId, QStringLiteral("z9"));
        QCOMPARE(h.infos(QStringLiteral("past_task_replay")).size(), 1);
    }
    {
        // An unknown id: said so, and the task is planned as usual.
        Harness h(dir.path());
        h.options.replayTaskId = QStringLiteral("t00000000beef");
        QVERIFY(h.run(QStringLiteral("click OK")));
        QVERIFY(h.outcome->success());
        QCOMPARE(h.outcome->planner, QStringLiteral("local"));
    }
}

void TestTaskMemory::modelPlannerGetsTheReference()
{
    QTemporaryDir dir;
    QVERIFY(TaskMemory(dir.path()).remember(sampleTask()));
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(FakeApiServer::toolUseReply(QStringLiteral("task_complete"),
                                               {{QStringLiteral("summary"), QStringLiteral("done")}}));
    Harness h(dir.path());
    h.options.provider = QStringLiteral("anthropic");
    h.director.setBackendFactory(
        [&server](const DirectorOptions& o, QString*) -> std::unique_ptr<PlanBackend> {
            director::ProviderConfig config;
            config.baseUrl = server.baseUrl();
            config.apiKey = QStringLiteral("sk-ant-test-key-never-logged");
            config.defaultModel = QStringLiteral("claude-sonnet-4-5");
            config.maxRetryDelayMs = 10;
            return std::make_unique<ModelPlanner>(
                director::createProvider(director::ProviderKind::Anthropic, config), o.loop);
        });
    QVERIFY(h.run(QStringLiteral("type Grace into Name and click Submit")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(server.requestCount(), 1);
    const QByteArray body = server.lastRequest().body;
    QVERIFY(body.contains("past_tasks"));
    QVERIFY(body.contains("Similar tasks done before on this computer"));
    QVERIFY(body.contains("1. left_click text_field beside"));
}

QTEST_GUILESS_MAIN(TestTaskMemory)
#include "tst_taskmemory.moc"
