#include "ui/controllers/hotkeycontroller.h"

#include "platform/platformfactory.h"
#include "ui/uilog.h"

#include <QGuiApplication>

namespace ciu::ui {

HotkeyController::HotkeyController(platform::PlatformOptions options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
{
}

HotkeyController::~HotkeyController() = default;

HotkeyController::GrabResult HotkeyController::grab(const QString& sequence)
{
    release();
    m_error.clear();
    const QString backend =
        (m_options.backend.isEmpty() ? qEnvironmentVariable("CIU_PLATFORM") : m_options.backend).toLower();
    const bool x11 = backend.isEmpty() || backend == QLatin1String("x11");
    if (x11 && QGuiApplication::platformName() != QLatin1String("xcb")) {
        qCInfo(lcUi) << "no global hotkey on the" << QGuiApplication::platformName() << "platform";
        return GrabResult::Unsupported;
    }
    auto result = platform::createGlobalHotkey(sequence, m_options);
    if (!result.hotkey) {
        m_error = result.error;
        qCWarning(lcUi) << "emergency-stop hotkey:" << m_error;
        return GrabResult::Failed;
    }
    m_hotkey = std::move(result.hotkey);
    connect(m_hotkey.get(), &platform::GlobalHotkey::activated, this, &HotkeyController::activated);
    return GrabResult::Grabbed;
}

void HotkeyController::release()
{
    m_hotkey.reset();
}

QString HotkeyController::sequence() const
{
    return m_hotkey ? m_hotkey->sequence() : QString();
}

} // namespace ciu::ui
