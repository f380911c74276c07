#include "core/engine/engine.h"

#include "core/brush/brushcontroller.h"
#include "core/canvas/canvasmapper.h"
#include "core/capture/captureengine.h"
#include "core/capture/windowtracker.h"
#include "core/director/secretmask.h"
#include "core/engine/backends.h"
#include "core/engine/enginelog.h"
#include "core/engine/sandboxdisplay.h"
#include "core/knowledge/correctionstore.h"
#include "core/knowledge/shortcutstore.h"
#include "core/knowledge/zonememory.h"
#include "core/model/metatypes.h"
#include "core/model/secrets.h"
#include "core/replay/sessionwriter.h"
#include "platform/platformfactory.h"

#include <QTimer>

namespace ciu {

namespace {

// Lives on the capture thread: hands a verification's second look to the canvas once the capture has grabbed
// its frame. A queued signal, not a call: a canvas already gone (shutting down) is never reached.
class LookRelay final : public QObject
{
    Q_OBJECT
signals:
    void frameGrabbed(quint64 token);
};

} // namespace

using replay::SessionWriter;
using replay::SessionWriterOptions;

Engine::Engine(Options options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_sharedClock(std::make_shared<const SessionClock>(m_clock))
{
    registerMetaTypes();
}

Engine::~Engine()
{
    // The threads stop in reverse order of declaration: director, brush, analysis, capture, recorder.
    if (m_capture)
        QMetaObject::invokeMethod(m_capture, &CaptureEngine::stop, Qt::QueuedConnection);
}

void Engine::start()
{
    if (m_started)
        return;
    m_started = true;

    // Recorder.
    if (m_options.record) {
        SessionWriterOptions w;
        w.rootDir = m_options.sessionRoot;
        w.sessionPath = m_options.sessionPath;
        w.config = m_options.config;
        w.maxSessionBytes = m_options.maxSessionBytes;
        w.retention = m_options.retention;
        w.clock = m_clock;
        m_recorder = new SessionWriter(w);
        connect(m_recorder, &SessionWriter::started, this, [this](const QString& path) {
            m_sessionPath = path;
            m_recorderUp = true;
            emit recordingStarted(path);
            checkReady();
        });
        connect(m_recorder, &SessionWriter::recordingFailed, this, [this](const QString& reason) {
            qCDebug(lcEngine) << "recording failed:" << reason; // the recorder logged it
            m_recordingError = reason;
            if (!m_ready) {
                fail(QStringLiteral("recording failed: %1").arg(reason));
            } else {
                if (m_director)
                    QMetaObject::invokeMethod(m_director, &Director::pause, Qt::QueuedConnection);
                emit recordingStopped(reason);
            }
        });
        connect(m_recorder, &SessionWriter::stopped, this, [this](const QString&) { finishShutdown(); });
        m_recorderThread = startWorkerThread(m_recorder, QStringLiteral("recorder"));
    } else {
        m_recorderUp = true;
    }

    // Capture.
    CaptureEngine::Options c;
    c.backend = m_options.platform;
    c.display = m_options.display;
    c.clock = m_sharedClock;
    c.settings = m_options.capture;
    // Tier 0 reports every change: the canvas applies the threshold itself, outside known zones only, so
    // that a checkbox toggling or a character typed into a field (far below 0.5 % of a 1080p frame) still
    // reaches the analysis and the brush's change watch.
    c.settings.thresholdPercent = 0;
    m_capture = new CaptureEngine(c);
    connect(m_capture, &CaptureEngine::started, this, [this](QRect) {
        m_captureUp = true;
        checkReady();
    });
    connect(m_capture, &CaptureEngine::errorOccurred, this, [this](const QString& message) {
        if (!m_captureUp)
            fail(QStringLiteral("capture: %1").arg(message));
        else
            qCWarning(lcEngine) << "capture:" << message;
    });
    m_captureThread = startWorkerThread(m_capture, QStringLiteral("capture"));

    // The window list for the canvas: a tracker with its own connection to the display, on the capture
    // thread (it also polls on every change the capture reports, before the canvas sees that change).
    capture::WindowTracker::Options t;
    t.backend = m_options.platform;
    t.display = m_options.display;
    m_windowTracker = new capture::WindowTracker(t);
    addWorkerToThread(m_windowTracker, m_captureThread.get());
    connect(m_windowTracker, &capture::WindowTracker::errorOccurred, this,
            [](const QString& message) { qCWarning(lcEngine) << message; });

    // Canvas.
    canvas::CanvasMapper::Options canvasOptions;
    canvasOptions.escalation.ignoreBelowPercent = m_options.capture.thresholdPercent;
    canvasOptions.escalation.fullAbovePercent = m_options.fullAbovePercent;
    canvasOptions.clock = m_sharedClock;
    m_canvas = new canvas::CanvasMapper(canvasOptions);
    // Zone memory under $XDG_DATA_HOME/ciu-agent/zones (CIU_ZONE_MEMORY=off: none).
    if (qEnvironmentVariable("CIU_ZONE_MEMORY").compare(QLatin1String("off"), Qt::CaseInsensitive) != 0)
        m_canvas->setZoneMemory(std::make_unique<ZoneMemory>());
    // App schemas' named zones (shipped, and learned under $XDG_DATA_HOME/ciu-agent/shortcuts) on the map.
    m_canvas->setAppSchemas(std::make_unique<ShortcutStore>());
    // The user's hand corrections (the zone inspector's files), unless the app pushes them.
    if (m_options.storedCorrections)
        m_canvas->setCorrectionStore(std::make_unique<CorrectionStore>());
    // The accessibility tree is the canvas' first zone source (moved with the canvas to its thread).
    platform::AccessibilityOptions accessibility;
    accessibility.backend = m_options.accessibility;
    const QString platformName =
        m_options.platform.isEmpty() ? qEnvironmentVariable("CIU_PLATFORM") : m_options.platform;
    if (accessibility.backend.isEmpty() &&
        platformName.compare(QLatin1String("synthetic"), Qt::CaseInsensitive) == 0)
        accessibility.backend = QStringLiteral("none");
    m_canvas->setAccessibility(platform::createAccessibility(accessibility));
    m_analysisThread = startWorkerThread(m_canvas, QStringLiteral("analysis"));

    // Brush.
    m_brush = new BrushController({m_options.platform, m_options.display}, m_options.brush, m_clock);
    connect(m_brush, &BrushController::started, this, [this](bool ok, const QString& error) {
        if (!ok) {
            fail(QStringLiteral("brush: %1").arg(error));
            return;
        }
        m_brushUp = true;
        checkReady();
    });
    m_brushThread = startWorkerThread(m_brush, QStringLiteral("brush"));

    // Director.
    m_director = new Director();
    m_director->setSessionClock(m_clock);
    m_director->setBackendFactory(m_options.backendFactory ? m_options.backendFactory
                                                           : Director::BackendFactory(&createPlanBackend));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!m_options.display.isEmpty())
        env.insert(QStringLiteral("DISPLAY"), m_options.display);
    SandboxDisplay::addAccessibilityEnvironment(env);
    m_director->setLaunchEnvironment(env);
    m_directorThread = startWorkerThread(m_director, QStringLiteral("director"));

    // Wiring (all queued: every worker is on its own thread).
    const auto q = Qt::QueuedConnection;
    // Direct (same thread) and connected first: a change makes the tracker report a new window list
    // before the canvas receives the change itself.
    connect(m_capture, &CaptureEngine::changesDetected, m_windowTracker,
            [tracker = m_windowTracker](const FrameDiff& diff) {
                if (!diff.isEmpty())
                    tracker->poll();
            });
    connect(m_windowTracker, &capture::WindowTracker::windowsChanged, m_canvas,
            &canvas::CanvasMapper::onWindows, q);
    connect(m_windowTracker, &capture::WindowTracker::windowsChanged, m_director, &Director::onWindows, q);
    connect(m_capture, &CaptureEngine::frameCaptured, m_canvas, &canvas::CanvasMapper::onFrame, q);
    connect(m_capture, &CaptureEngine::frameCaptured, m_director, &Director::onFrame, q);
    connect(m_capture, &CaptureEngine::changesDetected, m_canvas, &canvas::CanvasMapper::onChanges, q);
    connect(m_capture, &CaptureEngine::changesDetected, m_brush, &BrushController::onChanges, q);
    connect(m_capture, &CaptureEngine::cursorSampled, m_canvas, &canvas::CanvasMapper::onCursor, q);
    connect(m_capture, &CaptureEngine::cursorSampled, m_brush, &BrushController::onCursor, q);
    connect(m_canvas, &canvas::CanvasMapper::zoneMapUpdated, m_brush, &BrushController::onZoneMap, q);
    connect(m_canvas, &canvas::CanvasMapper::zoneMapUpdated, m_director, &Director::onZoneMap, q);
    connect(m_canvas, &canvas::CanvasMapper::zoneMapUpdated, this, [this] {
        if (!m_haveMap) {
            m_haveMap = true;
            checkReady();
        }
    });
    connect(m_canvas, &canvas::CanvasMapper::eventOccurred, m_director, &Director::onEvent, q);
    connect(m_brush, &BrushController::eventOccurred, m_director, &Director::onEvent, q);
    connect(m_brush, &BrushController::takeoverDetected, m_director, &Director::onEvent, q);
    connect(m_brush, &BrushController::actionFinished, m_director, &Director::onActionFinished, q);
    connect(m_brush, &BrushController::actionActive, m_capture, &CaptureEngine::setActionActive, q);
    connect(m_director, &Director::actionRequested, m_brush, &BrushController::executeAction, q);
    connect(m_director, &Director::analysisRequested, m_canvas, &canvas::CanvasMapper::requestFullAnalysis,
            q);
    // A verification's second look: a frame grabbed now (on the capture thread), then the canvas' look,
    // queued after that frame and its changes, so its answer comes only once the canvas has processed them.
    auto* relay = new LookRelay;
    addWorkerToThread(relay, m_captureThread.get());
    connect(
        m_director, &Director::lookAgainRequested, relay,
        [capture = m_capture, relay](quint64 token) {
            capture->captureNow();
            emit relay->frameGrabbed(token);
        },
        q);
    connect(relay, &LookRelay::frameGrabbed, m_canvas, &canvas::CanvasMapper::lookAgain, q);
    connect(m_canvas, &canvas::CanvasMapper::lookedAgain, m_director, &Director::onLookedAgain, q);
    connect(m_director, &Director::finished, this, [this](TaskOutcome outcome) {
        // Stopped because the recording could not go on, not by the user.
        if (outcome.result == TaskOutcome::Result::Stopped && !m_recordingError.isEmpty())
            outcome.message = QStringLiteral("the recording stopped: %1").arg(m_recordingError);
        // The message may quote the model's reply: no key reaches the terminal or the app.
        outcome.message = scrubSecrets(outcome.message);
        QMetaObject::invokeMethod(
            m_brush, [b = m_brush] { b->setRunActive(false); }, Qt::QueuedConnection);
        if (m_recorder)
            QMetaObject::invokeMethod(
                m_recorder,
                [r = m_recorder, result = toString(outcome.result), message = outcome.message] {
                    r->setOutcome(result, message);
                },
                Qt::QueuedConnection);
        emit taskFinished(outcome);
    });
    if (m_recorder) {
        connect(m_capture, &CaptureEngine::frameCaptured, m_recorder, &SessionWriter::onFrame, q);
        connect(m_capture, &CaptureEngine::cursorSampled, m_recorder, &SessionWriter::onCursor, q);
        connect(m_canvas, &canvas::CanvasMapper::zoneMapUpdated, m_recorder, &SessionWriter::onZoneMap, q);
        connect(m_canvas, &canvas::CanvasMapper::eventOccurred, m_recorder, &SessionWriter::onEvent, q);
        connect(m_canvas, &canvas::CanvasMapper::keyFrameAnalysed, m_recorder,
                [recorder = m_recorder](const Frame& frame, int tier) {
                    recorder->writeKeyFrame(frame, QStringLiteral("tier%1").arg(tier));
                });
        connect(m_brush, &BrushController::eventOccurred, m_recorder, &SessionWriter::onEvent, q);
        connect(m_director, &Director::eventOccurred, m_recorder, &SessionWriter::onEvent, q);
        connect(m_director, &Director::decisionRecorded, m_recorder, &SessionWriter::onDirectorRecord, q);
        // actions.jsonl: the action as the brush accepted it, with its result.
        connect(m_brush, &BrushController::actionStarted, this,
                [this](quint64 id, const Action& action) { m_actions.insert(id, action); });
        connect(m_brush, &BrushController::actionFinished, this,
                [this](quint64 id, const ActionResult& result) {
                    const Action action = m_actions.take(id);
                    QMetaObject::invokeMethod(
                        m_recorder,
                        [recorder = m_recorder, action, result] { recorder->onAction(action, result); },
                        Qt::QueuedConnection);
                });
        QMetaObject::invokeMethod(m_recorder, &SessionWriter::start, q);
    }
    // The tracker's first report reaches the canvas before the first frame.
    QMetaObject::invokeMethod(m_windowTracker, &capture::WindowTracker::start, q);
    QMetaObject::invokeMethod(m_capture, &CaptureEngine::start, q);
    QMetaObject::invokeMethod(m_brush, &BrushController::start, q);
    if (!m_excluded.isEmpty())
        setExcludedRegions(m_excluded);

    QTimer::singleShot(m_options.readyTimeoutMs, this, [this] {
        if (m_ready || m_failed)
            return;
        if (m_captureUp && m_brushUp && m_recorderUp) {
            qCWarning(lcEngine) << "no zone map within" << m_options.readyTimeoutMs
                                << "ms; going on without one";
            m_haveMap = true;
            checkReady();
            return;
        }
        fail(QStringLiteral("the pipeline did not start within %1 s (capture %2, brush %3, recorder %4)")
                 .arg(m_options.readyTimeoutMs / 1000)
                 .arg(m_captureUp ? QStringLiteral("up") : QStringLiteral("down"),
                      m_brushUp ? QStringLiteral("up") : QStringLiteral("down"),
                      m_recorderUp ? QStringLiteral("up") : QStringLiteral("down")));
    });
}

void Engine::checkReady()
{
    if (m_ready || m_failed || !m_captureUp || !m_brushUp || !m_recorderUp || !m_haveMap)
        return;
    m_ready = true;
    emit ready();
}

void Engine::fail(const QString& error)
{
    if (m_failed)
        return;
    m_failed = true;
    qCWarning(lcEngine).noquote() << error;
    emit failed(error);
}

void Engine::runTask(const QString& task, const DirectorOptions& options)
{
    if (!m_director)
        return;
    if (m_recorder)
        QMetaObject::invokeMethod(
            m_recorder, [r = m_recorder, task = maskedTask(task)] { r->setTask(task); },
            Qt::QueuedConnection);
    QMetaObject::invokeMethod(
        m_brush, [b = m_brush, active = !options.dryRun] { b->setRunActive(active); }, Qt::QueuedConnection);
    QMetaObject::invokeMethod(
        m_director, [d = m_director, task, options] { d->startTask(task, options); }, Qt::QueuedConnection);
}

void Engine::pause()
{
    if (m_director)
        QMetaObject::invokeMethod(m_director, &Director::pause, Qt::QueuedConnection);
}

void Engine::resume()
{
    if (m_brush)
        QMetaObject::invokeMethod(m_brush, &BrushController::resume, Qt::QueuedConnection);
    if (m_director)
        QMetaObject::invokeMethod(m_director, &Director::resume, Qt::QueuedConnection);
}

void Engine::step()
{
    if (m_director)
        QMetaObject::invokeMethod(m_director, &Director::step, Qt::QueuedConnection);
}

void Engine::stop(const QString& reason)
{
    if (m_director)
        QMetaObject::invokeMethod(
            m_director, [d = m_director, reason] { d->stop(reason); }, Qt::QueuedConnection);
}

void Engine::answerConfirmation(quint64 id, bool approved)
{
    if (m_director)
        QMetaObject::invokeMethod(
            m_director, [d = m_director, id, approved] { d->answerConfirmation(id, approved); },
            Qt::QueuedConnection);
}

void Engine::setExcludedRegions(const QList<QRect>& rects)
{
    m_excluded = rects;
    if (m_canvas)
        QMetaObject::invokeMethod(
            m_canvas, [c = m_canvas, rects] { c->setExcludedRegions(rects); }, Qt::QueuedConnection);
    if (m_brush)
        QMetaObject::invokeMethod(
            m_brush, [b = m_brush, rects] { b->setExcludedRegions(rects); }, Qt::QueuedConnection);
}

void Engine::shutdown()
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    stop();
    if (m_capture)
        QMetaObject::invokeMethod(m_capture, &CaptureEngine::stop, Qt::QueuedConnection);
    if (m_recorder && m_recorderUp) {
        QMetaObject::invokeMethod(m_recorder, &SessionWriter::stop, Qt::QueuedConnection);
        // A recorder that never answers must not hang the program.
        QTimer::singleShot(15'000, this, &Engine::finishShutdown);
        return;
    }
    QMetaObject::invokeMethod(this, &Engine::finishShutdown, Qt::QueuedConnection);
}

void Engine::finishShutdown()
{
    if (m_shutDownEmitted)
        return;
    m_shutDownEmitted = true;
    emit shutDown(m_sessionPath);
}

} // namespace ciu

#include "engine.moc"
