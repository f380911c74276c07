#pragma once

// The Streamable HTTP transport of MCP (2025-06-18 / 2025-11-25 "basic/transports") on a loopback QTcpServer:
// one endpoint, /mcp. POST carries one JSON-RPC message: a notification or a response is answered 202; a
// request is answered with application/json, except tools/call, whose answer is an SSE stream so that an
// elicitation or progress can reach the client while the tool runs. GET opens a standalone SSE stream for
// messages not tied to a request, or, with Last-Event-ID, resumes a stream whose connection broke: the events
// after that id are sent again and the stream goes on (httpstreams.cpp). Every SSE event has an id
// "STREAM/N"; a 2025-11-25 client gets a priming event (an id and empty data) first. DELETE ends a session.
// Every request needs "Authorization: Bearer TOKEN"; the session id is handed out in the Mcp-Session-Id
// header of the initialize response; browsers' cross-site requests (a non-loopback Origin) are refused.

#include "core/mcp/mcpsession.h"

#include <QHash>
#include <QHostAddress>
#include <QMap>
#include <QObject>
#include <QPointer>
#include <QTcpServer>

#include <deque>
#include <functional>
#include <memory>

class QTcpSocket;

namespace ciu::mcp {

// One parsed HTTP/1.1 request (httprequest.cpp).
struct HttpRequest
{
    QByteArray method;
    QByteArray path;                      // without the query
    QMap<QByteArray, QByteArray> headers; // names in lower case
    QByteArray body;
    QByteArray header(const char* name) const { return headers.value(QByteArray(name)); }
};

// Reads a request from the bytes of a connection as they arrive.
class HttpRequestParser
{
public:
    enum class State : quint8
    {
        NeedMore = 1,
        Complete,
        Failed,
    };
    static constexpr qsizetype kMaxHeaderBytes = 64 * 1024;
    static constexpr qsizetype kMaxBodyBytes = 16 * 1024 * 1024;

    State feed(const QByteArray& bytes);
    const HttpRequest& request() const { return m_request; }
    int errorStatus() const { return m_errorStatus; } // Failed: the HTTP status to answer
    QString errorString() const { return m_error; }

private:
    State fail(int status, const QString& message);
    QByteArray m_buffer;
    HttpRequest m_request;
    bool m_haveHeaders = false;
    qsizetype m_contentLength = 0;
    int m_errorStatus = 400;
    QString m_error;
};

class HttpTransport final : public QObject
{
    Q_OBJECT
public:
    using SessionFactory = std::function<std::unique_ptr<McpSession>()>;

    HttpTransport(SessionFactory factory, QString token, QObject* parent = nullptr);
    ~HttpTransport() override;

    // Listens on a loopback address (anything else is refused); port 0 picks a free one.
    bool listen(const QHostAddress& address, quint16 port, QString* error);
    quint16 serverPort() const { return m_server.serverPort(); }
    QHostAddress serverAddress() const { return m_server.serverAddress(); }
    int sessionCount() const { return int(m_sessions.size()); }

    // A fresh random bearer token (43 characters of base64url).
    static QString generateToken();
    // Writes `token` to `path` readable only by the user (0600; the folder is created 0700).
    static bool writeTokenFile(const QString& path, const QString& token, QString* error);

    // Events kept per SSE stream for a resumption (the oldest are dropped beyond this).
    static constexpr qsizetype kMaxKeptEvents = 256;

private:
    // An answer in progress: a JSON response to come, or an SSE stream (with the events sent on it, kept
    // until the stream is done so that a broken connection can be resumed).
    struct Stream
    {
        QPointer<QTcpSocket> socket; // null while the client is away (an SSE stream to resume)
        bool sse = false;
        QString key;   // the request it answers (idKey); empty: a standalone GET stream
        QString sseId; // the stream's part of the event ids
        qint64 nextEvent = 1;
        std::deque<std::pair<qint64, QByteArray>> sent; // event number, event bytes
        bool done = false; // the response was sent (an SSE stream waits for its resumption to deliver it)
    };
    struct Session
    {
        std::unique_ptr<McpSession> session;
        QHash<QString, std::shared_ptr<Stream>> streams; // answers to requests, by the request id they answer
        QList<std::shared_ptr<Stream>> standalone;       // GET streams (messages not tied to a request)
        qint64 nextStreamId = 1;
    };

    void onNewConnection();
    void onRequest(QTcpSocket* socket, const HttpRequest& request);
    void onPost(QTcpSocket* socket, const HttpRequest& request);
    // httpstreams.cpp: SSE streams, GET, resumption.
    void onGet(QTcpSocket* socket, const HttpRequest& request);
    void onOutgoing(const QString& sessionId, const QJsonObject& message, const QJsonValue& related);
    std::shared_ptr<Stream> openSse(Session& session, QTcpSocket* socket,
                                    const QList<QPair<QByteArray, QByteArray>>& headers);
    void sendEvent(Stream& stream, const QJsonObject& message);
    void watchDisconnect(const QString& sessionId, const std::shared_ptr<Stream>& stream);
    static void closeStreams(Session& session);
    bool authorized(const HttpRequest& request) const;
    static bool originAllowed(const QByteArray& origin);
    static QString idKey(const QJsonValue& id);
    static void respond(QTcpSocket* socket, int status, const QByteArray& body,
                        const QList<QPair<QByteArray, QByteArray>>& headers = {});
    static void respondJson(QTcpSocket* socket, int status, const QJsonObject& body,
                            const QList<QPair<QByteArray, QByteArray>>& headers = {});

    QTcpServer m_server;
    SessionFactory m_factory;
    QString m_token;
    QHash<QString, std::shared_ptr<Session>> m_sessions; // by Mcp-Session-Id
};

} // namespace ciu::mcp
