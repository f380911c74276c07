#pragma once

#include <QByteArray>
#include <QHash>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QUrl>

#include <functional>
#include <optional>

class QTcpServer;
class QTcpSocket;

namespace ciu::test {

// A fake model API on 127.0.0.1 speaking real HTTP/1.1 (keep-alive, Content-Length and chunked bodies,
// server-sent events). It answers each request with the next scripted Step and records every request
// (headers and parsed JSON body) for assertions. It speaks the Claude Messages API (POST /v1/messages)
// and OpenAI-compatible chat completions (POST /v1/chat/completions); the reply helpers build the real
// wire formats of both. With no step left it answers 500 with an api_error body.
// OpenAI-compatible embeddings (POST /v1/embeddings) are served apart from the scripted steps, so they never
// take a chat reply's turn: the next step of enqueueEmbeddings() if any, else one vector per input text, the
// one setEmbedding() gave for that text or else defaultEmbedding(text).
class FakeApiServer : public QObject
{
    Q_OBJECT
public:
    using Headers = QList<QPair<QByteArray, QByteArray>>;

    struct Step
    {
        enum class Kind : quint8
        {
            Reply = 1, // a complete body with Content-Length
            Stream,    // chunked transfer of `chunks`, one write each, `chunkIntervalMs` apart
            Drop,      // close the connection without answering
            Hang,      // never answer (the client times out)
        };
        Kind kind = Kind::Reply;
        int status = 200;
        QByteArray contentType = "application/json";
        QByteArray body;
        QList<QByteArray> chunks;
        Headers headers;
        int delayMs = 0; // before the reply starts
        int chunkIntervalMs = 2;
        // Stream: after the last chunk the body is not ended; the connection stays open and silent (a stalled
        // reply) until the client gives up.
        bool stallAfterChunks = false;
        // Reply: the Content-Length announced when it differs from the body's size (a larger one leaves the
        // client waiting for bytes that never come); -1: the body's size.
        qint64 declaredLength = -1;
    };

    struct Request
    {
        QByteArray method;
        QByteArray path;
        QHash<QByteArray, QByteArray> headers; // names in lower case
        QByteArray body;
        QJsonObject json;   // the body parsed (empty when it is not a JSON object)
        int connection = 0; // which TCP connection carried it (1, 2, ...)

        QByteArray header(const QByteArray& name) const { return headers.value(name.toLower()); }
    };

    explicit FakeApiServer(QObject* parent = nullptr);
    ~FakeApiServer() override;

    bool start(); // listens on 127.0.0.1, a free port
    quint16 port() const;
    QUrl baseUrl() const; // http://127.0.0.1:PORT

    void enqueue(const Step& step) { m_steps.append(step); }
    // Answers requests when no scripted step is left (e.g. replies built from the zone map in the
    // request); nullopt falls back to the 500 "no scripted reply".
    using Responder = std::function<std::optional<Step>(const Request& request)>;
    void setResponder(Responder responder) { m_responder = std::move(responder); }
    void enqueue(const QList<Step>& steps) { m_steps.append(steps); }
    qsizetype pendingSteps() const { return m_steps.size(); }

    const QList<Request>& requests() const { return m_requests; }
    // The requests to one path ("/v1/embeddings"), in order.
    QList<Request> requestsTo(const QByteArray& path) const;
    qsizetype requestCount() const { return m_requests.size(); }
    const Request& lastRequest() const { return m_requests.last(); }
    int connectionCount() const { return m_connections; }
    // Runs the event loop until `count` requests arrived (false on timeout).
    bool waitForRequests(qsizetype count, int timeoutMs = 10'000);
    void reset(); // forgets steps and requests

    // ---- Claude Messages API ----
    static QJsonObject usage(qint64 input, qint64 output, qint64 cacheWrite = 0, qint64 cacheRead = 0);
    static QJsonObject messageJson(const QJsonArray& content, const QString& stopReason,
                                   const QJsonObject& usage = FakeApiServer::usage(100, 20),
                                   const QString& model = QStringLiteral("claude-sonnet-4-5-20250929"));
    static QJsonObject textBlock(const QString& text);
    static QJsonObject toolUseBlock(const QString& id, const QString& name, const QJsonObject& input);
    static Step message(const QJsonObject& messageJson, const Headers& headers = {});
    static Step textReply(const QString& text, const QString& stopReason = QStringLiteral("end_turn"),
                          const QJsonObject& usage = FakeApiServer::usage(100, 20));
    // A tool_use reply (stop_reason tool_use); an empty id gets "toolu_fake_N".
    static Step toolUseReply(const QString& name, const QJsonObject& input, const QString& id = {},
                             const QString& text = {},
                             const QJsonObject& usage = FakeApiServer::usage(100, 20));
    // The message as an event stream: message_start, a ping, per block start/deltas/stop (tool input JSON
    // split into `jsonPiece`-character input_json_delta pieces), message_delta, message_stop. chunkBytes > 0
    // re-cuts the byte stream into pieces of that size (events split across reads).
    static Step streamedMessage(const QJsonObject& messageJson, int jsonPiece = 7, int chunkBytes = 0);
    // An error reply with the real body {"type":"error","error":{...},"request_id":...}.
    static Step error(int status, const QString& type, const QString& message, const Headers& headers = {});
    // 200, then an `error` event after message_start.
    static Step streamError(const QString& type, const QString& message);
    static Step malformedJson();
    static Step dropConnection();
    static Step hang();
    static Step redirect(const QUrl& location, int status = 307);
    static Step delayed(Step step, int delayMs);
    // The first `events` events of `step`'s stream (a Stream step), then silence with the connection open.
    static Step stalled(Step step, int events);
    // A Reply that announces its whole body but sends only the first `bytes`, then stays silent.
    static Step stalledBody(Step step, int bytes);
    // A body of `bytes` bytes (a JSON text reply padded with spaces inside the text): a huge reply.
    static Step hugeTextReply(qint64 bytes);
    static QByteArray sseEvent(const QByteArray& name, const QJsonObject& data);

    // ---- OpenAI-compatible chat completions ----
    static QJsonObject chatUsage(qint64 prompt, qint64 completion, qint64 cached = 0);
    static QJsonObject chatCompletionJson(const QJsonObject& message, const QString& finishReason,
                                          const QJsonObject& usage = FakeApiServer::chatUsage(100, 20));
    static Step chatReply(const QString& text, const QString& finishReason = QStringLiteral("stop"),
                          const QJsonObject& usage = FakeApiServer::chatUsage(100, 20));
    static Step chatToolCallReply(const QString& name, const QJsonObject& arguments, const QString& id = {},
                                  const QJsonObject& usage = FakeApiServer::chatUsage(100, 20));
    // Streamed: role chunk, text in pieces, tool call (id+name, then arguments in pieces), finish, usage,
    // [DONE].
    static Step chatStream(const QString& text, const QString& toolName = {},
                           const QJsonObject& toolArguments = {},
                           const QJsonObject& usage = chatUsage(100, 20));
    static Step chatError(int status, const QString& type, const QString& message,
                          const Headers& headers = {});
    // One entry of tool_calls; `arguments` goes on the wire as the JSON string the API sends.
    static QJsonObject chatToolCall(const QString& id, const QString& name, const QJsonObject& arguments);
    // The same with the arguments string as it is (malformed arguments).
    static QJsonObject chatToolCallRaw(const QString& id, const QString& name, const QString& arguments);
    // An assistant message with several tool_calls (finish_reason "tool_calls") and optional text.
    static Step chatToolCallsReply(const QJsonArray& calls, const QString& text = {},
                                   const QJsonObject& usage = FakeApiServer::chatUsage(100, 20));
    // A 200 chat completion whose body is cut off (not JSON).
    static Step chatMalformed();

    // ---- OpenAI-compatible embeddings ----
    static constexpr int kDefaultEmbeddingDimension = 16;
    // The vector served for `text` (exactly as sent), instead of defaultEmbedding(text).
    void setEmbedding(const QString& text, const QList<double>& vector) { m_embeddings.insert(text, vector); }
    // The next /v1/embeddings request gets this step (an error, a malformed body) instead of the vectors.
    void enqueueEmbeddings(const Step& step) { m_embeddingSteps.append(step); }
    // A deterministic vector derived from the text, not from its meaning: each lower-case word (letters and
    // digits) adds 1 to the dimension its FNV-1a hash picks, and the vector is scaled to length 1 (a text
    // without words: the first unit vector). Texts that share no word are near orthogonal: it knows no
    // paraphrase.
    static QList<double> defaultEmbedding(const QString& text, int dimension = kDefaultEmbeddingDimension);
    // The real reply: {"object":"list","data":[{"object":"embedding","index":i,"embedding":[...]}],
    // "model":..,"usage":{"prompt_tokens":n,"total_tokens":n}}.
    static Step embeddingsReply(const QList<QList<double>>& vectors, const QString& model,
                                qint64 promptTokens = 0);

signals:
    void requestReceived(int count);

private:
    void onNewConnection();
    void onReadyRead(QTcpSocket* socket);
    void respond(QTcpSocket* socket, const Request& request);
    Step embeddingsStep(const Request& request);
    void writeStep(QPointer<QTcpSocket> socket, const Step& step, bool keepAlive);
    void writeChunks(QPointer<QTcpSocket> socket, QList<QByteArray> chunks, int intervalMs, bool keepAlive,
                     bool stall = false);

    QTcpServer* m_server = nullptr;
    QList<Step> m_steps;
    QList<Request> m_requests;
    QHash<QTcpSocket*, QByteArray> m_buffers;
    QHash<QTcpSocket*, int> m_connectionIds;
    int m_connections = 0;
    int m_nextToolId = 1;
    Responder m_responder;
    QHash<QString, QList<double>> m_embeddings;
    QList<Step> m_embeddingSteps;
};

} // namespace ciu::test
