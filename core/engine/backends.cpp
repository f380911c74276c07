#include "core/engine/backends.h"

#include "core/director/localplanner.h"
#include "core/director/modelplanner.h"
#include "core/providers/keystore.h"

namespace ciu {

QString defaultProviderName()
{
    if (director::keystore::keyFromEnvironment(director::ProviderKind::Anthropic))
        return QStringLiteral("anthropic");
    return QStringLiteral("local");
}

std::unique_ptr<PlanBackend> createPlanBackend(const DirectorOptions& options, QString* error)
{
    return createPlanBackendWith(options, error, director::defaultKeychainReader());
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
    auto provider = director::configuredProvider(name, keychain, error);
    if (!provider)
        return nullptr;
    return std::make_unique<ModelPlanner>(std::move(provider), options.loop, options.model);
}

} // namespace ciu
