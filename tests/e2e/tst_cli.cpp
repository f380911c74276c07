// The ciu-agent executable's command-line contract: --version, --help, errors for bad input; `schema`
// shows a program's schema with the user's corrections and carries it from one user to another; `tasks
// --similar` with the provider's embeddings (the fake API server).

#include "core/knowledge/taskmemory.h"
#include "tests/support/agentrun.h"
#include "tests/support/fakeapiserver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace ciu::test;

namespace {

// Past tasks for `tasks --similar`: three remembered tasks and a new one that shares no word with the
// first, with vectors set by hand on the fake server (its own vectors come from words, not meaning).
const QString kModel = QStringLiteral("emb-test-1");
const QString kKey = QStringLiteral("sk-embed-test-KEY-123456789");
const QString kSave = QStringLiteral("open the File menu and save the document as report.txt");
const QString kForm = QStringLiteral("type Ada into Name and click Submit");
const QString kCheck = QStringLiteral("check Subscribe then click OK");
const QString kParaphrase = QStringLiteral("keep my notes on disk");
const QList<double> kSaveVector{1, 0, 0};
const QList<double> kFormVector{0, 1, 0};
const QList<double> kCheckVector{0, 0, 1};
const QList<double> kParaphraseVector{0.9, 0, 0.3};

QStringList rememberThree(const QString& dir)
{
    const ciu::TaskMemory memory(dir);
    QStringList ids;
    int minutes = 30;
    for (const QString& text : {kSave, kForm, kCheck}) {
        ciu::PastTask t;
        t.task = text;
        t.planner = QStringLiteral("local");
        t.recordedAt = QDateTime::currentDateTimeUtc().addSecs(-60 * minutes);
        t.stepLines = {QStringLiteral("left_click button \"OK\"")};
        t.steps = QJsonArray{QJsonObject{
            {QStringLiteral("action"), QJsonObject{{QStringLiteral("type"), QStringLiteral("left_click")}}}}};
        t.narrative = ciu::TaskMemory::narrate(t.task, t.application, t.stepLines);
        const auto stored = memory.remember(t);
        ids << (stored ? stored->id : QString());
        minutes -= 10;
    }
    return ids;
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private slots:
    void version();
    void help();
    void commandHelp();
    void guiHelpWithoutDisplay();
    void errors_data();
    void errors();
    void noRuntimeDirWarning();
    void controlCharactersEscaped();
    void hostileSessionFolder();
    void benchVisionScoresACorpus();
    void schemaExportImport();
    void tasksSimilarWithEmbeddings();

private:
    AgentRun run(const QStringList& args,
                 const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment());
};

AgentRun TestCli::run(const QStringList& args, const QProcessEnvironment& env)
{
    return runAgent(args, env, 60'000);
}

void TestCli::version()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY")); // needs no display
    const AgentRun r = run({QStringLiteral("--version")}, env);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.startsWith(QStringLiteral("ciu-agent ") + QStringLiteral(CIU_VERSION)), qPrintable(r.out));
}

void TestCli::help()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    const AgentRun r = run({QStringLiteral("--help")}, env);
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QStringLiteral("Usage: ciu-agent")));
    QVERIFY(r.out.contains(QStringLiteral("bench")));
}

void TestCli::commandHelp()
{
    const AgentRun r = run({QStringLiteral("bench"), QStringLiteral("--help")});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(r.out.contains(QStringLiteral("--display")));
    QVERIFY(r.out.contains(QStringLiteral("--iterations")));
}

void TestCli::guiHelpWithoutDisplay()
{
    // The desktop app's options are readable on a machine without a display.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    const AgentRun r = run({QStringLiteral("gui"), QStringLiteral("--help")}, env);
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("--task")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("--no-engine")), qPrintable(r.out));
}

void TestCli::errors_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("unknown command") << QStringList{QStringLiteral("frobnicate")} << 2 << "unknown command";
    QTest::newRow("unknown option") << QStringList{QStringLiteral("bench"), QStringLiteral("--frob")} << 2
                                    << "frob";
    QTest::newRow("bad value") << QStringList{QStringLiteral("bench"), QStringLiteral("--max-iterations"),
                                              QStringLiteral("x")}
                               << 2 << "--max-iterations";
    QTest::newRow("unknown benchmark")
        << QStringList{QStringLiteral("bench"), QStringLiteral("nosuch")} << 2 << "unknown benchmark";
    QTest::newRow("no display") << QStringList{QStringLiteral("bench"), QStringLiteral("grab"),
                                               QStringLiteral("--display"), QStringLiteral(":987")}
                                << 3 << ":987";
    const QString tasks = QStringLiteral("tasks");
    const QString similar = QStringLiteral("--similar");
    QTest::newRow("similar bad floor") << QStringList{tasks, similar, QStringLiteral("click OK"),
                                                      QStringLiteral("--min-relevance"), QStringLiteral("2")}
                                       << 2 << "--min-relevance must be a number from 0 to 1";
    QTest::newRow("similar bad provider") << QStringList{tasks, similar, QStringLiteral("click OK"),
                                                         QStringLiteral("--provider"), QStringLiteral("x")}
                                          << 2 << "--provider must be local, anthropic or openai";
    QTest::newRow("embedding model without similar")
        << QStringList{tasks, QStringLiteral("--embedding-model"), QStringLiteral("m")} << 2
        << "go with --similar";
    QTest::newRow("similar and clear")
        << QStringList{tasks, similar, QStringLiteral("x"), QStringLiteral("--clear")} << 2
        << "exclude each other";
    const QString vision = QStringLiteral("vision");
    const QString corpus = QStringLiteral("--corpus");
    QTest::newRow("vision without corpus")
        << QStringList{QStringLiteral("bench"), vision} << 2 << "needs --corpus";
    QTest::newRow("vision bad set") << QStringList{QStringLiteral("bench"),
                                                   vision,
                                                   corpus,
                                                   QStringLiteral("/tmp"),
                                                   QStringLiteral("--set"),
                                                   QStringLiteral("test")}
                                    << 2 << "--set must be tuning, heldout or all";
    QTest::newRow("vision bad iou") << QStringList{QStringLiteral("bench"),
                                                   vision,
                                                   corpus,
                                                   QStringLiteral("/tmp"),
                                                   QStringLiteral("--iou"),
                                                   QStringLiteral("1.5")}
                                    << 2 << "--iou must be";
    QTest::newRow("vision unknown option")
        << QStringList{QStringLiteral("bench"), vision, QStringLiteral("--frob")} << 2 << "frob";
    QTest::newRow("vision argument") << QStringList{QStringLiteral("bench"), vision, corpus,
                                                    QStringLiteral("/tmp"), QStringLiteral("extra")}
                                     << 2 << "takes no arguments";
    QTest::newRow("vision missing corpus")
        << QStringList{QStringLiteral("bench"), vision, corpus, QStringLiteral("/nonexistent/ciu-corpus")}
        << 1 << "/nonexistent/ciu-corpus does not exist";
    // Integer overflow: these analysed the whole screen, or 1920x100+0+0, with exit 0.
    QTest::newRow("region overflow") << QStringList{QStringLiteral("analyze"), QStringLiteral("--region"),
                                                    QStringLiteral("2147483000,2147483000,2000,2000")}
                                     << 2 << "past any screen";
    QTest::newRow("region at INT_MAX") << QStringList{QStringLiteral("analyze"), QStringLiteral("--region"),
                                                      QStringLiteral("2147483647,0,100,100")}
                                       << 2 << "past any screen";
}

void TestCli::errors()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, fragment);
    const AgentRun r = run(args);
    QCOMPARE(r.exitCode, exitCode);
    QVERIFY2(r.err.contains(fragment), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("Segmentation")), qPrintable(r.err));
}

// Without XDG_RUNTIME_DIR (cron, sudo, a container) no command leaks Qt's warning about it to the user.
void TestCli::noRuntimeDirWarning()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
    const AgentRun r = run({QStringLiteral("bench"), QStringLiteral("nosuch")}, env);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("unknown benchmark")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("XDG_RUNTIME_DIR")), qPrintable(r.err));
}

// A task with ESC[31m used to colour the terminal: it is shown as escapes.
void TestCli::controlCharactersEscaped()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
    env.remove(QStringLiteral("OPENAI_API_KEY"));
    const AgentRun r = run({QStringLiteral("run"), QStringLiteral("\x1b[31mfrobnicate\x07"),
                            QStringLiteral("--provider"), QStringLiteral("local")},
                           env);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("\\x1b[31mfrobnicate\\x07")), qPrintable(r.err));
    QVERIFY2(!r.err.contains(QChar(0x1b)) && !r.err.contains(QChar(0x07)), qPrintable(r.err));
}

// replay with its own files as outputs (the export truncated session.mp4 and replaced metadata.json with
// exit 0), a FIFO as session.mp4 (blocked forever) and an array as metadata.json (a message about "no
// error").
void TestCli::hostileSessionFolder()
{
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("session"));
    QVERIFY(QDir().mkpath(session));
    const QByteArray metadata = "[1, 2]\n";
    {
        QFile f(session + QStringLiteral("/metadata.json"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(metadata);
    }
    QCOMPARE(::mkfifo(QFile::encodeName(session + QStringLiteral("/session.mp4")).constData(), 0600), 0);

    AgentRun r = run({QStringLiteral("replay"), session, QStringLiteral("--export-html"),
                      session + QStringLiteral("/metadata.json")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("inside the session it reads")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("valid JSON, but an array where an object is expected")),
             qPrintable(r.err));
    QVERIFY2(!r.err.contains(QStringLiteral("no error occurred")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("session.mp4 is not a regular file")), qPrintable(r.err));
    QFile f(session + QStringLiteral("/metadata.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), metadata);

    r = run({QStringLiteral("replay"), session, QStringLiteral("--export-mp4"),
             session + QStringLiteral("/session.mp4")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("is not a regular file")), qPrintable(r.err));

    // An export outside works and says what it could not read.
    const QString report = dir.filePath(QStringLiteral("report.html"));
    r = run({QStringLiteral("replay"), session, QStringLiteral("--export-html"), report});
    QCOMPARE(r.exitCode, 0);
    QVERIFY(QFileInfo(report).size() > 0);
}

// bench vision on a corpus of one drawn screen (two widgets and a label in its truth) and one corrupt
// sample: the good one is scored, the bad one named, the exit code says one could not be read.
void TestCli::benchVisionScoresACorpus()
{
    QTemporaryDir dir;
    QImage image(400, 240, QImage::Format_RGB32);
    image.fill(QColor(0xf0, 0xf0, 0xf0));
    {
        QPainter p(&image);
        p.setPen(QColor(0x80, 0x80, 0x80));
        p.setBrush(QColor(0xe0, 0xe0, 0xe0));
        p.drawRect(40, 40, 99, 29);
        p.setBrush(Qt::white);
        p.drawRect(40, 100, 249, 27);
    }
    QVERIFY(image.save(dir.filePath(QStringLiteral("screen.png"))));
    const auto zone = [](const char* role, const char* name, int x, int y, int w, int h) {
        return QJsonObject{
            {QStringLiteral("role"), QLatin1String(role)},
            {QStringLiteral("name"), QLatin1String(name)},
            {QStringLiteral("states"), QJsonArray{QStringLiteral("enabled"), QStringLiteral("editable")}},
            {QStringLiteral("bounds"), QJsonArray{x, y, w, h}}};
    };
    const QJsonObject sample{
        {QStringLiteral("format"), QStringLiteral("ciu-vision-corpus/1")},
        {QStringLiteral("image"), QStringLiteral("screen.png")},
        {QStringLiteral("program"), QStringLiteral("drawn")},
        {QStringLiteral("toolkit"), QStringLiteral("qpainter")},
        {QStringLiteral("look"), QStringLiteral("grey")},
        {QStringLiteral("state"), QStringLiteral("main")},
        {QStringLiteral("set"), QStringLiteral("heldout")},
        {QStringLiteral("screen"),
         QJsonObject{{QStringLiteral("width"), 400}, {QStringLiteral("height"), 240}}},
        {QStringLiteral("zones"),
         QJsonArray{zone("push button", "OK", 40, 40, 100, 30), zone("entry", "Name", 40, 100, 250, 28),
                    zone("label", "Name:", 300, 100, 60, 28), zone("panel", "", 0, 0, 400, 240)}}};
    {
        QFile f(dir.filePath(QStringLiteral("screen.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(sample).toJson());
        QFile bad(dir.filePath(QStringLiteral("bad.json")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("{\"format\": \"ciu-vision-corpus/1\", ");
    }
    AgentRun r = run({QStringLiteral("bench"), QStringLiteral("vision"), QStringLiteral("--corpus"),
                      dir.path(), QStringLiteral("--json")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("bad.json: not JSON")), qPrintable(r.err));
    const QJsonObject doc = QJsonDocument::fromJson(r.out.toUtf8()).object();
    QCOMPARE(doc.value(QStringLiteral("matching")).toString(), QStringLiteral("greedy"));
    QCOMPARE(doc.value(QStringLiteral("min_iou")).toDouble(), 0.5);
    const QJsonObject overall = doc.value(QStringLiteral("overall")).toObject();
    QCOMPARE(overall.value(QStringLiteral("frames")).toInt(), 1);
    QCOMPARE(overall.value(QStringLiteral("truth")).toInt(), 2); // the label and the panel are no widgets
    QVERIFY(overall.value(QStringLiteral("matched")).toInt() <= 2);
    const QJsonObject groups = doc.value(QStringLiteral("groups")).toObject();
    for (const auto& [group, name] :
         {std::pair{"set", "heldout"}, std::pair{"program", "drawn"}, std::pair{"toolkit", "qpainter"},
          std::pair{"look", "grey"}, std::pair{"state", "main"}, std::pair{"screen", "400x240"}}) {
        QCOMPARE(groups.value(QLatin1String(group))
                     .toObject()
                     .value(QLatin1String(name))
                     .toObject()
                     .value(QStringLiteral("truth")),
                 QJsonValue(2));
    }
    const QJsonArray frames = doc.value(QStringLiteral("frames")).toArray();
    QCOMPARE(frames.size(), 1);
    QCOMPARE(frames.first().toObject().value(QStringLiteral("detected")),
             overall.value(QStringLiteral("detected")));
    const QJsonArray errors = doc.value(QStringLiteral("errors")).toArray();
    QCOMPARE(errors.size(), 1);
    QVERIFY(errors.first().toString().contains(QStringLiteral("bad.json")));

    // Only the tuning set: none here.
    r = run({QStringLiteral("bench"), QStringLiteral("vision"), QStringLiteral("--corpus"), dir.path(),
             QStringLiteral("--set"), QStringLiteral("tuning")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("no sample of set \"tuning\"")), qPrintable(r.err));

    // Without the bad file: exit 0 and the table.
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("bad.json"))));
    r = run({QStringLiteral("bench"), QStringLiteral("vision"), QStringLiteral("--corpus"), dir.path()});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains(QStringLiteral("program  drawn")), qPrintable(r.out));
    QVERIFY2(r.out.contains(QStringLiteral("1 frames")), qPrintable(r.out));
}

// `schema --application` needs no display: the shipped schema with the user's corrections (a corrections
// file as the zone inspector writes it) in one JSON document; --export writes it, --import on another
// user's data gives that user the same document.
void TestCli::schemaExportImport()
{
    QTemporaryDir from;
    QTemporaryDir to;
    QVERIFY(QDir().mkpath(from.filePath(QStringLiteral("ciu-agent/corrections"))));
    {
        QFile file(from.filePath(QStringLiteral("ciu-agent/corrections/Mousepad.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format": 1, "application": "Mousepad", "suppressed": [],
                       "zones": [{"id": "u1a2b3c4d", "bounds": {"x": 10, "y": 20, "width": 80, "height": 24},
                                  "type": "button", "label": "Send", "source": "user", "confidence": 1}]})");
    }
    const auto envFor = [](const QTemporaryDir& data) {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("DISPLAY"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), data.path());
        return env;
    };
    const QStringList show{QStringLiteral("schema"), QStringLiteral("--application"),
                           QStringLiteral("Mousepad"), QStringLiteral("--json")};
    const AgentRun shown = run(show, envFor(from));
    QVERIFY2(shown.exitCode == 0, qPrintable(shown.failure()));
    QCOMPARE(shown.json.value(QStringLiteral("application")).toString(), QStringLiteral("Mousepad"));
    QVERIFY(!shown.json.value(QStringLiteral("shortcuts")).toArray().isEmpty()); // the shipped ones
    const QJsonObject send{{QStringLiteral("name"), QStringLiteral("Send")},
                           {QStringLiteral("x"), 10},
                           {QStringLiteral("y"), 20},
                           {QStringLiteral("w"), 80},
                           {QStringLiteral("h"), 24},
                           {QStringLiteral("type"), QStringLiteral("button")},
                           {QStringLiteral("source"), QStringLiteral("user")}};
    QCOMPARE(shown.json.value(QStringLiteral("zones")).toArray(), QJsonArray{send});

    const QString file = from.filePath(QStringLiteral("Mousepad-schema.json"));
    const AgentRun exported = run({QStringLiteral("schema"), QStringLiteral("--application"),
                                   QStringLiteral("Mousepad"), QStringLiteral("--export"), file},
                                  envFor(from));
    QVERIFY2(exported.exitCode == 0, qPrintable(exported.failure()));
    const AgentRun imported = run({QStringLiteral("schema"), QStringLiteral("--import"), file}, envFor(to));
    QVERIFY2(imported.exitCode == 0, qPrintable(imported.failure()));
    QVERIFY(QFile::exists(to.filePath(QStringLiteral("ciu-agent/corrections/Mousepad.json"))));
    const AgentRun again = run(show, envFor(to));
    QVERIFY2(again.exitCode == 0, qPrintable(again.failure()));
    QCOMPARE(again.json, shown.json);

    // A file of another program than the one named, and options that exclude each other.
    const AgentRun wrong = run({QStringLiteral("schema"), QStringLiteral("--import"), file,
                                QStringLiteral("--application"), QStringLiteral("Xedit")},
                               envFor(to));
    QCOMPARE(wrong.exitCode, 1);
    QVERIFY2(wrong.err.contains(QStringLiteral("not \"Xedit\"")), qPrintable(wrong.err));
    const AgentRun both =
        run({QStringLiteral("schema"), QStringLiteral("--export"), file, QStringLiteral("--import"), file},
            envFor(to));
    QCOMPARE(both.exitCode, 2);
}

void TestCli::tasksSimilarWithEmbeddings()
{
    QTemporaryDir dir;
    const QString tasksDir = dir.filePath(QStringLiteral("tasks"));
    const QStringList ids = rememberThree(tasksDir);
    FakeApiServer server; // runAgent keeps this thread's event loop running
    QVERIFY(server.start());
    server.setEmbedding(kSave, kSaveVector);
    server.setEmbedding(kForm, kFormVector);
    server.setEmbedding(kCheck, kCheckVector);
    server.setEmbedding(kParaphrase, kParaphraseVector);
    QProcessEnvironment env = agentEnvironment();
    env.insert(QStringLiteral("CIU_TASKS_DIR"), tasksDir);
    env.insert(QStringLiteral("OPENAI_BASE_URL"), server.baseUrl().toString());
    env.insert(QStringLiteral("OPENAI_API_KEY"), kKey);
    const AgentRun run = runAgent({QStringLiteral("tasks"), QStringLiteral("--similar"), kParaphrase,
                                   QStringLiteral("--provider"), QStringLiteral("openai"),
                                   QStringLiteral("--embedding-model"), kModel, QStringLiteral("--json")},
                                  env, 60'000);
    QVERIFY2(run.exitCode == 0, qPrintable(run.failure()));
    QCOMPARE(run.json.value(QStringLiteral("method")).toString(), QStringLiteral("bm25+embeddings"));
    QCOMPARE(run.json.value(QStringLiteral("embedding_model")).toString(), kModel);
    const QJsonArray similar = run.json.value(QStringLiteral("similar")).toArray();
    QCOMPARE(similar.size(), 1);
    QCOMPARE(similar.first().toObject().value(QStringLiteral("id")).toString(), ids.at(0));
    QCOMPARE(server.requestsTo("/v1/embeddings").size(), 1);
    QCOMPARE(server.lastRequest().header("authorization"), QByteArray("Bearer " + kKey.toUtf8()));
    // The local provider: BM25 alone, which finds nothing; no request.
    const AgentRun offline =
        runAgent({QStringLiteral("tasks"), QStringLiteral("--similar"), kParaphrase,
                  QStringLiteral("--provider"), QStringLiteral("local"), QStringLiteral("--json")},
                 env, 60'000);
    QVERIFY2(offline.exitCode == 0, qPrintable(offline.failure()));
    QCOMPARE(offline.json.value(QStringLiteral("method")).toString(), QStringLiteral("bm25"));
    QVERIFY(offline.json.value(QStringLiteral("similar")).toArray().isEmpty());
    QCOMPARE(server.requestCount(), 1);
    // A failing call: BM25's answer, exit 0, the failure on stderr once.
    server.enqueueEmbeddings(
        FakeApiServer::chatError(400, QStringLiteral("invalid_request_error"), QStringLiteral("bad")));
    const AgentRun failing = runAgent({QStringLiteral("tasks"), QStringLiteral("--similar"), kParaphrase,
                                       QStringLiteral("--provider"), QStringLiteral("openai"),
                                       QStringLiteral("--embedding-model"), kModel},
                                      env, 60'000);
    QVERIFY2(failing.exitCode == 0, qPrintable(failing.failure()));
    QCOMPARE(failing.err.count(QStringLiteral("embeddings call failed")), 1);
    QVERIFY2(failing.out.startsWith(QStringLiteral("ranked by bm25\n")), qPrintable(failing.out));
}

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
