#pragma once

#include "core/providers/screenshotscaler.h"

#include <QByteArray>
#include <QImage>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>

// Value types shared by every model provider (Anthropic Messages API, OpenAI-compatible chat
// completions). They describe a conversation independently of the wire format; each provider
// translates them.
namespace ciu::director {

// One block of a message. Only the fields of its type are meaningful.
struct ContentBlock
{
    enum class Type : quint8
    {
        Text = 1,
        Image,
        ToolUse,          // assistant: the model calls a tool
        ToolResult,       // user: the answer to a ToolUse with the same id
        Thinking,         // assistant: extended thinking, echoed back unchanged
        RedactedThinking, // assistant: opaque thinking data (in `data`), echoed back unchanged
        Other,            // a block type this client does not know; `raw` is echoed back unchanged
    };

    Type type = Type::Text;

    QString text; // Text; Thinking (the thinking text)

    // Image: either a decoded image (encoded and scaled by the provider) or already encoded bytes.
    QImage image;
    QByteArray imageData; // encoded bytes (used when `image` is null)
    QString mediaType;    // "image/png", "image/jpeg", "image/gif", "image/webp" (for imageData)

    // ToolUse
    QString id;
    QString name;
    QJsonObject input;
    QString inputError; // set by a provider when the model's arguments were not a JSON object

    // ToolResult
    QString toolUseId;
    QList<ContentBlock> content; // text and image blocks
    bool isError = false;

    // Thinking / RedactedThinking
    QString signature;
    QString data;

    QJsonObject raw; // Other: the block as received

    static ContentBlock makeText(const QString& text);
    static ContentBlock makeImage(const QImage& image);
    static ContentBlock makeImageData(const QByteArray& encoded, const QString& mediaType);
    static ContentBlock makeToolUse(const QString& id, const QString& name, const QJsonObject& input);
    static ContentBlock makeToolResult(const QString& toolUseId, const QList<ContentBlock>& content,
                                       bool isError = false);
    static ContentBlock makeToolResultText(const QString& toolUseId, const QString& text,
                                           bool isError = false);
    static ContentBlock makeThinking(const QString& thinking, const QString& signature);

    bool isImage() const { return type == Type::Image; }
    // Pixel size of the image (decodes the header of imageData when needed); invalid when unknown.
    QSize imageSize() const;
};

struct Message
{
    enum class Role : quint8
    {
        User = 1,
        Assistant,
    };
    Role role = Role::User;
    QList<ContentBlock> blocks;

    static Message user(const QString& text);
    static Message user(const QList<ContentBlock>& blocks);
    static Message assistant(const QList<ContentBlock>& blocks);
};

// The version of Anthropic's native computer tool. Each needs its beta header.
enum class ComputerToolVersion : quint8
{
    V20241022 = 1, // computer-use-2024-10-22 (legacy)
    V20250124,     // computer-use-2025-01-24: Sonnet 4.5, Haiku 4.5, Opus 4.1, Sonnet 4
    V20251124,     // computer-use-2025-11-24: Opus 4.5 and newer (zoom)
};
QString toolTypeName(ComputerToolVersion version);    // "computer_20250124"
QString betaHeaderValue(ComputerToolVersion version); // "computer-use-2025-01-24"
// The version a model needs ("claude-opus-4-5…" → V20251124); V20250124 for anything unknown.
ComputerToolVersion computerToolVersionForModel(const QString& model);

struct ToolDefinition
{
    enum class Kind : quint8
    {
        Function = 1, // a client tool with a JSON schema
        Computer,     // Anthropic's native computer tool (a function tool "computer" for OpenAI)
    };
    Kind kind = Kind::Function;
    QString name;
    QString description;
    QJsonObject inputSchema; // JSON schema of the input object

    // Computer: the real screen size in pixels. The provider scales screenshots (ScreenshotScaler) and
    // reports the scaled size as display_*_px; coordinates the model sends are in that scaled space
    // (map them with ProviderResponse::scaler).
    QSize screenSize;
    int displayNumber = -1; // -1: not sent
    ComputerToolVersion version = ComputerToolVersion::V20250124;
    bool enableZoom = false; // V20251124 only

    static ToolDefinition function(const QString& name, const QString& description,
                                   const QJsonObject& inputSchema);
    static ToolDefinition computer(QSize screenSize,
                                   ComputerToolVersion version = ComputerToolVersion::V20250124,
                                   int displayNumber = -1);
};

struct ToolChoice
{
    enum class Mode : quint8
    {
        Auto = 1,
        Any,  // must call some tool ("required" for OpenAI)
        None, // must not call a tool
        Tool, // must call `name`
    };
    Mode mode = Mode::Auto;
    QString name;
    bool disableParallelToolUse = false;
};

struct ProviderRequest
{
    QString model; // empty: the provider's configured default model
    QString system;
    QList<Message> messages;
    QList<ToolDefinition> tools;
    std::optional<ToolChoice> toolChoice;
    int maxTokens = 4096;
    bool stream = false;
    std::optional<double> temperature;
    int thinkingBudgetTokens = 0; // > 0: extended thinking (Anthropic; ≥ 1024 and < maxTokens)

    // Anthropic prompt caching like the reference demo: cache_control on the system block and on the last
    // block of the 3 most recent user turns.
    bool promptCaching = true;
    // Keep only this many most recent images in the history; older ones are replaced by a short text
    // placeholder on the wire (the caller's history is not changed). Negative: keep all.
    int keepScreenshots = 3;
    // How decoded images (ContentBlock::image) are encoded.
    enum class ImageFormat : quint8
    {
        Png = 1,
        Jpeg,
    };
    ImageFormat imageFormat = ImageFormat::Png;
    int jpegQuality = 80;

    QString purpose; // free label for logs ("plan", "tier2", ...)

    // Embeddings (OpenAI-compatible providers only): the texts to embed, in order. Not empty: the request is
    // an embeddings call (POST /v1/embeddings with `model`, else ProviderConfig::embeddingModel), never
    // streamed; system, messages and tools are not sent. The vectors come back in
    // ProviderResponse::embeddings.
    QStringList embeddingInputs;
};

// The most tokens one reply may report in one usage field; more is clamped to this (usage is untrusted).
inline constexpr qint64 kMaxReportedTokens = 100'000'000;

// Token counts and cost. Never negative: the sums only grow, so a cost limit never moves backwards.
struct Usage
{
    qint64 inputTokens = 0; // uncached input
    qint64 outputTokens = 0;
    qint64 cacheCreationInputTokens = 0;
    qint64 cacheReadInputTokens = 0;
    double costUsd = 0.0;
    bool costKnown = true; // false when the model is not in the price table (costUsd then 0)

    qint64 totalInputTokens() const { return inputTokens + cacheCreationInputTokens + cacheReadInputTokens; }
    Usage& operator+=(const Usage& other);
    QJsonObject toJson() const;
};

enum class StopReason : quint8
{
    EndTurn = 1,
    ToolUse,
    MaxTokens, // the reply was cut: raise max_tokens or ask for less
    StopSequence,
    PauseTurn, // a long turn was paused: send the reply back unchanged to continue (continueAfterPause)
    Refusal,   // the model refused: stop the task (OpenAI: content_filter)
    ContextWindowExceeded,
    Unknown,
};
QString toString(StopReason reason);

enum class ProviderError : quint8
{
    None = 1,
    NoApiKey,          // no key configured (nothing was sent)
    InvalidRequest,    // 400, 404, 413 or a request this client could not build
    Authentication,    // 401
    Permission,        // 403, 402 (billing)
    RateLimited,       // 429 after all retries
    Overloaded,        // 529 after all retries
    Server,            // other 5xx after all retries
    Timeout,           // connect or request timeout after all retries
    Network,           // connection refused/reset/dropped after all retries
    MalformedResponse, // the reply was not the expected JSON / event stream
    StreamError,       // an `error` event inside a 200 event stream (overloaded_error, rate_limit_error and
                       // api_error events map to Overloaded, RateLimited and Server instead; none is retried)
    RedirectRefused,   // the server redirected; redirects are never followed (the key only goes to the base
                       // URL)
    Canceled,
};
QString toString(ProviderError error);

struct ProviderResponse
{
    quint64 requestId = 0; // the id send() returned
    QList<ContentBlock> content;
    StopReason stopReason = StopReason::Unknown;
    QString stopReasonText; // as the service sent it
    Usage usage;
    QString messageId;    // "msg_…" / "chatcmpl-…"
    QString apiRequestId; // the request-id header ("req_…"), for audits
    QString model;        // the model that answered

    ProviderError error = ProviderError::None;
    QString errorMessage; // human readable; never contains the API key
    int httpStatus = 0;   // of the last attempt (0: no HTTP response)
    int attempts = 0;     // HTTP attempts made (1 + retries)
    qint64 latencyMs = 0; // from send() to the result, retries included

    // The screenshot scaling used for the computer tool of this request: coordinates in the model's
    // tool_use inputs are in scaler.targetSize() space; map them with scaler.mapInputToScreen().
    ScreenshotScaler scaler;

    // An embeddings call: one vector a text of ProviderRequest::embeddingInputs, in that order, all of one
    // dimension (a reply with another count or mixed dimensions is MalformedResponse).
    QList<QList<double>> embeddings;

    bool ok() const { return error == ProviderError::None; }
    // Worth retrying later by the caller (rate limit, overload, server, network, timeout).
    bool isTransient() const;
    QString text() const;                 // all text blocks joined by "\n"
    QList<ContentBlock> toolUses() const; // the ToolUse blocks, in order
    Message assistantMessage() const;     // the reply as a message to append to the history
};

// pause_turn: the request to send next (the original plus the paused reply, unchanged, as the last
// assistant turn). Also fine for any reply that should be continued.
ProviderRequest continueAfterPause(const ProviderRequest& request, const ProviderResponse& response);

} // namespace ciu::director

Q_DECLARE_METATYPE(ciu::director::ProviderRequest)
Q_DECLARE_METATYPE(ciu::director::ProviderResponse)
