#include "platform/keys.h"

#include <QHash>
#include <QRegularExpression>
#include <QStringList>

#include <xkbcommon/xkbcommon.h>

namespace ciu::platform {
namespace {

// Portable names (the Claude computer tool, pyautogui) → keysym names.
const QHash<QString, QString>& aliases()
{
    static const QHash<QString, QString> table = {
        {QStringLiteral("ctrl"), QStringLiteral("Control_L")},
        {QStringLiteral("control"), QStringLiteral("Control_L")},
        {QStringLiteral("lctrl"), QStringLiteral("Control_L")},
        {QStringLiteral("rctrl"), QStringLiteral("Control_R")},
        {QStringLiteral("shift"), QStringLiteral("Shift_L")},
        {QStringLiteral("lshift"), QStringLiteral("Shift_L")},
        {QStringLiteral("rshift"), QStringLiteral("Shift_R")},
        {QStringLiteral("alt"), QStringLiteral("Alt_L")},
        {QStringLiteral("lalt"), QStringLiteral("Alt_L")},
        {QStringLiteral("ralt"), QStringLiteral("Alt_R")},
        {QStringLiteral("altgr"), QStringLiteral("ISO_Level3_Shift")},
        {QStringLiteral("meta"), QStringLiteral("Meta_L")},
        {QStringLiteral("super"), QStringLiteral("Super_L")},
        {QStringLiteral("win"), QStringLiteral("Super_L")},
        {QStringLiteral("windows"), QStringLiteral("Super_L")},
        {QStringLiteral("cmd"), QStringLiteral("Super_L")},
        {QStringLiteral("command"), QStringLiteral("Super_L")},
        {QStringLiteral("hyper"), QStringLiteral("Hyper_L")},
        // navigation
        {QStringLiteral("up"), QStringLiteral("Up")},
        {QStringLiteral("down"), QStringLiteral("Down")},
        {QStringLiteral("left"), QStringLiteral("Left")},
        {QStringLiteral("right"), QStringLiteral("Right")},
        {QStringLiteral("home"), QStringLiteral("Home")},
        {QStringLiteral("end"), QStringLiteral("End")},
        {QStringLiteral("pageup"), QStringLiteral("Prior")},
        {QStringLiteral("page_up"), QStringLiteral("Prior")},
        {QStringLiteral("pgup"), QStringLiteral("Prior")},
        {QStringLiteral("pagedown"), QStringLiteral("Next")},
        {QStringLiteral("page_down"), QStringLiteral("Next")},
        {QStringLiteral("pgdn"), QStringLiteral("Next")},
        // editing
        {QStringLiteral("insert"), QStringLiteral("Insert")},
        {QStringLiteral("ins"), QStringLiteral("Insert")},
        {QStringLiteral("delete"), QStringLiteral("Delete")},
        {QStringLiteral("del"), QStringLiteral("Delete")},
        {QStringLiteral("backspace"), QStringLiteral("BackSpace")},
        {QStringLiteral("tab"), QStringLiteral("Tab")},
        {QStringLiteral("enter"), QStringLiteral("Return")},
        {QStringLiteral("return"), QStringLiteral("Return")},
        {QStringLiteral("escape"), QStringLiteral("Escape")},
        {QStringLiteral("esc"), QStringLiteral("Escape")},
        {QStringLiteral("space"), QStringLiteral("space")},
        {QStringLiteral("menu"), QStringLiteral("Menu")},
        // numpad
        {QStringLiteral("numpadadd"), QStringLiteral("KP_Add")},
        {QStringLiteral("numpadsubtract"), QStringLiteral("KP_Subtract")},
        {QStringLiteral("numpadmultiply"), QStringLiteral("KP_Multiply")},
        {QStringLiteral("numpaddivide"), QStringLiteral("KP_Divide")},
        {QStringLiteral("numpadenter"), QStringLiteral("KP_Enter")},
        {QStringLiteral("numpaddecimal"), QStringLiteral("KP_Decimal")},
        // system
        {QStringLiteral("printscreen"), QStringLiteral("Print")},
        {QStringLiteral("prtsc"), QStringLiteral("Print")},
        {QStringLiteral("print"), QStringLiteral("Print")},
        {QStringLiteral("scrolllock"), QStringLiteral("Scroll_Lock")},
        {QStringLiteral("pause"), QStringLiteral("Pause")},
        {QStringLiteral("break"), QStringLiteral("Break")},
        {QStringLiteral("capslock"), QStringLiteral("Caps_Lock")},
        {QStringLiteral("numlock"), QStringLiteral("Num_Lock")},
        // media
        {QStringLiteral("volumeup"), QStringLiteral("XF86AudioRaiseVolume")},
        {QStringLiteral("volumedown"), QStringLiteral("XF86AudioLowerVolume")},
        {QStringLiteral("volumemute"), QStringLiteral("XF86AudioMute")},
        {QStringLiteral("playpause"), QStringLiteral("XF86AudioPlay")},
        {QStringLiteral("play"), QStringLiteral("XF86AudioPlay")},
        {QStringLiteral("stop"), QStringLiteral("XF86AudioStop")},
        {QStringLiteral("nexttrack"), QStringLiteral("XF86AudioNext")},
        {QStringLiteral("previoustrack"), QStringLiteral("XF86AudioPrev")},
        {QStringLiteral("prevtrack"), QStringLiteral("XF86AudioPrev")},
    };
    return table;
}

std::optional<Keysym> lookup(const QByteArray& name, xkb_keysym_flags flags)
{
    const xkb_keysym_t sym = xkb_keysym_from_name(name.constData(), flags);
    if (sym == XKB_KEY_NoSymbol)
        return std::nullopt;
    return sym;
}

} // namespace

std::optional<Keysym> keysymFromName(const QString& rawName)
{
    const QString name = rawName.trimmed();
    if (name.isEmpty())
        return std::nullopt;
    // No key name has a control character, and a NUL would end the C string libxkbcommon reads: "o\0x"
    // resolved to "o" (found with fuzz_commandscript).
    for (const QChar c : name) {
        if (c.category() == QChar::Other_Control)
            return std::nullopt;
    }
    const QString lower = name.toLower();
    if (const auto it = aliases().constFind(lower); it != aliases().cend())
        return lookup(it->toLatin1(), XKB_KEYSYM_NO_FLAGS);
    // numpad0..numpad9, f1..f35
    if (lower.startsWith(QLatin1String("numpad")) && lower.size() == 7 && lower.at(6).isDigit())
        return lookup(QByteArray("KP_") + lower.at(6).toLatin1(), XKB_KEYSYM_NO_FLAGS);
    // One printable character (possibly outside Latin-1) is that character.
    const QList<uint> ucs = name.toUcs4();
    if (ucs.size() == 1 && name.at(0).isPrint())
        return keysymFromCodePoint(ucs.first());
    if (auto exact = lookup(name.toUtf8(), XKB_KEYSYM_NO_FLAGS))
        return exact;
    return lookup(name.toUtf8(), XKB_KEYSYM_CASE_INSENSITIVE);
}

QString keysymName(Keysym keysym)
{
    char buffer[64];
    const int n = xkb_keysym_get_name(keysym, buffer, sizeof buffer);
    if (n <= 0)
        return QStringLiteral("0x%1").arg(keysym, 0, 16);
    return QString::fromLatin1(buffer, qMin(n, int(sizeof buffer) - 1));
}

bool isModifier(Keysym keysym)
{
    switch (keysym) {
    case XKB_KEY_Shift_L:
    case XKB_KEY_Shift_R:
    case XKB_KEY_Control_L:
    case XKB_KEY_Control_R:
    case XKB_KEY_Alt_L:
    case XKB_KEY_Alt_R:
    case XKB_KEY_Meta_L:
    case XKB_KEY_Meta_R:
    case XKB_KEY_Super_L:
    case XKB_KEY_Super_R:
    case XKB_KEY_Hyper_L:
    case XKB_KEY_Hyper_R:
    case XKB_KEY_ISO_Level3_Shift:
        return true;
    default:
        return false;
    }
}

QString keysymToText(Keysym keysym)
{
    const uint32_t cp = xkb_keysym_to_utf32(keysym);
    if (cp == 0 || cp < 0x20 || cp == 0x7f)
        return {};
    const char32_t c = cp;
    return QString::fromUcs4(&c, 1);
}

Keysym keysymFromCodePoint(char32_t codePoint)
{
    const xkb_keysym_t sym = xkb_utf32_to_keysym(codePoint);
    if (sym != XKB_KEY_NoSymbol)
        return sym;
    return 0x01000000u + codePoint;
}

KeyParseResult parseKeySequence(const QString& text)
{
    KeyParseResult result;
    const QStringList groups = text.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    if (groups.isEmpty()) {
        result.error = QStringLiteral("empty key sequence");
        return result;
    }
    for (const QString& group : groups) {
        KeyCombo combo;
        // "+" on its own or at the end names the plus key: "ctrl++" is ctrl and plus.
        QStringList parts;
        QString current;
        for (int i = 0; i < group.size(); ++i) {
            const QChar c = group.at(i);
            if (c == QLatin1Char('+') && !current.isEmpty()) {
                parts << current;
                current.clear();
            } else {
                current += c;
            }
        }
        if (!current.isEmpty())
            parts << current;
        if (parts.isEmpty()) {
            result.error = QStringLiteral("empty key in \"%1\"").arg(group);
            return result;
        }
        for (int i = 0; i < parts.size(); ++i) {
            const auto sym = keysymFromName(parts.at(i));
            if (!sym) {
                result.error = QStringLiteral("unknown key name \"%1\" in \"%2\"").arg(parts.at(i), group);
                result.combos.clear();
                return result;
            }
            if (i == parts.size() - 1)
                combo.key = *sym;
            else
                combo.modifiers << *sym;
        }
        result.combos << combo;
    }
    return result;
}

} // namespace ciu::platform
