#include "core/engine/sandboxdisplay.h"

#include "core/engine/enginelog.h"

#include <QFile>

namespace ciu {
namespace {
constexpr int kPollIntervalMs = 50;
constexpr int kStartTimeoutMs = 10000;
constexpr int kFirstDisplay = 90;
constexpr int kLastDisplay = 400;

// Stops a process. Inside one of the process's own signals it must not be deleted at once: `later`.
void terminate(std::unique_ptr<QProcess>& process, bool later = true)
{
    if (!process)
        return;
    process->disconnect();
    if (process->state() != QProcess::NotRunning) {
        process->terminate();
        if (!process->waitForFinished(2000)) {
            process->kill();
            process->waitForFinished(1000);
        }
    }
    if (later)
        process.release()->deleteLater();
    else
        process.reset();
}
} // namespace

SandboxDisplay::SandboxDisplay(QObject* parent)
    : QObject(parent)
{
    m_pollTimer.setInterval(kPollIntervalMs);
    connect(&m_pollTimer, &QTimer::timeout, this, &SandboxDisplay::poll);
}

SandboxDisplay::~SandboxDisplay()
{
    m_pollTimer.stop();
    terminate(m_wm, false);
    terminate(m_server, false);
}

int SandboxDisplay::freeDisplayNumber()
{
    for (int n = kFirstDisplay; n < kLastDisplay; ++n) {
        if (!QFile::exists(QStringLiteral("/tmp/.X%1-lock").arg(n)) &&
            !QFile::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(n)))
            return n;
    }
    return -1;
}

QProcessEnvironment SandboxDisplay::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), m_display);
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    addAccessibilityEnvironment(env);
    return env;
}

void SandboxDisplay::addAccessibilityEnvironment(QProcessEnvironment& env)
{
    if (!env.contains(QStringLiteral("DBUS_SESSION_BUS_ADDRESS")) &&
        !env.contains(QStringLiteral("AT_SPI_BUS_ADDRESS"))) {
        // No bus: toolkits would only warn that they cannot reach one.
        env.insert(QStringLiteral("NO_AT_BRIDGE"), QStringLiteral("1"));
        return;
    }
    env.remove(QStringLiteral("NO_AT_BRIDGE"));
    env.remove(QStringLiteral("QT_ACCESSIBILITY"));
    env.insert(QStringLiteral("QT_LINUX_ACCESSIBILITY_ALWAYS_ON"), QStringLiteral("1"));
    env.insert(QStringLiteral("GNOME_ACCESSIBILITY"), QStringLiteral("1"));
}

void SandboxDisplay::start(QSize size)
{
    if (m_state != State::Stopped)
        return;
    if (size.width() < 64 || size.height() < 64 || size.width() > 8192 || size.height() > 8192) {
        fail(tr("The sandbox size %1×%2 is out of range.").arg(size.width()).arg(size.height()));
        return;
    }
    m_number = freeDisplayNumber();
    if (m_number < 0) {
        fail(tr("No free X display number for the sandbox."));
        return;
    }
    m_display = QStringLiteral(":%1").arg(m_number);
    m_size = size;
    m_error.clear();
    m_server = std::make_unique<QProcess>();
    m_server->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_server->setStandardOutputFile(QProcess::nullDevice());
    connect(m_server.get(), &QProcess::errorOccurred, this, [this](QProcess::ProcessError) {
        fail(tr("Cannot start %1: %2").arg(m_serverProgram, m_server ? m_server->errorString() : QString()));
    });
    connect(m_server.get(), &QProcess::finished, this, [this](int exitCode) {
        if (m_state == State::Starting)
            fail(tr("The sandbox X server exited with code %1.").arg(exitCode));
        else if (m_state == State::Running)
            stop();
    });
    m_state = State::Starting;
    qCInfo(lcSandbox) << "starting" << m_serverProgram << m_display;
    m_server->start(m_serverProgram,
                    {m_display, QStringLiteral("-screen"), QStringLiteral("0"),
                     QStringLiteral("%1x%2x24").arg(size.width()).arg(size.height()),
                     QStringLiteral("-nolisten"), QStringLiteral("tcp"), QStringLiteral("-noreset")});
    m_pollsLeft = kStartTimeoutMs / kPollIntervalMs;
    m_pollTimer.start();
}

void SandboxDisplay::poll()
{
    if (m_state != State::Starting) {
        m_pollTimer.stop();
        return;
    }
    if (!QFile::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(m_number))) {
        if (--m_pollsLeft <= 0)
            fail(tr("The sandbox X server did not come up on %1.").arg(m_display));
        return;
    }
    m_pollTimer.stop();
    m_wm = std::make_unique<QProcess>();
    m_wm->setProcessEnvironment(environment());
    m_wm->setStandardOutputFile(QProcess::nullDevice());
    m_wm->setStandardErrorFile(QProcess::nullDevice());
    m_wm->start(m_wmProgram, {});
    // A missing window manager is not fatal: the display works without one.
    if (!m_wm->waitForStarted(3000))
        qCWarning(lcSandbox) << "window manager" << m_wmProgram << "did not start:" << m_wm->errorString();
    m_state = State::Running;
    qCInfo(lcSandbox) << "sandbox running on" << m_display;
    emit started(m_display);
}

void SandboxDisplay::fail(const QString& error)
{
    m_error = error;
    qCWarning(lcSandbox) << error;
    const bool wasActive = m_state != State::Stopped;
    m_pollTimer.stop();
    m_state = State::Stopped;
    terminate(m_wm);
    terminate(m_server);
    if (wasActive || !error.isEmpty())
        emit failed(error);
}

void SandboxDisplay::stop()
{
    if (m_state == State::Stopped)
        return;
    m_pollTimer.stop();
    m_state = State::Stopped;
    terminate(m_wm);
    terminate(m_server);
    qCInfo(lcSandbox) << "sandbox stopped";
    emit stopped();
}

bool SandboxDisplay::launch(const QString& command)
{
    if (m_state != State::Running) {
        m_error = tr("The sandbox display is not running.");
        return false;
    }
    QStringList args = QProcess::splitCommand(command);
    if (args.isEmpty()) {
        m_error = tr("No command given.");
        return false;
    }
    const QString program = args.takeFirst();
    QProcess process;
    process.setProgram(program);
    process.setArguments(args);
    process.setProcessEnvironment(environment());
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
    qint64 pid = 0;
    if (!process.startDetached(&pid)) {
        m_error = tr("Cannot start \"%1\".").arg(program);
        return false;
    }
    qCInfo(lcSandbox) << "launched" << program << "pid" << pid << "on" << m_display;
    return true;
}

} // namespace ciu
