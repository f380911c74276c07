// HttpTransport's SSE streams: opening one (the answer to a tools/call, or a standalone GET stream), events
// with ids kept until the stream is done, a broken connection resumed by GET with Last-Event-ID, and the
// session's messages routed to the stream of the request they belong to (or to a standalone stream).

#include "core/mcp/httptransport.h"
#include "core/mcp/mcplog.h"

#include <QJsonDocument>
#include <QTcpSocket>

namespace ciu::mcp {
namespace {

QByteArray sseBytes(const QString& streamId, qint64 number, const QByteArray& data)
{
    return "id: " + streamId.toLatin1() + '/' + QByteArray::number(number) +
           "\nevent: message\ndata: " + data + "\n\n";
}

QByteArray sseHead(const QList<QPair<QByteArray, QByteArray>>& headers)
{
    QByteArray head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                      "Connection: close\r\n";
    for (const auto& [name, value] : headers)
        head += name + ": " + value + "\r\n";
    return head + "\r\n";
}

} // namespace

std::shared_ptr<HttpTransport::Stream>
HttpTransport::openSse(Session& session, QTcpSocket* socket,
                       const QList<QPair<QByteArray, QByteArray>>& headers)
{
    auto stream = std::make_shared<Stream>();
    stream->socket = socket;
    stream->sse = true;
    stream->sseId = QString::number(session.nextStreamId++);
    socket->write(sseHead(headers));
    // 2025-11-25: an event id with empty data first, so that the client can resume the stream even if the
    // connection breaks before the first message.
    if (session.session->protocolVersion().compare(QLatin1String("2025-11-25")) >= 0)
        socket->write("id: " + stream->sseId.toLatin1() + "/0\ndata: \n\n");
    return stream;
}

void HttpTransport::sendEvent(Stream& stream, const QJsonObject& message)
{
    const qint64 number = stream.nextEvent++;
    const QByteArray bytes =
        sseBytes(stream.sseId, number, QJsonDocument(message).toJson(QJsonDocument::Compact));
    stream.sent.emplace_back(number, bytes);
    while (qsizetype(stream.sent.size()) > kMaxKeptEvents)
        stream.sent.pop_front();
    if (stream.socket)
        stream.socket->write(bytes);
}

void HttpTransport::watchDisconnect(const QString& sessionId, const std::shared_ptr<Stream>& stream)
{
    QTcpSocket* socket = stream->socket;
    const std::weak_ptr<Stream> weak = stream;
    connect(socket, &QTcpSocket::disconnected, this, [this, sessionId, weak, socket] {
        const auto st = weak.lock();
        if (!st || st->socket != socket)
            return; // done, or resumed on another connection
        st->socket = nullptr;
        const auto s = m_sessions.value(sessionId);
        if (!s)
            return;
        if (st->key.isEmpty()) {
            s->standalone.removeAll(st);
        } else if (s->streams.value(st->key) != st) {
            return; // answered (or cancelled) already
        } else if (!st->sse) {
            s->streams.remove(st->key); // a JSON answer has nowhere to go
        } else {
            qCInfo(lcMcpHttp) << "stream" << st->sseId << "of session" << sessionId
                              << "lost its connection; kept for a resumption (Last-Event-ID)";
        }
    });
}

void HttpTransport::closeStreams(Session& session)
{
    for (const auto& st : std::as_const(session.streams)) {
        if (st->socket)
            st->socket->disconnectFromHost();
    }
    for (const auto& st : std::as_const(session.standalone)) {
        if (st->socket)
            st->socket->disconnectFromHost();
    }
    session.streams.clear();
    session.standalone.clear();
}

void HttpTransport::onGet(QTcpSocket* socket, const HttpRequest& request)
{
    if (!request.header("accept").toLower().contains("text/event-stream")) {
        respondJson(socket, 406,
                    jsonrpc::error(QJsonValue::Null, jsonrpc::InvalidRequest,
                                   QStringLiteral("Accept must list text/event-stream")));
        return;
    }
    const QString sessionId = QString::fromLatin1(request.header("mcp-session-id"));
    if (sessionId.isEmpty()) {
        respondJson(socket, 400,
                    jsonrpc::error(QJsonValue::Null, jsonrpc::InvalidRequest,
                                   QStringLiteral("Bad Request: Mcp-Session-Id header missing")));
        return;
    }
    const auto session = m_sessions.value(sessionId);
    if (!session) {
        respondJson(socket, 404,
                    jsonrpc::error(QJsonValue::Null, jsonrpc::InvalidRequest,
                                   QStringLiteral("Session not found: initialize again")));
        return;
    }
    const QByteArray lastEventId = request.header("last-event-id").trimmed();
    if (lastEventId.isEmpty()) {
        // A standalone stream for messages that belong to no request.
        auto stream = openSse(*session, socket, {});
        session->standalone.append(stream);
        watchDisconnect(sessionId, stream);
        return;
    }
    // A resumption: "STREAM/N" names the stream and the last event the client has.
    const qsizetype slash = lastEventId.indexOf('/');
    bool ok = false;
    const qint64 last = slash > 0 ? lastEventId.mid(slash + 1).toLongLong(&ok) : -1;
    const QString sseId = QString::fromLatin1(lastEventId.left(slash));
    std::shared_ptr<Stream> stream;
    for (const auto& st : std::as_const(session->streams)) {
        if (st->sse && st->sseId == sseId)
            stream = st;
    }
    for (const auto& st : std::as_const(session->standalone)) {
        if (st->sseId == sseId)
            stream = st;
    }
    if (!ok || last < 0 || !stream) {
        respondJson(socket, 404,
                    jsonrpc::error(QJsonValue::Null, jsonrpc::InvalidRequest,
                                   QStringLiteral("Unknown Last-Event-ID %1: no such stream in this session "
                                                  "(it ended, or the id is malformed)")
                                       .arg(QString::fromLatin1(lastEventId))));
        return;
    }
    qCInfo(lcMcpHttp) << "resuming stream" << sseId << "of session" << sessionId << "after event" << last;
    if (QTcpSocket* previous = stream->socket) {
        stream->socket = nullptr; // the client moved on: the old connection ends
        previous->disconnectFromHost();
    }
    socket->write(sseHead({}));
    for (const auto& [number, bytes] : stream->sent) {
        if (number > last)
            socket->write(bytes);
    }
    if (stream->done) {
        // The response was among the events: the stream has delivered everything.
        session->streams.remove(stream->key);
        socket->disconnectFromHost();
        return;
    }
    stream->socket = socket;
    watchDisconnect(sessionId, stream);
}

void HttpTransport::onOutgoing(const QString& sessionId, const QJsonObject& message,
                               const QJsonValue& related)
{
    const auto session = m_sessions.value(sessionId);
    if (!session)
        return;
    if (related.isUndefined() || related.isNull()) {
        // Not tied to a request: on one standalone stream (never broadcast), else nowhere.
        for (const auto& st : std::as_const(session->standalone)) {
            if (st->socket) {
                sendEvent(*st, message);
                return;
            }
        }
        qCInfo(lcMcpHttp) << "no standalone stream open for a message of session" << sessionId << "(dropped)";
        return;
    }
    const QString key = idKey(related);
    const auto stream = session->streams.value(key);
    if (!stream) {
        qCInfo(lcMcpHttp) << "no open stream for a message of session" << sessionId << "(dropped)";
        return;
    }
    // The response to the request ends its stream.
    const bool isResponse =
        !message.contains(QStringLiteral("method")) && idKey(message.value(QStringLiteral("id"))) == key;
    if (stream->sse) {
        sendEvent(*stream, message);
        if (isResponse) {
            stream->done = true;
            if (stream->socket) {
                session->streams.remove(key);
                stream->socket->disconnectFromHost();
            } // else kept until the client resumes the stream and gets it
        }
        return;
    }
    if (!isResponse)
        return; // a JSON response carries only the response
    session->streams.remove(key);
    if (!stream->socket)
        return;
    QList<QPair<QByteArray, QByteArray>> headers;
    const QByteArray sessionHeader = stream->socket->property("ciu_session_header").toByteArray();
    if (!sessionHeader.isEmpty())
        headers.append(qMakePair(QByteArray("Mcp-Session-Id"), sessionHeader));
    respondJson(stream->socket, 200, message, headers);
}

} // namespace ciu::mcp
