#include "platform/synthetic/syntheticplatform.h"

#include <QPainter>
#include <QThread>

namespace ciu::platform {

SyntheticPlatform::SyntheticPlatform(QString displayName, std::shared_ptr<SyntheticScene> scene)
    : m_displayName(std::move(displayName))
    , m_scene(std::move(scene))
{
}

Capabilities SyntheticPlatform::capabilities() const
{
    return Capability::SharedMemoryGrab | Capability::Damage | Capability::CursorShape |
           Capability::InputInjection | Capability::Monitors | Capability::WindowList | Capability::Clipboard;
}

bool SyntheticPlatform::disconnected()
{
    if (m_scene->isConnected())
        return false;
    m_error = QStringLiteral("the synthetic display %1 is gone").arg(m_displayName);
    return true;
}

QSize SyntheticPlatform::size() const
{
    return m_scene->size();
}

QList<MonitorInfo> SyntheticPlatform::monitors() const
{
    return m_scene->monitors();
}

QImage SyntheticPlatform::grab(const QRect& region)
{
    if (disconnected())
        return {};
    const QRect screen(QPoint(0, 0), m_scene->size());
    if (!region.isNull() && !region.intersects(screen)) {
        m_error = QStringLiteral("region outside the screen");
        return {};
    }
    return m_scene->render(region);
}

bool SyntheticPlatform::grabInto(QImage& target, QPoint targetOrigin, const QRect& region)
{
    if (disconnected())
        return false;
    const QRect clipped = region.intersected(QRect(targetOrigin, target.size()))
                              .intersected(QRect(QPoint(0, 0), m_scene->size()));
    if (clipped.isEmpty())
        return true;
    const QImage part = m_scene->render(clipped);
    QPainter painter(&target);
    painter.setCompositionMode(QPainter::CompositionMode_Source);
    painter.drawImage(clipped.topLeft() - targetOrigin, part);
    return true;
}

QRegion SyntheticPlatform::takeDamage()
{
    if (disconnected())
        return {};
    QRegion damage = m_scene->takeDamage();
    if (m_firstDamage) {
        m_firstDamage = false;
        damage += QRect(QPoint(0, 0), m_scene->size());
    }
    return damage;
}

std::optional<QPoint> SyntheticPlatform::position()
{
    if (disconnected())
        return std::nullopt;
    return m_scene->cursor();
}

std::optional<CursorInfo> SyntheticPlatform::cursor()
{
    if (disconnected())
        return std::nullopt;
    CursorInfo info;
    info.position = m_scene->cursor();
    info.spriteRect = QRect(info.position, QSize(12, 19));
    info.shape = QStringLiteral("left_ptr");
    return info;
}

bool SyntheticPlatform::moveTo(QPoint rootPos)
{
    if (disconnected())
        return false;
    m_scene->moveCursorByInput(rootPos);
    return true;
}

bool SyntheticPlatform::button(MouseButton button, bool down)
{
    if (disconnected())
        return false;
    m_scene->button(button, down);
    return true;
}

bool SyntheticPlatform::wheel(ScrollDirection direction)
{
    if (disconnected())
        return false;
    m_scene->wheel(direction);
    return true;
}

bool SyntheticPlatform::key(Keysym keysym, bool down)
{
    if (disconnected())
        return false;
    m_scene->key(keysym, down);
    return true;
}

bool SyntheticPlatform::typeText(const QString& text, int perCharDelayMs)
{
    if (disconnected())
        return false;
    if (perCharDelayMs <= 0) {
        m_scene->typeText(text);
        return true;
    }
    for (const QChar c : text) {
        m_scene->typeText(QString(c));
        QThread::msleep(static_cast<unsigned long>(perCharDelayMs));
    }
    return true;
}

bool SyntheticPlatform::sync()
{
    return !disconnected();
}

bool SyntheticPlatform::settle()
{
    if (disconnected())
        return false;
    m_scene->releaseHeldPointer();
    return true;
}

std::optional<WindowInfo> SyntheticPlatform::activeWindow()
{
    if (disconnected())
        return std::nullopt;
    for (const WindowInfo& w : m_scene->windows()) {
        if (w.active)
            return w;
    }
    return std::nullopt;
}

QList<WindowInfo> SyntheticPlatform::topLevelWindows()
{
    if (disconnected())
        return {};
    return m_scene->windows();
}

bool SyntheticPlatform::activate(quint64 windowId)
{
    if (disconnected())
        return false;
    QList<WindowInfo> windows = m_scene->windows();
    bool found = false;
    for (WindowInfo& w : windows) {
        w.active = w.id == windowId;
        found = found || w.active;
    }
    if (!found) {
        m_error = QStringLiteral("no window 0x%1").arg(windowId, 0, 16);
        return false;
    }
    m_scene->setWindows(windows);
    return true;
}

std::optional<QString> SyntheticPlatform::text(int)
{
    if (disconnected())
        return std::nullopt;
    return m_scene->clipboardText();
}

std::optional<QImage> SyntheticPlatform::image(int)
{
    if (disconnected())
        return std::nullopt;
    return m_scene->clipboardImage();
}

bool SyntheticPlatform::setText(const QString& text)
{
    if (disconnected())
        return false;
    m_scene->setClipboardText(text);
    return true;
}

bool SyntheticPlatform::setImage(const QImage& image)
{
    if (disconnected())
        return false;
    m_scene->setClipboardImage(image);
    return true;
}

} // namespace ciu::platform
