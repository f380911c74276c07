// CanvasMapper and the zone memory: a window the mapper has mapped before (same program, a layout close to a
// remembered one) gets its remembered zones at once, each confirmed by a look at its pixels (isRemembered()).
// When the recall is confirmed well (ZoneMemory::match(): at least 80 % of the remembered zones pass their
// pixel check and the window's thumbnail is within half the "close" distance) and nothing covers the window,
// the full analysis that would follow skips it: its map is the remembered zones, and only what differs (the
// zones that failed, the thumbnail cells that moved) and the zones whose value or state memory does not keep
// (fields, boxes, sliders, tabs) get a Tier 1 look. Otherwise the full analysis runs,
// keeps their ids where it finds them and drops the rest. After a full analysis (and the first tree), the
// windows nothing covers are remembered.

#include "core/canvas/canvaslog.h"
#include "core/canvas/canvasmapper.h"
#include "core/canvas/canvasmapper_p.h"
#include "core/knowledge/zonememory.h"
#include "core/model/geometry.h"

#include <QElapsedTimer>
#include <QRegion>

namespace ciu::canvas {

using detail::rectData;

namespace {
constexpr int kMinRestSide = 16; // narrower strips of a full analysis' area left by a recalled window: none
} // namespace

void CanvasMapper::setZoneMemory(std::unique_ptr<ZoneMemory> memory)
{
    m_memory = std::move(memory);
}

const platform::WindowInfo* CanvasMapper::memoryWindow(quint64 id) const
{
    for (const platform::WindowInfo& w : m_windowList) {
        if (w.id == id && !w.windowClass.isEmpty() && !w.geometry.isEmpty() && !isExcluded(w.geometry) &&
            QRect(m_frame.origin, m_frame.image.size()).contains(w.geometry))
            return &w;
    }
    return nullptr;
}

void CanvasMapper::memoryError(const QString& program, const QString& message)
{
    ++m_memoryStats.errors;
    if (m_memoryErrorsReported.contains(program))
        return;
    m_memoryErrorsReported.insert(program); // once per program: the file stays as it is until fixed
    qCWarning(lcCanvas) << "zone memory:" << message;
    emitComponentError(QStringLiteral("zone_memory"), message);
}

void CanvasMapper::recallWindows(const QList<quint64>& windowIds, const QString& reason)
{
    m_recalled.clear();
    if (!m_memory || !m_frame.isValid())
        return;
    for (const quint64 id : windowIds) {
        const platform::WindowInfo* w = memoryWindow(id);
        if (!w)
            continue;
        QElapsedTimer timer;
        timer.start();
        const QImage window = m_frame.image.copy(w->geometry.translated(-m_frame.origin));
        QString error;
        const std::optional<RememberedLayout> layout = m_memory->recall(w->windowClass, window, &error);
        if (!error.isEmpty()) {
            memoryError(w->windowClass, error);
            continue;
        }
        if (!layout)
            continue;
        int dropped = 0;
        QList<Zone> zones = m_memory->confirmedZones(*layout, window, w->geometry.topLeft(), &dropped);
        const ZoneMemory::RecallMatch match = m_memory->match(*layout, window, zones);
        const bool spare = match.confirmedWell && !covered(id);
        if (spare) {
            RecalledWindow recalled{w->geometry, {}};
            for (const QRect& r : match.changed)
                recalled.changed << r.translated(w->geometry.topLeft());
            // What memory does not keep (values, checked, selected): those zones get their Tier 1 look too.
            for (const Zone& z : std::as_const(zones)) {
                if (z.type == ZoneType::TextField || z.type == ZoneType::Dropdown ||
                    z.type == ZoneType::CheckBox || z.type == ZoneType::Slider || z.type == ZoneType::Tab)
                    recalled.changed << z.bounds;
            }
            m_recalled << recalled;
        }
        // What the map already knows stays as it is: memory only adds.
        zones.removeIf([this](const Zone& z) {
            if (m_registry.find(z.id))
                return true;
            for (const Zone& known : m_registry.zones()) {
                if (intersectionOverUnion(known.bounds, z.bounds) >= m_registry.options().matchIou)
                    return true;
            }
            return false;
        });
        for (Zone& z : zones) {
            z.windowId = w->id;
            z.application = w->windowClass;
        }
        zones = filterDetections(zones);
        const ZoneRegistry::UpdateStats stats = m_registry.merge(zones, m_frame.tNs);
        ++m_memoryStats.recalls;
        m_memoryStats.zonesRecalled += stats.added;
        m_memoryStats.zonesDropped += dropped;
        SpatialEvent e;
        e.kind = SpatialEvent::Kind::Analysis;
        e.tNs = m_frame.tNs;
        e.data = {{QStringLiteral("tier"), 0},
                  {QStringLiteral("source"), QStringLiteral("memory")},
                  {QStringLiteral("reason"), reason},
                  {QStringLiteral("program"), w->windowClass},
                  {QStringLiteral("region"), rectData(w->geometry)},
                  {QStringLiteral("zones"), int(layout->zones.size())},
                  {QStringLiteral("added"), stats.added},
                  {QStringLiteral("dropped"), dropped},
                  {QStringLiteral("recalled"), spare}, // true: no full analysis of this window
                  {QStringLiteral("confirmed"), match.confirmed},
                  {QStringLiteral("thumbnail_distance"), match.thumbnailDistance},
                  {QStringLiteral("changed_regions"), int(match.changed.size())},
                  {QStringLiteral("ms"), double(timer.nsecsElapsed()) / 1e6},
                  {QStringLiteral("frame"), m_frame.index}};
        emit eventOccurred(e);
        qCDebug(lcCanvas) << "recalled" << stats.added << "zones of" << w->windowClass << "dropped" << dropped
                          << "confirmed" << match.confirmed << "of" << match.remembered
                          << (spare ? "(no full analysis)" : "");
    }
    publish(); // the remembered zones go out before the analysis that follows
}

bool CanvasMapper::covered(quint64 windowId) const
{
    // The window list is in stacking order: the windows after it are above it.
    int i = 0;
    while (i < m_windowList.size() && m_windowList.at(i).id != windowId)
        ++i;
    if (i == m_windowList.size())
        return true;
    const QRect geometry = m_windowList.at(i).geometry;
    for (int above = i + 1; above < m_windowList.size(); ++above) {
        if (m_windowList.at(above).geometry.intersects(geometry))
            return true;
    }
    return false;
}

QList<TierDecision> CanvasMapper::sparedByMemory(const TierDecision& decision)
{
    if (decision.action != TierDecision::Action::Full || m_recalled.isEmpty())
        return {decision};
    const QRect screen(m_frame.origin, m_frame.image.size());
    QRegion rest;
    if (decision.regions.isEmpty())
        rest = QRegion(screen);
    for (const QRect& r : decision.regions)
        rest += r;
    QList<QRect> spared;
    QList<QRect> changed;
    for (const RecalledWindow& w : std::as_const(m_recalled)) {
        if (!rest.intersects(w.geometry))
            continue;
        rest -= w.geometry;
        spared << w.geometry;
        changed << w.changed;
    }
    if (spared.isEmpty())
        return {decision};
    m_memoryStats.spared += int(spared.size());
    QList<TierDecision> result;
    TierDecision recalled;
    recalled.action = TierDecision::Action::Ignore;
    recalled.tier = 0;
    recalled.reason = QStringLiteral("recalled");
    recalled.regions = spared;
    recalled.changedPercent = decision.changedPercent;
    result << recalled;
    if (!changed.isEmpty()) {
        TierDecision look;
        look.action = TierDecision::Action::Local;
        look.tier = 1;
        look.reason = QStringLiteral("recalled_changed");
        look.regions = m_policy.mergeRegions(changed, m_frame.image.size());
        look.changedPercent = decision.changedPercent;
        result << look;
    }
    // The rest of the analysed area, without the slivers a region's margin leaves around a window.
    QList<QRect> left;
    for (const QRect& r : rest) {
        if (r.width() >= kMinRestSide && r.height() >= kMinRestSide)
            left << r;
    }
    if (!left.isEmpty()) {
        TierDecision full = decision;
        full.regions = left;
        result << full;
    }
    return result;
}

void CanvasMapper::rememberWindows()
{
    if (!m_memory || !m_frame.isValid())
        return;
    for (int i = 0; i < m_windowList.size(); ++i) {
        const platform::WindowInfo* w = memoryWindow(m_windowList.at(i).id);
        if (!w)
            continue;
        // Only a window nothing covers: its pixels are its own.
        bool covered = false;
        for (int above = i + 1; above < m_windowList.size(); ++above)
            covered = covered || m_windowList.at(above).geometry.intersects(w->geometry);
        if (covered)
            continue;
        QList<Zone> zones;
        for (const Zone& z : m_registry.zones()) {
            if (z.windowId == w->id || (z.windowId == 0 && w->geometry.contains(z.bounds.center())))
                zones << z;
        }
        if (zones.isEmpty())
            continue;
        QString error;
        const QImage window = m_frame.image.copy(w->geometry.translated(-m_frame.origin));
        if (m_memory->remember(w->windowClass, w->geometry, window, zones, &error))
            ++m_memoryStats.remembers;
        else
            memoryError(w->windowClass, error);
    }
}

} // namespace ciu::canvas
