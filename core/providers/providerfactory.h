#pragma once

#include "core/providers/provider.h"

#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QSettings;
class QUrl;

namespace ciu::director {

// The one way to create a configured model provider from its name: the configuration (base URL, model,
// prices) from keystore::configFor, the key from the environment (ANTHROPIC_API_KEY / OPENAI_API_KEY) else
// the OS keychain (read only when the environment has none), one rule for when a key is required, and a
// clear error when the provider cannot be made. Used by the planner backends and by the command line.

// Reads a provider's key from the OS keychain: the key (empty when none is stored), or nullopt and *error
// when the keychain is not available. Blocking, bounded by a timeout.
using KeychainReader = std::function<std::optional<QString>(ProviderKind kind, QString* error)>;

constexpr int kKeychainTimeoutMs = 3'000;
// keystore::readKeychainBlocking with kKeychainTimeoutMs (see its comment for the threads it may run on).
KeychainReader defaultKeychainReader();

// Whether a provider at baseUrl refuses requests without a key: Anthropic always; an OpenAI-compatible
// server when it is an official host (anthropic.com, openai.com or a subdomain). Local OpenAI-compatible
// servers (llama.cpp, Ollama) take none.
bool requiresApiKey(ProviderKind kind, const QUrl& baseUrl);

struct ProviderFactoryOptions
{
    const QSettings* settings = nullptr; // for keystore::configFor (base URL, model, prices)
    std::optional<int> maxRetryDelayMs;  // caps the retry delays when set (a command line waits less)
};

// The provider called `name` ("anthropic", "openai", "openai-compatible"), or nullptr and *error (nothing
// was sent): an unknown name, a bad configuration, or no key where one is required ("no API key for
// anthropic: set ANTHROPIC_API_KEY or store one in the keychain (why the keychain did not help); nothing
// was sent"). `keychain` may be null (no keychain). The key is only ever sent to the configured base URL
// and never appears in logs or errors.
std::unique_ptr<Provider> configuredProvider(const QString& name, const KeychainReader& keychain,
                                             QString* error, const ProviderFactoryOptions& options = {});

} // namespace ciu::director
