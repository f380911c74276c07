#include "core/brush/zonetracker.h"

#include "core/model/geometry.h"

#include <QRectF>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ciu {
namespace {

// The continuous extent of a zone's pixels: pixel (x, y) covers [x - 0.5, x + 0.5].
QRectF pixelExtent(const QRect& r)
{
    return QRectF(r.left() - 0.5, r.top() - 0.5, r.width(), r.height());
}

// Liang–Barsky: the parameter interval [tIn, tOut] of segment a→b inside `r`.
bool clipSegment(QPointF a, QPointF b, const QRectF& r, double& tIn, double& tOut)
{
    const double dx = b.x() - a.x();
    const double dy = b.y() - a.y();
    tIn = 0.0;
    tOut = 1.0;
    auto edge = [&](double p, double q) {
        if (p == 0.0)
            return q >= 0.0;
        const double ratio = q / p;
        if (p < 0.0) {
            if (ratio > tOut)
                return false;
            tIn = std::max(tIn, ratio);
        } else {
            if (ratio < tIn)
                return false;
            tOut = std::min(tOut, ratio);
        }
        return true;
    };
    return edge(-dx, a.x() - r.left()) && edge(dx, r.right() - a.x()) && edge(-dy, a.y() - r.top()) &&
           edge(dy, r.bottom() - a.y()) && tIn <= tOut;
}

QPoint lerp(QPoint a, QPoint b, double t)
{
    return QPoint(int(std::lround(a.x() + (b.x() - a.x()) * t)),
                  int(std::lround(a.y() + (b.y() - a.y()) * t)));
}

QPoint clampInto(QPoint p, const QRect& r)
{
    return QPoint(std::clamp(p.x(), r.left(), r.right()), std::clamp(p.y(), r.top(), r.bottom()));
}

qint64 lerpTime(qint64 t0, qint64 t1, double t)
{
    return t0 + qint64(std::llround(double(t1 - t0) * t));
}

constexpr double RankExit = 1.0;
constexpr double RankEnter = 2.0;
constexpr double RankHover = 3.0;

} // namespace

ZoneTracker::ZoneTracker()
    : ZoneTracker(Settings{})
{
}

ZoneTracker::ZoneTracker(Settings settings)
    : m_settings(settings)
{
}

SpatialEvent ZoneTracker::makeEvent(SpatialEvent::Kind kind, const QString& id, QPoint p, qint64 tNs) const
{
    SpatialEvent e;
    e.kind = kind;
    e.tNs = tNs;
    e.zoneId = id;
    e.point = p;
    if (m_map) {
        if (const Zone* z = m_map->find(id); z && !z->isPassword && !z->label.isEmpty())
            e.data.insert(QStringLiteral("label"), z->label);
    }
    return e;
}

QList<SpatialEvent> ZoneTracker::sorted(QList<Pending> pending)
{
    std::stable_sort(pending.begin(), pending.end(), [](const Pending& a, const Pending& b) {
        if (a.event.tNs != b.event.tNs)
            return a.event.tNs < b.event.tNs;
        return a.order < b.order;
    });
    QList<SpatialEvent> events;
    events.reserve(pending.size());
    for (Pending& p : pending)
        events << std::move(p.event);
    return events;
}

QList<SpatialEvent> ZoneTracker::setZoneMap(ZoneMapPtr map, qint64 tNs)
{
    m_map = std::move(map);
    if (!m_lastPos)
        return {};
    const QPoint p = *m_lastPos;
    const QList<const Zone*> now = m_map ? m_map->zonesAt(p) : QList<const Zone*>{};
    QList<SpatialEvent> events;
    // Exits, innermost first.
    for (auto it = m_inside.crbegin(); it != m_inside.crend(); ++it) {
        const bool still =
            std::any_of(now.cbegin(), now.cend(), [&](const Zone* z) { return z->id == it->id; });
        if (!still) {
            SpatialEvent e = makeEvent(SpatialEvent::Kind::ZoneExit, it->id, p, tNs);
            if (!m_map || !m_map->find(it->id))
                e.data.insert(QStringLiteral("reason"), QStringLiteral("vanished"));
            events << e;
        }
    }
    QList<Inside> inside;
    for (const Zone* z : now) {
        const auto old =
            std::find_if(m_inside.cbegin(), m_inside.cend(), [&](const Inside& i) { return i.id == z->id; });
        if (old != m_inside.cend()) {
            Inside kept = *old;
            kept.area = area(z->bounds);
            inside << kept;
        } else {
            inside << Inside{z->id, area(z->bounds), tNs, false};
            events << makeEvent(SpatialEvent::Kind::ZoneEnter, z->id, p, tNs);
        }
    }
    m_inside = inside;
    return events;
}

void ZoneTracker::addHovers(QList<Pending>& out, qint64 untilNs, QPoint p0, qint64 t0, QPoint p1, qint64 t1)
{
    for (Inside& i : m_inside) {
        const qint64 due = i.enteredNs + m_settings.hoverDwellNs;
        if (i.hovered || due >= untilNs)
            continue;
        i.hovered = true;
        const double param = t1 > t0 ? std::clamp(double(due - t0) / double(t1 - t0), 0.0, 1.0) : 1.0;
        SpatialEvent e = makeEvent(SpatialEvent::Kind::ZoneHover, i.id, lerp(p0, p1, param), due);
        e.data.insert(QStringLiteral("duration_ms"), double(m_settings.hoverDwellNs) / 1e6);
        out << Pending{e, param * 10.0 + RankHover};
    }
}

QList<SpatialEvent> ZoneTracker::tick(qint64 tNs)
{
    if (!m_lastPos)
        return {};
    QList<Pending> out;
    addHovers(out, tNs, *m_lastPos, m_lastNs, *m_lastPos, m_lastNs);
    return sorted(out);
}

QList<SpatialEvent> ZoneTracker::update(const CursorSample& sample)
{
    if (m_lastPos && sample.tNs < m_lastNs)
        return {}; // stale: a newer position was already processed
    const QPoint p1 = sample.pos;
    const qint64 t1 = sample.tNs;
    const QList<const Zone*> now = m_map ? m_map->zonesAt(p1) : QList<const Zone*>{};

    if (!m_lastPos) {
        m_lastPos = p1;
        m_lastNs = t1;
        QList<SpatialEvent> events;
        m_inside.clear();
        for (const Zone* z : now) {
            m_inside << Inside{z->id, area(z->bounds), t1, false};
            events << makeEvent(SpatialEvent::Kind::ZoneEnter, z->id, p1, t1);
        }
        return events;
    }

    const QPoint p0 = *m_lastPos;
    const qint64 t0 = m_lastNs;
    QList<Pending> out;
    // Sort key inside one timestamp: the segment parameter first, then exits before enters before
    // hovers, then children exit before parents and parents enter before children.
    auto order = [](double param, double rank, qint64 area, bool largestFirst) {
        const double areaKey = largestFirst ? 1.0 / (1.0 + double(area)) : 1.0 - 1.0 / (1.0 + double(area));
        return param * 10.0 + rank + areaKey * 0.5;
    };

    QList<Inside> kept;
    for (const Inside& i : m_inside) {
        const Zone* z = m_map ? m_map->find(i.id) : nullptr;
        const bool still =
            std::any_of(now.cbegin(), now.cend(), [&](const Zone* n) { return n->id == i.id; });
        if (still) {
            kept << i;
            continue;
        }
        double tIn = 0;
        double tOut = 0;
        QPoint exitPoint = p0;
        if (z && m_settings.interpolate && clipSegment(p0, p1, pixelExtent(z->bounds), tIn, tOut))
            exitPoint = clampInto(lerp(p0, p1, tOut), z->bounds);
        else
            tOut = 0;
        const qint64 exitNs = lerpTime(t0, t1, tOut);
        // A hover that came due before the exit is reported first.
        if (!i.hovered && i.enteredNs + m_settings.hoverDwellNs < exitNs) {
            const qint64 due = i.enteredNs + m_settings.hoverDwellNs;
            const double param = t1 > t0 ? std::clamp(double(due - t0) / double(t1 - t0), 0.0, 1.0) : 0.0;
            SpatialEvent h = makeEvent(SpatialEvent::Kind::ZoneHover, i.id, lerp(p0, p1, param), due);
            h.data.insert(QStringLiteral("duration_ms"), double(m_settings.hoverDwellNs) / 1e6);
            out << Pending{h, param * 10.0 + RankHover};
        }
        out << Pending{makeEvent(SpatialEvent::Kind::ZoneExit, i.id, exitPoint, exitNs),
                       order(tOut, RankExit, i.area, false)};
    }

    // Zones crossed between the two samples without containing either.
    if (m_settings.interpolate && m_map && p0 != p1) {
        const QRect box = QRect(p0, p1).normalized();
        for (const Zone* z : m_map->zonesIntersecting(box)) {
            const bool atStart = std::any_of(m_inside.cbegin(), m_inside.cend(),
                                             [&](const Inside& i) { return i.id == z->id; });
            const bool atEnd =
                std::any_of(now.cbegin(), now.cend(), [&](const Zone* n) { return n->id == z->id; });
            if (atStart || atEnd)
                continue;
            double tIn = 0;
            double tOut = 0;
            if (!clipSegment(p0, p1, pixelExtent(z->bounds), tIn, tOut))
                continue;
            if (!z->bounds.contains(lerp(p0, p1, (tIn + tOut) / 2)))
                continue; // grazes a corner between pixels
            const qint64 inNs = lerpTime(t0, t1, tIn);
            const qint64 outNs = lerpTime(t0, t1, tOut);
            out << Pending{makeEvent(SpatialEvent::Kind::ZoneEnter, z->id,
                                     clampInto(lerp(p0, p1, tIn), z->bounds), inNs),
                           order(tIn, RankEnter, area(z->bounds), true)};
            if (outNs - inNs > m_settings.hoverDwellNs) {
                const qint64 due = inNs + m_settings.hoverDwellNs;
                const double param = std::clamp(double(due - t0) / double(t1 - t0), 0.0, 1.0);
                SpatialEvent h = makeEvent(SpatialEvent::Kind::ZoneHover, z->id, lerp(p0, p1, param), due);
                h.data.insert(QStringLiteral("duration_ms"), double(m_settings.hoverDwellNs) / 1e6);
                out << Pending{h, param * 10.0 + RankHover};
            }
            out << Pending{makeEvent(SpatialEvent::Kind::ZoneExit, z->id,
                                     clampInto(lerp(p0, p1, tOut), z->bounds), outNs),
                           order(tOut, RankExit, area(z->bounds), false)};
        }
    }

    // Hovers of the zones the cursor stays in, then the new zones.
    m_inside = kept;
    addHovers(out, t1, p0, t0, p1, t1);
    QList<Inside> inside;
    for (const Zone* z : now) {
        const auto old =
            std::find_if(m_inside.cbegin(), m_inside.cend(), [&](const Inside& i) { return i.id == z->id; });
        if (old != m_inside.cend()) {
            inside << *old;
            continue;
        }
        double tIn = 1;
        double tOut = 1;
        QPoint entryPoint = p1;
        if (m_settings.interpolate && clipSegment(p0, p1, pixelExtent(z->bounds), tIn, tOut))
            entryPoint = clampInto(lerp(p0, p1, tIn), z->bounds);
        else
            tIn = 1;
        const qint64 inNs = lerpTime(t0, t1, tIn);
        out << Pending{makeEvent(SpatialEvent::Kind::ZoneEnter, z->id, entryPoint, inNs),
                       order(tIn, RankEnter, area(z->bounds), true)};
        Inside entered{z->id, area(z->bounds), inNs, false};
        if (t1 - inNs > m_settings.hoverDwellNs) {
            entered.hovered = true;
            const qint64 due = inNs + m_settings.hoverDwellNs;
            const double param = std::clamp(double(due - t0) / double(t1 - t0), 0.0, 1.0);
            SpatialEvent h = makeEvent(SpatialEvent::Kind::ZoneHover, z->id, lerp(p0, p1, param), due);
            h.data.insert(QStringLiteral("duration_ms"), double(m_settings.hoverDwellNs) / 1e6);
            out << Pending{h, param * 10.0 + RankHover};
        }
        inside << entered;
    }
    m_inside = inside;
    m_lastPos = p1;
    m_lastNs = t1;
    return sorted(out);
}

void ZoneTracker::reset()
{
    m_inside.clear();
    m_lastPos.reset();
    m_lastNs = 0;
}

QStringList ZoneTracker::currentZones() const
{
    QStringList ids;
    for (const Inside& i : m_inside)
        ids << i.id;
    return ids;
}

QString ZoneTracker::innermostZone() const
{
    return m_inside.isEmpty() ? QString() : m_inside.constLast().id;
}

bool ZoneTracker::isInside(const QString& zoneId) const
{
    return std::any_of(m_inside.cbegin(), m_inside.cend(), [&](const Inside& i) { return i.id == zoneId; });
}

QStringList ZoneTracker::zonesCrossed(const ZoneMapPtr& map, const QList<QPoint>& polyline)
{
    Settings settings;
    settings.hoverDwellNs = std::numeric_limits<qint64>::max() / 4;
    ZoneTracker tracker(settings);
    tracker.setZoneMap(map, 0);
    QStringList crossed;
    qint64 t = 0;
    bool first = true;
    for (const QPoint& p : polyline) {
        const QList<SpatialEvent> events = tracker.update(CursorSample{t, p, {}});
        t += 1'000'000;
        if (first) {
            first = false;
            continue;
        }
        for (const SpatialEvent& e : events) {
            if (e.kind == SpatialEvent::Kind::ZoneEnter)
                crossed << e.zoneId;
        }
    }
    return crossed;
}

} // namespace ciu
