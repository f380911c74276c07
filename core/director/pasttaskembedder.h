#pragma once

#include "core/knowledge/taskembedding.h"
#include "core/providers/providerfactory.h"

#include <QString>

namespace ciu {

// The limits of a past-task lookup's embeddings call: it blocks the thread that starts the task (the
// Director's, or the command line's), so it gets less time than a chat call. Retries as usual, each
// retry delay capped.
inline constexpr int kPastTaskEmbeddingTotalMs = 20'000;
inline constexpr int kPastTaskEmbeddingAttemptMs = 15'000;
inline constexpr int kPastTaskEmbeddingRetryDelayMs = 2'000;

// The embedder of past-task retrieval (TaskMemory::findSimilar): the OpenAI-compatible provider's
// embeddings when `providerName` is "openai" and an embedding model is configured (`model`, else
// keystore::embeddingModel: CIU_OPENAI_EMBEDDING_MODEL; there is no default). Otherwise an empty
// TextEmbedder, which means BM25 alone: the local planner stays offline, and Anthropic's Messages API has no
// embeddings. The provider is configured as for a chat call (base URL, key from the environment, the key
// file or the keychain) when embed() runs; a configuration that cannot make one (no key for openai.com)
// makes embed() fail with its message, as does the call itself (embedBlocking).
TextEmbedder pastTaskEmbedder(const QString& providerName, const QString& model,
                              const director::KeychainReader& keychain = director::defaultKeychainReader());

} // namespace ciu
