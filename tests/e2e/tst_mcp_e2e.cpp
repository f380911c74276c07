// End to end under Xvfb: `ciu-agent mcp` driven by the official MCP TypeScript SDK client
// (tests/mcp-client/driver.mjs) over stdio and Streamable HTTP, against the fixture app. Every action is
// confirmed by the fixture's own JSON output; malformed JSON-RPC is sent raw over stdio and answered with
// the right error codes; a high-risk action is refused without elicitation, and with it follows the user's
// answer.

#include "mcpsdkclient.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace ciu::test;

class TestMcpE2e : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void stdioToolsOnTheFixture();
    void malformedRequestsOverStdio();
    void highRiskNeedsElicitation();
    void httpWithAndWithoutToken();

private:
    QStringList agentArgs(const QStringList& extra = {}) const;
    bool hasEvent(const QString& event, const QString& key, const QJsonValue& value, int timeoutMs = 5000);
    void requireNode();

    std::unique_ptr<XvfbServer> m_x;
    std::unique_ptr<FixtureApp> m_app;
    QTemporaryDir m_sessions;
};

void TestMcpE2e::requireNode()
{
    if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
        QSKIP("node is not installed here (packaging/install-deps.sh installs nodejs; CI has it)");
}

void TestMcpE2e::init()
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

void TestMcpE2e::cleanup()
{
    m_app.reset();
    m_x.reset();
}

QStringList TestMcpE2e::agentArgs(const QStringList& extra) const
{
    return QStringList{QStringLiteral("mcp"), QStringLiteral("--display"), m_x->displayName(),
                       QStringLiteral("--session-dir"), m_sessions.path()} +
           extra;
}

bool TestMcpE2e::hasEvent(const QString& event, const QString& key, const QJsonValue& value, int timeoutMs)
{
    return m_app
        ->waitFor(
            [&](const QJsonObject& o) {
                return o.value(QStringLiteral("event")).toString() == event &&
                       (key.isEmpty() || o.value(key) == value);
            },
            timeoutMs)
        .has_value();
}

void TestMcpE2e::stdioToolsOnTheFixture()
{
    requireNode();
    SdkClient client;
    QString error;
    QVERIFY2(client.start(&error), qPrintable(error));
    QJsonObject r = client.send(
        {{QStringLiteral("op"), QStringLiteral("connect")},
         {QStringLiteral("transport"), QStringLiteral("stdio")},
         {QStringLiteral("command"), QStringLiteral(CIU_AGENT_BIN)},
         {QStringLiteral("args"), QJsonArray::fromStringList(agentArgs({QStringLiteral("--execute")}))}});
    QVERIFY2(r.value(QStringLiteral("ok")).toBool(), QByteArray(dump(r) + client.log().toUtf8()).constData());
    const QJsonObject connected = r.value(QStringLiteral("result")).toObject();
    QCOMPARE(connected.value(QStringLiteral("server")).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("ciu-agent"));
    QVERIFY(connected.value(QStringLiteral("instructions")).toString().contains(QStringLiteral("get_zones")));

    // The tools, each with an input schema and an output schema (the SDK client validates every
    // structuredContent of the calls below against it).
    r = client.send({{QStringLiteral("op"), QStringLiteral("listTools")}});
    QStringList names;
    for (const QJsonValue& t :
         r.value(QStringLiteral("result")).toObject().value(QStringLiteral("tools")).toArray()) {
        names << t.toObject().value(QStringLiteral("name")).toString();
        for (const char* schema : {"inputSchema", "outputSchema"})
            QCOMPARE(
                t.toObject().value(QLatin1String(schema)).toObject().value(QStringLiteral("type")).toString(),
                QStringLiteral("object"));
    }
    const QStringList expected{
        QStringLiteral("list_windows"), QStringLiteral("focus_window"), QStringLiteral("launch_app"),
        QStringLiteral("get_zones"),    QStringLiteral("find_zones"),   QStringLiteral("click"),
        QStringLiteral("type_text"),    QStringLiteral("press_keys"),   QStringLiteral("scroll"),
        QStringLiteral("drag"),         QStringLiteral("screenshot"),   QStringLiteral("run_steps"),
        QStringLiteral("run_task")};
    QCOMPARE(names, expected);

    // The zone map: the fixture's Submit button is in it, and the text is marked untrusted.
    r = client.call(QStringLiteral("get_zones"), {{QStringLiteral("role"), QStringLiteral("button")}});
    QVERIFY2(!isError(r), qPrintable(text(r)));
    QVERIFY(text(r).contains(QStringLiteral("<untrusted_screen_text")));
    bool submit = false;
    for (const QJsonValue& z : structured(r).value(QStringLiteral("zones")).toArray()) {
        QCOMPARE(z.toObject().value(QStringLiteral("type")).toString(), QStringLiteral("button"));
        submit = submit || z.toObject().value(QStringLiteral("label")).toString() == QLatin1String("Submit");
    }
    QVERIFY2(submit, qPrintable(text(r)));

    // Click and type by label; the fixture's JSON confirms.
    m_app->clearPending();
    r = client.call(QStringLiteral("click"), {{QStringLiteral("target"), QStringLiteral("Subscribe")}});
    QVERIFY2(!isError(r), qPrintable(text(r)));
    QVERIFY(hasEvent(QStringLiteral("toggled"), QStringLiteral("name"), QStringLiteral("subscribe")));
    const QString subscribeId = structured(r)
                                    .value(QStringLiteral("resolved"))
                                    .toObject()
                                    .value(QStringLiteral("target"))
                                    .toObject()
                                    .value(QStringLiteral("id"))
                                    .toString();
    QVERIFY2(!subscribeId.isEmpty(), qPrintable(text(r)));
    r = client.call(QStringLiteral("type_text"), {{QStringLiteral("target"), QStringLiteral("Name")},
                                                  {QStringLiteral("text"), QStringLiteral("Ada")}});
    QVERIFY2(!isError(r), qPrintable(text(r)));
    QVERIFY(hasEvent(QStringLiteral("text_changed"), QStringLiteral("text"), QStringLiteral("Ada")));
    // Typing again replaces the content (append is false).
    r = client.call(QStringLiteral("type_text"), {{QStringLiteral("target"), QStringLiteral("Name")},
                                                  {QStringLiteral("text"), QStringLiteral("Bob")}});
    QVERIFY2(!isError(r), qPrintable(text(r)));
    QVERIFY(hasEvent(QStringLiteral("text_changed"), QStringLiteral("text"), QStringLiteral("Bob")));

    // A screenshot: a PNG scaled to the width asked for.
    r = client.call(QStringLiteral("screenshot"), {{QStringLiteral("max_width"), 400}});
    QVERIFY2(!isError(r), qPrintable(text(r)));
    const QJsonObject image = r.value(QStringLiteral("result"))
                                  .toObject()
                                  .value(QStringLiteral("content"))
                                  .toArray()
                                  .at(0)
                                  .toObject();
    QCOMPARE(image.value(QStringLiteral("type")).toString(), QStringLiteral("image"));
    QCOMPARE(image.value(QStringLiteral("mimeType")).toString(), QStringLiteral("image/png"));
    const QImage png = QImage::fromData(
        QByteArray::fromBase64(image.value(QStringLiteral("data")).toString().toLatin1()), "PNG");
    QCOMPARE(png.width(), 400);

    // run_steps: several commands, one result.
    m_app->clearPending();
    r = client.call(
        QStringLiteral("run_steps"),
        {{QStringLiteral("steps"), QJsonArray{QStringLiteral("click OK"), QStringLiteral("click Cancel")}}});
    QVERIFY2(!isError(r), qPrintable(text(r)));
    QVERIFY(hasEvent(QStringLiteral("clicked"), QStringLiteral("name"), QStringLiteral("ok")));
    QVERIFY(hasEvent(QStringLiteral("clicked"), QStringLiteral("name"), QStringLiteral("cancel")));

    // A missing target: an error result that lists candidates, and nothing is clicked.
    m_app->clearPending();
    r = client.call(QStringLiteral("click"), {{QStringLiteral("target"), QStringLiteral("Submt")}});
    QVERIFY(r.value(QStringLiteral("ok")).toBool());
    r = client.call(QStringLiteral("click"),
                    {{QStringLiteral("target"), QStringLiteral("Launch the rocket")}});
    QVERIFY(r.value(QStringLiteral("ok")).toBool()); // a result, not a protocol error
    QVERIFY(isError(r));
    QVERIFY2(text(r).contains(QStringLiteral("No zone for \"Launch the rocket\"")), qPrintable(text(r)));
    // The near miss "Submt" resolved to Submit (OCR-slip tolerance), the missing one clicked nothing more.
    QVERIFY(hasEvent(QStringLiteral("clicked"), QStringLiteral("name"), QStringLiteral("submit")));
    QVERIFY(!hasEvent(QStringLiteral("clicked"), {}, {}, 1000));

    // Bad arguments are tool errors too.
    r = client.call(QStringLiteral("click"),
                    {{QStringLiteral("target"), QStringLiteral("OK")}, {QStringLiteral("count"), 9}});
    QVERIFY(isError(r));
    r = client.call(QStringLiteral("run_steps"),
                    {{QStringLiteral("steps"), QJsonArray{QStringLiteral("frobnicate OK")}}});
    QVERIFY(isError(r));
    QVERIFY2(text(r).contains(QStringLiteral("cannot be read")), qPrintable(text(r)));

    // The session is a resource, with the actions the tools took.
    r = client.send({{QStringLiteral("op"), QStringLiteral("listResources")}});
    QString actionsUri;
    for (const QJsonValue& res :
         r.value(QStringLiteral("result")).toObject().value(QStringLiteral("resources")).toArray()) {
        const QString uri = res.toObject().value(QStringLiteral("uri")).toString();
        QVERIFY(uri.startsWith(QStringLiteral("ciu://sessions/")));
        if (uri.endsWith(QStringLiteral("/actions.jsonl")))
            actionsUri = uri;
    }
    QVERIFY2(!actionsUri.isEmpty(), dump(r).constData());
    r = client.send(
        {{QStringLiteral("op"), QStringLiteral("readResource")}, {QStringLiteral("uri"), actionsUri}});
    const QString actions = r.value(QStringLiteral("result"))
                                .toObject()
                                .value(QStringLiteral("contents"))
                                .toArray()
                                .at(0)
                                .toObject()
                                .value(QStringLiteral("text"))
                                .toString();
    // The click on Subscribe is in the recording, by the zone id the tool resolved.
    QVERIFY2(actions.contains(QStringLiteral("\"zone_id\":\"%1\"").arg(subscribeId)),
             qPrintable(actions.left(2000)));
    r = client.send({{QStringLiteral("op"), QStringLiteral("readResource")},
                     {QStringLiteral("uri"), QStringLiteral("ciu://sessions/../../etc/passwd")}});
    QVERIFY(!r.value(QStringLiteral("ok")).toBool());
    QCOMPARE(r.value(QStringLiteral("code")).toInt(), -32002);
}

void TestMcpE2e::malformedRequestsOverStdio()
{
    QProcess agent;
    agent.start(QStringLiteral(CIU_AGENT_BIN), agentArgs({QStringLiteral("--no-record")}));
    QVERIFY(agent.waitForStarted());
    QByteArray buffer;
    auto exchange = [&](const QByteArray& line) {
        agent.write(line + '\n');
        QJsonObject reply;
        (void)QTest::qWaitFor(
            [&] {
                buffer += agent.readAllStandardOutput();
                const qsizetype nl = buffer.indexOf('\n');
                if (nl < 0)
                    return agent.state() == QProcess::NotRunning;
                reply = QJsonDocument::fromJson(buffer.left(nl)).object();
                buffer.remove(0, nl + 1);
                return true;
            },
            60'000);
        return reply;
    };
    auto code = [](const QJsonObject& reply) {
        return reply.value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt();
    };
    QCOMPARE(code(exchange("this is not json")), -32700);
    QCOMPARE(code(exchange(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])")), -32600);
    QCOMPARE(code(exchange(R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})")), -32600); // not initialized
    QJsonObject reply = exchange(
        R"({"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}})");
    QCOMPARE(reply.value(QStringLiteral("id")).toInt(), 3);
    QCOMPARE(
        reply.value(QStringLiteral("result")).toObject().value(QStringLiteral("protocolVersion")).toString(),
        QStringLiteral("2025-06-18"));
    agent.write(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                "\n");
    QCOMPARE(code(exchange(R"({"jsonrpc":"2.0","id":4,"method":"no/such/method"})")), -32601);
    QCOMPARE(
        code(exchange(R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"no_such_tool"}})")),
        -32602);
    QCOMPARE(code(exchange(R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{}})")), -32602);
    QCOMPARE(code(exchange(R"({"jsonrpc":"2.0","method":"tools/list","id":{"x":1}})")), -32600);
    reply = exchange(R"({"jsonrpc":"2.0","id":"p","method":"ping"})");
    QCOMPARE(reply.value(QStringLiteral("id")).toString(), QStringLiteral("p"));
    QVERIFY(reply.contains(QStringLiteral("result")));
    // The client closes stdin: the server ends cleanly.
    agent.closeWriteChannel();
    QVERIFY(agent.waitForFinished(60'000));
    QCOMPARE(agent.exitStatus(), QProcess::NormalExit);
    QCOMPARE(agent.exitCode(), 0);
}

void TestMcpE2e::highRiskNeedsElicitation()
{
    requireNode();
    // Typing a deletion command is high-risk: refused without elicitation or when the user declines, typed
    // when the user accepts. The fixture reports the field's text.
    const QString risky = QStringLiteral("rm -rf /tmp/ciu-mcp-test");
    const QJsonObject typeRisky{{QStringLiteral("target"), QStringLiteral("Name")},
                                {QStringLiteral("text"), risky}};
    for (const QString& mode :
         {QStringLiteral("none"), QStringLiteral("decline"), QStringLiteral("accept")}) {
        SdkClient client;
        QString error;
        QVERIFY2(client.start(&error), qPrintable(error));
        QJsonObject r = client.send(
            {{QStringLiteral("op"), QStringLiteral("connect")},
             {QStringLiteral("transport"), QStringLiteral("stdio")},
             {QStringLiteral("command"), QStringLiteral(CIU_AGENT_BIN)},
             {QStringLiteral("elicitation"), mode},
             {QStringLiteral("args"), QJsonArray::fromStringList(agentArgs({QStringLiteral("--execute")}))}});
        QVERIFY2(r.value(QStringLiteral("ok")).toBool(), qPrintable(client.log()));
        m_app->clearPending();
        r = client.call(QStringLiteral("type_text"), typeRisky);
        const QJsonArray asked = client.send({{QStringLiteral("op"), QStringLiteral("info")}})
                                     .value(QStringLiteral("result"))
                                     .toObject()
                                     .value(QStringLiteral("elicitations"))
                                     .toArray();
        QCOMPARE(asked.size(), mode == QLatin1String("none") ? 0 : 1);
        if (!asked.isEmpty())
            QVERIFY2(asked[0]
                         .toObject()
                         .value(QStringLiteral("message"))
                         .toString()
                         .contains(QStringLiteral("rm")),
                     dump(asked).constData());
        if (mode == QLatin1String("accept")) {
            QVERIFY2(!isError(r), qPrintable(text(r)));
            QVERIFY(hasEvent(QStringLiteral("text_changed"), QStringLiteral("text"), risky));
        } else {
            QVERIFY2(isError(r), qPrintable(text(r)));
            QVERIFY2(text(r).contains(mode == QLatin1String("none") ? QStringLiteral("nobody can confirm")
                                                                    : QStringLiteral("the user declined")),
                     qPrintable(text(r)));
            QVERIFY(!hasEvent(QStringLiteral("text_changed"), QStringLiteral("text"), risky, 1000));
        }
    }
}

void TestMcpE2e::httpWithAndWithoutToken()
{
    requireNode();
    QTemporaryDir dir;
    const QString tokenFile = dir.filePath(QStringLiteral("token"));
    QProcess agent;
    agent.start(QStringLiteral(CIU_AGENT_BIN),
                agentArgs({QStringLiteral("--execute"), QStringLiteral("--http"),
                           QStringLiteral("127.0.0.1:0"), QStringLiteral("--token-file"), tokenFile}));
    QVERIFY(agent.waitForStarted());
    QString err;
    QRegularExpressionMatch listening;
    static const QRegularExpression pattern(QStringLiteral("listening on (http://127\\.0\\.0\\.1:\\d+/mcp)"));
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     err += QString::fromUtf8(agent.readAllStandardError());
                     listening = pattern.match(err);
                     return listening.hasMatch() || agent.state() == QProcess::NotRunning;
                 },
                 60'000) &&
                 listening.hasMatch(),
             qPrintable(err));
    const QString url = listening.captured(1);
    struct stat st
    {
    };
    QCOMPARE(::stat(QFile::encodeName(tokenFile).constData(), &st), 0);
    QCOMPARE(int(st.st_mode & 0777), 0600);
    QFile f(tokenFile);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString token = QString::fromLatin1(f.readAll().trimmed());
    QVERIFY(!token.isEmpty());

    {
        SdkClient client;
        QString error;
        QVERIFY2(client.start(&error), qPrintable(error));
        const QJsonObject r = client.send({{QStringLiteral("op"), QStringLiteral("connect")},
                                           {QStringLiteral("transport"), QStringLiteral("http")},
                                           {QStringLiteral("url"), url}});
        QVERIFY(!r.value(QStringLiteral("ok")).toBool());
        QVERIFY2(r.value(QStringLiteral("error")).toString().contains(QStringLiteral("401")) ||
                     r.value(QStringLiteral("error")).toString().contains(QStringLiteral("nauthorized")),
                 dump(r).constData());
    }
    SdkClient client;
    QString error;
    QVERIFY2(client.start(&error), qPrintable(error));
    QJsonObject r = client.send({{QStringLiteral("op"), QStringLiteral("connect")},
                                 {QStringLiteral("transport"), QStringLiteral("http")},
                                 {QStringLiteral("url"), url},
                                 {QStringLiteral("token"), token}});
    QVERIFY2(r.value(QStringLiteral("ok")).toBool(),
             QByteArray(dump(r) + client.log().toUtf8() + err.toUtf8()).constData());
    m_app->clearPending();
    r = client.call(QStringLiteral("click"), {{QStringLiteral("target"), QStringLiteral("Submit")}});
    QVERIFY2(!isError(r), dump(r).constData());
    QVERIFY(hasEvent(QStringLiteral("clicked"), QStringLiteral("name"), QStringLiteral("submit")));
    r = client.call(QStringLiteral("get_zones"), {{QStringLiteral("label"), QStringLiteral("Remember")}});
    QVERIFY2(!isError(r), qPrintable(text(r)));
    QVERIFY(text(r).contains(QStringLiteral("Remember me")));
    client.send({{QStringLiteral("op"), QStringLiteral("close")}});
    agent.terminate();
    QVERIFY(agent.waitForFinished(60'000));
    QCOMPARE(agent.exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestMcpE2e)
#include "tst_mcp_e2e.moc"
