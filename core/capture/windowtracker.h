#pragma once

// The window watcher: polls the display's top-level window list and its active window at an interval
// (and whenever poll() is called, e.g. on a screen change) over its own platform connection, and reports
// them with windowsChanged() only when either changed. The canvas uses the list for menu bars, new
// windows (dialogs) and application switches without talking to the display itself. A worker: it runs on
// the thread it lives on (the capture thread in the engine) and opens its platform there in start().

#include "platform/types.h"

#include <QList>
#include <QObject>

#include <memory>
#include <optional>

class QTimer;

namespace ciu::platform {
class Platform;
}

namespace ciu::capture {

class WindowTracker final : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString backend;      // platform backend, empty: default (see createPlatform)
        QString display;      // display name, empty: default
        int intervalMs = 500; // regular polls; 0: only when poll() is called
    };

    explicit WindowTracker(Options options, QObject* parent = nullptr);
    // Over an open platform (used on this object's thread); start() then opens none.
    explicit WindowTracker(std::unique_ptr<platform::Platform> platform, int intervalMs = 0,
                           QObject* parent = nullptr);
    ~WindowTracker() override;

    bool isRunning() const { return m_running; }
    // Times the display was read (regular polls and poll() calls), whether or not anything changed.
    int pollCount() const { return m_polls; }

public slots:
    // Opens the platform when none was given, reports the first state and starts the regular polls.
    // A platform that cannot be opened: errorOccurred, nothing is reported.
    void start();
    void stop();
    // Reads the window list and the active window now; windowsChanged() when either differs from the
    // last report (always for the first one). Nothing without a connected platform.
    void poll();

signals:
    // Top-level windows in stacking order (bottom first), and the active window (none: nullopt).
    void windowsChanged(const QList<ciu::platform::WindowInfo>& windows,
                        const std::optional<ciu::platform::WindowInfo>& active);
    void errorOccurred(const QString& message);

private:
    Options m_options;
    std::unique_ptr<platform::Platform> m_platform;
    QTimer* m_timer = nullptr;
    bool m_running = false;
    bool m_reported = false;
    int m_polls = 0;
    QList<platform::WindowInfo> m_windows;
    std::optional<platform::WindowInfo> m_active;
};

} // namespace ciu::capture
