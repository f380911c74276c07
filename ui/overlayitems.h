#pragma once

#include "core/model/zone.h"
#include "ui/viewtransform.h"

#include <QColor>
#include <QFont>
#include <QList>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QString>

#include <optional>
#include <vector>

class QPainter;

namespace ciu::ui {

// One thing drawn over the live screen. Items hold source (root) coordinates and are painted in view
// coordinates through a ViewTransform, so line widths and labels keep their size at any zoom.
// paint() draws the item's current state and nothing else; boundingRect() is in view coordinates
// and covers everything paint() touches.
class OverlayItem
{
public:
    virtual ~OverlayItem() = default;
    virtual void paint(QPainter& painter, const ViewTransform& transform) const = 0;
    virtual QRectF boundingRect(const ViewTransform& transform) const = 0;

    bool isVisible() const { return m_visible; }
    void setVisible(bool visible) { m_visible = visible; }

private:
    bool m_visible = true;
};

// One zone: a translucent rectangle in its type's colour, opacity by confidence.
class ZoneItem final : public OverlayItem
{
public:
    explicit ZoneItem(Zone zone);
    const Zone& zone() const { return m_zone; }
    QColor fillColor() const { return m_fill; }
    QColor outlineColor() const { return m_outline; }
    void paint(QPainter& painter, const ViewTransform& transform) const override;
    QRectF boundingRect(const ViewTransform& transform) const override;

private:
    Zone m_zone;
    QColor m_fill;
    QColor m_outline;
};

// A tooltip-like label of a zone ("Button “OK” · 92 %"), above the zone or below it when there is no
// room.
class LabelItem final : public OverlayItem
{
public:
    // Below this view scale the label is not drawn (the status line still names the zone).
    static constexpr double kMinScale = 0.25;

    LabelItem();
    // `neighbours`: zones near the anchor (source coordinates) the label should not cover; it goes above,
    // below, right or left of the anchor, the first place inside the view that hides none of them.
    void setText(const QString& text, const QRect& anchorSource, const QList<QRect>& neighbours = {});
    QString text() const { return m_text; }
    void paint(QPainter& painter, const ViewTransform& transform) const override;
    QRectF boundingRect(const ViewTransform& transform) const override;

private:
    QRectF boxRect(const ViewTransform& transform) const;

    QString m_text;
    QRect m_anchor;
    QList<QRect> m_neighbours;
    QFont m_font;
};

// A polyline in source coordinates: the actual cursor trail (solid, older segments fainter) or the
// planned trajectory (dashed, with an end marker).
class PathItem final : public OverlayItem
{
public:
    enum class Style : quint8
    {
        Trail = 1,
        Planned
    };
    explicit PathItem(Style style);
    // `ages` (0 newest … 1 oldest) per point, used by the trail; may be empty.
    void setPoints(QList<QPointF> points, QList<double> ages = {});
    const QList<QPointF>& points() const { return m_points; }
    Style style() const { return m_style; }
    void paint(QPainter& painter, const ViewTransform& transform) const override;
    QRectF boundingRect(const ViewTransform& transform) const override;

private:
    Style m_style;
    QList<QPointF> m_points;
    QList<double> m_ages;
};

// A frame around one rectangle: the pending action's target zone or the zone of a selected event.
class HighlightItem final : public OverlayItem
{
public:
    enum class Style : quint8
    {
        Target = 1,
        Event
    };
    explicit HighlightItem(Style style);
    void setRect(const QRect& sourceRect) { m_rect = sourceRect; }
    QRect rect() const { return m_rect; }
    void paint(QPainter& painter, const ViewTransform& transform) const override;
    QRectF boundingRect(const ViewTransform& transform) const override;

private:
    Style m_style;
    QRect m_rect;
};

// Tier 0 changed regions, flashed: the owner lowers the opacity over time.
class FlashItem final : public OverlayItem
{
public:
    void setRegions(QList<QRect> sourceRects) { m_rects = std::move(sourceRects); }
    const QList<QRect>& regions() const { return m_rects; }
    void setOpacity(double opacity) { m_opacity = opacity; }
    double opacity() const { return m_opacity; }
    void paint(QPainter& painter, const ViewTransform& transform) const override;
    QRectF boundingRect(const ViewTransform& transform) const override;

private:
    QList<QRect> m_rects;
    double m_opacity = 0;
};

// The selected zone in the inspector: outline plus eight resize handles.
class SelectionItem final : public OverlayItem
{
public:
    enum class Handle : quint8
    {
        Move = 1,
        TopLeft,
        Top,
        TopRight,
        Right,
        BottomRight,
        Bottom,
        BottomLeft,
        Left
    };
    static constexpr double kHandleSize = 6.0; // view pixels; drawn just outside the rectangle

    void setRect(const QRect& sourceRect) { m_rect = sourceRect; }
    QRect rect() const { return m_rect; }
    void paint(QPainter& painter, const ViewTransform& transform) const override;
    QRectF boundingRect(const ViewTransform& transform) const override;

    // The handle (or the inside, Move) under a view point.
    std::optional<Handle> handleAt(QPointF viewPoint, const ViewTransform& transform) const;
    // Every handle's square in view coordinates.
    static QList<std::pair<Handle, QRectF>> handleRects(const QRectF& viewRect);
    // The rectangle after dragging `handle` by `delta` source pixels; never smaller than 1×1.
    static QRect dragged(const QRect& rect, Handle handle, QPoint delta);

private:
    QRect m_rect;
};

// All zones of a map, rebuilt when the map changes (never per paint).
class ZoneLayer final : public OverlayItem
{
public:
    void setZones(const QList<Zone>& zones);
    const std::vector<ZoneItem>& items() const { return m_items; }
    // A zone that is not drawn (the one being moved or resized is drawn as a preview instead).
    void setHiddenZone(const QString& id) { m_hiddenId = id; }
    void paint(QPainter& painter, const ViewTransform& transform) const override;
    QRectF boundingRect(const ViewTransform& transform) const override;

private:
    std::vector<ZoneItem> m_items;
    QString m_hiddenId;
};

} // namespace ciu::ui
