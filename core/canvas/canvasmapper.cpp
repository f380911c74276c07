#include "core/canvas/canvasmapper.h"

#include "core/canvas/canvaslog.h"
#include "core/canvas/canvasmapper_corrections.h"
#include "core/canvas/canvasmapper_p.h"
#include "core/capture/windowtracker.h"
#include "core/knowledge/shortcutstore.h"
#include "core/knowledge/zonememory.h"
#include "core/model/geometry.h"
#include "platform/platform.h"

#include <QElapsedTimer>
#include <QSet>

#include <algorithm>

namespace ciu::canvas {

using detail::rectData;
using detail::united;

CanvasMapper::CanvasMapper(QObject* parent)
    : CanvasMapper(Options{}, parent)
{
}

CanvasMapper::CanvasMapper(Options options, QObject* parent)
    : QObject(parent)
    , m_options(options)
    , m_registry(options.registry)
    , m_policy(options.escalation)
    , m_local(options.local)
    , m_full(this)
{
    connect(&m_full, &FullAnalyzer::finished, this, &CanvasMapper::onFullFinished);
}

CanvasMapper::~CanvasMapper() = default;

void CanvasMapper::setPlatform(std::unique_ptr<platform::Platform> platform)
{
    delete m_ownTracker;
    m_ownTracker = nullptr;
    if (!platform)
        return;
    m_ownTracker = new capture::WindowTracker(std::move(platform), 0, this);
    connect(m_ownTracker, &capture::WindowTracker::windowsChanged, this, &CanvasMapper::onWindows);
    m_ownTracker->start();
}

void CanvasMapper::onWindows(const QList<platform::WindowInfo>& windows,
                             const std::optional<platform::WindowInfo>& active)
{
    m_reportedWindows = windows;
    m_reportedActive = active ? std::optional<quint64>(active->id) : std::nullopt;
}

void CanvasMapper::setProvider(director::Provider* provider, const QString& model)
{
    m_full.setProvider(provider, model);
}

void CanvasMapper::setMinActionConfidence(double confidence)
{
    m_options.minActionConfidence = qBound(0.0, confidence, 1.0);
}

QList<const Zone*> CanvasMapper::actionableZones(const ZoneMap& map, double minConfidence)
{
    QList<const Zone*> result;
    for (const Zone& z : map.zones()) {
        if (z.isInteractive() && z.confidence >= minConfidence && !z.state.testFlag(ZoneStateFlag::Disabled))
            result << &z;
    }
    return result;
}

void CanvasMapper::onFrame(const Frame& frame)
{
    if (!frame.isValid())
        return;
    // The last frame's changes are all analysed: a tooltip it showed may name its zone now.
    if (m_tooltip && m_frame.isValid() && nameFromTooltip(m_frame.tNs))
        publish();
    m_frame = frame;
    m_registry.setScreenSize(frame.image.size());
    if (!m_firstFrameAnalysed) {
        m_firstFrameAnalysed = true; // (a map may exist already: user zones or exclusions set before)
        TierDecision first;
        first.action = TierDecision::Action::Full;
        first.tier = 2;
        first.reason = QStringLiteral("first_frame");
        first.changedPercent = 100;
        EscalationPolicy::Context context;
        takeWindows(context); // the window list for menu bars, and the first active window
        m_activeWindowChanged = false;
        QList<quint64> shown;
        for (const platform::WindowInfo& w : std::as_const(m_windowList))
            shown << w.id;
        recallWindows(shown, first.reason); // windows mapped before: their zones at once
        for (const TierDecision& d : sparedByMemory(first)) {
            emitDecision(d, frame.tNs);
            execute(d, FrameDiff{});
        }
        m_recalled.clear();
        if (m_a11ySnapshot)
            applyAccessibility({}); // the tree came before the first frame
    }
    // Changes that waited for their frame.
    while (!m_pendingDiffs.isEmpty() && m_pendingDiffs.first().frameIndex <= m_frame.index)
        process(m_pendingDiffs.takeFirst());
}

void CanvasMapper::onChanges(const FrameDiff& diff)
{
    if (!m_frame.isValid() || diff.frameIndex > m_frame.index) {
        m_pendingDiffs << diff;
        if (m_pendingDiffs.size() > 32)
            m_pendingDiffs.removeFirst();
        return;
    }
    process(diff);
}

void CanvasMapper::onCursor(const CursorSample& sample)
{
    if (!m_cursor || *m_cursor != sample.pos)
        m_cursorStillSinceNs = sample.tNs;
    m_cursor = sample.pos;
    if (m_tooltip && m_tooltip->cursor != sample.pos)
        m_tooltip.reset(); // the pointer moved on: whose tooltip it was is no longer clear
}

void CanvasMapper::onActiveWindowChanged(quint64 windowId)
{
    if (m_activeWindowKnown && windowId == m_activeWindow)
        return;
    // Focus moving to or from the agent's own (excluded) window is no application switch.
    const auto excludedWindow = [this](quint64 id) {
        const auto it = m_windows.constFind(id);
        return it != m_windows.cend() && isExcluded(*it);
    };
    m_activeWindowChanged =
        m_activeWindowKnown && !excludedWindow(windowId) && !excludedWindow(m_activeWindow);
    m_activeWindow = windowId;
    m_activeWindowKnown = true;
}

void CanvasMapper::requestFullAnalysis(const QString& reason)
{
    if (!m_frame.isValid())
        return;
    TierDecision d;
    d.action = TierDecision::Action::Full;
    d.tier = 2;
    d.reason = reason.isEmpty() ? QStringLiteral("requested") : reason;
    d.changedPercent = 0;
    emitDecision(d, m_frame.tNs);
    execute(d, FrameDiff{});
}

void CanvasMapper::lookAgain(quint64 token)
{
    // The frames and changes that came before the request are processed (queued in order). What they left
    // waiting for a stable screen is analysed now: the screen as it is, not as it may become. Before the
    // first frame there is nothing to look at: the answer carries the map as it is (none yet, or user zones).
    if (!m_frame.isValid()) {
        emit lookedAgain(token, m_map);
        return;
    }
    if (!m_deferred.isEmpty() || !m_waitRegions.isEmpty()) {
        TierDecision d;
        d.action = TierDecision::Action::Local;
        d.tier = 1;
        d.reason = QStringLiteral("look_again");
        d.regions = m_policy.mergeRegions(m_deferred + m_waitRegions, m_frame.image.size());
        m_deferred.clear();
        m_waitRegions.clear();
        emitDecision(d, m_frame.tNs);
        execute(d, FrameDiff{});
    }
    publish();
    emit lookedAgain(token, m_map);
}

void CanvasMapper::applyUserCorrection(const Zone& zone)
{
    m_registry.applyUserCorrection(zone, nowNs());
    dropFilteredZones();
    publish();
}

void CanvasMapper::removeZone(const QString& id)
{
    if (m_registry.remove(id)) {
        m_local.forgetTemplates({id});
        m_registry.takeRemovedIds();
        publish();
    }
}

void CanvasMapper::setUserZones(const QList<Zone>& zones)
{
    QStringList userIds;
    for (const Zone& z : m_registry.zones()) {
        if (z.source == ZoneSource::User)
            userIds << z.id;
    }
    for (const QString& id : std::as_const(userIds))
        m_registry.remove(id);
    for (const Zone& z : zones)
        m_registry.applyUserCorrection(z, nowNs());
    m_registry.takeRemovedIds();
    dropFilteredZones();
    publish();
}

void CanvasMapper::takeWindows(EscalationPolicy::Context& context)
{
    if (m_ownTracker)
        m_ownTracker->poll(); // reports to onWindows() at once when anything changed
    if (!m_reportedWindows)
        return;
    const QList<platform::WindowInfo> windows = *m_reportedWindows;
    QHash<quint64, QRect> now;
    for (const platform::WindowInfo& w : windows)
        now.insert(w.id, w.geometry);
    if (!m_windows.isEmpty() || !m_windowList.isEmpty()) {
        for (auto it = now.cbegin(); it != now.cend(); ++it) {
            if (!m_windows.contains(it.key()) && !it.value().isEmpty())
                context.newWindows << it.value();
        }
    }
    m_windows = now;
    m_windowList = windows;
    QHash<quint64, QPoint> origins;
    for (const platform::WindowInfo& w : windows)
        origins.insert(w.id, w.geometry.topLeft());
    m_registry.setWindowOrigins(origins);
    if (m_reportedActive)
        onActiveWindowChanged(*m_reportedActive);
    // A new window that takes the focus is a dialog, not an application switch.
    if (!context.newWindows.isEmpty())
        m_activeWindowChanged = false;
}

void CanvasMapper::process(const FrameDiff& rawDiff)
{
    // Changes of the agent's own windows are none of the canvas' business.
    // Nor are changes the accessibility tree explains (they lie on its zones, its events update them).
    const FrameDiff diff = withoutExplained(withoutExcluded(rawDiff));
    const qint64 tNs = diff.tNs ? diff.tNs : m_frame.tNs;
    QList<QRect> changed;
    QList<QRect> repainted; // the screen's content changed there (not the cursor, not a caret's blink)
    const int minChangedPixels = m_policy.options().minChangedPixels;
    for (const ChangeRegion& c : diff.regions) {
        changed << c.rect;
        if (!diff.cursorOnly && double(area(c.rect)) * c.changedPercent / 100.0 >= minChangedPixels)
            repainted << c.rect;
    }
    m_registry.markChangedPixels(repainted, tNs);
    m_registry.confirmUnchanged(changed, tNs);
    QHash<QString, Zone> before;
    for (const Zone& z : m_registry.zones())
        before.insert(z.id, z);
    // Tooltips vanish when the screen changes under them (a new one is analysed again below).
    if (!changed.isEmpty())
        m_registry.removeTemporary(united(changed));
    // A tooltip repainted (another one, or gone) no longer names anything; a few pixels (a caret) leave it.
    if (m_tooltip && std::any_of(repainted.cbegin(), repainted.cend(),
                                 [this](const QRect& r) { return r.intersects(m_tooltip->region); }))
        m_tooltip.reset();
    m_registry.ageOut(tNs);
    bury(m_registry.takeRemovedIds(), before);

    EscalationPolicy::Context context;
    context.map = m_registry.snapshot(tNs);
    context.screenSize = m_frame.image.size();
    context.cursor = m_cursor;
    context.hoveredZoneId = m_hoveredId;
    context.providerAvailable = m_full.hasProvider();
    if (!diff.isEmpty())
        takeWindows(context);
    context.newWindows.removeIf([this](const QRect& r) { return isExcluded(r); });
    context.activeWindowChanged = m_activeWindowChanged;
    m_activeWindowChanged = false;
    if (m_memory && (context.activeWindowChanged || !context.newWindows.isEmpty())) {
        QList<quint64> shown;
        for (const platform::WindowInfo& w : std::as_const(m_windowList)) {
            if ((context.activeWindowChanged && w.id == m_activeWindow) ||
                context.newWindows.contains(w.geometry))
                shown << w.id;
        }
        recallWindows(shown, QStringLiteral("window_shown"));
    }

    FrameDiff effective = diff;
    if (diff.animating) {
        m_waitRegions << changed;
    } else if (!m_waitRegions.isEmpty() && (diff.stable || diff.isEmpty())) {
        // The animation settled: analyse everything it touched.
        for (const QRect& r : std::as_const(m_waitRegions))
            effective.regions << ChangeRegion{r, 100.0};
        const QRect all = united(m_waitRegions);
        const double screen = double(context.screenSize.width()) * context.screenSize.height();
        effective.totalPercent =
            std::max(diff.totalPercent, screen > 0 ? 100.0 * all.width() * all.height() / screen : 0);
        m_waitRegions.clear();
    }
    if (!m_deferred.isEmpty() && !diff.animating && (diff.stable || diff.isEmpty()) && !diff.cursorOnly) {
        // Changes too small to analyse at once (a widget moved or hidden, a label changed): analysed
        // once the screen is stable, so their zones are confirmed or removed, and new ones are found.
        TierDecision settled;
        settled.action = TierDecision::Action::Local;
        settled.tier = 1;
        settled.reason = QStringLiteral("small_change_settled");
        settled.regions = m_policy.mergeRegions(m_deferred, context.screenSize);
        settled.changedPercent = diff.totalPercent;
        m_deferred.clear();
        emitDecision(settled, tNs);
        execute(settled, effective);
    }
    if (effective.isEmpty() && !context.activeWindowChanged && context.newWindows.isEmpty()) {
        m_recalled.clear();
        publish();
        return;
    }
    const QList<TierDecision> decisions = m_policy.decide(effective, context);
    bool wholeScreen = false;
    QList<QRect> handled; // analysed, or explained (a hover, a window recalled well)
    for (const TierDecision& d : decisions) {
        for (const TierDecision& step : sparedByMemory(d)) {
            emitDecision(step, tNs);
            execute(step, effective);
        }
        if (d.action == TierDecision::Action::Local || d.action == TierDecision::Action::Hover)
            handled << d.regions;
        if (d.action == TierDecision::Action::Full) {
            wholeScreen = wholeScreen || d.regions.isEmpty();
            handled << d.regions;
        }
    }
    m_recalled.clear();
    // Changes no decision took up (below the threshold of an immediate analysis): left until the screen
    // settles. Animations have their own wait; a caret's blink is no change worth analysing.
    if (wholeScreen) {
        m_deferred.clear();
    } else if (!effective.animating && !effective.cursorOnly) {
        for (const ChangeRegion& c : std::as_const(effective.regions)) {
            if (double(area(c.rect)) * c.changedPercent / 100.0 < minChangedPixels)
                continue;
            const bool taken = std::any_of(handled.cbegin(), handled.cend(),
                                           [&c](const QRect& r) { return r.intersects(c.rect); });
            if (!taken)
                m_deferred << c.rect;
        }
    }
    if (m_deferred.size() > m_policy.options().maxRegions)
        m_deferred = {united(m_deferred)};
    publish();
}

void CanvasMapper::execute(const TierDecision& decision, const FrameDiff& diff)
{
    Q_UNUSED(diff)
    switch (decision.action) {
    case TierDecision::Action::Ignore:
    case TierDecision::Action::Wait:
        return;
    case TierDecision::Action::Hover:
        if (decision.hoverOn) {
            if (!m_hoveredId.isEmpty() && m_hoveredId != decision.zoneId)
                m_registry.setStateFlag(m_hoveredId, ZoneStateFlag::Hovered, false);
            m_registry.setStateFlag(decision.zoneId, ZoneStateFlag::Hovered, true);
            m_hoveredId = decision.zoneId;
        } else {
            m_registry.setStateFlag(decision.zoneId, ZoneStateFlag::Hovered, false);
            if (m_hoveredId == decision.zoneId)
                m_hoveredId.clear();
        }
        // The change is the zone's highlight: the zone is still there.
        m_registry.confirm(decision.zoneId, m_frame.tNs);
        publish();
        return;
    case TierDecision::Action::Local:
        for (const QRect& r : decision.regions)
            runLocal(decision, r, false);
        publish();
        return;
    case TierDecision::Action::Full:
        if (m_full.hasProvider()) {
            runFull(decision);
        } else if (decision.regions.isEmpty()) {
            runLocal(decision, QRect(m_frame.origin, m_frame.image.size()), true);
            rememberWindows();
        } else {
            for (const QRect& r : decision.regions)
                runLocal(decision, r, false);
        }
        publish();
        return;
    }
}

AnalysisHints CanvasMapper::hints(const TierDecision& decision) const
{
    AnalysisHints h;
    h.windows = m_windowList;
    h.temporary = decision.temporary;
    h.menuPopup = decision.menuPopup;
    h.excluded = m_excluded;
    return h;
}

void CanvasMapper::runLocal(const TierDecision& decision, const QRect& region, bool full)
{
    if (!m_frame.isValid())
        return;
    QElapsedTimer timer;
    timer.start();
    // Known zones of the region, and zones removed earlier that may come back (a menu closing).
    QList<Zone> known;
    for (const Zone& z : m_registry.zones()) {
        if (region.contains(z.bounds.center()))
            known << z;
    }
    QSet<QString> present;
    for (const Zone& z : std::as_const(known))
        present.insert(z.id);
    for (const Zone& z : std::as_const(m_graveyard)) {
        if (region.contains(z.bounds) && !present.contains(z.id) && !m_registry.find(z.id))
            known << z;
    }
    LocalAnalysisResult result =
        m_local.analyze(m_frame.image, m_frame.origin, region, known, hints(decision));
    if (!result.error.isEmpty()) {
        emitComponentError(QStringLiteral("canvas"), result.error, {{QStringLiteral("tier"), 1}});
        return;
    }
    if (decision.menuPopup && !decision.zoneId.isEmpty()) {
        if (const Zone* found = m_registry.find(decision.zoneId)) {
            Zone origin = *found;
            // The open title is highlighted (often inverted): keep it even when it is not read again, and
            // expanded when it is (its new reading merges over the registry's).
            origin.state.setFlag(ZoneStateFlag::Collapsed, false);
            origin.state |= ZoneStateFlag::Expanded;
            bool seen = false;
            for (Zone& z : result.zones) {
                // The items below (or beside) the title, not the title itself.
                if (z.type == ZoneType::MenuItem && z.id != origin.id && !z.bounds.intersects(origin.bounds))
                    z.parentId = origin.id;
                if (intersectionOverUnion(z.bounds, origin.bounds) >= 0.5) {
                    seen = true;
                    z.state.setFlag(ZoneStateFlag::Collapsed, false);
                    z.state |= ZoneStateFlag::Expanded;
                }
            }
            if (!seen)
                result.zones << origin;
            else
                m_registry.update(origin.id, [&](Zone& z) { z.state = origin.state; });
        }
    }
    if (!decision.temporary)
        result.zones = withTreeZones(result.region, result.zones);
    result.zones = filterDetections(result.zones);
    if (!decision.temporary)
        keepUnderTooltips(result.region, result.zones);
    QHash<QString, Zone> before;
    for (const Zone& z : m_registry.zones())
        before.insert(z.id, z);
    // Tooltips are added over what they cover; everything else replaces the region's zones.
    const ZoneRegistry::UpdateStats stats =
        decision.temporary ? m_registry.merge(result.zones, m_frame.tNs)
                           : m_registry.replaceWithin(result.region, result.zones, m_frame.tNs, true);
    bury(m_registry.takeRemovedIds(), before);
    for (const Zone& z : std::as_const(known))
        m_graveyard.remove(z.id); // back on the map or re-buried above
    QList<Zone> inRegion;
    for (const Zone& z : m_registry.zones()) {
        if (result.region.contains(z.bounds.center()))
            inRegion << z;
    }
    m_local.rememberTemplates(m_frame.image, m_frame.origin, inRegion);
    if (decision.temporary && decision.reason == QLatin1String("tooltip")) {
        noteTooltip(decision.box.isEmpty() ? result.region : decision.box, result.zones);
        nameFromTooltip(m_frame.tNs);
    }

    SpatialEvent e;
    e.kind = SpatialEvent::Kind::Analysis;
    e.tNs = m_frame.tNs;
    e.data = {{QStringLiteral("tier"), 1},
              {QStringLiteral("reason"), decision.reason},
              {QStringLiteral("region"), rectData(result.region)},
              {QStringLiteral("full_screen"), full},
              {QStringLiteral("zones"), int(result.zones.size())},
              {QStringLiteral("added"), stats.added},
              {QStringLiteral("updated"), stats.updated},
              {QStringLiteral("removed"), stats.removed},
              {QStringLiteral("confirmed"), result.stats.confirmed},
              {QStringLiteral("refound"), result.stats.refound},
              {QStringLiteral("ocr_calls"), result.stats.ocrCalls},
              {QStringLiteral("ocr_cache_hits"), result.stats.ocrCacheHits},
              {QStringLiteral("ms"), double(timer.nsecsElapsed()) / 1e6},
              {QStringLiteral("frame"), m_frame.index}};
    emit eventOccurred(e);
    emit keyFrameAnalysed(m_frame, 1);
}

void CanvasMapper::emitComponentError(const QString& component, const QString& message, QVariantMap extra)
{
    SpatialEvent e;
    e.kind = SpatialEvent::Kind::Error;
    e.tNs = m_frame.tNs;
    e.data = std::move(extra);
    e.data.insert(QStringLiteral("component"), component);
    e.data.insert(QStringLiteral("message"), message);
    emit eventOccurred(e);
}

void CanvasMapper::bury(const QStringList& removedIds, const QHash<QString, Zone>& before)
{
    for (const QString& id : removedIds) {
        const auto it = before.constFind(id);
        if (it == before.cend() || it->temporary)
            continue;
        if (!m_graveyard.contains(id))
            m_graveyardOrder << id;
        m_graveyard.insert(id, *it);
    }
    while (m_graveyardOrder.size() > m_options.graveyardSize) {
        const QString oldest = m_graveyardOrder.takeFirst();
        m_graveyard.remove(oldest);
        m_local.forgetTemplates({oldest});
    }
}

void CanvasMapper::emitDecision(const TierDecision& d, qint64 tNs)
{
    SpatialEvent e;
    e.kind = SpatialEvent::Kind::TierDecision;
    e.tNs = tNs;
    e.zoneId = d.zoneId;
    QVariantList regions;
    for (const QRect& r : d.regions)
        regions << rectData(r);
    const QRect region =
        d.regions.isEmpty() && d.tier == 2 ? QRect(m_frame.origin, m_frame.image.size()) : united(d.regions);
    e.data = {{QStringLiteral("tier"), d.tier},
              {QStringLiteral("reason"), d.reason},
              {QStringLiteral("action"), toString(d.action)},
              {QStringLiteral("region"), region.isNull() ? QVariant() : QVariant(rectData(region))},
              {QStringLiteral("regions"), regions},
              {QStringLiteral("changed_percent"), d.changedPercent}};
    qCDebug(lcCanvas) << "decision" << toString(d.action) << "tier" << d.tier << d.reason << d.regions;
    emit eventOccurred(e);
}

void CanvasMapper::publish()
{
    const ZoneMapPtr registryMap = m_registry.snapshot(mapNs());
    // The schema's names, then the user's corrections over them (they rank above, schemazones.h).
    std::optional<QList<Zone>> derived = withSchemaZones(registryMap->zones());
    if (auto corrected = withStoredCorrections(derived ? *derived : registryMap->zones()))
        derived = std::move(corrected);
    ZoneMapPtr map = registryMap;
    if (derived || m_versionOffset > 0) {
        // A map of its own: versions keep growing when only the schema zones or the corrections changed (a
        // window moved, a file was saved).
        const QList<Zone>& zones = derived ? *derived : registryMap->zones();
        if (m_map && registryMap == m_registryMap && m_map->zones() == zones) {
            map = m_map;
        } else {
            if (registryMap == m_registryMap)
                ++m_versionOffset;
            map = std::make_shared<const ZoneMap>(registryMap->version() + m_versionOffset, mapNs(),
                                                  registryMap->screenSize(), zones);
        }
    }
    m_registryMap = registryMap;
    if (map != m_map) {
        m_map = map;
        emit zoneMapUpdated(map);
    }
}

} // namespace ciu::canvas
