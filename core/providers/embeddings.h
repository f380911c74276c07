#pragma once

#include "core/providers/provider.h"

#include <QList>
#include <QStringList>

#include <memory>
#include <optional>

namespace ciu::director {

// One embeddings call that waits for its answer: the provider (created on the calling thread and not used
// yet) is moved to a thread of its own ("embeddings") and sends ProviderRequest::embeddingInputs = texts
// there, with its own retries, timeouts and key rules (ProviderConfig); the calling thread waits without
// processing events (no re-entrancy) until the call ends, which the provider's time limits bound
// (ProviderConfig::totalTimeoutMs: set it to what the caller can wait).
// For a worker thread (the Director's) or the command line; never for a GUI thread running its event loop.
// The vectors (one a text, in order, all of one dimension), or nullopt and *error (the provider's message:
// no embeddings API, no model, HTTP error, malformed reply, wrong count, dimension mismatch; never the key).
std::optional<QList<QList<double>>> embedBlocking(std::unique_ptr<Provider> provider,
                                                  const QStringList& texts, QString* error);

} // namespace ciu::director
