#include "tests/support/fakeapiserver.h"

#include <QEventLoop>
#include <QHostAddress>
#include <QJsonDocument>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <atomic>

namespace ciu::test {

namespace {
QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 307:
        return "Temporary Redirect";
    case 308:
        return "Permanent Redirect";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 413:
        return "Payload Too Large";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 529:
        return "Overloaded";
    default:
        return "Status";
    }
}

QByteArray compact(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

std::atomic<int> g_requestCounter{1};

QList<QByteArray> recut(const QList<QByteArray>& chunks, int chunkBytes)
{
    if (chunkBytes <= 0)
        return chunks;
    const QByteArray all = chunks.join();
    QList<QByteArray> out;
    for (qsizetype i = 0; i < all.size(); i += chunkBytes)
        out.append(all.mid(i, chunkBytes));
    return out;
}

QList<QByteArray> splitText(const QString& text, int pieces)
{
    QList<QByteArray> out;
    const qsizetype step = std::max<qsizetype>(1, (text.size() + pieces - 1) / std::max(1, pieces));
    for (qsizetype i = 0; i < text.size(); i += step)
        out.append(text.mid(i, step).toUtf8());
    return out;
}
} // namespace

FakeApiServer::FakeApiServer(QObject* parent)
    : QObject(parent)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &FakeApiServer::onNewConnection);
}

FakeApiServer::~FakeApiServer() = default;

bool FakeApiServer::start()
{
    return m_server->isListening() || m_server->listen(QHostAddress::LocalHost, 0);
}

quint16 FakeApiServer::port() const
{
    return m_server->serverPort();
}

QUrl FakeApiServer::baseUrl() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(port());
    return url;
}

bool FakeApiServer::waitForRequests(qsizetype count, int timeoutMs)
{
    if (m_requests.size() >= count)
        return true;
    QEventLoop loop;
    QTimer timeout;
    timeout.setSingleShot(true);
    connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
    connect(this, &FakeApiServer::requestReceived, &loop, [&] {
        if (m_requests.size() >= count)
            loop.quit();
    });
    timeout.start(timeoutMs);
    loop.exec();
    return m_requests.size() >= count;
}

void FakeApiServer::reset()
{
    m_steps.clear();
    m_requests.clear();
}

void FakeApiServer::onNewConnection()
{
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        m_connectionIds.insert(socket, ++m_connections);
        socket->setSocketOption(QAbstractSocket::LowDelayOption, 1); // small SSE writes go out at once
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_buffers.remove(socket);
            m_connectionIds.remove(socket);
            socket->deleteLater();
        });
    }
}

void FakeApiServer::onReadyRead(QTcpSocket* socket)
{
    QByteArray& buffer = m_buffers[socket];
    buffer.append(socket->readAll());
    while (true) {
        const qsizetype headerEnd = buffer.indexOf("\r\n\r\n");
        if (headerEnd < 0)
            return;
        const QList<QByteArray> lines = buffer.left(headerEnd).split('\n');
        Request request;
        const QList<QByteArray> first = lines.value(0).trimmed().split(' ');
        request.method = first.value(0);
        request.path = first.value(1);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines[i].trimmed();
            const qsizetype colon = line.indexOf(':');
            if (colon > 0)
                request.headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
        }
        const qsizetype length = request.headers.value("content-length", "0").toLongLong();
        if (buffer.size() < headerEnd + 4 + length)
            return; // the body is still coming
        request.body = buffer.mid(headerEnd + 4, length);
        buffer.remove(0, headerEnd + 4 + length);
        request.json = QJsonDocument::fromJson(request.body).object();
        request.connection = m_connectionIds.value(socket);
        m_requests.append(request);
        emit requestReceived(int(m_requests.size()));
        respond(socket, request);
    }
}

void FakeApiServer::respond(QTcpSocket* socket, const Request& request)
{
    Step step;
    std::optional<Step> answered;
    if (m_steps.isEmpty() && m_responder)
        answered = m_responder(request);
    if (answered) {
        step = *answered;
    } else if (m_steps.isEmpty()) {
        step = error(
            500, QStringLiteral("api_error"),
            QStringLiteral("fake server: no scripted reply for %1").arg(QString::fromLatin1(request.path)));
    } else {
        step = m_steps.takeFirst();
    }
    const bool keepAlive = request.header("connection").toLower() != "close";
    QPointer<QTcpSocket> guard(socket);
    if (step.delayMs > 0) {
        QTimer::singleShot(step.delayMs, this,
                           [this, guard, step, keepAlive] { writeStep(guard, step, keepAlive); });
    } else {
        writeStep(guard, step, keepAlive);
    }
}

void FakeApiServer::writeStep(QPointer<QTcpSocket> socket, const Step& step, bool keepAlive)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return;
    if (step.kind == Step::Kind::Drop) {
        socket->abort();
        return;
    }
    if (step.kind == Step::Kind::Hang)
        return;
    QByteArray head =
        "HTTP/1.1 " + QByteArray::number(step.status) + ' ' + reasonPhrase(step.status) + "\r\n";
    bool hasRequestId = false;
    for (const auto& [name, value] : step.headers) {
        head += name + ": " + value + "\r\n";
        if (name.toLower() == "request-id")
            hasRequestId = true;
    }
    if (!hasRequestId) {
        const QByteArray id = "req_fake_" + QByteArray::number(g_requestCounter++);
        head += "request-id: " + id + "\r\n";
        head += "x-request-id: " + id + "\r\n";
    }
    if (!step.contentType.isEmpty())
        head += "content-type: " + step.contentType + "\r\n";
    head += keepAlive ? "connection: keep-alive\r\n" : "connection: close\r\n";
    if (step.kind == Step::Kind::Stream) {
        head += "transfer-encoding: chunked\r\ncache-control: no-cache\r\n\r\n";
        socket->write(head);
        socket->flush();
        writeChunks(socket, step.chunks, step.chunkIntervalMs, keepAlive);
        return;
    }
    head += "content-length: " + QByteArray::number(step.body.size()) + "\r\n\r\n";
    socket->write(head + step.body);
    socket->flush();
    if (!keepAlive)
        socket->disconnectFromHost();
}

void FakeApiServer::writeChunks(QPointer<QTcpSocket> socket, QList<QByteArray> chunks, int intervalMs,
                                bool keepAlive)
{
    if (!socket || socket->state() != QAbstractSocket::ConnectedState)
        return;
    if (chunks.isEmpty()) {
        socket->write("0\r\n\r\n");
        socket->flush();
        if (!keepAlive)
            socket->disconnectFromHost();
        return;
    }
    const QByteArray chunk = chunks.takeFirst();
    if (!chunk.isEmpty()) {
        socket->write(QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n");
        socket->flush();
    }
    QTimer::singleShot(intervalMs, this, [this, socket, chunks = std::move(chunks), intervalMs, keepAlive] {
        writeChunks(socket, chunks, intervalMs, keepAlive);
    });
}

// ---- Claude Messages API ----

QJsonObject FakeApiServer::usage(qint64 input, qint64 output, qint64 cacheWrite, qint64 cacheRead)
{
    return QJsonObject{{QStringLiteral("input_tokens"), input},
                       {QStringLiteral("output_tokens"), output},
                       {QStringLiteral("cache_creation_input_tokens"), cacheWrite},
                       {QStringLiteral("cache_read_input_tokens"), cacheRead}};
}

QJsonObject FakeApiServer::messageJson(const QJsonArray& content, const QString& stopReason,
                                       const QJsonObject& usage, const QString& model)
{
    return QJsonObject{{QStringLiteral("id"), QStringLiteral("msg_fake_%1").arg(g_requestCounter++)},
                       {QStringLiteral("type"), QStringLiteral("message")},
                       {QStringLiteral("role"), QStringLiteral("assistant")},
                       {QStringLiteral("model"), model},
                       {QStringLiteral("content"), content},
                       {QStringLiteral("stop_reason"), stopReason},
                       {QStringLiteral("stop_sequence"), QJsonValue::Null},
                       {QStringLiteral("usage"), usage}};
}

QJsonObject FakeApiServer::textBlock(const QString& text)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}};
}

QJsonObject FakeApiServer::toolUseBlock(const QString& id, const QString& name, const QJsonObject& input)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_use")},
                       {QStringLiteral("id"), id},
                       {QStringLiteral("name"), name},
                       {QStringLiteral("input"), input}};
}

FakeApiServer::Step FakeApiServer::message(const QJsonObject& json, const Headers& headers)
{
    Step step;
    step.body = compact(json);
    step.headers = headers;
    return step;
}

FakeApiServer::Step FakeApiServer::textReply(const QString& text, const QString& stopReason,
                                             const QJsonObject& usage)
{
    return message(messageJson(QJsonArray{textBlock(text)}, stopReason, usage));
}

FakeApiServer::Step FakeApiServer::toolUseReply(const QString& name, const QJsonObject& input,
                                                const QString& id, const QString& text,
                                                const QJsonObject& usage)
{
    static std::atomic<int> counter{1};
    QJsonArray content;
    if (!text.isEmpty())
        content.append(textBlock(text));
    content.append(
        toolUseBlock(id.isEmpty() ? QStringLiteral("toolu_fake_%1").arg(counter++) : id, name, input));
    return message(messageJson(content, QStringLiteral("tool_use"), usage));
}

QByteArray FakeApiServer::sseEvent(const QByteArray& name, const QJsonObject& data)
{
    return "event: " + name + "\ndata: " + compact(data) + "\n\n";
}

FakeApiServer::Step FakeApiServer::streamedMessage(const QJsonObject& json, int jsonPiece, int chunkBytes)
{
    QList<QByteArray> events;
    QJsonObject start = json;
    start.insert(QStringLiteral("content"), QJsonArray{});
    start.insert(QStringLiteral("stop_reason"), QJsonValue::Null);
    QJsonObject startUsage = json.value(QStringLiteral("usage")).toObject();
    startUsage.insert(QStringLiteral("output_tokens"), 1);
    start.insert(QStringLiteral("usage"), startUsage);
    events.append(
        sseEvent("message_start", QJsonObject{{QStringLiteral("type"), QStringLiteral("message_start")},
                                              {QStringLiteral("message"), start}}));
    events.append(sseEvent("ping", QJsonObject{{QStringLiteral("type"), QStringLiteral("ping")}}));
    const QJsonArray content = json.value(QStringLiteral("content")).toArray();
    for (int index = 0; index < content.size(); ++index) {
        const QJsonObject block = content.at(index).toObject();
        const QString type = block.value(QStringLiteral("type")).toString();
        QJsonObject startBlock = block;
        QList<QJsonObject> deltas;
        if (type == QLatin1String("text")) {
            startBlock.insert(QStringLiteral("text"), QString());
            for (const QByteArray& piece : splitText(block.value(QStringLiteral("text")).toString(), 3))
                deltas.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text_delta")},
                                          {QStringLiteral("text"), QString::fromUtf8(piece)}});
        } else if (type == QLatin1String("tool_use")) {
            startBlock.insert(QStringLiteral("input"), QJsonObject{});
            const QString input = QString::fromUtf8(compact(block.value(QStringLiteral("input")).toObject()));
            for (qsizetype i = 0; i < input.size(); i += std::max(1, jsonPiece))
                deltas.append(
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("input_json_delta")},
                                {QStringLiteral("partial_json"), input.mid(i, std::max(1, jsonPiece))}});
        } else if (type == QLatin1String("thinking")) {
            startBlock.insert(QStringLiteral("thinking"), QString());
            startBlock.insert(QStringLiteral("signature"), QString());
            deltas.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("thinking_delta")},
                                      {QStringLiteral("thinking"), block.value(QStringLiteral("thinking"))}});
            deltas.append(
                QJsonObject{{QStringLiteral("type"), QStringLiteral("signature_delta")},
                            {QStringLiteral("signature"), block.value(QStringLiteral("signature"))}});
        }
        events.append(sseEvent("content_block_start",
                               QJsonObject{{QStringLiteral("type"), QStringLiteral("content_block_start")},
                                           {QStringLiteral("index"), index},
                                           {QStringLiteral("content_block"), startBlock}}));
        for (qsizetype d = 0; d < deltas.size(); ++d) {
            events.append(sseEvent("content_block_delta", QJsonObject{{QStringLiteral("type"),
                                                                       QStringLiteral("content_block_delta")},
                                                                      {QStringLiteral("index"), index},
                                                                      {QStringLiteral("delta"), deltas[d]}}));
            if (d == 0)
                events.append(
                    sseEvent("ping", QJsonObject{{QStringLiteral("type"), QStringLiteral("ping")}}));
        }
        events.append(sseEvent("content_block_stop",
                               QJsonObject{{QStringLiteral("type"), QStringLiteral("content_block_stop")},
                                           {QStringLiteral("index"), index}}));
    }
    const QJsonObject finalUsage = json.value(QStringLiteral("usage")).toObject();
    events.append(sseEvent(
        "message_delta",
        QJsonObject{
            {QStringLiteral("type"), QStringLiteral("message_delta")},
            {QStringLiteral("delta"),
             QJsonObject{{QStringLiteral("stop_reason"), json.value(QStringLiteral("stop_reason"))},
                         {QStringLiteral("stop_sequence"), QJsonValue::Null}}},
            {QStringLiteral("usage"), QJsonObject{{QStringLiteral("output_tokens"),
                                                   finalUsage.value(QStringLiteral("output_tokens"))}}}}));
    events.append(
        sseEvent("message_stop", QJsonObject{{QStringLiteral("type"), QStringLiteral("message_stop")}}));
    Step step;
    step.kind = Step::Kind::Stream;
    step.contentType = "text/event-stream; charset=utf-8";
    step.chunks = recut(events, chunkBytes);
    return step;
}

FakeApiServer::Step FakeApiServer::error(int status, const QString& type, const QString& message,
                                         const Headers& headers)
{
    Step step;
    step.status = status;
    step.headers = headers;
    const QString requestId = QStringLiteral("req_fake_err_%1").arg(g_requestCounter++);
    bool hasRequestId = false;
    for (const auto& [name, value] : headers)
        hasRequestId = hasRequestId || name.toLower() == "request-id";
    if (!hasRequestId)
        step.headers.append({QByteArrayLiteral("request-id"), requestId.toLatin1()});
    step.body =
        compact(QJsonObject{{QStringLiteral("type"), QStringLiteral("error")},
                            {QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), type},
                                                                  {QStringLiteral("message"), message}}},
                            {QStringLiteral("request_id"), requestId}});
    return step;
}

FakeApiServer::Step FakeApiServer::streamError(const QString& type, const QString& message)
{
    Step step;
    step.kind = Step::Kind::Stream;
    step.contentType = "text/event-stream; charset=utf-8";
    QJsonObject start = messageJson(QJsonArray{}, QString(), usage(10, 1));
    start.insert(QStringLiteral("stop_reason"), QJsonValue::Null);
    step.chunks = {
        sseEvent("message_start", QJsonObject{{QStringLiteral("type"), QStringLiteral("message_start")},
                                              {QStringLiteral("message"), start}}),
        sseEvent("error",
                 QJsonObject{{QStringLiteral("type"), QStringLiteral("error")},
                             {QStringLiteral("error"), QJsonObject{{QStringLiteral("type"), type},
                                                                   {QStringLiteral("message"), message}}}})};
    return step;
}

FakeApiServer::Step FakeApiServer::malformedJson()
{
    Step step;
    step.body = R"({"id": "msg_bad", "type": "message", "content": [{"type": "text", "text": "trunc)";
    return step;
}

FakeApiServer::Step FakeApiServer::dropConnection()
{
    Step step;
    step.kind = Step::Kind::Drop;
    return step;
}

FakeApiServer::Step FakeApiServer::hang()
{
    Step step;
    step.kind = Step::Kind::Hang;
    return step;
}

FakeApiServer::Step FakeApiServer::redirect(const QUrl& location, int status)
{
    Step step;
    step.status = status;
    step.contentType.clear();
    step.headers.append({QByteArrayLiteral("location"), location.toEncoded()});
    return step;
}

FakeApiServer::Step FakeApiServer::delayed(Step step, int delayMs)
{
    step.delayMs = delayMs;
    return step;
}

// ---- OpenAI-compatible chat completions ----

QJsonObject FakeApiServer::chatUsage(qint64 prompt, qint64 completion, qint64 cached)
{
    QJsonObject u{{QStringLiteral("prompt_tokens"), prompt},
                  {QStringLiteral("completion_tokens"), completion},
                  {QStringLiteral("total_tokens"), prompt + completion}};
    if (cached > 0)
        u.insert(QStringLiteral("prompt_tokens_details"),
                 QJsonObject{{QStringLiteral("cached_tokens"), cached}});
    return u;
}

QJsonObject FakeApiServer::chatCompletionJson(const QJsonObject& message, const QString& finishReason,
                                              const QJsonObject& usage)
{
    return QJsonObject{
        {QStringLiteral("id"), QStringLiteral("chatcmpl-fake%1").arg(g_requestCounter++)},
        {QStringLiteral("object"), QStringLiteral("chat.completion")},
        {QStringLiteral("created"), 1700000000},
        {QStringLiteral("model"), QStringLiteral("fake-model")},
        {QStringLiteral("choices"), QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                           {QStringLiteral("message"), message},
                                                           {QStringLiteral("finish_reason"), finishReason}}}},
        {QStringLiteral("usage"), usage}};
}

FakeApiServer::Step FakeApiServer::chatReply(const QString& text, const QString& finishReason,
                                             const QJsonObject& usage)
{
    return message(chatCompletionJson(
        QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), text}},
        finishReason, usage));
}

FakeApiServer::Step FakeApiServer::chatToolCallReply(const QString& name, const QJsonObject& arguments,
                                                     const QString& id, const QJsonObject& usage)
{
    static std::atomic<int> counter{1};
    const QJsonObject call{
        {QStringLiteral("id"), id.isEmpty() ? QStringLiteral("call_fake_%1").arg(counter++) : id},
        {QStringLiteral("type"), QStringLiteral("function")},
        {QStringLiteral("function"),
         QJsonObject{{QStringLiteral("name"), name},
                     {QStringLiteral("arguments"), QString::fromUtf8(compact(arguments))}}}};
    return message(chatCompletionJson(QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                                  {QStringLiteral("content"), QJsonValue::Null},
                                                  {QStringLiteral("tool_calls"), QJsonArray{call}}},
                                      QStringLiteral("tool_calls"), usage));
}

FakeApiServer::Step FakeApiServer::chatStream(const QString& text, const QString& toolName,
                                              const QJsonObject& toolArguments, const QJsonObject& usage)
{
    const QString id = QStringLiteral("chatcmpl-fake%1").arg(g_requestCounter++);
    auto chunk = [&](const QJsonObject& delta, const QJsonValue& finish) -> QByteArray {
        const QJsonObject data{
            {QStringLiteral("id"), id},
            {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
            {QStringLiteral("model"), QStringLiteral("fake-model")},
            {QStringLiteral("choices"), QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                               {QStringLiteral("delta"), delta},
                                                               {QStringLiteral("finish_reason"), finish}}}}};
        return "data: " + compact(data) + "\n\n";
    };
    QList<QByteArray> chunks;
    chunks.append(chunk(QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                    {QStringLiteral("content"), QString()}},
                        QJsonValue::Null));
    for (const QByteArray& piece : splitText(text, 3))
        chunks.append(
            chunk(QJsonObject{{QStringLiteral("content"), QString::fromUtf8(piece)}}, QJsonValue::Null));
    if (!toolName.isEmpty()) {
        chunks.append(chunk(
            QJsonObject{{QStringLiteral("tool_calls"),
                         QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                {QStringLiteral("id"), QStringLiteral("call_stream_1")},
                                                {QStringLiteral("type"), QStringLiteral("function")},
                                                {QStringLiteral("function"),
                                                 QJsonObject{{QStringLiteral("name"), toolName},
                                                             {QStringLiteral("arguments"), QString()}}}}}}},
            QJsonValue::Null));
        const QString arguments = QString::fromUtf8(compact(toolArguments));
        for (qsizetype i = 0; i < arguments.size(); i += 6)
            chunks.append(chunk(QJsonObject{{QStringLiteral("tool_calls"),
                                             QJsonArray{QJsonObject{{QStringLiteral("index"), 0},
                                                                    {QStringLiteral("function"),
                                                                     QJsonObject{{QStringLiteral("arguments"),
                                                                                  arguments.mid(i, 6)}}}}}}},
                                QJsonValue::Null));
    }
    chunks.append(
        chunk(QJsonObject{}, toolName.isEmpty() ? QStringLiteral("stop") : QStringLiteral("tool_calls")));
    chunks.append("data: " +
                  compact(QJsonObject{{QStringLiteral("id"), id},
                                      {QStringLiteral("object"), QStringLiteral("chat.completion.chunk")},
                                      {QStringLiteral("model"), QStringLiteral("fake-model")},
                                      {QStringLiteral("choices"), QJsonArray{}},
                                      {QStringLiteral("usage"), usage}}) +
                  "\n\n");
    chunks.append("data: [DONE]\n\n");
    Step step;
    step.kind = Step::Kind::Stream;
    step.contentType = "text/event-stream";
    step.chunks = chunks;
    return step;
}

FakeApiServer::Step FakeApiServer::chatError(int status, const QString& type, const QString& message,
                                             const Headers& headers)
{
    Step step;
    step.status = status;
    step.headers = headers;
    step.body = compact(
        QJsonObject{{QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), message},
                                                          {QStringLiteral("type"), type},
                                                          {QStringLiteral("code"), QJsonValue::Null}}}});
    return step;
}

QJsonObject FakeApiServer::chatToolCall(const QString& id, const QString& name, const QJsonObject& arguments)
{
    return chatToolCallRaw(id, name, QString::fromUtf8(compact(arguments)));
}

QJsonObject FakeApiServer::chatToolCallRaw(const QString& id, const QString& name, const QString& arguments)
{
    return QJsonObject{{QStringLiteral("id"), id},
                       {QStringLiteral("type"), QStringLiteral("function")},
                       {QStringLiteral("function"), QJsonObject{{QStringLiteral("name"), name},
                                                                {QStringLiteral("arguments"), arguments}}}};
}

FakeApiServer::Step FakeApiServer::chatToolCallsReply(const QJsonArray& calls, const QString& text,
                                                      const QJsonObject& usage)
{
    return message(
        chatCompletionJson(QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                       {QStringLiteral("content"),
                                        text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text)},
                                       {QStringLiteral("tool_calls"), calls}},
                           QStringLiteral("tool_calls"), usage));
}

FakeApiServer::Step FakeApiServer::chatMalformed()
{
    Step step;
    step.body = R"({"id": "chatcmpl-bad", "object": "chat.completion", "choices": [{"index": 0, "mess)";
    return step;
}

} // namespace ciu::test
