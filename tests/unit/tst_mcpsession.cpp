// The MCP protocol layer without a transport: JSON-RPC parsing and its error codes, the initialize
// handshake and version negotiation, tools and resources, elicitation round trips, cancellation (the host is
// told), progress notifications for a request with a progressToken.

#include "core/mcp/jsonrpc.h"
#include "core/mcp/mcpsession.h"
#include "mcptesthost.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

#include <tuple>

using namespace ciu::mcp;
using ciu::mcp::test::TestHost;

class TestMcpSession : public QObject
{
    Q_OBJECT
private slots:
    void malformedMessages_data();
    void malformedMessages();
    void parsesEachKind();
    void negotiatesVersion_data();
    void negotiatesVersion();
    void initializeNeedsVersion();
    void requestsBeforeInitialize();
    void unknownMethod();
    void listsAndCallsTools();
    void unknownToolIsInvalidParams();
    void elicitationRoundTrip_data();
    void elicitationRoundTrip();
    void noElicitationWithoutCapability();
    void cancelledCallGetsNoResponse();
    void cancellationReachesTheHost();
    void progressNotifications();
    void resources();

private:
    // Sends `message` and returns what the session emitted.
    static QList<QJsonObject> exchange(McpSession& session, const QByteArray& message);
    static void initialize(McpSession& session, const QJsonObject& capabilities = {});
};

QList<QJsonObject> TestMcpSession::exchange(McpSession& session, const QByteArray& message)
{
    QList<QJsonObject> out;
    const auto c = QObject::connect(&session, &McpSession::outgoing,
                                    [&out](const QJsonObject& m, const QJsonValue&) { out.append(m); });
    session.receive(message);
    QObject::disconnect(c);
    return out;
}

void TestMcpSession::initialize(McpSession& session, const QJsonObject& capabilities)
{
    const QJsonObject init = jsonrpc::request(
        0, QStringLiteral("initialize"),
        {{QStringLiteral("protocolVersion"), QStringLiteral("2025-06-18")},
         {QStringLiteral("capabilities"), capabilities},
         {QStringLiteral("clientInfo"), QJsonObject{{QStringLiteral("name"), QStringLiteral("test")}}}});
    const auto out = exchange(session, QJsonDocument(init).toJson());
    QCOMPARE(out.size(), 1);
    QVERIFY(out[0].contains(QStringLiteral("result")));
    session.receive(
        QJsonDocument(jsonrpc::notification(QStringLiteral("notifications/initialized"))).toJson());
    QVERIFY(session.initialized());
}

void TestMcpSession::malformedMessages_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("code");
    QTest::addColumn<QJsonValue>("id");
    QTest::newRow("not json") << QByteArray("{\"jsonrpc\": \"2.0\", ") << int(jsonrpc::ParseError)
                              << QJsonValue(QJsonValue::Null);
    QTest::newRow("batch") << QByteArray(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])")
                           << int(jsonrpc::InvalidRequest) << QJsonValue(QJsonValue::Null);
    QTest::newRow("a number") << QByteArray("42") << int(jsonrpc::ParseError) << QJsonValue(QJsonValue::Null);
    QTest::newRow("no version") << QByteArray(R"({"id":7,"method":"ping"})") << int(jsonrpc::InvalidRequest)
                                << QJsonValue(7);
    QTest::newRow("wrong version") << QByteArray(R"({"jsonrpc":"1.0","id":"a","method":"ping"})")
                                   << int(jsonrpc::InvalidRequest) << QJsonValue(QStringLiteral("a"));
    QTest::newRow("method not a string") << QByteArray(R"({"jsonrpc":"2.0","id":3,"method":5})")
                                         << int(jsonrpc::InvalidRequest) << QJsonValue(3);
    QTest::newRow("params an array") << QByteArray(R"({"jsonrpc":"2.0","id":4,"method":"ping","params":[1]})")
                                     << int(jsonrpc::InvalidRequest) << QJsonValue(4);
    QTest::newRow("id an object") << QByteArray(R"({"jsonrpc":"2.0","id":{},"method":"ping"})")
                                  << int(jsonrpc::InvalidRequest) << QJsonValue(QJsonValue::Null);
    QTest::newRow("fractional id") << QByteArray(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})")
                                   << int(jsonrpc::InvalidRequest) << QJsonValue(QJsonValue::Null);
    QTest::newRow("neither") << QByteArray(R"({"jsonrpc":"2.0"})") << int(jsonrpc::InvalidRequest)
                             << QJsonValue(QJsonValue::Null);
    QTest::newRow("result and error") << QByteArray(R"({"jsonrpc":"2.0","id":9,"result":{},"error":{}})")
                                      << int(jsonrpc::InvalidRequest) << QJsonValue(9);
}

void TestMcpSession::malformedMessages()
{
    QFETCH(QByteArray, text);
    QFETCH(int, code);
    QFETCH(QJsonValue, id);
    TestHost host;
    McpSession session(&host, {});
    const auto out = exchange(session, text);
    QCOMPARE(out.size(), 1);
    QCOMPARE(out[0].value(QStringLiteral("jsonrpc")).toString(), QStringLiteral("2.0"));
    QCOMPARE(out[0].value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(), code);
    QCOMPARE(out[0].value(QStringLiteral("id")), id);
    QVERIFY(!out[0].contains(QStringLiteral("result")));
}

void TestMcpSession::parsesEachKind()
{
    auto kind = [](const char* text) { return jsonrpc::parse(QByteArray(text)).message->kind; };
    QCOMPARE(kind(R"({"jsonrpc":"2.0","id":1,"method":"a"})"), jsonrpc::Message::Kind::Request);
    QCOMPARE(kind(R"({"jsonrpc":"2.0","method":"a"})"), jsonrpc::Message::Kind::Notification);
    QCOMPARE(kind(R"({"jsonrpc":"2.0","id":"x","result":{}})"), jsonrpc::Message::Kind::Response);
    QCOMPARE(kind(R"({"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}})"),
             jsonrpc::Message::Kind::ErrorResponse);
}

void TestMcpSession::negotiatesVersion_data()
{
    QTest::addColumn<QString>("asked");
    QTest::addColumn<QString>("answered");
    QTest::newRow("2025-06-18") << QStringLiteral("2025-06-18") << QStringLiteral("2025-06-18");
    QTest::newRow("2025-11-25") << QStringLiteral("2025-11-25") << QStringLiteral("2025-11-25");
    QTest::newRow("older: our latest") << QStringLiteral("2024-11-05") << QStringLiteral("2025-11-25");
    QTest::newRow("unknown: our latest") << QStringLiteral("2099-01-01") << QStringLiteral("2025-11-25");
}

void TestMcpSession::negotiatesVersion()
{
    QFETCH(QString, asked);
    QFETCH(QString, answered);
    TestHost host;
    McpSession::ServerInfo info;
    info.version = QStringLiteral("1.2.3");
    info.instructions = QStringLiteral("use get_zones");
    McpSession session(&host, info);
    const QJsonObject init = jsonrpc::request(QStringLiteral("init-1"), QStringLiteral("initialize"),
                                              {{QStringLiteral("protocolVersion"), asked},
                                               {QStringLiteral("capabilities"), QJsonObject()},
                                               {QStringLiteral("clientInfo"), QJsonObject()}});
    const auto out = exchange(session, QJsonDocument(init).toJson());
    QCOMPARE(out.size(), 1);
    QCOMPARE(out[0].value(QStringLiteral("id")).toString(), QStringLiteral("init-1"));
    const QJsonObject result = out[0].value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("protocolVersion")).toString(), answered);
    QCOMPARE(result.value(QStringLiteral("serverInfo")).toObject().value(QStringLiteral("name")).toString(),
             QStringLiteral("ciu-agent"));
    QCOMPARE(
        result.value(QStringLiteral("serverInfo")).toObject().value(QStringLiteral("version")).toString(),
        QStringLiteral("1.2.3"));
    QCOMPARE(result.value(QStringLiteral("instructions")).toString(), QStringLiteral("use get_zones"));
    const QJsonObject caps = result.value(QStringLiteral("capabilities")).toObject();
    QVERIFY(caps.value(QStringLiteral("tools")).isObject());
    QVERIFY(caps.value(QStringLiteral("resources")).isObject());
    QCOMPARE(session.protocolVersion(), answered);
    // A second initialize is refused.
    const auto again = exchange(session, QJsonDocument(init).toJson());
    QCOMPARE(again[0].value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
             int(jsonrpc::InvalidRequest));
}

void TestMcpSession::initializeNeedsVersion()
{
    TestHost host;
    McpSession session(&host, {});
    const auto out = exchange(session, R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
    QCOMPARE(out[0].value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
             int(jsonrpc::InvalidParams));
    QVERIFY(!session.initializeReceived());
}

void TestMcpSession::requestsBeforeInitialize()
{
    TestHost host;
    McpSession session(&host, {});
    auto out = exchange(session, R"({"jsonrpc":"2.0","id":1,"method":"tools/list"})");
    QCOMPARE(out[0].value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
             int(jsonrpc::InvalidRequest));
    // ping is allowed at any time.
    out = exchange(session, R"({"jsonrpc":"2.0","id":2,"method":"ping"})");
    QCOMPARE(out[0].value(QStringLiteral("result")).toObject(), QJsonObject());
}

void TestMcpSession::unknownMethod()
{
    TestHost host;
    McpSession session(&host, {});
    initialize(session);
    const auto out = exchange(session, R"({"jsonrpc":"2.0","id":5,"method":"sampling/whatever"})");
    QCOMPARE(out[0].value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
             int(jsonrpc::MethodNotFound));
    QCOMPARE(out[0].value(QStringLiteral("id")).toInt(), 5);
    // An unknown notification is ignored without a reply.
    QVERIFY(exchange(session, R"({"jsonrpc":"2.0","method":"notifications/whatever"})").isEmpty());
}

void TestMcpSession::listsAndCallsTools()
{
    TestHost host;
    McpSession session(&host, {});
    initialize(session);
    auto out = exchange(session, R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})");
    const QJsonArray tools =
        out[0].value(QStringLiteral("result")).toObject().value(QStringLiteral("tools")).toArray();
    QCOMPARE(tools.size(), 4);
    QCOMPARE(tools[0].toObject().value(QStringLiteral("name")).toString(), QStringLiteral("echo"));
    out = exchange(
        session,
        R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}})");
    QCOMPARE(out.size(), 1);
    const QJsonObject result = out[0].value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("isError")).toBool(true), false);
    QCOMPARE(result.value(QStringLiteral("content"))
                 .toArray()[0]
                 .toObject()
                 .value(QStringLiteral("text"))
                 .toString(),
             QStringLiteral("hi"));
    QCOMPARE(
        result.value(QStringLiteral("structuredContent")).toObject().value(QStringLiteral("text")).toString(),
        QStringLiteral("hi"));
    // arguments must be an object
    out = exchange(
        session,
        R"({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":[1]}})");
    QCOMPARE(out[0].value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
             int(jsonrpc::InvalidParams));
}

void TestMcpSession::unknownToolIsInvalidParams()
{
    TestHost host;
    McpSession session(&host, {});
    initialize(session);
    const auto out =
        exchange(session, R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"nope"}})");
    const QJsonObject error = out[0].value(QStringLiteral("error")).toObject();
    QCOMPARE(error.value(QStringLiteral("code")).toInt(), int(jsonrpc::InvalidParams));
    QVERIFY(error.value(QStringLiteral("message")).toString().contains(QStringLiteral("nope")));
}

void TestMcpSession::elicitationRoundTrip_data()
{
    QTest::addColumn<QByteArray>("answer");
    QTest::addColumn<bool>("approved");
    QTest::newRow("accept true") << QByteArray(R"({"action":"accept","content":{"approve":true}})") << true;
    QTest::newRow("accept false") << QByteArray(R"({"action":"accept","content":{"approve":false}})")
                                  << false;
    QTest::newRow("decline") << QByteArray(R"({"action":"decline"})") << false;
    QTest::newRow("cancel") << QByteArray(R"({"action":"cancel"})") << false;
}

void TestMcpSession::elicitationRoundTrip()
{
    QFETCH(QByteArray, answer);
    QFETCH(bool, approved);
    TestHost host;
    McpSession session(&host, {});
    initialize(session, {{QStringLiteral("elicitation"), QJsonObject()}});
    QVERIFY(session.clientCanElicit());
    QList<std::pair<QJsonObject, QJsonValue>> out;
    connect(&session, &McpSession::outgoing, [&out](const QJsonObject& m, const QJsonValue& related) {
        out.append({m, related});
    });
    session.receive(
        QByteArray(R"({"jsonrpc":"2.0","id":"call-1","method":"tools/call","params":{"name":"ask"}})"));
    QCOMPARE(out.size(), 1);
    const QJsonObject request = out[0].first;
    QCOMPARE(request.value(QStringLiteral("method")).toString(), QStringLiteral("elicitation/create"));
    QCOMPARE(out[0].second.toString(), QStringLiteral("call-1")); // belongs to the tool call
    QCOMPARE(request.value(QStringLiteral("params")).toObject().value(QStringLiteral("message")).toString(),
             QStringLiteral("Allow?"));
    const QJsonValue id = request.value(QStringLiteral("id"));
    session.receive(
        QJsonDocument(QJsonObject{{QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
                                  {QStringLiteral("id"), id},
                                  {QStringLiteral("result"), QJsonDocument::fromJson(answer).object()}})
            .toJson());
    QCOMPARE(out.size(), 2);
    const QJsonObject response = out[1].first;
    QCOMPARE(response.value(QStringLiteral("id")).toString(), QStringLiteral("call-1"));
    QCOMPARE(response.value(QStringLiteral("result")).toObject().value(QStringLiteral("isError")).toBool(),
             !approved);
    QCOMPARE(session.callsInFlight(), 0);
}

void TestMcpSession::noElicitationWithoutCapability()
{
    TestHost host;
    McpSession session(&host, {});
    // 2025-11-25: URL mode only is not form mode.
    initialize(session,
               {{QStringLiteral("elicitation"), QJsonObject{{QStringLiteral("url"), QJsonObject()}}}});
    QVERIFY(!session.clientCanElicit());
    const auto out =
        exchange(session, R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask"}})");
    QCOMPARE(out.size(), 1);
    QCOMPARE(out[0].value(QStringLiteral("result")).toObject().value(QStringLiteral("isError")).toBool(),
             true);
}

void TestMcpSession::cancelledCallGetsNoResponse()
{
    TestHost host;
    McpSession session(&host, {});
    initialize(session);
    QVERIFY(exchange(session, R"({"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"hold"}})")
                .isEmpty());
    QCOMPARE(session.callsInFlight(), 1);
    QVERIFY(
        exchange(session, R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":11}})")
            .isEmpty());
    QCOMPARE(session.callsInFlight(), 0);
    QSignalSpy spy(&session, &McpSession::outgoing);
    host.held(ToolResult::text(QStringLiteral("late")));
    QCOMPARE(spy.count(), 0);
}

void TestMcpSession::cancellationReachesTheHost()
{
    TestHost host;
    McpSession session(&host, {});
    initialize(session);
    QSignalSpy cancelled(&session, &McpSession::callCancelled);
    exchange(session, R"({"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"hold"}})");
    QCOMPARE(host.cancellations, 0);
    // A cancellation of another id, or of no id, changes nothing.
    exchange(session, R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"b"}})");
    exchange(session, R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{}})");
    QCOMPARE(host.cancellations, 0);
    QVERIFY(!host.heldContext->isCancelled());
    QCOMPARE(cancelled.count(), 0);
    exchange(
        session,
        R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a","reason":"no"}})");
    QCOMPARE(host.cancellations, 1);
    QVERIFY(host.heldContext->isCancelled());
    QCOMPARE(cancelled.count(), 1);
    QCOMPARE(cancelled.at(0).at(0).value<QJsonValue>(), QJsonValue(QStringLiteral("a")));
    // Twice: the handler runs once; one registered after the cancellation runs at once.
    exchange(session, R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}})");
    QCOMPARE(host.cancellations, 1);
    int late = 0;
    host.heldContext->onCancelled([&late] { ++late; });
    QCOMPARE(late, 1);
    // The transport going away cancels what still runs.
    exchange(session, R"({"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"hold"}})");
    session.close();
    QCOMPARE(host.cancellations, 2);
}

void TestMcpSession::progressNotifications()
{
    TestHost host;
    McpSession session(&host, {});
    initialize(session);
    // With a progressToken: increasing notifications tied to the request, then the result.
    QList<QPair<QJsonObject, QJsonValue>> out;
    const auto c = connect(&session, &McpSession::outgoing, this,
                           [&out](const QJsonObject& m, const QJsonValue& related) {
                               out.append({m, related});
                           });
    session.receive(QByteArray(
        R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"count","_meta":{"progressToken":"tok"}}})"));
    QVERIFY(host.wantedProgress);
    QCOMPARE(out.size(), 4);
    const QList<std::tuple<double, double, QString>> expected{
        {1, 3, QStringLiteral("one")}, {2, 3, QStringLiteral("two")}, {3, 0, QString()}};
    for (int i = 0; i < 3; ++i) {
        const QJsonObject n = out[i].first;
        QCOMPARE(n.value(QStringLiteral("method")).toString(), QStringLiteral("notifications/progress"));
        QVERIFY(!n.contains(QStringLiteral("id")));
        QCOMPARE(out[i].second, QJsonValue(7));
        const QJsonObject p = n.value(QStringLiteral("params")).toObject();
        QCOMPARE(p.value(QStringLiteral("progressToken")).toString(), QStringLiteral("tok"));
        QCOMPARE(p.value(QStringLiteral("progress")).toDouble(), std::get<0>(expected[i]));
        QCOMPARE(p.contains(QStringLiteral("total")), std::get<1>(expected[i]) > 0);
        if (std::get<1>(expected[i]) > 0)
            QCOMPARE(p.value(QStringLiteral("total")).toDouble(), std::get<1>(expected[i]));
        QCOMPARE(p.value(QStringLiteral("message")).toString(), std::get<2>(expected[i]));
    }
    QCOMPARE(out[3].first.value(QStringLiteral("id")).toInt(), 7);
    QVERIFY(out[3].first.contains(QStringLiteral("result")));
    // An integer token is echoed as an integer.
    out.clear();
    session.receive(QByteArray(
        R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"count","_meta":{"progressToken":42}}})"));
    QCOMPARE(out.size(), 4);
    QCOMPARE(out[0].first.value(QStringLiteral("params")).toObject().value(QStringLiteral("progressToken")),
             QJsonValue(42));
    // Without one (or with one that is not a string or number): only the result.
    for (
        const QByteArray& call :
        {QByteArray(R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"count"}})"),
         QByteArray(
             R"({"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"count","_meta":{"progressToken":{}}}})")}) {
        out.clear();
        session.receive(call);
        QVERIFY(!host.wantedProgress);
        QCOMPARE(out.size(), 1);
        QVERIFY(out[0].first.contains(QStringLiteral("result")));
    }
    disconnect(c);
}

void TestMcpSession::resources()
{
    TestHost host;
    McpSession session(&host, {});
    initialize(session);
    auto out = exchange(session, R"({"jsonrpc":"2.0","id":1,"method":"resources/list"})");
    QCOMPARE(
        out[0].value(QStringLiteral("result")).toObject().value(QStringLiteral("resources")).toArray().size(),
        1);
    out = exchange(
        session,
        R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"ciu://test/readme"}})");
    QCOMPARE(out[0]
                 .value(QStringLiteral("result"))
                 .toObject()
                 .value(QStringLiteral("contents"))
                 .toArray()[0]
                 .toObject()
                 .value(QStringLiteral("text"))
                 .toString(),
             QStringLiteral("hello"));
    out = exchange(
        session, R"({"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"ciu://test/none"}})");
    const QJsonObject error = out[0].value(QStringLiteral("error")).toObject();
    QCOMPARE(error.value(QStringLiteral("code")).toInt(), int(jsonrpc::ResourceNotFound));
    QCOMPARE(error.value(QStringLiteral("data")).toObject().value(QStringLiteral("uri")).toString(),
             QStringLiteral("ciu://test/none"));
}

QTEST_GUILESS_MAIN(TestMcpSession)
#include "tst_mcpsession.moc"
