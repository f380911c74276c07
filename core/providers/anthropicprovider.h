#pragma once

#include "core/providers/provider.h"

#include <QJsonObject>

namespace ciu::director {

// Claude Messages API: POST {base}/v1/messages with x-api-key, anthropic-version 2023-06-01,
// anthropic-beta for the computer tool; the native computer tool with scaled screenshots; prompt caching
// breakpoints (system + last block of the 3 most recent user turns); only the N most recent images kept;
// optional streaming (server-sent events); the SDK's retry policy.
class AnthropicProvider final : public Provider
{
    Q_OBJECT
public:
    static constexpr const char* kDefaultBaseUrl = "https://api.anthropic.com";
    static constexpr const char* kApiVersion = "2023-06-01";

    explicit AnthropicProvider(ProviderConfig config, QObject* parent = nullptr);
    ProviderKind kind() const override { return ProviderKind::Anthropic; }

    // The JSON body for a request (exposed for tests and recordings; images as base64). *scaler receives
    // the computer tool's screenshot scaling.
    // nullopt and *error when an image cannot be encoded.
    static std::optional<QJsonObject> buildBody(const ProviderRequest& request, const QString& model,
                                                ScreenshotScaler* scaler = nullptr, QString* error = nullptr);
    // Parses a message object ({"type":"message", "content": [...], ...}) into response.
    static bool parseMessage(const QJsonObject& message, ProviderResponse& response, QString* error);
    static ContentBlock parseBlock(const QJsonObject& block);
    static StopReason stopReasonFromString(const QString& text);

protected:
    std::optional<HttpRequest> buildHttpRequest(const ProviderRequest& request, QString* error) override;
    bool parseResponseBody(const QByteArray& body, ProviderResponse& response, QString* error) override;
    std::unique_ptr<StreamHandler> createStreamHandler() override;
    QString errorMessageFromBody(int status, const QByteArray& body) const override;
};

} // namespace ciu::director
