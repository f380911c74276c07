#pragma once

#include "core/knowledge/correctionstore.h"
#include "core/model/zonemap.h"
#include "platform/types.h"

#include <QHash>
#include <QObject>
#include <QRect>
#include <QSet>

namespace ciu::ui {

// The zone inspector's document: the engine's latest zone map plus the user's corrections per
// application, and the effective map that results. Edits replace one application's CorrectionSet at a
// time (the undo commands keep the before and after sets); every change is saved to the store and
// announced with correctionsChanged() so the canvas mapper can apply it to its registry.
class ZoneCorrections final : public QObject
{
    Q_OBJECT
public:
    explicit ZoneCorrections(CorrectionStore store, QObject* parent = nullptr);

    ZoneMapPtr baseMap() const { return m_base; }
    ZoneMapPtr effectiveMap() const { return m_effective; }
    const Zone* zone(const QString& id) const;
    CorrectionSet corrections(const QString& application) const;
    // Every application's user zones in root coordinates (for CanvasMapper::setUserZones).
    QList<Zone> userZones() const;
    // Every application's deleted or replaced detections in root coordinates (for
    // CanvasMapper::setSuppressedRegions): a later analysis must not bring them back.
    QList<QRect> suppressedRegions() const;
    QStringList applications() const { return m_sets.keys(); }
    const CorrectionStore& store() const { return m_store; }

    // The application a zone's corrections belong to: its window class, else the active window's
    // class, else "desktop".
    QString applicationOf(const Zone& zone) const;
    // Top-left of the application's window in root coordinates ((0,0) when unknown): the topmost window of
    // its class (the active one first) whose title matches the corrections' title pattern.
    QPoint windowOrigin(const QString& application) const;
    // Whether a window carries the application's corrections now (one of its class, with a matching
    // title when the corrections have a title pattern). Corrections without such a window are not shown.
    bool isWindowPresent(const QString& application) const { return m_origins.contains(application); }
    // Narrows an application's corrections down to windows whose title matches `pattern` (wildcards;
    // empty: any title). False with *error for an invalid pattern (nothing changes).
    bool setTitlePattern(const QString& application, const QString& pattern, QString* error = nullptr);

    // The sets an edit would produce (nothing is changed).
    CorrectionSet withZoneAdded(const Zone& rootZone) const;
    CorrectionSet withZoneRemoved(const Zone& rootZone) const;
    // `edited` keeps the original's id when that is already a user zone, else gets `newId`.
    CorrectionSet withZoneReplaced(const Zone& original, Zone edited, const QString& newId) const;

    // Replaces one application's corrections, recomputes the effective map, saves and announces it.
    void setCorrections(const CorrectionSet& set);
    // Asks the views to select a zone (after an edit gave it a new id, or after undo).
    void requestSelection(const QString& zoneId) { emit selectionRequested(zoneId); }

public slots:
    void setBaseMap(ciu::ZoneMapPtr map);
    // Window classes and positions of the target display (for window-relative corrections).
    void setWindows(const QList<ciu::platform::WindowInfo>& windows);

signals:
    void effectiveMapChanged(ciu::ZoneMapPtr map);
    void correctionsChanged(const ciu::CorrectionSet& set);
    void userZonesChanged(const QList<ciu::Zone>& rootZones);
    void suppressedRegionsChanged(const QList<QRect>& rootRects);
    void errorOccurred(const QString& message);
    void selectionRequested(const QString& zoneId);

private:
    void ensureLoaded(const QString& application);
    // Recomputes which window carries each application's corrections; true when any moved or changed.
    bool refreshOrigins();
    // The sets whose window is present (the others are kept, not applied).
    bool isApplied(const QString& application) const;
    void recompute();
    // Tells the canvas the user zones and the suppressed regions (root coordinates) after a change.
    void announceUserZones();

    CorrectionStore m_store;
    ZoneMapPtr m_base;
    ZoneMapPtr m_effective;
    QHash<QString, CorrectionSet> m_sets;
    QSet<QString> m_loaded;
    QList<platform::WindowInfo> m_windows; // bottom first, as reported
    QHash<QString, QPoint> m_origins;      // application → its window's top-left
    QString m_activeApplication;
    quint64 m_version = 0;
};

} // namespace ciu::ui
