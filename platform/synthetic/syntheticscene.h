#pragma once

#include "platform/keys.h"
#include "platform/types.h"

#include <QImage>
#include <QMutex>
#include <QRegion>

#include <memory>
#include <optional>

namespace ciu::platform {

// An in-memory desktop for deterministic tests: a background, rectangles with labels that react to
// clicks and typed text, a cursor, a clipboard and a window list. Shared by every SyntheticPlatform
// opened on the same display name, so a capture worker and an input worker see the same desktop.
// Thread-safe.
class SyntheticScene
{
public:
    enum class WidgetKind : quint8
    {
        Button = 1,
        TextField,
        CheckBox,
        Label
    };

    struct Widget
    {
        QString name;
        WidgetKind kind = WidgetKind::Button;
        QRect rect;
        QString label;
        QString text; // text fields
        bool checked = false;
        int clicks = 0;
        bool visible = true;
        QColor color; // background; invalid → default for the kind
    };

    struct InputRecord
    {
        QString kind; // "move", "button", "wheel", "key", "type"
        QString detail;
    };

    explicit SyntheticScene(QSize size = {1280, 800});

    // The scene for a display name, created on first use.
    static std::shared_ptr<SyntheticScene> forDisplay(const QString& displayName);
    static void resetAll();

    QSize size() const;
    void setSize(QSize size);
    void setMonitors(const QList<MonitorInfo>& monitors);
    QList<MonitorInfo> monitors() const;

    void addWidget(const Widget& widget);
    bool removeWidget(const QString& name);
    bool updateWidget(const QString& name, const std::function<void(Widget&)>& change);
    std::optional<Widget> widget(const QString& name) const;
    QList<Widget> widgets() const;
    // Fills a rectangle with a colour (for change-detection tests); damages it.
    void fillRect(const QRect& rect, const QColor& color);

    QImage render(const QRect& region) const;
    QRegion takeDamage();

    QPoint cursor() const;
    // The pointer moved by the user (or the test): at once.
    void moveCursor(QPoint pos);
    // The pointer moved by synthetic input (the platform's moveTo): at once, unless the pointer is held.
    void moveCursorByInput(QPoint pos);
    // Holds the pointer as a window manager's synchronous grab after a click does: moves sent meanwhile
    // take effect (the last one) when the input settles (Input::settle, releaseHeldPointer).
    void holdPointer();
    void releaseHeldPointer();
    void button(MouseButton button, bool down);
    void wheel(ScrollDirection direction);
    void key(Keysym keysym, bool down);
    void typeText(const QString& text);
    QString focusedWidget() const;
    QList<InputRecord> inputLog() const;
    void clearInputLog();

    std::optional<QString> clipboardText() const;
    std::optional<QImage> clipboardImage() const;
    void setClipboardText(const QString& text);
    void setClipboardImage(const QImage& image);

    QList<WindowInfo> windows() const;
    void setWindows(const QList<WindowInfo>& windows);

    // Simulates the display going away: every platform call fails afterwards.
    void setConnected(bool connected);
    bool isConnected() const;

private:
    void damage(const QRect& rect);
    void paintWidget(QPainter& painter, const Widget& w) const;
    Widget* widgetAt(QPoint pos);
    Widget* findWidget(const QString& name);

    mutable QMutex m_mutex;
    QSize m_size;
    QList<MonitorInfo> m_monitors;
    QImage m_background;
    QList<Widget> m_widgets;
    QRegion m_damage;
    QPoint m_cursor;
    bool m_pointerHeld = false;
    std::optional<QPoint> m_heldCursor; // the last move sent while held
    QString m_focus;
    QList<Keysym> m_heldKeys;
    QList<InputRecord> m_log;
    std::optional<QString> m_clipText;
    std::optional<QImage> m_clipImage;
    QList<WindowInfo> m_windows;
    bool m_connected = true;
};

} // namespace ciu::platform
