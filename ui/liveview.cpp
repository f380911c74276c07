#include "ui/liveview.h"

#include "ui/keymapping.h"
#include "ui/zonestyle.h"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <cmath>

namespace ciu::ui {
namespace {

constexpr double kZoomStep = 1.25;
constexpr int kFlashDurationMs = 600;
constexpr int kFlashTickMs = 33;
constexpr int kMinDrawnSize = 3; // source pixels
constexpr qint64 kNsPerMs = 1'000'000;

int platformButton(Qt::MouseButton button)
{
    switch (button) {
    case Qt::LeftButton:
        return 1;
    case Qt::MiddleButton:
        return 2;
    case Qt::RightButton:
        return 3;
    default:
        return 0;
    }
}

} // namespace

LiveView::LiveView(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setAccessibleName(tr("Live view of the target display"));
    m_flashTimer.setInterval(kFlashTickMs);
    connect(&m_flashTimer, &QTimer::timeout, this, &LiveView::tickFlash);
    m_transform.setViewSize(size());
}

LiveView::~LiveView() = default;

void LiveView::setFrame(const Frame& frame)
{
    m_frame = frame;
    updateSourceRect();
    update();
}

void LiveView::setZoneMap(ZoneMapPtr map)
{
    m_map = std::move(map);
    m_zoneLayer.setZones(m_map ? m_map->zones() : QList<Zone>{});
    updateSourceRect();
    updateZoneRects();
    if (!m_selectedId.isEmpty() && m_selectionItem.rect().isNull() && !m_drag)
        m_selectedId.clear();
    update();
}

void LiveView::updateSourceRect()
{
    QRect source;
    if (m_frame.isValid())
        source = m_frame.rootRect();
    else if (m_map && !m_map->screenSize().isEmpty())
        source = QRect(QPoint(0, 0), m_map->screenSize());
    if (source != m_transform.sourceRect())
        m_transform.setSourceRect(source);
}

QRect LiveView::zoneBounds(const QString& zoneId) const
{
    if (zoneId.isEmpty() || !m_map)
        return {};
    const Zone* zone = m_map->find(zoneId);
    return zone ? zone->bounds : QRect();
}

void LiveView::updateZoneRects()
{
    m_targetItem.setRect(zoneBounds(m_targetId));
    const QRect eventRect = zoneBounds(m_eventZoneId);
    m_eventItem.setRect(!eventRect.isNull() || m_eventPoint.isNull()
                            ? eventRect
                            : QRect(m_eventPoint - QPoint(6, 6), QSize(13, 13)));
    if (!m_drag || m_drag->kind != DragKind::EditZone)
        m_selectionItem.setRect(zoneBounds(m_selectedId));
    if (!m_hoverId.isEmpty() && zoneBounds(m_hoverId).isNull()) {
        m_hoverId.clear();
        m_hoverLabel.setText({}, {});
    }
}

void LiveView::addCursorSample(const CursorSample& sample)
{
    if (!m_trail.empty() && sample.tNs < m_trail.back().tNs)
        m_trail.clear(); // a new session's clock
    m_trail.push_back(sample);
    rebuildTrail();
    update();
}

void LiveView::clearTrail()
{
    m_trail.clear();
    rebuildTrail();
    update();
}

void LiveView::setTrailWindowMs(int windowMs)
{
    m_trailWindowMs = std::max(100, windowMs);
    rebuildTrail();
    update();
}

void LiveView::rebuildTrail()
{
    if (m_trail.empty()) {
        m_trailItem.setPoints({});
        return;
    }
    const qint64 newest = m_trail.back().tNs;
    const qint64 windowNs = qint64(m_trailWindowMs) * kNsPerMs;
    while (m_trail.size() > 1 && newest - m_trail.front().tNs > windowNs)
        m_trail.pop_front();
    QList<QPointF> points;
    QList<double> ages;
    points.reserve(qsizetype(m_trail.size()));
    ages.reserve(qsizetype(m_trail.size()));
    for (const CursorSample& s : m_trail) {
        if (!points.isEmpty() && points.constLast() == QPointF(s.pos) + QPointF(0.5, 0.5))
            continue;
        points << QPointF(s.pos) + QPointF(0.5, 0.5); // the pixel's centre
        ages << double(newest - s.tNs) / double(windowNs);
    }
    m_trailItem.setPoints(std::move(points), std::move(ages));
}

void LiveView::setPlannedTrajectory(const QList<QPoint>& points, const QString& zoneId)
{
    QList<QPointF> path;
    path.reserve(points.size());
    for (const QPoint& p : points)
        path << QPointF(p) + QPointF(0.5, 0.5);
    m_plannedItem.setPoints(std::move(path));
    setTargetZone(zoneId);
}

void LiveView::clearPlannedTrajectory()
{
    m_plannedItem.setPoints({});
    setTargetZone({});
}

void LiveView::setTargetZone(const QString& zoneId)
{
    m_targetId = zoneId;
    m_targetItem.setRect(zoneBounds(zoneId));
    update();
}

void LiveView::showChanges(const FrameDiff& diff)
{
    if (!m_flashEnabled || diff.cursorOnly || diff.regions.isEmpty())
        return;
    QList<QRect> rects;
    rects.reserve(diff.regions.size());
    for (const ChangeRegion& region : diff.regions)
        rects << region.rect;
    m_flashItem.setRegions(std::move(rects));
    m_flashItem.setOpacity(1.0);
    m_flashClock.start();
    m_flashTimer.start();
    update();
}

void LiveView::tickFlash()
{
    const double opacity = 1.0 - double(m_flashClock.elapsed()) / kFlashDurationMs;
    const QRectF dirty = m_flashItem.boundingRect(m_transform);
    m_flashItem.setOpacity(std::max(0.0, opacity));
    if (opacity <= 0)
        m_flashTimer.stop();
    update(dirty.toAlignedRect());
}

void LiveView::setFlashChanges(bool enabled)
{
    m_flashEnabled = enabled;
    if (!enabled) {
        m_flashTimer.stop();
        m_flashItem.setOpacity(0);
        update();
    }
}

void LiveView::setZonesVisible(bool visible)
{
    m_zoneLayer.setVisible(visible);
    update();
}

void LiveView::setTrailVisible(bool visible)
{
    m_trailItem.setVisible(visible);
    m_plannedItem.setVisible(visible);
    update();
}

void LiveView::highlightEvent(const QString& zoneId, QPoint point)
{
    m_eventZoneId = zoneId;
    m_eventPoint = point;
    updateZoneRects();
    update();
}

void LiveView::setSelectedZone(const QString& zoneId)
{
    if (zoneId == m_selectedId)
        return;
    m_selectedId = zoneId;
    m_drag.reset();
    m_selectionItem.setRect(zoneBounds(zoneId));
    update();
}

void LiveView::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    m_drag.reset();
    setCursor(mode == Mode::Draw       ? Qt::CrossCursor
              : mode == Mode::Takeover ? Qt::BlankCursor
                                       : Qt::ArrowCursor);
    if (mode == Mode::Takeover) {
        m_hoverId.clear();
        m_hoverLabel.setText({}, {});
        setFocus(Qt::OtherFocusReason);
    }
    update();
    emit modeChanged(mode);
}

void LiveView::zoomIn()
{
    applyZoom(kZoomStep, QPointF(width() / 2.0, height() / 2.0));
}

void LiveView::zoomOut()
{
    applyZoom(1.0 / kZoomStep, QPointF(width() / 2.0, height() / 2.0));
}

void LiveView::zoomToFit()
{
    m_transform.reset();
    update();
    emit zoomChanged(m_transform.zoom());
}

void LiveView::setZoom(double zoom)
{
    m_transform.setZoom(zoom);
    update();
    emit zoomChanged(m_transform.zoom());
}

void LiveView::applyZoom(double factor, QPointF anchor)
{
    const double before = m_transform.zoom();
    m_transform.zoomAt(factor, anchor);
    if (m_transform.zoom() != before) {
        update();
        emit zoomChanged(m_transform.zoom());
    }
}

void LiveView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_transform.setViewSize(size());
}

void LiveView::paintEvent(QPaintEvent* event)
{
    QPainter painter(this);
    painter.fillRect(event->rect(), palette().color(QPalette::Dark));
    if (!m_transform.isValid()) {
        painter.setPen(palette().color(QPalette::BrightText));
        painter.drawText(rect(), Qt::AlignCenter, tr("Waiting for the target display…"));
        return;
    }
    if (m_frame.isValid()) {
        painter.save();
        painter.setRenderHint(QPainter::SmoothPixmapTransform, m_transform.scale() < 1.0);
        painter.setTransform(m_transform.transform());
        painter.drawImage(m_frame.origin, m_frame.image);
        painter.restore();
    }
    painter.setRenderHint(QPainter::Antialiasing, false);
    const OverlayItem* items[] = {&m_zoneLayer, &m_flashItem, &m_targetItem, &m_eventItem, &m_selectionItem};
    for (const OverlayItem* item : items) {
        if (item->isVisible() && event->rect().intersects(item->boundingRect(m_transform).toAlignedRect()))
            item->paint(painter, m_transform);
    }
    if (m_drag && (m_drag->kind == DragKind::EditZone || m_drag->kind == DragKind::DrawZone))
        m_previewItem.paint(painter, m_transform);
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const OverlayItem* item :
         {static_cast<const OverlayItem*>(&m_trailItem), static_cast<const OverlayItem*>(&m_plannedItem),
          static_cast<const OverlayItem*>(&m_hoverLabel)}) {
        if (item->isVisible())
            item->paint(painter, m_transform);
    }
    if (m_mode == Mode::Takeover) {
        painter.setPen(QPen(QColor(0xf4, 0x43, 0x36), 4));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(rect().adjusted(2, 2, -2, -2));
    }
}

void LiveView::updateHover(QPointF viewPos)
{
    QString id;
    const Zone* zone = nullptr;
    if (m_map && m_mode != Mode::Takeover && m_zoneLayer.isVisible()) {
        zone = m_map->zoneAt(m_transform.sourcePixel(viewPos));
        if (zone)
            id = zone->id;
    }
    if (id == m_hoverId)
        return;
    m_hoverId = id;
    if (zone) {
        const QString label =
            zone->label.isEmpty() ? QString() : QStringLiteral(" “%1”").arg(zone->label.left(60));
        m_hoverLabel.setText(tr("%1%2 · %3 % · %4")
                                 .arg(zoneTypeDisplayName(zone->type), label)
                                 .arg(qRound(zone->confidence * 100))
                                 .arg(zone->id),
                             zone->bounds, neighbours(zone->bounds));
    } else {
        m_hoverLabel.setText({}, {});
    }
    update();
}

QList<QRect> LiveView::neighbours(const QRect& bounds) const
{
    // The zones a label next to `bounds` could cover: those within a label's height or so around it.
    const int margin = std::max(bounds.height(), 24);
    const QRect around = bounds.adjusted(-4 * margin, -margin, 4 * margin, margin);
    QList<QRect> rects;
    for (const Zone& z : m_map->zones()) {
        if (z.bounds != bounds && z.bounds.intersects(around) && !z.bounds.contains(bounds))
            rects << z.bounds;
    }
    return rects;
}

void LiveView::leaveEvent(QEvent* event)
{
    QWidget::leaveEvent(event);
    if (!m_hoverId.isEmpty()) {
        m_hoverId.clear();
        m_hoverLabel.setText({}, {});
        update();
    }
}

void LiveView::mousePressEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if (!m_transform.isValid())
        return;
    if (m_mode == Mode::Takeover) {
        if (const int button = platformButton(event->button())) {
            emit pointerForwarded(m_transform.sourcePixel(pos));
            emit buttonForwarded(button, true);
        }
        return;
    }
    Drag drag;
    drag.startView = drag.lastView = pos;
    if (event->button() == Qt::MiddleButton || event->button() == Qt::RightButton) {
        drag.kind = DragKind::Pan;
    } else if (event->button() != Qt::LeftButton) {
        return;
    } else if (m_mode == Mode::Draw) {
        drag.kind = DragKind::DrawZone;
        drag.originalBounds = QRect(m_transform.sourcePixel(pos), QSize(1, 1));
        drag.currentBounds = drag.originalBounds;
    } else if (auto handle = m_selectionItem.handleAt(pos, m_transform)) {
        drag.kind = DragKind::EditZone;
        drag.handle = handle;
        drag.originalBounds = drag.currentBounds = m_selectionItem.rect();
    } else {
        const Zone* zone =
            m_map && m_zoneLayer.isVisible() ? m_map->zoneAt(m_transform.sourcePixel(pos)) : nullptr;
        const QString id = zone ? zone->id : QString();
        if (id != m_selectedId) {
            setSelectedZone(id);
            emit zoneSelected(id);
        }
        if (zone) {
            drag.kind = DragKind::EditZone;
            drag.handle = SelectionItem::Handle::Move;
            drag.originalBounds = drag.currentBounds = zone->bounds;
        } else {
            drag.kind = DragKind::Pan;
        }
    }
    m_drag = drag;
}

void LiveView::mouseMoveEvent(QMouseEvent* event)
{
    const QPointF pos = event->position();
    if (m_mode == Mode::Takeover) {
        if (m_transform.isValid() && m_transform.imageRect().contains(pos))
            emit pointerForwarded(m_transform.sourcePixel(pos));
        return;
    }
    if (!m_drag) {
        updateHover(pos);
        if (m_mode == Mode::Inspect) {
            const auto handle = m_selectionItem.handleAt(pos, m_transform);
            using H = SelectionItem::Handle;
            Qt::CursorShape shape = Qt::ArrowCursor;
            if (handle == H::TopLeft || handle == H::BottomRight)
                shape = Qt::SizeFDiagCursor;
            else if (handle == H::TopRight || handle == H::BottomLeft)
                shape = Qt::SizeBDiagCursor;
            else if (handle == H::Left || handle == H::Right)
                shape = Qt::SizeHorCursor;
            else if (handle == H::Top || handle == H::Bottom)
                shape = Qt::SizeVerCursor;
            else if (handle == H::Move)
                shape = Qt::SizeAllCursor;
            setCursor(shape);
        }
        return;
    }
    Drag& drag = *m_drag;
    switch (drag.kind) {
    case DragKind::Pan:
        m_transform.panBy(pos - drag.lastView);
        break;
    case DragKind::EditZone: {
        const QPointF deltaSource = (pos - drag.startView) / m_transform.scale();
        drag.currentBounds = SelectionItem::dragged(drag.originalBounds, *drag.handle,
                                                    QPoint(qRound(deltaSource.x()), qRound(deltaSource.y())));
        m_previewItem.setRect(drag.currentBounds);
        m_selectionItem.setRect(drag.currentBounds);
        break;
    }
    case DragKind::DrawZone: {
        const QPoint a = m_transform.sourcePixel(drag.startView);
        const QPoint b = m_transform.sourcePixel(pos);
        drag.currentBounds = QRect(a, b).normalized();
        m_previewItem.setRect(drag.currentBounds);
        break;
    }
    }
    drag.lastView = pos;
    update();
}

void LiveView::mouseReleaseEvent(QMouseEvent* event)
{
    if (m_mode == Mode::Takeover) {
        if (const int button = platformButton(event->button()))
            emit buttonForwarded(button, false);
        return;
    }
    if (!m_drag)
        return;
    const Drag drag = *m_drag;
    m_drag.reset();
    if (drag.kind == DragKind::EditZone && drag.currentBounds != drag.originalBounds &&
        !m_selectedId.isEmpty()) {
        emit zoneGeometryEdited(m_selectedId, drag.currentBounds);
    } else if (drag.kind == DragKind::DrawZone) {
        if (drag.currentBounds.width() >= kMinDrawnSize && drag.currentBounds.height() >= kMinDrawnSize)
            emit zoneDrawn(drag.currentBounds);
        setMode(Mode::Inspect);
    }
    m_selectionItem.setRect(zoneBounds(m_selectedId));
    update();
}

void LiveView::wheelEvent(QWheelEvent* event)
{
    const int delta = event->angleDelta().y() != 0 ? event->angleDelta().y() : event->angleDelta().x();
    if (m_mode == Mode::Takeover && !(event->modifiers() & Qt::ControlModifier)) {
        if (delta == 0)
            return;
        const bool horizontal = event->angleDelta().y() == 0;
        // platform::ScrollDirection: Up 1, Down 2, Left 3, Right 4.
        const int direction = horizontal ? (delta > 0 ? 3 : 4) : (delta > 0 ? 1 : 2);
        emit pointerForwarded(m_transform.sourcePixel(event->position()));
        emit wheelForwarded(direction);
        return;
    }
    if (delta == 0)
        return;
    applyZoom(std::pow(kZoomStep, delta / 120.0), event->position());
    event->accept();
}

void LiveView::keyPressEvent(QKeyEvent* event)
{
    if (m_mode == Mode::Takeover) {
        if (const quint32 keysym = keysymForKey(event->key(), event->text(), event->nativeVirtualKey()))
            emit keyForwarded(keysym, true);
        return;
    }
    if (event->key() == Qt::Key_Escape && m_mode == Mode::Draw) {
        setMode(Mode::Inspect);
        return;
    }
    if (event->key() == Qt::Key_Escape && m_drag) {
        m_drag.reset();
        m_selectionItem.setRect(zoneBounds(m_selectedId));
        update();
        return;
    }
    QWidget::keyPressEvent(event);
}

void LiveView::keyReleaseEvent(QKeyEvent* event)
{
    if (m_mode == Mode::Takeover) {
        if (event->isAutoRepeat())
            return;
        if (const quint32 keysym = keysymForKey(event->key(), event->text(), event->nativeVirtualKey()))
            emit keyForwarded(keysym, false);
        return;
    }
    QWidget::keyReleaseEvent(event);
}

bool LiveView::focusNextPrevChild(bool next)
{
    // Tab belongs to the target display while taking over.
    if (m_mode == Mode::Takeover)
        return false;
    return QWidget::focusNextPrevChild(next);
}

} // namespace ciu::ui
