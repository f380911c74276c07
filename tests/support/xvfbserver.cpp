#include "tests/support/xvfbserver.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QList>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QThread>

#include <cstdlib>
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

namespace {

// The windows in the root's _NET_CLIENT_LIST (empty when it is not set).
QList<xcb_window_t> clientList(xcb_connection_t* c, xcb_window_t root, xcb_atom_t atom)
{
    QList<xcb_window_t> ids;
    xcb_get_property_reply_t* reply =
        xcb_get_property_reply(c, xcb_get_property(c, 0, root, atom, XCB_ATOM_WINDOW, 0, 1024), nullptr);
    if (reply && reply->format == 32) {
        const auto* values = static_cast<const xcb_window_t*>(xcb_get_property_value(reply));
        const int count = xcb_get_property_value_length(reply) / 4;
        for (int i = 0; i < count; ++i)
            ids << values[i];
    }
    std::free(reply);
    return ids;
}

} // namespace

// The window manager is ready when it has managed a window: it reparents it into its frame from its
// event loop. Openbox announces itself (_NET_SUPPORTING_WM_CHECK) before that loop runs, and a map
// request that reaches it during its start-up can stay in its queue until its next X event arrives: a
// client started then (xcalc in tst_realapps_e2e) stays unmapped for as long as nothing else happens on
// the display. So a probe window is mapped until one is reparented; each probe that is not (within a
// second) is destroyed and replaced, and its events wake the window manager. The last probe is gone
// from _NET_CLIENT_LIST before this returns, so tests never see it among the top-level windows.
bool XvfbServer::waitForWindowManager(int timeoutMs)
{
    const QByteArray name = m_display.toLatin1();
    xcb_connection_t* c = xcb_connect(name.constData(), nullptr);
    if (!c || xcb_connection_has_error(c) != 0) {
        if (c)
            xcb_disconnect(c);
        return false;
    }
    const xcb_screen_t* screen = xcb_setup_roots_iterator(xcb_get_setup(c)).data;
    const QByteArray atomName("_NET_CLIENT_LIST");
    xcb_intern_atom_reply_t* atomReply = xcb_intern_atom_reply(
        c, xcb_intern_atom(c, 0, uint16_t(atomName.size()), atomName.constData()), nullptr);
    const xcb_atom_t clientListAtom = atomReply ? atomReply->atom : xcb_atom_t(XCB_ATOM_NONE);
    std::free(atomReply);

    QDeadlineTimer deadline(timeoutMs);
    bool managed = false;
    xcb_window_t probe = XCB_WINDOW_NONE;
    while (!managed && !deadline.hasExpired() && m_wm->state() != QProcess::NotRunning) {
        probe = xcb_generate_id(c);
        xcb_create_window(c, XCB_COPY_FROM_PARENT, probe, screen->root, 0, 0, 16, 16, 0,
                          XCB_WINDOW_CLASS_INPUT_OUTPUT, screen->root_visual, 0, nullptr);
        xcb_map_window(c, probe);
        xcb_flush(c);
        QDeadlineTimer probeDeadline(1000);
        while (!managed && !probeDeadline.hasExpired() && !deadline.hasExpired()) {
            QThread::msleep(20);
            xcb_query_tree_reply_t* tree = xcb_query_tree_reply(c, xcb_query_tree(c, probe), nullptr);
            managed = tree && tree->parent != screen->root;
            std::free(tree);
        }
        xcb_destroy_window(c, probe);
        xcb_flush(c);
    }
    // The window manager has seen the last probe destroyed once it left the client list.
    while (managed && clientListAtom != XCB_ATOM_NONE && !deadline.hasExpired() &&
           clientList(c, screen->root, clientListAtom).contains(probe))
        QThread::msleep(20);
    xcb_disconnect(c);
    return managed;
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
        if (!m_wm->waitForStarted(5000) || !waitForWindowManager(30000)) {
            m_error = QStringLiteral("openbox on %1 never managed a window").arg(m_display);
            stop();
            return false;
        }
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

QProcessEnvironment XvfbServer::accessibleEnvironment() const
{
    QProcessEnvironment env = environment();
    env.remove(QStringLiteral("NO_AT_BRIDGE"));
    env.remove(QStringLiteral("QT_ACCESSIBILITY"));
    env.insert(QStringLiteral("QT_LINUX_ACCESSIBILITY_ALWAYS_ON"), QStringLiteral("1"));
    env.insert(QStringLiteral("GNOME_ACCESSIBILITY"), QStringLiteral("1"));
    return env;
}

} // namespace ciu::test
