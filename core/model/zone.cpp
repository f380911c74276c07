#include "core/model/zone.h"

#include "core/model/geometry.h"

#include <QJsonArray>

#include <algorithm>
#include <array>
#include <utility>

namespace ciu {
namespace {

constexpr std::array<std::pair<ZoneType, const char*>, 10> kTypeNames{{
    {ZoneType::Button, "button"},
    {ZoneType::TextField, "text_field"},
    {ZoneType::Link, "link"},
    {ZoneType::Dropdown, "dropdown"},
    {ZoneType::CheckBox, "checkbox"},
    {ZoneType::Slider, "slider"},
    {ZoneType::MenuItem, "menu_item"},
    {ZoneType::Tab, "tab"},
    {ZoneType::ScrollArea, "scroll_area"},
    {ZoneType::Static, "static"},
}};

constexpr std::array<std::pair<ZoneStateFlag, const char*>, 11> kStateNames{{
    {ZoneStateFlag::Enabled, "enabled"},
    {ZoneStateFlag::Disabled, "disabled"},
    {ZoneStateFlag::Focused, "focused"},
    {ZoneStateFlag::Hovered, "hovered"},
    {ZoneStateFlag::Pressed, "pressed"},
    {ZoneStateFlag::Checked, "checked"},
    {ZoneStateFlag::Unchecked, "unchecked"},
    {ZoneStateFlag::Expanded, "expanded"},
    {ZoneStateFlag::Collapsed, "collapsed"},
    {ZoneStateFlag::Selected, "selected"},
    {ZoneStateFlag::Editable, "editable"},
}};

constexpr std::array<std::pair<ZoneSource, const char*>, 6> kSourceNames{{
    {ZoneSource::Local, "local"},
    {ZoneSource::Model, "model"},
    {ZoneSource::User, "user"},
    {ZoneSource::Accessibility, "accessibility"},
    {ZoneSource::Synthetic, "synthetic"},
    {ZoneSource::Schema, "schema"},
}};

constexpr std::array<std::pair<LabelSource, const char*>, 7> kLabelSourceNames{{
    {LabelSource::Ocr, "ocr"},
    {LabelSource::Tree, "tree"},
    {LabelSource::Icon, "icon"},
    {LabelSource::Tooltip, "tooltip"},
    {LabelSource::User, "user"},
    {LabelSource::Model, "model"},
    {LabelSource::Schema, "schema"},
}};

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

QString toString(ZoneType type)
{
    for (const auto& [t, name] : kTypeNames) {
        if (t == type)
            return QString::fromLatin1(name);
    }
    return QStringLiteral("static");
}

std::optional<ZoneType> zoneTypeFromString(const QString& name)
{
    QString n = name.trimmed().toLower();
    n.replace(QLatin1Char(' '), QLatin1Char('_'));
    n.replace(QLatin1Char('-'), QLatin1Char('_'));
    // Common synonyms seen in model replies.
    if (n == QLatin1String("textfield") || n == QLatin1String("text_input") || n == QLatin1String("input") ||
        n == QLatin1String("text_box") || n == QLatin1String("textbox") || n == QLatin1String("edit"))
        n = QStringLiteral("text_field");
    else if (n == QLatin1String("combobox") || n == QLatin1String("combo_box") ||
             n == QLatin1String("select"))
        n = QStringLiteral("dropdown");
    else if (n == QLatin1String("check_box") || n == QLatin1String("radio") ||
             n == QLatin1String("radio_button") || n == QLatin1String("radiobutton"))
        n = QStringLiteral("checkbox");
    else if (n == QLatin1String("menuitem") || n == QLatin1String("menu"))
        n = QStringLiteral("menu_item");
    else if (n == QLatin1String("text") || n == QLatin1String("label") || n == QLatin1String("image"))
        n = QStringLiteral("static");
    else if (n == QLatin1String("scrollarea") || n == QLatin1String("list") ||
             n == QLatin1String("scrollbar"))
        n = QStringLiteral("scroll_area");
    for (const auto& [t, typeName] : kTypeNames) {
        if (n == QLatin1String(typeName))
            return t;
    }
    return std::nullopt;
}

QStringList allZoneTypeNames()
{
    QStringList names;
    for (const auto& entry : kTypeNames)
        names << QString::fromLatin1(entry.second);
    return names;
}

QString toString(ZoneSource source)
{
    for (const auto& [s, name] : kSourceNames) {
        if (s == source)
            return QString::fromLatin1(name);
    }
    return QStringLiteral("local");
}

std::optional<ZoneSource> zoneSourceFromString(const QString& name)
{
    // The command line's names for two of them.
    if (name == QLatin1String("atspi"))
        return ZoneSource::Accessibility;
    if (name == QLatin1String("vision"))
        return ZoneSource::Local;
    for (const auto& [s, sourceName] : kSourceNames) {
        if (name == QLatin1String(sourceName))
            return s;
    }
    return std::nullopt;
}

QString toString(LabelSource source)
{
    for (const auto& [s, name] : kLabelSourceNames) {
        if (s == source)
            return QString::fromLatin1(name);
    }
    return {};
}

std::optional<LabelSource> labelSourceFromString(const QString& name)
{
    if (name.isEmpty())
        return LabelSource::Unknown;
    for (const auto& [s, sourceName] : kLabelSourceNames) {
        if (name == QLatin1String(sourceName))
            return s;
    }
    return std::nullopt;
}

QStringList zoneStateNames(ZoneState state)
{
    QStringList names;
    for (const auto& [flag, name] : kStateNames) {
        if (state.testFlag(flag))
            names << QString::fromLatin1(name);
    }
    return names;
}

ZoneState zoneStateFromNames(const QStringList& names, QStringList* unknown)
{
    ZoneState state;
    for (const QString& raw : names) {
        const QString n = raw.trimmed().toLower();
        bool found = false;
        for (const auto& [flag, name] : kStateNames) {
            if (n == QLatin1String(name)) {
                state |= flag;
                found = true;
                break;
            }
        }
        if (!found && unknown)
            *unknown << raw;
    }
    return state;
}

QJsonObject toJson(const Zone& zone)
{
    QJsonObject o;
    o[QLatin1String("id")] = zone.id;
    o[QLatin1String("bounds")] = QJsonObject{{QLatin1String("x"), zone.bounds.x()},
                                             {QLatin1String("y"), zone.bounds.y()},
                                             {QLatin1String("width"), zone.bounds.width()},
                                             {QLatin1String("height"), zone.bounds.height()}};
    o[QLatin1String("type")] = toString(zone.type);
    o[QLatin1String("label")] = zone.label;
    if (zone.labelSource != LabelSource::Unknown)
        o[QLatin1String("label_source")] = toString(zone.labelSource);
    o[QLatin1String("state")] = QJsonArray::fromStringList(zoneStateNames(zone.state));
    o[QLatin1String("parent_id")] = zone.parentId.isEmpty() ? QJsonValue() : QJsonValue(zone.parentId);
    o[QLatin1String("events")] = QJsonArray::fromStringList(zone.events);
    o[QLatin1String("confidence")] = zone.confidence;
    o[QLatin1String("last_seen_ns")] = QString::number(zone.lastSeenNs);
    o[QLatin1String("source")] = toString(zone.source);
    if (!zone.application.isEmpty())
        o[QLatin1String("application")] = zone.application;
    if (zone.windowId != 0)
        o[QLatin1String("window_id")] = QString::number(zone.windowId);
    if (zone.temporary)
        o[QLatin1String("temporary")] = true;
    if (zone.isPassword)
        o[QLatin1String("password")] = true;
    // Accessibility fields only where known: older readers and files see what they always saw.
    const std::pair<const char*, const QString*> optional[] = {{"role", &zone.role},
                                                               {"value", &zone.value},
                                                               {"key_binding", &zone.keyBinding},
                                                               {"accessible_ref", &zone.accessibleRef},
                                                               {"accessible_path", &zone.accessiblePath}};
    for (const auto& [key, text] : optional) {
        if (!text->isEmpty())
            o[QLatin1String(key)] = *text;
    }
    return o;
}

std::optional<Zone> zoneFromJson(const QJsonObject& o, QString* error)
{
    Zone zone;
    zone.id = o.value(QLatin1String("id")).toString();
    if (zone.id.isEmpty()) {
        fail(error, QStringLiteral("zone without an id"));
        return std::nullopt;
    }
    const QJsonObject b = o.value(QLatin1String("bounds")).toObject();
    for (const char* key : {"x", "y", "width", "height"}) {
        if (!b.value(QLatin1String(key)).isDouble()) {
            fail(error, QStringLiteral("zone %1: bounds.%2 missing or not a number")
                            .arg(zone.id, QLatin1String(key)));
            return std::nullopt;
        }
    }
    const auto bounds =
        checkedRect(b.value(QLatin1String("x")).toDouble(), b.value(QLatin1String("y")).toDouble(),
                    b.value(QLatin1String("width")).toDouble(), b.value(QLatin1String("height")).toDouble());
    if (!bounds) {
        fail(error, QStringLiteral("zone %1: bounds out of range (a negative size, or an edge beyond 2^31)")
                        .arg(zone.id));
        return std::nullopt;
    }
    zone.bounds = *bounds;
    const auto type = zoneTypeFromString(o.value(QLatin1String("type")).toString());
    if (!type) {
        fail(error, QStringLiteral("zone %1: unknown type \"%2\"")
                        .arg(zone.id, o.value(QLatin1String("type")).toString()));
        return std::nullopt;
    }
    zone.type = *type;
    zone.label = o.value(QLatin1String("label")).toString();
    const QJsonValue labelSource = o.value(QLatin1String("label_source"));
    if (!labelSource.isUndefined() && !labelSource.isString()) {
        fail(error, QStringLiteral("zone %1: label_source is not a string").arg(zone.id));
        return std::nullopt;
    }
    const auto knownLabelSource = labelSourceFromString(labelSource.toString());
    if (!knownLabelSource) {
        fail(error,
             QStringLiteral("zone %1: unknown label_source \"%2\"").arg(zone.id, labelSource.toString()));
        return std::nullopt;
    }
    zone.labelSource = *knownLabelSource;
    QStringList states;
    for (const QJsonValue& v : o.value(QLatin1String("state")).toArray())
        states << v.toString();
    zone.state = zoneStateFromNames(states);
    zone.parentId = o.value(QLatin1String("parent_id")).toString();
    for (const QJsonValue& v : o.value(QLatin1String("events")).toArray())
        zone.events << v.toString();
    zone.confidence = qBound(0.0, o.value(QLatin1String("confidence")).toDouble(1.0), 1.0);
    zone.lastSeenNs = o.value(QLatin1String("last_seen_ns")).toString().toLongLong();
    zone.source =
        zoneSourceFromString(o.value(QLatin1String("source")).toString()).value_or(ZoneSource::Local);
    zone.application = o.value(QLatin1String("application")).toString();
    zone.windowId = o.value(QLatin1String("window_id")).toString().toULongLong();
    zone.temporary = o.value(QLatin1String("temporary")).toBool();
    zone.isPassword = o.value(QLatin1String("password")).toBool();
    zone.role = o.value(QLatin1String("role")).toString();
    zone.value = zone.isPassword ? QString() : o.value(QLatin1String("value")).toString();
    zone.keyBinding = o.value(QLatin1String("key_binding")).toString();
    zone.accessibleRef = o.value(QLatin1String("accessible_ref")).toString();
    zone.accessiblePath = o.value(QLatin1String("accessible_path")).toString();
    return zone;
}

bool isNamedControl(ZoneType type)
{
    switch (type) {
    case ZoneType::Button:
    case ZoneType::MenuItem:
    case ZoneType::Tab:
    case ZoneType::CheckBox:
    case ZoneType::Link:
        return true;
    case ZoneType::TextField:
    case ZoneType::Dropdown:
    case ZoneType::Slider:
    case ZoneType::ScrollArea:
    case ZoneType::Static:
        return false;
    }
    return false;
}

bool coveredByWindowAbove(const Zone& zone, const QList<platform::WindowInfo>& windows)
{
    if (zone.windowId == 0)
        return false;
    const auto own = std::find_if(windows.cbegin(), windows.cend(),
                                  [&zone](const platform::WindowInfo& w) { return w.id == zone.windowId; });
    if (own == windows.cend())
        return false;
    const QPoint centre = zone.bounds.center();
    return std::any_of(own + 1, windows.cend(),
                       [&centre](const platform::WindowInfo& w) { return w.geometry.contains(centre); });
}

} // namespace ciu
