#include "tests/support/xvfbserver.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QThread>

#include <xcb/xcb.h>

namespace ciu::test {

bool xvfbAvailable()
{
    return !QStandardPaths::findExecutable(QStringLiteral("Xvfb")).isEmpty();
}

XvfbServer::XvfbServer()
    : XvfbServer(Options{})
{
}

XvfbServer::XvfbServer(Options options)
    : m_options(std::move(options))
{
}

XvfbServer::~XvfbServer()
{
    stop();
}

bool XvfbServer::waitForServer(int timeoutMs)
{
    const QByteArray name = m_display.toLatin1();
    QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (m_server->state() == QProcess::NotRunning)
            return false;
        xcb_connection_t* c = xcb_connect(name.constData(), nullptr);
        const bool ok = c && xcb_connection_has_error(c) == 0;
        if (c)
            xcb_disconnect(c);
        if (ok)
            return true;
        QThread::msleep(20);
    }
    return false;
}

bool XvfbServer::start()
{
    if (!xvfbAvailable()) {
        m_error = QStringLiteral("Xvfb is not installed (apt-get install xvfb)");
        return false;
    }
    for (int attempt = 0; attempt < 8; ++attempt) {
        const int number = 100 + int(QRandomGenerator::global()->bounded(800));
        if (QFile::exists(QStringLiteral("/tmp/.X%1-lock").arg(number)) ||
            QFile::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(number)))
            continue;
        m_display = QStringLiteral(":%1").arg(number);
        m_server = std::make_unique<QProcess>();
        m_server->setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_server->setStandardOutputFile(QProcess::nullDevice());
        QStringList args{m_display,
                         QStringLiteral("-screen"),
                         QStringLiteral("0"),
                         QStringLiteral("%1x%2x%3")
                             .arg(m_options.size.width())
                             .arg(m_options.size.height())
                             .arg(m_options.depth),
                         QStringLiteral("-nolisten"),
                         QStringLiteral("tcp"),
                         QStringLiteral("-noreset")};
        args << m_options.extraArgs;
        m_server->start(QStringLiteral("Xvfb"), args);
        if (!m_server->waitForStarted(5000)) {
            m_error = QStringLiteral("cannot start Xvfb: %1").arg(m_server->errorString());
            return false;
        }
        if (waitForServer(10000))
            break;
        m_server->kill();
        m_server->waitForFinished(2000);
        m_server.reset();
        m_display.clear();
    }
    if (!m_server) {
        m_error = QStringLiteral("no free X display number found for Xvfb");
        return false;
    }
    if (m_options.windowManager && !QStandardPaths::findExecutable(QStringLiteral("openbox")).isEmpty()) {
        m_wm = std::make_unique<QProcess>();
        m_wm->setProcessEnvironment(environment());
        m_wm->setStandardOutputFile(QProcess::nullDevice());
        m_wm->setStandardErrorFile(QProcess::nullDevice());
        m_wm->start(QStringLiteral("openbox"), {QStringLiteral("--sm-disable")});
        m_wm->waitForStarted(5000);
        // Let it take over the root window (it sets _NET_SUPPORTING_WM_CHECK); 300 ms is ample.
        QThread::msleep(300);
    }
    return true;
}

void XvfbServer::stop()
{
    for (auto* p : {m_wm.get(), m_server.get()}) {
        if (p && p->state() != QProcess::NotRunning) {
            p->terminate();
            if (!p->waitForFinished(3000)) {
                p->kill();
                p->waitForFinished(2000);
            }
        }
    }
    m_wm.reset();
    m_server.reset();
}

bool XvfbServer::isRunning() const
{
    return m_server && m_server->state() == QProcess::Running;
}

QProcessEnvironment XvfbServer::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), m_display);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    env.insert(QStringLiteral("NO_AT_BRIDGE"), QStringLiteral("1"));
    env.insert(QStringLiteral("QT_ACCESSIBILITY"), QStringLiteral("0"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    return env;
}

}  // namespace ciu::test
