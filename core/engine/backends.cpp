#include "core/engine/backends.h"

#include "core/director/localplanner.h"
#include "core/director/modelplanner.h"
#include "core/engine/enginelog.h"
#include "core/providers/keystore.h"

namespace ciu {

KeychainReader defaultKeychainReader()
{
    return [](director::ProviderKind kind, QString* error) {
        return director::keystore::readKeychainBlocking(kind, kKeychainTimeoutMs, error);
    };
}

QString defaultProviderName()
{
    if (director::keystore::keyFromEnvironment(director::ProviderKind::Anthropic))
        return QStringLiteral("anthropic");
    return QStringLiteral("local");
}

std::unique_ptr<PlanBackend> createPlanBackend(const DirectorOptions& options, QString* error)
{
    return createPlanBackendWith(options, error, defaultKeychainReader());
}

std::unique_ptr<PlanBackend> createPlanBackendWith(const DirectorOptions& options, QString* error,
                                                   const KeychainReader& keychain)
{
    const QString name = options.provider.isEmpty() ? QStringLiteral("local") : options.provider;
    if (name == QLatin1String("local")) {
        if (options.loop == DirectorOptions::Loop::Classic) {
            *error =
                QStringLiteral("the classic loop needs a model provider (--provider anthropic or openai)");
            return nullptr;
        }
        return std::make_unique<LocalPlanner>();
    }
    const auto kind = director::providerKindFromString(name);
    if (!kind) {
        *error = QStringLiteral("unknown provider \"%1\"").arg(name);
        return nullptr;
    }
    QString configError;
    auto config = director::keystore::configFor(*kind, nullptr, &configError);
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
            qCInfo(lcBackends).noquote() << "the" << name << "API key comes from the keychain";
        } else if (key) {
            keychainProblem = QStringLiteral("the keychain holds none");
        }
    }
    if (config->apiKey.isEmpty()) {
        const QString detail =
            keychainProblem.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(keychainProblem);
        if (*kind == director::ProviderKind::Anthropic) {
            *error =
                QStringLiteral("no API key for %1: set %2 or store one in the keychain%3; nothing was sent")
                    .arg(name, director::keystore::environmentKeyName(*kind), detail);
            return nullptr;
        }
        qCInfo(lcBackends).noquote()
            << QStringLiteral(
                   "no API key for %1%2 - sending without one (local OpenAI-compatible servers need none)")
                   .arg(name, detail);
    }
    auto provider = director::createProvider(*kind, std::move(*config));
    if (!provider) {
        *error = QStringLiteral("cannot create the %1 provider").arg(name);
        return nullptr;
    }
    return std::make_unique<ModelPlanner>(std::move(provider), options.loop, options.model);
}

} // namespace ciu
