// End to end under Xvfb: `ciu-agent run` with the local planner drives the fixture app through the whole
// pipeline (X11 capture, canvas with OpenCV + Tesseract, brush over XTest, director, recorder); every task
// is verified through the fixture's own JSON output. Also: limits and confirmations are enforced, and
// `ciu-agent demo` works on a machine without a display. With the OpenAI-compatible provider against the
// fake server (tests/support, real HTTP on 127.0.0.1), whose replies are built from the zone map the agent
// sends: a menu item opened in two model calls, and the same task in SPEED-MAX replayed from the recorded
// sequence with no model call. With the Anthropic provider: the three fixture tasks in ONE model call each,
// the model naming every step by label with run_steps.

#include "tests/support/agentrun.h"
#include "tests/support/fakeapiserver.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu::test;

class TestDirectorE2e : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void fillFormAndSubmit();
    void openMenuItem();
    void answerDialog();
    void dryRunByDefault();
    void highRiskRefusedWithoutTerminal();
    void iterationLimit();
    void badTaskIsAUsageError();
    void demo();
    void openAiProviderOpensMenuItem();
    void anthropicRunStepsOneCallPerTask();

private:
    // Runs ciu-agent; the test's event loop keeps running meanwhile (the fake server answers from it).
    AgentRun run(const QStringList& args, int timeoutMs = 180'000, const QProcessEnvironment& extraEnv = {});
    bool hasEvent(const QString& event, const QString& key, const QJsonValue& value, int timeoutMs = 3000);

    std::unique_ptr<XvfbServer> m_x;
    std::unique_ptr<FixtureApp> m_app;
    QTemporaryDir m_sessions;
};

void TestDirectorE2e::init()
{
    if (!xvfbAvailable())
        QSKIP("Xvfb is not installed");
    m_x = std::make_unique<XvfbServer>();
    QVERIFY2(m_x->start(), qPrintable(m_x->errorString()));
    m_app = std::make_unique<FixtureApp>();
    QVERIFY2(
        m_app->start(m_x->environment(), {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
        qPrintable(m_app->errorString()));
}

void TestDirectorE2e::cleanup()
{
    m_app.reset();
    m_x.reset();
}

AgentRun TestDirectorE2e::run(const QStringList& args, int timeoutMs, const QProcessEnvironment& extraEnv)
{
    QProcessEnvironment env = agentEnvironment();
    // Recorded sequences and remembered tasks go to the test's folder, never the user's: a user's past task
    // would be given to the model and change what the runs do.
    env.insert(QStringLiteral("CIU_SEQUENCES_DIR"), m_sessions.filePath(QStringLiteral("sequences")));
    env.insert(QStringLiteral("CIU_TASKS_DIR"), m_sessions.filePath(QStringLiteral("tasks")));
    for (const QString& key : extraEnv.keys())
        env.insert(key, extraEnv.value(key));
    QStringList all = args;
    if (m_x)
        all << QStringLiteral("--display") << m_x->displayName();
    all << QStringLiteral("--session-dir") << m_sessions.path() << QStringLiteral("--json");
    return runAgent(all, env, timeoutMs);
}

bool TestDirectorE2e::hasEvent(const QString& event, const QString& key, const QJsonValue& value,
                               int timeoutMs)
{
    const auto found = m_app->waitFor(
        [&](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == event &&
                   (key.isEmpty() || o.value(key) == value);
        },
        timeoutMs);
    return found.has_value();
}

void TestDirectorE2e::fillFormAndSubmit()
{
    const AgentRun r =
        run({QStringLiteral("run"),
             QStringLiteral("type \"Ada\" into Name; check Subscribe; select Blue in Color; click Submit"),
             QStringLiteral("--execute")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.failure()));
    QCOMPARE(r.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("completed"));
    QCOMPARE(r.json.value(QStringLiteral("usage")).toObject().value(QStringLiteral("model_calls")).toInt(),
             0);
    QVERIFY(hasEvent(QStringLiteral("text_changed"), QStringLiteral("text"), QStringLiteral("Ada")));
    QVERIFY(hasEvent(QStringLiteral("toggled"), QStringLiteral("name"), QStringLiteral("subscribe")));
    QVERIFY(hasEvent(QStringLiteral("combo_changed"), QStringLiteral("text"), QStringLiteral("Blue")));
    QVERIFY(hasEvent(QStringLiteral("clicked"), QStringLiteral("name"), QStringLiteral("submit")));
    // The session was recorded.
    const QString session = r.json.value(QStringLiteral("session")).toString();
    QVERIFY2(QFileInfo::exists(session + QStringLiteral("/director.jsonl")), qPrintable(session));
    QVERIFY(QFileInfo::exists(session + QStringLiteral("/metadata.json")));
}

void TestDirectorE2e::openMenuItem()
{
    const AgentRun r =
        run({QStringLiteral("run"), QStringLiteral("click File; click Open"), QStringLiteral("--execute")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.failure()));
    QVERIFY(hasEvent(QStringLiteral("menu_triggered"), QStringLiteral("item"), QStringLiteral("Open")));
}

void TestDirectorE2e::answerDialog()
{
    const AgentRun r = run({QStringLiteral("run"),
                            QStringLiteral("click \"Open Dialog\"; wait for \"Save the changes\"; click Yes"),
                            QStringLiteral("--execute")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.failure()));
    QVERIFY(hasEvent(QStringLiteral("dialog_closed"), QStringLiteral("result"), QStringLiteral("yes")));
}

void TestDirectorE2e::dryRunByDefault()
{
    m_app->clearPending();
    const AgentRun r = run({QStringLiteral("run"), QStringLiteral("check Subscribe; click Submit")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.failure()));
    QVERIFY(r.json.value(QStringLiteral("dry_run")).toBool());
    QVERIFY(r.err.contains(QStringLiteral("dry run: would")));
    QVERIFY(!hasEvent(QStringLiteral("mouse_press"), {}, {}, 1000));
}

void TestDirectorE2e::highRiskRefusedWithoutTerminal()
{
    m_app->clearPending();
    const AgentRun r =
        run({QStringLiteral("run"), QStringLiteral("press alt+F4"), QStringLiteral("--execute")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(
        r.json.value(QStringLiteral("message")).toString().contains(QStringLiteral("nobody can confirm")),
        qPrintable(r.out));
    QVERIFY(!hasEvent(QStringLiteral("key_press"), {}, {}, 1000));
    m_app->send(QStringLiteral("dump"));
    QVERIFY(m_app->waitForEvent(QStringLiteral("widgets"))); // the window is still there
}

void TestDirectorE2e::iterationLimit()
{
    const AgentRun r =
        run({QStringLiteral("run"), QStringLiteral("click OK; click Cancel; click OK; click Cancel"),
             QStringLiteral("--execute"), QStringLiteral("--max-iterations"), QStringLiteral("2")});
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(r.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("max_iterations_reached"));
    QCOMPARE(r.json.value(QStringLiteral("usage")).toObject().value(QStringLiteral("iterations")).toInt(), 2);
    QVERIFY(hasEvent(QStringLiteral("clicked"), QStringLiteral("name"), QStringLiteral("ok")));
    QVERIFY(hasEvent(QStringLiteral("clicked"), QStringLiteral("name"), QStringLiteral("cancel")));
    QVERIFY(!hasEvent(QStringLiteral("clicked"), {}, {}, 1000)); // never a third
}

void TestDirectorE2e::badTaskIsAUsageError()
{
    const AgentRun r = run({QStringLiteral("run"), QStringLiteral("click OK; frobnicate")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("line 1, column 11")), qPrintable(r.err));
}

void TestDirectorE2e::demo()
{
    cleanup(); // the demo brings its own display
    QProcessEnvironment env = agentEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    const AgentRun r =
        runAgent({QStringLiteral("demo"), QStringLiteral("--session-dir"), m_sessions.path()}, env, 240'000);
    QVERIFY2(r.exitCode == 0, qPrintable(r.failure()));
    const QString& out = r.out;
    QVERIFY(out.contains(QStringLiteral("outcome:     completed")));
    QVERIFY(out.contains(QStringLiteral("recording:")));
    QVERIFY2(out.contains(QStringLiteral("\"text\":\"Ada Lovelace\"")), qPrintable(out));
    QVERIFY(out.contains(QStringLiteral("\"name\":\"submit\"")));
}

namespace {

// The zones of a request as the agent described them to the model ("z12 menu_item \"Open\" [x,y,w,h]"),
// later descriptions (deltas) overriding earlier ones.
struct SeenZone
{
    QString id;
    QString type;
    QString label;
    bool added = false; // from the last message's "+" lines
};

QList<SeenZone> zonesIn(const FakeApiServer::Request& request)
{
    static const QRegularExpression line(
        QStringLiteral("^([+~] )?(\\S+) (\\w+) \"(.*)\" \\[-?\\d+,-?\\d+,\\d+,\\d+\\]"),
        QRegularExpression::MultilineOption);
    QStringList texts;
    for (const QJsonValue& v : request.json.value(QStringLiteral("messages")).toArray()) {
        const QJsonValue content = v.toObject().value(QStringLiteral("content"));
        if (content.isString())
            texts << content.toString();
        for (const QJsonValue& part : content.toArray())
            texts << part.toObject().value(QStringLiteral("text")).toString();
    }
    QList<SeenZone> zones;
    for (qsizetype t = 0; t < texts.size(); ++t) {
        for (auto it = line.globalMatch(texts[t]); it.hasNext();) {
            const auto m = it.next();
            SeenZone z{m.captured(2), m.captured(3), m.captured(4),
                       t == texts.size() - 1 && !m.captured(1).isEmpty()};
            zones.removeIf([&z](const SeenZone& o) { return o.id == z.id; });
            zones.append(z);
        }
    }
    return zones;
}

QString plainLabel(QString label)
{
    return label.remove(QLatin1Char('&')).trimmed().toLower();
}

} // namespace

void TestDirectorE2e::openAiProviderOpensMenuItem()
{
    // A scripted "model": the first call clicks the zone labelled File; once the menu's zones are in the
    // request it clicks Open and completes. Every reply is real chat-completions wire format.
    FakeApiServer server;
    QVERIFY(server.start());
    int calls = 0;
    bool openClicked = false;
    server.setResponder([&](const FakeApiServer::Request& request) -> std::optional<FakeApiServer::Step> {
        ++calls;
        const QList<SeenZone> zones = zonesIn(request);
        auto find = [&zones](const QString& label, bool preferAdded) -> QString {
            QString any;
            for (const SeenZone& z : zones) {
                if (plainLabel(z.label) != label)
                    continue;
                if (!preferAdded || z.added)
                    return z.id;
                any = z.id;
            }
            return any;
        };
        auto call = [](const QString& id, const QString& name, const QJsonObject& args) {
            return FakeApiServer::chatToolCall(id, name, args);
        };
        if (openClicked)
            return FakeApiServer::chatToolCallsReply(
                {call(QStringLiteral("call_done"), QStringLiteral("task_complete"),
                      {{QStringLiteral("summary"), QStringLiteral("Open chosen")}})});
        const QString open = find(QStringLiteral("open"), true);
        if (calls > 1 && !open.isEmpty()) {
            openClicked = true;
            return FakeApiServer::chatToolCallsReply(
                {call(QStringLiteral("call_open"), QStringLiteral("click_zone"),
                      {{QStringLiteral("zone_id"), open}}),
                 call(QStringLiteral("call_done"), QStringLiteral("task_complete"),
                      {{QStringLiteral("summary"), QStringLiteral("Open chosen")}})},
                QStringLiteral("Choosing Open."));
        }
        if (calls > 1 && calls <= 4) // the menu was clicked: its items are still being analysed
            return FakeApiServer::chatToolCallsReply({call(
                QStringLiteral("call_wait_%1").arg(calls), QStringLiteral("wait_for_change"),
                {{QStringLiteral("text"), QStringLiteral("Open")}, {QStringLiteral("timeout_ms"), 8000}})});
        const QString file = find(QStringLiteral("file"), false);
        if (file.isEmpty() || calls > 4)
            return FakeApiServer::chatToolCallsReply(
                {call(QStringLiteral("call_no"), QStringLiteral("task_impossible"),
                      {{QStringLiteral("explanation"),
                        QStringLiteral("no File menu or no Open item in the zone map")}})});
        return FakeApiServer::chatToolCallsReply(
            {call(QStringLiteral("call_file_%1").arg(calls), QStringLiteral("click_zone"),
                  {{QStringLiteral("zone_id"), file}})},
            QStringLiteral("Opening the File menu."));
    });
    QProcessEnvironment env;
    env.insert(QStringLiteral("OPENAI_BASE_URL"), server.baseUrl().toString());
    env.insert(QStringLiteral("OPENAI_API_KEY"), QStringLiteral("sk-e2e-openai-SECRET"));
    const QString task = QStringLiteral("Open the File menu and choose Open.");
    const AgentRun r = run({QStringLiteral("run"), task, QStringLiteral("--provider"),
                            QStringLiteral("openai"), QStringLiteral("--execute")},
                           180'000, env);
    QVERIFY2(r.exitCode == 0, qPrintable(r.failure()));
    QVERIFY(hasEvent(QStringLiteral("menu_triggered"), QStringLiteral("item"), QStringLiteral("Open")));
    const QJsonObject usage = r.json.value(QStringLiteral("usage")).toObject();
    qInfo("openai provider, menu task: %d model calls, %d input tokens (fake server's usage)",
          usage.value(QStringLiteral("model_calls")).toInt(),
          usage.value(QStringLiteral("input_tokens")).toInt());
    QVERIFY(usage.value(QStringLiteral("model_calls")).toInt() >= 2);
    QCOMPARE(server.requestCount(), qsizetype(usage.value(QStringLiteral("model_calls")).toInt()));
    for (const FakeApiServer::Request& request : server.requests()) {
        QCOMPARE(request.path, QByteArray("/v1/chat/completions"));
        QCOMPARE(request.header("authorization"), QByteArray("Bearer sk-e2e-openai-SECRET"));
    }
    QVERIFY(!r.err.contains(QStringLiteral("sk-e2e-openai-SECRET")));
    QVERIFY(!r.out.contains(QStringLiteral("sk-e2e-openai-SECRET")));
    QVERIFY2(r.err.contains(QStringLiteral("sequence_recorded")) ||
                 r.err.contains(QStringLiteral("recorded")),
             qPrintable(r.err.right(2000)));

    // The same task again in SPEED-MAX: replayed from the recorded sequence, no model call.
    m_app->clearPending();
    const qsizetype before = server.requestCount();
    const AgentRun again =
        run({QStringLiteral("run"), task, QStringLiteral("--provider"), QStringLiteral("openai"),
             QStringLiteral("--speed"), QStringLiteral("max"), QStringLiteral("--execute")},
            180'000, env);
    QVERIFY2(again.exitCode == 0, qPrintable(again.err.right(4000) + again.out));
    QVERIFY2(
        hasEvent(QStringLiteral("menu_triggered"), QStringLiteral("item"), QStringLiteral("Open"), 10'000),
        qPrintable(QStringLiteral("the replay completed without choosing Open:\n") + again.err.right(4000)));
    QCOMPARE(
        again.json.value(QStringLiteral("usage")).toObject().value(QStringLiteral("model_calls")).toInt(), 0);
    QCOMPARE(server.requestCount(), before);
    QCOMPARE(again.json.value(QStringLiteral("planner")).toString(), QStringLiteral("replay"));
}

void TestDirectorE2e::anthropicRunStepsOneCallPerTask()
{
    // What a model that plans ahead sends: every step of the task by label in one run_steps call, with
    // task_complete. The Director resolves each label on the zone map as it is just before that step (the
    // menu's items and the dialog's buttons only exist after the step before), so each task takes one call.
    struct Task
    {
        QString task;
        QStringList steps;
        QString event;
        QString key;
        QString value;
    };
    const QList<Task> tasks = {
        {QStringLiteral("Open the File menu and choose Open."),
         {QStringLiteral("click File"), QStringLiteral("click Open")},
         QStringLiteral("menu_triggered"),
         QStringLiteral("item"),
         QStringLiteral("Open")},
        {QStringLiteral("Open the dialog and answer Yes."),
         {QStringLiteral("click \"Open Dialog\""), QStringLiteral("wait for \"Save the changes\""),
          QStringLiteral("click Yes")},
         QStringLiteral("dialog_closed"),
         QStringLiteral("result"),
         QStringLiteral("yes")},
        {QStringLiteral("Fill the form: name Ada, subscribe, color Blue, then submit."),
         {QStringLiteral("type \"Ada\" into Name"), QStringLiteral("check Subscribe"),
          QStringLiteral("select Blue in Color"), QStringLiteral("click Submit")},
         QStringLiteral("clicked"),
         QStringLiteral("name"),
         QStringLiteral("submit")},
    };
    for (const Task& t : tasks) {
        FakeApiServer server;
        QVERIFY(server.start());
        QString secondCall; // what the model was told when it was asked again (for the failure message)
        server.setResponder([&](const FakeApiServer::Request& request) -> std::optional<FakeApiServer::Step> {
            auto reply = [](const QJsonArray& content) {
                return FakeApiServer::message(FakeApiServer::messageJson(content, QStringLiteral("tool_use"),
                                                                         FakeApiServer::usage(1500, 80)));
            };
            if (server.requestCount() > 1) {
                const QJsonArray messages = request.json.value(QStringLiteral("messages")).toArray();
                secondCall = QString::fromUtf8(QJsonDocument(messages.last().toObject()).toJson());
                return reply({FakeApiServer::toolUseBlock(
                    QStringLiteral("toolu_no"), QStringLiteral("task_impossible"),
                    {{QStringLiteral("explanation"), QStringLiteral("a step failed")}})});
            }
            return reply(
                {FakeApiServer::toolUseBlock(
                     QStringLiteral("toolu_steps"), QStringLiteral("run_steps"),
                     {{QStringLiteral("steps"), QJsonArray::fromStringList(t.steps)}}),
                 FakeApiServer::toolUseBlock(QStringLiteral("toolu_done"), QStringLiteral("task_complete"),
                                             {{QStringLiteral("summary"), QStringLiteral("done")}})});
        });
        QProcessEnvironment env;
        env.insert(QStringLiteral("ANTHROPIC_BASE_URL"), server.baseUrl().toString());
        env.insert(QStringLiteral("ANTHROPIC_API_KEY"), QStringLiteral("sk-ant-e2e-SECRET"));
        m_app->clearPending();
        const AgentRun r = run({QStringLiteral("run"), t.task, QStringLiteral("--provider"),
                                QStringLiteral("anthropic"), QStringLiteral("--execute")},
                               180'000, env);
        QVERIFY2(r.exitCode == 0, qPrintable(t.task + QLatin1Char('\n') + secondCall + r.failure()));
        QVERIFY2(hasEvent(t.event, t.key, t.value), qPrintable(t.task));
        const QJsonObject usage = r.json.value(QStringLiteral("usage")).toObject();
        qInfo("run_steps on the fixture: \"%s\": %d model call(s), %d actions", qPrintable(t.task),
              usage.value(QStringLiteral("model_calls")).toInt(),
              usage.value(QStringLiteral("actions_executed")).toInt());
        QCOMPARE(usage.value(QStringLiteral("model_calls")).toInt(), 1);
        QCOMPARE(server.requestCount(), qsizetype(1));
        QCOMPARE(server.requests().first().header("x-api-key"), QByteArray("sk-ant-e2e-SECRET"));
        QVERIFY(!r.err.contains(QStringLiteral("sk-ant-e2e-SECRET")));
    }
}

QTEST_GUILESS_MAIN(TestDirectorE2e)
#include "tst_director_e2e.moc"
