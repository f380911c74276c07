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
        if (!isApplied(it.key()))
            continue;
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
        if (!isApplied(it.key()))
            continue;
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

bool ZoneCorrections::isApplied(const QString& application) const
{
    // Without any window list (no display yet) corrections apply where they are; with one, only on a
    // window that carries them (a closed window's corrections do not float over the desktop). The desktop's
    // own corrections (zones of no window) are relative to the screen.
    return m_windows.isEmpty() || m_origins.contains(application) || application == QLatin1String("desktop");
}

bool ZoneCorrections::setTitlePattern(const QString& application, const QString& pattern, QString* error)
{
    if (application.isEmpty())
        return false;
    if (!CorrectionSet::isValidTitlePattern(pattern, error))
        return false;
    ensureLoaded(application);
    CorrectionSet set = corrections(application);
    set.titlePattern = pattern;
    setCorrections(set);
    return true;
}

void ZoneCorrections::setCorrections(const CorrectionSet& set)
{
    if (set.application.isEmpty())
        return;
    m_loaded.insert(set.application);
    m_sets.insert(set.application, set);
    refreshOrigins();
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
    m_windows = windows;
    m_activeApplication.clear();
    for (const platform::WindowInfo& window : windows) {
        if (window.active && !window.windowClass.isEmpty())
            m_activeApplication = window.windowClass;
    }
    if (!refreshOrigins())
        return;
    recompute();
    if (!m_sets.isEmpty())
        announceUserZones();
}

bool ZoneCorrections::refreshOrigins()
{
    const QHash<QString, QPoint> previous = m_origins;
    m_origins.clear();
    // Bottom first: the topmost window of a class wins, and the active one over all.
    const auto carries = [this](const platform::WindowInfo& window) {
        const auto it = m_sets.constFind(window.windowClass);
        return it == m_sets.cend() || it->matchesTitle(window.title);
    };
    for (const platform::WindowInfo& window : std::as_const(m_windows)) {
        if (!window.windowClass.isEmpty() && carries(window))
            m_origins.insert(window.windowClass, window.geometry.topLeft());
    }
    for (const platform::WindowInfo& window : std::as_const(m_windows)) {
        if (window.active && !window.windowClass.isEmpty() && carries(window))
            m_origins.insert(window.windowClass, window.geometry.topLeft());
    }
    return m_origins != previous;
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
    refreshOrigins();
    emit correctionsChanged(*set);
    announceUserZones();
}

void ZoneCorrections::recompute()
{
    QList<Zone> zones = m_base ? m_base->zones() : QList<Zone>{};
    const qint64 tNs = m_base ? m_base->tNs() : 0;
    for (auto it = m_sets.cbegin(); it != m_sets.cend(); ++it) {
        if (isApplied(it.key()))
            zones = applyCorrections(it.value(), zones, windowOrigin(it.key()), tNs);
    }
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
