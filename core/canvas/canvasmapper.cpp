#include "core/canvas/canvasmapper.h"

#include "core/canvas/canvaslog.h"
#include "core/knowledge/correctionstore.h"
#include "core/model/geometry.h"
#include "platform/platform.h"

#include <QElapsedTimer>
#include <QPainter>
#include <QSet>

namespace ciu::canvas {
namespace {

QVariantMap rectData(const QRect& r)
{
    return {{QStringLiteral("x"), r.x()},
            {QStringLiteral("y"), r.y()},
            {QStringLiteral("width"), r.width()},
            {QStringLiteral("height"), r.height()}};
}

QRect united(const QList<QRect>& rects)
{
    QRect all;
    for (const QRect& r : rects)
        all = all.united(r);
    return all;
}

// What the agent's own windows look like to the analysis: flat, no edges, not white (a white area
// would read as a text field).
const QColor kExcludedFill(0x80, 0x80, 0x80);

} // namespace

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
    m_platform = std::move(platform);
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
        pollWindows(context); // the window list for menu bars, and the first active window
        m_activeWindowChanged = false;
        emitDecision(first, frame.tNs);
        execute(first, FrameDiff{});
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
    m_cursor = sample.pos;
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

void CanvasMapper::setExcludedRegions(const QList<QRect>& rects)
{
    const QRegion before = m_excludedRegion;
    m_excluded.clear();
    m_excludedRegion = QRegion();
    for (const QRect& r : rects) {
        const QRect n = r.normalized();
        if (n.isEmpty())
            continue;
        m_excluded << n;
        m_excludedRegion += n;
    }
    if (m_excludedRegion == before)
        return;
    dropFilteredZones();
    // What is no longer excluded was never analysed (its changes were ignored): look at it now.
    const QRegion revealed = before.subtracted(m_excludedRegion);
    if (m_map && m_frame.isValid() && !revealed.isEmpty()) {
        TierDecision d;
        d.action = TierDecision::Action::Local;
        d.tier = 1;
        d.reason = QStringLiteral("exclusion_changed");
        const QRect screen(m_frame.origin, m_frame.image.size());
        for (const QRect& r : revealed)
            d.regions << r.intersected(screen);
        d.regions = m_policy.mergeRegions(d.regions, m_frame.image.size());
        d.regions.removeIf([](const QRect& r) { return r.width() < 4 || r.height() < 4; });
        if (!d.regions.isEmpty()) {
            emitDecision(d, m_frame.tNs);
            execute(d, FrameDiff{});
        }
    }
    publish();
}

void CanvasMapper::setSuppressedRegions(const QList<QRect>& rects)
{
    m_suppressed.clear();
    for (const QRect& r : rects) {
        if (!r.normalized().isEmpty())
            m_suppressed << r.normalized();
    }
    dropFilteredZones();
    publish();
}

bool CanvasMapper::isExcluded(const QRect& rect) const
{
    return !m_excluded.isEmpty() && QRegion(rect).subtracted(m_excludedRegion).isEmpty();
}

QList<Zone> CanvasMapper::filterDetections(const QList<Zone>& zones) const
{
    if (zones.isEmpty())
        return zones;
    QList<const Zone*> user;
    for (const Zone& z : m_registry.zones()) {
        if (z.source == ZoneSource::User)
            user << &z;
    }
    if (m_excluded.isEmpty() && m_suppressed.isEmpty() && user.isEmpty())
        return zones;
    QList<Zone> kept;
    kept.reserve(zones.size());
    for (const Zone& z : zones) {
        if (z.source == ZoneSource::User) {
            kept << z;
            continue;
        }
        bool drop = !m_excluded.isEmpty() && m_excludedRegion.contains(z.bounds.center());
        for (qsizetype i = 0; !drop && i < m_suppressed.size(); ++i)
            drop = intersectionOverUnion(m_suppressed.at(i), z.bounds) >= kCorrectionMatchIoU;
        for (qsizetype i = 0; !drop && i < user.size(); ++i)
            drop = user.at(i)->id != z.id &&
                   intersectionOverUnion(user.at(i)->bounds, z.bounds) >= kCorrectionMatchIoU;
        if (!drop)
            kept << z;
    }
    return kept;
}

bool CanvasMapper::dropFilteredZones()
{
    QList<Zone> detected;
    for (const Zone& z : m_registry.zones()) {
        if (z.source != ZoneSource::User)
            detected << z;
    }
    const QList<Zone> kept = filterDetections(detected);
    if (kept.size() == detected.size())
        return false;
    QSet<QString> keep;
    for (const Zone& z : kept)
        keep.insert(z.id);
    QStringList gone;
    for (const Zone& z : std::as_const(detected)) {
        if (!keep.contains(z.id))
            gone << z.id;
    }
    for (const QString& id : std::as_const(gone)) {
        m_registry.remove(id);
        m_graveyard.remove(id); // never brought back
        m_graveyardOrder.removeAll(id);
        if (m_hoveredId == id)
            m_hoveredId.clear();
    }
    m_local.forgetTemplates(gone);
    m_registry.takeRemovedIds();
    qCDebug(lcCanvas) << "dropped" << gone.size() << "zones ruled out by exclusions or corrections";
    return true;
}

QImage CanvasMapper::maskedImage() const
{
    const QRect frameRect(m_frame.origin, m_frame.image.size());
    if (m_excluded.isEmpty() || !m_excludedRegion.intersects(frameRect))
        return m_frame.image;
    QImage image = m_frame.image.convertToFormat(QImage::Format_RGB32);
    QPainter p(&image);
    for (const QRect& r : m_excluded)
        p.fillRect(r.translated(-m_frame.origin), kExcludedFill);
    p.end();
    return image;
}

FrameDiff CanvasMapper::withoutExcluded(const FrameDiff& diff) const
{
    if (m_excluded.isEmpty() || diff.regions.isEmpty())
        return diff;
    FrameDiff out = diff;
    out.regions.clear();
    double removedPixels = 0;
    bool animating = false;
    for (const ChangeRegion& c : diff.regions) {
        if (isExcluded(c.rect)) {
            removedPixels += double(c.rect.width()) * c.rect.height() * c.changedPercent / 100.0;
            continue;
        }
        out.regions << c;
        animating = animating || c.animating;
    }
    if (out.regions.size() == diff.regions.size())
        return diff;
    const double screen = double(m_frame.image.width()) * m_frame.image.height();
    out.totalPercent = screen > 0 ? std::max(0.0, diff.totalPercent - 100.0 * removedPixels / screen) : 0;
    out.animating = diff.animating && animating;
    return out;
}

void CanvasMapper::pollWindows(EscalationPolicy::Context& context)
{
    if (!m_platform || !m_platform->isConnected())
        return;
    const QList<platform::WindowInfo> windows = m_platform->windows().topLevelWindows();
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
    if (const auto active = m_platform->windows().activeWindow())
        onActiveWindowChanged(active->id);
    // A new window that takes the focus is a dialog, not an application switch.
    if (!context.newWindows.isEmpty())
        m_activeWindowChanged = false;
}

void CanvasMapper::process(const FrameDiff& rawDiff)
{
    // Changes of the agent's own windows are none of the canvas' business.
    const FrameDiff diff = withoutExcluded(rawDiff);
    const qint64 tNs = diff.tNs ? diff.tNs : m_frame.tNs;
    QList<QRect> changed;
    for (const ChangeRegion& c : diff.regions)
        changed << c.rect;
    m_registry.confirmUnchanged(changed, tNs);
    QHash<QString, Zone> before;
    for (const Zone& z : m_registry.zones())
        before.insert(z.id, z);
    // Tooltips vanish when the screen changes under them.
    if (!changed.isEmpty())
        m_registry.removeTemporary(united(changed));
    m_registry.ageOut(tNs);
    bury(m_registry.takeRemovedIds(), before);

    EscalationPolicy::Context context;
    context.map = m_registry.snapshot(tNs);
    context.screenSize = m_frame.image.size();
    context.cursor = m_cursor;
    context.hoveredZoneId = m_hoveredId;
    context.providerAvailable = m_full.hasProvider();
    if (!diff.isEmpty())
        pollWindows(context);
    context.newWindows.removeIf([this](const QRect& r) { return isExcluded(r); });
    context.activeWindowChanged = m_activeWindowChanged;
    m_activeWindowChanged = false;

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
    if (effective.isEmpty() && !context.activeWindowChanged && context.newWindows.isEmpty()) {
        publish();
        return;
    }
    const QList<TierDecision> decisions = m_policy.decide(effective, context);
    for (const TierDecision& d : decisions) {
        emitDecision(d, tNs);
        execute(d, effective);
    }
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
        SpatialEvent e;
        e.kind = SpatialEvent::Kind::Error;
        e.tNs = m_frame.tNs;
        e.data = {{QStringLiteral("component"), QStringLiteral("canvas")},
                  {QStringLiteral("tier"), 1},
                  {QStringLiteral("message"), result.error}};
        emit eventOccurred(e);
        return;
    }
    if (decision.menuPopup && !decision.zoneId.isEmpty()) {
        if (const Zone* found = m_registry.find(decision.zoneId)) {
            Zone origin = *found;
            bool seen = false;
            for (Zone& z : result.zones) {
                // The items below (or beside) the title, not the title itself.
                if (z.type == ZoneType::MenuItem && z.id != origin.id && !z.bounds.intersects(origin.bounds))
                    z.parentId = origin.id;
                seen = seen || intersectionOverUnion(z.bounds, origin.bounds) >= 0.5;
            }
            // The open title is highlighted (often inverted): keep it even when it is not read again.
            origin.state.setFlag(ZoneStateFlag::Collapsed, false);
            origin.state |= ZoneStateFlag::Expanded;
            if (!seen)
                result.zones << origin;
            else
                m_registry.update(origin.id, [&](Zone& z) { z.state = origin.state; });
        }
    }
    result.zones = filterDetections(result.zones);
    QHash<QString, Zone> before;
    for (const Zone& z : m_registry.zones())
        before.insert(z.id, z);
    // Tooltips are added over what they cover; everything else replaces the region's zones.
    const ZoneRegistry::UpdateStats stats =
        decision.temporary ? m_registry.merge(result.zones, m_frame.tNs)
                           : m_registry.replaceWithin(result.region, result.zones, m_frame.tNs);
    bury(m_registry.takeRemovedIds(), before);
    for (const Zone& z : std::as_const(known))
        m_graveyard.remove(z.id); // back on the map or re-buried above
    QList<Zone> inRegion;
    for (const Zone& z : m_registry.zones()) {
        if (result.region.contains(z.bounds.center()))
            inRegion << z;
    }
    m_local.rememberTemplates(m_frame.image, m_frame.origin, inRegion);

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

void CanvasMapper::runFull(const TierDecision& decision)
{
    const QRect region =
        decision.regions.isEmpty() ? QRect(m_frame.origin, m_frame.image.size()) : united(decision.regions);
    // The local view of the same region first: usable at once, and merged with the model's later.
    runLocal(decision, region, decision.regions.isEmpty());
    const quint64 id = m_full.analyze(maskedImage(), m_frame.origin, region, decision.reason);
    if (id == 0)
        return;
    PendingFull pending;
    pending.tNs = m_frame.tNs;
    pending.frameIndex = m_frame.index;
    for (const Zone& z : m_registry.zones()) {
        if (z.source == ZoneSource::Local && region.contains(z.bounds.center()))
            pending.localZones << z;
    }
    m_pendingFull.insert(id, pending);
    emit keyFrameAnalysed(m_frame, 2);
}

void CanvasMapper::onFullFinished(const FullAnalysisResult& result)
{
    const PendingFull pending = m_pendingFull.take(result.requestId);
    const qint64 tNs = m_frame.tNs;
    SpatialEvent e;
    e.kind = SpatialEvent::Kind::Analysis;
    e.tNs = tNs;
    QVariantMap rejectedBy;
    for (auto it = result.report.rejectedBy.cbegin(); it != result.report.rejectedBy.cend(); ++it)
        rejectedBy.insert(it.key(), it.value());
    e.data = {{QStringLiteral("tier"), 2},
              {QStringLiteral("reason"), result.reason},
              {QStringLiteral("region"), rectData(result.region)},
              {QStringLiteral("ok"), result.ok},
              {QStringLiteral("total"), result.report.total},
              {QStringLiteral("accepted"), result.report.accepted},
              {QStringLiteral("rejected"), result.report.rejected},
              {QStringLiteral("rejected_by"), rejectedBy},
              {QStringLiteral("refused"), result.report.refused},
              {QStringLiteral("ms"), result.latencyMs},
              {QStringLiteral("input_tokens"), result.inputTokens},
              {QStringLiteral("output_tokens"), result.outputTokens},
              {QStringLiteral("cost_usd"), result.costUsd},
              {QStringLiteral("frame"), pending.frameIndex}};
    if (!result.ok) {
        e.data.insert(QStringLiteral("error"), result.error);
        emit eventOccurred(e);
        return; // the local zones stay
    }
    // The model's zones, plus local ones it did not report (it may miss elements). Zones detected after
    // the request are kept: the registry only replaces zones last seen before the request.
    QList<Zone> merged = result.report.zones;
    for (const Zone& local : pending.localZones) {
        bool covered = false;
        for (const Zone& model : result.report.zones)
            covered = covered || intersectionOverUnion(model.bounds, local.bounds) >= 0.3;
        if (!covered && m_registry.find(local.id))
            merged << local;
    }
    merged = filterDetections(merged);
    QList<Zone> newer;
    for (const Zone& z : m_registry.zones()) {
        if (z.lastSeenNs > pending.tNs && result.region.contains(z.bounds.center()))
            newer << z;
    }
    QHash<QString, Zone> before;
    for (const Zone& z : m_registry.zones())
        before.insert(z.id, z);
    const ZoneRegistry::UpdateStats stats = m_registry.replaceWithin(result.region, merged + newer, tNs);
    bury(m_registry.takeRemovedIds(), before);
    e.data.insert(QStringLiteral("added"), stats.added);
    e.data.insert(QStringLiteral("updated"), stats.updated);
    e.data.insert(QStringLiteral("removed"), stats.removed);
    emit eventOccurred(e);
    publish();
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
    const ZoneMapPtr map = m_registry.snapshot(m_frame.tNs);
    if (map != m_map) {
        m_map = map;
        emit zoneMapUpdated(map);
    }
}

} // namespace ciu::canvas
