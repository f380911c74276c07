#pragma once

#include "core/providers/pricetable.h"
#include "core/providers/providertypes.h"

#include <QHash>
#include <QObject>
#include <QUrl>

#include <memory>
#include <unordered_map>

class QNetworkAccessManager;
class QNetworkReply;
class QTimer;

namespace ciu::director {

enum class ProviderKind : quint8
{
    Anthropic = 1,
    OpenAi, // any OpenAI-compatible chat completions server (OpenAI, llama.cpp, vLLM, Ollama)
};
QString toString(ProviderKind kind);
std::optional<ProviderKind> providerKindFromString(const QString& name);

struct ProviderConfig
{
    QUrl baseUrl;         // "https://api.anthropic.com"; the key is only ever sent to this host
    QString apiKey;       // never logged, never in errors
    QString defaultModel; // used when ProviderRequest::model is empty
    // The embeddings model (OpenAI-compatible servers) for ProviderRequest::embeddingInputs; empty: none is
    // configured, and an embeddings call fails without sending anything. There is no default.
    QString embeddingModel;
    PriceTable prices = PriceTable::defaults();

    int maxAttempts = 3;            // SDK default: 2 retries
    int requestTimeoutMs = 600'000; // one attempt's whole response
    int idleTimeoutMs = 60'000; // no byte for this long once the response started (or a stream was asked for)
    int totalTimeoutMs = 900'000;    // the call with all its retries: no attempt runs or starts past it
    int connectTimeoutMs = 5'000;    // until the request is on the wire
    int progressIntervalMs = 10'000; // how often progress() reports a call in flight
    // The largest response body read (a 50 MB reply took ~1 GB of memory): larger ones fail, not retried.
    qint64 maxResponseBytes = 16 * 1024 * 1024;
    // Caps every retry delay (retry-after and backoff); for tests. The policy itself allows 0–60 s.
    int maxRetryDelayMs = 60'000;
    QStringList extraBetas; // Anthropic: more anthropic-beta values
};

// An abstract model provider. Lives on any thread (its QNetworkAccessManager is created lazily on that
// thread); call send()/cancel() on that thread. Every send() ends with exactly one finished() signal
// (also on errors and cancel), emitted asynchronously (never from inside send()).
class Provider : public QObject
{
    Q_OBJECT
public:
    explicit Provider(ProviderConfig config, QObject* parent = nullptr);
    ~Provider() override;

    virtual ProviderKind kind() const = 0;
    const ProviderConfig& config() const { return m_config; }
    void setConfig(ProviderConfig config) { m_config = std::move(config); }
    // The effective model of a request (the embedding model for an embeddings call).
    QString modelFor(const ProviderRequest& request) const;

    // Starts the request; returns its id (> 0).
    quint64 send(const ProviderRequest& request);
    // Ends the request: finished(id, {error = Canceled}) follows. Unknown ids are ignored.
    void cancel(quint64 requestId);
    void cancelAll();
    int pendingCount() const { return int(m_calls.size()); }

    // Totals of all finished calls.
    const Usage& totalUsage() const { return m_totalUsage; }
    int callCount() const { return m_callCount; }

    // Streaming (implementation detail of the providers): a per-call parser fed with raw body bytes; returns
    // false on a fatal error.
    class StreamHandler
    {
    public:
        virtual ~StreamHandler() = default;
        // Feeds bytes; returns false and *error (kind in *kind) on a fatal stream error.
        virtual bool feed(const QByteArray& bytes, ProviderError* kind, QString* error) = 0;
        // The stream ended; fills response; false when it ended before a complete message.
        virtual bool finish(ProviderResponse& response, QString* error) = 0;
        // New text since the last call (for textDelta).
        virtual QString takeTextDelta() = 0;
    };

signals:
    void finished(quint64 requestId, const ciu::director::ProviderResponse& response);
    // Streaming progress: text of the reply as it arrives.
    void textDelta(quint64 requestId, const QString& text);
    // A retry is scheduled after a failed attempt (attempt = the attempt that failed, from 1).
    void retrying(quint64 requestId, int attempt, qint64 delayMs, const QString& reason);
    // A call in flight, every progressIntervalMs: how long it has run, what arrived, how long since the last
    // byte (for the console and the app: a stalled reply is visible, not silent).
    void progress(quint64 requestId, qint64 elapsedMs, qint64 bytesReceived, qint64 silentMs);

protected:
    struct HttpRequest
    {
        QString path;                                 // appended to the base URL path: "/v1/messages"
        QList<QPair<QByteArray, QByteArray>> headers; // besides content-type
        QByteArray body;
        ScreenshotScaler scaler;
    };
    // Builds the wire request; nullopt and *error when the request cannot be built.
    virtual std::optional<HttpRequest> buildHttpRequest(const ProviderRequest& request, QString* error) = 0;
    // Parses a complete 2xx non-streaming body into response (content, stop reason, usage, ids).
    virtual bool parseResponseBody(const QByteArray& body, ProviderResponse& response, QString* error) = 0;

    virtual std::unique_ptr<StreamHandler> createStreamHandler() = 0;
    // Maps an HTTP error body to a message (without the key) and, if known, a refined error kind.
    virtual QString errorMessageFromBody(int status, const QByteArray& body) const = 0;
    // Embeddings: whether the provider has an embeddings API, and the parse of a complete 2xx body into
    // response.embeddings (exactly `count` vectors in input order, all of one dimension; false and *error
    // otherwise). The request is built by buildHttpRequest (ProviderRequest::embeddingInputs not empty).
    virtual bool hasEmbeddings() const { return false; }
    virtual bool parseEmbeddingsBody(const QByteArray& body, qsizetype count, ProviderResponse& response,
                                     QString* error);
    // False for servers that work without a key (local OpenAI-compatible servers).
    virtual bool needsApiKey() const { return true; }
    // The header carrying the server's request id ("request-id").
    virtual QByteArray requestIdHeader() const { return QByteArrayLiteral("request-id"); }

    // Removes the key from any text that may leave this class.
    QString redact(QString text) const;

private:
    struct Call;
    void startAttempt(quint64 id);
    void onReadyRead(Call& call);
    void onBytes(Call& call, qint64 received);
    void armTimer(Call& call);
    void onReplyFinished(quint64 id, QNetworkReply* reply);
    void failOrRetry(Call& call, ProviderError kind, const QString& message, int status,
                     const QList<QPair<QByteArray, QByteArray>>& headers, bool retryable);
    void complete(quint64 id, ProviderResponse response);
    void failLater(quint64 id, ProviderError kind, const QString& message);
    QUrl endpoint(const QString& path) const;
    QNetworkAccessManager* network();

    ProviderConfig m_config;
    QNetworkAccessManager* m_network = nullptr;
    std::unordered_map<quint64, std::unique_ptr<Call>> m_calls;
    quint64 m_nextId = 1;
    Usage m_totalUsage;
    int m_callCount = 0;
};

} // namespace ciu::director
