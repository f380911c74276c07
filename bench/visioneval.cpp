// The vision benchmark's evaluation: corpus reader, greedy IoU matching and the counts behind the figures.

#include "bench/visioneval.h"

#include "core/canvas/accessibilityzones.h"
#include "core/model/geometry.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <vector>

namespace ciu::bench {
namespace {

constexpr auto kFormat = "ciu-vision-corpus/1";
constexpr int kMaxLabelChars = 200; // as zonesFromAccessibility: a paragraph is not a label

// Text the user edits; read-only "text" is static (the rule of zonesFromAccessibility).
bool isEditableTextRole(const QString& role)
{
    return role == QLatin1String("entry") || role == QLatin1String("password text") ||
           role == QLatin1String("spin button") || role == QLatin1String("editbar") ||
           role == QLatin1String("terminal");
}

std::optional<QRect> rectFromArray(const QJsonValue& value)
{
    const QJsonArray a = value.toArray();
    if (a.size() != 4)
        return std::nullopt;
    for (const QJsonValue& v : a) {
        if (!v.isDouble())
            return std::nullopt;
    }
    return checkedRect(a.at(0).toDouble(), a.at(1).toDouble(), a.at(2).toDouble(), a.at(3).toDouble());
}

QStringList stringList(const QJsonValue& value)
{
    QStringList out;
    for (const QJsonValue& v : value.toArray())
        out << v.toString();
    return out;
}

} // namespace

std::optional<Zone> truthZoneFromNode(const QJsonObject& node, QString* error)
{
    const QString role = node.value(QLatin1String("role")).toString();
    const std::optional<QRect> bounds = rectFromArray(node.value(QLatin1String("bounds")));
    if (!node.value(QLatin1String("role")).isString() || !bounds) {
        *error = QStringLiteral("a zone without \"role\" or a \"bounds\" [x, y, width, height]");
        return std::nullopt;
    }
    std::optional<ZoneType> type = canvas::zoneTypeForRole(role);
    if (!type || bounds->isEmpty())
        return std::nullopt;
    const QStringList states = stringList(node.value(QLatin1String("states")));
    if (*type == ZoneType::TextField && !states.contains(QLatin1String("editable")) &&
        !isEditableTextRole(role))
        type = ZoneType::Static;
    Zone z;
    z.type = *type;
    z.bounds = *bounds;
    z.role = role;
    z.state = canvas::zoneStateFor(states, role);
    z.source = ZoneSource::Accessibility;
    z.isPassword = role == QLatin1String("password text");
    z.label = node.value(QLatin1String("name")).toString().trimmed();
    if (z.label.isEmpty())
        z.label = node.value(QLatin1String("labelled_by")).toString().trimmed();
    if (z.label.isEmpty() && z.type == ZoneType::Static)
        z.label = node.value(QLatin1String("text")).toString().trimmed().left(kMaxLabelChars);
    if (z.label.isEmpty())
        z.label = node.value(QLatin1String("description")).toString().trimmed();
    if (z.type == ZoneType::Static && z.label.isEmpty())
        return std::nullopt;
    return z;
}

std::optional<CorpusSample> readCorpusSample(const QString& jsonPath, QString* error)
{
    const auto fail = [&](const QString& why) {
        *error = QStringLiteral("%1: %2").arg(jsonPath, why);
        return std::nullopt;
    };
    QFile file(jsonPath);
    if (!file.open(QIODevice::ReadOnly))
        return fail(file.errorString());
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(
            QStringLiteral("not JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset));
    if (!doc.isObject())
        return fail(QStringLiteral("valid JSON, but not an object"));
    const QJsonObject o = doc.object();
    if (o.value(QLatin1String("format")).toString() != QLatin1String(kFormat))
        return fail(
            QStringLiteral("not a corpus sample (\"format\" is not \"%1\")").arg(QLatin1String(kFormat)));
    CorpusSample s;
    s.jsonPath = jsonPath;
    for (const auto& [key, field] : {std::pair{"image", &s.imagePath}, std::pair{"program", &s.program},
                                     std::pair{"toolkit", &s.toolkit}, std::pair{"look", &s.look},
                                     std::pair{"state", &s.state}, std::pair{"set", &s.set}}) {
        *field = o.value(QLatin1String(key)).toString();
        if (field->isEmpty())
            return fail(QStringLiteral("missing \"%1\"").arg(QLatin1String(key)));
    }
    if (s.set != QLatin1String("tuning") && s.set != QLatin1String("heldout"))
        return fail(QStringLiteral("\"set\" must be tuning or heldout, got \"%1\"").arg(s.set));
    const QJsonObject screen = o.value(QLatin1String("screen")).toObject();
    s.screen =
        QSize(screen.value(QLatin1String("width")).toInt(), screen.value(QLatin1String("height")).toInt());
    if (s.screen.isEmpty())
        return fail(QStringLiteral("missing \"screen\" {width, height}"));
    s.imagePath = QFileInfo(jsonPath).dir().filePath(s.imagePath);
    if (!QFileInfo(s.imagePath).isFile())
        return fail(QStringLiteral("its image %1 does not exist").arg(s.imagePath));
    if (!o.value(QLatin1String("zones")).isArray())
        return fail(QStringLiteral("missing \"zones\""));
    const QJsonArray zones = o.value(QLatin1String("zones")).toArray();
    for (qsizetype i = 0; i < zones.size(); ++i) {
        QString why;
        const std::optional<Zone> z = truthZoneFromNode(zones.at(i).toObject(), &why);
        if (!why.isEmpty())
            return fail(QStringLiteral("zone %1: %2").arg(i).arg(why));
        if (z)
            s.truth << *z;
    }
    for (const QJsonValue& v : o.value(QLatin1String("windows")).toArray()) {
        const QJsonObject w = v.toObject();
        const std::optional<QRect> geometry = rectFromArray(w.value(QLatin1String("geometry")));
        if (!geometry)
            return fail(QStringLiteral("a window without \"geometry\""));
        platform::WindowInfo info;
        info.id = quint64(w.value(QLatin1String("id")).toDouble());
        info.title = w.value(QLatin1String("title")).toString();
        info.windowClass = w.value(QLatin1String("class")).toString();
        info.instance = w.value(QLatin1String("instance")).toString();
        info.pid = qint64(w.value(QLatin1String("pid")).toDouble(-1));
        info.geometry = *geometry;
        s.windows << info;
    }
    return s;
}

CorpusListing readCorpus(const QString& dir, QString* error)
{
    CorpusListing listing;
    if (!QFileInfo(dir).isDir()) {
        *error = QStringLiteral("corpus folder %1 does not exist").arg(dir);
        return listing;
    }
    QStringList files;
    QDirIterator it(dir, {QStringLiteral("*.json")}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (QFileInfo(path).fileName() != QLatin1String("programs.json"))
            files << path;
    }
    if (files.isEmpty()) {
        *error = QStringLiteral("no sample in %1 (make one with bench/corpus/generate.sh %1)").arg(dir);
        return listing;
    }
    files.sort();
    for (const QString& path : std::as_const(files)) {
        QString why;
        if (auto sample = readCorpusSample(path, &why))
            listing.samples << *sample;
        else
            listing.errors << why;
    }
    return listing;
}

QString normalizedLabel(const QString& label)
{
    QString out;
    for (const QChar c : label.toCaseFolded()) {
        if (c.isLetterOrNumber())
            out += c;
    }
    return out;
}

bool labelShown(const QString& label, const QString& read)
{
    const QString want = normalizedLabel(label);
    const QString got = normalizedLabel(read);
    if (want.isEmpty() || got.isEmpty())
        return false;
    // The longest common subsequence, one row at a time.
    std::vector<int> previous(size_t(got.size()) + 1, 0);
    std::vector<int> current(previous.size(), 0);
    for (const QChar w : want) {
        for (qsizetype j = 0; j < got.size(); ++j) {
            const size_t k = size_t(j) + 1;
            current[k] = w == got.at(j) ? previous[k - 1] + 1 : std::max(previous[k], current[k - 1]);
        }
        std::swap(previous, current);
    }
    return 2 * previous.back() >= want.size();
}

bool isTextLabelled(ZoneType type)
{
    return isNamedControl(type);
}

MatchCounts& MatchCounts::operator+=(const MatchCounts& other)
{
    truth += other.truth;
    detected += other.detected;
    matched += other.matched;
    typeCorrect += other.typeCorrect;
    labelled += other.labelled;
    labelCorrect += other.labelCorrect;
    drawn += other.drawn;
    drawnCorrect += other.drawnCorrect;
    return *this;
}

FrameEvaluation evaluateFrame(const QList<Zone>& truth, const QList<Zone>& detected, double minIou,
                              const std::function<bool(int truthIndex)>& drawn)
{
    FrameEvaluation result;
    QList<int> t;
    QList<int> d;
    for (int i = 0; i < truth.size(); ++i) {
        if (truth.at(i).isInteractive()) {
            t << i;
            ++result.byTruthType[truth.at(i).type].truth;
        }
    }
    for (int j = 0; j < detected.size(); ++j) {
        if (detected.at(j).isInteractive())
            d << j;
    }
    result.counts.truth = int(t.size());
    result.counts.detected = int(d.size());
    QList<ZoneMatch> candidates;
    for (const int i : std::as_const(t)) {
        for (const int j : std::as_const(d)) {
            const double iou = intersectionOverUnion(truth.at(i).bounds, detected.at(j).bounds);
            if (iou >= minIou)
                candidates << ZoneMatch{i, j, iou};
        }
    }
    // Highest IoU first; ties in input order, so the result does not depend on the sort's stability.
    std::sort(candidates.begin(), candidates.end(), [](const ZoneMatch& a, const ZoneMatch& b) {
        if (a.iou != b.iou)
            return a.iou > b.iou;
        return a.truthIndex != b.truthIndex ? a.truthIndex < b.truthIndex : a.detectedIndex < b.detectedIndex;
    });
    QList<bool> truthUsed(truth.size(), false);
    QList<bool> detectedUsed(detected.size(), false);
    for (const ZoneMatch& m : std::as_const(candidates)) {
        if (truthUsed.at(m.truthIndex) || detectedUsed.at(m.detectedIndex))
            continue;
        truthUsed[m.truthIndex] = true;
        detectedUsed[m.detectedIndex] = true;
        result.matches << m;
        const Zone& a = truth.at(m.truthIndex);
        const Zone& b = detected.at(m.detectedIndex);
        MatchCounts one;
        one.matched = 1;
        one.typeCorrect = a.type == b.type ? 1 : 0;
        if (isTextLabelled(a.type) && !normalizedLabel(a.label).isEmpty()) {
            one.labelled = 1;
            one.labelCorrect = normalizedLabel(a.label) == normalizedLabel(b.label) ? 1 : 0;
            if (drawn && drawn(m.truthIndex)) {
                one.drawn = 1;
                one.drawnCorrect = one.labelCorrect;
            }
        }
        result.counts += one;
        result.byTruthType[a.type] += one;
    }
    return result;
}

} // namespace ciu::bench
