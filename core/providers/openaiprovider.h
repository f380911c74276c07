#pragma once

#include "core/providers/provider.h"

#include <QJsonObject>

namespace ciu::director {

// OpenAI-compatible chat completions:
// POST {base}/v1/chat/completions with a Bearer key; images as data URLs; function tools (the computer
// tool becomes a function named "computer" with the same input fields); tool results as `tool` messages,
// their images in a following user message; optional streaming (`data:` chunks, `[DONE]`).
// Embeddings (ProviderRequest::embeddingInputs): POST {base}/v1/embeddings {"model", "input": [texts]}, the
// reply's data[i].embedding (a list of floats) by data[i].index; served by OpenAI, llama.cpp (--embeddings),
// vLLM and Ollama alike.
// The base URL is the server root ("http://localhost:11434"); a base ending in "/v1" is accepted too.
class OpenAiProvider final : public Provider
{
    Q_OBJECT
public:
    static constexpr const char* kDefaultBaseUrl = "https://api.openai.com";

    explicit OpenAiProvider(ProviderConfig config, QObject* parent = nullptr);
    ProviderKind kind() const override { return ProviderKind::OpenAi; }

    // nullopt and *error when an image cannot be encoded.
    static std::optional<QJsonObject> buildBody(const ProviderRequest& request, const QString& model,
                                                ScreenshotScaler* scaler = nullptr, QString* error = nullptr);
    // Parses a chat.completion object into response.
    static bool parseCompletion(const QJsonObject& completion, ProviderResponse& response, QString* error);
    // The embeddings request body and the parse of its reply (exactly `count` vectors, each index once, all
    // of one dimension, every number finite) into response.embeddings, model and usage.
    static QJsonObject buildEmbeddingsBody(const QStringList& texts, const QString& model);
    static bool parseEmbeddings(const QJsonObject& reply, qsizetype count, ProviderResponse& response,
                                QString* error);
    static StopReason stopReasonFromFinishReason(const QString& finishReason);
    // The JSON schema of the "computer" function (the native computer tool's input fields).
    static QJsonObject computerFunctionSchema(const ToolDefinition& tool, QSize displaySize);

protected:
    std::optional<HttpRequest> buildHttpRequest(const ProviderRequest& request, QString* error) override;
    bool parseResponseBody(const QByteArray& body, ProviderResponse& response, QString* error) override;
    std::unique_ptr<StreamHandler> createStreamHandler() override;
    QString errorMessageFromBody(int status, const QByteArray& body) const override;
    bool hasEmbeddings() const override { return true; }
    bool parseEmbeddingsBody(const QByteArray& body, qsizetype count, ProviderResponse& response,
                             QString* error) override;
    bool needsApiKey() const override { return false; }
    QByteArray requestIdHeader() const override { return QByteArrayLiteral("x-request-id"); }
};

} // namespace ciu::director
