#include "core/knowledge/correctionstore.h"

#include "core/knowledge/knowledgefiles.h"
#include "core/knowledge/knowledgelog.h"

#include <QFile>
#include <QJsonArray>
#include <QRegularExpression>
#include <QUuid>

#include <algorithm>

namespace ciu {
namespace {

constexpr int kFormatVersion = 1;

QJsonObject rectToJson(const QRect& r)
{
    return {{QStringLiteral("x"), r.x()},
            {QStringLiteral("y"), r.y()},
            {QStringLiteral("w"), r.width()},
            {QStringLiteral("h"), r.height()}};
}

std::optional<QRect> rectFromJson(const QJsonValue& value)
{
    const QJsonObject o = value.toObject();
    for (const char* key : {"x", "y", "w", "h"}) {
        if (!o.value(QLatin1String(key)).isDouble())
            return std::nullopt;
    }
    const QRect r(o.value(QLatin1String("x")).toInt(), o.value(QLatin1String("y")).toInt(),
                  o.value(QLatin1String("w")).toInt(), o.value(QLatin1String("h")).toInt());
    if (r.width() <= 0 || r.height() <= 0)
        return std::nullopt;
    return r;
}

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

bool sameApplication(const Zone& zone, const QString& application)
{
    return zone.application.isEmpty() || zone.application == application;
}

QRegularExpression titleExpression(const QString& pattern)
{
    return QRegularExpression(QRegularExpression::wildcardToRegularExpression(pattern),
                              QRegularExpression::CaseInsensitiveOption);
}

} // namespace

bool CorrectionSet::isValidTitlePattern(const QString& pattern, QString* error)
{
    if (pattern.isEmpty())
        return true;
    const QRegularExpression expression = titleExpression(pattern);
    if (!expression.isValid())
        return fail(
            error, QStringLiteral("invalid title pattern \"%1\": %2").arg(pattern, expression.errorString()));
    return true;
}

bool CorrectionSet::matchesTitle(const QString& title) const
{
    if (titlePattern.isEmpty())
        return true;
    return titleExpression(titlePattern).match(title).hasMatch();
}

QJsonObject CorrectionSet::toJson() const
{
    QJsonArray zoneArray;
    for (const Zone& zone : zones)
        zoneArray.append(ciu::toJson(zone));
    QJsonArray suppressedArray;
    for (const QRect& r : suppressed)
        suppressedArray.append(rectToJson(r));
    QJsonObject object{{QStringLiteral("format"), kFormatVersion},
                       {QStringLiteral("application"), application},
                       {QStringLiteral("zones"), zoneArray},
                       {QStringLiteral("suppressed"), suppressedArray}};
    if (!titlePattern.isEmpty())
        object.insert(QStringLiteral("title_pattern"), titlePattern);
    return object;
}

std::optional<CorrectionSet> CorrectionSet::fromJson(const QJsonObject& object, QString* error)
{
    if (object.value(QLatin1String("format")).toInt() != kFormatVersion) {
        fail(error, QStringLiteral("unsupported corrections format (expected %1)").arg(kFormatVersion));
        return std::nullopt;
    }
    CorrectionSet set;
    set.application = object.value(QLatin1String("application")).toString();
    if (set.application.isEmpty()) {
        fail(error, QStringLiteral("corrections without an application"));
        return std::nullopt;
    }
    const QJsonValue title = object.value(QLatin1String("title_pattern"));
    if (!title.isUndefined() && !title.isString()) {
        fail(error, QStringLiteral("\"title_pattern\" must be a string"));
        return std::nullopt;
    }
    set.titlePattern = title.toString();
    if (!isValidTitlePattern(set.titlePattern, error))
        return std::nullopt;
    if (!object.value(QLatin1String("zones")).isArray() ||
        !object.value(QLatin1String("suppressed")).isArray()) {
        fail(error, QStringLiteral("corrections need the arrays \"zones\" and \"suppressed\""));
        return std::nullopt;
    }
    const QJsonArray zoneArray = object.value(QLatin1String("zones")).toArray();
    for (qsizetype i = 0; i < zoneArray.size(); ++i) {
        QString zoneError;
        auto zone = zoneFromJson(zoneArray.at(i).toObject(), &zoneError);
        if (!zone) {
            fail(error, QStringLiteral("zone %1: %2").arg(i).arg(zoneError));
            return std::nullopt;
        }
        zone->source = ZoneSource::User;
        zone->confidence = 1.0;
        zone->application = set.application;
        set.zones.append(*zone);
    }
    const QJsonArray suppressedArray = object.value(QLatin1String("suppressed")).toArray();
    for (qsizetype i = 0; i < suppressedArray.size(); ++i) {
        const auto r = rectFromJson(suppressedArray.at(i));
        if (!r) {
            fail(error, QStringLiteral("suppressed region %1: needs positive x, y, w, h").arg(i));
            return std::nullopt;
        }
        set.suppressed.append(*r);
    }
    return set;
}

QList<Zone> applyCorrections(const CorrectionSet& set, const QList<Zone>& zones, QPoint windowOrigin,
                             qint64 tNs)
{
    if (set.isEmpty())
        return zones;
    QList<QRect> removedRoot;
    for (const QRect& r : set.suppressed)
        removedRoot.append(r.translated(windowOrigin));
    QList<Zone> userZones;
    for (Zone zone : set.zones) {
        zone.bounds.translate(windowOrigin);
        zone.source = ZoneSource::User;
        zone.confidence = 1.0;
        zone.application = set.application;
        zone.lastSeenNs = tNs;
        if (zone.firstSeenNs == 0)
            zone.firstSeenNs = tNs;
        removedRoot.append(zone.bounds);
        userZones.append(zone);
    }

    QList<Zone> result;
    result.reserve(zones.size() + userZones.size());
    for (const Zone& zone : zones) {
        const bool replacedById =
            std::any_of(userZones.cbegin(), userZones.cend(), [&](const Zone& u) { return u.id == zone.id; });
        if (replacedById)
            continue;
        if (zone.source != ZoneSource::User && sameApplication(zone, set.application)) {
            const bool removed = std::any_of(removedRoot.cbegin(), removedRoot.cend(),
                                             [&](const QRect& r) { return isSameZone(r, zone.bounds); });
            if (removed)
                continue;
        }
        result.append(zone);
    }
    result.append(userZones);
    return result;
}

QString newUserZoneId()
{
    return QStringLiteral("u") + QUuid::createUuid().toString(QUuid::Id128).left(8);
}

CorrectionStore::CorrectionStore()
    : CorrectionStore(defaultDirectory())
{
}

CorrectionStore::CorrectionStore(QString directory)
    : m_directory(std::move(directory))
{
}

QString CorrectionStore::defaultDirectory()
{
    return knowledgefiles::dataDirectory(QStringLiteral("corrections"));
}

QString CorrectionStore::filePath(const QString& application) const
{
    return knowledgefiles::programFile(m_directory, application);
}

std::optional<CorrectionSet> CorrectionStore::load(const QString& application, QString* error) const
{
    if (application.isEmpty()) {
        fail(error, QStringLiteral("no application name"));
        return std::nullopt;
    }
    QFile file(filePath(application));
    if (!file.exists())
        return CorrectionSet{application, {}, {}};
    const std::optional<QJsonObject> object = knowledgefiles::readObject(file.fileName(), error);
    if (!object)
        return std::nullopt;
    QString setError;
    auto set = CorrectionSet::fromJson(*object, &setError);
    if (!set) {
        fail(error, QStringLiteral("%1: %2").arg(file.fileName(), setError));
        return std::nullopt;
    }
    if (set->application != application) {
        fail(error, QStringLiteral("%1 holds corrections of \"%2\", not \"%3\"")
                        .arg(file.fileName(), set->application, application));
        return std::nullopt;
    }
    qCDebug(lcCorrections) << "loaded" << set->zones.size() << "user zones and" << set->suppressed.size()
                           << "suppressed regions for" << application;
    return set;
}

bool CorrectionStore::save(const CorrectionSet& set, QString* error) const
{
    if (set.application.isEmpty())
        return fail(error, QStringLiteral("corrections without an application"));
    const QString path = filePath(set.application);
    if (set.isEmpty()) {
        if (QFile::exists(path) && !QFile::remove(path))
            return fail(error, QStringLiteral("cannot remove %1").arg(path));
        return true;
    }
    return knowledgefiles::writeObject(m_directory, path, set.toJson(), error);
}

QStringList CorrectionStore::applications() const
{
    return knowledgefiles::storedNames(m_directory, QLatin1String("application"));
}

} // namespace ciu
