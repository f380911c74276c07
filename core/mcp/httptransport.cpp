#include "core/mcp/httptransport.h"

#include "core/mcp/mcplog.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTcpSocket>
#include <QUrl>
#include <QUuid>

#include <array>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ciu::mcp {
namespace {

QByteArray reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 202:
        return "Accepted";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 406:
        return "Not Acceptable";
    case 411:
        return "Length Required";
    case 413:
        return "Payload Too Large";
    case 415:
        return "Unsupported Media Type";
    case 431:
        return "Request Header Fields Too Large";
    default:
        return "Error";
    }
}

} // namespace

HttpTransport::HttpTransport(SessionFactory factory, QString token, QObject* parent)
    : QObject(parent)
    , m_factory(std::move(factory))
    , m_token(std::move(token))
{
    connect(&m_server, &QTcpServer::newConnection, this, &HttpTransport::onNewConnection);
}

HttpTransport::~HttpTransport()
{
    for (const auto& s : std::as_const(m_sessions)) {
        s->session->close();
        closeStreams(*s);
    }
}

bool HttpTransport::listen(const QHostAddress& address, quint16 port, QString* error)
{
    if (!address.isLoopback()) {
        *error = QStringLiteral("the MCP HTTP server listens on a loopback address only (127.0.0.1 or ::1), "
                                "not %1")
                     .arg(address.toString());
        return false;
    }
    if (!m_server.listen(address, port)) {
        *error = QStringLiteral("cannot listen on %1:%2: %3")
                     .arg(address.toString())
                     .arg(port)
                     .arg(m_server.errorString());
        return false;
    }
    return true;
}

QString HttpTransport::generateToken()
{
    std::array<quint32, 8> words{};
    QRandomGenerator::system()->fillRange(words.data(), words.size());
    const QByteArray raw(reinterpret_cast<const char*>(words.data()), qsizetype(sizeof words));
    return QString::fromLatin1(raw.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool HttpTransport::writeTokenFile(const QString& path, const QString& token, QString* error)
{
    const QString dir = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(dir)) {
        *error = QStringLiteral("cannot create %1").arg(dir);
        return false;
    }
    // Created 0600 from the start (no moment where another user could read it), and fixed if it existed.
    const QByteArray local = QFile::encodeName(path);
    const int fd = ::open(local.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        *error = QStringLiteral("cannot write %1: %2").arg(path, qt_error_string(errno));
        return false;
    }
    bool ok = ::fchmod(fd, 0600) == 0;
    const QByteArray bytes = token.toLatin1() + '\n';
    ok = ok && ::write(fd, bytes.constData(), size_t(bytes.size())) == ssize_t(bytes.size());
    ok = (::close(fd) == 0) && ok;
    if (!ok)
        *error = QStringLiteral("cannot write %1: %2").arg(path, qt_error_string(errno));
    return ok;
}

void HttpTransport::onNewConnection()
{
    while (QTcpSocket* socket = m_server.nextPendingConnection()) {
        auto parser = std::make_shared<HttpRequestParser>();
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket, parser] {
            if (socket->property("ciu_handled").toBool()) {
                socket->readAll(); // one request per connection
                return;
            }
            switch (parser->feed(socket->readAll())) {
            case HttpRequestParser::State::NeedMore:
                return;
            case HttpRequestParser::State::Failed:
                socket->setProperty("ciu_handled", true);
                respondJson(socket, parser->errorStatus(),
                            jsonrpc::error(QJsonValue::Null, jsonrpc::InvalidRequest, parser->errorString()));
                return;
            case HttpRequestParser::State::Complete:
                socket->setProperty("ciu_handled", true);
                onRequest(socket, parser->request());
                return;
            }
        });
    }
}

void HttpTransport::respond(QTcpSocket* socket, int status, const QByteArray& body,
                            const QList<QPair<QByteArray, QByteArray>>& headers)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + reason(status) + "\r\n";
    for (const auto& [name, value] : headers)
        head += name + ": " + value + "\r\n";
    head += "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n";
    socket->write(head + body);
    socket->disconnectFromHost();
}

void HttpTransport::respondJson(QTcpSocket* socket, int status, const QJsonObject& body,
                                const QList<QPair<QByteArray, QByteArray>>& headers)
{
    auto all = headers;
    all.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    respond(socket, status, QJsonDocument(body).toJson(QJsonDocument::Compact), all);
}

bool HttpTransport::originAllowed(const QByteArray& origin)
{
    if (origin.isEmpty())
        return true; // not a browser
    const QUrl url(QString::fromLatin1(origin));
    const QString host = url.host();
    return host == QLatin1String("localhost") || host == QLatin1String("127.0.0.1") ||
           host == QLatin1String("::1");
}

bool HttpTransport::authorized(const HttpRequest& request) const
{
    const QByteArray header = request.header("authorization");
    if (!header.startsWith("Bearer ") && !header.startsWith("bearer "))
        return false;
    const QByteArray given = header.mid(7).trimmed();
    const QByteArray expected = m_token.toLatin1();
    // Compare in constant time.
    if (given.size() != expected.size())
        return false;
    int diff = 0;
    for (qsizetype i = 0; i < given.size(); ++i)
        diff |= given[i] ^ expected[i];
    return diff == 0;
}

QString HttpTransport::idKey(const QJsonValue& id)
{
    return id.isString() ? QStringLiteral("s:") + id.toString()
                         : QStringLiteral("n:") + QString::number(id.toInteger());
}

void HttpTransport::onRequest(QTcpSocket* socket, const HttpRequest& request)
{
    qCDebug(lcMcpHttp) << request.method << request.path;
    if (request.path != "/mcp") {
        respondJson(socket, 404,
                    jsonrpc::error(QJsonValue::Null, jsonrpc::InvalidRequest,
                                   QStringLiteral("Not found: the MCP endpoint is /mcp")));
        return;
    }
    if (!originAllowed(request.header("origin"))) {
        respondJson(socket, 403,
                    jsonrpc::error(QJsonValue::Null, jsonrpc::InvalidRequest,
                                   QStringLiteral("Forbidden: requests from other origins")));
        return;
    }
    if (!authorized(request)) {
        qCInfo(lcMcpHttp) << "refused a request without the bearer token";
        respondJson(
            socket, 401,
            jsonrpc::error(QJsonValue::Null, jsonrpc::InvalidRequest,
                           QStringLiteral("Unauthorized: send \"Authorization: Bearer TOKEN\" with the "
                                          "token from the file ciu-agent mcp printed")),
            {{"WWW-Authenticate", "Bearer realm=\"ciu-agent\""}});
        return;
    }
    const QByteArray version = request.header("mcp-protocol-version");
    if (!version.isEmpty() &&
        !McpSession::supportedProtocolVersions().contains(QString::fromLatin1(version))) {
        respondJson(
            socket, 400,
            jsonrpc::error(
                QJsonValue::Null, jsonrpc::InvalidRequest,
                QStringLiteral("Unsupported MCP-Protocol-Version: %1").arg(QString::fromLatin1(version))));
        return;
    }
    if (request.method == "POST") {
        onPost(socket, request);
    } else if (request.method == "DELETE") {
        const QString id = QString::fromLatin1(request.header("mcp-session-id"));
        const auto s = m_sessions.take(id);
        if (!s) {
            respondJson(
                socket, 404,
                jsonrpc::error(QJsonValue::Null, jsonrpc::InvalidRequest, QStringLiteral("Unknown session")));
            return;
        }
        s->session->close();
        closeStreams(*s);
        respond(socket, 204, {});
    } else if (request.method == "GET") {
        onGet(socket, request);
    } else {
        respond(socket, 405, {}, {{"Allow", "GET, POST, DELETE"}});
    }
}

void HttpTransport::onPost(QTcpSocket* socket, const HttpRequest& request)
{
    if (!request.header("content-type").toLower().contains("application/json")) {
        respondJson(socket, 415,
                    jsonrpc::error(QJsonValue::Null, jsonrpc::InvalidRequest,
                                   QStringLiteral("Content-Type must be application/json")));
        return;
    }
    const QByteArray accept = request.header("accept").toLower();
    if (!(accept.contains("application/json") || accept.contains("*/*")) ||
        !(accept.contains("text/event-stream") || accept.contains("*/*"))) {
        respondJson(
            socket, 406,
            jsonrpc::error(QJsonValue::Null, jsonrpc::InvalidRequest,
                           QStringLiteral("Accept must list application/json and text/event-stream")));
        return;
    }
    const auto parsed = jsonrpc::parse(request.body);
    if (parsed.errorReply) {
        respondJson(socket, 400, *parsed.errorReply);
        return;
    }
    const jsonrpc::Message& m = *parsed.message;
    QString sessionId = QString::fromLatin1(request.header("mcp-session-id"));
    std::shared_ptr<Session> session;
    QList<QPair<QByteArray, QByteArray>> extra;
    if (m.isRequest() && m.method == QLatin1String("initialize")) {
        sessionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
        session = std::make_shared<Session>();
        session->session = m_factory();
        m_sessions.insert(sessionId, session);
        connect(session->session.get(), &McpSession::outgoing, this,
                [this, sessionId](const QJsonObject& message, const QJsonValue& related) {
                    onOutgoing(sessionId, message, related);
                });
        connect(session->session.get(), &McpSession::callCancelled, this,
                [this, sessionId](const QJsonValue& requestId) {
                    // No response will come: the request's SSE stream ends here.
                    const auto s = m_sessions.value(sessionId);
                    if (!s)
                        return;
                    const auto stream = s->streams.take(idKey(requestId));
                    if (stream && stream->socket)
                        stream->socket->disconnectFromHost();
                });
        extra.append(qMakePair(QByteArray("Mcp-Session-Id"), sessionId.toLatin1()));
        qCInfo(lcMcpHttp) << "new session" << sessionId;
    } else {
        if (sessionId.isEmpty()) {
            respondJson(socket, 400,
                        jsonrpc::error(m.isRequest() ? m.id : QJsonValue(QJsonValue::Null),
                                       jsonrpc::InvalidRequest,
                                       QStringLiteral("Bad Request: Mcp-Session-Id header missing")));
            return;
        }
        session = m_sessions.value(sessionId);
        if (!session) {
            respondJson(socket, 404,
                        jsonrpc::error(m.isRequest() ? m.id : QJsonValue(QJsonValue::Null),
                                       jsonrpc::InvalidRequest,
                                       QStringLiteral("Session not found: initialize again")));
            return;
        }
    }
    if (!m.isRequest()) {
        respond(socket, 202, {});
        session->session->receive(request.body);
        return;
    }
    const QString key = idKey(m.id);
    std::shared_ptr<Stream> stream;
    if (m.method == QLatin1String("tools/call")) {
        stream = openSse(*session, socket, extra);
        stream->key = key;
    } else {
        stream = std::make_shared<Stream>();
        stream->socket = socket;
        stream->key = key;
        socket->setProperty("ciu_session_header", extra.isEmpty() ? QByteArray() : extra.constFirst().second);
    }
    session->streams.insert(key, stream);
    watchDisconnect(sessionId, stream);
    session->session->receive(request.body);
    // A refused initialize (no protocol version...) leaves no session behind.
    if (m.method == QLatin1String("initialize") && !session->session->initializeReceived() &&
        m_sessions.value(sessionId) == session && !extra.isEmpty())
        m_sessions.remove(sessionId);
}

} // namespace ciu::mcp
