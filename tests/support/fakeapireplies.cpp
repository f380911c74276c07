// The reply builders of FakeApiServer: the wire formats of the Claude Messages API and of OpenAI-compatible
// chat completions (complete bodies, server-sent event streams, error bodies), apart from the HTTP server
// that plays them back.
#include "tests/support/fakeapiserver.h"
#include "tests/support/fakeapiwire.h"

#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>
#include <atomic>
#include <cmath>

namespace ciu::test {

int wire::nextId()
{
    static std::atomic<int> counter{1};
    return counter++;
}

namespace {
QByteArray compact(const QJsonObject& object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

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
    return QJsonObject{{QStringLiteral("id"), QStringLiteral("msg_fake_%1").arg(wire::nextId())},
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
    const QString requestId = QStringLiteral("req_fake_err_%1").arg(wire::nextId());
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

FakeApiServer::Step FakeApiServer::stalled(Step step, int events)
{
    // Re-cut the stream at event boundaries ("\n\n") and keep the first `events`.
    const QByteArray all = step.chunks.join();
    QList<QByteArray> kept;
    qsizetype start = 0;
    for (int i = 0; i < events && start < all.size(); ++i) {
        const qsizetype end = all.indexOf("\n\n", start);
        const qsizetype stop = end < 0 ? all.size() : end + 2;
        kept.append(all.mid(start, stop - start));
        start = stop;
    }
    step.chunks = kept;
    step.stallAfterChunks = true;
    return step;
}

FakeApiServer::Step FakeApiServer::stalledBody(Step step, int bytes)
{
    step.declaredLength = step.body.size();
    step.body = step.body.left(bytes);
    return step;
}

FakeApiServer::Step FakeApiServer::hugeTextReply(qint64 bytes)
{
    Step step = textReply(QStringLiteral("x"));
    const qsizetype padding = qMax<qsizetype>(0, bytes - step.body.size());
    const qsizetype at = step.body.indexOf("\"x\"") + 1; // inside the text value
    step.body.insert(at, QByteArray(padding, ' '));
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
        {QStringLiteral("id"), QStringLiteral("chatcmpl-fake%1").arg(wire::nextId())},
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
    const QString id = QStringLiteral("chatcmpl-fake%1").arg(wire::nextId());
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

QList<double> FakeApiServer::defaultEmbedding(const QString& text, int dimension)
{
    QList<double> vector(std::max(1, dimension), 0.0);
    static const QRegularExpression word(QStringLiteral("[\\p{L}\\p{N}]+"));
    auto it = word.globalMatch(text.toLower());
    double sum = 0;
    while (it.hasNext()) {
        quint32 hash = 2166136261u;
        for (const char byte : it.next().captured().toUtf8()) {
            hash ^= quint8(byte);
            hash *= 16777619u;
        }
        vector[qsizetype(hash % quint32(vector.size()))] += 1.0;
    }
    for (const double v : std::as_const(vector))
        sum += v * v;
    if (sum == 0) {
        vector[0] = 1.0;
        return vector;
    }
    for (double& v : vector)
        v /= std::sqrt(sum);
    return vector;
}

FakeApiServer::Step FakeApiServer::embeddingsReply(const QList<QList<double>>& vectors, const QString& model,
                                                   qint64 promptTokens)
{
    QJsonArray data;
    for (qsizetype i = 0; i < vectors.size(); ++i) {
        QJsonArray numbers;
        for (const double v : vectors.at(i))
            numbers.append(v);
        data.append(QJsonObject{{QStringLiteral("object"), QStringLiteral("embedding")},
                                {QStringLiteral("index"), int(i)},
                                {QStringLiteral("embedding"), numbers}});
    }
    Step step;
    step.body = compact(
        QJsonObject{{QStringLiteral("object"), QStringLiteral("list")},
                    {QStringLiteral("data"), data},
                    {QStringLiteral("model"), model},
                    {QStringLiteral("usage"), QJsonObject{{QStringLiteral("prompt_tokens"), promptTokens},
                                                          {QStringLiteral("total_tokens"), promptTokens}}}});
    return step;
}

FakeApiServer::Step FakeApiServer::chatMalformed()
{
    Step step;
    step.body = R"({"id": "chatcmpl-bad", "object": "chat.completion", "choices": [{"index": 0, "mess)";
    return step;
}

} // namespace ciu::test
