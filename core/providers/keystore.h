#pragma once

#include "core/providers/provider.h"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>

class QSettings;

namespace ciu::director {

// Where API keys and base URLs come from. Keys: the environment (ANTHROPIC_API_KEY / OPENAI_API_KEY) first,
// else the user's key file (only when the user chose it), else the OS keychain through QtKeychain (service
// "ciu-agent", account "anthropic" / "openai"). Base URLs:
// the settings ("providers/anthropic/baseUrl"), else ANTHROPIC_BASE_URL / OPENAI_BASE_URL, else the
// official endpoint. Keys are never written to settings, logs or recordings.
namespace keystore {

QString environmentKeyName(ProviderKind kind);     // "ANTHROPIC_API_KEY"
QString environmentBaseUrlName(ProviderKind kind); // "ANTHROPIC_BASE_URL"
std::optional<QString> keyFromEnvironment(ProviderKind kind);

// The base URL for a provider (settings may be null). Invalid or non-http(s) URLs are rejected with *error.
std::optional<QUrl> baseUrl(ProviderKind kind, const QSettings* settings, QString* error = nullptr);
// The default model (settings "providers/<kind>/model", else CIU_<KIND>_MODEL, else a built-in default).
QString defaultModel(ProviderKind kind, const QSettings* settings);
// The embedding model (OpenAI-compatible only): settings "providers/openai/embeddingModel", else
// CIU_OPENAI_EMBEDDING_MODEL, else none (empty: no embeddings; there is no built-in default). Always empty
// for Anthropic, which has no embeddings API.
QString embeddingModel(ProviderKind kind, const QSettings* settings);

// The user's key file, kept only at the user's explicit choice (no keychain): <XDG config>/ciu-agent/keys/
// <kind>.key ($XDG_CONFIG_HOME, else ~/.config), the directory mode 0700, the file 0600.
QString keyFilePath(ProviderKind kind);
// Writes the key there (replacing the file atomically, never readable by others, not even for a moment).
// False and *error (without the key) when it cannot.
bool writeKeyFile(ProviderKind kind, const QString& key, QString* error = nullptr);
// The key from the key file: nullopt without error when there is none; nullopt and *error when it cannot be
// read or is readable or writable by others (as ssh does, such a file is refused, not used).
std::optional<QString> keyFromFile(ProviderKind kind, QString* error = nullptr);
bool removeKeyFile(ProviderKind kind);

// The key found without asking the keychain, in the order every caller follows: the environment, else the
// key file. `error`: the key file could not be used (then there is no key).
struct LocalKey
{
    enum class Origin : quint8
    {
        None,
        Environment,
        File,
    };
    QString key;
    Origin origin = Origin::None;
    QString error;
};
LocalKey localKey(ProviderKind kind);

// A ProviderConfig with base URL, model, embedding model, prices (CIU_PRICES_FILE or settings
// "providers/pricesFile" when set) and the key: the environment's, else the key file's (the key may still be
// empty: see readKeychain). A key file readable by others is an error.
std::optional<ProviderConfig> configFor(ProviderKind kind, const QSettings* settings,
                                        QString* error = nullptr);

// Asynchronous keychain access; the callback runs on `context`'s thread with the key (empty when none) or
// an error message (without the key).
using KeyCallback = std::function<void(const QString& key, const QString& error)>;
void readKeychain(ProviderKind kind, QObject* context, KeyCallback callback);
void writeKeychain(ProviderKind kind, const QString& key, QObject* context, KeyCallback callback);
void deleteKeychain(ProviderKind kind, QObject* context, KeyCallback callback);

// Reads the key from the keychain and waits for the answer, at most timeoutMs. QtKeychain is not
// thread-safe, so the job always runs on the application's thread: a worker thread (the Director's) asks
// there and waits without processing events (no re-entrancy); on the application's thread itself (the
// command line before its event loop) a local event loop runs until the answer or the timeout. Not for a
// GUI thread that is already running its event loop. The key (empty when the keychain has none), or nullopt
// and *error when the keychain is not available (no secret service on a headless machine) or did not answer
// in time. The error never holds the key.
std::optional<QString> readKeychainBlocking(ProviderKind kind, int timeoutMs, QString* error = nullptr);
// Keychain jobs asked for and not finished yet (a blocking read that timed out leaves its job running).
int keychainJobsRunning();

} // namespace keystore

// Creates the provider for a kind (the caller owns it).
std::unique_ptr<Provider> createProvider(ProviderKind kind, ProviderConfig config, QObject* parent = nullptr);

} // namespace ciu::director
