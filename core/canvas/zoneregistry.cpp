#include "core/canvas/zoneregistry.h"

#include "core/canvas/zoneidentity.h"
#include "core/knowledge/correctionstore.h"
#include "core/model/geometry.h"

#include <algorithm>
#include <vector>

namespace ciu::canvas {
namespace {

QString normalised(const QString& label)
{
    return label.simplified().toLower();
}

int levenshtein(const QString& a, const QString& b)
{
    std::vector<int> previous(size_t(b.size()) + 1);
    std::vector<int> current(size_t(b.size()) + 1);
    for (qsizetype j = 0; j <= b.size(); ++j)
        previous[size_t(j)] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = int(i);
        for (qsizetype j = 1; j <= b.size(); ++j) {
            const int cost = a.at(i - 1) == b.at(j - 1) ? 0 : 1;
            current[size_t(j)] = std::min(
                {previous[size_t(j)] + 1, current[size_t(j - 1)] + 1, previous[size_t(j - 1)] + cost});
        }
        std::swap(previous, current);
    }
    return previous[size_t(b.size())];
}

bool similarSize(const QRect& a, const QRect& b)
{
    auto close = [](int x, int y) { return std::abs(x - y) <= std::max(4, std::max(x, y) / 5); };
    return close(a.width(), b.width()) && close(a.height(), b.height());
}

bool isProvisional(const QString& id)
{
    return id.startsWith(QLatin1String("tmp:"));
}

// An id a detection brings that the registry keeps (a tree zone's, a known zone's).
bool isStable(const QString& id)
{
    return !id.isEmpty() && !isProvisional(id);
}

} // namespace

ZoneRegistry::ZoneRegistry()
    : ZoneRegistry(Options{})
{
}

ZoneRegistry::ZoneRegistry(Options options)
    : m_options(options)
{
}

double ZoneRegistry::labelSimilarity(const QString& a, const QString& b)
{
    const QString x = normalised(a);
    const QString y = normalised(b);
    if (x.isEmpty() && y.isEmpty())
        return 1;
    if (x.isEmpty() || y.isEmpty())
        return 0;
    const int longest = int(std::max(x.size(), y.size()));
    return 1.0 - double(levenshtein(x, y)) / double(longest);
}

void ZoneRegistry::setScreenSize(QSize size)
{
    if (size != m_screenSize) {
        m_screenSize = size;
        markChanged();
    }
}

void ZoneRegistry::markChanged()
{
    m_dirty = true;
}

QString ZoneRegistry::newId(const Zone& zone, const QSet<QString>& reserved)
{
    if (zone.source == ZoneSource::User)
        return newUserZoneId();
    QSet<QString> taken = reserved;
    for (const Zone& z : std::as_const(m_zones))
        taken.insert(z.id);
    const QPoint origin = m_windowOrigins.value(zone.windowId, QPoint(0, 0));
    return ZoneIdAllocator(taken).allocate(visionZoneKey(zone, origin));
}

const Zone* ZoneRegistry::find(const QString& id) const
{
    for (const Zone& z : m_zones) {
        if (z.id == id)
            return &z;
    }
    return nullptr;
}

bool ZoneRegistry::isWithin(const Zone& zone, const QRect& region) const
{
    if (region.isNull())
        return true;
    const qint64 a = area(zone.bounds);
    if (a == 0)
        return region.contains(zone.bounds.topLeft());
    return double(area(zone.bounds.intersected(region))) >= m_options.withinShare * double(a);
}

ZoneRegistry::UpdateStats ZoneRegistry::replaceWithin(const QRect& region, const QList<Zone>& detected,
                                                      qint64 tNs, bool pixelsAnalysed)
{
    return apply(region, true, detected, tNs, pixelsAnalysed);
}

ZoneRegistry::UpdateStats ZoneRegistry::merge(const QList<Zone>& detected, qint64 tNs)
{
    return apply({}, false, detected, tNs, false);
}

ZoneRegistry::UpdateStats ZoneRegistry::apply(const QRect& region, bool replace, const QList<Zone>& detected,
                                              qint64 tNs, bool pixelsAnalysed)
{
    UpdateStats stats;
    const qsizetype existingCount = m_zones.size();
    std::vector<bool> matched(size_t(existingCount), false);
    std::vector<int> assignment(size_t(detected.size()), -1);
    std::vector<bool> dropped(size_t(detected.size()), false);

    // Detections that carry a known id (confirmed or re-found by template) update that zone directly.
    QHash<QString, int> indexOf;
    for (int i = 0; i < existingCount; ++i)
        indexOf.insert(m_zones.at(i).id, i);
    for (int d = 0; d < detected.size(); ++d) {
        const QString& id = detected.at(d).id;
        if (id.isEmpty() || isProvisional(id))
            continue;
        const auto it = indexOf.constFind(id);
        if (it != indexOf.cend() && !matched[size_t(*it)]) {
            matched[size_t(*it)] = true;
            assignment[size_t(d)] = *it;
        }
    }

    // Candidate pairs, best first.
    struct Pair
    {
        double score;
        int detection;
        int existing;
    };
    std::vector<Pair> pairs;
    for (int d = 0; d < detected.size(); ++d) {
        if (assignment[size_t(d)] >= 0)
            continue;
        const Zone& z = detected.at(d);
        for (int e = 0; e < existingCount; ++e) {
            if (matched[size_t(e)])
                continue;
            const Zone& old = m_zones.at(e);
            const double overlap = intersectionOverUnion(z.bounds, old.bounds);
            const double label = labelSimilarity(z.label, old.label);
            const bool sameType = z.type == old.type;
            double score = 0;
            if (overlap >= m_options.matchIou) {
                // Same place: a different type needs a close overlap or a similar label.
                if (sameType || overlap >= 0.7 || label >= 0.6)
                    score = 1.0 + overlap + (sameType ? 0.3 : 0) + 0.2 * label;
            } else if (old.source != ZoneSource::User && sameType && !z.label.isEmpty() &&
                       label >= m_options.moveLabelSimilarity && similarSize(z.bounds, old.bounds) &&
                       (!replace || isWithin(old, region))) {
                // Moved (within the re-analysed region): same label, type and size.
                score = 0.5 + 0.2 * label + 0.1 * overlap;
            }
            if (score > 0)
                pairs.push_back({score, d, e});
        }
    }
    std::sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.score > b.score; });
    for (const Pair& p : pairs) {
        if (assignment[size_t(p.detection)] >= 0 || dropped[size_t(p.detection)] ||
            matched[size_t(p.existing)])
            continue;
        matched[size_t(p.existing)] = true;
        if (m_zones.at(p.existing).source == ZoneSource::User) {
            // The user's zone wins over the detection; it is still there.
            dropped[size_t(p.detection)] = true;
            m_zones[p.existing].lastSeenNs = tNs;
            ++stats.userKept;
        } else {
            assignment[size_t(p.detection)] = p.existing;
        }
    }

    QSet<QString> carried; // stable ids the detections bring: no other zone may take one
    for (const Zone& z : detected) {
        if (isStable(z.id))
            carried.insert(z.id);
    }
    bool changed = false;
    QHash<QString, QString> finalId;           // provisional id → registry id
    QList<QPair<QString, QString>> tmpParents; // registry id → provisional parent id
    for (int d = 0; d < detected.size(); ++d) {
        if (dropped[size_t(d)])
            continue;
        Zone z = detected.at(d);
        const QString provisional = isProvisional(z.id) ? z.id : QString();
        if (isProvisional(z.parentId)) {
            tmpParents.append({QString(), z.parentId});
            z.parentId.clear();
        }
        z.lastSeenNs = tNs;
        if (z.source == ZoneSource::User)
            z.confidence = 1.0;
        const int e = assignment[size_t(d)];
        if (e >= 0) {
            Zone& old = m_zones[e];
            // The tree's id names the element in its program: it replaces one vision gave the same element.
            if (z.source == ZoneSource::Accessibility && old.source != ZoneSource::Accessibility &&
                old.source != ZoneSource::User && isStable(z.id) && z.id != old.id && !find(z.id))
                rename(old.id, z.id, &stats);
            z.id = old.id;
            z.firstSeenNs = old.firstSeenNs;
            if (!pixelsAnalysed && m_unconfirmed.contains(old.id))
                z.lastSeenNs = old.lastSeenNs; // carried over, not seen: it keeps aging
            // A model's reading of type and label wins over a local one at the same place.
            if (old.source == ZoneSource::Model && z.source == ZoneSource::Local &&
                intersectionOverUnion(z.bounds, old.bounds) >= 0.7) {
                z.type = old.type;
                if (z.label.isEmpty() || labelSimilarity(z.label, old.label) >= 0.5)
                    z.label = old.label;
                z.source = ZoneSource::Model;
                z.confidence = std::max(z.confidence, old.confidence);
            }
            // A name its tooltip gave stays while the pixels read none (an icon has no text to read).
            if (z.label.isEmpty() && old.labelSource == LabelSource::Tooltip && z.type == old.type) {
                z.label = old.label;
                z.labelSource = old.labelSource;
            }
            // Hover is tracked from the cursor, not from pixels.
            if (old.state.testFlag(ZoneStateFlag::Hovered))
                z.state |= ZoneStateFlag::Hovered;
            if (z.parentId.isEmpty() && m_explicitParent.contains(old.id))
                z.parentId = old.parentId;
            if (z.application.isEmpty())
                z.application = old.application;
            if (z.windowId == 0)
                z.windowId = old.windowId;
            if (z.parentId.isEmpty())
                z.parentId = old.parentId; // recomputed below when anything moved
            if (pixelsAnalysed)
                m_unconfirmed.remove(old.id); // found again: confirmed
            Zone before = old;
            before.lastSeenNs = z.lastSeenNs;
            if (!(z == before))
                changed = true;
            old = z;
            ++stats.updated;
        } else {
            if (m_zones.size() >= m_options.maxZones)
                continue;
            if (!isStable(z.id) || find(z.id))
                z.id = newId(z, carried);
            z.firstSeenNs = tNs;
            if (!z.parentId.isEmpty())
                m_explicitParent.insert(z.id);
            m_zones << z;
            ++stats.added;
            changed = true;
        }
        if (!detected.at(d).parentId.isEmpty() && !isProvisional(detected.at(d).parentId))
            m_explicitParent.insert(z.id);
        if (!provisional.isEmpty())
            finalId.insert(provisional, z.id);
        if (!tmpParents.isEmpty() && tmpParents.last().first.isEmpty())
            tmpParents.last().first = z.id;
    }
    // Parents given by provisional ids (a model's inventory) become registry ids.
    for (const auto& [id, tmpParent] : std::as_const(tmpParents)) {
        const QString parent = finalId.value(tmpParent);
        if (parent.isEmpty() || parent == id)
            continue;
        for (Zone& z : m_zones) {
            if (z.id == id) {
                changed = changed || z.parentId != parent;
                z.parentId = parent;
                m_explicitParent.insert(id);
            }
        }
    }

    if (replace) {
        // Not found again: gone, when it lay within the region, or when its pixels changed and the region
        // holds its centre (the analysis had its chance to confirm it).
        const QStringList removed = removeIf([&](int e, const Zone& old) {
            if (e >= existingCount || matched[size_t(e)] || old.source == ZoneSource::User)
                return false;
            return isWithin(old, region) || (pixelsAnalysed && m_unconfirmed.contains(old.id) &&
                                             (region.isNull() || region.contains(old.bounds.center())));
        });
        stats.removed += int(removed.size());
        changed = changed || !removed.isEmpty();
    }
    if (changed) {
        recomputeParents();
        markChanged();
    }
    return stats;
}

QString ZoneRegistry::applyUserCorrection(Zone zone, qint64 tNs)
{
    zone.source = ZoneSource::User;
    zone.confidence = 1.0;
    zone.lastSeenNs = tNs;
    m_unconfirmed.remove(zone.id);
    for (Zone& z : m_zones) {
        if (!zone.id.isEmpty() && z.id == zone.id) {
            zone.firstSeenNs = z.firstSeenNs;
            z = zone;
            recomputeParents();
            markChanged();
            return z.id;
        }
    }
    if (zone.id.isEmpty())
        zone.id = newId(zone, {});
    zone.firstSeenNs = tNs;
    m_zones << zone;
    recomputeParents();
    markChanged();
    return zone.id;
}

bool ZoneRegistry::remove(const QString& id)
{
    if (removeIf([&](int, const Zone& z) { return z.id == id; }).isEmpty())
        return false;
    recomputeParents();
    markChanged();
    return true;
}

void ZoneRegistry::clear(bool keepUser)
{
    const QStringList removed =
        removeIf([keepUser](int, const Zone& z) { return !keepUser || z.source != ZoneSource::User; });
    if (!removed.isEmpty()) {
        recomputeParents();
        markChanged();
    }
}

bool ZoneRegistry::update(const QString& id, const std::function<void(Zone&)>& change)
{
    for (Zone& z : m_zones) {
        if (z.id != id)
            continue;
        const Zone before = z;
        change(z);
        z.id = before.id; // ids are the registry's
        if (!(z == before)) {
            if (z.bounds != before.bounds)
                recomputeParents();
            markChanged();
        }
        return true;
    }
    return false;
}

bool ZoneRegistry::setStateFlag(const QString& id, ZoneStateFlag flag, bool on)
{
    return update(id, [&](Zone& z) { z.state.setFlag(flag, on); });
}

void ZoneRegistry::confirmUnchanged(const QList<QRect>& changed, qint64 tNs)
{
    // lastSeen alone does not make a new snapshot: the map's content is unchanged.
    for (Zone& z : m_zones) {
        bool hit = m_unconfirmed.contains(z.id);
        for (const QRect& r : changed)
            hit = hit || r.intersects(z.bounds);
        if (!hit)
            z.lastSeenNs = std::max(z.lastSeenNs, tNs);
    }
}

void ZoneRegistry::markChangedPixels(const QList<QRect>& changed, qint64 tNs)
{
    for (const Zone& z : std::as_const(m_zones)) {
        if (z.source == ZoneSource::User || m_unconfirmed.contains(z.id))
            continue;
        const qint64 own = area(z.bounds);
        for (const QRect& r : changed) {
            if (r.contains(z.bounds.center()) || 4 * area(r.intersected(z.bounds)) >= own) {
                m_unconfirmed.insert(z.id, tNs);
                break;
            }
        }
    }
}

void ZoneRegistry::confirm(const QString& id, qint64 tNs)
{
    m_unconfirmed.remove(id);
    for (Zone& z : m_zones) {
        if (z.id == id)
            z.lastSeenNs = std::max(z.lastSeenNs, tNs);
    }
}

QStringList ZoneRegistry::ageOut(qint64 nowNs)
{
    const QStringList removed = removeIf([&](int, const Zone& z) {
        const qint64 limit = z.temporary ? m_options.temporaryMaxAgeNs : m_options.maxAgeNs;
        return z.source != ZoneSource::User && nowNs - z.lastSeenNs > limit;
    });
    if (!removed.isEmpty()) {
        recomputeParents();
        markChanged();
    }
    return removed;
}

QStringList ZoneRegistry::removeTemporary(const QRect& region)
{
    const QStringList removed = removeIf(
        [&](int, const Zone& z) { return z.temporary && (region.isNull() || region.intersects(z.bounds)); });
    if (!removed.isEmpty()) {
        recomputeParents();
        markChanged();
    }
    return removed;
}

QStringList ZoneRegistry::removeIf(const std::function<bool(int, const Zone&)>& drop)
{
    QStringList removed;
    for (int i = int(m_zones.size()) - 1; i >= 0; --i) {
        if (!drop(i, m_zones.at(i)))
            continue;
        const QString id = m_zones.at(i).id;
        m_zones.removeAt(i);
        // Per-id state goes with the zone: a later zone given the same id starts afresh.
        m_explicitParent.remove(id);
        m_unconfirmed.remove(id);
        m_removed << id;
        removed << id;
    }
    return removed;
}

void ZoneRegistry::rename(QString from, QString to, UpdateStats* stats)
{
    for (Zone& z : m_zones) {
        if (z.id == from)
            z.id = to;
        if (z.parentId == from)
            z.parentId = to;
    }
    if (m_explicitParent.remove(from))
        m_explicitParent.insert(to);
    if (m_unconfirmed.contains(from))
        m_unconfirmed.insert(to, m_unconfirmed.take(from));
    m_removed << from; // caches keyed by id forget the old one
    ++stats->renamed;
    markChanged();
}

QStringList ZoneRegistry::takeRemovedIds()
{
    QStringList ids;
    ids.swap(m_removed);
    return ids;
}

void ZoneRegistry::recomputeParents()
{
    QSet<QString> ids;
    for (const Zone& z : m_zones)
        ids.insert(z.id);
    for (Zone& z : m_zones) {
        if (m_explicitParent.contains(z.id) && ids.contains(z.parentId) && z.parentId != z.id)
            continue;
        m_explicitParent.remove(z.id);
        const Zone* best = nullptr;
        const qint64 own = area(z.bounds);
        for (const Zone& other : std::as_const(m_zones)) {
            if (&other == &z || area(other.bounds) <= own)
                continue;
            if (!other.bounds.adjusted(-2, -2, 2, 2).contains(z.bounds))
                continue;
            if (!best || area(other.bounds) < area(best->bounds))
                best = &other;
        }
        z.parentId = best ? best->id : QString();
    }
}

ZoneMapPtr ZoneRegistry::snapshot(qint64 tNs)
{
    if (!m_dirty && m_snapshot)
        return m_snapshot;
    ++m_version;
    m_snapshot = std::make_shared<const ZoneMap>(m_version, tNs, m_screenSize, m_zones);
    m_dirty = false;
    return m_snapshot;
}

} // namespace ciu::canvas
