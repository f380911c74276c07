#pragma once

#include "core/replay/sessionreader.h"
#include "ui/replay/timelinemapping.h"

#include <QWidget>

namespace ciu::ui {

// The replay timeline: ticks, markers (clicks, typing, tier 2 analyses, model calls, errors, takeovers,
// actions, decisions) and the playhead. Click or drag to scrub (a click near a marker snaps to it); wheel
// zooms around the mouse, Shift+wheel scrolls.
class TimelineWidget final : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineWidget(QWidget* parent = nullptr);

    void setDuration(qint64 durationNs);
    void setMarkers(QList<replay::Marker> markers);
    void setCurrentTime(qint64 tNs);
    qint64 currentTime() const { return m_currentNs; }
    const QList<replay::Marker>& markers() const { return m_markers; }
    const TimelineMapping& mapping() const { return m_mapping; }

    static QColor markerColor(replay::Marker::Kind kind);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    // The user scrubbed or clicked: show this time.
    void timeRequested(qint64 tNs);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    bool event(QEvent* event) override;

private:
    qint64 timeForX(double x, bool snap) const;
    const replay::Marker* markerNear(double x) const;

    TimelineMapping m_mapping;
    QList<replay::Marker> m_markers;
    qint64 m_currentNs = 0;
    bool m_dragging = false;
};

} // namespace ciu::ui
