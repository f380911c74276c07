#pragma once

#include "core/model/frame.h"
#include "core/model/sessionclock.h"
#include "platform/platform.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace ciu::replay {

// A minimal capture loop for recording without the CaptureEngine (benchmarks, the replay tests): grabs the
// whole screen every `frameIntervalMs` and samples the pointer every `cursorIntervalMs`, on the thread it
// lives in. The platform is opened in start(), on that thread.
class GrabFeed final : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        platform::PlatformOptions platform;
        SessionClock clock;
        int frameIntervalMs = 33;
        int cursorIntervalMs = 16;
    };

    explicit GrabFeed(Options options, QObject* parent = nullptr);
    ~GrabFeed() override;

    qint64 framesGrabbed() const { return m_index; }
    qint64 lateFrames() const { return m_late; }

public slots:
    void start();
    void stop();

signals:
    void started(QSize screenSize);
    void frameCaptured(const ciu::Frame& frame);
    void cursorSampled(const ciu::CursorSample& sample);
    void failed(const QString& error);

private:
    void grabFrame();
    void sampleCursor();

    Options m_options;
    std::unique_ptr<platform::Platform> m_platform;
    QTimer m_frameTimer;
    QTimer m_cursorTimer;
    quint64 m_index = 0;
    qint64 m_late = 0;
    qint64 m_nextDueNs = 0;
};

} // namespace ciu::replay
