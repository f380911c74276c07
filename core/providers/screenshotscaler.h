#pragma once

#include <QImage>
#include <QJsonObject>
#include <QPoint>
#include <QRect>
#include <QSize>
#include <QString>

#include <optional>

namespace ciu::director {

// Maps between the real screen and the scaled screenshots the model sees.
// Like the reference demo: the target is the first of XGA 1024×768, WXGA 1280×800, FWXGA 1366×768 whose
// aspect ratio is within 0.02 of the screen's, used only when smaller than the screen. Beyond the demo:
// a screen that matches no preset but is larger than the service's limits (1568 px long edge, about
// 1.15 megapixels) is scaled proportionally to fit them. Without scaling both directions are identity.
class ScreenshotScaler
{
public:
    ScreenshotScaler() = default; // identity, empty screen
    explicit ScreenshotScaler(QSize screenSize);

    // The target for a screen, or nullopt when it is sent unscaled.
    static std::optional<QSize> pickTarget(QSize screenSize);
    // A size that fits the service's image limits (long edge ≤ 1568, ≤ 1.15 MP), aspect kept.
    static QSize fitWithinLimits(QSize size);

    QSize screenSize() const { return m_screen; }
    // The size the model sees (display_width_px/display_height_px); the screen size when unscaled.
    QSize targetSize() const { return m_target; }
    bool isScaling() const { return m_target != m_screen; }

    // Model (target) space → screen: round(x · screen_w / target_w).
    QPoint toScreen(QPoint modelPoint) const;
    QRect toScreen(const QRect& modelRect) const;
    // Screen → model space: round(x · target_w / screen_w).
    QPoint toModel(QPoint screenPoint) const;
    QRect toModel(const QRect& screenRect) const;
    // True when the point lies on the scaled screen (0 ≤ x < target_w, 0 ≤ y < target_h).
    bool inModelBounds(QPoint modelPoint) const;

    // A screenshot of the whole screen scaled to the target (smooth); unchanged when not scaling.
    QImage scaleImage(const QImage& screenshot) const;

    // A computer-tool input with `coordinate`, `start_coordinate` ([x,y]) and `region` ([x1,y1,x2,y2])
    // mapped to screen space. Out-of-bounds or malformed coordinates: nullopt and *error says why.
    std::optional<QJsonObject> mapInputToScreen(const QJsonObject& input, QString* error = nullptr) const;

private:
    QSize m_screen;
    QSize m_target;
};

} // namespace ciu::director
