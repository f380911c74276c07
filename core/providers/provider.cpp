#include "core/providers/provider.h"

#include "core/providers/providerslog.h"
#include "core/providers/retrypolicy.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPointer>
#include <QRandomGenerator>
#include <QTimer>

#include <algorithm>
#include <limits>

namespace ciu::director {

QString toString(ProviderKind kind)
{
    switch (kind) {
    case ProviderKind::Anthropic:
        return QStringLiteral("anthropic");
    case ProviderKind::OpenAi:
        return QStringLiteral("openai");
    }
    return QStringLiteral("unknown");
}

std::optional<ProviderKind> providerKindFromString(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("anthropic") || n == QLatin1String("claude"))
        return ProviderKind::Anthropic;
    if (n == QLatin1String("openai") || n == QLatin1String("openai-compatible"))
        return ProviderKind::OpenAi;
    return std::nullopt;
}

namespace {
enum class Deadline : quint8
{
    Idle = 1,
    Attempt,
    Total
};
} // namespace

struct Provider::Call
{
    quint64 id = 0;
    ProviderRequest request;
    HttpRequest http;
    QString model;
    int attempt = 0; // attempts started
    QElapsedTimer clock;
    QPointer<QNetworkReply> reply;
    std::unique_ptr<QTimer> timer; // connect / request timeout, then the retry delay
    QElapsedTimer attemptClock;
    QElapsedTimer lastByte;           // since the last byte of this attempt's response (or its start)
    std::unique_ptr<QTimer> progress; // progress() while the call is in flight
    qint64 received = 0;              // bytes of this attempt's response
    qint64 consumed = 0;              // of which already read out of the reply (streams)
    bool connected = false;
    bool timedOut = false;
    bool connectTimedOut = false;
    bool tooLarge = false;
    bool headersReceived = false; // the response has started
    Deadline deadline = Deadline::Attempt;
    bool streaming = false; // this attempt's 2xx body is an event stream
    std::unique_ptr<StreamHandler> stream;
    ProviderError streamErrorKind = ProviderError::None;
    QString streamError;
    int lastStatus = 0;
    QString apiRequestId;
};

Provider::Provider(ProviderConfig config, QObject* parent)
    : QObject(parent)
    , m_config(std::move(config))
{
}

Provider::~Provider()
{
    for (auto& [id, call] : m_calls) {
        if (call->reply) {
            call->reply->disconnect(this);
            call->reply->abort();
        }
    }
}

QString Provider::modelFor(const ProviderRequest& request) const
{
    if (!request.model.isEmpty())
        return request.model;
    return request.embeddingInputs.isEmpty() ? m_config.defaultModel : m_config.embeddingModel;
}

bool Provider::parseEmbeddingsBody(const QByteArray&, qsizetype, ProviderResponse&, QString* error)
{
    *error = QStringLiteral("the %1 provider has no embeddings API").arg(toString(kind()));
    return false;
}

QNetworkAccessManager* Provider::network()
{
    if (!m_network) {
        m_network = new QNetworkAccessManager(this);
        // Redirects are never followed: the key goes to the configured base URL only (and the official
        // endpoints do not redirect). A 3xx ends the call with RedirectRefused.
        m_network->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
        m_network->setAutoDeleteReplies(false);
    }
    return m_network;
}

QString Provider::redact(QString text) const
{
    if (m_config.apiKey.size() >= 4)
        text.replace(m_config.apiKey, QStringLiteral("[redacted]"));
    return text;
}

QUrl Provider::endpoint(const QString& path) const
{
    QUrl url = m_config.baseUrl;
    QString basePath = url.path();
    while (basePath.endsWith(QLatin1Char('/')))
        basePath.chop(1);
    QString suffix = path;
    // A base that already ends in "/v1" (OpenAI style) is not doubled.
    if (basePath.endsWith(QLatin1String("/v1")) && suffix.startsWith(QLatin1String("/v1/")))
        suffix = suffix.mid(3);
    url.setPath(basePath + suffix);
    url.setQuery(QString());
    url.setFragment(QString());
    return url;
}

quint64 Provider::send(const ProviderRequest& request)
{
    const quint64 id = m_nextId++;
    auto call = std::make_unique<Call>();
    call->id = id;
    call->request = request;
    const bool embeddings = !request.embeddingInputs.isEmpty();
    if (embeddings)
        call->request.stream = false; // an embeddings reply is one JSON body
    call->model = modelFor(request);
    call->clock.start();
    Call& c = *call;
    m_calls.emplace(id, std::move(call));

    const QUrl base = m_config.baseUrl;
    if (!base.isValid() || base.host().isEmpty() ||
        (base.scheme() != QLatin1String("https") && base.scheme() != QLatin1String("http"))) {
        failLater(id, ProviderError::InvalidRequest,
                  QStringLiteral("the %1 base URL is not a valid http(s) URL").arg(toString(kind())));
        return id;
    }
    if (embeddings && !hasEmbeddings()) {
        failLater(id, ProviderError::InvalidRequest,
                  QStringLiteral("the %1 provider has no embeddings API").arg(toString(kind())));
        return id;
    }
    if (needsApiKey() && m_config.apiKey.isEmpty()) {
        failLater(id, ProviderError::NoApiKey,
                  QStringLiteral("no API key for %1 (set %2 or store one in the keychain)")
                      .arg(toString(kind()), kind() == ProviderKind::Anthropic
                                                 ? QStringLiteral("ANTHROPIC_API_KEY")
                                                 : QStringLiteral("OPENAI_API_KEY")));
        return id;
    }
    if (c.model.isEmpty()) {
        failLater(id, ProviderError::InvalidRequest,
                  embeddings ? QStringLiteral("no embedding model configured")
                             : QStringLiteral("no model configured"));
        return id;
    }
    QString error;
    auto http = buildHttpRequest(c.request, &error);
    if (!http) {
        failLater(id, ProviderError::InvalidRequest,
                  QStringLiteral("cannot build the request: %1").arg(error));
        return id;
    }
    c.http = std::move(*http);
    qCInfo(lcProvider).noquote() << toString(kind()) << "request" << id << "model" << c.model << "purpose"
                                 << request.purpose << "bytes" << c.http.body.size();
    startAttempt(id);
    return id;
}

void Provider::failLater(quint64 id, ProviderError kind, const QString& message)
{
    ProviderResponse response;
    response.error = kind;
    response.errorMessage = message;
    complete(id, std::move(response));
}

void Provider::startAttempt(quint64 id)
{
    const auto it = m_calls.find(id);
    if (it == m_calls.end())
        return;
    Call& c = *it->second;
    ++c.attempt;
    c.attemptClock.start();
    c.lastByte.start();
    c.received = 0;
    c.consumed = 0;
    c.tooLarge = false;
    c.headersReceived = false;
    c.connected = false;
    c.timedOut = false;
    c.connectTimedOut = false;
    c.streaming = false;
    c.stream.reset();
    c.streamErrorKind = ProviderError::None;
    c.streamError.clear();

    QNetworkRequest req(endpoint(c.http.path));
    req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    req.setRawHeader("accept", c.request.stream ? QByteArrayLiteral("text/event-stream")
                                                : QByteArrayLiteral("application/json"));
    req.setRawHeader("user-agent", QByteArrayLiteral("ciu-agent/" CIU_VERSION));
    for (const auto& [name, value] : c.http.headers)
        req.setRawHeader(name, value);
    if (c.attempt > 1)
        req.setRawHeader("x-stainless-retry-count", QByteArray::number(c.attempt - 1));
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    req.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);

    QNetworkReply* reply = network()->post(req, c.http.body);
    c.reply = reply;

    if (!c.timer) {
        c.timer = std::make_unique<QTimer>();
        c.timer->setSingleShot(true);
    }
    c.timer->disconnect();
    connect(c.timer.get(), &QTimer::timeout, this, [this, id] {
        const auto found = m_calls.find(id);
        if (found == m_calls.end() || !found->second->reply)
            return;
        Call& call = *found->second;
        call.timedOut = true;
        call.connectTimedOut = !call.connected;
        call.reply->abort();
    });
    c.timer->start(std::max(1, m_config.connectTimeoutMs));
    if (!c.progress && m_config.progressIntervalMs > 0) {
        c.progress = std::make_unique<QTimer>();
        connect(c.progress.get(), &QTimer::timeout, this, [this, id] {
            const auto found = m_calls.find(id);
            if (found == m_calls.end() || !found->second->reply)
                return;
            const Call& call = *found->second;
            emit progress(id, call.clock.elapsed(), call.received, call.lastByte.elapsed());
        });
        c.progress->start(m_config.progressIntervalMs);
    }

    auto markConnected = [this, id] {
        const auto found = m_calls.find(id);
        if (found == m_calls.end() || found->second->connected)
            return;
        Call& call = *found->second;
        call.connected = true;
        call.lastByte.start();
        armTimer(call);
    };
    connect(reply, &QNetworkReply::uploadProgress, this, [markConnected](qint64 sent, qint64) {
        if (sent > 0)
            markConnected();
    });
    connect(reply, &QNetworkReply::metaDataChanged, this, [this, id, markConnected] {
        markConnected();
        const auto found = m_calls.find(id);
        if (found == m_calls.end() || found->second->headersReceived)
            return;
        found->second->headersReceived = true;
        found->second->lastByte.start();
        armTimer(*found->second);
    });
    connect(reply, &QNetworkReply::downloadProgress, this, [this, id](qint64 received, qint64) {
        const auto found = m_calls.find(id);
        if (found != m_calls.end())
            onBytes(*found->second, received);
    });
    connect(reply, &QNetworkReply::readyRead, this, [this, id] {
        const auto found = m_calls.find(id);
        if (found != m_calls.end())
            onReadyRead(*found->second);
    });
    connect(reply, &QNetworkReply::finished, this, [this, id, reply] { onReplyFinished(id, reply); });
}

// The attempt's deadline: the idle timeout from the last byte, capped by the attempt's and the call's totals.
void Provider::armTimer(Call& c)
{
    if (!c.timer || !c.connected)
        return;
    // Before a non-streamed response starts the model is still working: silence is not a stall there. Once
    // a stream is asked for, or the response's headers came, a pause of idleTimeoutMs is.
    const qint64 idle = c.request.stream || c.headersReceived
                            ? std::max<qint64>(1, m_config.idleTimeoutMs) - c.lastByte.elapsed()
                            : std::numeric_limits<qint64>::max();
    const qint64 attempt = std::max<qint64>(1, m_config.requestTimeoutMs) - c.attemptClock.elapsed();
    const qint64 total = std::max<qint64>(1, m_config.totalTimeoutMs) - c.clock.elapsed();
    // Which limit ends the attempt if nothing arrives (a timer may fire a little early: remember it).
    c.deadline = total <= attempt && total <= idle ? Deadline::Total
                 : attempt <= idle                 ? Deadline::Attempt
                                                   : Deadline::Idle;
    c.timer->start(
        int(std::clamp<qint64>(std::min({idle, attempt, total}), 1, std::numeric_limits<int>::max())));
}

void Provider::onBytes(Call& c, qint64 received)
{
    if (received > c.received) {
        c.received = received;
        c.lastByte.start();
        armTimer(c);
    }
    if (m_config.maxResponseBytes > 0 && c.received > m_config.maxResponseBytes && c.reply && !c.tooLarge) {
        c.tooLarge = true;
        c.reply->abort();
    }
}

void Provider::onReadyRead(Call& c)
{
    QNetworkReply* reply = c.reply;
    if (!reply)
        return;
    // Every byte counts as it arrives (downloadProgress may come only at the end of a chunked body). A reply
    // over the size cap is aborted there, and the abort finishes the call at once: `c` is then gone.
    const quint64 id = c.id;
    onBytes(c, c.consumed + reply->bytesAvailable());
    if (m_calls.find(id) == m_calls.end())
        return;
    if (c.tooLarge || !c.request.stream)
        return; // non-streaming bodies are read at the end
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status < 200 || status >= 300)
        return;
    const QByteArray contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    if (!contentType.startsWith("text/event-stream"))
        return; // a plain JSON body: parsed at the end
    if (!c.stream) {
        c.stream = createStreamHandler();
        c.streaming = true;
    }
    if (c.streamErrorKind != ProviderError::None || c.tooLarge)
        return;
    ProviderError kind = ProviderError::None;
    QString error;
    const QByteArray bytes = reply->readAll();
    c.consumed += bytes.size();
    if (!c.stream->feed(bytes, &kind, &error)) {
        c.streamErrorKind = kind == ProviderError::None ? ProviderError::MalformedResponse : kind;
        c.streamError = error;
        reply->abort();
        return;
    }
    const QString delta = c.stream->takeTextDelta();
    if (!delta.isEmpty())
        emit textDelta(c.id, delta);
}

namespace {
ProviderError errorForStatus(int status)
{
    switch (status) {
    case 401:
        return ProviderError::Authentication;
    case 402:
    case 403:
        return ProviderError::Permission;
    case 408:
        return ProviderError::Timeout;
    case 429:
        return ProviderError::RateLimited;
    case 529:
        return ProviderError::Overloaded;
    default:
        break;
    }
    if (status >= 500 || status == 409)
        return ProviderError::Server;
    return ProviderError::InvalidRequest;
}
} // namespace

void Provider::onReplyFinished(quint64 id, QNetworkReply* reply)
{
    reply->disconnect(this);
    reply->deleteLater();
    const auto it = m_calls.find(id);
    if (it == m_calls.end() || it->second->reply != reply)
        return;
    Call& c = *it->second;
    c.reply = nullptr;
    if (c.timer)
        c.timer->stop();

    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const HttpHeaders headers = reply->rawHeaderPairs();
    c.lastStatus = status;
    const QByteArray requestId = retry::header(headers, requestIdHeader());
    if (!requestId.isEmpty())
        c.apiRequestId = QString::fromLatin1(requestId);

    if (c.streamErrorKind != ProviderError::None) {
        failOrRetry(c, c.streamErrorKind, c.streamError, status, headers, false);
        return;
    }
    if (c.tooLarge) {
        failOrRetry(c, ProviderError::MalformedResponse,
                    QStringLiteral("the response is larger than %1 MiB; not read further")
                        .arg(double(m_config.maxResponseBytes) / (1024.0 * 1024.0), 0, 'f', 1),
                    status, headers, false);
        return;
    }
    if (c.timedOut) {
        QString what;
        if (c.connectTimedOut)
            what = QStringLiteral("could not connect within %1 ms").arg(m_config.connectTimeoutMs);
        else if (c.deadline == Deadline::Total)
            what = QStringLiteral("no complete response within the call's limit of %1 s")
                       .arg(m_config.totalTimeoutMs / 1000.0);
        else if (c.deadline == Deadline::Attempt)
            what = QStringLiteral("no complete response within %1 ms").arg(m_config.requestTimeoutMs);
        else
            what = QStringLiteral("the response stalled: no data for %1 s (%2 bytes received)")
                       .arg(m_config.idleTimeoutMs / 1000.0)
                       .arg(c.received);
        failOrRetry(c, ProviderError::Timeout, what, 0, {}, true);
        return;
    }
    if (status == 0) {
        failOrRetry(c, ProviderError::Network,
                    QStringLiteral("connection error: %1").arg(reply->errorString()), 0, headers,
                    retry::shouldRetry(0, headers));
        return;
    }
    if (status >= 300 && status < 400) {
        const QUrl location =
            m_config.baseUrl.resolved(QUrl::fromEncoded(retry::header(headers, "location")));
        const bool sameHost = location.host().compare(m_config.baseUrl.host(), Qt::CaseInsensitive) == 0;
        failOrRetry(
            c, ProviderError::RedirectRefused,
            QStringLiteral("refused a redirect (HTTP %1) to %2%3; the API key is only sent to the configured "
                           "base URL %4 (set the base URL to the final address if this is intended)")
                .arg(status)
                .arg(location.host().isEmpty() ? QStringLiteral("an unknown location") : location.host(),
                     sameHost ? QStringLiteral(" (same host)") : QStringLiteral(" (another host)"),
                     m_config.baseUrl.toDisplayString(QUrl::RemoveUserInfo | QUrl::RemovePath)),
            status, headers, false);
        return;
    }
    if (status >= 400) {
        const QByteArray body = reply->readAll();
        failOrRetry(c, errorForStatus(status), errorMessageFromBody(status, body), status, headers,
                    retry::shouldRetry(status, headers));
        return;
    }
    if (reply->error() != QNetworkReply::NoError) {
        // The connection broke in the middle of a 2xx body.
        failOrRetry(
            c, ProviderError::Network,
            QStringLiteral("connection error while reading the response: %1").arg(reply->errorString()), 0,
            headers, true);
        return;
    }

    ProviderResponse response;
    QString error;
    bool ok = false;
    if (c.streaming ||
        (c.request.stream &&
         reply->header(QNetworkRequest::ContentTypeHeader).toByteArray().startsWith("text/event-stream"))) {
        if (!c.stream)
            c.stream = createStreamHandler();
        ProviderError kind = ProviderError::None;
        ok = c.stream->feed(reply->readAll(), &kind, &error);
        if (!ok) {
            failOrRetry(c, kind == ProviderError::None ? ProviderError::MalformedResponse : kind, error,
                        status, headers, false);
            return;
        }
        const QString delta = c.stream->takeTextDelta();
        if (!delta.isEmpty())
            emit textDelta(c.id, delta);
        ok = c.stream->finish(response, &error);
    } else if (!c.request.embeddingInputs.isEmpty()) {
        ok = parseEmbeddingsBody(reply->readAll(), c.request.embeddingInputs.size(), response, &error);
    } else {
        ok = parseResponseBody(reply->readAll(), response, &error);
    }
    if (!ok) {
        failOrRetry(c, ProviderError::MalformedResponse, QStringLiteral("malformed response: %1").arg(error),
                    status, headers, false);
        return;
    }
    if (response.model.isEmpty())
        response.model = c.model;
    m_config.prices.applyCost(response.model, response.usage);
    response.httpStatus = status;
    complete(id, std::move(response));
}

void Provider::failOrRetry(Call& c, ProviderError kind, const QString& message, int status,
                           const HttpHeaders& headers, bool retryable)
{
    const quint64 id = c.id;
    const qint64 wanted = retry::delayMs(c.attempt - 1, headers, QRandomGenerator::global()->generateDouble(),
                                         QDateTime::currentDateTimeUtc());
    const qint64 delay = std::clamp<qint64>(wanted, 0, std::max(0, m_config.maxRetryDelayMs));
    // The retry budget: no attempt starts when the call's total time would be spent before it does.
    const bool inBudget = c.clock.elapsed() + delay < m_config.totalTimeoutMs;
    if (retryable && c.attempt < std::max(1, m_config.maxAttempts) && inBudget) {
        qCInfo(lcProvider).noquote() << toString(this->kind()) << "request" << id << "attempt" << c.attempt
                                     << "failed:" << redact(message) << "- retrying in" << delay << "ms";
        emit retrying(id, c.attempt, delay, redact(message));
        c.timer->disconnect();
        connect(c.timer.get(), &QTimer::timeout, this, [this, id] { startAttempt(id); });
        c.timer->start(int(delay));
        return;
    }
    ProviderResponse response;
    response.error = kind;
    response.httpStatus = status;
    QString text = message;
    if (c.attempt > 1)
        text += QStringLiteral(" (after %1 attempts)").arg(c.attempt);
    response.errorMessage = text;
    complete(id, std::move(response));
}

void Provider::complete(quint64 id, ProviderResponse response)
{
    const auto it = m_calls.find(id);
    if (it == m_calls.end())
        return;
    std::unique_ptr<Call> call = std::move(it->second);
    m_calls.erase(it);
    if (call->timer)
        call->timer->stop();
    if (call->progress)
        call->progress->stop();
    if (call->reply) {
        call->reply->disconnect(this);
        call->reply->abort();
        call->reply->deleteLater();
    }
    response.requestId = id;
    response.attempts = call->attempt;
    response.latencyMs = call->clock.elapsed();
    response.scaler = call->http.scaler;
    if (response.apiRequestId.isEmpty())
        response.apiRequestId = call->apiRequestId;
    if (response.httpStatus == 0)
        response.httpStatus = call->lastStatus;
    response.errorMessage = redact(response.errorMessage);
    if (response.ok() && !call->request.embeddingInputs.isEmpty()) {
        m_totalUsage += response.usage;
        ++m_callCount;
        qCInfo(lcProvider).noquote() << toString(kind()) << "request" << id
                                     << "done:" << response.embeddings.size() << "vectors of"
                                     << response.embeddings.value(0).size() << "in"
                                     << response.usage.totalInputTokens() << "id" << response.apiRequestId;
    } else if (response.ok()) {
        m_totalUsage += response.usage;
        ++m_callCount;
        qCInfo(lcProvider).noquote() << toString(kind()) << "request" << id
                                     << "done:" << toString(response.stopReason) << "in"
                                     << response.usage.totalInputTokens() << "out"
                                     << response.usage.outputTokens << "cost" << response.usage.costUsd
                                     << "id" << response.apiRequestId;
    } else {
        qCWarning(lcProvider).noquote() << toString(kind()) << "request" << id
                                        << "failed:" << toString(response.error) << response.errorMessage;
    }
    QMetaObject::invokeMethod(
        this, [this, response = std::move(response)] { emit finished(response.requestId, response); },
        Qt::QueuedConnection);
}

void Provider::cancel(quint64 requestId)
{
    if (m_calls.find(requestId) == m_calls.end())
        return;
    ProviderResponse response;
    response.error = ProviderError::Canceled;
    response.errorMessage = QStringLiteral("canceled");
    complete(requestId, std::move(response));
}

void Provider::cancelAll()
{
    QList<quint64> ids;
    for (const auto& [id, call] : m_calls)
        ids.append(id);
    for (quint64 id : ids)
        cancel(id);
}

} // namespace ciu::director
