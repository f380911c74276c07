#include "core/providers/anthropicprovider.h"

#include "core/providers/sseparser.h"
#include "core/providers/wirecommon.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <map>

namespace ciu::director {

namespace {

QJsonObject ephemeral()
{
    return QJsonObject{{QStringLiteral("type"), QStringLiteral("ephemeral")}};
}

struct BuildContext
{
    const ScreenshotScaler& scaler;
    const ProviderRequest& request;
    QString error;
};

std::optional<QJsonObject> blockToJson(const ContentBlock& block, BuildContext& ctx)
{
    switch (block.type) {
    case ContentBlock::Type::Text:
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                           {QStringLiteral("text"), block.text}};
    case ContentBlock::Type::Image: {
        const auto encoded = wire::encodeImage(block, ctx.scaler, ctx.request.imageFormat,
                                               ctx.request.jpegQuality, &ctx.error);
        if (!encoded)
            return std::nullopt;
        return QJsonObject{
            {QStringLiteral("type"), QStringLiteral("image")},
            {QStringLiteral("source"),
             QJsonObject{{QStringLiteral("type"), QStringLiteral("base64")},
                         {QStringLiteral("media_type"), encoded->mediaType},
                         {QStringLiteral("data"), QString::fromLatin1(encoded->data.toBase64())}}}};
    }
    case ContentBlock::Type::ToolUse:
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_use")},
                           {QStringLiteral("id"), block.id},
                           {QStringLiteral("name"), block.name},
                           {QStringLiteral("input"), block.input}};
    case ContentBlock::Type::ToolResult: {
        QJsonObject out{{QStringLiteral("type"), QStringLiteral("tool_result")},
                        {QStringLiteral("tool_use_id"), block.toolUseId}};
        QJsonArray content;
        for (const ContentBlock& inner : block.content) {
            if (inner.type != ContentBlock::Type::Text && inner.type != ContentBlock::Type::Image) {
                ctx.error = QStringLiteral("a tool_result may only hold text and image blocks");
                return std::nullopt;
            }
            const auto json = blockToJson(inner, ctx);
            if (!json)
                return std::nullopt;
            content.append(*json);
        }
        if (!content.isEmpty())
            out.insert(QStringLiteral("content"), content);
        if (block.isError)
            out.insert(QStringLiteral("is_error"), true);
        return out;
    }
    case ContentBlock::Type::Thinking:
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("thinking")},
                           {QStringLiteral("thinking"), block.text},
                           {QStringLiteral("signature"), block.signature}};
    case ContentBlock::Type::RedactedThinking:
        return QJsonObject{{QStringLiteral("type"), QStringLiteral("redacted_thinking")},
                           {QStringLiteral("data"), block.data}};
    case ContentBlock::Type::Other:
        return block.raw;
    }
    ctx.error = QStringLiteral("unknown content block type");
    return std::nullopt;
}

QJsonObject toolToJson(const ToolDefinition& tool, const ScreenshotScaler& scaler)
{
    if (tool.kind == ToolDefinition::Kind::Computer) {
        QJsonObject out{
            {QStringLiteral("type"), toolTypeName(tool.version)},
            {QStringLiteral("name"), tool.name.isEmpty() ? QStringLiteral("computer") : tool.name},
            {QStringLiteral("display_width_px"), scaler.targetSize().width()},
            {QStringLiteral("display_height_px"), scaler.targetSize().height()}};
        if (tool.displayNumber >= 0)
            out.insert(QStringLiteral("display_number"), tool.displayNumber);
        if (tool.enableZoom && tool.version == ComputerToolVersion::V20251124)
            out.insert(QStringLiteral("enable_zoom"), true);
        return out;
    }
    QJsonObject schema = tool.inputSchema;
    if (schema.isEmpty())
        schema = QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                             {QStringLiteral("properties"), QJsonObject{}}};
    QJsonObject out{{QStringLiteral("name"), tool.name}, {QStringLiteral("input_schema"), schema}};
    if (!tool.description.isEmpty())
        out.insert(QStringLiteral("description"), tool.description);
    return out;
}

void readUsage(const QJsonObject& u, Usage& usage)
{
    usage.inputTokens = wire::tokenCount(u, "input_tokens");
    usage.outputTokens = wire::tokenCount(u, "output_tokens");
    usage.cacheCreationInputTokens = wire::tokenCount(u, "cache_creation_input_tokens");
    usage.cacheReadInputTokens = wire::tokenCount(u, "cache_read_input_tokens");
}

ProviderError errorForType(const QString& type)
{
    if (type == QLatin1String("overloaded_error"))
        return ProviderError::Overloaded;
    if (type == QLatin1String("rate_limit_error"))
        return ProviderError::RateLimited;
    if (type == QLatin1String("api_error") || type == QLatin1String("timeout_error"))
        return ProviderError::Server;
    return ProviderError::StreamError;
}

class AnthropicStream final : public wire::SseStreamHandler
{
protected:
    bool complete(ProviderResponse& response, QString* error) override
    {
        if (!m_started) {
            *error = QStringLiteral("the event stream has no message_start");
            return false;
        }
        if (!m_stopped) {
            *error = QStringLiteral("the event stream ended before message_stop");
            return false;
        }
        QJsonArray content;
        for (const auto& [index, block] : m_blocks)
            content.append(block);
        m_message.insert(QStringLiteral("content"), content);
        m_message.insert(QStringLiteral("usage"), m_usage);
        return AnthropicProvider::parseMessage(m_message, response, error);
    }

    bool handle(const SseParser::Event& event, ProviderError* kind, QString* error) override
    {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(event.data, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
            *kind = ProviderError::MalformedResponse;
            *error = QStringLiteral("malformed event data (%1): %2")
                         .arg(QString::fromLatin1(event.event), parseError.errorString());
            return false;
        }
        const QJsonObject data = doc.object();
        QString type = data.value(QStringLiteral("type")).toString();
        if (type.isEmpty())
            type = QString::fromLatin1(event.event);
        const int index = data.value(QStringLiteral("index")).toInt(-1);

        if (type == QLatin1String("message_start")) {
            m_started = true;
            m_message = data.value(QStringLiteral("message")).toObject();
            m_usage = m_message.value(QStringLiteral("usage")).toObject();
        } else if (type == QLatin1String("content_block_start")) {
            if (index < 0)
                return malformed(kind, error, QStringLiteral("content_block_start without index"));
            m_blocks[index] = data.value(QStringLiteral("content_block")).toObject();
            m_partialJson[index].clear();
        } else if (type == QLatin1String("content_block_delta")) {
            const auto it = m_blocks.find(index);
            if (it == m_blocks.end())
                return malformed(kind, error, QStringLiteral("content_block_delta for an unknown block"));
            QJsonObject& block = it->second;
            const QJsonObject delta = data.value(QStringLiteral("delta")).toObject();
            const QString deltaType = delta.value(QStringLiteral("type")).toString();
            if (deltaType == QLatin1String("text_delta")) {
                const QString text = delta.value(QStringLiteral("text")).toString();
                block.insert(QStringLiteral("text"),
                             QString(block.value(QStringLiteral("text")).toString() + text));
                addTextDelta(text);
            } else if (deltaType == QLatin1String("input_json_delta")) {
                m_partialJson[index] += delta.value(QStringLiteral("partial_json")).toString();
            } else if (deltaType == QLatin1String("thinking_delta")) {
                block.insert(QStringLiteral("thinking"),
                             QString(block.value(QStringLiteral("thinking")).toString() +
                                     delta.value(QStringLiteral("thinking")).toString()));
            } else if (deltaType == QLatin1String("signature_delta")) {
                block.insert(QStringLiteral("signature"),
                             QString(block.value(QStringLiteral("signature")).toString() +
                                     delta.value(QStringLiteral("signature")).toString()));
            }
        } else if (type == QLatin1String("content_block_stop")) {
            const auto it = m_blocks.find(index);
            if (it == m_blocks.end())
                return malformed(kind, error, QStringLiteral("content_block_stop for an unknown block"));
            QJsonObject& block = it->second;
            const QString blockType = block.value(QStringLiteral("type")).toString();
            if (blockType == QLatin1String("tool_use") || blockType == QLatin1String("server_tool_use")) {
                const QString json = m_partialJson[index].trimmed();
                const auto input = json.isEmpty() ? QJsonObject() : wire::parseObjectText(json);
                if (!input)
                    return malformed(kind, error,
                                     QStringLiteral("the streamed input of tool_use %1 is not a JSON object")
                                         .arg(block.value(QStringLiteral("id")).toString()));
                block.insert(QStringLiteral("input"), *input);
            }
        } else if (type == QLatin1String("message_delta")) {
            const QJsonObject delta = data.value(QStringLiteral("delta")).toObject();
            for (const QString& key : {QStringLiteral("stop_reason"), QStringLiteral("stop_sequence")}) {
                if (delta.contains(key))
                    m_message.insert(key, delta.value(key));
            }
            const QJsonObject usage = data.value(QStringLiteral("usage")).toObject();
            for (auto it = usage.begin(); it != usage.end(); ++it) {
                if (!it.value().isNull())
                    m_usage.insert(it.key(), it.value());
            }
        } else if (type == QLatin1String("message_stop")) {
            m_stopped = true;
        } else if (type == QLatin1String("error")) {
            const QJsonObject e = data.value(QStringLiteral("error")).toObject();
            const QString errorType = e.value(QStringLiteral("type")).toString();
            *kind = errorForType(errorType);
            *error = QStringLiteral("error event in the stream: %1: %2")
                         .arg(errorType, e.value(QStringLiteral("message")).toString());
            return false;
        }
        // ping and unknown events: ignored
        return true;
    }

private:
    QJsonObject m_message;
    QJsonObject m_usage;
    std::map<int, QJsonObject> m_blocks;
    std::map<int, QString> m_partialJson;
    bool m_started = false;
    bool m_stopped = false;
};

} // namespace

AnthropicProvider::AnthropicProvider(ProviderConfig config, QObject* parent)
    : Provider(std::move(config), parent)
{
}

std::optional<QJsonObject> AnthropicProvider::buildBody(const ProviderRequest& request, const QString& model,
                                                        ScreenshotScaler* scalerOut, QString* error)
{
    const ScreenshotScaler scaler = wire::scalerFor(request);
    if (scalerOut)
        *scalerOut = scaler;
    BuildContext ctx{scaler, request, {}};
    auto fail = [&]() -> std::optional<QJsonObject> {
        if (error)
            *error = ctx.error;
        return std::nullopt;
    };

    QJsonObject body{{QStringLiteral("model"), model}, {QStringLiteral("max_tokens"), request.maxTokens}};
    if (!request.system.isEmpty()) {
        QJsonObject system{{QStringLiteral("type"), QStringLiteral("text")},
                           {QStringLiteral("text"), request.system}};
        if (request.promptCaching)
            system.insert(QStringLiteral("cache_control"), ephemeral());
        body.insert(QStringLiteral("system"), QJsonArray{system});
    }
    if (!request.tools.isEmpty()) {
        QJsonArray tools;
        for (const ToolDefinition& tool : request.tools)
            tools.append(toolToJson(tool, scaler));
        body.insert(QStringLiteral("tools"), tools);
    }
    if (request.toolChoice) {
        QJsonObject choice;
        switch (request.toolChoice->mode) {
        case ToolChoice::Mode::Auto:
            choice.insert(QStringLiteral("type"), QStringLiteral("auto"));
            break;
        case ToolChoice::Mode::Any:
            choice.insert(QStringLiteral("type"), QStringLiteral("any"));
            break;
        case ToolChoice::Mode::None:
            choice.insert(QStringLiteral("type"), QStringLiteral("none"));
            break;
        case ToolChoice::Mode::Tool:
            choice.insert(QStringLiteral("type"), QStringLiteral("tool"));
            choice.insert(QStringLiteral("name"), request.toolChoice->name);
            break;
        }
        if (request.toolChoice->disableParallelToolUse && request.toolChoice->mode != ToolChoice::Mode::None)
            choice.insert(QStringLiteral("disable_parallel_tool_use"), true);
        body.insert(QStringLiteral("tool_choice"), choice);
    }

    QJsonArray messages;
    for (const Message& message : wire::limitImages(request.messages, request.keepScreenshots)) {
        QJsonArray content;
        for (const ContentBlock& block : message.blocks) {
            const auto json = blockToJson(block, ctx);
            if (!json)
                return fail();
            content.append(*json);
        }
        messages.append(QJsonObject{{QStringLiteral("role"), message.role == Message::Role::User
                                                                 ? QStringLiteral("user")
                                                                 : QStringLiteral("assistant")},
                                    {QStringLiteral("content"), content}});
    }
    if (request.promptCaching) {
        // Like the reference demo: the last block of the 3 most recent user turns.
        int breakpoints = 3;
        for (qsizetype i = messages.size() - 1; i >= 0 && breakpoints > 0; --i) {
            QJsonObject message = messages.at(i).toObject();
            if (message.value(QStringLiteral("role")).toString() != QLatin1String("user"))
                continue;
            QJsonArray content = message.value(QStringLiteral("content")).toArray();
            if (content.isEmpty())
                continue;
            QJsonObject last = content.last().toObject();
            const QString lastType = last.value(QStringLiteral("type")).toString();
            if (lastType == QLatin1String("thinking") || lastType == QLatin1String("redacted_thinking"))
                continue;
            last.insert(QStringLiteral("cache_control"), ephemeral());
            content[content.size() - 1] = last;
            message.insert(QStringLiteral("content"), content);
            messages[i] = message;
            --breakpoints;
        }
    }
    body.insert(QStringLiteral("messages"), messages);
    if (request.stream)
        body.insert(QStringLiteral("stream"), true);
    if (request.temperature)
        body.insert(QStringLiteral("temperature"), *request.temperature);
    if (request.thinkingBudgetTokens > 0)
        body.insert(QStringLiteral("thinking"),
                    QJsonObject{{QStringLiteral("type"), QStringLiteral("enabled")},
                                {QStringLiteral("budget_tokens"), request.thinkingBudgetTokens}});
    return body;
}

std::optional<Provider::HttpRequest> AnthropicProvider::buildHttpRequest(const ProviderRequest& request,
                                                                         QString* error)
{
    HttpRequest http;
    http.path = QStringLiteral("/v1/messages");
    const auto body = buildBody(request, modelFor(request), &http.scaler, error);
    if (!body)
        return std::nullopt;
    http.body = QJsonDocument(*body).toJson(QJsonDocument::Compact);
    http.headers.append({QByteArrayLiteral("x-api-key"), config().apiKey.toUtf8()});
    http.headers.append({QByteArrayLiteral("anthropic-version"), QByteArray(kApiVersion)});
    QStringList betas;
    for (const ToolDefinition& tool : request.tools) {
        if (tool.kind == ToolDefinition::Kind::Computer) {
            const QString beta = betaHeaderValue(tool.version);
            if (!betas.contains(beta))
                betas.append(beta);
        }
    }
    for (const QString& beta : config().extraBetas) {
        if (!beta.isEmpty() && !betas.contains(beta))
            betas.append(beta);
    }
    if (!betas.isEmpty())
        http.headers.append({QByteArrayLiteral("anthropic-beta"), betas.join(QLatin1Char(',')).toLatin1()});
    return http;
}

StopReason AnthropicProvider::stopReasonFromString(const QString& text)
{
    static const QHash<QString, StopReason> map = {
        {QStringLiteral("end_turn"), StopReason::EndTurn},
        {QStringLiteral("tool_use"), StopReason::ToolUse},
        {QStringLiteral("max_tokens"), StopReason::MaxTokens},
        {QStringLiteral("stop_sequence"), StopReason::StopSequence},
        {QStringLiteral("pause_turn"), StopReason::PauseTurn},
        {QStringLiteral("refusal"), StopReason::Refusal},
        {QStringLiteral("model_context_window_exceeded"), StopReason::ContextWindowExceeded},
    };
    return map.value(text, StopReason::Unknown);
}

ContentBlock AnthropicProvider::parseBlock(const QJsonObject& block)
{
    const QString type = block.value(QStringLiteral("type")).toString();
    if (type == QLatin1String("text"))
        return ContentBlock::makeText(block.value(QStringLiteral("text")).toString());
    if (type == QLatin1String("tool_use")) {
        ContentBlock b = ContentBlock::makeToolUse(block.value(QStringLiteral("id")).toString(),
                                                   block.value(QStringLiteral("name")).toString(),
                                                   block.value(QStringLiteral("input")).toObject());
        if (!block.value(QStringLiteral("input")).isObject())
            b.inputError = QStringLiteral("the tool input is not a JSON object");
        return b;
    }
    if (type == QLatin1String("thinking"))
        return ContentBlock::makeThinking(block.value(QStringLiteral("thinking")).toString(),
                                          block.value(QStringLiteral("signature")).toString());
    if (type == QLatin1String("redacted_thinking")) {
        ContentBlock b;
        b.type = ContentBlock::Type::RedactedThinking;
        b.data = block.value(QStringLiteral("data")).toString();
        return b;
    }
    ContentBlock b;
    b.type = ContentBlock::Type::Other;
    b.raw = block;
    return b;
}

bool AnthropicProvider::parseMessage(const QJsonObject& message, ProviderResponse& response, QString* error)
{
    if (message.value(QStringLiteral("type")).toString() == QLatin1String("error")) {
        *error = QStringLiteral("an error object instead of a message");
        return false;
    }
    const QJsonValue content = message.value(QStringLiteral("content"));
    if (!content.isArray()) {
        *error = QStringLiteral("the message has no content array");
        return false;
    }
    response.content.clear();
    for (const QJsonValue& value : content.toArray()) {
        if (!value.isObject()) {
            *error = QStringLiteral("a content block is not an object");
            return false;
        }
        response.content.append(parseBlock(value.toObject()));
    }
    response.messageId = message.value(QStringLiteral("id")).toString();
    response.model = message.value(QStringLiteral("model")).toString();
    response.stopReasonText = message.value(QStringLiteral("stop_reason")).toString();
    response.stopReason = stopReasonFromString(response.stopReasonText);
    readUsage(message.value(QStringLiteral("usage")).toObject(), response.usage);
    return true;
}

bool AnthropicProvider::parseResponseBody(const QByteArray& body, ProviderResponse& response, QString* error)
{
    const auto object = wire::parseBodyObject(body, error);
    return object && parseMessage(*object, response, error);
}

std::unique_ptr<Provider::StreamHandler> AnthropicProvider::createStreamHandler()
{
    return std::make_unique<AnthropicStream>();
}

QString AnthropicProvider::errorMessageFromBody(int status, const QByteArray& body) const
{
    const QJsonObject object = QJsonDocument::fromJson(body).object();
    const QJsonObject e = object.value(QStringLiteral("error")).toObject();
    if (!e.isEmpty()) {
        return QStringLiteral("HTTP %1 %2: %3")
            .arg(status)
            .arg(e.value(QStringLiteral("type")).toString(), e.value(QStringLiteral("message")).toString());
    }
    return wire::plainErrorMessage(status, body);
}

} // namespace ciu::director
