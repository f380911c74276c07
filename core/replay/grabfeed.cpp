#include "core/replay/grabfeed.h"

#include <QLoggingCategory>

Q_LOGGING_CATEGORY(lcGrabFeed, "ciu.replay.grabfeed")

namespace ciu::replay {

GrabFeed::GrabFeed(Options options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_frameTimer(this)
    , m_cursorTimer(this)
{
    m_frameTimer.setTimerType(Qt::PreciseTimer);
    m_cursorTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_frameTimer, &QTimer::timeout, this, &GrabFeed::grabFrame);
    connect(&m_cursorTimer, &QTimer::timeout, this, &GrabFeed::sampleCursor);
}

GrabFeed::~GrabFeed() = default;

void GrabFeed::start()
{
    auto opened = platform::createPlatform(m_options.platform);
    if (!opened.platform) {
        emit failed(opened.error);
        return;
    }
    m_platform = std::move(opened.platform);
    emit started(m_platform->screen().size());
    m_nextDueNs = m_options.clock.nowNs();
    grabFrame();
    sampleCursor();
    m_frameTimer.start(m_options.frameIntervalMs);
    if (m_options.cursorIntervalMs > 0)
        m_cursorTimer.start(m_options.cursorIntervalMs);
}

void GrabFeed::stop()
{
    m_frameTimer.stop();
    m_cursorTimer.stop();
    m_platform.reset();
}

void GrabFeed::grabFrame()
{
    if (!m_platform)
        return;
    const qint64 now = m_options.clock.nowNs();
    if (now - m_nextDueNs > qint64(m_options.frameIntervalMs) * 1'000'000)
        ++m_late;
    m_nextDueNs = now + qint64(m_options.frameIntervalMs) * 1'000'000;
    Frame frame;
    frame.image = m_platform->screen().grab();
    frame.tNs = now;
    if (frame.image.isNull()) {
        const QString error = m_platform->screen().errorString();
        stop();
        emit failed(QStringLiteral("screen grab failed: %1").arg(error));
        return;
    }
    frame.index = ++m_index;
    emit frameCaptured(frame);
}

void GrabFeed::sampleCursor()
{
    if (!m_platform)
        return;
    const auto info = m_platform->pointer().cursor();
    if (!info)
        return;
    emit cursorSampled(CursorSample{m_options.clock.nowNs(), info->position, info->shape});
}

} // namespace ciu::replay
