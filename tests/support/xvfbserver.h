#pragma once

#include <QProcess>
#include <QSize>
#include <QString>

#include <memory>

namespace ciu::test {

// A private Xvfb (and optionally a window manager) for one test: picks a free display number, starts the
// server, waits until it accepts connections, and stops everything in the destructor.
class XvfbServer
{
public:
    struct Options
    {
        QSize size{1280, 800};
        int depth = 24;
        bool windowManager = true; // openbox, for EWMH and focus handling
        QStringList extraArgs;     // e.g. {"-extension", "MIT-SHM"}
    };

    XvfbServer();
    explicit XvfbServer(Options options);
    ~XvfbServer();
    XvfbServer(const XvfbServer&) = delete;
    XvfbServer& operator=(const XvfbServer&) = delete;

    bool start();
    void stop();
    bool isRunning() const;
    QString displayName() const { return m_display; }
    QString errorString() const { return m_error; }
    // Environment for child processes: DISPLAY set, Qt on xcb, no accessibility bus noise.
    QProcessEnvironment environment() const;
    // The same with accessibility on: GTK's and Qt's bridges register with the AT-SPI bus of the test's D-Bus
    // session.
    QProcessEnvironment accessibleEnvironment() const;

private:
    bool waitForServer(int timeoutMs);
    bool waitForWindowManager(int timeoutMs);

    Options m_options;
    QString m_display;
    QString m_error;
    std::unique_ptr<QProcess> m_server;
    std::unique_ptr<QProcess> m_wm;
};

// True when the Xvfb binary exists (tests that need it fail with a clear message otherwise).
bool xvfbAvailable();

} // namespace ciu::test
