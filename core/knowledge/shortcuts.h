#pragma once

// Keyboard shortcuts of programs: the value kept per menu action, the parsers that turn what a toolkit or
// the screen shows ("<Primary><Shift>s", "Ctrl+Shift+S", "Shift+Ctrl+S" at the right of a menu row) into
// our key syntax (platform/keys.h, "ctrl+shift+s"), and an application's set with its merge rules.

#include "core/model/zone.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QRect>
#include <QString>

#include <optional>

namespace ciu {

enum class ShortcutSource : quint8
{
    Atspi = 1, // the accessibility tree (a menu item's key binding)
    Vision,    // the accelerator text of a menu row read from the screen
    Schema,    // a shipped app schema
    User,      // entered or confirmed by the user
};
QString toString(ShortcutSource source);
std::optional<ShortcutSource> shortcutSourceFromString(const QString& text);

// One menu action of a program: how to run it by keys and where it sits in the menus.
struct Shortcut
{
    QString action; // the item's label as shown, mnemonic markers removed ("Save As…")
    QString keys;   // canonical keys ("ctrl+shift+s"); empty when only the menu path is known
    QString menu;   // the menu path, item last ("File > Save As…"); empty when unknown
    ShortcutSource source = ShortcutSource::Atspi;
    qint64 verifiedAtMs =
        0; // ms since the epoch of the last run through `keys` that had its effect; 0: never
    // A label that appeared when the action last ran through its menu path (a dialog's title or first
    // field): keys read from the tree are tried first once it is known, and must make it appear too.
    QString effect;

    bool isVerified() const { return verifiedAtMs > 0; }
    // The action as matched: case-folded, mnemonic markers and a trailing ellipsis removed, spaces collapsed.
    QString matchKey() const;
    bool operator==(const Shortcut&) const = default;

    QJsonObject toJson() const;
    // Strict: nullopt with `error` set for a missing or wrong field (keys must parse as canonical keys).
    static std::optional<Shortcut> fromJson(const QJsonObject& object, QString* error = nullptr);
};

// "_Save As..." / "Save &As…" / "save as" all give "save as".
QString normalizedAction(const QString& label);
// A label as a user reads it: mnemonic markers ("_", "&") removed, "&&"/"__" kept as one character.
QString withoutMnemonic(const QString& label);

// One accelerator in any common notation → canonical keys ("ctrl+shift+s", "F5", "alt+Return").
// Accepts GTK's "<Primary><Shift>s" / "<Control>Page_Up", Qt's and the screen's "Ctrl+Shift+S",
// "Shift+Ctrl+Z", "Ctrl++", "F5", "Del". nullopt when it is no key combination we can press.
std::optional<QString> canonicalKeys(const QString& accelerator);

// The accelerator in an AT-SPI key binding of a menu item with this label, canonical; empty when the binding
// holds none. GTK 3 gives "<mnemonic>;<mnemonic path>;<accelerator>" ("s;<Alt>f:s;<Control>s",
// "a;;<Primary>a"); Qt gives the shortcut ("Ctrl+O") or, for an item without one, its mnemonic as "Alt+n":
// an Alt+letter whose letter occurs in the label is taken for a mnemonic, not a shortcut.
QString acceleratorFromKeyBinding(const QString& binding, const QString& label);

// A menu row as read from the screen ("Save As…      Shift+Ctrl+S"): the label and the canonical keys of
// the accelerator at its end. nullopt when the row ends in no accelerator (a plain letter or digit alone is
// not taken for one: it may be part of the label).
struct MenuRowText
{
    QString label;
    QString keys;
};
std::optional<MenuRowText> parseMenuRowText(const QString& text);

// A place in a program's window the schema names ("search field"), relative to the window's top left. On the
// map it names the zone detected there, or is one (core/knowledge/schemazones.h). In a schema document
// (core/knowledge/schemadocument.h) the zone inspector's hand corrections are named zones of source User.
struct NamedZone
{
    QString name;
    QRect bounds;
    ZoneType type = ZoneType::Static;               // the zone's type when nothing is detected there
    ShortcutSource source = ShortcutSource::Schema; // Schema: shipped or learned; User: a hand correction
    bool operator==(const NamedZone&) const = default;

    // {"name", "x", "y", "w", "h"} and, when not the defaults, "type" and "source".
    QJsonObject toJson() const;
    // Strict: nullopt with `error` for a wrong or missing field; an empty name only for a User zone.
    static std::optional<NamedZone> fromJson(const QJsonObject& object, QString* error = nullptr);
};

// What is known about one program (keyed by its WM_CLASS): its shortcuts, named zones and notes. The
// format of shipped app schemas and of what the agent learns (docs/ARCHITECTURE.md, "App schemas").
struct AppSchema
{
    QString application; // WM_CLASS class ("Mousepad")
    QList<Shortcut> shortcuts;
    QList<NamedZone> zones;
    QString notes;

    bool isEmpty() const { return shortcuts.isEmpty() && zones.isEmpty() && notes.isEmpty(); }
    bool operator==(const AppSchema&) const = default;

    // The shortcut of an action (matched with normalizedAction(); a menu path "File > Save" also matches),
    // the one with keys first. Null when unknown.
    const Shortcut* find(const QString& actionOrPath) const;
    // Adds or updates by action and menu path. An entry the user made is never replaced by a discovered one;
    // a discovered one replaces the keys of an older one of another source, keeping the verification
    // time when the keys stay the same. Returns true when something changed.
    bool merge(const Shortcut& shortcut);
    // Marks the action's shortcut as run successfully through its keys at `atMs`.
    bool markVerified(const QString& actionOrPath, qint64 atMs);
    // Keeps `label` as the effect of the action (Shortcut::effect); false when unknown or unchanged.
    bool noteEffect(const QString& actionOrPath, const QString& label);

    QJsonObject toJson() const;
    // Strict: nullopt with `error` for any wrong or missing field.
    static std::optional<AppSchema> fromJson(const QJsonObject& object, QString* error = nullptr);
};

// A shipped schema of a program (Qt resource :/ciu/schemas/<class>.json, matched case-insensitively),
// every shortcut with source Schema. nullopt when none is shipped; a corrupt shipped file is reported.
std::optional<AppSchema> shippedSchema(const QString& application, QString* error = nullptr);
// The programs with a shipped schema.
QStringList shippedSchemaApplications();

} // namespace ciu

Q_DECLARE_METATYPE(ciu::Shortcut)
