#include "ui/zonecorrections.h"

#include "ui/uilog.h"

namespace ciu::ui {

ZoneCorrections::ZoneCorrections(CorrectionStore store, QObject* parent)
    : QObject(parent)
    , m_store(std::move(store))
    , m_effective(std::make_shared<const ZoneMap>())
{
}

const Zone* ZoneCorrections::zone(const QString& id) const
{
    return m_effective ? m_effective->find(id) : nullptr;
}

CorrectionSet ZoneCorrections::corrections(const QString& application) const
{
    return m_sets.value(application, CorrectionSet{application, {}, {}});
}

QList<QRect> ZoneCorrections::suppressedRegions() const
{
    QList<QRect> rects;
    for (auto it = m_sets.cbegin(); it != m_sets.cend(); ++it) {
        const QPoint origin = windowOrigin(it.key());
        for (const QRect& r : it.value().suppressed)
            rects << r.translated(origin);
    }
    return rects;
}

QList<Zone> ZoneCorrections::userZones() const
{
    QList<Zone> zones;
    for (auto it = m_sets.cbegin(); it != m_sets.cend(); ++it) {
        const QPoint origin = windowOrigin(it.key());
        for (Zone zone : it.value().zones) {
            zone.bounds.translate(origin);
            zone.source = ZoneSource::User;
            zone.confidence = 1.0;
            zone.application = it.key();
            zones << zone;
        }
    }
    return zones;
}

QString ZoneCorrections::applicationOf(const Zone& zone) const
{
    if (!zone.application.isEmpty())
        return zone.application;
    if (!m_activeApplication.isEmpty())
        return m_activeApplication;
    return QStringLiteral("desktop");
}

QPoint ZoneCorrections::windowOrigin(const QString& application) const
{
    return m_origins.value(application);
}

CorrectionSet ZoneCorrections::withZoneAdded(const Zone& rootZone) const
{
    const QString application = applicationOf(rootZone);
    CorrectionSet set = corrections(application);
    Zone zone = rootZone;
    zone.bounds.translate(-windowOrigin(application));
    zone.source = ZoneSource::User;
    zone.confidence = 1.0;
    zone.application = application;
    set.zones.append(zone);
    return set;
}

CorrectionSet ZoneCorrections::withZoneRemoved(const Zone& rootZone) const
{
    const QString application = applicationOf(rootZone);
    CorrectionSet set = corrections(application);
    const auto it =
        std::find_if(set.zones.begin(), set.zones.end(), [&](const Zone& z) { return z.id == rootZone.id; });
    if (it != set.zones.end())
        set.zones.erase(it);
    else
        set.suppressed.append(rootZone.bounds.translated(-windowOrigin(application)));
    return set;
}

CorrectionSet ZoneCorrections::withZoneReplaced(const Zone& original, Zone edited, const QString& newId) const
{
    const QString application = applicationOf(original);
    CorrectionSet set = corrections(application);
    const QPoint origin = windowOrigin(application);
    edited.bounds.translate(-origin);
    edited.source = ZoneSource::User;
    edited.confidence = 1.0;
    edited.application = application;
    edited.temporary = false;
    const auto it =
        std::find_if(set.zones.begin(), set.zones.end(), [&](const Zone& z) { return z.id == original.id; });
    if (it != set.zones.end()) {
        edited.id = original.id;
        *it = edited;
    } else {
        set.suppressed.append(original.bounds.translated(-origin));
        edited.id = newId;
        set.zones.append(edited);
    }
    return set;
}

void ZoneCorrections::setCorrections(const CorrectionSet& set)
{
    if (set.application.isEmpty())
        return;
    m_loaded.insert(set.application);
    m_sets.insert(set.application, set);
    QString error;
    if (!m_store.save(set, &error)) {
        qCWarning(lcUiCorrections) << error;
        emit errorOccurred(tr("Cannot save the zone corrections: %1").arg(error));
    }
    recompute();
    emit correctionsChanged(set);
    announceUserZones();
}

void ZoneCorrections::setBaseMap(ZoneMapPtr map)
{
    m_base = std::move(map);
    if (m_base) {
        for (const Zone& zone : m_base->zones())
            ensureLoaded(applicationOf(zone));
    }
    recompute();
}

void ZoneCorrections::setWindows(const QList<platform::WindowInfo>& windows)
{
    const QHash<QString, QPoint> previous = m_origins;
    m_origins.clear();
    m_activeApplication.clear();
    // Bottom first: the topmost window of a class wins.
    for (const platform::WindowInfo& window : windows) {
        if (window.windowClass.isEmpty())
            continue;
        m_origins.insert(window.windowClass, window.geometry.topLeft());
        if (window.active)
            m_activeApplication = window.windowClass;
    }
    for (const platform::WindowInfo& window : windows) {
        if (window.active && !window.windowClass.isEmpty())
            m_origins.insert(window.windowClass, window.geometry.topLeft());
    }
    if (m_origins == previous)
        return;
    recompute();
    if (!m_sets.isEmpty())
        announceUserZones();
}

void ZoneCorrections::ensureLoaded(const QString& application)
{
    if (application.isEmpty() || m_loaded.contains(application))
        return;
    m_loaded.insert(application);
    QString error;
    const auto set = m_store.load(application, &error);
    if (!set) {
        qCWarning(lcUiCorrections) << error;
        emit errorOccurred(tr("Cannot load the zone corrections of %1: %2").arg(application, error));
        return;
    }
    if (set->isEmpty())
        return;
    qCInfo(lcUiCorrections) << "reapplying" << set->zones.size() << "corrections of" << application;
    m_sets.insert(application, *set);
    emit correctionsChanged(*set);
    announceUserZones();
}

void ZoneCorrections::recompute()
{
    QList<Zone> zones = m_base ? m_base->zones() : QList<Zone>{};
    const qint64 tNs = m_base ? m_base->tNs() : 0;
    for (auto it = m_sets.cbegin(); it != m_sets.cend(); ++it)
        zones = applyCorrections(it.value(), zones, windowOrigin(it.key()), tNs);
    const QSize screen = m_base ? m_base->screenSize() : QSize();
    m_effective = std::make_shared<const ZoneMap>(++m_version, tNs, screen, std::move(zones));
    emit effectiveMapChanged(m_effective);
}

void ZoneCorrections::announceUserZones()
{
    emit userZonesChanged(userZones());
    emit suppressedRegionsChanged(suppressedRegions());
}

} // namespace ciu::ui
