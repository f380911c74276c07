#pragma once

#include "core/director/directortypes.h"
#include "core/director/planbackend.h"
#include "core/providers/providerfactory.h"

#include <functional>
#include <memory>
#include <optional>

namespace ciu {

// The keychain reader (see core/providers/providerfactory.h).
using KeychainReader = director::KeychainReader;

// The planner for a task's options: the local planner for "local" (or no provider), else the zone-level
// or classic model loop over the provider from director::configuredProvider. The key comes from the
// environment (ANTHROPIC_API_KEY / OPENAI_API_KEY) first, else the keychain (service "ciu-agent", account
// "anthropic" / "openai"; see providers/keystore.h), read only when the environment has none. Without a key
// the Anthropic provider refuses with "no API key for anthropic: set ANTHROPIC_API_KEY or store one in the
// keychain" and nothing is sent, and so do the official OpenAI and Anthropic hosts; a local
// OpenAI-compatible server may work without one (llama.cpp, Ollama).
// The key is only ever sent to the configured base URL and never appears in logs or errors.
// Runs on the Director's thread (or the command line's before its event loop): the keychain read blocks
// it for at most director::kKeychainTimeoutMs and processes no events meanwhile.
std::unique_ptr<PlanBackend> createPlanBackend(const DirectorOptions& options, QString* error);
// The same with another keychain reader (tests; null: no keychain). Not an overload: the engine
// takes createPlanBackend's address.
std::unique_ptr<PlanBackend> createPlanBackendWith(const DirectorOptions& options, QString* error,
                                                   const KeychainReader& keychain);

// The provider a task would use: "anthropic" when ANTHROPIC_API_KEY is set, else "local" (--provider's
// default). The keychain is deliberately not consulted here: a stored key must not silently turn a local
// command script into model calls; `--provider anthropic` uses it.
QString defaultProviderName();

} // namespace ciu
