#include "ui/replay/timelinewidget.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

namespace ciu::ui {
namespace {
constexpr int kMargin = 12;
constexpr int kRulerHeight = 18;
constexpr int kSnapPixels = 4;
} // namespace

TimelineWidget::TimelineWidget(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_mapping.setMargins(kMargin, kMargin);
    m_mapping.setWidth(width());
    setAccessibleName(tr("Timeline"));
}

QSize TimelineWidget::sizeHint() const
{
    return {800, 64};
}

QSize TimelineWidget::minimumSizeHint() const
{
    return {200, 56};
}

QColor TimelineWidget::markerColor(replay::Marker::Kind kind)
{
    using K = replay::Marker::Kind;
    switch (kind) {
    case K::Click:
        return QColor(0x1e, 0x88, 0xe5);
    case K::Typing:
        return QColor(0x43, 0xa0, 0x47);
    case K::Analysis:
        return QColor(0x8e, 0x24, 0xaa);
    case K::ModelCall:
        return QColor(0xfb, 0x8c, 0x00);
    case K::Error:
        return QColor(0xd3, 0x2f, 0x2f);
    case K::Takeover:
        return QColor(0x00, 0x00, 0x00);
    case K::Action:
        return QColor(0x60, 0x7d, 0x8b);
    case K::Decision:
        return QColor(0xff, 0xb3, 0x00);
    }
    return Qt::gray;
}

void TimelineWidget::setDuration(qint64 durationNs)
{
    m_mapping.setDuration(durationNs);
    update();
}

void TimelineWidget::setMarkers(QList<replay::Marker> markers)
{
    m_markers = std::move(markers);
    update();
}

void TimelineWidget::setCurrentTime(qint64 tNs)
{
    m_currentNs = qBound<qint64>(0, tNs, m_mapping.durationNs());
    if (!m_dragging)
        m_mapping.ensureVisible(m_currentNs);
    update();
}

void TimelineWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_mapping.setWidth(width());
}

void TimelineWidget::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const int trackTop = kRulerHeight;
    const QRect track(kMargin, trackTop, m_mapping.trackWidth(), height() - trackTop - 4);
    p.fillRect(track, pal.color(QPalette::AlternateBase));

    // Ticks and labels.
    const qint64 spacing = m_mapping.tickSpacingNs(90);
    p.setPen(pal.color(QPalette::Mid));
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    p.setFont(small);
    for (qint64 t : m_mapping.ticks(90)) {
        const int x = qRound(m_mapping.timeToX(t));
        p.setPen(pal.color(QPalette::Mid));
        p.drawLine(x, trackTop - 4, x, height() - 4);
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRect(x + 3, 0, 120, kRulerHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   TimelineMapping::formatTime(t, spacing));
    }

    // Markers: a coloured bar each; kinds on separate lanes so they do not hide each other.
    const int lanes = 4;
    const int laneHeight = qMax(4, track.height() / lanes);
    for (const replay::Marker& m : std::as_const(m_markers)) {
        if (!m_mapping.isVisible(m.tNs))
            continue;
        const int x = qRound(m_mapping.timeToX(m.tNs));
        int lane = 0;
        switch (m.kind) {
        case replay::Marker::Kind::Click:
        case replay::Marker::Kind::Typing:
        case replay::Marker::Kind::Action:
            lane = 0;
            break;
        case replay::Marker::Kind::Analysis:
            lane = 1;
            break;
        case replay::Marker::Kind::ModelCall:
        case replay::Marker::Kind::Decision:
            lane = 2;
            break;
        case replay::Marker::Kind::Error:
        case replay::Marker::Kind::Takeover:
            lane = 3;
            break;
        }
        p.fillRect(QRect(x - 1, track.top() + lane * laneHeight + 1, 3, laneHeight - 2), markerColor(m.kind));
    }

    // Playhead.
    const int x = qRound(m_mapping.timeToX(m_currentNs));
    p.setPen(QPen(QColor(0xe5, 0x39, 0x35), 2));
    p.drawLine(x, 0, x, height());
    QPolygon head;
    head << QPoint(x - 5, 0) << QPoint(x + 5, 0) << QPoint(x, 7);
    p.setBrush(QColor(0xe5, 0x39, 0x35));
    p.drawPolygon(head);
    if (hasFocus()) {
        p.setPen(QPen(pal.color(QPalette::Highlight), 1, Qt::DotLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect().adjusted(0, 0, -1, -1));
    }
}

const replay::Marker* TimelineWidget::markerNear(double x) const
{
    const replay::Marker* best = nullptr;
    double bestDistance = kSnapPixels + 1;
    for (const replay::Marker& m : m_markers) {
        const double d = qAbs(m_mapping.timeToX(m.tNs) - x);
        if (d < bestDistance) {
            bestDistance = d;
            best = &m;
        }
    }
    return best;
}

qint64 TimelineWidget::timeForX(double x, bool snap) const
{
    if (snap) {
        if (const replay::Marker* m = markerNear(x))
            return m->tNs;
    }
    return m_mapping.xToTime(x);
}

void TimelineWidget::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_dragging = true;
    const qint64 t = timeForX(event->position().x(), true);
    m_currentNs = t;
    update();
    emit timeRequested(t);
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragging)
        return;
    const qint64 t = timeForX(event->position().x(), false);
    if (t == m_currentNs)
        return;
    m_currentNs = t;
    update();
    emit timeRequested(t);
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && m_dragging) {
        m_dragging = false;
        m_mapping.ensureVisible(m_currentNs);
        update();
    }
}

void TimelineWidget::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0)
        return;
    if (event->modifiers() & Qt::ShiftModifier) {
        m_mapping.setScrollNs(m_mapping.scrollNs() - qint64(steps * m_mapping.visibleDurationNs() / 10));
    } else {
        m_mapping.zoomAt(std::pow(1.25, steps), event->position().x());
    }
    update();
    event->accept();
}

bool TimelineWidget::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const replay::Marker* m = markerNear(help->pos().x())) {
            QToolTip::showText(
                help->globalPos(),
                QStringLiteral("%1 %2: %3")
                    .arg(TimelineMapping::formatTime(m->tNs, 1'000'000), replay::toString(m->kind), m->label),
                this);
        } else {
            QToolTip::showText(help->globalPos(),
                               TimelineMapping::formatTime(m_mapping.xToTime(help->pos().x()), 1'000'000),
                               this);
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace ciu::ui
