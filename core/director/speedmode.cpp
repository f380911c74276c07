#include "core/director/speedmode.h"

#include "platform/keys.h"

namespace ciu {
namespace {

bool labelIsOneOf(const QString& label, std::initializer_list<const char*> words)
{
    const QString l = label.trimmed().toLower().remove(QLatin1Char('&'));
    for (const char* w : words) {
        if (l == QLatin1String(w) || l.startsWith(QLatin1String(w) + QLatin1Char(' ')))
            return true;
    }
    return false;
}

bool keyIsOneOf(const QString& keys, std::initializer_list<const char*> combos)
{
    const QString k = keys.trimmed().toLower();
    for (const char* c : combos) {
        if (k == QLatin1String(c) || k.endsWith(QLatin1Char(' ') + QLatin1String(c)))
            return true;
    }
    return false;
}

} // namespace

QString toString(SpeedMode mode)
{
    switch (mode) {
    case SpeedMode::Max:
        return QStringLiteral("max");
    case SpeedMode::High:
        return QStringLiteral("high");
    case SpeedMode::Medium:
        return QStringLiteral("medium");
    case SpeedMode::Low:
        return QStringLiteral("low");
    }
    return {};
}

std::optional<SpeedMode> speedModeFromString(const QString& name)
{
    const QString n = name.trimmed().toLower();
    for (SpeedMode m : {SpeedMode::Max, SpeedMode::High, SpeedMode::Medium, SpeedMode::Low}) {
        if (n == toString(m) || n == QStringLiteral("speed-") + toString(m))
            return m;
    }
    return std::nullopt;
}

QString toString(Verification verification)
{
    switch (verification) {
    case Verification::None:
        return QStringLiteral("none");
    case Verification::Local:
        return QStringLiteral("local");
    case Verification::Model:
        return QStringLiteral("model");
    }
    return {};
}

bool SpeedPolicy::isTransition(const ActionContext& c)
{
    const Action& a = c.action;
    switch (a.type) {
    case Action::Type::Launch:
        return true;
    case Action::Type::Key:
        // Application switching, closing windows, submitting a form, leaving a dialog.
        return keyIsOneOf(a.text,
                          {"alt+tab",        "alt+shift+tab", "super",         "super_l",   "alt+f4",
                           "ctrl+w",         "ctrl+q",        "return",        "enter",     "kp_enter",
                           "escape",         "esc",           "alt+left",      "alt+right", "ctrl+tab",
                           "ctrl+shift+tab", "ctrl+pageup",   "ctrl+pagedown", "ctrl+o",    "ctrl+n",
                           "ctrl+s",         "ctrl+shift+s",  "ctrl+p",        "f5"});
    case Action::Type::LeftClick:
    case Action::Type::DoubleClick:
        if (c.zoneType == ZoneType::Tab || c.zoneType == ZoneType::Link || c.zoneType == ZoneType::MenuItem)
            return true;
        if (c.zoneType == ZoneType::Button)
            return labelIsOneOf(c.zoneLabel, {"submit", "ok",     "save",        "send",     "apply",
                                              "yes",    "no",     "cancel",      "close",    "open",
                                              "next",   "back",   "previous",    "finish",   "done",
                                              "login",  "log in", "sign in",     "continue", "confirm",
                                              "delete", "remove", "open dialog", "search",   "go"});
        return a.type == Action::Type::DoubleClick && !c.zoneType; // double-click on the desktop/icons
    default:
        return false;
    }
}

bool SpeedPolicy::changesState(const ActionContext& c)
{
    switch (c.action.type) {
    case Action::Type::LeftClick:
    case Action::Type::RightClick:
    case Action::Type::MiddleClick:
    case Action::Type::DoubleClick:
    case Action::Type::TripleClick:
    case Action::Type::LeftClickDrag:
    case Action::Type::LeftMouseUp:
    case Action::Type::Scroll:
    case Action::Type::TypeText:
    case Action::Type::Paste:
    case Action::Type::Cut:
    case Action::Type::Launch:
        return true;
    case Action::Type::Key: {
        // Keyboard shortcuts and control keys; a lone letter typed as a key counts too.
        return !c.action.text.trimmed().isEmpty();
    }
    default:
        return false;
    }
}

Verification SpeedPolicy::verificationFor(const ActionContext& c) const
{
    const auto model = [&] { return c.modelAvailable ? Verification::Model : Verification::Local; };
    if (c.action.type == Action::Type::Wait || c.action.type == Action::Type::WaitForChange ||
        c.action.type == Action::Type::Screenshot || c.action.type == Action::Type::CursorPosition)
        return c.checkpoint ? Verification::Local : Verification::None;
    switch (m_mode) {
    case SpeedMode::Max:
        return c.checkpoint ? Verification::Local : Verification::None;
    case SpeedMode::High:
        if (isTransition(c))
            return model();
        return c.checkpoint ? Verification::Local : Verification::None;
    case SpeedMode::Medium:
        if (isTransition(c))
            return model();
        return changesState(c) || c.checkpoint ? Verification::Local : Verification::None;
    case SpeedMode::Low:
        return model();
    }
    return Verification::Local;
}

bool SpeedPolicy::screenshotForVerification(const ActionContext& c) const
{
    if (verificationFor(c) != Verification::Model)
        return false;
    // Low sends one after every action; High and Medium at transitions only. Max never does.
    return m_mode == SpeedMode::Low || isTransition(c);
}

std::optional<SpeedMode> SpeedPolicy::escalate()
{
    if (m_mode == SpeedMode::Low)
        return std::nullopt;
    m_mode = SpeedMode(quint8(m_mode) + 1);
    ++m_escalations;
    return m_mode;
}

bool SpeedPolicy::request(SpeedMode mode)
{
    if (quint8(mode) <= quint8(m_mode))
        return false; // never de-escalate
    m_mode = mode;
    return true;
}

} // namespace ciu
