#include "ui/overlayitems.h"

#include "ui/zonestyle.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>

namespace ciu::ui {
namespace {

constexpr double kZonePen = 1.0;
constexpr double kHighlightPen = 3.0;
constexpr double kTrailPen = 2.5;
constexpr double kLabelPadding = 4.0;
constexpr double kLabelGap = 3.0;

QColor withAlpha(QColor color, double alpha)
{
    color.setAlphaF(float(std::clamp(alpha, 0.0, 1.0)));
    return color;
}

QRectF grown(const QRectF& r, double margin)
{
    return r.adjusted(-margin, -margin, margin, margin);
}

// Zone bounds are pixel rectangles: QRect(0,0,10,10) covers pixels 0..9, i.e. source [0,10).
QRectF pixelRect(const QRect& r)
{
    return QRectF(r.x(), r.y(), r.width(), r.height());
}

} // namespace

// ZoneItem

ZoneItem::ZoneItem(Zone zone)
    : m_zone(std::move(zone))
{
    const QColor base = zoneColor(m_zone.type);
    m_fill = withAlpha(base, zoneFillOpacity(m_zone.confidence));
    m_outline = withAlpha(base, zoneOutlineOpacity(m_zone.confidence));
}

void ZoneItem::paint(QPainter& painter, const ViewTransform& transform) const
{
    const QRectF r = transform.toView(pixelRect(m_zone.bounds));
    painter.setPen(
        QPen(m_outline, kZonePen, m_zone.source == ZoneSource::User ? Qt::DashLine : Qt::SolidLine));
    painter.setBrush(m_fill);
    painter.drawRect(r);
}

QRectF ZoneItem::boundingRect(const ViewTransform& transform) const
{
    return grown(transform.toView(pixelRect(m_zone.bounds)), kZonePen);
}

// ZoneLayer

void ZoneLayer::setZones(const QList<Zone>& zones)
{
    m_items.clear();
    m_items.reserve(size_t(zones.size()));
    for (const Zone& zone : zones)
        m_items.emplace_back(zone);
    // Large zones first so that smaller ones (usually children) stay visible on top.
    std::stable_sort(m_items.begin(), m_items.end(), [](const ZoneItem& a, const ZoneItem& b) {
        return qint64(a.zone().bounds.width()) * a.zone().bounds.height() >
               qint64(b.zone().bounds.width()) * b.zone().bounds.height();
    });
}

void ZoneLayer::paint(QPainter& painter, const ViewTransform& transform) const
{
    for (const ZoneItem& item : m_items) {
        if (item.zone().id != m_hiddenId)
            item.paint(painter, transform);
    }
}

QRectF ZoneLayer::boundingRect(const ViewTransform& transform) const
{
    QRectF r;
    for (const ZoneItem& item : m_items)
        r |= item.boundingRect(transform);
    return r;
}

// LabelItem

LabelItem::LabelItem()
{
    m_font.setPointSizeF(9);
}

void LabelItem::setText(const QString& text, const QRect& anchorSource, const QList<QRect>& neighbours)
{
    m_text = text;
    m_anchor = anchorSource;
    m_neighbours = neighbours;
}

QRectF LabelItem::boxRect(const ViewTransform& transform) const
{
    const QFontMetricsF metrics(m_font);
    const QSizeF size(metrics.horizontalAdvance(m_text) + 2 * kLabelPadding,
                      metrics.height() + 2 * kLabelPadding);
    const QRectF anchor = transform.toView(pixelRect(m_anchor));
    const QRectF view(QPointF(0, 0), QSizeF(transform.viewSize()));
    const double maxX = transform.viewSize().width() - size.width();
    const auto clampX = [maxX](double x) { return std::max(0.0, std::min(x, maxX)); };
    const QList<QRectF> candidates{
        QRectF(QPointF(clampX(anchor.left()), anchor.top() - kLabelGap - size.height()), size), // above
        QRectF(QPointF(clampX(anchor.left()), anchor.bottom() + kLabelGap), size),              // below
        QRectF(QPointF(anchor.right() + kLabelGap, anchor.center().y() - size.height() / 2), size),
        QRectF(QPointF(anchor.left() - kLabelGap - size.width(), anchor.center().y() - size.height() / 2),
               size),
    };
    const auto hides = [&](const QRectF& box) {
        return std::any_of(m_neighbours.cbegin(), m_neighbours.cend(), [&](const QRect& n) {
            return n != m_anchor && box.intersects(transform.toView(pixelRect(n)));
        });
    };
    for (const QRectF& box : candidates) {
        if (view.contains(box) && !hides(box))
            return box;
    }
    // Nowhere free: above if it fits, else below (as before neighbours were known).
    return view.contains(candidates.first()) || candidates.at(1).bottom() > view.bottom() ? candidates.first()
                                                                                          : candidates.at(1);
}

void LabelItem::paint(QPainter& painter, const ViewTransform& transform) const
{
    if (m_text.isEmpty() || transform.scale() < kMinScale)
        return;
    const QRectF box = boxRect(transform);
    painter.setPen(QPen(QColor(0, 0, 0, 160), 1));
    painter.setBrush(QColor(255, 255, 225, 235));
    painter.drawRoundedRect(box, 3, 3);
    painter.setFont(m_font);
    painter.setPen(Qt::black);
    painter.drawText(box.adjusted(kLabelPadding, kLabelPadding, -kLabelPadding, -kLabelPadding),
                     Qt::AlignLeft | Qt::AlignVCenter, m_text);
}

QRectF LabelItem::boundingRect(const ViewTransform& transform) const
{
    return m_text.isEmpty() || transform.scale() < kMinScale ? QRectF() : grown(boxRect(transform), 1);
}

// PathItem

PathItem::PathItem(Style style)
    : m_style(style)
{
}

void PathItem::setPoints(QList<QPointF> points, QList<double> ages)
{
    m_points = std::move(points);
    m_ages = std::move(ages);
}

void PathItem::paint(QPainter& painter, const ViewTransform& transform) const
{
    if (m_points.isEmpty())
        return;
    painter.setBrush(Qt::NoBrush);
    if (m_style == Style::Trail) {
        const QColor base(0xff, 0x57, 0x22);
        for (qsizetype i = 1; i < m_points.size(); ++i) {
            const double age = i < m_ages.size() ? m_ages.at(i) : 0.0;
            painter.setPen(
                QPen(withAlpha(base, 0.15 + 0.85 * (1.0 - age)), kTrailPen, Qt::SolidLine, Qt::RoundCap));
            painter.drawLine(transform.toView(m_points.at(i - 1)), transform.toView(m_points.at(i)));
        }
        painter.setPen(QPen(Qt::white, 1.5));
        painter.setBrush(base);
        painter.drawEllipse(transform.toView(m_points.constLast()), 4.0, 4.0);
        return;
    }
    const QColor planned(0x00, 0xe6, 0x76);
    QPolygonF polyline;
    polyline.reserve(m_points.size());
    for (const QPointF& p : m_points)
        polyline << transform.toView(p);
    painter.setPen(QPen(planned, 2.0, Qt::DashLine, Qt::RoundCap));
    painter.drawPolyline(polyline);
    painter.setPen(QPen(planned, 2.0));
    painter.drawEllipse(polyline.constLast(), 6.0, 6.0);
}

QRectF PathItem::boundingRect(const ViewTransform& transform) const
{
    if (m_points.isEmpty())
        return {};
    const QPointF first = transform.toView(m_points.first());
    double left = first.x(), right = first.x(), top = first.y(), bottom = first.y();
    for (const QPointF& p : m_points) {
        const QPointF v = transform.toView(p);
        left = std::min(left, v.x());
        right = std::max(right, v.x());
        top = std::min(top, v.y());
        bottom = std::max(bottom, v.y());
    }
    return grown(QRectF(QPointF(left, top), QPointF(right, bottom)), m_style == Style::Planned ? 8.0 : 6.0);
}

// HighlightItem

HighlightItem::HighlightItem(Style style)
    : m_style(style)
{
}

void HighlightItem::paint(QPainter& painter, const ViewTransform& transform) const
{
    if (m_rect.isEmpty())
        return;
    const QRectF r = grown(transform.toView(pixelRect(m_rect)), kHighlightPen / 2 + 1);
    const QColor color = m_style == Style::Target ? QColor(0xff, 0x98, 0x00) : QColor(0x00, 0xbc, 0xd4);
    painter.setBrush(m_style == Style::Target ? withAlpha(color, 0.18) : Qt::NoBrush);
    painter.setPen(QPen(color, kHighlightPen, m_style == Style::Target ? Qt::SolidLine : Qt::DashLine));
    painter.drawRect(r);
}

QRectF HighlightItem::boundingRect(const ViewTransform& transform) const
{
    if (m_rect.isEmpty())
        return {};
    return grown(transform.toView(pixelRect(m_rect)), kHighlightPen + 1);
}

// FlashItem

void FlashItem::paint(QPainter& painter, const ViewTransform& transform) const
{
    if (m_opacity <= 0)
        return;
    const QColor color(0xff, 0xeb, 0x3b);
    painter.setPen(QPen(withAlpha(color, m_opacity), 1.5));
    painter.setBrush(withAlpha(color, 0.35 * m_opacity));
    for (const QRect& r : m_rects)
        painter.drawRect(transform.toView(pixelRect(r)));
}

QRectF FlashItem::boundingRect(const ViewTransform& transform) const
{
    QRectF r;
    for (const QRect& rect : m_rects)
        r |= grown(transform.toView(pixelRect(rect)), 1.5);
    return r;
}

// SelectionItem

QList<std::pair<SelectionItem::Handle, QRectF>> SelectionItem::handleRects(const QRectF& viewRect)
{
    // Outside the rectangle, so the handles never hide the zone they resize.
    const double h = kHandleSize;
    auto square = [h](QPointF c) { return QRectF(c.x() - h / 2, c.y() - h / 2, h, h); };
    const QRectF r = grown(viewRect, h / 2 + 1);
    return {
        {Handle::TopLeft, square(r.topLeft())},
        {Handle::Top, square({r.center().x(), r.top()})},
        {Handle::TopRight, square(r.topRight())},
        {Handle::Right, square({r.right(), r.center().y()})},
        {Handle::BottomRight, square(r.bottomRight())},
        {Handle::Bottom, square({r.center().x(), r.bottom()})},
        {Handle::BottomLeft, square(r.bottomLeft())},
        {Handle::Left, square({r.left(), r.center().y()})},
    };
}

void SelectionItem::paint(QPainter& painter, const ViewTransform& transform) const
{
    if (m_rect.isEmpty())
        return;
    const QRectF r = transform.toView(pixelRect(m_rect));
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(Qt::white, 1.0, Qt::SolidLine));
    painter.drawRect(r);
    painter.setPen(QPen(Qt::black, 1.0, Qt::DashLine));
    painter.drawRect(r);
    painter.setPen(QPen(Qt::black, 1.0));
    painter.setBrush(Qt::white);
    for (const auto& [handle, square] : handleRects(r))
        painter.drawRect(square);
}

QRectF SelectionItem::boundingRect(const ViewTransform& transform) const
{
    if (m_rect.isEmpty())
        return {};
    return grown(transform.toView(pixelRect(m_rect)), kHandleSize + 2);
}

std::optional<SelectionItem::Handle> SelectionItem::handleAt(QPointF viewPoint,
                                                             const ViewTransform& transform) const
{
    if (m_rect.isEmpty())
        return std::nullopt;
    const QRectF r = transform.toView(pixelRect(m_rect));
    for (const auto& [handle, square] : handleRects(r)) {
        if (grown(square, 2).contains(viewPoint))
            return handle;
    }
    if (r.contains(viewPoint))
        return Handle::Move;
    return std::nullopt;
}

QRect SelectionItem::dragged(const QRect& rect, Handle handle, QPoint delta)
{
    int left = rect.left();
    int top = rect.top();
    int right = rect.x() + rect.width(); // exclusive edges
    int bottom = rect.y() + rect.height();
    switch (handle) {
    case Handle::Move:
        return rect.translated(delta);
    case Handle::TopLeft:
        left += delta.x();
        top += delta.y();
        break;
    case Handle::Top:
        top += delta.y();
        break;
    case Handle::TopRight:
        right += delta.x();
        top += delta.y();
        break;
    case Handle::Right:
        right += delta.x();
        break;
    case Handle::BottomRight:
        right += delta.x();
        bottom += delta.y();
        break;
    case Handle::Bottom:
        bottom += delta.y();
        break;
    case Handle::BottomLeft:
        left += delta.x();
        bottom += delta.y();
        break;
    case Handle::Left:
        left += delta.x();
        break;
    }
    if (left > right)
        std::swap(left, right);
    if (top > bottom)
        std::swap(top, bottom);
    return QRect(left, top, std::max(1, right - left), std::max(1, bottom - top));
}

} // namespace ciu::ui
