#include "core/providers/providerfactory.h"

#include "core/providers/keystore.h"
#include "core/providers/providerslog.h"

#include <QUrl>

namespace ciu::director {
namespace {

bool isHostOf(const QString& host, QLatin1String domain)
{
    const QString subdomainSuffix = QLatin1Char('.') + QString(domain);
    return host.compare(domain, Qt::CaseInsensitive) == 0 ||
           host.endsWith(subdomainSuffix, Qt::CaseInsensitive);
}

} // namespace

KeychainReader defaultKeychainReader()
{
    return [](ProviderKind kind, QString* error) {
        return keystore::readKeychainBlocking(kind, kKeychainTimeoutMs, error);
    };
}

bool requiresApiKey(ProviderKind kind, const QUrl& baseUrl)
{
    if (kind == ProviderKind::Anthropic)
        return true;
    const QString host = baseUrl.host();
    return isHostOf(host, QLatin1String("anthropic.com")) || isHostOf(host, QLatin1String("openai.com"));
}

std::unique_ptr<Provider> configuredProvider(const QString& name, const KeychainReader& keychain,
                                             QString* error, const ProviderFactoryOptions& options)
{
    const auto kind = providerKindFromString(name);
    if (!kind) {
        *error = QStringLiteral("unknown provider \"%1\"").arg(name);
        return nullptr;
    }
    QString configError;
    auto config = keystore::configFor(*kind, options.settings, &configError);
    if (!config) {
        *error = configError;
        return nullptr;
    }
    QString keychainProblem;
    if (config->apiKey.isEmpty() && keychain) {
        // Only when the environment has no key: the environment wins.
        const std::optional<QString> key = keychain(*kind, &keychainProblem);
        if (key && !key->trimmed().isEmpty()) {
            config->apiKey = key->trimmed();
            qCInfo(lcProvider).noquote() << "the" << name << "API key comes from the keychain";
        } else if (key) {
            keychainProblem = QStringLiteral("the keychain holds none");
        }
    }
    if (config->apiKey.isEmpty()) {
        const QString detail =
            keychainProblem.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(keychainProblem);
        if (requiresApiKey(*kind, config->baseUrl)) {
            *error =
                QStringLiteral("no API key for %1: set %2 or store one in the keychain%3; nothing was sent")
                    .arg(name, keystore::environmentKeyName(*kind), detail);
            return nullptr;
        }
        qCInfo(lcProvider).noquote()
            << QStringLiteral(
                   "no API key for %1%2 - sending without one (local OpenAI-compatible servers need none)")
                   .arg(name, detail);
    }
    if (options.maxRetryDelayMs)
        config->maxRetryDelayMs = *options.maxRetryDelayMs;
    auto provider = createProvider(*kind, std::move(*config));
    if (!provider)
        *error = QStringLiteral("cannot create the %1 provider").arg(name);
    return provider;
}

} // namespace ciu::director
