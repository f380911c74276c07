// CanvasMapper and the accessibility tree: each snapshot of the tree becomes zones of the windows that
// changed, fused with the vision zones already there (the tree wins label, type and state; vision keeps
// what the tree lacks), and changes that lie on tree zones need no Tier 1.

#include "core/canvas/accessibilityzones.h"
#include "core/canvas/canvaslog.h"
#include "core/canvas/canvasmapper.h"
#include "core/canvas/canvasmapper_p.h"
#include "core/model/geometry.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSet>

#include <algorithm>

namespace ciu::canvas {

using detail::rectData;

void CanvasMapper::setAccessibility(std::unique_ptr<platform::Accessibility> accessibility)
{
    delete m_accessibility;
    m_accessibility = nullptr;
    m_a11ySnapshot.reset();
    m_a11yExplained.clear();
    m_a11yZones.clear();
    if (!accessibility)
        return;
    m_accessibility = accessibility.release();
    m_accessibility->setParent(this);
    if (!m_accessibility->isAvailable())
        return; // vision only (the backend said why, once)
    connect(m_accessibility, &platform::Accessibility::snapshotChanged, this,
            &CanvasMapper::onAccessibilitySnapshot);
    m_accessibility->start();
}

void CanvasMapper::onAccessibilitySnapshot(const platform::AccessibilitySnapshotPtr& snapshot,
                                           const QStringList& changedWindows)
{
    m_a11ySnapshot = snapshot;
    if (!m_frame.isValid())
        return; // applied with the first frame
    if (m_options.clock)
        m_treeNs = m_options.clock->nowNs();
    applyAccessibility(changedWindows);
    publish();
}

void CanvasMapper::applyAccessibility(const QStringList& changedWindows)
{
    if (!m_a11ySnapshot)
        return;
    QElapsedTimer timer;
    timer.start();
    AccessibilityScene scene;
    scene.windows = m_reportedWindows ? *m_reportedWindows : m_windowList;
    scene.screen = QRect(m_frame.origin, m_frame.image.size());
    scene.excluded = m_excluded;
    scene.ownPid = QCoreApplication::applicationPid();
    const AccessibilityZones tree = zonesFromAccessibility(*m_a11ySnapshot, scene);

    // The screen the changed windows showed before and show now: the region their zones are replaced in.
    // None named (the first frame, a walk that found nothing): every window of before and now.
    QStringList windows = changedWindows;
    if (windows.isEmpty()) {
        windows = m_a11yRegions.keys();
        for (auto it = tree.windowRegions.cbegin(); it != tree.windowRegions.cend(); ++it) {
            if (!windows.contains(it.key()))
                windows << it.key();
        }
    }
    QRegion touched;
    for (const QString& w : windows)
        touched += m_a11yRegions.value(w) + tree.windowRegions.value(w);
    const QHash<QString, QRegion> before = m_a11yRegions;
    m_a11yRegions = tree.windowRegions;
    m_a11yZones = tree.zones;
    // A change inside one widget's box is that widget's own (its look; its text the tree reports by event).
    // Over a container, or across widgets, it may be something new above them (a popup list opening over a
    // dialog, its rows not in the tree yet): vision looks there.
    QSet<QString> parents;
    for (const Zone& z : tree.zones)
        parents.insert(z.parentId);
    m_a11yExplained.clear();
    for (const Zone& z : tree.zones) {
        if (!parents.contains(z.id))
            m_a11yExplained << z.bounds.adjusted(-2, -2, 2, 2); // focus frames drawn just outside
    }
    if (touched.isEmpty())
        return;

    const QRect region = touched.boundingRect();
    const double withinShare = m_registry.options().withinShare;
    QList<Zone> treeIn;
    for (const Zone& z : tree.zones) {
        if (shareInside(z.bounds, region) >= withinShare)
            treeIn << z;
    }
    // Vision's zones of the region stay where the tree does not explain them.
    QList<Zone> visionIn;
    for (const Zone& z : m_registry.zones()) {
        if ((z.source == ZoneSource::Local || z.source == ZoneSource::Model) &&
            shareInside(z.bounds, region) >= withinShare)
            visionIn << z;
    }
    const QList<Zone> fused = filterDetections(fuseZones(treeIn, visionIn));
    QHash<QString, Zone> old;
    for (const Zone& z : m_registry.zones())
        old.insert(z.id, z);
    const ZoneRegistry::UpdateStats stats = m_registry.replaceWithin(region, fused, m_frame.tNs);
    bury(m_registry.takeRemovedIds(), old);

    SpatialEvent e;
    e.kind = SpatialEvent::Kind::Analysis;
    e.tNs = m_frame.tNs;
    e.data = {{QStringLiteral("tier"), 0},
              {QStringLiteral("source"), QStringLiteral("accessibility")},
              {QStringLiteral("reason"), QStringLiteral("accessibility_update")},
              {QStringLiteral("region"), rectData(region)},
              {QStringLiteral("windows"), int(windows.size())},
              {QStringLiteral("zones"), int(treeIn.size())},
              {QStringLiteral("added"), stats.added},
              {QStringLiteral("updated"), stats.updated},
              {QStringLiteral("removed"), stats.removed},
              {QStringLiteral("walks"), m_a11ySnapshot->stats.fullWalks},
              {QStringLiteral("ms"), double(timer.nsecsElapsed()) / 1e6}};
    emit eventOccurred(e);
    if (!m_rememberedTree && !treeIn.isEmpty()) {
        m_rememberedTree = true; // the tree's zones (and ids) are worth remembering at once
        rememberWindows();
    }

    // A window whose tree went away while it is still on screen (its program stopped answering) is
    // looked at by vision now instead of at its next change.
    for (const QString& w : windows) {
        const QRegion gone = before.value(w) - tree.windowRegions.value(w);
        if (!gone.isEmpty() && !m_a11ySnapshot->slowApplications.isEmpty()) {
            TierDecision d;
            d.action = TierDecision::Action::Local;
            d.tier = 1;
            d.reason = QStringLiteral("accessibility_unavailable");
            d.regions = {gone.boundingRect()};
            emitDecision(d, m_frame.tNs);
            runLocal(d, gone.boundingRect(), false);
        }
    }
}

QList<Zone> CanvasMapper::withTreeZones(const QRect& region, const QList<Zone>& found) const
{
    // A zone the tree reported before that vision found again (by its template, from the graveyard) is
    // vision's now: the tree no longer vouches for it (its program stopped answering, or the node went).
    QList<Zone> vision = found;
    for (Zone& z : vision) {
        if (z.source != ZoneSource::Accessibility)
            continue;
        z.source = ZoneSource::Local;
        // The tree's states were its word at the time (disabled, checked, expanded, selected): vision cannot
        // see them, and a state kept from a program that stopped answering is stale. Hover is the cursor's.
        z.state = ZoneStateFlag::Enabled | (z.state & ZoneStateFlag::Hovered);
        z.role.clear();
        z.value.clear();
        z.keyBinding.clear();
        z.accessibleRef.clear();
        z.accessiblePath.clear();
    }
    if (m_a11yZones.isEmpty())
        return vision;
    const double withinShare = m_registry.options().withinShare;
    QList<Zone> treeIn;
    for (const Zone& z : m_a11yZones) {
        if (region.isNull() || shareInside(z.bounds, region) >= withinShare)
            treeIn << z;
    }
    return fuseZones(treeIn, vision);
}

FrameDiff CanvasMapper::withoutExplained(const FrameDiff& diff) const
{
    if (m_a11yExplained.isEmpty() || diff.regions.isEmpty())
        return diff;
    FrameDiff out = diff;
    out.regions.clear();
    double removedPixels = 0;
    for (const ChangeRegion& c : diff.regions) {
        if (std::any_of(m_a11yExplained.cbegin(), m_a11yExplained.cend(),
                        [&c](const QRect& widget) { return widget.contains(c.rect); })) {
            removedPixels += double(c.rect.width()) * c.rect.height() * c.changedPercent / 100.0;
            continue;
        }
        out.regions << c;
    }
    if (out.regions.size() == diff.regions.size())
        return diff;
    const double screen = double(m_frame.image.width()) * m_frame.image.height();
    out.totalPercent = screen > 0 ? std::max(0.0, diff.totalPercent - 100.0 * removedPixels / screen) : 0;
    qCDebug(lcCanvas) << diff.regions.size() - out.regions.size() << "changes explained by the tree";
    return out;
}

} // namespace ciu::canvas
