// CanvasMapper, Tier 2: a model's inventory of a region, requested with the local view of the same
// region (usable at once), and merged into the registry with the local zones the model did not report
// when the answer arrives.

#include "core/canvas/canvasmapper.h"
#include "core/canvas/canvasmapper_p.h"
#include "core/canvas/inventorymerge.h"

namespace ciu::canvas {

using detail::rectData;
using detail::united;

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
    // The accessibility tree's zones win over both (canvasmapper_a11y.cpp).
    const QList<Zone> merged = filterDetections(withTreeZones(
        result.region, mergeInventory(result.report.zones, pending.localZones, [this](const Zone& local) {
            return m_registry.find(local.id) != nullptr;
        })));
    QList<Zone> newer;
    for (const Zone& z : m_registry.zones()) {
        if (z.lastSeenNs > pending.tNs && result.region.contains(z.bounds.center()) &&
            z.source != ZoneSource::Accessibility) // the tree's current zones are in `merged`
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
    if (result.region == QRect(m_frame.origin, m_frame.image.size()))
        rememberWindows();
    publish();
}

} // namespace ciu::canvas
