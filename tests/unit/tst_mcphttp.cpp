// The Streamable HTTP transport on a real loopback socket: the bearer token (401 without it), the session id
// handed out by initialize (400 without it, 404 for an unknown one), JSON answers for requests, 202 for
// notifications, an SSE stream for tools/call that carries an elicitation or progress and then the result
// (none once cancelled), a standalone GET stream and the resumption of a broken stream by Last-Event-ID,
// DELETE ending the session, a non-loopback Origin refused, malformed bodies answered with JSON-RPC codes,
// and the token file readable only by the user.

#include "core/mcp/httptransport.h"
#include "core/mcp/jsonrpc.h"
#include "mcptesthost.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace ciu::mcp;
using ciu::mcp::test::TestHost;

namespace {

QPair<QByteArray, QByteArray> h(const char* name, const QByteArray& value)
{
    return qMakePair(QByteArray(name), value);
}

struct Reply
{
    int status = 0;
    QMap<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
    // The data lines of an SSE body, as JSON (a priming event's empty data is none).
    QList<QJsonObject> events() const
    {
        QList<QJsonObject> list;
        for (const QByteArray& line : body.split('\n')) {
            if (line.startsWith("data: ") && !line.mid(6).trimmed().isEmpty())
                list.append(QJsonDocument::fromJson(line.mid(6)).object());
        }
        return list;
    }
};

} // namespace

class TestMcpHttp : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void needsToken();
    void refusesForeignOrigin();
    void sessionLifecycle();
    void malformedBodies();
    void toolCallStreamsElicitation();
    void progressAndCancellationOnTheStream();
    void getStreamAndResumption();
    void onlyLoopback();
    void tokenFileIsPrivate();

private:
    // Sends a raw request; reads until the server closes the connection.
    Reply send(const QByteArray& method, const QByteArray& body, QList<QPair<QByteArray, QByteArray>> headers,
               bool withToken = true, const QByteArray& path = "/mcp");
    // Opens a request whose reply is read later (an SSE stream).
    std::unique_ptr<QTcpSocket> open(const QByteArray& body,
                                     const QList<QPair<QByteArray, QByteArray>>& headers);
    // Opens a GET stream (with Last-Event-ID when given).
    std::unique_ptr<QTcpSocket> openGet(const QByteArray& sessionId, const QByteArray& lastEventId);
    static Reply parse(const QByteArray& raw);
    // The ids of the SSE events in a body, in order.
    static QList<QByteArray> eventIds(const QByteArray& body);
    QByteArray initialize(const QJsonObject& capabilities = {});

    TestHost m_host;
    std::unique_ptr<HttpTransport> m_http;
    QString m_token;
};

void TestMcpHttp::init()
{
    m_token = HttpTransport::generateToken();
    QCOMPARE(m_token.size(), 43);
    m_http = std::make_unique<HttpTransport>(
        [this] { return std::make_unique<McpSession>(&m_host, McpSession::ServerInfo{}); }, m_token);
    QString error;
    QVERIFY2(m_http->listen(QHostAddress::LocalHost, 0, &error), qPrintable(error));
}

void TestMcpHttp::cleanup()
{
    m_http.reset();
}

Reply TestMcpHttp::parse(const QByteArray& raw)
{
    Reply r;
    const qsizetype end = raw.indexOf("\r\n\r\n");
    const QList<QByteArray> lines = raw.left(end).split('\n');
    r.status = lines.value(0).split(' ').value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            r.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
    }
    r.body = end < 0 ? QByteArray() : raw.mid(end + 4);
    return r;
}

std::unique_ptr<QTcpSocket> TestMcpHttp::open(const QByteArray& body,
                                              const QList<QPair<QByteArray, QByteArray>>& headers)
{
    auto socket = std::make_unique<QTcpSocket>();
    socket->connectToHost(QHostAddress::LocalHost, m_http->serverPort());
    QByteArray request = "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                         "Accept: application/json, text/event-stream\r\nAuthorization: Bearer " +
                         m_token.toLatin1() + "\r\nContent-Length: " + QByteArray::number(body.size()) +
                         "\r\n";
    for (const auto& [name, value] : headers)
        request += name + ": " + value + "\r\n";
    socket->write(request + "\r\n" + body);
    return socket;
}

std::unique_ptr<QTcpSocket> TestMcpHttp::openGet(const QByteArray& sessionId, const QByteArray& lastEventId)
{
    auto socket = std::make_unique<QTcpSocket>();
    socket->connectToHost(QHostAddress::LocalHost, m_http->serverPort());
    QByteArray request = "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                         "Authorization: Bearer " +
                         m_token.toLatin1() + "\r\nMcp-Session-Id: " + sessionId + "\r\n";
    if (!lastEventId.isEmpty())
        request += "Last-Event-ID: " + lastEventId + "\r\n";
    socket->write(request + "\r\n");
    return socket;
}

QList<QByteArray> TestMcpHttp::eventIds(const QByteArray& body)
{
    QList<QByteArray> ids;
    for (const QByteArray& line : body.split('\n')) {
        if (line.startsWith("id: "))
            ids.append(line.mid(4));
    }
    return ids;
}

Reply TestMcpHttp::send(const QByteArray& method, const QByteArray& body,
                        QList<QPair<QByteArray, QByteArray>> headers, bool withToken, const QByteArray& path)
{
    QTcpSocket socket;
    socket.connectToHost(QHostAddress::LocalHost, m_http->serverPort());
    QByteArray request = method + ' ' + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n";
    if (withToken)
        headers.append(h("Authorization", "Bearer " + m_token.toLatin1()));
    if (!body.isEmpty() || method == "POST")
        request += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    for (const auto& [name, value] : headers)
        request += name + ": " + value + "\r\n";
    socket.write(request + "\r\n" + body);
    QByteArray raw;
    [&] {
        QTRY_VERIFY_WITH_TIMEOUT(
            (raw += socket.readAll(), socket.state() == QAbstractSocket::UnconnectedState), 10000);
    }();
    raw += socket.readAll();
    return parse(raw);
}

QByteArray TestMcpHttp::initialize(const QJsonObject& capabilities)
{
    const QJsonObject init =
        jsonrpc::request(1, QStringLiteral("initialize"),
                         {{QStringLiteral("protocolVersion"), QStringLiteral("2025-11-25")},
                          {QStringLiteral("capabilities"), capabilities},
                          {QStringLiteral("clientInfo"), QJsonObject()}});
    const Reply r =
        send("POST", QJsonDocument(init).toJson(QJsonDocument::Compact),
             {{"Content-Type", "application/json"}, {"Accept", "application/json, text/event-stream"}});
    if (r.status != 200)
        return {};
    return r.headers.value("mcp-session-id");
}

void TestMcpHttp::needsToken()
{
    const QByteArray ping = R"({"jsonrpc":"2.0","id":1,"method":"ping"})";
    const QList<QPair<QByteArray, QByteArray>> json{{"Content-Type", "application/json"},
                                                    {"Accept", "application/json, text/event-stream"}};
    Reply r = send("POST", ping, json, false);
    QCOMPARE(r.status, 401);
    QVERIFY(r.headers.value("www-authenticate").startsWith("Bearer"));
    auto wrong = json;
    wrong.append(h("Authorization", "Bearer not-the-token"));
    r = send("POST", ping, wrong, false);
    QCOMPARE(r.status, 401);
    QCOMPARE(m_http->sessionCount(), 0);
    r = send("POST", ping, json, true, "/elsewhere");
    QCOMPARE(r.status, 404);
}

void TestMcpHttp::refusesForeignOrigin()
{
    Reply r = send("POST", R"({"jsonrpc":"2.0","id":1,"method":"ping"})",
                   {{"Content-Type", "application/json"},
                    {"Accept", "application/json, text/event-stream"},
                    {"Origin", "http://evil.example"}});
    QCOMPARE(r.status, 403);
    QVERIFY(!initialize().isEmpty()); // and without an Origin it works
}

void TestMcpHttp::sessionLifecycle()
{
    const QByteArray sessionId = initialize();
    QVERIFY(!sessionId.isEmpty());
    QCOMPARE(m_http->sessionCount(), 1);
    const QList<QPair<QByteArray, QByteArray>> base{{"Content-Type", "application/json"},
                                                    {"Accept", "application/json, text/event-stream"}};
    auto with = base;
    with.append(h("Mcp-Session-Id", sessionId));
    with.append(h("MCP-Protocol-Version", "2025-11-25"));
    // A notification: 202, no body.
    Reply r = send("POST", R"({"jsonrpc":"2.0","method":"notifications/initialized"})", with);
    QCOMPARE(r.status, 202);
    QVERIFY(r.body.isEmpty());
    // A request: a JSON answer.
    r = send("POST", R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})", with);
    QCOMPARE(r.status, 200);
    QCOMPARE(r.headers.value("content-type"), QByteArray("application/json"));
    QCOMPARE(
        r.json().value(QStringLiteral("result")).toObject().value(QStringLiteral("tools")).toArray().size(),
        4);
    // Without the session id: 400; an unknown one: 404; an unsupported protocol version header: 400.
    r = send("POST", R"({"jsonrpc":"2.0","id":3,"method":"tools/list"})", base);
    QCOMPARE(r.status, 400);
    auto unknown = base;
    unknown.append(h("Mcp-Session-Id", "no-such-session"));
    r = send("POST", R"({"jsonrpc":"2.0","id":4,"method":"tools/list"})", unknown);
    QCOMPARE(r.status, 404);
    auto badVersion = base;
    badVersion.append(h("Mcp-Session-Id", sessionId));
    badVersion.append(h("MCP-Protocol-Version", "1999-01-01"));
    r = send("POST", R"({"jsonrpc":"2.0","id":5,"method":"tools/list"})", badVersion);
    QCOMPARE(r.status, 400);
    // Methods other than GET, POST and DELETE: 405.
    r = send("PUT", {}, {{"Mcp-Session-Id", sessionId}});
    QCOMPARE(r.status, 405);
    QCOMPARE(r.headers.value("allow"), QByteArray("GET, POST, DELETE"));
    // DELETE ends the session.
    r = send("DELETE", {}, {{"Mcp-Session-Id", sessionId}});
    QCOMPARE(r.status, 204);
    QCOMPARE(m_http->sessionCount(), 0);
    r = send("POST", R"({"jsonrpc":"2.0","id":6,"method":"tools/list"})", with);
    QCOMPARE(r.status, 404);
}

void TestMcpHttp::malformedBodies()
{
    const QByteArray sessionId = initialize();
    const QList<QPair<QByteArray, QByteArray>> with{{"Content-Type", "application/json"},
                                                    {"Accept", "application/json, text/event-stream"},
                                                    {"Mcp-Session-Id", sessionId}};
    Reply r = send("POST", "{not json", with);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
             int(jsonrpc::ParseError));
    r = send("POST", R"({"jsonrpc":"2.0","id":1})", with);
    QCOMPARE(r.status, 400);
    QCOMPARE(r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
             int(jsonrpc::InvalidRequest));
    // A method the server does not have: a JSON-RPC error in a 200 answer.
    r = send("POST", R"({"jsonrpc":"2.0","id":2,"method":"nope"})", with);
    QCOMPARE(r.status, 200);
    QCOMPARE(r.json().value(QStringLiteral("error")).toObject().value(QStringLiteral("code")).toInt(),
             int(jsonrpc::MethodNotFound));
    // Wrong media types.
    r = send("POST", R"({"jsonrpc":"2.0","id":3,"method":"ping"})",
             {{"Content-Type", "text/plain"},
              {"Accept", "application/json, text/event-stream"},
              {"Mcp-Session-Id", sessionId}});
    QCOMPARE(r.status, 415);
    r = send("POST", R"({"jsonrpc":"2.0","id":4,"method":"ping"})",
             {{"Content-Type", "application/json"}, {"Accept", "text/html"}, {"Mcp-Session-Id", sessionId}});
    QCOMPARE(r.status, 406);
}

void TestMcpHttp::toolCallStreamsElicitation()
{
    const QByteArray sessionId = initialize({{QStringLiteral("elicitation"), QJsonObject()}});
    QVERIFY(!sessionId.isEmpty());
    auto stream = open(R"({"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"ask"}})",
                       {{"Mcp-Session-Id", sessionId}});
    QByteArray raw;
    // The elicitation arrives on the tool call's stream.
    QTRY_VERIFY_WITH_TIMEOUT((raw += stream->readAll(), raw.contains("elicitation/create")), 10000);
    Reply partial = parse(raw);
    QCOMPARE(partial.status, 200);
    QCOMPARE(partial.headers.value("content-type"), QByteArray("text/event-stream"));
    const QList<QJsonObject> events = partial.events();
    QCOMPARE(events.size(), 1);
    const QJsonValue elicitationId = events[0].value(QStringLiteral("id"));
    // The client answers with a POST of its own: 202.
    const QJsonObject answer{
        {QStringLiteral("jsonrpc"), QStringLiteral("2.0")},
        {QStringLiteral("id"), elicitationId},
        {QStringLiteral("result"),
         QJsonObject{{QStringLiteral("action"), QStringLiteral("accept")},
                     {QStringLiteral("content"), QJsonObject{{QStringLiteral("approve"), true}}}}}};
    const Reply accepted = send("POST", QJsonDocument(answer).toJson(QJsonDocument::Compact),
                                {{"Content-Type", "application/json"},
                                 {"Accept", "application/json, text/event-stream"},
                                 {"Mcp-Session-Id", sessionId}});
    QCOMPARE(accepted.status, 202);
    // Then the result ends the stream.
    QTRY_VERIFY_WITH_TIMEOUT((raw += stream->readAll(), stream->state() == QAbstractSocket::UnconnectedState),
                             10000);
    raw += stream->readAll();
    const QList<QJsonObject> all = parse(raw).events();
    QCOMPARE(all.size(), 2);
    QCOMPARE(all[1].value(QStringLiteral("id")).toString(), QStringLiteral("c1"));
    const QJsonObject result = all[1].value(QStringLiteral("result")).toObject();
    QCOMPARE(result.value(QStringLiteral("isError")).toBool(true), false);
    QCOMPARE(result.value(QStringLiteral("content"))
                 .toArray()[0]
                 .toObject()
                 .value(QStringLiteral("text"))
                 .toString(),
             QStringLiteral("approved"));
}

void TestMcpHttp::progressAndCancellationOnTheStream()
{
    const QByteArray sessionId = initialize();
    QVERIFY(!sessionId.isEmpty());
    // Progress notifications travel on the tool call's own stream, before its result.
    auto stream = open(
        R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"count","_meta":{"progressToken":"p"}}})",
        {{"Mcp-Session-Id", sessionId}});
    QByteArray raw;
    QTRY_VERIFY_WITH_TIMEOUT((raw += stream->readAll(), stream->state() == QAbstractSocket::UnconnectedState),
                             10000);
    raw += stream->readAll();
    const QList<QJsonObject> events = parse(raw).events();
    QCOMPARE(events.size(), 4);
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(events[i].value(QStringLiteral("method")).toString(),
                 QStringLiteral("notifications/progress"));
        QCOMPARE(
            events[i].value(QStringLiteral("params")).toObject().value(QStringLiteral("progress")).toDouble(),
            double(i + 1));
    }
    QCOMPARE(events[3].value(QStringLiteral("id")).toInt(), 5);

    // A cancelled call: the host is told, and the stream ends without a result.
    stream = open(R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"hold"}})",
                  {{"Mcp-Session-Id", sessionId}});
    raw.clear();
    QTRY_VERIFY_WITH_TIMEOUT((raw += stream->readAll(), raw.contains("text/event-stream")), 10000);
    QTRY_VERIFY_WITH_TIMEOUT(m_host.heldContext != nullptr, 10000);
    QCOMPARE(m_host.cancellations, 0);
    const Reply cancel =
        send("POST", R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}})",
             {{"Content-Type", "application/json"},
              {"Accept", "application/json, text/event-stream"},
              {"Mcp-Session-Id", sessionId}});
    QCOMPARE(cancel.status, 202);
    QCOMPARE(m_host.cancellations, 1);
    QTRY_VERIFY_WITH_TIMEOUT((raw += stream->readAll(), stream->state() == QAbstractSocket::UnconnectedState),
                             10000);
    raw += stream->readAll();
    QCOMPARE(parse(raw).events().size(), 0);
    m_host.held(ToolResult::text(QStringLiteral("late"))); // goes nowhere
}

void TestMcpHttp::getStreamAndResumption()
{
    const QByteArray sessionId = initialize(); // 2025-11-25: streams begin with a priming event
    QVERIFY(!sessionId.isEmpty());
    // GET needs text/event-stream in Accept, and a known session.
    Reply r = send("GET", {}, {{"Accept", "application/json"}, {"Mcp-Session-Id", sessionId}});
    QCOMPARE(r.status, 406);
    r = send("GET", {}, {{"Accept", "text/event-stream"}});
    QCOMPARE(r.status, 400);
    r = send("GET", {}, {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", "no-such-session"}});
    QCOMPARE(r.status, 404);

    // A standalone stream: SSE, opened by a priming event (an id, empty data), and kept open.
    auto standalone = openGet(sessionId, {});
    QByteArray raw;
    QTRY_VERIFY_WITH_TIMEOUT((raw += standalone->readAll(), raw.contains("data: \n\n")), 10000);
    Reply reply = parse(raw);
    QCOMPARE(reply.status, 200);
    QCOMPARE(reply.headers.value("content-type"), QByteArray("text/event-stream"));
    QCOMPARE(eventIds(reply.body).size(), 1);
    QCOMPARE(reply.events().size(), 0);
    QCOMPARE(standalone->state(), QAbstractSocket::ConnectedState);

    // A tool call's stream: priming event, then a progress event; then its connection breaks.
    m_host.heldContext.reset();
    auto call = open(
        R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"hold","_meta":{"progressToken":"t"}}})",
        {{"Mcp-Session-Id", sessionId}});
    QTRY_VERIFY_WITH_TIMEOUT(m_host.heldContext != nullptr, 10000);
    m_host.heldContext->progress(1, 0, QStringLiteral("first"));
    raw.clear();
    QTRY_VERIFY_WITH_TIMEOUT((raw += call->readAll(), raw.contains("first")), 10000);
    const QList<QByteArray> ids = eventIds(parse(raw).body);
    QCOMPARE(ids.size(), 2);
    QVERIFY(ids[0].endsWith("/0"));
    QVERIFY(ids[1].endsWith("/1"));
    QVERIFY(ids[0] != eventIds(reply.body).constFirst()); // another stream than the standalone one
    call->abort();
    // Sent while the client is away: kept for the resumption.
    m_host.heldContext->progress(2, 0, QStringLiteral("second"));

    // GET with Last-Event-ID: the events after it, then the result, and the stream ends.
    auto resumed = openGet(sessionId, ids[1]);
    raw.clear();
    QTRY_VERIFY_WITH_TIMEOUT((raw += resumed->readAll(), raw.contains("second")), 10000);
    m_host.held(ToolResult::text(QStringLiteral("held result")));
    QTRY_VERIFY_WITH_TIMEOUT(
        (raw += resumed->readAll(), resumed->state() == QAbstractSocket::UnconnectedState), 10000);
    raw += resumed->readAll();
    reply = parse(raw);
    QCOMPARE(reply.status, 200);
    const QList<QJsonObject> events = reply.events();
    QCOMPARE(events.size(), 2);
    QCOMPARE(events[0].value(QStringLiteral("params")).toObject().value(QStringLiteral("message")).toString(),
             QStringLiteral("second"));
    QCOMPARE(events[1].value(QStringLiteral("id")).toInt(), 9);
    QCOMPARE(events[1]
                 .value(QStringLiteral("result"))
                 .toObject()
                 .value(QStringLiteral("content"))
                 .toArray()[0]
                 .toObject()
                 .value(QStringLiteral("text"))
                 .toString(),
             QStringLiteral("held result"));
    QVERIFY(!raw.contains("first"));

    // That stream is done; an id of no stream, or a malformed one: 404.
    for (const QByteArray& id : {ids[1], QByteArray("999/1"), QByteArray("garbage")}) {
        r = send("GET", {},
                 {{"Accept", "text/event-stream"}, {"Mcp-Session-Id", sessionId}, {"Last-Event-ID", id}});
        QCOMPARE(r.status, 404);
    }
    // DELETE ends the session and its standalone stream.
    r = send("DELETE", {}, {{"Mcp-Session-Id", sessionId}});
    QCOMPARE(r.status, 204);
    QTRY_COMPARE_WITH_TIMEOUT(standalone->state(), QAbstractSocket::UnconnectedState, 10000);
}

void TestMcpHttp::onlyLoopback()
{
    HttpTransport other([this] { return std::make_unique<McpSession>(&m_host, McpSession::ServerInfo{}); },
                        QStringLiteral("t"));
    QString error;
    QVERIFY(!other.listen(QHostAddress::AnyIPv4, 0, &error));
    QVERIFY(error.contains(QStringLiteral("loopback")));
}

void TestMcpHttp::tokenFileIsPrivate()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/mcp-token"));
    QString error;
    QVERIFY2(HttpTransport::writeTokenFile(path, m_token, &error), qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll().trimmed(), m_token.toLatin1());
    struct stat st
    {
    };
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
    QCOMPARE(int(st.st_mode & 0777), 0600);
    // An existing file with wider permissions is narrowed.
    QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther));
    QVERIFY(HttpTransport::writeTokenFile(path, m_token, &error));
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &st), 0);
    QCOMPARE(int(st.st_mode & 0777), 0600);
}

QTEST_GUILESS_MAIN(TestMcpHttp)
#include "tst_mcphttp.moc"
