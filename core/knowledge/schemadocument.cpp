#include "core/knowledge/schemadocument.h"

#include "core/knowledge/knowledgelog.h"

#include <QJsonArray>

#include <algorithm>

namespace ciu {
namespace {

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

QJsonObject rectToJson(const QRect& r)
{
    return {{QStringLiteral("x"), r.x()},
            {QStringLiteral("y"), r.y()},
            {QStringLiteral("w"), r.width()},
            {QStringLiteral("h"), r.height()}};
}

NamedZone namedZone(const Zone& userZone)
{
    return {userZone.label, userZone.bounds, userZone.type, ShortcutSource::User};
}

bool sameShortcut(const Shortcut& a, const Shortcut& b)
{
    return a.matchKey() == b.matchKey() && a.keys == b.keys && a.menu == b.menu;
}

} // namespace

QJsonObject SchemaDocument::toJson() const
{
    QJsonObject o = schema.toJson();
    if (!suppressed.isEmpty()) {
        QJsonArray rects;
        for (const QRect& r : suppressed)
            rects.append(rectToJson(r));
        o.insert(QStringLiteral("suppressed"), rects);
    }
    if (!titlePattern.isEmpty())
        o.insert(QStringLiteral("title_pattern"), titlePattern);
    return o;
}

std::optional<SchemaDocument> SchemaDocument::fromJson(const QJsonObject& object, QString* error)
{
    SchemaDocument document;
    QJsonObject schemaPart = object;
    schemaPart.remove(QStringLiteral("suppressed"));
    schemaPart.remove(QStringLiteral("title_pattern"));
    auto schema = AppSchema::fromJson(schemaPart, error);
    if (!schema)
        return std::nullopt;
    document.schema = *schema;
    const QJsonValue suppressed = object.value(QLatin1String("suppressed"));
    if (!suppressed.isUndefined() && !suppressed.isArray()) {
        fail(error, QStringLiteral("\"suppressed\" must be an array"));
        return std::nullopt;
    }
    const QJsonArray rects = suppressed.toArray();
    for (qsizetype i = 0; i < rects.size(); ++i) {
        const QJsonObject r = rects.at(i).toObject();
        bool numbers = true;
        for (const char* key : {"x", "y", "w", "h"})
            numbers = numbers && r.value(QLatin1String(key)).isDouble();
        const QRect rect(r.value(QLatin1String("x")).toInt(), r.value(QLatin1String("y")).toInt(),
                         r.value(QLatin1String("w")).toInt(), r.value(QLatin1String("h")).toInt());
        if (!numbers || rect.width() <= 0 || rect.height() <= 0) {
            fail(error, QStringLiteral("suppressed region %1: needs x, y, positive w, h").arg(i));
            return std::nullopt;
        }
        document.suppressed << rect;
    }
    const QJsonValue title = object.value(QLatin1String("title_pattern"));
    if (!title.isUndefined() && !title.isString()) {
        fail(error, QStringLiteral("\"title_pattern\" must be a string"));
        return std::nullopt;
    }
    document.titlePattern = title.toString();
    if (!CorrectionSet::isValidTitlePattern(document.titlePattern, error))
        return std::nullopt;
    return document;
}

CorrectionSet SchemaDocument::corrections(const QStringList& ids) const
{
    CorrectionSet set{schema.application, {}, suppressed, titlePattern};
    for (const NamedZone& n : schema.zones) {
        if (n.source != ShortcutSource::User)
            continue;
        Zone zone;
        zone.id = set.zones.size() < ids.size() ? ids.at(set.zones.size()) : newUserZoneId();
        zone.bounds = n.bounds;
        zone.type = n.type;
        zone.label = n.name;
        zone.labelSource = n.name.isEmpty() ? LabelSource::Unknown : LabelSource::User;
        zone.source = ZoneSource::User;
        zone.confidence = 1.0;
        zone.application = schema.application;
        set.zones << zone;
    }
    return set;
}

std::optional<SchemaDocument> readSchemaDocument(const ShortcutStore& shortcuts,
                                                 const CorrectionStore& corrections,
                                                 const QString& application, QString* error)
{
    auto known = knownShortcuts(shortcuts, application, error);
    if (!known)
        return std::nullopt;
    const auto set = corrections.load(application, error);
    if (!set)
        return std::nullopt;
    SchemaDocument document;
    document.schema = *known;
    for (const Zone& zone : set->zones)
        document.schema.zones << namedZone(zone);
    document.suppressed = set->suppressed;
    document.titlePattern = set->titlePattern;
    return document;
}

bool importSchemaDocument(const SchemaDocument& document, const ShortcutStore& shortcuts,
                          const CorrectionStore& corrections, QString* error)
{
    const QString application = document.schema.application;
    if (application.isEmpty())
        return fail(error, QStringLiteral("a schema without an application"));
    auto learned = shortcuts.load(application, error);
    if (!learned)
        return false;
    auto set = corrections.load(application, error);
    if (!set)
        return false;
    const AppSchema shipped = shippedSchema(application).value_or(AppSchema{application, {}, {}, {}});

    // The schema part: what the shipped schema already says is not copied.
    bool learnedChanged = false;
    for (const Shortcut& s : document.schema.shortcuts) {
        const Shortcut* same = shipped.find(s.menu.isEmpty() ? s.action : s.menu);
        if (same && sameShortcut(*same, s) && same->verifiedAtMs == s.verifiedAtMs)
            continue;
        learnedChanged = learned->merge(s) || learnedChanged; // keeps its verification time
    }
    for (const NamedZone& zone : document.schema.zones) {
        if (zone.source == ShortcutSource::User || shipped.zones.contains(zone))
            continue;
        const auto it = std::find_if(learned->zones.begin(), learned->zones.end(),
                                     [&zone](const NamedZone& z) { return z.name == zone.name; });
        if (it != learned->zones.end() && *it == zone)
            continue;
        if (it != learned->zones.end())
            *it = zone;
        else
            learned->zones << zone;
        learnedChanged = true;
    }
    if (!document.schema.notes.isEmpty() && document.schema.notes != shipped.notes &&
        document.schema.notes != learned->notes) {
        learned->notes = document.schema.notes;
        learnedChanged = true;
    }

    // The corrections part.
    const CorrectionSet imported = document.corrections();
    CorrectionSet merged = *set;
    for (const Zone& zone : imported.zones) {
        const auto it = std::find_if(merged.zones.begin(), merged.zones.end(),
                                     [&zone](const Zone& z) { return isSameZone(z.bounds, zone.bounds); });
        if (it == merged.zones.end()) {
            merged.zones << zone;
            continue;
        }
        Zone replaced = zone;
        replaced.id = it->id; // the place keeps its id
        if (namedZone(*it) != namedZone(replaced))
            *it = replaced;
    }
    for (const QRect& r : imported.suppressed) {
        if (!merged.suppressed.contains(r))
            merged.suppressed << r;
    }
    if (merged.titlePattern.isEmpty())
        merged.titlePattern = imported.titlePattern;

    if (learnedChanged && !shortcuts.save(*learned, error))
        return false;
    if (merged != *set && !corrections.save(merged, error))
        return false;
    qCInfo(lcShortcuts) << "imported the schema of" << application << "(learned changed:" << learnedChanged
                        << ", corrections changed:" << (merged != *set) << ")";
    return true;
}

} // namespace ciu
