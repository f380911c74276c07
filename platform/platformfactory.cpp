#include "platform/platformfactory.h"

#include "platform/atspi/atspiaccessibility.h"
#include "platform/keys.h"
#include "platform/platformlog.h"
#include "platform/synthetic/synthetichotkey.h"
#include "platform/synthetic/syntheticplatform.h"
#include "platform/x11/x11hotkey.h"
#include "platform/x11/x11platform.h"

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
        const QString name =
            options.displayName.isEmpty() ? QStringLiteral("synthetic:0") : options.displayName;
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

GlobalHotkeyResult createGlobalHotkey(const QString& sequence, const PlatformOptions& options)
{
    GlobalHotkeyResult result;
    const KeyParseResult parsed = parseKeySequence(sequence);
    if (!parsed.ok()) {
        result.error = QStringLiteral("bad hotkey \"%1\": %2").arg(sequence, parsed.error);
        return result;
    }
    if (parsed.combos.size() != 1) {
        result.error = QStringLiteral("a hotkey is one key combination, not \"%1\"").arg(sequence);
        return result;
    }
    QString backend = options.backend;
    if (backend.isEmpty())
        backend = qEnvironmentVariable("CIU_PLATFORM");
    backend = backend.isEmpty() ? QStringLiteral("x11") : backend.toLower();
    if (backend == QLatin1String("synthetic")) {
        result.hotkey = std::make_unique<SyntheticGlobalHotkey>(sequence);
        return result;
    }
    if (backend == QLatin1String("x11"))
        return createX11GlobalHotkey(sequence, parsed.combos.first(), options.displayName);
    result.error = QStringLiteral("unknown platform backend \"%1\"").arg(backend);
    return result;
}

std::unique_ptr<Accessibility> createAccessibility(const AccessibilityOptions& options)
{
    QString backend = options.backend;
    if (backend.isEmpty())
        backend = qEnvironmentVariable("CIU_ACCESSIBILITY");
    backend = backend.isEmpty() ? QStringLiteral("atspi") : backend.toLower();
    if (backend == QLatin1String("none") || backend == QLatin1String("off"))
        return std::make_unique<NullAccessibility>(
            QStringLiteral("accessibility turned off (%1)").arg(backend));
    if (backend == QLatin1String("atspi"))
        return atspi::createAtspiAccessibility(options.limits);
    qCWarning(lcPlatform).noquote() << "unknown accessibility backend" << backend
                                    << "(CIU_ACCESSIBILITY); known: atspi, none";
    return std::make_unique<NullAccessibility>(
        QStringLiteral("unknown accessibility backend \"%1\" (known: atspi, none)").arg(backend));
}

void triggerForTest(GlobalHotkey& hotkey)
{
    if (auto* synthetic = dynamic_cast<SyntheticGlobalHotkey*>(&hotkey))
        synthetic->trigger();
}

} // namespace ciu::platform
