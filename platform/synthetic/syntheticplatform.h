#pragma once

#include "platform/platform.h"
#include "platform/synthetic/syntheticscene.h"

namespace ciu::platform {

// Platform backend over a SyntheticScene. Always has every capability.
class SyntheticPlatform final : public Platform,
                                private Screen,
                                private Pointer,
                                private Input,
                                private WindowSystem,
                                private Clipboard
{
public:
    SyntheticPlatform(QString displayName, std::shared_ptr<SyntheticScene> scene);

    QString backendName() const override { return QStringLiteral("synthetic"); }
    QString displayName() const override { return m_displayName; }
    Capabilities capabilities() const override;
    bool isConnected() const override { return m_scene->isConnected(); }

    Screen& screen() override { return *this; }
    Pointer& pointer() override { return *this; }
    Input& input() override { return *this; }
    WindowSystem& windows() override { return *this; }
    Clipboard& clipboard() override { return *this; }

    SyntheticScene& scene() { return *m_scene; }

private:
    bool disconnected();

    // Screen
    QSize size() const override;
    QList<MonitorInfo> monitors() const override;
    double dpi() const override { return 96.0; }
    QImage grab(const QRect& region) override;
    bool grabInto(QImage& target, QPoint targetOrigin, const QRect& region) override;
    bool damageSupported() const override { return true; }
    QRegion takeDamage() override;
    // Pointer
    std::optional<QPoint> position() override;
    std::optional<CursorInfo> cursor() override;
    // Input
    bool moveTo(QPoint rootPos) override;
    bool button(MouseButton button, bool down) override;
    bool wheel(ScrollDirection direction) override;
    bool key(Keysym keysym, bool down) override;
    bool typeText(const QString& text, int perCharDelayMs) override;
    bool sync() override;
    bool settle() override;
    // WindowSystem
    std::optional<WindowInfo> activeWindow() override;
    QList<WindowInfo> topLevelWindows() override;
    bool activate(quint64 windowId) override;
    // Clipboard
    std::optional<QString> text(int timeoutMs) override;
    std::optional<QImage> image(int timeoutMs) override;
    bool setText(const QString& text) override;
    bool setImage(const QImage& image) override;

    QString errorString() const override { return m_error; }

    QString m_displayName;
    std::shared_ptr<SyntheticScene> m_scene;
    QString m_error;
    bool m_firstDamage = true;
};

} // namespace ciu::platform
