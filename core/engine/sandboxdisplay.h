#pragma once

#include <QObject>
#include <QProcess>
#include <QSize>
#include <QString>
#include <QTimer>

#include <memory>

namespace ciu {

// A private X display for the agent to work on: Xvfb on a free display number plus a small window
// manager (openbox), started and stopped without blocking the caller's thread. Programs are launched
// into it with launch().
class SandboxDisplay final : public QObject
{
    Q_OBJECT
public:
    enum class State : quint8
    {
        Stopped = 1,
        Starting,
        Running
    };

    explicit SandboxDisplay(QObject* parent = nullptr);
    ~SandboxDisplay() override;

    State state() const { return m_state; }
    QString displayName() const { return m_display; }
    QSize size() const { return m_size; }
    QString errorString() const { return m_error; }

    // Turns accessibility on for programs started with `env` (when a session bus is there): Qt
    // (QT_LINUX_ACCESSIBILITY_ALWAYS_ON) and GTK/GNOME (GNOME_ACCESSIBILITY) register with the session's
    // AT-SPI bus. Chromium and Electron also need --force-renderer-accessibility on their command line.
    static void addAccessibilityEnvironment(QProcessEnvironment& env);

    // The programs used; tests may point them elsewhere.
    void setServerProgram(const QString& program) { m_serverProgram = program; }
    void setWindowManagerProgram(const QString& program) { m_wmProgram = program; }

public slots:
    // Starts the server; emits started() or failed(). Does nothing while not stopped.
    void start(QSize size = QSize(1280, 800));
    void stop();
    // Starts `command` (split like a shell would, no shell features) on the sandbox display. Returns false
    // with errorString() set when the sandbox is not running or the command is empty or cannot start.
    bool launch(const QString& command);

signals:
    void started(const QString& displayName);
    void failed(const QString& error);
    void stopped();

private:
    void poll();
    void fail(const QString& error);
    QProcessEnvironment environment() const;
    static int freeDisplayNumber();

    State m_state = State::Stopped;
    QString m_display;
    int m_number = -1;
    QSize m_size;
    QString m_error;
    QString m_serverProgram = QStringLiteral("Xvfb");
    QString m_wmProgram = QStringLiteral("openbox");
    std::unique_ptr<QProcess> m_server;
    std::unique_ptr<QProcess> m_wm;
    QTimer m_pollTimer;
    int m_pollsLeft = 0;
};

} // namespace ciu
