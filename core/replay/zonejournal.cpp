#include "core/replay/zonejournal.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>

namespace ciu::replay {
namespace {

constexpr double kMaxScreenSide = 65535;

// Equal for the replay: the time a zone was last seen changes with every analysis and is not recorded
// again for a zone that did not otherwise change (it would rewrite every zone at every map).
bool sameForReplay(const Zone& recorded, Zone z)
{
    z.lastSeenNs = recorded.lastSeenNs;
    return recorded == z;
}

} // namespace

std::optional<QJsonObject> ZoneJournalEncoder::encode(const ZoneMap& map)
{
    const bool snapshot = m_first || map.screenSize() != m_screen || m_sinceSnapshot >= m_snapshotEvery;
    QJsonObject line;
    line[QLatin1String("version")] = double(map.version());
    if (snapshot) {
        QJsonArray zones;
        for (const Zone& z : map.zones())
            zones.append(toJson(z));
        line[QLatin1String("kind")] = QStringLiteral("snapshot");
        line[QLatin1String("screen")] = QJsonArray{map.screenSize().width(), map.screenSize().height()};
        line[QLatin1String("zones")] = zones;
        m_sinceSnapshot = 0;
    } else {
        QJsonArray added, changed, removed;
        QSet<QString> seen;
        for (const Zone& z : map.zones()) {
            seen.insert(z.id);
            const auto it = m_zones.constFind(z.id);
            if (it == m_zones.constEnd())
                added.append(toJson(z));
            else if (!sameForReplay(*it, z))
                changed.append(toJson(z));
        }
        for (const QString& id : std::as_const(m_order)) {
            if (!seen.contains(id))
                removed.append(id);
        }
        if (added.isEmpty() && changed.isEmpty() && removed.isEmpty())
            return std::nullopt; // same zones (a new version with nothing to record)
        line[QLatin1String("kind")] = QStringLiteral("delta");
        if (!added.isEmpty())
            line[QLatin1String("added")] = added;
        if (!changed.isEmpty())
            line[QLatin1String("changed")] = changed;
        if (!removed.isEmpty())
            line[QLatin1String("removed")] = removed;
        ++m_sinceSnapshot;
    }
    m_first = false;
    m_screen = map.screenSize();
    QHash<QString, Zone> previous;
    previous.swap(m_zones);
    m_order.clear();
    for (const Zone& z : map.zones()) {
        // Keep what was recorded for an unchanged zone, so small drifts of last_seen_ns never add up.
        const auto it = previous.constFind(z.id);
        m_zones.insert(z.id, !snapshot && it != previous.constEnd() && sameForReplay(*it, z) ? *it : z);
        m_order << z.id;
    }
    return line;
}

bool ZoneJournal::addLine(qint64 tNs, const QJsonObject& line, QString* error)
{
    auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    Entry e;
    e.tNs = tNs;
    const double version = line.value(QLatin1String("version")).toDouble();
    e.version = version > 0 && version < 1.8e19 ? quint64(version) : 0;
    const QString kind = line.value(QLatin1String("kind")).toString();
    if (kind == QLatin1String("snapshot")) {
        e.snapshot = true;
        const QJsonArray screen = line.value(QLatin1String("screen")).toArray();
        if (screen.size() == 2) {
            // An X screen is at most 65535 pixels a side: anything else is a corrupt line.
            const double w = screen.at(0).toDouble(-1), h = screen.at(1).toDouble(-1);
            if (!(w >= 0 && w <= kMaxScreenSide && h >= 0 && h <= kMaxScreenSide))
                return fail(QStringLiteral("zone snapshot with an impossible screen size %1 x %2")
                                .arg(QString::number(screen.at(0).toDouble(), 'f', 0),
                                     QString::number(screen.at(1).toDouble(), 'f', 0)));
            e.screen = QSize(int(w), int(h));
        }
        for (const QJsonValue& v : line.value(QLatin1String("zones")).toArray()) {
            QString zoneError;
            const auto zone = zoneFromJson(v.toObject(), &zoneError);
            if (!zone)
                return fail(zoneError);
            e.zones << *zone;
        }
    } else if (kind == QLatin1String("delta")) {
        if (m_entries.isEmpty())
            return fail(QStringLiteral("a zone delta before the first snapshot"));
        for (const char* key : {"added", "changed"}) {
            for (const QJsonValue& v : line.value(QLatin1String(key)).toArray()) {
                QString zoneError;
                const auto zone = zoneFromJson(v.toObject(), &zoneError);
                if (!zone)
                    return fail(zoneError);
                e.zones << *zone;
            }
        }
        for (const QJsonValue& v : line.value(QLatin1String("removed")).toArray())
            e.removed << v.toString();
    } else {
        return fail(QStringLiteral("unknown zone journal entry kind \"%1\"").arg(kind));
    }
    if (!m_entries.isEmpty() && tNs < m_entries.last().tNs)
        e.tNs = m_entries.last().tNs; // keep the list sorted; lines are written in order anyway
    if (e.snapshot) {
        m_running = e.zones;
        m_sinceCheckpoint = 0;
    } else {
        apply(m_running, e);
        if (++m_sinceCheckpoint >= kCheckpointEvery) {
            e.checkpoint = std::make_shared<const QList<Zone>>(m_running);
            m_sinceCheckpoint = 0;
        }
    }
    m_entries << e;
    m_cachedIndex = -1;
    return true;
}

void ZoneJournal::apply(QList<Zone>& zones, const Entry& delta)
{
    for (const QString& id : delta.removed)
        zones.removeIf([&](const Zone& z) { return z.id == id; });
    for (const Zone& z : delta.zones) {
        auto found = std::find_if(zones.begin(), zones.end(), [&](const Zone& x) { return x.id == z.id; });
        if (found != zones.end())
            *found = z;
        else
            zones << z;
    }
}

QList<qint64> ZoneJournal::times() const
{
    QList<qint64> t;
    t.reserve(m_entries.size());
    for (const Entry& e : m_entries)
        t << e.tNs;
    return t;
}

ZoneMapPtr ZoneJournal::mapAt(qint64 tNs) const
{
    // The last entry at or before tNs.
    const auto it = std::upper_bound(m_entries.cbegin(), m_entries.cend(), tNs,
                                     [](qint64 t, const Entry& e) { return t < e.tNs; });
    const qsizetype index = (it - m_entries.cbegin()) - 1;
    if (index < 0)
        return std::make_shared<const ZoneMap>();
    if (index == m_cachedIndex && m_cached)
        return m_cached;
    // Back to the nearest snapshot or checkpoint (the screen size comes from the snapshot).
    qsizetype start = index;
    while (start > 0 && !m_entries.at(start).snapshot && !m_entries.at(start).checkpoint)
        --start;
    qsizetype screenAt = start;
    while (screenAt > 0 && !m_entries.at(screenAt).snapshot)
        --screenAt;
    const QSize screen = m_entries.at(screenAt).screen;
    QList<Zone> zones;
    for (qsizetype i = start; i <= index; ++i) {
        const Entry& e = m_entries.at(i);
        if (e.snapshot)
            zones = e.zones;
        else if (i == start && e.checkpoint)
            zones = *e.checkpoint;
        else
            apply(zones, e);
    }
    const Entry& last = m_entries.at(index);
    m_cached = std::make_shared<const ZoneMap>(last.version, last.tNs, screen, zones);
    m_cachedIndex = index;
    return m_cached;
}

} // namespace ciu::replay
