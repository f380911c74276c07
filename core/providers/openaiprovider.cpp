#include "core/providers/openaiprovider.h"

#include "core/providers/sseparser.h"
#include "core/providers/wirecommon.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <map>

namespace ciu::director {

namespace {

std::optional<QJsonObject> imagePart(const ContentBlock& block, const ProviderRequest& request,
                                     const ScreenshotScaler& scaler, QString* error)
{
    const auto encoded = wire::encodeImage(block, scaler, request.imageFormat, request.jpegQuality, error);
    if (!encoded)
        return std::nullopt;
    const QString url = QStringLiteral("data:") + encoded->mediaType + QStringLiteral(";base64,") +
                        QString::fromLatin1(encoded->data.toBase64());
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("image_url")},
                       {QStringLiteral("image_url"), QJsonObject{{QStringLiteral("url"), url}}}};
}

QJsonObject textPart(const QString& text)
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}};
}

// A user message from parts: a plain string when it is text only (the widest compatibility).
QJsonObject userMessage(const QJsonArray& parts)
{
    bool textOnly = true;
    QStringList texts;
    for (const QJsonValue& part : parts) {
        if (part.toObject().value(QStringLiteral("type")).toString() != QLatin1String("text"))
            textOnly = false;
        else
            texts.append(part.toObject().value(QStringLiteral("text")).toString());
    }
    return QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                       {QStringLiteral("content"),
                        textOnly ? QJsonValue(texts.join(QLatin1Char('\n'))) : QJsonValue(parts)}};
}

void readUsage(const QJsonObject& u, Usage& usage)
{
    const qint64 prompt = wire::tokenCount(u, "prompt_tokens");
    const qint64 cached =
        wire::tokenCount(u.value(QStringLiteral("prompt_tokens_details")).toObject(), "cached_tokens");
    usage.cacheReadInputTokens = std::min(cached, prompt);
    usage.inputTokens = prompt - usage.cacheReadInputTokens;
    usage.outputTokens = wire::tokenCount(u, "completion_tokens");
    usage.cacheCreationInputTokens = 0;
}

ContentBlock toolCallBlock(const QString& id, const QString& name, const QJsonValue& arguments)
{
    ContentBlock block = ContentBlock::makeToolUse(id, name, {});
    if (arguments.isObject()) {
        block.input = arguments.toObject();
        return block;
    }
    const QString text = arguments.toString().trimmed();
    if (text.isEmpty())
        return block;
    if (const auto input = wire::parseObjectText(text))
        block.input = *input;
    else
        block.inputError = QStringLiteral("the arguments of %1 are not a JSON object").arg(name);
    return block;
}

class OpenAiStream final : public wire::SseStreamHandler
{
protected:
    bool complete(ProviderResponse& response, QString* error) override
    {
        if (!m_done && m_finishReason.isEmpty()) {
            *error = QStringLiteral("the stream ended before [DONE]");
            return false;
        }
        response.content.clear();
        if (!m_text.isEmpty())
            response.content.append(ContentBlock::makeText(m_text));
        for (const auto& [index, call] : m_calls)
            response.content.append(toolCallBlock(call.id, call.name, QJsonValue(call.arguments)));
        response.messageId = m_id;
        response.model = m_model;
        response.stopReasonText = m_finishReason;
        response.stopReason = OpenAiProvider::stopReasonFromFinishReason(m_finishReason);
        if (!m_refusal.isEmpty()) {
            response.content.prepend(ContentBlock::makeText(m_refusal));
            response.stopReason = StopReason::Refusal;
        }
        readUsage(m_usage, response.usage);
        return true;
    }

    bool handle(const SseParser::Event& event, ProviderError* kind, QString* error) override
    {
        if (event.data.trimmed() == "[DONE]") {
            m_done = true;
            return true;
        }
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(event.data, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
            *kind = ProviderError::MalformedResponse;
            *error = QStringLiteral("malformed stream chunk: %1").arg(parseError.errorString());
            return false;
        }
        const QJsonObject chunk = doc.object();
        if (chunk.contains(QStringLiteral("error"))) {
            const QJsonObject e = chunk.value(QStringLiteral("error")).toObject();
            *kind = ProviderError::StreamError;
            *error =
                QStringLiteral("error in the stream: %1").arg(e.value(QStringLiteral("message")).toString());
            return false;
        }
        if (m_id.isEmpty())
            m_id = chunk.value(QStringLiteral("id")).toString();
        if (m_model.isEmpty())
            m_model = chunk.value(QStringLiteral("model")).toString();
        if (chunk.value(QStringLiteral("usage")).isObject())
            m_usage = chunk.value(QStringLiteral("usage")).toObject();
        const QJsonArray choices = chunk.value(QStringLiteral("choices")).toArray();
        if (choices.isEmpty())
            return true;
        const QJsonObject choice = choices.first().toObject();
        const QJsonObject delta = choice.value(QStringLiteral("delta")).toObject();
        const QString text = delta.value(QStringLiteral("content")).toString();
        if (!text.isEmpty()) {
            m_text += text;
            addTextDelta(text);
        }
        m_refusal += delta.value(QStringLiteral("refusal")).toString();
        for (const QJsonValue& value : delta.value(QStringLiteral("tool_calls")).toArray()) {
            const QJsonObject call = value.toObject();
            const int index = call.value(QStringLiteral("index")).toInt(int(m_calls.size()));
            Call& c = m_calls[index];
            if (call.contains(QStringLiteral("id")) && !call.value(QStringLiteral("id")).toString().isEmpty())
                c.id = call.value(QStringLiteral("id")).toString();
            const QJsonObject function = call.value(QStringLiteral("function")).toObject();
            c.name += function.value(QStringLiteral("name")).toString();
            c.arguments += function.value(QStringLiteral("arguments")).toString();
        }
        const QString finish = choice.value(QStringLiteral("finish_reason")).toString();
        if (!finish.isEmpty())
            m_finishReason = finish;
        return true;
    }

private:
    struct Call
    {
        QString id;
        QString name;
        QString arguments;
    };

    QString m_id;
    QString m_model;
    QString m_text;
    QString m_refusal;
    QString m_finishReason;
    QJsonObject m_usage;
    std::map<int, Call> m_calls;
    bool m_done = false;
};

} // namespace

OpenAiProvider::OpenAiProvider(ProviderConfig config, QObject* parent)
    : Provider(std::move(config), parent)
{
}

QJsonObject OpenAiProvider::computerFunctionSchema(const ToolDefinition& tool, QSize displaySize)
{
    QJsonArray actions{QStringLiteral("key"),
                       QStringLiteral("type"),
                       QStringLiteral("mouse_move"),
                       QStringLiteral("left_click"),
                       QStringLiteral("left_click_drag"),
                       QStringLiteral("right_click"),
                       QStringLiteral("middle_click"),
                       QStringLiteral("double_click"),
                       QStringLiteral("screenshot"),
                       QStringLiteral("cursor_position")};
    if (tool.version != ComputerToolVersion::V20241022) {
        for (const char* a :
             {"left_mouse_down", "left_mouse_up", "scroll", "hold_key", "wait", "triple_click"})
            actions.append(QString::fromLatin1(a));
    }
    if (tool.version == ComputerToolVersion::V20251124 && tool.enableZoom)
        actions.append(QStringLiteral("zoom"));
    const QJsonObject point{
        {QStringLiteral("type"), QStringLiteral("array")},
        {QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}}},
        {QStringLiteral("minItems"), 2},
        {QStringLiteral("maxItems"), 2}};
    QJsonObject properties{
        {QStringLiteral("action"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}, {QStringLiteral("enum"), actions}}},
        {QStringLiteral("coordinate"),
         QJsonObject{
             {QStringLiteral("type"), QStringLiteral("array")},
             {QStringLiteral("items"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}}},
             {QStringLiteral("description"), QStringLiteral("[x, y] in pixels on the %1x%2 screenshot")
                                                 .arg(displaySize.width())
                                                 .arg(displaySize.height())}}},
        {QStringLiteral("start_coordinate"), point},
        {QStringLiteral("text"),
         QJsonObject{
             {QStringLiteral("type"), QStringLiteral("string")},
             {QStringLiteral("description"), QStringLiteral("text to type, or xdotool key names (ctrl+s)")}}},
        {QStringLiteral("scroll_direction"),
         QJsonObject{{QStringLiteral("type"), QStringLiteral("string")},
                     {QStringLiteral("enum"), QJsonArray{QStringLiteral("up"), QStringLiteral("down"),
                                                         QStringLiteral("left"), QStringLiteral("right")}}}},
        {QStringLiteral("scroll_amount"), QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}}},
        {QStringLiteral("duration"), QJsonObject{{QStringLiteral("type"), QStringLiteral("number")}}},
    };
    if (tool.version == ComputerToolVersion::V20251124 && tool.enableZoom)
        properties.insert(QStringLiteral("region"),
                          QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                      {QStringLiteral("items"),
                                       QJsonObject{{QStringLiteral("type"), QStringLiteral("integer")}}}});
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                       {QStringLiteral("properties"), properties},
                       {QStringLiteral("required"), QJsonArray{QStringLiteral("action")}}};
}

std::optional<QJsonObject> OpenAiProvider::buildBody(const ProviderRequest& request, const QString& model,
                                                     ScreenshotScaler* scalerOut, QString* error)
{
    const ScreenshotScaler scaler = wire::scalerFor(request);
    if (scalerOut)
        *scalerOut = scaler;
    QString buildError;
    auto fail = [&]() -> std::optional<QJsonObject> {
        if (error)
            *error = buildError;
        return std::nullopt;
    };

    QJsonObject body{{QStringLiteral("model"), model}, {QStringLiteral("max_tokens"), request.maxTokens}};
    QJsonArray messages;
    if (!request.system.isEmpty())
        messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                                    {QStringLiteral("content"), request.system}});
    for (const Message& message : wire::limitImages(request.messages, request.keepScreenshots)) {
        if (message.role == Message::Role::Assistant) {
            QStringList texts;
            QJsonArray calls;
            for (const ContentBlock& block : message.blocks) {
                if (block.type == ContentBlock::Type::Text) {
                    texts.append(block.text);
                } else if (block.type == ContentBlock::Type::ToolUse) {
                    calls.append(QJsonObject{
                        {QStringLiteral("id"), block.id},
                        {QStringLiteral("type"), QStringLiteral("function")},
                        {QStringLiteral("function"),
                         QJsonObject{{QStringLiteral("name"), block.name},
                                     {QStringLiteral("arguments"),
                                      QString::fromUtf8(
                                          QJsonDocument(block.input).toJson(QJsonDocument::Compact))}}}});
                }
                // thinking blocks have no equivalent here
            }
            QJsonObject out{{QStringLiteral("role"), QStringLiteral("assistant")}};
            out.insert(QStringLiteral("content"), texts.isEmpty() && !calls.isEmpty()
                                                      ? QJsonValue()
                                                      : QJsonValue(texts.join(QLatin1Char('\n'))));
            if (!calls.isEmpty())
                out.insert(QStringLiteral("tool_calls"), calls);
            messages.append(out);
            continue;
        }
        // User: tool results become `tool` messages (text only); everything else, and the images of the
        // tool results, go into one following user message.
        QJsonArray parts;
        for (const ContentBlock& block : message.blocks) {
            if (block.type == ContentBlock::Type::ToolResult) {
                QStringList texts;
                int images = 0;
                for (const ContentBlock& inner : block.content) {
                    if (inner.type == ContentBlock::Type::Text) {
                        texts.append(inner.text);
                    } else if (inner.isImage()) {
                        const auto part = imagePart(inner, request, scaler, &buildError);
                        if (!part)
                            return fail();
                        parts.append(
                            textPart(QStringLiteral("Screenshot for tool call %1:").arg(block.toolUseId)));
                        parts.append(*part);
                        ++images;
                    }
                }
                QString text = texts.join(QLatin1Char('\n'));
                if (block.isError)
                    text = QStringLiteral("Error: ") + text;
                if (images > 0)
                    text += QStringLiteral("%1(screenshot in the next message)")
                                .arg(text.isEmpty() ? QString() : QStringLiteral(" "));
                if (text.isEmpty())
                    text = QStringLiteral("(no output)");
                messages.append(QJsonObject{{QStringLiteral("role"), QStringLiteral("tool")},
                                            {QStringLiteral("tool_call_id"), block.toolUseId},
                                            {QStringLiteral("content"), text}});
            } else if (block.type == ContentBlock::Type::Text) {
                parts.append(textPart(block.text));
            } else if (block.isImage()) {
                const auto part = imagePart(block, request, scaler, &buildError);
                if (!part)
                    return fail();
                parts.append(*part);
            }
        }
        if (!parts.isEmpty())
            messages.append(userMessage(parts));
    }
    body.insert(QStringLiteral("messages"), messages);

    if (!request.tools.isEmpty()) {
        QJsonArray tools;
        for (const ToolDefinition& tool : request.tools) {
            QJsonObject function;
            if (tool.kind == ToolDefinition::Kind::Computer) {
                function.insert(QStringLiteral("name"),
                                tool.name.isEmpty() ? QStringLiteral("computer") : tool.name);
                function.insert(
                    QStringLiteral("description"),
                    QStringLiteral("Use the mouse and keyboard of a %1x%2 pixel screen and take "
                                   "screenshots. Coordinates are pixels of the screenshots you see.")
                        .arg(scaler.targetSize().width())
                        .arg(scaler.targetSize().height()));
                function.insert(QStringLiteral("parameters"),
                                computerFunctionSchema(tool, scaler.targetSize()));
            } else {
                function.insert(QStringLiteral("name"), tool.name);
                if (!tool.description.isEmpty())
                    function.insert(QStringLiteral("description"), tool.description);
                function.insert(QStringLiteral("parameters"),
                                tool.inputSchema.isEmpty()
                                    ? QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                                                  {QStringLiteral("properties"), QJsonObject{}}}
                                    : tool.inputSchema);
            }
            tools.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("function")},
                                     {QStringLiteral("function"), function}});
        }
        body.insert(QStringLiteral("tools"), tools);
    }
    if (request.toolChoice) {
        switch (request.toolChoice->mode) {
        case ToolChoice::Mode::Auto:
            body.insert(QStringLiteral("tool_choice"), QStringLiteral("auto"));
            break;
        case ToolChoice::Mode::Any:
            body.insert(QStringLiteral("tool_choice"), QStringLiteral("required"));
            break;
        case ToolChoice::Mode::None:
            body.insert(QStringLiteral("tool_choice"), QStringLiteral("none"));
            break;
        case ToolChoice::Mode::Tool:
            body.insert(QStringLiteral("tool_choice"),
                        QJsonObject{{QStringLiteral("type"), QStringLiteral("function")},
                                    {QStringLiteral("function"),
                                     QJsonObject{{QStringLiteral("name"), request.toolChoice->name}}}});
            break;
        }
        if (request.toolChoice->disableParallelToolUse && !request.tools.isEmpty())
            body.insert(QStringLiteral("parallel_tool_calls"), false);
    }
    if (request.stream) {
        body.insert(QStringLiteral("stream"), true);
        body.insert(QStringLiteral("stream_options"), QJsonObject{{QStringLiteral("include_usage"), true}});
    }
    if (request.temperature)
        body.insert(QStringLiteral("temperature"), *request.temperature);
    return body;
}

std::optional<Provider::HttpRequest> OpenAiProvider::buildHttpRequest(const ProviderRequest& request,
                                                                      QString* error)
{
    HttpRequest http;
    if (!request.embeddingInputs.isEmpty()) {
        http.path = QStringLiteral("/v1/embeddings");
        http.body = QJsonDocument(buildEmbeddingsBody(request.embeddingInputs, modelFor(request)))
                        .toJson(QJsonDocument::Compact);
    } else {
        http.path = QStringLiteral("/v1/chat/completions");
        const auto body = buildBody(request, modelFor(request), &http.scaler, error);
        if (!body)
            return std::nullopt;
        http.body = QJsonDocument(*body).toJson(QJsonDocument::Compact);
    }
    if (!config().apiKey.isEmpty())
        http.headers.append(
            {QByteArrayLiteral("authorization"), QByteArray("Bearer " + config().apiKey.toUtf8())});
    return http;
}

StopReason OpenAiProvider::stopReasonFromFinishReason(const QString& finishReason)
{
    if (finishReason == QLatin1String("stop"))
        return StopReason::EndTurn;
    if (finishReason == QLatin1String("length"))
        return StopReason::MaxTokens;
    if (finishReason == QLatin1String("tool_calls") || finishReason == QLatin1String("function_call"))
        return StopReason::ToolUse;
    if (finishReason == QLatin1String("content_filter"))
        return StopReason::Refusal;
    return StopReason::Unknown;
}

bool OpenAiProvider::parseCompletion(const QJsonObject& completion, ProviderResponse& response,
                                     QString* error)
{
    const QJsonArray choices = completion.value(QStringLiteral("choices")).toArray();
    if (choices.isEmpty() || !choices.first().isObject()) {
        *error = QStringLiteral("the completion has no choices");
        return false;
    }
    const QJsonObject choice = choices.first().toObject();
    const QJsonObject message = choice.value(QStringLiteral("message")).toObject();
    response.content.clear();
    const QJsonValue content = message.value(QStringLiteral("content"));
    if (content.isString() && !content.toString().isEmpty()) {
        response.content.append(ContentBlock::makeText(content.toString()));
    } else if (content.isArray()) {
        for (const QJsonValue& part : content.toArray()) {
            const QString text = part.toObject().value(QStringLiteral("text")).toString();
            if (!text.isEmpty())
                response.content.append(ContentBlock::makeText(text));
        }
    }
    for (const QJsonValue& value : message.value(QStringLiteral("tool_calls")).toArray()) {
        const QJsonObject call = value.toObject();
        const QJsonObject function = call.value(QStringLiteral("function")).toObject();
        response.content.append(toolCallBlock(call.value(QStringLiteral("id")).toString(),
                                              function.value(QStringLiteral("name")).toString(),
                                              function.value(QStringLiteral("arguments"))));
    }
    response.messageId = completion.value(QStringLiteral("id")).toString();
    response.model = completion.value(QStringLiteral("model")).toString();
    response.stopReasonText = choice.value(QStringLiteral("finish_reason")).toString();
    response.stopReason = stopReasonFromFinishReason(response.stopReasonText);
    const QString refusal = message.value(QStringLiteral("refusal")).toString();
    if (!refusal.isEmpty()) {
        response.content.prepend(ContentBlock::makeText(refusal));
        response.stopReason = StopReason::Refusal;
    }
    readUsage(completion.value(QStringLiteral("usage")).toObject(), response.usage);
    return true;
}

bool OpenAiProvider::parseResponseBody(const QByteArray& body, ProviderResponse& response, QString* error)
{
    const auto object = wire::parseBodyObject(body, error);
    return object && parseCompletion(*object, response, error);
}

QJsonObject OpenAiProvider::buildEmbeddingsBody(const QStringList& texts, const QString& model)
{
    return {{QStringLiteral("model"), model}, {QStringLiteral("input"), QJsonArray::fromStringList(texts)}};
}

bool OpenAiProvider::parseEmbeddings(const QJsonObject& reply, qsizetype count, ProviderResponse& response,
                                     QString* error)
{
    const QJsonValue data = reply.value(QStringLiteral("data"));
    if (!data.isArray()) {
        *error = QStringLiteral("the embeddings reply has no \"data\" list");
        return false;
    }
    const QJsonArray items = data.toArray();
    if (items.size() != count) {
        *error = QStringLiteral("wrong vector count: %1 vectors for %2 texts").arg(items.size()).arg(count);
        return false;
    }
    QList<QList<double>> vectors(count);
    QList<bool> seen(count, false);
    for (qsizetype i = 0; i < items.size(); ++i) {
        const QJsonObject item = items.at(i).toObject();
        const QJsonValue indexValue = item.value(QStringLiteral("index"));
        const qint64 index = indexValue.isUndefined() ? i : indexValue.toInteger(-1);
        if (!indexValue.isUndefined() && !indexValue.isDouble()) {
            *error = QStringLiteral("vector %1 has no numeric index").arg(i);
            return false;
        }
        if (index < 0 || index >= count || seen.at(index)) {
            *error = QStringLiteral("vector %1 has a wrong or repeated index %2").arg(i).arg(index);
            return false;
        }
        seen[index] = true;
        const QJsonValue embedding = item.value(QStringLiteral("embedding"));
        if (embedding.isString()) {
            *error = QStringLiteral("vector %1 is base64 text, not a list of numbers").arg(index);
            return false;
        }
        const QJsonArray numbers = embedding.toArray();
        if (!embedding.isArray() || numbers.isEmpty()) {
            *error = QStringLiteral("vector %1 is not a list of numbers").arg(index);
            return false;
        }
        QList<double>& vector = vectors[index];
        vector.reserve(numbers.size());
        for (const QJsonValue& number : numbers) {
            if (!number.isDouble() || !std::isfinite(number.toDouble())) {
                *error = QStringLiteral("vector %1 holds something that is not a number").arg(index);
                return false;
            }
            vector.append(number.toDouble());
        }
    }
    for (qsizetype i = 1; i < vectors.size(); ++i) {
        if (vectors.at(i).size() != vectors.first().size()) {
            *error = QStringLiteral("dimension mismatch: vector %1 has %2 numbers, vector 0 has %3")
                         .arg(i)
                         .arg(vectors.at(i).size())
                         .arg(vectors.first().size());
            return false;
        }
    }
    response.embeddings = std::move(vectors);
    response.model = reply.value(QStringLiteral("model")).toString();
    response.stopReason = StopReason::EndTurn;
    readUsage(reply.value(QStringLiteral("usage")).toObject(), response.usage);
    return true;
}

bool OpenAiProvider::parseEmbeddingsBody(const QByteArray& body, qsizetype count, ProviderResponse& response,
                                         QString* error)
{
    const auto object = wire::parseBodyObject(body, error);
    return object && parseEmbeddings(*object, count, response, error);
}

std::unique_ptr<Provider::StreamHandler> OpenAiProvider::createStreamHandler()
{
    return std::make_unique<OpenAiStream>();
}

QString OpenAiProvider::errorMessageFromBody(int status, const QByteArray& body) const
{
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    const QJsonValue e = object.value(QStringLiteral("error"));
    if (e.isObject()) {
        const QJsonObject eo = e.toObject();
        QString type = eo.value(QStringLiteral("type")).toString();
        if (type.isEmpty())
            type = eo.value(QStringLiteral("code")).toString();
        return QStringLiteral("HTTP %1 %2: %3")
            .arg(status)
            .arg(type, eo.value(QStringLiteral("message")).toString());
    }
    if (e.isString())
        return QStringLiteral("HTTP %1: %2").arg(status).arg(e.toString());
    return wire::plainErrorMessage(status, body);
}

} // namespace ciu::director
