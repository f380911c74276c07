#pragma once

#include "core/brush/brushsettings.h"
#include "core/capture/capturesettings.h"
#include "core/director/director.h"
#include "core/director/directortypes.h"
#include "core/model/sessionclock.h"
#include "core/model/workerthread.h"
#include "core/replay/sessionretention.h"

#include <QHash>
#include <QObject>
#include <QProcessEnvironment>
#include <QRect>

#include <memory>

namespace ciu {

class BrushController;
class CaptureEngine;
namespace replay {
class SessionWriter;
}
namespace canvas {
class CanvasMapper;
}
namespace capture {
class WindowTracker;
}

// The whole pipeline of one session (docs/ARCHITECTURE.md): capture → canvas → brush →
// director → recorder, each worker on its own named thread ("capture", "analysis", "brush", "director",
// "recorder"), connected with queued signals carrying values. Lives on the thread that created it (the GUI
// thread or the command line's main thread).
//
//   Engine engine(options);
//   connect(&engine, &Engine::ready, …);        // capture, brush and recorder are up, the first zone map is
//   in engine.start(); engine.runTask(task, directorOptions);       // → taskFinished(outcome)
//   engine.shutdown();                           // → shutDown(sessionPath) once the recording is closed
class Engine final : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString platform; // platform backend ("x11", "synthetic"); empty: the default
        QString display;  // X display; empty: $DISPLAY
        // Accessibility backend for the canvas: "atspi", "none"; empty: $CIU_ACCESSIBILITY, else atspi
        // (none on the synthetic platform: its desktop has no accessibility tree).
        QString accessibility;
        bool record = true;
        QString sessionRoot;                               // empty: the recorder's default
        QString sessionPath;                               // exact folder (tests)
        qint64 maxSessionBytes = 4LL * 1024 * 1024 * 1024; // recording stops at this size (0: no limit)
        replay::RetentionPolicy retention;                 // applied to the session root at start
        CaptureSettings capture;
        BrushSettings brush;
        double fullAbovePercent = 30.0; // changes above this share of the screen: tier 2
        QJsonObject config;             // recorded in metadata.json
        int readyTimeoutMs = 20'000;
        Director::BackendFactory backendFactory; // null: createPlanBackend()
        // The zone inspector's corrections as stored ($XDG_DATA_HOME/ciu-agent/corrections) applied by the
        // canvas to every map (CanvasMapper::setCorrectionStore()). Off for the desktop app, which pushes
        // the corrections it shows and edits itself (ZoneCorrections → setUserZones, setSuppressedRegions).
        bool storedCorrections = true;
    };

    explicit Engine(Options options, QObject* parent = nullptr);
    ~Engine() override;

    // Starts the workers; emits ready() or failed().
    void start();
    bool isReady() const { return m_ready; }
    QString sessionPath() const { return m_sessionPath; }
    // The director worker (on its thread): connect to its signals with queued connections.
    Director* director() const { return m_director; }
    // The other workers (on their threads), for a GUI that shows their values: connect with queued
    // connections.
    CaptureEngine* capture() const { return m_capture; }
    // The target display's window list (on the capture thread): connect with queued connections.
    capture::WindowTracker* windowTracker() const { return m_windowTracker; }
    canvas::CanvasMapper* canvas() const { return m_canvas; }
    BrushController* brush() const { return m_brush; }
    SessionClock clock() const { return m_clock; }

public slots:
    void runTask(const QString& task, const ciu::DirectorOptions& options);
    void pause();
    void resume();
    void step();
    // Stops the running task; `reason` becomes its outcome message (empty: "stopped by the user").
    void stop(const QString& reason = QString());
    void answerConfirmation(quint64 id, bool approved);
    // The agent's own windows on the target display (root coordinates): masked out of the analysis and
    // never acted on. May be called before start().
    void setExcludedRegions(const QList<QRect>& rects);
    // Ends the session: stops the director and capture, closes the recording; emits shutDown().
    void shutdown();

signals:
    void ready();
    void failed(const QString& error);
    void recordingStarted(const QString& sessionPath);
    // Recording stopped during the session (disk full, size budget): the files written so far are kept and
    // the director is paused.
    void recordingStopped(const QString& reason);
    void taskFinished(const ciu::TaskOutcome& outcome);
    void shutDown(const QString& sessionPath);

private:
    void fail(const QString& error);
    void checkReady();
    void finishShutdown();

    Options m_options;
    SessionClock m_clock;
    std::shared_ptr<const SessionClock> m_sharedClock;
    // Workers are owned by their threads (deleted on the thread when it finishes); the pointers stay valid
    // until the threads are destroyed.
    CaptureEngine* m_capture = nullptr;
    capture::WindowTracker* m_windowTracker = nullptr; // on the capture thread
    canvas::CanvasMapper* m_canvas = nullptr;
    BrushController* m_brush = nullptr;
    Director* m_director = nullptr;
    replay::SessionWriter* m_recorder = nullptr;
    WorkerThread m_recorderThread;
    WorkerThread m_captureThread;
    WorkerThread m_analysisThread;
    WorkerThread m_brushThread;
    WorkerThread m_directorThread;

    bool m_started = false;
    bool m_ready = false;
    bool m_failed = false;
    bool m_captureUp = false;
    bool m_brushUp = false;
    bool m_recorderUp = false;
    bool m_haveMap = false;
    bool m_shuttingDown = false;
    bool m_shutDownEmitted = false;
    QString m_sessionPath;
    QString m_recordingError; // why the recording stopped during the run (the outcome says so)
    QList<QRect> m_excluded;
    QHash<quint64, Action> m_actions; // started, not finished (for actions.jsonl)
};

} // namespace ciu
