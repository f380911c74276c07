#pragma once

#include <QPointF>
#include <QRect>
#include <QRectF>
#include <QSize>
#include <QTransform>

namespace ciu::ui {

// The mapping between the target display's root coordinates ("source") and a view's widget
// coordinates, with zoom and pan. At zoom 1 and no pan the source rectangle is scaled to fit the view
// (keeping its aspect ratio) and centred. Pure value class: no widgets, cheap to copy.
class ViewTransform
{
public:
    static constexpr double kMinZoom = 0.25;
    static constexpr double kMaxZoom = 32.0;

    ViewTransform() = default;
    ViewTransform(const QRect& sourceRect, QSize viewSize);

    void setSourceRect(const QRect& sourceRect);
    void setViewSize(QSize viewSize);
    QRect sourceRect() const { return m_source; }
    QSize viewSize() const { return m_view; }
    bool isValid() const { return !m_source.isEmpty() && !m_view.isEmpty(); }

    // Zoom relative to "fit"; clamped to [kMinZoom, kMaxZoom].
    double zoom() const { return m_zoom; }
    void setZoom(double zoom);
    // Multiplies the zoom, keeping the source point under `viewAnchor` where it is.
    void zoomAt(double factor, QPointF viewAnchor);
    // Pan offset in widget pixels from the centred position.
    QPointF pan() const { return m_pan; }
    void setPan(QPointF pan) { m_pan = pan; }
    void panBy(QPointF delta) { m_pan += delta; }
    // Back to fit: zoom 1, no pan.
    void reset();

    // Widget pixels per source pixel.
    double scale() const;
    double fitScale() const;

    QPointF toView(QPointF sourcePoint) const;
    QRectF toView(const QRectF& sourceRect) const;
    QPointF toSource(QPointF viewPoint) const;
    QRectF toSource(const QRectF& viewRect) const;
    // The source pixel under a view point (rounded down), for hit tests and input forwarding.
    QPoint sourcePixel(QPointF viewPoint) const;
    // Where the whole source rectangle lands in the view.
    QRectF imageRect() const { return toView(QRectF(m_source)); }
    // Source → view as a QTransform (for QPainter::setTransform).
    QTransform transform() const;

    bool operator==(const ViewTransform&) const = default;

private:
    QPointF offset() const;

    QRect m_source;
    QSize m_view;
    double m_zoom = 1.0;
    QPointF m_pan;
};

} // namespace ciu::ui
