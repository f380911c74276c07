#include "core/director/backends.h"

#include "core/director/localplanner.h"
#include "core/director/modelplanner.h"
#include "core/director/providers/keystore.h"

namespace ciu {

QString defaultProviderName()
{
    if (director::keystore::keyFromEnvironment(director::ProviderKind::Anthropic))
        return QStringLiteral("anthropic");
    return QStringLiteral("local");
}

std::unique_ptr<PlanBackend> createPlanBackend(const DirectorOptions& options, QString* error)
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
    if (config->apiKey.isEmpty() && *kind == director::ProviderKind::Anthropic) {
        *error = QStringLiteral("no API key for %1: set %2 or store one in the keychain (nothing was sent)")
                     .arg(name, director::keystore::environmentKeyName(*kind));
        return nullptr;
    }
    auto provider = director::createProvider(*kind, std::move(*config));
    if (!provider) {
        *error = QStringLiteral("cannot create the %1 provider").arg(name);
        return nullptr;
    }
    return std::make_unique<ModelPlanner>(std::move(provider), options.loop, options.model);
}

} // namespace ciu
