// CanvasMapper and the zone memory: a window the mapper has mapped before (same program, a layout close to a
// remembered one) gets its remembered zones at once, each confirmed by a look at its pixels (isRemembered());
// the full analysis that follows keeps their ids where it finds them and drops the rest. After a full
// analysis (and the first tree), the windows nothing covers are remembered.

#include "core/canvas/canvaslog.h"
#include "core/canvas/canvasmapper.h"
#include "core/canvas/canvasmapper_p.h"
#include "core/knowledge/zonememory.h"
#include "core/model/geometry.h"

#include <QElapsedTimer>

namespace ciu::canvas {

using detail::rectData;

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
    SpatialEvent e;
    e.kind = SpatialEvent::Kind::Error;
    e.tNs = m_frame.tNs;
    e.data = {{QStringLiteral("component"), QStringLiteral("zone_memory")},
              {QStringLiteral("message"), message}};
    emit eventOccurred(e);
}

void CanvasMapper::recallWindows(const QList<quint64>& windowIds, const QString& reason)
{
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
                  {QStringLiteral("ms"), double(timer.nsecsElapsed()) / 1e6},
                  {QStringLiteral("frame"), m_frame.index}};
        emit eventOccurred(e);
        qCDebug(lcCanvas) << "recalled" << stats.added << "zones of" << w->windowClass << "dropped"
                          << dropped;
    }
    publish(); // the remembered zones go out before the analysis that follows
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
