#include "core/knowledge/shortcuts.h"

#include "core/knowledge/knowledgelog.h"
#include "platform/keys.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace ciu {
namespace {

constexpr int kFormatVersion = 1;

template<typename T> std::optional<T> failed(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return std::nullopt;
}

enum Modifier : quint8
{
    Ctrl = 1,
    Alt = 2,
    Shift = 4,
    Super = 8,
};

std::optional<quint8> modifierFromName(const QString& name)
{
    const QString n = name.toLower();
    if (n == QLatin1String("ctrl") || n == QLatin1String("control") || n == QLatin1String("primary") ||
        n == QLatin1String("strg"))
        return Ctrl;
    if (n == QLatin1String("alt") || n == QLatin1String("mod1"))
        return Alt;
    if (n == QLatin1String("shift"))
        return Shift;
    if (n == QLatin1String("super") || n == QLatin1String("meta") || n == QLatin1String("win") ||
        n == QLatin1String("mod4"))
        return Super;
    return std::nullopt;
}

// The key part: one character (a letter in lower case) or a key name keys.h knows, canonical.
std::optional<QString> keyName(const QString& name)
{
    if (name.isEmpty())
        return std::nullopt;
    const QList<uint> codePoints = name.toUcs4();
    if (codePoints.size() == 1) {
        const char32_t cp = QChar::toLower(char32_t(codePoints.first()));
        const platform::Keysym keysym = platform::keysymFromCodePoint(cp);
        return platform::keysymName(keysym);
    }
    const auto keysym = platform::keysymFromName(name);
    if (!keysym || platform::isModifier(*keysym))
        return std::nullopt;
    return platform::keysymName(*keysym);
}

std::optional<QString> compose(quint8 modifiers, const QString& key)
{
    const auto name = keyName(key);
    if (!name)
        return std::nullopt;
    QStringList parts;
    if (modifiers & Ctrl)
        parts << QStringLiteral("ctrl");
    if (modifiers & Alt)
        parts << QStringLiteral("alt");
    if (modifiers & Shift)
        parts << QStringLiteral("shift");
    if (modifiers & Super)
        parts << QStringLiteral("super");
    parts << *name;
    QString keys = parts.join(QLatin1Char('+'));
    if (!platform::parseKeySequence(keys).ok())
        return std::nullopt;
    return keys;
}

// GTK: "<Primary><Shift>s".
std::optional<QString> gtkAccelerator(const QString& text)
{
    quint8 modifiers = 0;
    qsizetype i = 0;
    while (i < text.size() && text.at(i) == QLatin1Char('<')) {
        const qsizetype close = text.indexOf(QLatin1Char('>'), i);
        if (close < 0)
            return std::nullopt;
        const auto modifier = modifierFromName(text.mid(i + 1, close - i - 1));
        if (!modifier)
            return std::nullopt;
        modifiers |= *modifier;
        i = close + 1;
    }
    return compose(modifiers, text.mid(i));
}

// Qt and the screen: "Ctrl+Shift+S", "Shift+Ctrl+Z", "Ctrl++", "Ctrl+Page Up".
std::optional<QString> plusAccelerator(const QString& text)
{
    quint8 modifiers = 0;
    QString rest = text;
    while (true) {
        const qsizetype plus = rest.indexOf(QLatin1Char('+'));
        if (plus <= 0 || plus == rest.size() - 1)
            break;
        const auto modifier = modifierFromName(rest.left(plus).trimmed());
        if (!modifier)
            return std::nullopt;
        modifiers |= *modifier;
        rest = rest.mid(plus + 1);
    }
    rest = rest.trimmed();
    rest.remove(QLatin1Char(' '));
    return compose(modifiers, rest);
}

} // namespace

QString toString(ShortcutSource source)
{
    switch (source) {
    case ShortcutSource::Atspi:
        return QStringLiteral("atspi");
    case ShortcutSource::Vision:
        return QStringLiteral("vision");
    case ShortcutSource::Schema:
        return QStringLiteral("schema");
    case ShortcutSource::User:
        return QStringLiteral("user");
    }
    return {};
}

std::optional<ShortcutSource> shortcutSourceFromString(const QString& text)
{
    for (ShortcutSource s :
         {ShortcutSource::Atspi, ShortcutSource::Vision, ShortcutSource::Schema, ShortcutSource::User}) {
        if (toString(s) == text)
            return s;
    }
    return std::nullopt;
}

QString withoutMnemonic(const QString& label)
{
    QString result;
    result.reserve(label.size());
    for (qsizetype i = 0; i < label.size(); ++i) {
        const QChar c = label.at(i);
        if (c == QLatin1Char('_') || c == QLatin1Char('&')) {
            if (i + 1 < label.size() && label.at(i + 1) == c) {
                result.append(c); // doubled: the character itself
                ++i;
            }
            continue;
        }
        result.append(c);
    }
    return result;
}

QString normalizedAction(const QString& label)
{
    QString text = withoutMnemonic(label).simplified();
    while (text.endsWith(QChar(0x2026)) || text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return text.trimmed().toCaseFolded();
}

std::optional<QString> canonicalKeys(const QString& accelerator)
{
    const QString text = accelerator.trimmed();
    if (text.isEmpty())
        return std::nullopt;
    if (text.startsWith(QLatin1Char('<')))
        return gtkAccelerator(text);
    return plusAccelerator(text);
}

QString acceleratorFromKeyBinding(const QString& binding, const QString& label)
{
    const QStringList parts = binding.split(QLatin1Char(';'));
    if (parts.size() == 3) // GTK: mnemonic; mnemonic path; accelerator
        return canonicalKeys(parts.at(2)).value_or(QString());
    if (parts.size() != 1)
        return {};
    const auto keys = canonicalKeys(binding);
    if (!keys)
        return {};
    // Qt reports a mnemonic as "Alt+x" when the item has no shortcut.
    static const QRegularExpression altLetter(QStringLiteral("^alt\\+(\\w)$"));
    const QRegularExpressionMatch match = altLetter.match(*keys);
    if (match.hasMatch() && withoutMnemonic(label).contains(match.captured(1), Qt::CaseInsensitive))
        return {};
    return *keys;
}

std::optional<MenuRowText> parseMenuRowText(const QString& text)
{
    // The accelerator: modifiers joined by '+' and a key, or a key that is a shortcut alone (F1-F24, Delete,
    // ...), after a gap at the end of the row.
    static const QRegularExpression row(
        QStringLiteral(
            "^(.*?\\S)\\s+((?:(?:ctrl|control|shift|alt|super|meta|strg)\\s*\\+\\s*)+(?:[^\\s+]+|\\+)|"
            "F[0-9]{1,2}|Del|Delete|Ins|Insert|Esc|Escape|Backspace|Pause|Print)\\s*$"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = row.match(text.simplified());
    if (!match.hasMatch())
        return std::nullopt;
    const auto keys = canonicalKeys(match.captured(2));
    if (!keys)
        return std::nullopt;
    return MenuRowText{withoutMnemonic(match.captured(1)).trimmed(), *keys};
}

QString Shortcut::matchKey() const
{
    return normalizedAction(action);
}

QJsonObject Shortcut::toJson() const
{
    QJsonObject o{{QStringLiteral("action"), action},
                  {QStringLiteral("keys"), keys},
                  {QStringLiteral("menu"), menu},
                  {QStringLiteral("source"), toString(source)}};
    if (verifiedAtMs > 0)
        o.insert(QStringLiteral("verified_ms"), double(verifiedAtMs));
    if (!effect.isEmpty())
        o.insert(QStringLiteral("effect"), effect);
    return o;
}

std::optional<Shortcut> Shortcut::fromJson(const QJsonObject& object, QString* error)
{
    Shortcut s;
    for (const char* key : {"action", "keys", "menu", "source"}) {
        const QJsonValue v = object.value(QLatin1String(key));
        if (!v.isString() && !(v.isUndefined() && (qstrcmp(key, "keys") == 0 || qstrcmp(key, "menu") == 0)))
            return failed<Shortcut>(error, QStringLiteral("\"%1\" must be a string").arg(QLatin1String(key)));
    }
    s.action = object.value(QLatin1String("action")).toString();
    if (normalizedAction(s.action).isEmpty())
        return failed<Shortcut>(error, QStringLiteral("a shortcut without an action"));
    s.menu = object.value(QLatin1String("menu")).toString();
    const QString keys = object.value(QLatin1String("keys")).toString();
    if (!keys.isEmpty()) {
        const auto canonical = canonicalKeys(keys);
        if (!canonical)
            return failed<Shortcut>(error, QStringLiteral("\"%1\": \"%2\" are no keys").arg(s.action, keys));
        s.keys = *canonical;
    } else if (s.menu.isEmpty()) {
        return failed<Shortcut>(error,
                                QStringLiteral("\"%1\" has neither keys nor a menu path").arg(s.action));
    }
    const auto source = shortcutSourceFromString(object.value(QLatin1String("source")).toString());
    if (!source)
        return failed<Shortcut>(
            error, QStringLiteral("\"%1\": source must be atspi, vision, schema or user").arg(s.action));
    s.source = *source;
    const QJsonValue verified = object.value(QLatin1String("verified_ms"));
    if (!verified.isUndefined()) {
        if (!verified.isDouble() || verified.toDouble() < 0)
            return failed<Shortcut>(error,
                                    QStringLiteral("\"%1\": verified_ms must be a time in ms").arg(s.action));
        s.verifiedAtMs = qint64(verified.toDouble());
    }
    const QJsonValue effect = object.value(QLatin1String("effect"));
    if (!effect.isUndefined() && !effect.isString())
        return failed<Shortcut>(error, QStringLiteral("\"%1\": effect must be a string").arg(s.action));
    s.effect = effect.toString().simplified();
    return s;
}

const Shortcut* AppSchema::find(const QString& actionOrPath) const
{
    const QString wanted = normalizedAction(actionOrPath);
    const Shortcut* best = nullptr;
    for (const Shortcut& s : shortcuts) {
        const bool byPath = !s.menu.isEmpty() && normalizedAction(s.menu) == wanted;
        if (s.matchKey() != wanted && !byPath)
            continue;
        if (!best || (best->keys.isEmpty() && !s.keys.isEmpty()) || (!best->isVerified() && s.isVerified()))
            best = &s;
    }
    return best;
}

bool AppSchema::merge(const Shortcut& shortcut)
{
    for (Shortcut& s : shortcuts) {
        if (s.matchKey() != shortcut.matchKey())
            continue;
        if (!s.menu.isEmpty() && !shortcut.menu.isEmpty() &&
            normalizedAction(s.menu) != normalizedAction(shortcut.menu))
            continue;
        if (s.source == ShortcutSource::User && shortcut.source != ShortcutSource::User)
            return false;
        Shortcut updated = shortcut;
        if (updated.menu.isEmpty())
            updated.menu = s.menu;
        if (updated.keys.isEmpty() && shortcut.source != ShortcutSource::User) {
            updated.keys = s.keys; // a menu path alone does not erase known keys
            updated.source = s.source;
        }
        if (updated.keys == s.keys && updated.verifiedAtMs == 0)
            updated.verifiedAtMs = s.verifiedAtMs;
        if (updated.effect.isEmpty())
            updated.effect = s.effect; // a discovery does not forget what the action showed
        if (updated == s)
            return false;
        s = updated;
        return true;
    }
    shortcuts.append(shortcut);
    return true;
}

bool AppSchema::noteEffect(const QString& actionOrPath, const QString& label)
{
    const Shortcut* found = find(actionOrPath);
    const QString effect = label.simplified();
    if (!found || effect.isEmpty() || found->effect == effect)
        return false;
    shortcuts[found - shortcuts.constData()].effect = effect;
    return true;
}

bool AppSchema::markVerified(const QString& actionOrPath, qint64 atMs)
{
    const Shortcut* found = find(actionOrPath);
    if (!found || found->keys.isEmpty())
        return false;
    shortcuts[found - shortcuts.constData()].verifiedAtMs = atMs;
    return true;
}

QJsonObject NamedZone::toJson() const
{
    QJsonObject o{{QStringLiteral("name"), name},
                  {QStringLiteral("x"), bounds.x()},
                  {QStringLiteral("y"), bounds.y()},
                  {QStringLiteral("w"), bounds.width()},
                  {QStringLiteral("h"), bounds.height()}};
    if (type != ZoneType::Static)
        o.insert(QStringLiteral("type"), ciu::toString(type));
    if (source != ShortcutSource::Schema)
        o.insert(QStringLiteral("source"), ciu::toString(source));
    return o;
}

std::optional<NamedZone> NamedZone::fromJson(const QJsonObject& object, QString* error)
{
    NamedZone zone;
    const QJsonValue type = object.value(QLatin1String("type"));
    if (!type.isUndefined()) {
        const auto known = type.isString() ? zoneTypeFromString(type.toString()) : std::nullopt;
        if (!known)
            return failed<NamedZone>(error, QStringLiteral("unknown zone type \"%1\"").arg(type.toString()));
        zone.type = *known;
    }
    const QJsonValue source = object.value(QLatin1String("source"));
    if (!source.isUndefined()) {
        const auto known = source.isString() ? shortcutSourceFromString(source.toString()) : std::nullopt;
        if (!known)
            return failed<NamedZone>(error,
                                     QStringLiteral("unknown zone source \"%1\"").arg(source.toString()));
        zone.source = *known;
    }
    zone.name = object.value(QLatin1String("name")).toString();
    bool numbers = true;
    for (const char* key : {"x", "y", "w", "h"})
        numbers = numbers && object.value(QLatin1String(key)).isDouble();
    zone.bounds = QRect(object.value(QLatin1String("x")).toInt(), object.value(QLatin1String("y")).toInt(),
                        object.value(QLatin1String("w")).toInt(), object.value(QLatin1String("h")).toInt());
    if ((zone.name.isEmpty() && zone.source != ShortcutSource::User) || !numbers ||
        zone.bounds.width() <= 0 || zone.bounds.height() <= 0)
        return failed<NamedZone>(error, QStringLiteral("needs a name and x, y, positive w, h"));
    return zone;
}

QJsonObject AppSchema::toJson() const
{
    QJsonArray shortcutArray;
    for (const Shortcut& s : shortcuts)
        shortcutArray.append(s.toJson());
    QJsonArray zoneArray;
    for (const NamedZone& z : zones)
        zoneArray.append(z.toJson());
    QJsonObject o{{QStringLiteral("format"), kFormatVersion},
                  {QStringLiteral("application"), application},
                  {QStringLiteral("shortcuts"), shortcutArray},
                  {QStringLiteral("zones"), zoneArray}};
    if (!notes.isEmpty())
        o.insert(QStringLiteral("notes"), notes);
    return o;
}

std::optional<AppSchema> AppSchema::fromJson(const QJsonObject& object, QString* error)
{
    if (object.value(QLatin1String("format")).toInt() != kFormatVersion)
        return failed<AppSchema>(
            error, QStringLiteral("unsupported app schema format (expected %1)").arg(kFormatVersion));
    AppSchema schema;
    schema.application = object.value(QLatin1String("application")).toString();
    if (schema.application.isEmpty())
        return failed<AppSchema>(error, QStringLiteral("an app schema without an application"));
    if (!object.value(QLatin1String("shortcuts")).isArray())
        return failed<AppSchema>(error, QStringLiteral("an app schema needs the array \"shortcuts\""));
    const QJsonValue zones = object.value(QLatin1String("zones"));
    if (!zones.isUndefined() && !zones.isArray())
        return failed<AppSchema>(error, QStringLiteral("\"zones\" must be an array"));
    const QJsonValue notes = object.value(QLatin1String("notes"));
    if (!notes.isUndefined() && !notes.isString())
        return failed<AppSchema>(error, QStringLiteral("\"notes\" must be a string"));
    schema.notes = notes.toString();
    const QJsonArray shortcutArray = object.value(QLatin1String("shortcuts")).toArray();
    for (qsizetype i = 0; i < shortcutArray.size(); ++i) {
        if (!shortcutArray.at(i).isObject())
            return failed<AppSchema>(error, QStringLiteral("shortcut %1 is not an object").arg(i));
        QString shortcutError;
        const auto s = Shortcut::fromJson(shortcutArray.at(i).toObject(), &shortcutError);
        if (!s)
            return failed<AppSchema>(error, QStringLiteral("shortcut %1: %2").arg(i).arg(shortcutError));
        schema.shortcuts.append(*s);
    }
    const QJsonArray zoneArray = zones.toArray();
    for (qsizetype i = 0; i < zoneArray.size(); ++i) {
        QString zoneError;
        const auto z = NamedZone::fromJson(zoneArray.at(i).toObject(), &zoneError);
        if (!z)
            return failed<AppSchema>(error, QStringLiteral("zone %1: %2").arg(i).arg(zoneError));
        schema.zones.append(*z);
    }
    return schema;
}

std::optional<AppSchema> shippedSchema(const QString& application, QString* error)
{
    const QDir dir(QStringLiteral(":/ciu/schemas"));
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        if (QString(name).chopped(5).compare(application, Qt::CaseInsensitive) != 0)
            continue;
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            return failed<AppSchema>(error, QStringLiteral("cannot read %1").arg(file.fileName()));
        QJsonParseError parseError;
        const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
        QString schemaError = parseError.errorString();
        auto schema = document.isObject() ? AppSchema::fromJson(document.object(), &schemaError)
                                          : std::optional<AppSchema>();
        if (!schema)
            return failed<AppSchema>(error, QStringLiteral("%1: %2").arg(file.fileName(), schemaError));
        for (Shortcut& s : schema->shortcuts)
            s.source = ShortcutSource::Schema;
        return schema;
    }
    return std::nullopt;
}

QStringList shippedSchemaApplications()
{
    QStringList result;
    for (const QString& name : QDir(QStringLiteral(":/ciu/schemas")).entryList({QStringLiteral("*.json")}))
        result << name.chopped(5);
    return result;
}

} // namespace ciu
