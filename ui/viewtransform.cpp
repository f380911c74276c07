#include "ui/viewtransform.h"

#include <algorithm>
#include <cmath>

namespace ciu::ui {

ViewTransform::ViewTransform(const QRect& sourceRect, QSize viewSize)
    : m_source(sourceRect)
    , m_view(viewSize)
{
}

void ViewTransform::setSourceRect(const QRect& sourceRect)
{
    m_source = sourceRect;
}

void ViewTransform::setViewSize(QSize viewSize)
{
    m_view = viewSize;
}

void ViewTransform::setZoom(double zoom)
{
    if (!std::isfinite(zoom))
        return;
    m_zoom = std::clamp(zoom, kMinZoom, kMaxZoom);
}

void ViewTransform::zoomAt(double factor, QPointF viewAnchor)
{
    if (!isValid() || !std::isfinite(factor) || factor <= 0)
        return;
    const QPointF anchorSource = toSource(viewAnchor);
    setZoom(m_zoom * factor);
    // Move the pan so the anchor's source point is under the anchor again.
    m_pan += viewAnchor - toView(anchorSource);
}

void ViewTransform::reset()
{
    m_zoom = 1.0;
    m_pan = {};
}

double ViewTransform::fitScale() const
{
    if (!isValid())
        return 1.0;
    return std::min(double(m_view.width()) / m_source.width(), double(m_view.height()) / m_source.height());
}

double ViewTransform::scale() const
{
    return fitScale() * m_zoom;
}

QPointF ViewTransform::offset() const
{
    const double s = scale();
    const QPointF centred((m_view.width() - m_source.width() * s) / 2.0,
                          (m_view.height() - m_source.height() * s) / 2.0);
    return centred + m_pan;
}

QPointF ViewTransform::toView(QPointF sourcePoint) const
{
    const double s = scale();
    return offset() + (sourcePoint - QPointF(m_source.topLeft())) * s;
}

QRectF ViewTransform::toView(const QRectF& sourceRect) const
{
    return QRectF(toView(sourceRect.topLeft()), toView(sourceRect.bottomRight())).normalized();
}

QPointF ViewTransform::toSource(QPointF viewPoint) const
{
    const double s = scale();
    return (viewPoint - offset()) / s + QPointF(m_source.topLeft());
}

QRectF ViewTransform::toSource(const QRectF& viewRect) const
{
    return QRectF(toSource(viewRect.topLeft()), toSource(viewRect.bottomRight())).normalized();
}

QPoint ViewTransform::sourcePixel(QPointF viewPoint) const
{
    const QPointF p = toSource(viewPoint);
    return {int(std::floor(p.x())), int(std::floor(p.y()))};
}

QTransform ViewTransform::transform() const
{
    const double s = scale();
    const QPointF o = offset() - QPointF(m_source.topLeft()) * s;
    return QTransform(s, 0, 0, s, o.x(), o.y());
}

} // namespace ciu::ui
