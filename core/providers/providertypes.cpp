#include "core/providers/providertypes.h"

#include <QBuffer>
#include <QImageReader>

#include <limits>

namespace ciu::director {

ContentBlock ContentBlock::makeText(const QString& text)
{
    ContentBlock b;
    b.type = Type::Text;
    b.text = text;
    return b;
}

ContentBlock ContentBlock::makeImage(const QImage& image)
{
    ContentBlock b;
    b.type = Type::Image;
    b.image = image;
    return b;
}

ContentBlock ContentBlock::makeImageData(const QByteArray& encoded, const QString& mediaType)
{
    ContentBlock b;
    b.type = Type::Image;
    b.imageData = encoded;
    b.mediaType = mediaType;
    return b;
}

ContentBlock ContentBlock::makeToolUse(const QString& id, const QString& name, const QJsonObject& input)
{
    ContentBlock b;
    b.type = Type::ToolUse;
    b.id = id;
    b.name = name;
    b.input = input;
    return b;
}

ContentBlock ContentBlock::makeToolResult(const QString& toolUseId, const QList<ContentBlock>& content,
                                          bool isError)
{
    ContentBlock b;
    b.type = Type::ToolResult;
    b.toolUseId = toolUseId;
    b.content = content;
    b.isError = isError;
    return b;
}

ContentBlock ContentBlock::makeToolResultText(const QString& toolUseId, const QString& text, bool isError)
{
    return makeToolResult(toolUseId, {makeText(text)}, isError);
}

ContentBlock ContentBlock::makeThinking(const QString& thinking, const QString& signature)
{
    ContentBlock b;
    b.type = Type::Thinking;
    b.text = thinking;
    b.signature = signature;
    return b;
}

QSize ContentBlock::imageSize() const
{
    if (!image.isNull())
        return image.size();
    if (imageData.isEmpty())
        return {};
    QBuffer buffer;
    buffer.setData(imageData);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer);
    return reader.size();
}

Message Message::user(const QString& text)
{
    return Message{Role::User, {ContentBlock::makeText(text)}};
}

Message Message::user(const QList<ContentBlock>& blocks)
{
    return Message{Role::User, blocks};
}

Message Message::assistant(const QList<ContentBlock>& blocks)
{
    return Message{Role::Assistant, blocks};
}

QString toolTypeName(ComputerToolVersion version)
{
    switch (version) {
    case ComputerToolVersion::V20241022:
        return QStringLiteral("computer_20241022");
    case ComputerToolVersion::V20250124:
        return QStringLiteral("computer_20250124");
    case ComputerToolVersion::V20251124:
        return QStringLiteral("computer_20251124");
    }
    return QStringLiteral("computer_20250124");
}

QString betaHeaderValue(ComputerToolVersion version)
{
    switch (version) {
    case ComputerToolVersion::V20241022:
        return QStringLiteral("computer-use-2024-10-22");
    case ComputerToolVersion::V20250124:
        return QStringLiteral("computer-use-2025-01-24");
    case ComputerToolVersion::V20251124:
        return QStringLiteral("computer-use-2025-11-24");
    }
    return QStringLiteral("computer-use-2025-01-24");
}

ComputerToolVersion computerToolVersionForModel(const QString& model)
{
    // Opus 4.5 and newer use the 2025-11-24 tool.
    static const QStringList newer = {QStringLiteral("claude-opus-4-5"), QStringLiteral("claude-opus-4-6"),
                                      QStringLiteral("claude-opus-5"), QStringLiteral("claude-sonnet-5")};
    for (const QString& prefix : newer) {
        if (model.startsWith(prefix))
            return ComputerToolVersion::V20251124;
    }
    if (model.startsWith(QLatin1String("claude-3-5")))
        return ComputerToolVersion::V20241022;
    return ComputerToolVersion::V20250124;
}

ToolDefinition ToolDefinition::function(const QString& name, const QString& description,
                                        const QJsonObject& inputSchema)
{
    ToolDefinition t;
    t.kind = Kind::Function;
    t.name = name;
    t.description = description;
    t.inputSchema = inputSchema;
    return t;
}

ToolDefinition ToolDefinition::computer(QSize screenSize, ComputerToolVersion version, int displayNumber)
{
    ToolDefinition t;
    t.kind = Kind::Computer;
    t.name = QStringLiteral("computer");
    t.screenSize = screenSize;
    t.version = version;
    t.displayNumber = displayNumber;
    return t;
}

Usage& Usage::operator+=(const Usage& other)
{
    // Saturating sums of non-negative parts.
    auto add = [](qint64& total, qint64 part) {
        if (part > 0)
            total = part > std::numeric_limits<qint64>::max() - total ? std::numeric_limits<qint64>::max()
                                                                      : total + part;
    };
    add(inputTokens, other.inputTokens);
    add(outputTokens, other.outputTokens);
    add(cacheCreationInputTokens, other.cacheCreationInputTokens);
    add(cacheReadInputTokens, other.cacheReadInputTokens);
    if (other.costUsd > 0) // NaN and negative costs add nothing
        costUsd += other.costUsd;
    costKnown = costKnown && other.costKnown;
    return *this;
}

QJsonObject Usage::toJson() const
{
    return QJsonObject{{QStringLiteral("input_tokens"), inputTokens},
                       {QStringLiteral("output_tokens"), outputTokens},
                       {QStringLiteral("cache_creation_input_tokens"), cacheCreationInputTokens},
                       {QStringLiteral("cache_read_input_tokens"), cacheReadInputTokens},
                       {QStringLiteral("cost_usd"), costUsd},
                       {QStringLiteral("cost_known"), costKnown}};
}

QString toString(StopReason reason)
{
    switch (reason) {
    case StopReason::EndTurn:
        return QStringLiteral("end_turn");
    case StopReason::ToolUse:
        return QStringLiteral("tool_use");
    case StopReason::MaxTokens:
        return QStringLiteral("max_tokens");
    case StopReason::StopSequence:
        return QStringLiteral("stop_sequence");
    case StopReason::PauseTurn:
        return QStringLiteral("pause_turn");
    case StopReason::Refusal:
        return QStringLiteral("refusal");
    case StopReason::ContextWindowExceeded:
        return QStringLiteral("model_context_window_exceeded");
    case StopReason::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

QString toString(ProviderError error)
{
    switch (error) {
    case ProviderError::None:
        return QStringLiteral("none");
    case ProviderError::NoApiKey:
        return QStringLiteral("no_api_key");
    case ProviderError::InvalidRequest:
        return QStringLiteral("invalid_request");
    case ProviderError::Authentication:
        return QStringLiteral("authentication");
    case ProviderError::Permission:
        return QStringLiteral("permission");
    case ProviderError::RateLimited:
        return QStringLiteral("rate_limited");
    case ProviderError::Overloaded:
        return QStringLiteral("overloaded");
    case ProviderError::Server:
        return QStringLiteral("server");
    case ProviderError::Timeout:
        return QStringLiteral("timeout");
    case ProviderError::Network:
        return QStringLiteral("network");
    case ProviderError::MalformedResponse:
        return QStringLiteral("malformed_response");
    case ProviderError::StreamError:
        return QStringLiteral("stream_error");
    case ProviderError::RedirectRefused:
        return QStringLiteral("redirect_refused");
    case ProviderError::Canceled:
        return QStringLiteral("canceled");
    }
    return QStringLiteral("unknown");
}

bool ProviderResponse::isTransient() const
{
    switch (error) {
    case ProviderError::RateLimited:
    case ProviderError::Overloaded:
    case ProviderError::Server:
    case ProviderError::Timeout:
    case ProviderError::Network:
        return true;
    default:
        return false;
    }
}

QString ProviderResponse::text() const
{
    QStringList parts;
    for (const ContentBlock& b : content) {
        if (b.type == ContentBlock::Type::Text && !b.text.isEmpty())
            parts.append(b.text);
    }
    return parts.join(QLatin1Char('\n'));
}

QList<ContentBlock> ProviderResponse::toolUses() const
{
    QList<ContentBlock> out;
    for (const ContentBlock& b : content) {
        if (b.type == ContentBlock::Type::ToolUse)
            out.append(b);
    }
    return out;
}

Message ProviderResponse::assistantMessage() const
{
    return Message::assistant(content);
}

ProviderRequest continueAfterPause(const ProviderRequest& request, const ProviderResponse& response)
{
    ProviderRequest next = request;
    if (!response.content.isEmpty())
        next.messages.append(response.assistantMessage());
    return next;
}

} // namespace ciu::director
