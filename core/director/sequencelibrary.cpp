#include "core/director/sequencelibrary.h"

#include "core/director/zoneresolver.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSaveFile>
#include <QStandardPaths>

namespace ciu {

namespace {

const QString kLabel = QStringLiteral("label");
const QString kType = QStringLiteral("type");
const QString kCaption = QStringLiteral("caption");

ZoneResolver::Purpose purposeFor(std::optional<ZoneType> type)
{
    if (!type)
        return ZoneResolver::Purpose::Any;
    switch (*type) {
    case ZoneType::TextField:
        return ZoneResolver::Purpose::TypeInto;
    case ZoneType::CheckBox:
        return ZoneResolver::Purpose::Toggle;
    case ZoneType::Dropdown:
        return ZoneResolver::Purpose::Dropdown;
    case ZoneType::MenuItem:
        return ZoneResolver::Purpose::Option;
    case ZoneType::ScrollArea:
        return ZoneResolver::Purpose::Scroll;
    case ZoneType::Static:
        return ZoneResolver::Purpose::Any;
    default:
        return ZoneResolver::Purpose::Click;
    }
}

QString expectationName(Expectation::Kind kind)
{
    switch (kind) {
    case Expectation::Kind::None:
        return QStringLiteral("none");
    case Expectation::Kind::AnyChange:
        return QStringLiteral("any_change");
    case Expectation::Kind::StateChecked:
        return QStringLiteral("checked");
    case Expectation::Kind::StateUnchecked:
        return QStringLiteral("unchecked");
    case Expectation::Kind::ZoneAppears:
        return QStringLiteral("zone_appears");
    case Expectation::Kind::TextEquals:
        return QStringLiteral("text_equals");
    case Expectation::Kind::TextEndsWith:
        return QStringLiteral("text_ends_with");
    case Expectation::Kind::ShowsText:
        return QStringLiteral("shows_text");
    case Expectation::Kind::Selected:
        return QStringLiteral("selected");
    case Expectation::Kind::WindowShowsText:
        return QStringLiteral("window_shows_text");
    case Expectation::Kind::LengthEquals:
        return QStringLiteral("length_equals");
    }
    return {};
}

std::optional<Expectation::Kind> expectationFromName(const QString& name)
{
    for (auto kind :
         {Expectation::Kind::None, Expectation::Kind::AnyChange, Expectation::Kind::StateChecked,
          Expectation::Kind::StateUnchecked, Expectation::Kind::ZoneAppears, Expectation::Kind::TextEquals,
          Expectation::Kind::TextEndsWith, Expectation::Kind::ShowsText, Expectation::Kind::Selected}) {
        if (expectationName(kind) == name)
            return kind;
    }
    return std::nullopt;
}

std::optional<ZoneRef> refField(const QJsonObject& object, const char* name, QString* error)
{
    const QJsonValue value = object.value(QLatin1String(name));
    if (value.isUndefined() || value.isNull())
        return ZoneRef{};
    if (!value.isObject()) {
        *error = QStringLiteral("\"%1\" is not an object").arg(QLatin1String(name));
        return std::nullopt;
    }
    return ZoneRef::fromJson(value.toObject(), error);
}

} // namespace

// ---------------------------------------------------------------------------------------------------------
// ZoneRef

QJsonObject ZoneRef::toJson() const
{
    QJsonObject o;
    if (!label.isEmpty())
        o.insert(kLabel, label);
    if (type)
        o.insert(kType, toString(*type));
    if (!caption.isEmpty())
        o.insert(kCaption, caption);
    return o;
}

std::optional<ZoneRef> ZoneRef::fromJson(const QJsonObject& object, QString* error)
{
    ZoneRef r;
    r.label = object.value(kLabel).toString();
    r.caption = object.value(kCaption).toString();
    if (object.contains(kType)) {
        r.type = zoneTypeFromString(object.value(kType).toString());
        if (!r.type) {
            *error = QStringLiteral("unknown zone type \"%1\"").arg(object.value(kType).toString());
            return std::nullopt;
        }
    }
    if (r.label.isEmpty() && r.caption.isEmpty()) {
        *error = QStringLiteral("a zone reference without label or caption");
        return std::nullopt;
    }
    return r;
}

ZoneRef ZoneRef::of(const Zone& zone, const ZoneMap& map)
{
    ZoneRef r;
    r.label = zone.label.trimmed();
    r.type = zone.type;
    if (!r.label.isEmpty())
        return r;
    // The caption: the nearest labelled static zone that names this zone the way the resolver reads it
    // (a label to its left on the same row, or just above it).
    int best = -1;
    for (const Zone& z : map.zones()) {
        if (z.type != ZoneType::Static || z.label.trimmed().isEmpty())
            continue;
        const ZoneResolver::Result found = ZoneResolver::resolve(z.label, map, purposeFor(zone.type));
        if (!found.zone || found.zone->id != zone.id)
            continue;
        const QPoint d = z.center() - zone.center();
        const int distance = d.manhattanLength();
        if (best < 0 || distance < best) {
            best = distance;
            r.caption = z.label.trimmed();
        }
    }
    return r;
}

std::optional<Zone> ZoneRef::resolve(const ZoneMap& map, QString* error) const
{
    if (label.isEmpty() && caption.isEmpty()) {
        *error = QStringLiteral("the step names no zone");
        return std::nullopt;
    }
    const QString name = label.isEmpty() ? caption : label;
    const ZoneResolver::Result found = ZoneResolver::resolve(name, map, purposeFor(type));
    if (!found.zone) {
        *error = QStringLiteral("%1: %2").arg(describe(), found.error);
        return std::nullopt;
    }
    if (type && found.zone->type != *type) {
        *error = QStringLiteral("%1: the best match %2 \"%3\" is a %4")
                     .arg(describe(), found.zone->id, found.zone->label, toString(found.zone->type));
        return std::nullopt;
    }
    // Labels must match well: a replay has no model to notice a near miss.
    if (!label.isEmpty() && ZoneResolver::similarity(label, found.zone->label) < ZoneResolver::kMinScore) {
        *error = QStringLiteral("%1: only \"%2\" is similar").arg(describe(), found.zone->label);
        return std::nullopt;
    }
    return found.zone;
}

QString ZoneRef::describe() const
{
    const QString kind = type ? toString(*type) : QStringLiteral("zone");
    if (!label.isEmpty())
        return QStringLiteral("%1 \"%2\"").arg(kind, label);
    return QStringLiteral("%1 beside \"%2\"").arg(kind, caption);
}

// ---------------------------------------------------------------------------------------------------------
// RecordedStep

QJsonObject RecordedStep::toJson() const
{
    QJsonObject o{{QStringLiteral("action"), action.toJson()}};
    if (!target.isEmpty())
        o.insert(QStringLiteral("target"), target.toJson());
    if (!end.isEmpty())
        o.insert(QStringLiteral("end"), end.toJson());
    if (!focus.isEmpty())
        o.insert(QStringLiteral("focus"), focus.toJson());
    if (expect.kind != Expectation::Kind::None) {
        QJsonObject e{{QStringLiteral("kind"), expectationName(expect.kind)},
                      {QStringLiteral("text"), expect.text},
                      {QStringLiteral("description"), expect.description}};
        if (!expect.repeatable)
            e.insert(QStringLiteral("repeatable"), false);
        o.insert(QStringLiteral("expect"), e);
    }
    return o;
}

std::optional<RecordedStep> RecordedStep::fromJson(const QJsonObject& object, QString* error)
{
    RecordedStep s;
    const auto action = Action::fromJson(object.value(QStringLiteral("action")).toObject(), error);
    if (!action)
        return std::nullopt;
    s.action = *action;
    const auto target = refField(object, "target", error);
    const auto end = target ? refField(object, "end", error) : std::nullopt;
    const auto focus = end ? refField(object, "focus", error) : std::nullopt;
    if (!focus)
        return std::nullopt;
    s.target = *target;
    s.end = *end;
    s.focus = *focus;
    if (s.action.point && s.target.isEmpty()) {
        *error = QStringLiteral("a step with raw coordinates");
        return std::nullopt;
    }
    const QJsonObject expect = object.value(QStringLiteral("expect")).toObject();
    if (!expect.isEmpty()) {
        const auto kind = expectationFromName(expect.value(QStringLiteral("kind")).toString());
        if (!kind) {
            *error = QStringLiteral("unknown expectation \"%1\"")
                         .arg(expect.value(QStringLiteral("kind")).toString());
            return std::nullopt;
        }
        s.expect.kind = *kind;
        s.expect.text = expect.value(QStringLiteral("text")).toString();
        s.expect.description = expect.value(QStringLiteral("description")).toString();
        s.expect.repeatable = expect.value(QStringLiteral("repeatable")).toBool(true);
    }
    return s;
}

std::optional<RecordedStep> RecordedStep::from(const ProposedAction& p, const ZoneMap* map)
{
    RecordedStep s;
    s.action = p.action;
    s.expect = p.expect;
    auto refOf = [map](const QString& id, ZoneRef* out) {
        if (id.isEmpty())
            return true;
        const Zone* z = map ? map->find(id) : nullptr;
        if (!z)
            return false;
        *out = ZoneRef::of(*z, *map);
        return !out->label.isEmpty() || !out->caption.isEmpty();
    };
    if (!refOf(p.action.zoneId, &s.target) || !refOf(p.action.endZoneId, &s.end) ||
        !refOf(p.focusZoneId, &s.focus))
        return std::nullopt;
    // Raw coordinates do not carry over to another run; an offset inside a zone is dropped too (the centre
    // of the zone found again is used).
    if ((p.action.point && p.action.zoneId.isEmpty()) || (p.action.endPoint && p.action.endZoneId.isEmpty()))
        return std::nullopt;
    s.action.zoneId.clear();
    s.action.endZoneId.clear();
    s.action.point.reset();
    s.action.endPoint.reset();
    return s;
}

// ---------------------------------------------------------------------------------------------------------
// RecordedSequence

QJsonObject RecordedSequence::toJson() const
{
    QJsonArray steps;
    for (const RecordedStep& s : this->steps)
        steps.append(s.toJson());
    return {{QStringLiteral("format"), kFormatVersion},
            {QStringLiteral("task"), task},
            {QStringLiteral("normalized_task"), normalizedTask},
            {QStringLiteral("planner"), planner},
            {QStringLiteral("recorded_at"), recordedAt.toUTC().toString(Qt::ISODateWithMs)},
            {QStringLiteral("steps"), steps}};
}

std::optional<RecordedSequence> RecordedSequence::fromJson(const QJsonObject& object, QString* error)
{
    if (object.value(QStringLiteral("format")).toInt() != kFormatVersion) {
        *error = QStringLiteral("format %1 is not %2")
                     .arg(object.value(QStringLiteral("format")).toVariant().toString())
                     .arg(kFormatVersion);
        return std::nullopt;
    }
    RecordedSequence s;
    s.task = object.value(QStringLiteral("task")).toString();
    s.normalizedTask = object.value(QStringLiteral("normalized_task")).toString();
    s.planner = object.value(QStringLiteral("planner")).toString();
    s.recordedAt =
        QDateTime::fromString(object.value(QStringLiteral("recorded_at")).toString(), Qt::ISODateWithMs);
    if (s.task.isEmpty() || s.normalizedTask.isEmpty()) {
        *error = QStringLiteral("no task");
        return std::nullopt;
    }
    const QJsonValue steps = object.value(QStringLiteral("steps"));
    if (!steps.isArray() || steps.toArray().isEmpty()) {
        *error = QStringLiteral("no steps");
        return std::nullopt;
    }
    int index = 0;
    for (const QJsonValue& value : steps.toArray()) {
        ++index;
        QString stepError;
        const auto step = RecordedStep::fromJson(value.toObject(), &stepError);
        if (!step) {
            *error = QStringLiteral("step %1: %2").arg(index).arg(stepError);
            return std::nullopt;
        }
        s.steps.append(*step);
    }
    return s;
}

// ---------------------------------------------------------------------------------------------------------
// SequenceLibrary

SequenceLibrary::SequenceLibrary(QString dir)
    : m_dir(dir.isEmpty() ? defaultDirectory() : std::move(dir))
{
}

QString SequenceLibrary::defaultDirectory()
{
    const QString fromEnv = qEnvironmentVariable("CIU_SEQUENCES_DIR");
    if (!fromEnv.isEmpty())
        return fromEnv;
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation) +
           QStringLiteral("/ciu-agent/sequences");
}

QString SequenceLibrary::normalizeTask(const QString& task)
{
    static const QRegularExpression quoted(QStringLiteral("\"([^\"]*)\"|“([^”]*)”"));
    static const QRegularExpression nonWord(QStringLiteral("[^\\w+]+"),
                                            QRegularExpression::UseUnicodePropertiesOption);
    static const QStringList filler = {QStringLiteral("please"), QStringLiteral("the"),
                                       QStringLiteral("a"),      QStringLiteral("an"),
                                       QStringLiteral("then"),   QStringLiteral("and")};
    QStringList out;
    auto addWords = [&out](const QString& text) {
        for (const QString& word : text.toLower().split(nonWord, Qt::SkipEmptyParts)) {
            if (!filler.contains(word))
                out.append(word);
        }
    };
    qsizetype at = 0;
    for (auto it = quoted.globalMatch(task); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        addWords(task.mid(at, m.capturedStart() - at));
        const QString inner = m.captured(1).isNull() ? m.captured(2) : m.captured(1);
        out.append(QLatin1Char('"') + inner + QLatin1Char('"')); // typed text: exactly as written
        at = m.capturedEnd();
    }
    addWords(task.mid(at));
    return out.join(QLatin1Char(' '));
}

QString SequenceLibrary::pathFor(const QString& task) const
{
    const QByteArray hash =
        QCryptographicHash::hash(normalizeTask(task).toUtf8(), QCryptographicHash::Sha256).toHex().left(20);
    return m_dir + QLatin1Char('/') + QString::fromLatin1(hash) + QStringLiteral(".json");
}

std::optional<RecordedSequence> SequenceLibrary::find(const QString& task, QString* warning) const
{
    const QString path = pathFor(task);
    QFile file(path);
    if (!file.exists())
        return std::nullopt;
    auto warn = [&](const QString& why) {
        if (warning)
            *warning = QStringLiteral("ignoring the recorded sequence %1: %2").arg(path, why);
        return std::nullopt;
    };
    if (!file.open(QIODevice::ReadOnly))
        return warn(file.errorString());
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return warn(QStringLiteral("not a JSON object (%1 at offset %2)")
                        .arg(parseError.errorString())
                        .arg(parseError.offset));
    QString error;
    auto sequence = RecordedSequence::fromJson(doc.object(), &error);
    if (!sequence)
        return warn(error);
    if (sequence->normalizedTask != normalizeTask(task))
        return std::nullopt; // a hash collision: another task
    return sequence;
}

bool SequenceLibrary::store(const RecordedSequence& sequence, QString* error) const
{
    if (!QDir().mkpath(m_dir)) {
        if (error)
            *error = QStringLiteral("cannot create %1").arg(m_dir);
        return false;
    }
    RecordedSequence s = sequence;
    s.normalizedTask = normalizeTask(s.task);
    QSaveFile file(pathFor(s.task));
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(s.toJson()).toJson()) < 0 ||
        !file.commit()) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(file.fileName(), file.errorString());
        return false;
    }
    return true;
}

} // namespace ciu
