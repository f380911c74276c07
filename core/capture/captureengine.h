#pragma once

#include "core/capture/capturesettings.h"
#include "core/capture/changedetector.h"
#include "core/capture/framering.h"
#include "core/model/frame.h"
#include "core/model/sessionclock.h"

#include <QObject>
#include <QRect>
#include <QRegion>

#include <chrono>
#include <memory>

class QTimer;

namespace ciu::platform {
class Platform;
}

namespace ciu {

// The capture worker: runs on its own thread (see startWorkerThread()), opens its own
// Platform there, and on a deadline-driven loop samples the cursor, captures the target (whole screen or
// one monitor), runs Tier 0 and feeds the frame ring. Adaptive rate: full rate while an action runs or
// the screen changes, the idle rate once the screen is stable, full rate again on the first change.
// With server damage, only damaged areas are grabbed into a copy of the previous frame, and nothing is
// grabbed when nothing is damaged (the new frame shares the previous frame's pixels).
//
// Everything is reported through queued signals carrying values.
class CaptureEngine final : public QObject
{
    Q_OBJECT

public:
    struct Options
    {
        QString backend;                           // platform backend, empty: default (see createPlatform)
        QString display;                           // display name, empty: default
        std::shared_ptr<const SessionClock> clock; // the session's clock; null: a new one
        CaptureSettings settings;
        int statsIntervalMs = 1000; // statsUpdated period
    };

    explicit CaptureEngine(Options options, QObject* parent = nullptr);
    ~CaptureEngine() override;

    // The look-back ring; thread-safe lookups from any thread.
    std::shared_ptr<const capture::FrameRing> ring() const { return m_ring; }
    std::shared_ptr<const SessionClock> clock() const { return m_clock; }

public slots:
    // Opens the platform on the current thread and starts the loop. Errors: errorOccurred + stopped.
    void start();
    void stop();
    // Full rate while an action runs.
    void setActionActive(bool active);
    // Applies live settings; invalid settings are refused with errorOccurred and change nothing.
    void applySettings(const ciu::CaptureSettings& settings);
    // An extra cursor sample now (on demand).
    void sampleCursor();
    // An extra frame now (e.g. right after an action), outside the regular deadlines.
    void captureNow();

signals:
    void started(QRect targetRect);
    void frameCaptured(const ciu::Frame& frame);
    void cursorSampled(const ciu::CursorSample& sample);
    // Only when something changed (regions above the threshold, or cursor-only), plus the stability report.
    void changesDetected(const ciu::FrameDiff& diff);
    void statsUpdated(const ciu::CaptureStats& stats);
    void errorOccurred(const QString& message);
    void stopped();

private:
    using Clock = std::chrono::steady_clock;

    void onTick();
    void armTimer();
    void sampleCursorAt(qint64 tNs);
    void captureFrame(const QRegion* damage, qint64 tNs);
    QString refreshTarget();
    void applyRates();
    void maybeEmitStats(qint64 tNs);
    void fail(const QString& message);

    Options m_options;
    CaptureSettings m_settings;
    std::shared_ptr<const SessionClock> m_clock;
    std::unique_ptr<platform::Platform> m_platform;
    capture::ChangeDetector m_detector;
    std::shared_ptr<capture::FrameRing> m_ring;
    QTimer* m_timer = nullptr;

    bool m_running = false;
    bool m_idle = false;
    bool m_actionActive = false;
    bool m_useShape = false;
    Clock::duration m_interval{};
    Clock::time_point m_nextDeadline;
    qint64 m_idleIntervalNs = 0;
    qint64 m_nextIdleFrameNs = 0;

    QRect m_target; // root coordinates of what is captured
    Frame m_previous;
    quint64 m_nextIndex = 1;
    QRect m_cursorRect;   // latest cursor sprite, root coordinates
    QImage m_spare;       // the frame before m_previous, for reuse once nobody else holds it
    QRegion m_spareStale; // where m_spare differs from m_previous (root coordinates)
    int m_failures = 0;

    CaptureStats m_stats;
    qint64 m_periodStartNs = 0;
    quint64 m_periodFrames = 0;
    qint64 m_periodGrabNs = 0;
    qint64 m_periodDiffNs = 0;
    qint64 m_periodTotalNs = 0;
};

} // namespace ciu
