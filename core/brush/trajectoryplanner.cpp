#include "core/brush/trajectoryplanner.h"

#include "core/brush/brushlog.h"
#include "core/brush/zonetracker.h"

#include <QLineF>
#include <QRandomGenerator>
#include <QSet>
#include <queue>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ciu {
namespace {

constexpr int kMaxStepsPerMotion = 20'000;
constexpr int kSearchRadiusCells = 4; // how far from the start/target a safe path looks for free cells

double smootherStep(double u)
{
    return u * u * u * (u * (u * 6.0 - 15.0) + 10.0);
}

double inverseEase(double s, bool eased)
{
    if (!eased)
        return s;
    double lo = 0.0;
    double hi = 1.0;
    for (int i = 0; i < 40; ++i) {
        const double mid = (lo + hi) / 2;
        (smootherStep(mid) < s ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

QPoint rounded(QPointF p)
{
    return QPoint(int(std::lround(p.x())), int(std::lround(p.y())));
}

// Does segment a→b touch the continuous extent of `r`'s pixels grown by `margin`?
bool segmentHitsRect(QPointF a, QPointF b, const QRect& r, int margin)
{
    const double left = r.left() - 0.5 - margin;
    const double right = r.right() + 0.5 + margin;
    const double top = r.top() - 0.5 - margin;
    const double bottom = r.bottom() + 0.5 + margin;
    if (std::max(a.x(), b.x()) < left || std::min(a.x(), b.x()) > right || std::max(a.y(), b.y()) < top ||
        std::min(a.y(), b.y()) > bottom)
        return false;
    const double dx = b.x() - a.x();
    const double dy = b.y() - a.y();
    double t0 = 0.0;
    double t1 = 1.0;
    auto edge = [&](double p, double q) {
        if (p == 0.0)
            return q >= 0.0;
        const double ratio = q / p;
        if (p < 0.0) {
            if (ratio > t1)
                return false;
            t0 = std::max(t0, ratio);
        } else {
            if (ratio < t0)
                return false;
            t1 = std::min(t1, ratio);
        }
        return true;
    };
    return edge(-dx, a.x() - left) && edge(dx, right - a.x()) && edge(-dy, a.y() - top) &&
           edge(dy, bottom - a.y()) && t0 <= t1;
}

} // namespace

QString toString(TrajectoryKind kind)
{
    switch (kind) {
    case TrajectoryKind::Direct:
        return QStringLiteral("direct");
    case TrajectoryKind::Safe:
        return QStringLiteral("safe");
    case TrajectoryKind::Exploratory:
        return QStringLiteral("exploratory");
    }
    return {};
}

std::optional<TrajectoryKind> trajectoryKindFromString(const QString& name)
{
    for (const TrajectoryKind k :
         {TrajectoryKind::Direct, TrajectoryKind::Safe, TrajectoryKind::Exploratory}) {
        if (name.compare(toString(k), Qt::CaseInsensitive) == 0)
            return k;
    }
    return std::nullopt;
}

TrajectoryPlanner::TrajectoryPlanner(TrajectorySettings settings)
    : m_settings(settings)
{
}

QList<TimedPoint> TrajectoryPlanner::timeAlong(const QList<QPoint>& path, double speedPxPerS) const
{
    QList<TimedPoint> steps;
    if (path.isEmpty())
        return steps;
    // Cumulative arc length at each vertex.
    std::vector<double> arc(size_t(path.size()), 0.0);
    for (qsizetype i = 1; i < path.size(); ++i)
        arc[size_t(i)] = arc[size_t(i - 1)] + QLineF(path.at(i - 1), path.at(i)).length();
    const double length = arc.back();
    if (speedPxPerS <= 0.0 || length < 0.5) {
        steps << TimedPoint{path.constLast(), 0};
        return steps;
    }
    const bool eased = m_settings.humanLike;
    const double durationS = length / speedPxPerS;
    const int rate = std::clamp(m_settings.stepRateHz, 1, 1000);
    const int count = std::clamp(int(std::ceil(durationS * rate)), 1, kMaxStepsPerMotion);

    // (arc position, time) of every step plus every interior vertex, so consecutive steps never cut a
    // corner of the path.
    struct Mark
    {
        double s;
        double tS;
    };
    std::vector<Mark> marks;
    marks.reserve(size_t(count) + size_t(path.size()));
    for (int k = 1; k <= count; ++k) {
        const double u = double(k) / count;
        marks.push_back({length * (eased ? smootherStep(u) : u), durationS * u});
    }
    for (qsizetype i = 1; i + 1 < path.size(); ++i) {
        const double s = arc[size_t(i)];
        marks.push_back({s, durationS * inverseEase(s / length, eased)});
    }
    std::sort(marks.begin(), marks.end(), [](const Mark& a, const Mark& b) { return a.s < b.s; });

    size_t segment = 1;
    QPoint previous = path.constFirst();
    for (const Mark& m : marks) {
        while (segment + 1 < arc.size() && arc[segment] < m.s)
            ++segment;
        const double segLength = arc[segment] - arc[segment - 1];
        const double f = segLength > 0 ? std::clamp((m.s - arc[segment - 1]) / segLength, 0.0, 1.0) : 1.0;
        const QPointF a = path.at(qsizetype(segment - 1));
        const QPointF b = path.at(qsizetype(segment));
        const QPoint p = rounded(a + (b - a) * f);
        const qint64 tNs = qint64(std::llround(m.tS * 1e9));
        if (p == previous && !steps.isEmpty()) {
            steps.last().tNs = std::max(steps.last().tNs, tNs);
            continue;
        }
        steps << TimedPoint{p, tNs};
        previous = p;
    }
    if (steps.isEmpty() || steps.constLast().pos != path.constLast())
        steps << TimedPoint{path.constLast(), qint64(std::llround(durationS * 1e9))};
    return steps;
}

Trajectory TrajectoryPlanner::finish(TrajectoryKind kind, QList<QPoint> path, double speedPxPerS,
                                     const ZoneMapPtr& map) const
{
    Trajectory t;
    t.kind = kind;
    t.path = std::move(path);
    t.steps = timeAlong(t.path, speedPxPerS);
    if (map) {
        QList<QPoint> executed{t.path.constFirst()};
        for (const TimedPoint& s : t.steps)
            executed << s.pos;
        t.zonesCrossed = ZoneTracker::zonesCrossed(map, executed);
    }
    return t;
}

Trajectory TrajectoryPlanner::direct(QPoint from, QPoint to, const ZoneMapPtr& map) const
{
    QList<QPoint> path{from, to};
    const double length = QLineF(from, to).length();
    if (m_settings.humanLike && length > 40.0) {
        // A slight bend: a quadratic curve whose control point sits off the midpoint, to one side.
        QRandomGenerator rng(m_settings.seed ^ quint32(from.x()) * 73856093u ^ quint32(to.y()) * 19349663u);
        const double side = rng.bounded(2) == 0 ? -1.0 : 1.0;
        const double offset = side * std::min(40.0, length * (0.04 + 0.06 * rng.generateDouble()));
        const QPointF mid = (QPointF(from) + QPointF(to)) / 2;
        const QPointF normal(-(to.y() - from.y()) / length, (to.x() - from.x()) / length);
        const QPointF control = mid + normal * offset;
        const QRect screen =
            map && !map->screenSize().isEmpty() ? QRect(QPoint(0, 0), map->screenSize()) : QRect();
        path.clear();
        constexpr int kSegments = 16;
        for (int i = 0; i <= kSegments; ++i) {
            const double u = double(i) / kSegments;
            const QPointF p =
                (1 - u) * (1 - u) * QPointF(from) + 2 * (1 - u) * u * control + u * u * QPointF(to);
            QPoint q = rounded(p);
            if (!screen.isNull())
                q = QPoint(std::clamp(q.x(), 0, screen.right()), std::clamp(q.y(), 0, screen.bottom()));
            if (path.isEmpty() || path.constLast() != q)
                path << q;
        }
        path.first() = from;
        path.last() = to;
    }
    return finish(TrajectoryKind::Direct, path, m_settings.speedPxPerS, map);
}

QList<QRect> TrajectoryPlanner::obstaclesFor(const ZoneMap& map, QPoint from, QPoint to,
                                             const QStringList& allowedZoneIds)
{
    QSet<QString> allowed(allowedZoneIds.cbegin(), allowedZoneIds.cend());
    for (const Zone* z : map.zonesAt(from))
        allowed.insert(z->id);
    for (const Zone* z : map.zonesAt(to))
        allowed.insert(z->id);
    // Ancestors of the allowed zones (by parent id) are allowed too.
    const QStringList seeds(allowed.cbegin(), allowed.cend());
    for (const QString& id : seeds) {
        const Zone* z = map.find(id);
        for (int depth = 0; z && !z->parentId.isEmpty() && depth < 64; ++depth) {
            allowed.insert(z->parentId);
            z = map.find(z->parentId);
        }
    }
    QList<QRect> obstacles;
    for (const Zone& z : map.zones()) {
        if (z.isInteractive() && !allowed.contains(z.id) && !z.bounds.isEmpty())
            obstacles << z.bounds;
    }
    return obstacles;
}

bool TrajectoryPlanner::segmentClear(QPoint a, QPoint b, const QList<QRect>& obstacles, int marginPx)
{
    for (const QRect& r : obstacles) {
        if (segmentHitsRect(a, b, r, marginPx))
            return false;
    }
    return true;
}

Trajectory TrajectoryPlanner::safe(QPoint from, QPoint to, const ZoneMapPtr& map,
                                   const QStringList& allowedZoneIds) const
{
    if (!map)
        return direct(from, to, map);
    const QList<QRect> obstacles = obstaclesFor(*map, from, to, allowedZoneIds);
    const int margin = std::max(1, m_settings.safeMarginPx);
    auto failed = [&](const QString& message) {
        Trajectory t;
        t.kind = TrajectoryKind::Safe;
        t.path = {from, to};
        t.error = message;
        return t;
    };
    if (segmentClear(from, to, obstacles, margin))
        return finish(TrajectoryKind::Safe, {from, to}, m_settings.speedPxPerS, map);

    // The grid covers the screen, or everything known when the map has no screen size.
    QRect area = map->screenSize().isEmpty() ? QRect() : QRect(QPoint(0, 0), map->screenSize());
    if (area.isNull()) {
        area = QRect(from, to).normalized();
        for (const QRect& r : obstacles)
            area = area.united(r);
        area.adjust(-64, -64, 64, 64);
    }
    const int cell = std::clamp(m_settings.safeCellPx, 4, 64);
    const int cols = (area.width() + cell - 1) / cell;
    const int rows = (area.height() + cell - 1) / cell;
    if (cols <= 0 || rows <= 0 || qint64(cols) * rows > 4'000'000)
        return failed(QStringLiteral("the safe-path grid is empty or too large"));
    auto cellRect = [&](int cx, int cy) {
        return QRect(area.left() + cx * cell, area.top() + cy * cell, cell, cell);
    };
    auto center = [&](int cx, int cy) { return cellRect(cx, cy).center(); };
    std::vector<quint8> blocked(size_t(cols) * size_t(rows), 0);
    for (const QRect& r : obstacles) {
        const QRect grown = r.adjusted(-margin, -margin, margin, margin).intersected(area);
        if (grown.isEmpty())
            continue;
        const int x0 = (grown.left() - area.left()) / cell;
        const int x1 = (grown.right() - area.left()) / cell;
        const int y0 = (grown.top() - area.top()) / cell;
        const int y1 = (grown.bottom() - area.top()) / cell;
        for (int cy = y0; cy <= y1; ++cy) {
            for (int cx = x0; cx <= x1; ++cx)
                blocked[size_t(cy) * size_t(cols) + size_t(cx)] = 1;
        }
    }
    auto index = [&](int cx, int cy) { return cy * cols + cx; };
    auto cellOf = [&](QPoint p) {
        return QPoint(std::clamp((p.x() - area.left()) / cell, 0, cols - 1),
                      std::clamp((p.y() - area.top()) / cell, 0, rows - 1));
    };
    // Legs touching the start or the target keep one pixel of clearance (steps are rounded to whole
    // pixels), or none when that end point itself sits closer than that to an obstacle.
    const int startMargin = segmentClear(from, from, obstacles, 1) ? 1 : 0;
    const int targetMargin = segmentClear(to, to, obstacles, 1) ? 1 : 0;
    // Free cells near an end point whose centre it can see without touching an obstacle.
    auto endCells = [&](QPoint p, int endMargin) {
        QList<int> cells;
        const QPoint c = cellOf(p);
        for (int dy = -kSearchRadiusCells; dy <= kSearchRadiusCells; ++dy) {
            for (int dx = -kSearchRadiusCells; dx <= kSearchRadiusCells; ++dx) {
                const int cx = c.x() + dx;
                const int cy = c.y() + dy;
                if (cx < 0 || cy < 0 || cx >= cols || cy >= rows || blocked[size_t(index(cx, cy))])
                    continue;
                if (segmentClear(p, center(cx, cy), obstacles, endMargin))
                    cells << index(cx, cy);
            }
        }
        return cells;
    };
    const QList<int> starts = endCells(from, startMargin);
    const QList<int> goals = endCells(to, targetMargin);
    if (starts.isEmpty() || goals.isEmpty())
        return failed(QStringLiteral("no free space next to the %1 of the safe path")
                          .arg(starts.isEmpty() ? QStringLiteral("start") : QStringLiteral("target")));

    // A* (8-connected, no corner cutting), costs in cells.
    const QPoint goalCell = cellOf(to);
    auto heuristic = [&](int i) {
        const int dx = std::abs(i % cols - goalCell.x());
        const int dy = std::abs(i / cols - goalCell.y());
        return double(std::max(dx, dy)) + (M_SQRT2 - 1.0) * double(std::min(dx, dy));
    };
    std::vector<double> cost(blocked.size(), std::numeric_limits<double>::infinity());
    std::vector<int> parent(blocked.size(), -1);
    std::vector<quint8> isGoal(blocked.size(), 0);
    for (const int g : goals)
        isGoal[size_t(g)] = 1;
    using Entry = std::pair<double, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    for (const int s : starts) {
        cost[size_t(s)] = QLineF(from, center(s % cols, s / cols)).length() / cell;
        open.push({cost[size_t(s)] + heuristic(s), s});
    }
    int reached = -1;
    while (!open.empty()) {
        const auto [f, i] = open.top();
        open.pop();
        if (f > cost[size_t(i)] + heuristic(i) + 1e-9)
            continue;
        if (isGoal[size_t(i)]) {
            reached = i;
            break;
        }
        const int cx = i % cols;
        const int cy = i / cols;
        for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
                if (dx == 0 && dy == 0)
                    continue;
                const int nx = cx + dx;
                const int ny = cy + dy;
                if (nx < 0 || ny < 0 || nx >= cols || ny >= rows || blocked[size_t(index(nx, ny))])
                    continue;
                if (dx != 0 && dy != 0 &&
                    (blocked[size_t(index(cx + dx, cy))] || blocked[size_t(index(cx, cy + dy))]))
                    continue;
                const int n = index(nx, ny);
                const double c = cost[size_t(i)] + ((dx != 0 && dy != 0) ? M_SQRT2 : 1.0);
                if (c < cost[size_t(n)]) {
                    cost[size_t(n)] = c;
                    parent[size_t(n)] = i;
                    open.push({c + heuristic(n), n});
                }
            }
        }
    }
    if (reached < 0)
        return failed(QStringLiteral("no path to (%1, %2) avoids the other zones").arg(to.x()).arg(to.y()));

    QList<QPoint> raw{to};
    for (int i = reached; i >= 0; i = parent[size_t(i)])
        raw << center(i % cols, i / cols);
    raw << from;
    std::reverse(raw.begin(), raw.end());

    // Shorten by line of sight: from each kept point, go as far along as stays clear (legs touching the
    // start or the target with their own clearance, see above).
    QList<QPoint> path{raw.constFirst()};
    qsizetype i = 0;
    const qsizetype last = raw.size() - 1;
    auto clear = [&](qsizetype a, qsizetype b) {
        const int m = (a == 0 && b == last) ? std::min(startMargin, targetMargin)
                      : a == 0              ? startMargin
                      : b == last           ? targetMargin
                                            : margin;
        return segmentClear(raw.at(a), raw.at(b), obstacles, m);
    };
    while (i < last) {
        qsizetype j = i + 1;
        while (j < last && clear(i, j + 1))
            ++j;
        path << raw.at(j);
        i = j;
    }
    qCDebug(lcTrajectory) << "safe path with" << path.size() << "vertices around" << obstacles.size()
                          << "zones";
    return finish(TrajectoryKind::Safe, path, m_settings.speedPxPerS, map);
}

Trajectory TrajectoryPlanner::exploratory(QPoint from, const QRect& region, const ZoneMapPtr& map) const
{
    QRect r = region.normalized();
    if (map && !map->screenSize().isEmpty())
        r = r.intersected(QRect(QPoint(0, 0), map->screenSize()));
    if (r.isEmpty()) {
        Trajectory t;
        t.kind = TrajectoryKind::Exploratory;
        t.error = QStringLiteral("the region to explore is empty or off the screen");
        return t;
    }
    const int spacing = std::max(2, m_settings.sweepSpacingPx);
    QList<int> rowsY;
    for (int y = r.top() + std::min(spacing / 2, r.height() / 2); y <= r.bottom(); y += spacing)
        rowsY << y;
    if (rowsY.constLast() + spacing / 2 < r.bottom())
        rowsY << r.bottom();
    // Start at the corner nearest to `from`.
    const bool bottomUp = std::abs(from.y() - r.bottom()) < std::abs(from.y() - r.top());
    if (bottomUp)
        std::reverse(rowsY.begin(), rowsY.end());
    bool leftToRight = std::abs(from.x() - r.left()) <= std::abs(from.x() - r.right());
    QList<QPoint> path{from};
    for (const int y : rowsY) {
        const QPoint a(leftToRight ? r.left() : r.right(), y);
        const QPoint b(leftToRight ? r.right() : r.left(), y);
        if (path.constLast() != a)
            path << a;
        path << b;
        leftToRight = !leftToRight;
    }
    // The approach runs at the normal speed, the sweep itself slowly: time them apart and join.
    Trajectory approach =
        finish(TrajectoryKind::Exploratory, {from, path.at(1)}, m_settings.speedPxPerS, map);
    Trajectory sweep = finish(TrajectoryKind::Exploratory, path.mid(1), m_settings.exploreSpeedPxPerS, map);
    Trajectory t;
    t.kind = TrajectoryKind::Exploratory;
    t.path = path;
    t.steps = approach.steps;
    const qint64 offset = approach.durationNs();
    for (const TimedPoint& s : sweep.steps) {
        if (!t.steps.isEmpty() && t.steps.constLast().pos == s.pos)
            continue;
        t.steps << TimedPoint{s.pos, offset + s.tNs};
    }
    if (map) {
        QList<QPoint> executed{from};
        for (const TimedPoint& s : t.steps)
            executed << s.pos;
        t.zonesCrossed = ZoneTracker::zonesCrossed(map, executed);
    }
    return t;
}

} // namespace ciu
