#pragma once

#include <QList>
#include <QObject>
#include <QRect>
#include <QString>
#include <QTimer>

class QWidget;

namespace ciu::ui {

// The app's own windows on the display the agent works on: while the target display is the one the app
// is shown on, it polls the visible top-level windows (every 500 ms and on every change of target) and
// emits their frames and window ids whenever they change, so the engine masks them out of analysis and
// never clicks them. On another display the list is empty.
class OwnWindowTracker final : public QObject
{
    Q_OBJECT
public:
    struct Regions
    {
        QList<QRect> rects; // frame geometry, root coordinates
        QList<quint64> ids; // native window ids, in the same order
        bool operator==(const Regions&) const = default;
    };

    // `backend` is the platform backend override ("x11", "synthetic"; empty: $CIU_PLATFORM, else x11);
    // `targetDisplay` the display the agent works on at first (the first poll is 500 ms later).
    OwnWindowTracker(QString backend, QString targetDisplay, QObject* parent = nullptr);

    // The display the agent works on changed; re-evaluates the regions at once.
    void setTargetDisplay(const QString& displayName);
    QString targetDisplay() const { return m_target; }
    // Whether the target is the display the app itself is shown on (X11 only).
    bool targetIsOwnDisplay() const;
    Regions regions() const { return m_regions; }

    // The visible, not minimised widgets of `widgets` (top-level windows) with their frames and ids.
    static Regions regionsOf(const QList<QWidget*>& widgets);
    // ":1.0" and ":1" name the same display.
    static bool sameDisplay(const QString& a, const QString& b);

public slots:
    void update();

signals:
    void regionsChanged(const QList<QRect>& rects, const QList<quint64>& windowIds);

private:
    QString m_backend;
    QString m_target;
    Regions m_regions;
    QTimer m_timer;
};

} // namespace ciu::ui
