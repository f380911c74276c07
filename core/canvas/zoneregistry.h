#pragma once

#include "core/model/zonemap.h"

#include <QHash>
#include <QList>
#include <QSet>

#include <functional>

namespace ciu::canvas {

// The canvas mapper's mutable store of zones. Everyone else sees immutable, versioned ZoneMap snapshots.
//
// - Ids are stable: a detection that matches an existing zone (same place: IoU, label and type; or moved
//   within the re-analysed region with the same label, type and size) takes over that zone's id. A new zone's
//   id is derived from what identifies it (zoneidentity.h), so it is the same in every process: a detection
//   that brings one (the tree's zones) keeps it, others get one from their program, type, label and place in
//   their window. A tree zone matching a zone vision found first takes the tree's id (renamed: the old id is
//   reported as removed), so the order of discovery does not decide the id.
// - Tier 1 replaces within a region: zones there that were not found again are removed; zones outside
//   are untouched. Tier 2 is the same over the whole screen.
// - User corrections (source user, confidence 1) are never removed or overwritten by detections.
// - Nesting: each zone's parent is the smallest other zone containing it (unless set explicitly).
// - Zones not confirmed for maxAgeNs are aged out. Tier 0 confirms a zone while its pixels stay the same;
//   once they changed (markChangedPixels) only an analysis that finds it again confirms it, and an
//   analysis of the region its centre lies in that does not find it removes it.
// Not thread-safe: owned and used by the canvas worker only.
class ZoneRegistry
{
public:
    struct Options
    {
        double matchIou = 0.5;            // same place
        double moveLabelSimilarity = 0.8; // moved: labels at least this similar (0..1)
        qint64 maxAgeNs = 30'000'000'000; // not confirmed for 30 s → removed
        qint64 temporaryMaxAgeNs = 5'000'000'000;
        double withinShare = 0.6; // share of a zone's area inside a region for it to count as within
        int maxZones = 5000;
    };

    struct UpdateStats
    {
        int added = 0;
        int updated = 0; // matched an existing zone (id kept)
        int removed = 0;
        int userKept = 0; // detections dropped because a user zone covers them
        int renamed = 0;  // vision zones that took a tree zone's id
        bool operator==(const UpdateStats&) const = default;
    };

    ZoneRegistry();
    explicit ZoneRegistry(Options options);

    const Options& options() const { return m_options; }
    void setScreenSize(QSize size);
    QSize screenSize() const { return m_screenSize; }
    // Where each window's top-left is (root coordinates): a vision zone's id is relative to its window.
    void setWindowOrigins(const QHash<quint64, QPoint>& origins) { m_windowOrigins = origins; }

    // Replaces the zones within `region` (root coordinates; null: the whole screen) with `detected`.
    // Detections with the id of an existing zone update that zone. Ids starting with "tmp:" are
    // provisional (a model's inventory): they only link parents within `detected`.
    // `pixelsAnalysed`: `detected` is what an analysis of the region's pixels found (not zones carried
    // over): the zones it found are confirmed, and unconfirmed zones whose centre lies in the region that
    // it did not find are removed too.
    UpdateStats replaceWithin(const QRect& region, const QList<Zone>& detected, qint64 tNs,
                              bool pixelsAnalysed = false);
    // Adds or updates without removing anything.
    UpdateStats merge(const QList<Zone>& detected, qint64 tNs);

    // A user's zone or correction: source user, confidence 1. An empty id (or an unknown one) adds a
    // zone; an existing id is replaced. Returns the zone's id.
    QString applyUserCorrection(Zone zone, qint64 tNs);
    bool remove(const QString& id);
    // Drops every zone (user zones too when `keepUser` is false).
    void clear(bool keepUser = true);

    // Changes one zone in place (state flags after hover, ...). Returns false for an unknown id.
    bool update(const QString& id, const std::function<void(Zone&)>& change);
    bool setStateFlag(const QString& id, ZoneStateFlag flag, bool on);

    // Tier 0 confirmation: zones that do not intersect any changed rectangle are still there (unless
    // their pixels changed earlier and no analysis has confirmed them since).
    void confirmUnchanged(const QList<QRect>& changed, qint64 tNs);
    // Zones whose pixels changed (a rectangle holds the zone's centre or a quarter of its area) are
    // unconfirmed until an analysis finds them again or confirm() vouches for them; meanwhile they age
    // from their last confirmation. User zones are never unconfirmed.
    void markChangedPixels(const QList<QRect>& changed, qint64 tNs);
    // The change on a zone is explained (a hover highlight): it is confirmed as it is.
    void confirm(const QString& id, qint64 tNs);
    bool isUnconfirmed(const QString& id) const { return m_unconfirmed.contains(id); }
    // Removes zones not confirmed for too long (never user zones). Returns the removed ids.
    QStringList ageOut(qint64 nowNs);
    // Removes temporary zones intersecting `region` (null: all). Returns the removed ids.
    QStringList removeTemporary(const QRect& region = {});

    const QList<Zone>& zones() const { return m_zones; }
    const Zone* find(const QString& id) const;
    qsizetype size() const { return m_zones.size(); }
    quint64 version() const { return m_version; }
    // Ids removed by the last call that removed anything (so caches can forget them).
    QStringList takeRemovedIds();

    // The current state as an immutable snapshot. The version grows with every change; an unchanged
    // registry returns the same snapshot.
    ZoneMapPtr snapshot(qint64 tNs);

    // Similarity of two labels, 0..1 (case and spacing ignored; 1 for two empty labels).
    static double labelSimilarity(const QString& a, const QString& b);

private:
    UpdateStats apply(const QRect& region, bool replace, const QList<Zone>& detected, qint64 tNs,
                      bool pixelsAnalysed);
    bool isWithin(const Zone& zone, const QRect& region) const;
    // The one way zones leave the registry: removes those `drop` selects (index, zone; scanned from the
    // end), forgets their per-id state and records them for takeRemovedIds(). Returns the removed ids.
    QStringList removeIf(const std::function<bool(int, const Zone&)>& drop);
    QString newId(const Zone& zone, const QSet<QString>& reserved);
    // A zone changes its id (to a tree zone's): parents, per-id state and caches follow.
    void rename(QString from, QString to, UpdateStats* stats); // by value: `from` may be a zone's own id
    void recomputeParents();
    void markChanged();

    Options m_options;
    QSize m_screenSize;
    QList<Zone> m_zones;
    QSet<QString> m_explicitParent;
    QHash<QString, qint64> m_unconfirmed; // id → when its pixels changed (not confirmed since)
    QStringList m_removed;
    QHash<quint64, QPoint> m_windowOrigins;
    quint64 m_version = 0;
    bool m_dirty = true;
    ZoneMapPtr m_snapshot;
};

} // namespace ciu::canvas
