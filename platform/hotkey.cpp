#include "platform/hotkey.h"

#include "platform/keys.h"
#include "platform/x11/x11hotkey.h"

namespace ciu::platform {
namespace {

class SyntheticGlobalHotkey final : public GlobalHotkey
{
public:
    explicit SyntheticGlobalHotkey(QString sequence)
        : m_sequence(std::move(sequence))
    {
    }
    QString sequence() const override { return m_sequence; }
    QString errorString() const override { return {}; }
    void trigger() { emit activated(); }

private:
    QString m_sequence;
};

} // namespace

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

void triggerForTest(GlobalHotkey& hotkey)
{
    if (auto* synthetic = dynamic_cast<SyntheticGlobalHotkey*>(&hotkey))
        synthetic->trigger();
}

} // namespace ciu::platform
