#include "core/replay/overlaypainter.h"

#include <QPainter>
#include <QPainterPath>

namespace ciu::replay {

QColor zoneColor(ZoneType type)
{
    switch (type) {
    case ZoneType::Button:
        return QColor(0x1e, 0x88, 0xe5);
    case ZoneType::TextField:
        return QColor(0x43, 0xa0, 0x47);
    case ZoneType::Link:
        return QColor(0x8e, 0x24, 0xaa);
    case ZoneType::Dropdown:
        return QColor(0xfb, 0x8c, 0x00);
    case ZoneType::CheckBox:
        return QColor(0x00, 0xac, 0xc1);
    case ZoneType::Slider:
        return QColor(0xd8, 0x1b, 0x60);
    case ZoneType::MenuItem:
        return QColor(0xf4, 0x51, 0x1e);
    case ZoneType::Tab:
        return QColor(0x5e, 0x35, 0xb1);
    case ZoneType::ScrollArea:
        return QColor(0x6d, 0x4c, 0x41);
    case ZoneType::Static:
        return QColor(0x75, 0x75, 0x75);
    }
    return Qt::gray;
}

void paintZones(QPainter& painter, const ZoneMap& map, const OverlayOptions& options)
{
    if (!options.zones)
        return;
    painter.save();
    QFont font = painter.font();
    font.setPixelSize(qMax(9, int(11 * options.lineScale)));
    painter.setFont(font);
    for (const Zone& z : map.zones()) {
        const QColor color = zoneColor(z.type);
        QColor fill = color;
        fill.setAlpha(z.isInteractive() ? 40 : 15);
        painter.fillRect(z.bounds, fill);
        QPen pen(color, 2.0 * options.lineScale);
        pen.setCosmetic(false);
        if (z.temporary)
            pen.setStyle(Qt::DashLine);
        painter.setPen(pen);
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(z.bounds);
        if (options.labels && !z.label.isEmpty() && z.bounds.width() > 24) {
            const QString text =
                painter.fontMetrics().elidedText(z.label, Qt::ElideRight, qMax(24, z.bounds.width()));
            const QRect textRect = painter.fontMetrics().boundingRect(text).adjusted(-2, 0, 2, 0);
            const QRect tag(z.bounds.topLeft() - QPoint(0, textRect.height()), textRect.size());
            painter.fillRect(tag, color);
            painter.setPen(Qt::white);
            painter.drawText(tag, Qt::AlignCenter, text);
        }
    }
    painter.restore();
}

void paintCursorTrail(QPainter& painter, const QList<CursorSample>& trail, qint64 tNs,
                      const OverlayOptions& options)
{
    if (trail.isEmpty())
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    if (options.trail && trail.size() > 1) {
        for (qsizetype i = 1; i < trail.size(); ++i) {
            const qint64 age = tNs - trail.at(i).tNs;
            const double fresh =
                options.trailWindowNs > 0 ? 1.0 - double(age) / double(options.trailWindowNs) : 1.0;
            QColor c(255, 64, 64);
            c.setAlphaF(qBound(0.1, fresh, 1.0));
            painter.setPen(QPen(c, 3.0 * options.lineScale, Qt::SolidLine, Qt::RoundCap));
            painter.drawLine(trail.at(i - 1).pos, trail.at(i).pos);
        }
    }
    const QPointF p = trail.last().pos;
    const double r = 7.0 * options.lineScale;
    painter.setPen(QPen(Qt::white, 2.0 * options.lineScale));
    painter.setBrush(QColor(255, 40, 40, 200));
    painter.drawEllipse(p, r, r);
    painter.restore();
}

} // namespace ciu::replay
