#include "core/capture/captureengine.h"

#include "core/capture/capturelog.h"
#include "core/model/geometry.h"
#include "platform/platformfactory.h"

#include <QTimer>

namespace ciu {
namespace {

using namespace std::chrono;

capture::ChangeDetectorSettings detectorSettings(const CaptureSettings& s)
{
    capture::ChangeDetectorSettings d;
    d.tileSize = s.tileSize;
    d.thresholdPercent = s.thresholdPercent;
    d.animationFrames = s.animationFrames;
    d.stabilityWindowNs = qint64(s.stabilityWindowMs) * 1'000'000;
    return d;
}

capture::FrameRingSettings ringSettings(const CaptureSettings& s)
{
    capture::FrameRingSettings r;
    r.durationNs = qint64(s.ringSeconds * 1e9);
    r.maxBytes = s.ringMaxBytes;
    return r;
}

// More rectangles than this are grabbed as their bounding rectangle (one request instead of many).
constexpr int kMaxDamageRects = 32;

} // namespace

CaptureEngine::CaptureEngine(Options options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_clock(m_options.clock ? m_options.clock : std::make_shared<const SessionClock>())
    , m_ring(std::make_shared<capture::FrameRing>())
    , m_timer(new QTimer(this))
{
    qRegisterMetaType<Frame>();
    qRegisterMetaType<CursorSample>();
    qRegisterMetaType<FrameDiff>();
    qRegisterMetaType<CaptureSettings>();
    qRegisterMetaType<CaptureStats>();
    m_timer->setTimerType(Qt::PreciseTimer);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &CaptureEngine::onTick);
}

CaptureEngine::~CaptureEngine() = default;

void CaptureEngine::start()
{
    if (m_running)
        return;
    if (const QString error = m_options.settings.validate(); !error.isEmpty()) {
        emit errorOccurred(QStringLiteral("capture settings: %1").arg(error));
        emit stopped();
        return;
    }
    auto opened = platform::createPlatform({m_options.backend, m_options.display});
    if (!opened.platform) {
        emit errorOccurred(QStringLiteral("cannot capture: %1").arg(opened.error));
        emit stopped();
        return;
    }
    m_platform = std::move(opened.platform);
    m_useShape = m_platform->capabilities().testFlag(platform::Capability::CursorShape);
    m_settings = m_options.settings;
    m_detector.setSettings(detectorSettings(m_settings));
    m_detector.reset();
    m_ring->setSettings(ringSettings(m_settings));
    m_previous = Frame();
    m_idle = false;
    m_failures = 0;
    if (const QString error = refreshTarget(); !error.isEmpty()) {
        m_platform.reset();
        emit errorOccurred(QStringLiteral("cannot capture: %1").arg(error));
        emit stopped();
        return;
    }
    applyRates();
    m_running = true;
    m_periodStartNs = m_clock->nowNs();
    m_nextDeadline = Clock::now();
    qCInfo(lcCapture) << "capturing" << m_platform->displayName() << m_target << "at" << m_settings.fps
                      << "fps"
                      << "damage:" << m_platform->screen().damageSupported();
    emit started(m_target);
    armTimer();
}

void CaptureEngine::stop()
{
    const bool wasRunning = m_running || m_platform;
    m_running = false;
    m_timer->stop();
    m_platform.reset();
    if (wasRunning)
        emit stopped();
}

void CaptureEngine::fail(const QString& message)
{
    qCWarning(lcCapture).noquote() << message;
    emit errorOccurred(message);
    stop();
}

void CaptureEngine::setActionActive(bool active)
{
    m_actionActive = active;
    if (active)
        m_idle = false;
    else if (m_detector.isStable())
        m_idle = true;
}

void CaptureEngine::applySettings(const CaptureSettings& settings)
{
    if (const QString error = settings.validate(); !error.isEmpty()) {
        emit errorOccurred(QStringLiteral("capture settings refused: %1").arg(error));
        return;
    }
    const CaptureSettings old = m_settings;
    m_settings = settings;
    m_options.settings = settings;
    m_detector.setSettings(detectorSettings(settings));
    m_ring->setSettings(ringSettings(settings));
    if (!m_running)
        return;
    if (settings.monitorIndex != old.monitorIndex) {
        if (const QString error = refreshTarget(); !error.isEmpty()) {
            emit errorOccurred(QStringLiteral("capture target refused: %1").arg(error));
            m_settings.monitorIndex = old.monitorIndex;
            m_options.settings.monitorIndex = old.monitorIndex;
            refreshTarget();
        }
    }
    if (settings.fps != old.fps || settings.idleFps != old.idleFps) {
        applyRates();
        m_nextDeadline = Clock::now() + m_interval;
        armTimer();
    }
}

void CaptureEngine::applyRates()
{
    m_interval = duration_cast<Clock::duration>(nanoseconds(1'000'000'000LL / m_settings.fps));
    m_idleIntervalNs = 1'000'000'000LL / m_settings.idleFps;
}

// Sets the capture target (root coordinates) from the settings; returns an error and keeps the old
// target when the screen or the monitor is not there.
QString CaptureEngine::refreshTarget()
{
    const QSize size = m_platform->screen().size();
    if (size.isEmpty())
        return QStringLiteral("the display reports no screen size (%1)")
            .arg(m_platform->screen().errorString());
    QRect target(QPoint(0, 0), size);
    if (m_settings.monitorIndex >= 0) {
        const QList<platform::MonitorInfo> monitors = m_platform->screen().monitors();
        if (m_settings.monitorIndex >= monitors.size())
            return QStringLiteral("no monitor %1 (the display has %2)")
                .arg(m_settings.monitorIndex)
                .arg(monitors.size());
        target = monitors.at(m_settings.monitorIndex).geometry.intersected(target);
        if (target.isEmpty())
            return QStringLiteral("monitor %1 lies outside the screen").arg(m_settings.monitorIndex);
    }
    if (target != m_target)
        m_detector.reset(); // a new reference frame: reported as a whole-frame change
    m_target = target;
    return {};
}

void CaptureEngine::armTimer()
{
    if (!m_running)
        return;
    const auto wait = m_nextDeadline - Clock::now();
    // Round up: firing a little late is fine, firing early would shift the frame ahead of its deadline.
    const auto ms = wait <= Clock::duration::zero() ? 0 : int(ceil<milliseconds>(wait).count());
    m_timer->start(ms);
}

void CaptureEngine::onTick()
{
    if (!m_running)
        return;
    const auto now = Clock::now();
    if (now - m_nextDeadline > m_interval / 2)
        ++m_stats.lateFrames;
    m_nextDeadline += m_interval;
    if (m_nextDeadline <= now) { // missed whole intervals: count them, never drift
        const auto missed = (now - m_nextDeadline) / m_interval + 1;
        m_stats.lateFrames += quint64(missed);
        m_nextDeadline += missed * m_interval;
    }

    const qint64 tNs = m_clock->toNs(now);
    if (!m_platform->isConnected()) {
        fail(QStringLiteral("the display %1 went away; capture stopped").arg(m_platform->displayName()));
        return;
    }
    sampleCursorAt(tNs);

    platform::Screen& screen = m_platform->screen();
    const bool damageMode = m_settings.useDamage && screen.damageSupported();
    QRegion damage;
    if (damageMode)
        damage = screen.takeDamage();
    const bool due = !m_idle || tNs >= m_nextIdleFrameNs || !damage.isEmpty();
    if (due)
        captureFrame(damageMode ? &damage : nullptr, tNs);
    if (!m_running)
        return;
    maybeEmitStats(tNs);
    armTimer();
}

void CaptureEngine::sampleCursor()
{
    if (m_running)
        sampleCursorAt(m_clock->nowNs());
}

void CaptureEngine::sampleCursorAt(qint64 tNs)
{
    CursorSample sample;
    sample.tNs = tNs;
    if (m_useShape) {
        const auto info = m_platform->pointer().cursor();
        if (!info)
            return;
        sample.pos = info->position;
        sample.shape = info->shape;
        m_cursorRect = info->spriteRect;
    } else {
        const auto pos = m_platform->pointer().position();
        if (!pos)
            return;
        sample.pos = *pos;
        m_cursorRect = QRect();
    }
    ++m_stats.cursorSamples;
    emit cursorSampled(sample);
}

void CaptureEngine::captureNow()
{
    if (!m_running)
        return;
    const qint64 tNs = m_clock->nowNs();
    sampleCursorAt(tNs);
    platform::Screen& screen = m_platform->screen();
    const bool damageMode = m_settings.useDamage && screen.damageSupported();
    QRegion damage;
    if (damageMode)
        damage = screen.takeDamage();
    captureFrame(damageMode ? &damage : nullptr, tNs);
}

void CaptureEngine::captureFrame(const QRegion* damage, qint64 tNs)
{
    const auto t0 = Clock::now();
    platform::Screen& screen = m_platform->screen();
    Frame frame;
    frame.index = m_nextIndex;
    frame.tNs = tNs;
    frame.origin = m_target.topLeft();

    QRegion changed; // damage within the target, when damage is used
    const bool patchable = damage && m_previous.isValid() && m_previous.rootRect() == m_target;
    if (patchable)
        changed = damage->intersected(m_target);
    bool grabbed = true;
    if (patchable && changed.isEmpty()) {
        frame.image = m_previous.image; // nothing damaged: no grab, shared pixels
        ++m_stats.skippedGrabs;
        grabbed = false;
    } else if (patchable && area(changed) * 2 < area(m_target)) {
        if (changed.rectCount() > kMaxDamageRects)
            changed = changed.boundingRect();
        // Recycle the frame before the previous one when nobody holds it any more (its areas damaged since
        // then are grabbed again); else patch a copy of the previous frame.
        QImage image;
        QRegion toGrab = changed;
        const QRegion recycled = changed | m_spareStale;
        if (!m_spare.isNull() && m_spare.isDetached() && m_spare.size() == m_target.size() &&
            area(recycled) * 2 < area(m_target)) {
            image = std::move(m_spare);
            toGrab = recycled.rectCount() > kMaxDamageRects ? QRegion(recycled.boundingRect()) : recycled;
            ++m_stats.recycledBuffers;
        } else {
            image = m_previous.image.copy();
        }
        m_spare = QImage();
        m_spareStale = QRegion();
        for (const QRect& r : toGrab) {
            if (!screen.grabInto(image, m_target.topLeft(), r)) {
                image = QImage();
                break;
            }
        }
        frame.image = image;
        ++m_stats.damageGrabs;
    } else {
        frame.image = screen.grab(m_target);
        m_spare = QImage();
        m_spareStale = QRegion();
        ++m_stats.fullGrabs;
    }
    if (frame.image.isNull()) {
        if (!m_platform->isConnected()) {
            fail(QStringLiteral("the display %1 went away; capture stopped").arg(m_platform->displayName()));
            return;
        }
        ++m_failures;
        const QString error = screen.errorString();
        qCWarning(lcCapture).noquote() << "grab failed:" << error;
        if (m_failures >= 5) {
            fail(QStringLiteral("capture failed %1 times in a row: %2").arg(m_failures).arg(error));
            return;
        }
        if (m_failures == 1)
            emit errorOccurred(QStringLiteral("grab failed: %1").arg(error));
        refreshTarget(); // the screen may have been resized
        m_previous = Frame();
        m_spare = QImage();
        m_detector.reset();
        return;
    }
    m_failures = 0;
    const auto t1 = Clock::now();

    const auto result = m_detector.process(frame, m_cursorRect, patchable ? &changed : nullptr);
    const bool damagePatched = patchable && grabbed &&
                               frame.image.cacheKey() != m_previous.image.cacheKey() &&
                               area(changed) * 2 < area(m_target);
    if (result.identical && m_previous.isValid()) {
        if (damagePatched) { // a patched buffer equal to the previous frame: the next spare, nothing stale
            m_spare = frame.image;
            m_spareStale = QRegion();
        }
        frame.image = m_previous.image; // same pixels: share the buffer (the ring counts it once)
        ++m_stats.unchangedFrames;
    } else if (damagePatched) {
        m_spare = m_previous.image; // differs from this frame in `changed` only
        m_spareStale = changed;
    }
    const auto t2 = Clock::now();

    ++m_nextIndex;
    m_previous = frame;
    // The ring may keep the previous frame as a delta: it needs every pixel that differs (the damage).
    const QRegion none;
    m_ring->push(frame, !patchable ? nullptr : result.identical ? &none : &changed);
    m_nextIdleFrameNs = tNs + m_idleIntervalNs;
    ++m_stats.frames;
    emit frameCaptured(frame);
    if (result.reported || result.diff.stable || result.diff.cursorOnly)
        emit changesDetected(result.diff);
    if (result.reported)
        m_idle = false;
    else if (result.diff.stable && !m_actionActive)
        m_idle = true;

    const auto t3 = Clock::now();
    ++m_periodFrames;
    m_periodGrabNs += duration_cast<nanoseconds>(t1 - t0).count();
    m_periodDiffNs += duration_cast<nanoseconds>(t2 - t1).count();
    m_periodTotalNs += duration_cast<nanoseconds>(t3 - t0).count();
}

void CaptureEngine::maybeEmitStats(qint64 tNs)
{
    const qint64 periodNs = tNs - m_periodStartNs;
    if (periodNs < qint64(qMax(m_options.statsIntervalMs, 10)) * 1'000'000)
        return;
    const double frames = double(qMax<quint64>(m_periodFrames, 1));
    m_stats.tNs = tNs;
    m_stats.fps = double(m_periodFrames) * 1e9 / double(periodNs);
    m_stats.targetFps = m_idle ? m_settings.idleFps : m_settings.fps;
    m_stats.idle = m_idle;
    m_stats.actionActive = m_actionActive;
    m_stats.grabMs = double(m_periodGrabNs) / 1e6 / frames;
    m_stats.diffMs = double(m_periodDiffNs) / 1e6 / frames;
    m_stats.totalMs = double(m_periodTotalNs) / 1e6 / frames;
    const auto ring = m_ring->stats();
    m_stats.ringBytes = ring.bytes;
    m_stats.ringFrames = ring.frames;
    m_stats.ringDegradedFrames = ring.degradedFrames;
    emit statsUpdated(m_stats);

    m_periodStartNs = tNs;
    m_periodFrames = 0;
    m_periodGrabNs = m_periodDiffNs = m_periodTotalNs = 0;
    // The display may have been resized or its monitors changed; a vanished monitor falls back to the
    // whole screen.
    if (const QString error = refreshTarget(); !error.isEmpty() && m_settings.monitorIndex >= 0) {
        emit errorOccurred(QStringLiteral("%1; capturing the whole screen").arg(error));
        m_settings.monitorIndex = -1;
        m_options.settings.monitorIndex = -1;
        refreshTarget();
    }
}

} // namespace ciu
