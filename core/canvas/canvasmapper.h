#pragma once

#include "core/canvas/escalationpolicy.h"
#include "core/canvas/fullanalyzer.h"
#include "core/canvas/localanalyzer.h"
#include "core/canvas/zoneregistry.h"
#include "core/knowledge/shortcuts.h"
#include "core/model/frame.h"
#include "core/model/sessionclock.h"
#include "core/model/spatialevent.h"
#include "core/model/zonemap.h"
#include "platform/accessibility.h"

#include <QHash>
#include <QObject>
#include <QRegion>
#include <QSet>

#include <algorithm>
#include <memory>
#include <optional>

class QTimer;
namespace ciu {
class CorrectionStore;
class ShortcutStore;
class ZoneMemory;
} // namespace ciu
namespace ciu::platform {
class Platform;
}
namespace ciu::capture {
class WindowTracker;
}

namespace ciu::canvas {

class StoredCorrections;

// The canvas worker (the "analysis" thread): keeps the zone registry up to date from the capture
// engine's frames and Tier 0 changes, escalating to Tier 1 (local) or Tier 2 (a model) as the
// escalation policy decides, and publishes immutable ZoneMap snapshots. Every tier decision and every
// finished analysis is reported as a SpatialEvent (TierDecision, Analysis) so the log and the replay show
// why the map changed.
class CanvasMapper final : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        EscalationPolicy::Options escalation;
        ZoneRegistry::Options registry;
        LocalAnalyzer::Options local;
        double minActionConfidence = 0.5; // zones below this are shown but not acted on
        int graveyardSize = 400;          // removed zones kept for re-identification (menus closing)
        // Stored corrections (setCorrectionStore()): how often their files are looked at for changes.
        int correctionsCheckMs = 1000;
        // A tooltip names the unnamed zone under the cursor (LabelSource::Tooltip) only when a frame taken
        // this long after the cursor came to rest shows it: one shown sooner may still be the last zone's
        // (a program answers the move a little later; a tooltip already up changes at once).
        int tooltipRestMs = 300;
        // The session's clock. A map changed by the accessibility tree is stamped with the time its news
        // arrived, not with the last frame's (the screen may not have changed since, and the tree reports
        // between frames): what an action caused is not taken for what was there before it. Null: frames'
        // times only.
        std::shared_ptr<const SessionClock> clock;
    };

    explicit CanvasMapper(QObject* parent = nullptr);
    explicit CanvasMapper(Options options, QObject* parent = nullptr);
    ~CanvasMapper() override;

    // Its own connection to the display for the window list and the active window: a WindowTracker on
    // this thread, polled whenever the screen changed (for a mapper used without an engine). The engine
    // feeds onWindows() from its own tracker instead. Without either, onActiveWindowChanged() is the only
    // source of window changes.
    void setPlatform(std::unique_ptr<platform::Platform> platform);
    // The accessibility tree as the first zone source (taken over: a child, it moves with the mapper; it
    // must live on the mapper's thread). Its zones win label, type and state over vision's; a change that
    // lies on its zones needs no Tier 1. A null or unavailable backend: vision only.
    void setAccessibility(std::unique_ptr<platform::Accessibility> accessibility);
    const platform::Accessibility* accessibility() const { return m_accessibility; }
    // The zone memory (canvasmapper_memory.cpp): windows mapped before get their remembered zones at once
    // (marked remembered: isRemembered(), each confirmed by its pixels). A recall confirmed well
    // (ZoneMemory::match(): most zones confirmed, the window's image close to the remembered one) spares the
    // window the full analysis: only the parts that differ get a Tier 1 look. Otherwise the analysis follows
    // and confirms or drops them. Windows are remembered after full analyses. Null (the default): no memory.
    void setZoneMemory(std::unique_ptr<ZoneMemory> memory);
    struct MemoryStats
    {
        int recalls = 0;       // windows whose remembered layout was found
        int zonesRecalled = 0; // zones put on the map from memory
        int zonesDropped = 0;  // remembered zones whose pixels no longer matched
        int spared = 0;        // windows whose full analysis a recall confirmed well made unnecessary
        int remembers = 0;     // windows remembered (written or unchanged)
        int errors = 0;        // unreadable or corrupt memory files, failed writes
    };
    const MemoryStats& memoryStats() const { return m_memoryStats; }
    // App schemas (canvasmapper_filters.cpp): each program's named zones (its shipped schema and what `store`
    // learned, knownShortcuts()) name the zones at their places in the program's windows on every published
    // map, or are put on it (applySchemaZones(): below the user's corrections and the tree's names). Read
    // once per program. Null (the default): none.
    void setAppSchemas(std::unique_ptr<ShortcutStore> store);
    // The zone inspector's corrections as stored (canvasmapper_corrections.h), for a mapper no app pushes
    // them to (setUserZones(), setSuppressedRegions()): each program's corrections are applied
    // (applyCorrections()) to every published map at the place of the program's window that carries them
    // (its title matching their pattern): user zones with their stored ids, the detections they replace or
    // the user removed left out; above the schemas' and the tree's names. A file is read again when it
    // changed on disk (looked at every Options::correctionsCheckMs, and the map published again then); one
    // that does not load is reported (an Error event, component `corrections`) and not applied. Null (the
    // default): none.
    void setCorrectionStore(std::unique_ptr<CorrectionStore> store);
    // Tier 2 provider (not owned, same thread); null: offline, Tier 2 is a full-screen Tier 1.
    void setProvider(director::Provider* provider, const QString& model = {});

    ZoneMapPtr currentMap() const { return m_map; }
    const ZoneRegistry& registry() const { return m_registry; }
    double minActionConfidence() const { return m_options.minActionConfidence; }
    void setMinActionConfidence(double confidence);
    // Interactive zones the agent may act on (confidence at or above the minimum).
    static QList<const Zone*> actionableZones(const ZoneMap& map, double minConfidence);

public slots:
    void onFrame(const ciu::Frame& frame);
    void onChanges(const ciu::FrameDiff& diff);
    void onCursor(const ciu::CursorSample& sample);
    void onActiveWindowChanged(quint64 windowId);
    // The latest window list and active window (a WindowTracker's report): taken into account, as new
    // windows and application switches, with the next change of the screen.
    void onWindows(const QList<ciu::platform::WindowInfo>& windows,
                   const std::optional<ciu::platform::WindowInfo>& active);
    void requestFullAnalysis(const QString& reason);
    // A second look, as a verification asks before it concludes that nothing changed: the changes still
    // held back (too small to analyse before the screen is stable, or seen while animating) are analysed
    // now, and lookedAgain(token, map) ALWAYS follows, with the current map even when nothing changed.
    // Everything queued to the mapper before this call (the frame the caller had captured for it) has been
    // processed by then: the answer is evidence that the canvas caught up.
    void lookAgain(quint64 token);
    // A user's zone: added, or replacing the zone with the same id. Kept over detections.
    void applyUserCorrection(const ciu::Zone& zone);
    void removeZone(const QString& id);
    // Replaces every user zone with `zones`. Detections matching a user zone (IoU >= 0.5) are dropped
    // by every later analysis: a replaced detection does not come back beside its replacement.
    void setUserZones(const QList<ciu::Zone>& zones);
    // The agent's own windows (root coordinates; an empty list clears): zones centred there are not
    // published, changes entirely inside them escalate nothing, and their pixels are masked out of every
    // analysis (nothing there is detected or sent to a model).
    void setExcludedRegions(const QList<QRect>& rects);
    // Regions of detected zones the user deleted or replaced (root coordinates): detections matching one
    // (IoU >= 0.5) are dropped on every update.
    void setSuppressedRegions(const QList<QRect>& rects);
    // A new state of the accessibility tree (from the backend set with setAccessibility()).
    void onAccessibilitySnapshot(const ciu::platform::AccessibilitySnapshotPtr& snapshot,
                                 const QStringList& changedWindows);

signals:
    void zoneMapUpdated(const ciu::ZoneMapPtr& map);
    void eventOccurred(const ciu::SpatialEvent& event);
    void keyFrameAnalysed(const ciu::Frame& frame, int tier);
    // The answer to lookAgain(token): the map after it (published before, when it changed).
    void lookedAgain(quint64 token, const ciu::ZoneMapPtr& map);

private:
    void process(const FrameDiff& diff);
    void execute(const TierDecision& decision, const FrameDiff& diff);
    void runLocal(const TierDecision& decision, const QRect& region, bool full);
    void runFull(const TierDecision& decision);
    void onFullFinished(const FullAnalysisResult& result);
    void emitDecision(const TierDecision& decision, qint64 tNs);
    void publish();
    void bury(const QStringList& removedIds, const QHash<QString, Zone>& before);
    // An Error event of the frame being analysed: {component, message} and `extra`.
    void emitComponentError(const QString& component, const QString& message, QVariantMap extra = {});
    AnalysisHints hints(const TierDecision& decision) const;
    // Applies the latest window report: new windows into `context`, the active window.
    void takeWindows(EscalationPolicy::Context& context);
    // Drops the detections the user or the exclusions rule out (user zones themselves stay).
    QList<Zone> filterDetections(const QList<Zone>& zones) const;
    // Removes registry zones that the filter rules out now; true when any was removed.
    bool dropFilteredZones();
    bool isExcluded(const QRect& rect) const;
    // The registry's zones with the app schemas' named zones applied to the listed windows (nullopt: none
    // applies, the map is the registry's).
    std::optional<QList<Zone>> withSchemaZones(const QList<Zone>& zones);
    const QList<NamedZone>& schemaZones(const QString& program); // loaded once; empty on error
    // `zones` with the stored corrections applied to the listed windows (nullopt: none applies).
    std::optional<QList<Zone>> withStoredCorrections(const QList<Zone>& zones);
    void checkStoredCorrections(); // the files changed on disk: the map again
    FrameDiff withoutExcluded(const FrameDiff& diff) const;
    QImage maskedImage() const; // the current frame with the excluded regions filled
    qint64 nowNs() const { return m_frame.tNs; }
    // Accessibility (canvasmapper_a11y.cpp): the tree's zones fused into the registry; the changes the
    // tree explains taken out of a diff.
    void applyAccessibility(const QStringList& changedWindows);
    FrameDiff withoutExplained(const FrameDiff& diff) const;
    // Zone memory (canvasmapper_memory.cpp).
    void recallWindows(const QList<quint64>& windowIds, const QString& reason);
    void rememberWindows();
    // `decision` with the windows recalled well in this step taken out of a full analysis: a "recalled"
    // decision (tier 0) for them, a Tier 1 look at what differs in them, the full analysis of the rest.
    QList<TierDecision> sparedByMemory(const TierDecision& decision);
    const platform::WindowInfo* memoryWindow(quint64 id) const; // a window memory may use, or null
    bool covered(quint64 windowId) const; // another window (above it) overlaps it, or it is not listed
    void memoryError(const QString& program, const QString& message);
    // Tooltips (canvasmapper_tooltips.cpp): the text of a tooltip just analysed (its zones in `region`),
    // waiting to name the zone under the resting cursor; and that naming, with the frame of time `frameNs`
    // fully analysed. True: a zone was named.
    void noteTooltip(const QRect& box, const QList<Zone>& zones);
    bool nameFromTooltip(qint64 frameNs);
    // A tooltip still on the screen (its temporary zones) is no part of what an analysis under it finds:
    // detections it touches are dropped, and the zones it covers in `region` stay as they were.
    void keepUnderTooltips(const QRect& region, QList<Zone>& zones) const;
    // `vision` (zones of `region`) fused with the tree's zones there: what a vision pass stores.
    QList<Zone> withTreeZones(const QRect& region, const QList<Zone>& vision) const;

    Options m_options;
    ZoneRegistry m_registry;
    EscalationPolicy m_policy;
    LocalAnalyzer m_local;
    FullAnalyzer m_full;
    capture::WindowTracker* m_ownTracker = nullptr; // from setPlatform(); a child (moves with the mapper)

    Frame m_frame;
    qint64 m_treeNs = 0; // when the last accessibility snapshot arrived (Options::clock)
    // The time a published map is stamped with: its frame's, or the tree's news when newer.
    qint64 mapNs() const { return std::max(m_frame.tNs, m_treeNs); }
    ZoneMapPtr m_map;
    QList<FrameDiff> m_pendingDiffs; // diffs that arrived before their frame
    QList<QRect> m_waitRegions;      // changes seen while animating
    QList<QRect> m_deferred;         // changes below the threshold: analysed once the screen is stable
    std::optional<QPoint> m_cursor;
    qint64 m_cursorStillSinceNs = 0; // the cursor sample that first showed it where it is
    struct PendingTooltip
    {
        QString text;
        QRect region; // its lines of text
        QPoint cursor;
        QStringList unnamed; // the zones under the cursor that had no label when it showed
    };
    std::optional<PendingTooltip> m_tooltip; // noteTooltip()
    QString m_hoveredId;
    quint64 m_activeWindow = 0;
    bool m_activeWindowKnown = false;
    bool m_firstFrameAnalysed = false;
    bool m_activeWindowChanged = false;
    QHash<quint64, QRect> m_windows;
    QList<platform::WindowInfo> m_windowList;
    std::optional<QList<platform::WindowInfo>> m_reportedWindows; // the latest report (none yet: nullopt)
    std::optional<quint64> m_reportedActive;
    QList<QRect> m_excluded;
    QRegion m_excludedRegion;
    QList<QRect> m_suppressed;
    QHash<QString, Zone> m_graveyard;
    QStringList m_graveyardOrder;
    // Tier 2 requests in flight: the local zones of the same region and frame, merged with the model's.
    struct PendingFull
    {
        QList<Zone> localZones;
        qint64 tNs = 0;
        quint64 frameIndex = 0;
    };
    QHash<quint64, PendingFull> m_pendingFull;
    platform::Accessibility* m_accessibility = nullptr; // a child
    platform::AccessibilitySnapshotPtr m_a11ySnapshot;
    QHash<QString, QRegion> m_a11yRegions; // accessible window → the screen it shows
    QList<QRect> m_a11yExplained; // the tree's widgets (no containers): a change in one needs no vision
    QList<Zone> m_a11yZones;      // the tree's zones (stable ids), latest snapshot
    std::unique_ptr<ShortcutStore> m_schemaStore;
    QHash<QString, QList<NamedZone>> m_schemaZones; // program → its named zones
    std::unique_ptr<StoredCorrections> m_corrections;
    QTimer* m_correctionsTimer = nullptr; // a child: looks at the stored corrections' files
    ZoneMapPtr m_registryMap;             // the registry's snapshot the published map was made of
    // Published maps that changed with the schema zones or the stored corrections alone (not the registry).
    quint64 m_versionOffset = 0;
    std::unique_ptr<ZoneMemory> m_memory;
    MemoryStats m_memoryStats;
    QSet<QString> m_memoryErrorsReported;
    bool m_rememberedTree = false; // windows remembered once the tree's zones came
    struct RecalledWindow
    {
        QRect geometry;
        QList<QRect> changed; // root coordinates: what differs from the remembered window
    };
    QList<RecalledWindow> m_recalled; // recalled well in the current step (recallWindows() to its end)
};

} // namespace ciu::canvas
