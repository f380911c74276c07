#pragma once

// Key names in xdotool syntax ("ctrl+s", "alt+Tab", "shift+F10", "KP_Enter", "Super_L"), plus the
// portable names ("enter", "pageup", "numpadadd", "volumeup", "win", ...).
// Keys are identified by X keysyms, which every backend understands (the synthetic one included).

#include <QList>
#include <QString>

#include <cstdint>
#include <optional>

namespace ciu::platform {

using Keysym = std::uint32_t;

struct KeyCombo
{
    QList<Keysym> modifiers; // pressed in order, released in reverse
    Keysym key = 0;          // the last key named; "ctrl" alone is key Control_L
    bool operator==(const KeyCombo&) const = default;
};

struct KeyParseResult
{
    QList<KeyCombo> combos; // "ctrl+a Delete" is two combos
    QString error;          // empty on success
    bool ok() const { return error.isEmpty(); }
};

// Resolves one key name (case-insensitive for the portable aliases, exact first for keysym names).
std::optional<Keysym> keysymFromName(const QString& name);
// The canonical keysym name ("Return", "ctrl" → "Control_L").
QString keysymName(Keysym keysym);
// True for Shift/Control/Alt/Meta/Super/Hyper keysyms.
bool isModifier(Keysym keysym);
// The Unicode text a keysym produces, empty for function keys.
QString keysymToText(Keysym keysym);
// Keysym for a Unicode code point (Latin-1 maps directly, others use 0x01000000 + cp).
Keysym keysymFromCodePoint(char32_t codePoint);

// Parses "ctrl+shift+t", "alt+F4 Return", "super". Whitespace separates combos, '+' joins keys.
KeyParseResult parseKeySequence(const QString& text);

} // namespace ciu::platform
