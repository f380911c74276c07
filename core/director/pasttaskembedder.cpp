#include "core/director/pasttaskembedder.h"

#include "core/providers/embeddings.h"
#include "core/providers/keystore.h"

#include <algorithm>

namespace ciu {

TextEmbedder pastTaskEmbedder(const QString& providerName, const QString& model,
                              const director::KeychainReader& keychain)
{
    const auto kind = director::providerKindFromString(providerName);
    if (!kind || *kind != director::ProviderKind::OpenAi)
        return {};
    TextEmbedder embedder;
    embedder.model =
        model.trimmed().isEmpty() ? director::keystore::embeddingModel(*kind, nullptr) : model.trimmed();
    if (embedder.model.isEmpty())
        return {};
    embedder.embed = [name = providerName, model = embedder.model, keychain](
                         const QStringList& texts, QString* error) -> std::optional<QList<QList<double>>> {
        director::ProviderFactoryOptions options;
        options.maxRetryDelayMs = kPastTaskEmbeddingRetryDelayMs;
        QString configError;
        std::unique_ptr<director::Provider> provider =
            director::configuredProvider(name, keychain, &configError, options);
        if (!provider) {
            *error = configError;
            return std::nullopt;
        }
        director::ProviderConfig config = provider->config();
        config.embeddingModel = model;
        config.totalTimeoutMs = kPastTaskEmbeddingTotalMs;
        config.requestTimeoutMs = kPastTaskEmbeddingAttemptMs;
        config.idleTimeoutMs = std::min(config.idleTimeoutMs, kPastTaskEmbeddingAttemptMs);
        provider->setConfig(std::move(config));
        return director::embedBlocking(std::move(provider), texts, error);
    };
    return embedder;
}

} // namespace ciu
