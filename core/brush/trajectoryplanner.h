#pragma once

#include "core/model/zonemap.h"

#include <QList>
#include <QPoint>
#include <QRect>
#include <QStringList>

#include <optional>

namespace ciu {

// How the brush moves.
enum class TrajectoryKind : quint8
{
    Direct = 1,  // straight line to the target point
    Safe,        // around every other interactive zone
    Exploratory, // a slow boustrophedon sweep over a region, to trigger hover effects
};

QString toString(TrajectoryKind kind);
std::optional<TrajectoryKind> trajectoryKindFromString(const QString& name);

struct TrajectorySettings
{
    double speedPxPerS = 2000;       // along the path; 0 or less: jump in one step
    int stepRateHz = 120;            // pointer updates per second while moving
    bool humanLike = false;          // ease in and out; direct paths bend slightly
    double exploreSpeedPxPerS = 400; // exploratory sweeps
    int sweepSpacingPx = 24;         // distance between two sweep lines
    int safeCellPx = 12;             // free-space grid of safe paths
    int safeMarginPx = 3;            // clearance kept from the zones a safe path avoids
    quint32 seed = 1;                // the human-like curvature is deterministic for a seed
};

struct TimedPoint
{
    QPoint pos;
    qint64 tNs = 0; // since the start of the motion
};

struct Trajectory
{
    TrajectoryKind kind = TrajectoryKind::Direct;
    QList<QPoint> path;       // polyline vertices, from the start to the target (what the UI draws)
    QList<TimedPoint> steps;  // one pointer position per step; the last is the target
    QStringList zonesCrossed; // zones the path enters on the way, in order (the start's zones excluded)
    QString error;            // set when no trajectory could be planned

    bool isValid() const { return error.isEmpty() && !steps.isEmpty(); }
    qint64 durationNs() const { return steps.isEmpty() ? 0 : steps.constLast().tNs; }
};

// Plans pointer motions as timed waypoints. A plain class with no state besides its settings.
class TrajectoryPlanner
{
public:
    TrajectoryPlanner() = default;
    explicit TrajectoryPlanner(TrajectorySettings settings);

    TrajectorySettings settings() const { return m_settings; }
    void setSettings(const TrajectorySettings& settings) { m_settings = settings; }

    Trajectory direct(QPoint from, QPoint to, const ZoneMapPtr& map = {}) const;
    // Never enters an interactive zone other than those listed in `allowedZoneIds`, the zones containing
    // `from` or `to`, and their ancestors: A* over a free-space grid of safeCellPx cells (obstacles grown
    // by safeMarginPx), then shortened by line of sight. Fails with an error when no such path exists.
    Trajectory safe(QPoint from, QPoint to, const ZoneMapPtr& map,
                    const QStringList& allowedZoneIds = {}) const;
    // From `from` to the nearest corner of `region`, then row by row across it, sweepSpacingPx apart.
    Trajectory exploratory(QPoint from, const QRect& region, const ZoneMapPtr& map = {}) const;

    // The rectangles a safe path from `from` to `to` must stay out of (not grown by the margin).
    static QList<QRect> obstaclesFor(const ZoneMap& map, QPoint from, QPoint to,
                                     const QStringList& allowedZoneIds);
    // True when the straight segment a→b keeps at least `marginPx` from every rectangle (0: touches none).
    static bool segmentClear(QPoint a, QPoint b, const QList<QRect>& obstacles, int marginPx);

private:
    Trajectory finish(TrajectoryKind kind, QList<QPoint> path, double speedPxPerS,
                      const ZoneMapPtr& map) const;
    QList<TimedPoint> timeAlong(const QList<QPoint>& path, double speedPxPerS) const;

    TrajectorySettings m_settings;
};

} // namespace ciu
