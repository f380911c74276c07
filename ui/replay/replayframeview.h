#pragma once

#include "core/model/frame.h"
#include "core/model/zonemap.h"
#include "core/replay/overlaypainter.h"

#include <QWidget>

namespace ciu::ui {

// Shows one recorded frame scaled to fit, with the zone overlay as it was and the cursor trail. Paints
// the state it was given and nothing else.
class ReplayFrameView final : public QWidget
{
    Q_OBJECT
public:
    explicit ReplayFrameView(QWidget* parent = nullptr);

    void setFrame(const QImage& frame);
    void setOverlay(ZoneMapPtr map, QList<CursorSample> trail, qint64 tNs);
    void setScreenSize(QSize size); // the root size, used when there is no frame
    void setPlaceholder(const QString& text);
    void setOverlayOptions(const replay::OverlayOptions& options);
    const replay::OverlayOptions& overlayOptions() const { return m_options; }
    bool hasFrame() const { return !m_frame.isNull(); }
    QImage frame() const { return m_frame; }

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QImage m_frame;
    QSize m_screenSize;
    ZoneMapPtr m_map;
    QList<CursorSample> m_trail;
    qint64 m_tNs = 0;
    QString m_placeholder;
    replay::OverlayOptions m_options;
};

} // namespace ciu::ui
