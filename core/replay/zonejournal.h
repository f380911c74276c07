#pragma once

#include "core/model/zonemap.h"

#include <QHash>
#include <QJsonObject>
#include <QList>

#include <optional>

namespace ciu::replay {

// zones.jsonl: the zone map over time as full snapshots every `snapshotEvery` versions (and whenever the
// screen size changes) with deltas in between:
//   {"t_ns":..,"version":7,"kind":"snapshot","screen":[w,h],"zones":[zone...]}
//   {"t_ns":..,"version":8,"kind":"delta","added":[zone...],"changed":[zone...],"removed":["id"...]}
// ZoneJournalEncoder turns successive ZoneMaps into those lines; ZoneJournal reconstructs the map at any t.
// A zone whose only change is its last_seen_ns is not written again (the replay shows the first value).
class ZoneJournalEncoder
{
public:
    explicit ZoneJournalEncoder(int snapshotEvery = 50)
        : m_snapshotEvery(qMax(1, snapshotEvery))
    {
    }
    // The line for `map` (without t_ns), or nullopt when nothing changed since the previous map.
    std::optional<QJsonObject> encode(const ZoneMap& map);

private:
    int m_snapshotEvery;
    int m_sinceSnapshot = 0;
    bool m_first = true;
    QSize m_screen;
    QHash<QString, Zone> m_zones;
    QStringList m_order;
};

class ZoneJournal
{
public:
    // Adds one parsed line. Returns false (with `error`) for a malformed line, which is then ignored.
    bool addLine(qint64 tNs, const QJsonObject& line, QString* error = nullptr);
    qsizetype entryCount() const { return m_entries.size(); }
    // The zone map as it was at tNs (an empty map before the first entry).
    ZoneMapPtr mapAt(qint64 tNs) const;
    QList<qint64> times() const;

private:
    struct Entry
    {
        qint64 tNs = 0;
        quint64 version = 0;
        bool snapshot = false;
        QSize screen;
        QList<Zone> zones; // snapshot: all; delta: added + changed
        QStringList removed;
        // Every kCheckpointEvery deltas after a snapshot, the whole map as it is after this entry, so that a
        // seek replays at most that many deltas (a file with 100k deltas after one snapshot took minutes).
        std::shared_ptr<const QList<Zone>> checkpoint;
    };
    static constexpr int kCheckpointEvery = 32;
    static void apply(QList<Zone>& zones, const Entry& delta);
    QList<Entry> m_entries;
    QList<Zone> m_running; // the map after the last entry added
    int m_sinceCheckpoint = 0;
    // Cache of the last reconstruction.
    mutable qsizetype m_cachedIndex = -1;
    mutable ZoneMapPtr m_cached;
};

} // namespace ciu::replay
