#include "ui/replay/replayframeview.h"

#include <QPainter>

namespace ciu::ui {

ReplayFrameView::ReplayFrameView(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Recorded frame"));
}

QSize ReplayFrameView::sizeHint() const
{
    return {960, 600};
}

void ReplayFrameView::setFrame(const QImage& frame)
{
    m_frame = frame;
    update();
}

void ReplayFrameView::setOverlay(ZoneMapPtr map, QList<CursorSample> trail, qint64 tNs)
{
    m_map = std::move(map);
    m_trail = std::move(trail);
    m_tNs = tNs;
    update();
}

void ReplayFrameView::setScreenSize(QSize size)
{
    m_screenSize = size;
    update();
}

void ReplayFrameView::setPlaceholder(const QString& text)
{
    m_placeholder = text;
    update();
}

void ReplayFrameView::setOverlayOptions(const replay::OverlayOptions& options)
{
    m_options = options;
    update();
}

void ReplayFrameView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), QColor(0x20, 0x20, 0x20));
    const QSize source = !m_frame.isNull() ? m_frame.size() : m_screenSize;
    if (source.isEmpty()) {
        p.setPen(Qt::white);
        p.drawText(rect(), Qt::AlignCenter, m_placeholder.isEmpty() ? tr("No frame") : m_placeholder);
        return;
    }
    const double scale = qMin(double(width()) / source.width(), double(height()) / source.height());
    const QSizeF shown(source.width() * scale, source.height() * scale);
    const QPointF topLeft((width() - shown.width()) / 2, (height() - shown.height()) / 2);
    const QRectF target(topLeft, shown);
    if (!m_frame.isNull()) {
        p.setRenderHint(QPainter::SmoothPixmapTransform, scale < 1.0);
        p.drawImage(target, m_frame);
    } else {
        p.fillRect(target, QColor(0x40, 0x40, 0x40));
        p.setPen(Qt::white);
        p.drawText(target, Qt::AlignCenter, m_placeholder.isEmpty() ? tr("No video frame") : m_placeholder);
    }
    p.save();
    p.setClipRect(target);
    p.translate(topLeft);
    p.scale(scale, scale);
    replay::OverlayOptions options = m_options;
    options.lineScale = scale > 0 ? 1.0 / scale : 1.0;
    if (m_map)
        replay::paintZones(p, *m_map, options);
    replay::paintCursorTrail(p, m_trail, m_tNs, options);
    p.restore();
}

} // namespace ciu::ui
