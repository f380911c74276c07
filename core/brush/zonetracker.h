#pragma once

#include "core/model/frame.h"
#include "core/model/spatialevent.h"
#include "core/model/zonemap.h"

#include <QHash>
#include <QList>
#include <QStringList>

#include <optional>

namespace ciu {

// Maps a stream of cursor positions onto the current ZoneMap and turns it into spatial events
// zone_enter and zone_exit with the crossing point, zone_hover once per stay after a
// dwell. Zones nest: the tracker follows the whole set of zones containing the cursor, so entering a
// child does not exit its parent (parents are entered before and exited after their children).
//
// Between two samples the cursor is assumed to have moved in a straight line: zones crossed in between
// (a fast motion over a small button) get an enter and an exit, at interpolated points and times, in the
// order they were crossed. Samples older than the latest one processed are ignored, so two sources (the
// capture engine and the brush's own reads) can feed the same tracker.
//
// A plain class, not thread-safe; the brush thread owns it. Time comes only from the samples' tNs (and
// tick()), never from a wall clock, so tests are deterministic.
class ZoneTracker
{
public:
    struct Settings
    {
        qint64 hoverDwellNs = 300'000'000; // zone_hover after this long inside a zone
        bool interpolate = true;           // report zones crossed between two samples
    };

    ZoneTracker();
    explicit ZoneTracker(Settings settings);

    Settings settings() const { return m_settings; }
    void setSettings(const Settings& settings) { m_settings = settings; }

    // Replaces the map. Zones are matched by id: a zone that still contains the cursor keeps its state
    // (no events, hover timing continues); one that vanished or no longer contains it exits, one that
    // now contains it enters, all at `tNs` and the last cursor position.
    QList<SpatialEvent> setZoneMap(ZoneMapPtr map, qint64 tNs);
    ZoneMapPtr zoneMap() const { return m_map; }

    // Processes one cursor sample; returns the events it caused, in time order.
    QList<SpatialEvent> update(const CursorSample& sample);
    // Time passed without a sample: returns the hovers whose dwell has elapsed by `tNs`.
    QList<SpatialEvent> tick(qint64 tNs);
    // Forgets the cursor (no exits are emitted).
    void reset();

    // Ids of the zones containing the cursor, outermost first.
    QStringList currentZones() const;
    // The innermost zone containing the cursor, empty when none.
    QString innermostZone() const;
    bool isInside(const QString& zoneId) const;
    std::optional<QPoint> lastPosition() const { return m_lastPos; }
    qint64 lastSampleNs() const { return m_lastNs; }

    // Ids of the zones a polyline enters, in order (each entry once per entry), excluding the zones
    // containing its first point. Used for the "intermediate zones crossed" of a trajectory.
    static QStringList zonesCrossed(const ZoneMapPtr& map, const QList<QPoint>& polyline);

private:
    struct Inside
    {
        QString id;
        qint64 area = 0;
        qint64 enteredNs = 0;
        bool hovered = false;
    };

    struct Pending
    {
        SpatialEvent event;
        double order = 0; // tie-break within the same time: parents enter first and exit last
    };

    void addHovers(QList<Pending>& out, qint64 untilNs, QPoint p0, qint64 t0, QPoint p1, qint64 t1);
    static QList<SpatialEvent> sorted(QList<Pending> pending);
    SpatialEvent makeEvent(SpatialEvent::Kind kind, const QString& id, QPoint p, qint64 tNs) const;

    Settings m_settings;
    ZoneMapPtr m_map;
    QList<Inside> m_inside; // outermost first
    std::optional<QPoint> m_lastPos;
    qint64 m_lastNs = 0;
};

} // namespace ciu
