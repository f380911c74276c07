#include "platform/synthetic/syntheticscene.h"

#include <QHash>
#include <QMutexLocker>
#include <QPainter>

#include <utility>
#include <xkbcommon/xkbcommon-keysyms.h>

namespace ciu::platform {
namespace {

QMutex& registryMutex()
{
    static QMutex mutex;
    return mutex;
}

QHash<QString, std::shared_ptr<SyntheticScene>>& registry()
{
    static QHash<QString, std::shared_ptr<SyntheticScene>> scenes;
    return scenes;
}

QColor defaultColor(SyntheticScene::WidgetKind kind)
{
    switch (kind) {
    case SyntheticScene::WidgetKind::Button:
        return QColor(0xdd, 0xdd, 0xe4);
    case SyntheticScene::WidgetKind::TextField:
        return Qt::white;
    case SyntheticScene::WidgetKind::CheckBox:
        return QColor(0xf4, 0xf4, 0xf4);
    case SyntheticScene::WidgetKind::Label:
        return QColor(0xf0, 0xf0, 0xf0);
    }
    return Qt::gray;
}

} // namespace

SyntheticScene::SyntheticScene(QSize size)
{
    setSize(size);
}

std::shared_ptr<SyntheticScene> SyntheticScene::forDisplay(const QString& displayName)
{
    QMutexLocker lock(&registryMutex());
    auto& scene = registry()[displayName];
    if (!scene)
        scene = std::make_shared<SyntheticScene>();
    return scene;
}

void SyntheticScene::resetAll()
{
    QMutexLocker lock(&registryMutex());
    registry().clear();
}

QSize SyntheticScene::size() const
{
    QMutexLocker lock(&m_mutex);
    return m_size;
}

void SyntheticScene::setSize(QSize size)
{
    QMutexLocker lock(&m_mutex);
    m_size = size;
    m_background = QImage(size, QImage::Format_RGB32);
    m_background.fill(QColor(0x3a, 0x6e, 0xa5));
    m_monitors = {MonitorInfo{QStringLiteral("synthetic-0"), QRect(QPoint(0, 0), size), true}};
    m_damage = QRegion(QRect(QPoint(0, 0), size));
}

void SyntheticScene::setMonitors(const QList<MonitorInfo>& monitors)
{
    QMutexLocker lock(&m_mutex);
    m_monitors = monitors;
}

QList<MonitorInfo> SyntheticScene::monitors() const
{
    QMutexLocker lock(&m_mutex);
    return m_monitors;
}

void SyntheticScene::damage(const QRect& rect)
{
    m_damage += rect.intersected(QRect(QPoint(0, 0), m_size));
}

void SyntheticScene::addWidget(const Widget& widget)
{
    QMutexLocker lock(&m_mutex);
    m_widgets << widget;
    damage(widget.rect);
}

bool SyntheticScene::removeWidget(const QString& name)
{
    QMutexLocker lock(&m_mutex);
    for (qsizetype i = 0; i < m_widgets.size(); ++i) {
        if (m_widgets.at(i).name == name) {
            damage(m_widgets.at(i).rect);
            m_widgets.removeAt(i);
            return true;
        }
    }
    return false;
}

bool SyntheticScene::updateWidget(const QString& name, const std::function<void(Widget&)>& change)
{
    QMutexLocker lock(&m_mutex);
    Widget* w = findWidget(name);
    if (!w)
        return false;
    damage(w->rect);
    change(*w);
    damage(w->rect);
    return true;
}

std::optional<SyntheticScene::Widget> SyntheticScene::widget(const QString& name) const
{
    QMutexLocker lock(&m_mutex);
    for (const Widget& w : m_widgets) {
        if (w.name == name)
            return w;
    }
    return std::nullopt;
}

QList<SyntheticScene::Widget> SyntheticScene::widgets() const
{
    QMutexLocker lock(&m_mutex);
    return m_widgets;
}

void SyntheticScene::fillRect(const QRect& rect, const QColor& color)
{
    QMutexLocker lock(&m_mutex);
    QPainter painter(&m_background);
    painter.fillRect(rect, color);
    damage(rect);
}

void SyntheticScene::paintWidget(QPainter& painter, const Widget& w) const
{
    if (!w.visible)
        return;
    const QColor fill = w.color.isValid() ? w.color : defaultColor(w.kind);
    painter.setPen(QColor(0x55, 0x55, 0x60));
    painter.setBrush(fill);
    painter.drawRect(w.rect.adjusted(0, 0, -1, -1));
    painter.setPen(Qt::black);
    switch (w.kind) {
    case WidgetKind::Button:
    case WidgetKind::Label:
        painter.drawText(w.rect, Qt::AlignCenter, w.label);
        break;
    case WidgetKind::TextField:
        painter.drawText(w.rect.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignLeft, w.text);
        if (m_focus == w.name)
            painter.drawRect(w.rect.adjusted(1, 1, -2, -2));
        break;
    case WidgetKind::CheckBox: {
        const QRect box(w.rect.x() + 4, w.rect.center().y() - 6, 12, 12);
        painter.setBrush(w.checked ? QColor(Qt::black) : QColor(Qt::white));
        painter.drawRect(box);
        painter.drawText(w.rect.adjusted(22, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, w.label);
        break;
    }
    }
}

QImage SyntheticScene::render(const QRect& region) const
{
    QMutexLocker lock(&m_mutex);
    const QRect screen(QPoint(0, 0), m_size);
    const QRect r = region.isNull() ? screen : region.intersected(screen);
    QImage image = m_background.copy(r);
    QPainter painter(&image);
    painter.translate(-r.topLeft());
    for (const Widget& w : m_widgets) {
        if (w.rect.intersects(r))
            paintWidget(painter, w);
    }
    return image;
}

QRegion SyntheticScene::takeDamage()
{
    QMutexLocker lock(&m_mutex);
    QRegion damage;
    std::swap(damage, m_damage);
    return damage;
}

QPoint SyntheticScene::cursor() const
{
    QMutexLocker lock(&m_mutex);
    return m_cursor;
}

void SyntheticScene::moveCursor(QPoint pos)
{
    QMutexLocker lock(&m_mutex);
    m_cursor = QPoint(qBound(0, pos.x(), m_size.width() - 1), qBound(0, pos.y(), m_size.height() - 1));
    m_log << InputRecord{QStringLiteral("move"), QStringLiteral("%1,%2").arg(m_cursor.x()).arg(m_cursor.y())};
}

void SyntheticScene::moveCursorByInput(QPoint pos)
{
    {
        QMutexLocker lock(&m_mutex);
        if (m_pointerHeld) {
            m_heldCursor = pos;
            return;
        }
    }
    moveCursor(pos);
}

void SyntheticScene::holdPointer()
{
    QMutexLocker lock(&m_mutex);
    m_pointerHeld = true;
}

void SyntheticScene::releaseHeldPointer()
{
    std::optional<QPoint> held;
    {
        QMutexLocker lock(&m_mutex);
        m_pointerHeld = false;
        held = std::exchange(m_heldCursor, std::nullopt);
    }
    if (held)
        moveCursor(*held);
}

SyntheticScene::Widget* SyntheticScene::widgetAt(QPoint pos)
{
    for (auto it = m_widgets.rbegin(); it != m_widgets.rend(); ++it) {
        if (it->visible && it->rect.contains(pos))
            return &*it;
    }
    return nullptr;
}

SyntheticScene::Widget* SyntheticScene::findWidget(const QString& name)
{
    for (Widget& w : m_widgets) {
        if (w.name == name)
            return &w;
    }
    return nullptr;
}

void SyntheticScene::button(MouseButton button, bool down)
{
    QMutexLocker lock(&m_mutex);
    m_log << InputRecord{
        QStringLiteral("button"),
        QStringLiteral("%1 %2").arg(toString(button), down ? QStringLiteral("down") : QStringLiteral("up"))};
    if (down || button != MouseButton::Left)
        return;
    Widget* w = widgetAt(m_cursor);
    const QString previousFocus = m_focus;
    m_focus = w ? w->name : QString();
    if (Widget* old = findWidget(previousFocus))
        damage(old->rect);
    if (!w)
        return;
    ++w->clicks;
    if (w->kind == WidgetKind::CheckBox)
        w->checked = !w->checked;
    damage(w->rect);
}

void SyntheticScene::wheel(ScrollDirection direction)
{
    QMutexLocker lock(&m_mutex);
    m_log << InputRecord{QStringLiteral("wheel"), toString(direction)};
}

void SyntheticScene::key(Keysym keysym, bool down)
{
    QMutexLocker lock(&m_mutex);
    m_log << InputRecord{QStringLiteral("key"),
                         QStringLiteral("%1 %2").arg(keysymName(keysym),
                                                     down ? QStringLiteral("down") : QStringLiteral("up"))};
    if (!down) {
        m_heldKeys.removeAll(keysym);
        return;
    }
    m_heldKeys << keysym;
    Widget* w = findWidget(m_focus);
    if (!w || w->kind != WidgetKind::TextField)
        return;
    const bool ctrl = m_heldKeys.contains(XKB_KEY_Control_L) || m_heldKeys.contains(XKB_KEY_Control_R);
    if (keysym == XKB_KEY_BackSpace) {
        w->text.chop(1);
    } else if (ctrl && (keysym == XKB_KEY_a || keysym == XKB_KEY_A)) {
        return;
    } else if (!ctrl && !isModifier(keysym)) {
        w->text += keysymToText(keysym);
    }
    damage(w->rect);
}

void SyntheticScene::typeText(const QString& text)
{
    QMutexLocker lock(&m_mutex);
    m_log << InputRecord{QStringLiteral("type"), text};
    if (Widget* w = findWidget(m_focus); w && w->kind == WidgetKind::TextField) {
        w->text += text;
        damage(w->rect);
    }
}

QString SyntheticScene::focusedWidget() const
{
    QMutexLocker lock(&m_mutex);
    return m_focus;
}

QList<SyntheticScene::InputRecord> SyntheticScene::inputLog() const
{
    QMutexLocker lock(&m_mutex);
    return m_log;
}

void SyntheticScene::clearInputLog()
{
    QMutexLocker lock(&m_mutex);
    m_log.clear();
}

std::optional<QString> SyntheticScene::clipboardText() const
{
    QMutexLocker lock(&m_mutex);
    return m_clipText;
}

std::optional<QImage> SyntheticScene::clipboardImage() const
{
    QMutexLocker lock(&m_mutex);
    return m_clipImage;
}

void SyntheticScene::setClipboardText(const QString& text)
{
    QMutexLocker lock(&m_mutex);
    m_clipText = text;
    m_clipImage.reset();
}

void SyntheticScene::setClipboardImage(const QImage& image)
{
    QMutexLocker lock(&m_mutex);
    m_clipImage = image;
    m_clipText.reset();
}

QList<WindowInfo> SyntheticScene::windows() const
{
    QMutexLocker lock(&m_mutex);
    return m_windows;
}

void SyntheticScene::setWindows(const QList<WindowInfo>& windows)
{
    QMutexLocker lock(&m_mutex);
    m_windows = windows;
}

void SyntheticScene::setConnected(bool connected)
{
    QMutexLocker lock(&m_mutex);
    m_connected = connected;
}

bool SyntheticScene::isConnected() const
{
    QMutexLocker lock(&m_mutex);
    return m_connected;
}

} // namespace ciu::platform
