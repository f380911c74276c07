#pragma once

#include "core/model/frame.h"
#include "core/model/zonemap.h"
#include "ui/overlayitems.h"
#include "ui/viewtransform.h"

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>

#include <deque>
#include <optional>

namespace ciu::ui {

// The live screen of the target display with the zone overlay, the cursor trail, the planned
// trajectory, the pending action's target, flashed Tier 0 changes and the inspector's selection.
// Takes values through its slots (from the engine's queued signals, or from tests) and paints only the
// state they leave behind.
class LiveView final : public QWidget
{
    Q_OBJECT
public:
    enum class Mode : quint8
    {
        Inspect = 1, // click selects a zone, drag moves/resizes the selection or pans
        Draw,        // drag draws a new zone
        Takeover,    // mouse and keyboard go to the target display
    };
    Q_ENUM(Mode)

    explicit LiveView(QWidget* parent = nullptr);
    ~LiveView() override;

    const ViewTransform& viewTransform() const { return m_transform; }
    Mode mode() const { return m_mode; }
    ZoneMapPtr zoneMap() const { return m_map; }
    QString selectedZone() const { return m_selectedId; }
    QString hoveredZone() const { return m_hoverId; }
    QString targetZone() const { return m_targetId; }
    const Frame& frame() const { return m_frame; }
    int trailWindowMs() const { return m_trailWindowMs; }
    // The overlay items, for tests and for the replay viewer's reuse.
    const ZoneLayer& zoneLayer() const { return m_zoneLayer; }
    const PathItem& trailItem() const { return m_trailItem; }
    const PathItem& plannedItem() const { return m_plannedItem; }
    const HighlightItem& targetItem() const { return m_targetItem; }
    const HighlightItem& eventItem() const { return m_eventItem; }
    const FlashItem& flashItem() const { return m_flashItem; }
    const SelectionItem& selectionItem() const { return m_selectionItem; }
    const LabelItem& hoverLabel() const { return m_hoverLabel; }
    bool flashChangesEnabled() const { return m_flashEnabled; }

    QSize sizeHint() const override { return {960, 600}; }
    QSize minimumSizeHint() const override { return {160, 120}; }

public slots:
    void setFrame(const ciu::Frame& frame);
    void setZoneMap(ciu::ZoneMapPtr map);
    void addCursorSample(const ciu::CursorSample& sample);
    void clearTrail();
    void setTrailWindowMs(int windowMs);
    // The brush's planned path to a zone; the zone becomes the highlighted target.
    void setPlannedTrajectory(const QList<QPoint>& points, const QString& zoneId);
    void clearPlannedTrajectory();
    void setTargetZone(const QString& zoneId);
    void showChanges(const ciu::FrameDiff& diff);
    void setFlashChanges(bool enabled);
    void setZonesVisible(bool visible);
    void setTrailVisible(bool visible);
    // Highlights the zone of a selected log event (or the point when the zone is unknown).
    void highlightEvent(const QString& zoneId, QPoint point);
    void setSelectedZone(const QString& zoneId);
    void setMode(ciu::ui::LiveView::Mode mode);
    void zoomIn();
    void zoomOut();
    void zoomToFit();
    void setZoom(double zoom);

signals:
    void zoneSelected(const QString& zoneId); // empty: selection cleared
    void zoneGeometryEdited(const QString& zoneId, const QRect& bounds);
    void zoneDrawn(const QRect& bounds);
    void modeChanged(ciu::ui::LiveView::Mode mode);
    void zoomChanged(double zoom);
    // Takeover: input for the target display, in root coordinates.
    void pointerForwarded(QPoint rootPos);
    void buttonForwarded(int button, bool down); // 1 left, 2 middle, 3 right
    void wheelForwarded(int direction);          // platform::ScrollDirection value
    void keyForwarded(quint32 keysym, bool down);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void keyReleaseEvent(QKeyEvent* event) override;
    void leaveEvent(QEvent* event) override;
    bool focusNextPrevChild(bool next) override;

private:
    enum class DragKind : quint8
    {
        Pan = 1,
        EditZone,
        DrawZone
    };
    struct Drag
    {
        DragKind kind = DragKind::Pan;
        QPointF startView;
        QPointF lastView;
        std::optional<SelectionItem::Handle> handle;
        QRect originalBounds;
        QRect currentBounds;
    };

    void updateSourceRect();
    void updateHover(QPointF viewPos);
    // The zones near `bounds` (source coordinates) a hover label must not cover.
    QList<QRect> neighbours(const QRect& bounds) const;
    void updateZoneRects();
    void rebuildTrail();
    void tickFlash();
    void applyZoom(double factor, QPointF anchor);
    QRect zoneBounds(const QString& zoneId) const;

    Frame m_frame;
    ZoneMapPtr m_map;
    ViewTransform m_transform;
    Mode m_mode = Mode::Inspect;

    ZoneLayer m_zoneLayer;
    PathItem m_trailItem{PathItem::Style::Trail};
    PathItem m_plannedItem{PathItem::Style::Planned};
    HighlightItem m_targetItem{HighlightItem::Style::Target};
    HighlightItem m_eventItem{HighlightItem::Style::Event};
    FlashItem m_flashItem;
    SelectionItem m_selectionItem;
    SelectionItem m_previewItem;
    LabelItem m_hoverLabel;

    std::deque<CursorSample> m_trail;
    int m_trailWindowMs = 3000;
    QString m_targetId;
    QString m_eventZoneId;
    QPoint m_eventPoint;
    QString m_selectedId;
    QString m_hoverId;
    std::optional<Drag> m_drag;

    bool m_flashEnabled = true;
    QTimer m_flashTimer;
    QElapsedTimer m_flashClock;
};

} // namespace ciu::ui
