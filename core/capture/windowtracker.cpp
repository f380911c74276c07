#include "core/capture/windowtracker.h"

#include "core/capture/capturelog.h"
#include "platform/platformfactory.h"

#include <QTimer>

#include <algorithm>

namespace ciu::capture {
namespace {

bool sameWindow(const platform::WindowInfo& a, const platform::WindowInfo& b)
{
    return a.id == b.id && a.geometry == b.geometry && a.active == b.active && a.pid == b.pid &&
           a.title == b.title && a.windowClass == b.windowClass && a.instance == b.instance;
}

bool sameWindows(const QList<platform::WindowInfo>& a, const QList<platform::WindowInfo>& b)
{
    return std::equal(a.cbegin(), a.cend(), b.cbegin(), b.cend(), sameWindow);
}

bool sameActive(const std::optional<platform::WindowInfo>& a, const std::optional<platform::WindowInfo>& b)
{
    return a.has_value() == b.has_value() && (!a || sameWindow(*a, *b));
}

} // namespace

WindowTracker::WindowTracker(Options options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_timer(new QTimer(this))
{
    connect(m_timer, &QTimer::timeout, this, &WindowTracker::poll);
}

WindowTracker::WindowTracker(std::unique_ptr<platform::Platform> platform, int intervalMs, QObject* parent)
    : WindowTracker(Options{{}, {}, intervalMs}, parent)
{
    m_platform = std::move(platform);
}

WindowTracker::~WindowTracker() = default;

void WindowTracker::start()
{
    if (m_running)
        return;
    if (!m_platform) {
        auto opened = platform::createPlatform({m_options.backend, m_options.display});
        if (!opened.platform) {
            qCWarning(lcCapture) << "window tracker: cannot open the display:" << opened.error;
            emit errorOccurred(QStringLiteral("window tracker: %1").arg(opened.error));
            return;
        }
        m_platform = std::move(opened.platform);
    }
    m_running = true;
    poll();
    if (m_options.intervalMs > 0)
        m_timer->start(m_options.intervalMs);
}

void WindowTracker::stop()
{
    m_timer->stop();
    m_running = false;
}

void WindowTracker::poll()
{
    if (!m_platform || !m_platform->isConnected())
        return;
    QList<platform::WindowInfo> windows = m_platform->windows().topLevelWindows();
    std::optional<platform::WindowInfo> active = m_platform->windows().activeWindow();
    ++m_polls;
    if (m_reported && sameWindows(windows, m_windows) && sameActive(active, m_active))
        return;
    m_reported = true;
    m_windows = std::move(windows);
    m_active = std::move(active);
    emit windowsChanged(m_windows, m_active);
}

} // namespace ciu::capture
