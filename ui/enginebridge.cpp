#include "ui/enginebridge.h"

#include "core/brush/brushcontroller.h"
#include "core/canvas/canvasmapper.h"
#include "core/capture/captureengine.h"
#include "core/capture/windowtracker.h"
#include "core/engine/engine.h"
#include "ui/mainwindow.h"
#include "ui/uilog.h"
#include "ui/zonecorrections.h"

#include <QMessageBox>

namespace ciu::ui {

EngineBridge::EngineBridge(MainWindow* window, Options options, QObject* parent)
    : QObject(parent)
    , m_window(window)
    , m_options(std::move(options))
{
    connect(m_window, &MainWindow::runRequested, this, &EngineBridge::run);
    connect(m_window, &MainWindow::pauseRequested, this, [this] {
        if (m_engine)
            m_engine->pause();
    });
    connect(m_window, &MainWindow::resumeRequested, this, [this] {
        if (m_engine)
            m_engine->resume();
    });
    connect(m_window, &MainWindow::stepRequested, this, [this] {
        if (m_engine)
            m_engine->step();
    });
    connect(m_window, &MainWindow::stopRequested, this, [this] {
        if (m_pending) {
            // Stopped before the engine took it: the task ends here.
            TaskOutcome outcome;
            outcome.result = TaskOutcome::Result::Stopped;
            outcome.message = tr("stopped before it started");
            outcome.dryRun = m_pending->dryRun;
            m_pending.reset();
            m_window->taskFinished(outcome);
            emit taskFinished(outcome);
            return;
        }
        if (m_engine)
            m_engine->stop();
    });
    connect(m_window, &MainWindow::confirmationAnswered, this, [this](quint64 id, bool allowed) {
        if (m_engine)
            m_engine->answerConfirmation(id, allowed);
    });
    connect(m_window, &MainWindow::targetDisplayChanged, this, &EngineBridge::startOn);
    connect(m_window, &MainWindow::settingsChanged, this, &EngineBridge::onSettingsChanged);
    connect(m_window, &MainWindow::excludedRegionsChanged, this, [this](const QList<QRect>& rects) {
        if (m_engine)
            m_engine->setExcludedRegions(rects);
    });
}

EngineBridge::~EngineBridge()
{
    m_engine.reset();
}

DirectorOptions EngineBridge::directorOptions(const TaskRequest& request, int maxIterations,
                                              double maxCostUsd)
{
    DirectorOptions o;
    o.resumable = true; // the Resume button
    o.provider = request.provider.isEmpty() ? QStringLiteral("local") : request.provider;
    o.model = request.model;
    o.embeddingModel = request.embeddingModel;
    o.speed = speedModeFromString(request.speed).value_or(SpeedMode::Medium);
    o.dryRun = request.dryRun;
    o.replayTaskId = request.replayTaskId;
    o.maxIterations = std::max(1, maxIterations);
    o.maxCostUsd = maxCostUsd;
    // A person is at the window: high-risk actions are asked about, not refused.
    o.confirmation = safety::ConfirmationMode::Ask;
    return o;
}

bool EngineBridge::needsRestart(const AppSettings& a, const AppSettings& b)
{
    return a.fps != b.fps || a.ringSeconds != b.ringSeconds || a.tier1MinPercent != b.tier1MinPercent ||
           a.tier2MinPercent != b.tier2MinPercent || a.record != b.record ||
           a.recordingDirectory != b.recordingDirectory || a.recordingBudgetMiB != b.recordingBudgetMiB ||
           a.keepSessionsDays != b.keepSessionsDays || a.keepSessionsCount != b.keepSessionsCount;
}

void EngineBridge::onSettingsChanged(const AppSettings& settings)
{
    if (!m_engine || !needsRestart(m_engineSettings, settings))
        return;
    if (m_taskActive) {
        m_restartPending = true;
        m_window->setStatusMessage(tr("The new capture and recording settings apply after this task."));
        return;
    }
    qCInfo(lcBridge) << "settings changed: restarting the engine";
    startOn(m_window->targetDisplay());
}

void EngineBridge::startOn(const QString& displayName)
{
    m_restartPending = false;
    shutdown();
    Engine::Options options;
    options.platform = m_options.platform;
    options.display = displayName;
    const AppSettings& settings = m_window->settings();
    m_engineSettings = settings;
    // Every run is recorded unless the user turned it off (README "Recordings"); an empty directory is
    // the default folder under $XDG_DATA_HOME.
    options.record = m_options.record || settings.record;
    options.sessionRoot =
        m_options.sessionRoot.isEmpty() ? settings.recordingDirectory : m_options.sessionRoot;
    options.capture.fps = settings.fps;
    options.capture.ringSeconds = settings.ringSeconds;
    options.capture.thresholdPercent = settings.tier1MinPercent;
    options.maxSessionBytes = qint64(settings.recordingBudgetMiB) * 1024 * 1024;
    options.retention.maxAgeDays = settings.keepSessionsDays;
    options.retention.maxSessions = settings.keepSessionsCount;
    options.fullAbovePercent = settings.tier2MinPercent;
    // The window's zone inspector pushes the corrections (from its own folder) to the canvas: not twice.
    options.storedCorrections = false;
    m_engine = std::make_unique<Engine>(options);
    // The window's own windows on the target display: masked out of the analysis, never clicked.
    m_engine->setExcludedRegions(m_window->excludedRegions());
    m_ready = false;
    m_status = {};
    connectEngine();
    m_window->setStatusMessage(tr("Connecting to %1…").arg(displayName));
    m_engine->start();
    // The workers exist once start() returned; they report through queued signals, so nothing is missed.
    connectWorkers();
}

void EngineBridge::shutdown()
{
    if (!m_engine)
        return;
    m_engine->disconnect(this);
    m_engine->shutdown();
    m_engine.reset();
    m_ready = false;
    if (m_taskActive)
        m_window->engineFailed(tr("the engine was restarted; the task ended"));
    m_taskActive = false;
}

void EngineBridge::connectEngine()
{
    Engine* engine = m_engine.get();
    MainWindow* w = m_window;
    connect(engine, &Engine::ready, this, [this] {
        m_ready = true;
        m_window->setStatusMessage(tr("Connected: the agent sees %1.").arg(m_window->targetDisplay()));
        emit ready();
        if (m_pending) {
            const TaskRequest request = *m_pending;
            m_pending.reset();
            run(request);
        }
    });
    connect(engine, &Engine::failed, this, [this](const QString& error) {
        m_window->setStatusMessage(tr("The engine failed: %1").arg(error));
        m_taskActive = false;
        m_window->engineFailed(error);
        emit failed(error);
    });
    connect(engine, &Engine::recordingStarted, this, [w](const QString& path) {
        w->setLastRecording(path);
        w->setStatusMessage(tr("Recording to %1").arg(path));
    });
    connect(engine, &Engine::recordingStopped, this, [w](const QString& reason) {
        const QString message =
            tr("Recording stopped: %1. The agent is paused; what was recorded is kept.").arg(reason);
        w->setStatusMessage(message);
        auto* box =
            new QMessageBox(QMessageBox::Warning, tr("Recording stopped"), message, QMessageBox::Ok, w);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    connect(engine, &Engine::taskFinished, this, [this](const TaskOutcome& outcome) {
        qCInfo(lcBridge).noquote() << "task finished:" << toString(outcome.result) << outcome.message;
        m_taskActive = false;
        if (m_restartPending)
            QMetaObject::invokeMethod(
                this, [this] { startOn(m_window->targetDisplay()); }, Qt::QueuedConnection);
        m_window->taskFinished(outcome);
        emit taskFinished(outcome);
    });
}

void EngineBridge::connectWorkers()
{
    Engine* engine = m_engine.get();
    MainWindow* w = m_window;
    // Worker → window: the workers live on their own threads, so these connections are queued.
    if (CaptureEngine* capture = engine->capture()) {
        connect(capture, &CaptureEngine::frameCaptured, w, &MainWindow::setFrame);
        connect(capture, &CaptureEngine::cursorSampled, w, &MainWindow::addCursorSample);
        connect(capture, &CaptureEngine::changesDetected, w, &MainWindow::showChanges);
        connect(capture, &CaptureEngine::statsUpdated, this, [this](const CaptureStats& stats) {
            m_status.fps = stats.fps;
            publishStatus();
        });
    }
    // The target's windows: hand corrections are stored relative to their window and follow it.
    if (capture::WindowTracker* windows = engine->windowTracker()) {
        connect(windows, &capture::WindowTracker::windowsChanged, w,
                [w](const QList<platform::WindowInfo>& list) { w->setWindows(list); });
    }
    if (canvas::CanvasMapper* canvas = engine->canvas()) {
        connect(canvas, &canvas::CanvasMapper::zoneMapUpdated, w, &MainWindow::setZoneMap);
        connect(canvas, &canvas::CanvasMapper::eventOccurred, w, &MainWindow::addEvent);
        connect(canvas, &canvas::CanvasMapper::eventOccurred, this, [this](const SpatialEvent& event) {
            if (event.kind != SpatialEvent::Kind::TierDecision)
                return;
            const int tier = event.data.value(QStringLiteral("tier")).toInt();
            (tier <= 0 ? m_status.tier0 : tier == 1 ? m_status.tier1 : m_status.tier2)++;
            publishStatus();
        });
        // Hand corrections reach the canvas as user zones (root coordinates).
        connect(w->corrections(), &ZoneCorrections::userZonesChanged, canvas,
                &canvas::CanvasMapper::setUserZones);
        QMetaObject::invokeMethod(
            canvas, [canvas, zones = w->corrections()->userZones()] { canvas->setUserZones(zones); },
            Qt::QueuedConnection);
        // Detections the user deleted or replaced stay away.
        connect(w->corrections(), &ZoneCorrections::suppressedRegionsChanged, canvas,
                &canvas::CanvasMapper::setSuppressedRegions);
        QMetaObject::invokeMethod(
            canvas,
            [canvas, rects = w->corrections()->suppressedRegions()] { canvas->setSuppressedRegions(rects); },
            Qt::QueuedConnection);
    }
    if (BrushController* brush = engine->brush()) {
        connect(brush, &BrushController::eventOccurred, w, &MainWindow::addEvent);
        connect(brush, &BrushController::takeoverDetected, w, &MainWindow::addEvent);
        connect(brush, &BrushController::trajectoryPlanned, w, &MainWindow::setPlannedTrajectory);
        connect(brush, &BrushController::actionFinished, w, [w] { w->actionFinished(); });
    }
    if (Director* director = engine->director()) {
        connect(director, &Director::eventOccurred, w, &MainWindow::addEvent);
        connect(director, &Director::planUpdated, w, &MainWindow::setPlan);
        connect(director, &Director::statusChanged, w, &MainWindow::setDirectorState);
        connect(director, &Director::usageUpdated, this, [this](const DirectorUsage& usage) {
            m_status.modelCalls = usage.modelCalls;
            m_status.inputTokens = usage.inputTokens;
            m_status.outputTokens = usage.outputTokens;
            m_status.costUsd = usage.costUsd;
            m_status.budgetUsd = std::max(0.0, usage.maxCostUsd);
            m_status.iterations = usage.iterations;
            m_status.maxIterations = usage.maxIterations;
            publishStatus();
        });
        connect(director, &Director::confirmationRequested, w, &MainWindow::requestConfirmation);
    }
}

void EngineBridge::publishStatus()
{
    m_window->setEngineStatus(m_status);
}

void EngineBridge::run(const TaskRequest& request)
{
    if (!m_engine) {
        startOn(m_window->targetDisplay());
    }
    if (!m_ready) {
        m_pending = request;
        m_window->setStatusMessage(tr("The task starts once the engine sees the display."));
        return;
    }
    const AppSettings& settings = m_window->settings();
    TaskRequest withSettings = request;
    if (withSettings.embeddingModel.isEmpty() && withSettings.provider == QLatin1String("openai"))
        withSettings.embeddingModel = settings.openaiEmbeddingModel;
    const DirectorOptions options =
        directorOptions(withSettings, settings.maxIterations, settings.maxCostUsd);
    qCInfo(lcBridge) << "run" << options.provider << (options.dryRun ? "dry run" : "execute");
    m_taskActive = true;
    m_status.iterations = 0;
    m_status.maxIterations = options.maxIterations;
    m_status.budgetUsd = std::max(0.0, options.maxCostUsd);
    publishStatus();
    // A takeover leaves the brush paused; a new task from the user is the go-ahead to act again.
    m_engine->resume();
    m_engine->runTask(request.task, options);
    if (request.startPaused) {
        m_engine->pause();
        m_engine->step();
    }
}

} // namespace ciu::ui
