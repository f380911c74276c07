#include "platform/platform.h"
#include "platform/synthetic/syntheticplatform.h"
#include "platform/x11/x11platform.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcPlatform, "ciu.platform")

namespace ciu::platform {

QStringList availableBackends()
{
    return {QStringLiteral("x11"), QStringLiteral("synthetic")};
}

PlatformResult createPlatform(const PlatformOptions& options)
{
    QString backend = options.backend;
    if (backend.isEmpty())
        backend = qEnvironmentVariable("CIU_PLATFORM");
    if (backend.isEmpty())
        backend = QStringLiteral("x11");
    backend = backend.toLower();

    if (backend == QLatin1String("synthetic")) {
        const QString name = options.displayName.isEmpty() ? QStringLiteral("synthetic:0") : options.displayName;
        qCDebug(lcPlatform) << "using the synthetic backend on" << name;
        PlatformResult result;
        result.platform = std::make_unique<SyntheticPlatform>(name, SyntheticScene::forDisplay(name));
        return result;
    }
    if (backend == QLatin1String("x11"))
        return createX11Platform(options.displayName);

    PlatformResult result;
    result.error = QStringLiteral("unknown platform backend \"%1\" (CIU_PLATFORM); known: %2")
                       .arg(backend, availableBackends().join(QStringLiteral(", ")));
    return result;
}

}  // namespace ciu::platform
