#include "ui/mainwindow.h"

#include "core/engine/inputforwarder.h"
#include "core/engine/sandboxdisplay.h"
#include "core/replay/sessionformat.h"
#include "platform/platformfactory.h"
#include "ui/confirmationdialog.h"
#include "ui/enginestatus.h"
#include "ui/eventlogview.h"
#include "ui/liveview.h"
#include "ui/replay/replayviewer.h"
#include "ui/settingsdialog.h"
#include "ui/uilog.h"
#include "ui/zonecorrections.h"
#include "ui/zoneinspector.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QThread>
#include <QToolBar>
#include <QUndoStack>

#include <algorithm>

namespace ciu::ui {
namespace {

void stopThread(QThread* thread)
{
    if (!thread)
        return;
    thread->quit();
    thread->wait();
    delete thread;
}

// ":1.0" and ":1" name the same display.
QString normalizedDisplay(QString name)
{
    name = name.trimmed();
    const int colon = int(name.lastIndexOf(QLatin1Char(':')));
    const int dot = int(name.indexOf(QLatin1Char('.'), colon < 0 ? 0 : colon));
    if (dot > colon && colon >= 0)
        name.truncate(dot);
    return name;
}

QIcon themedIcon(const char* resource, QStyle::StandardPixmap fallback, const QStyle* style)
{
    const QString path = QStringLiteral(":/icons/") + QLatin1String(resource);
    QIcon icon(path);
    return icon.availableSizes().isEmpty() && icon.pixmap(16).isNull() ? style->standardIcon(fallback) : icon;
}

} // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(std::move(options))
    , m_forwardThread(nullptr, &stopThread)
{
    setWindowTitle(tr("CIU Agent"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/ciu-agent.svg")));
    setObjectName(QStringLiteral("MainWindow"));
    {
        const auto settings = openSettings();
        m_settings = AppSettings::load(*settings);
    }

    m_corrections = new ZoneCorrections(m_options.correctionsDirectory.isEmpty()
                                            ? CorrectionStore()
                                            : CorrectionStore(m_options.correctionsDirectory),
                                        this);
    m_liveView = new LiveView(this);
    setCentralWidget(m_liveView);
    m_sandbox = new SandboxDisplay(this);

    createDocks();
    createActions();

    m_statusFields = new EngineStatusBar(this);
    m_indicator = new AgentIndicator(this);
    m_targetLabel = new QLabel(this);
    statusBar()->addPermanentWidget(m_statusFields);
    statusBar()->addPermanentWidget(m_targetLabel);
    statusBar()->addPermanentWidget(m_indicator);
    m_targetLabel->setText(tr("Target: %1").arg(targetDisplay()));

    // The document of zones and corrections feeds the live view and the inspector.
    connect(m_corrections, &ZoneCorrections::effectiveMapChanged, m_liveView, &LiveView::setZoneMap);
    connect(m_corrections, &ZoneCorrections::correctionsChanged, this, &MainWindow::correctionsChanged);
    connect(m_corrections, &ZoneCorrections::errorOccurred, this, &MainWindow::setStatusMessage);
    connect(m_liveView, &LiveView::zoneSelected, m_inspector, &ZoneInspector::setSelectedZone);
    connect(m_inspector, &ZoneInspector::zoneSelected, m_liveView, &LiveView::setSelectedZone);
    connect(m_liveView, &LiveView::zoneGeometryEdited, m_inspector, &ZoneInspector::setZoneGeometry);
    connect(m_liveView, &LiveView::zoneDrawn, m_inspector, &ZoneInspector::addZone);
    connect(m_inspector, &ZoneInspector::drawModeRequested, this,
            [this](bool on) { m_liveView->setMode(on ? LiveView::Mode::Draw : LiveView::Mode::Inspect); });
    connect(m_liveView, &LiveView::modeChanged, this, [this](LiveView::Mode mode) {
        m_inspector->setDrawMode(mode == LiveView::Mode::Draw);
        m_drawAction->setChecked(mode == LiveView::Mode::Draw);
        m_takeoverAction->setChecked(mode == LiveView::Mode::Takeover);
    });
    connect(m_eventLog, &EventLogView::eventSelected, m_liveView, &LiveView::highlightEvent);

    // The task console's requests leave through the window's signals.
    connect(m_console, &TaskConsole::runRequested, this, &MainWindow::runRequested);
    connect(m_console, &TaskConsole::pauseRequested, this, &MainWindow::pauseRequested);
    connect(m_console, &TaskConsole::resumeRequested, this, &MainWindow::resumeRequested);
    connect(m_console, &TaskConsole::stepRequested, this, &MainWindow::stepRequested);
    connect(m_console, &TaskConsole::stopRequested, this, &MainWindow::stopRequested);

    connect(m_sandbox, &SandboxDisplay::started, this, [this](const QString& display) {
        m_targetLabel->setText(tr("Target: sandbox %1").arg(display));
        m_sandboxAction->setChecked(true);
        m_openInSandboxAction->setEnabled(true);
        setStatusMessage(tr("Sandbox display %1 is running.").arg(display));
        updateExcludedRegions();
        emit targetDisplayChanged(display);
    });
    connect(m_sandbox, &SandboxDisplay::failed, this, [this](const QString& error) {
        m_sandboxAction->setChecked(false);
        m_openInSandboxAction->setEnabled(false);
        setStatusMessage(tr("Sandbox display: %1").arg(error));
    });
    connect(m_sandbox, &SandboxDisplay::stopped, this, [this] {
        setTakeover(false);
        m_sandboxAction->setChecked(false);
        m_openInSandboxAction->setEnabled(false);
        m_targetLabel->setText(tr("Target: %1").arg(targetDisplay()));
        updateExcludedRegions();
        emit targetDisplayChanged(targetDisplay());
    });

    m_excludedTimer.setInterval(500);
    connect(&m_excludedTimer, &QTimer::timeout, this, &MainWindow::updateExcludedRegions);
    m_excludedTimer.start();

    applySettings();
    if (m_options.globalHotkey)
        setupHotkey();
    resize(1280, 800);
    restoreWindowState();
    setStatusMessage(tr("Ready"));
}

MainWindow::~MainWindow()
{
    if (m_forwarder)
        QMetaObject::invokeMethod(m_forwarder, &InputForwarder::close, Qt::QueuedConnection);
    m_forwardThread.reset();
}

std::unique_ptr<QSettings> MainWindow::openSettings() const
{
    if (!m_options.settingsFile.isEmpty())
        return std::make_unique<QSettings>(m_options.settingsFile, QSettings::IniFormat);
    return std::make_unique<QSettings>();
}

QString MainWindow::targetDisplay() const
{
    if (m_sandbox && m_sandbox->state() == SandboxDisplay::State::Running)
        return m_sandbox->displayName();
    return m_options.display.isEmpty() ? qEnvironmentVariable("DISPLAY") : m_options.display;
}

bool MainWindow::targetIsOwnDisplay() const
{
    if (QGuiApplication::platformName() != QLatin1String("xcb"))
        return false;
    const QString backend = m_options.platform.isEmpty() ? qEnvironmentVariable("CIU_PLATFORM").toLower()
                                                         : m_options.platform.toLower();
    if (!backend.isEmpty() && backend != QLatin1String("x11"))
        return false;
    return normalizedDisplay(targetDisplay()) == normalizedDisplay(qEnvironmentVariable("DISPLAY"));
}

void MainWindow::createDocks()
{
    m_console = new TaskConsole(this);
    m_eventLog = new EventLogView(this);
    m_inspector = new ZoneInspector(m_corrections, this);

    auto dock = [this](QWidget* widget, const QString& title, const QString& name, Qt::DockWidgetArea area) {
        auto* d = new QDockWidget(title, this);
        d->setObjectName(name);
        d->setWidget(widget);
        addDockWidget(area, d);
        return d;
    };
    QDockWidget* task = dock(m_console, tr("Task"), QStringLiteral("TaskDock"), Qt::LeftDockWidgetArea);
    QDockWidget* zones = dock(m_inspector, tr("Zones"), QStringLiteral("ZonesDock"), Qt::RightDockWidgetArea);
    QDockWidget* events =
        dock(m_eventLog, tr("Events"), QStringLiteral("EventsDock"), Qt::BottomDockWidgetArea);
    // The live view gets most of the room by default (a saved state overrides this).
    resizeDocks({task, zones}, {260, 280}, Qt::Horizontal);
    resizeDocks({events}, {170}, Qt::Vertical);
}

void MainWindow::createActions()
{
    const QStyle* s = style();
    // File
    QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
    QAction* settingsAction =
        fileMenu->addAction(s->standardIcon(QStyle::SP_FileDialogDetailedView), tr("&Settings…"));
    settingsAction->setShortcut(QKeySequence::Preferences);
    connect(settingsAction, &QAction::triggered, this, &MainWindow::showSettings);
    fileMenu->addSeparator();
    QAction* openRecordingAction =
        fileMenu->addAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open recording…"));
    openRecordingAction->setShortcut(QKeySequence::Open);
    connect(openRecordingAction, &QAction::triggered, this, [this] {
        const QString start = !m_lastRecording.isEmpty()                 ? QFileInfo(m_lastRecording).path()
                              : !m_settings.recordingDirectory.isEmpty() ? m_settings.recordingDirectory
                                                                         : replay::defaultSessionRoot();
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open recording"), start);
        if (!dir.isEmpty())
            openRecording(dir);
    });
    m_openLastRecording = fileMenu->addAction(tr("Open &last recording"));
    m_openLastRecording->setEnabled(false);
    connect(m_openLastRecording, &QAction::triggered, this, [this] { openRecording(m_lastRecording); });
    fileMenu->addSeparator();
    QAction* quitAction = fileMenu->addAction(s->standardIcon(QStyle::SP_DialogCloseButton), tr("&Quit"));
    quitAction->setShortcut(QKeySequence::Quit);
    connect(quitAction, &QAction::triggered, this, &QWidget::close);

    // Edit
    QMenu* editMenu = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_inspector->undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcut(QKeySequence::Undo);
    undo->setIcon(s->standardIcon(QStyle::SP_ArrowBack));
    QAction* redo = m_inspector->undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcut(QKeySequence::Redo);
    redo->setIcon(s->standardIcon(QStyle::SP_ArrowForward));
    editMenu->addAction(undo);
    editMenu->addAction(redo);
    editMenu->addSeparator();
    m_drawAction =
        editMenu->addAction(themedIcon("draw-zone.svg", QStyle::SP_FileDialogNewFolder, s), tr("&Draw zone"));
    m_drawAction->setCheckable(true);
    m_drawAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_D));
    connect(m_drawAction, &QAction::triggered, this,
            [this](bool on) { m_liveView->setMode(on ? LiveView::Mode::Draw : LiveView::Mode::Inspect); });
    QAction* deleteZone = editMenu->addAction(s->standardIcon(QStyle::SP_TrashIcon), tr("De&lete zone"));
    deleteZone->setShortcut(QKeySequence::Delete);
    deleteZone->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_liveView->addAction(deleteZone);
    connect(deleteZone, &QAction::triggered, m_inspector, &ZoneInspector::deleteSelectedZone);

    // View
    QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
    QAction* zoomIn = viewMenu->addAction(themedIcon("zoom-in.svg", QStyle::SP_ArrowUp, s), tr("Zoom &in"));
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    connect(zoomIn, &QAction::triggered, m_liveView, &LiveView::zoomIn);
    QAction* zoomOut =
        viewMenu->addAction(themedIcon("zoom-out.svg", QStyle::SP_ArrowDown, s), tr("Zoom &out"));
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    connect(zoomOut, &QAction::triggered, m_liveView, &LiveView::zoomOut);
    QAction* zoomFit = viewMenu->addAction(themedIcon("zoom-fit.svg", QStyle::SP_TitleBarMaxButton, s),
                                           tr("&Fit to window"));
    zoomFit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(zoomFit, &QAction::triggered, m_liveView, &LiveView::zoomToFit);
    viewMenu->addSeparator();
    QAction* zones = viewMenu->addAction(themedIcon("overlay-zones.svg", QStyle::SP_FileDialogListView, s),
                                         tr("Show &zones"));
    zones->setCheckable(true);
    zones->setChecked(true);
    zones->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    connect(zones, &QAction::toggled, m_liveView, &LiveView::setZonesVisible);
    QAction* trail = viewMenu->addAction(themedIcon("overlay-trail.svg", QStyle::SP_ArrowRight, s),
                                         tr("Show cursor &trail"));
    trail->setCheckable(true);
    trail->setChecked(true);
    trail->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_2));
    connect(trail, &QAction::toggled, m_liveView, &LiveView::setTrailVisible);
    QAction* flash =
        viewMenu->addAction(themedIcon("flash.svg", QStyle::SP_BrowserReload, s), tr("&Flash changes"));
    flash->setCheckable(true);
    flash->setChecked(m_settings.flashChanges);
    flash->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_3));
    connect(flash, &QAction::toggled, m_liveView, &LiveView::setFlashChanges);
    viewMenu->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        viewMenu->addAction(dock->toggleViewAction());

    // Agent
    QMenu* agentMenu = menuBar()->addMenu(tr("&Agent"));
    QAction* run = agentMenu->addAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Run task"));
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    connect(run, &QAction::triggered, m_console, &TaskConsole::run);
    QAction* pause = agentMenu->addAction(s->standardIcon(QStyle::SP_MediaPause), tr("&Pause"));
    pause->setShortcut(QKeySequence(Qt::Key_F6));
    connect(pause, &QAction::triggered, this, &MainWindow::pauseRequested);
    QAction* resume = agentMenu->addAction(s->standardIcon(QStyle::SP_MediaSeekForward), tr("Res&ume"));
    resume->setShortcut(QKeySequence(Qt::Key_F5));
    connect(resume, &QAction::triggered, this, &MainWindow::resumeRequested);
    QAction* step = agentMenu->addAction(s->standardIcon(QStyle::SP_MediaSkipForward), tr("S&tep"));
    step->setShortcut(QKeySequence(Qt::Key_F10));
    connect(step, &QAction::triggered, m_console, &TaskConsole::step);
    m_stopAction = agentMenu->addAction(themedIcon("emergency-stop.svg", QStyle::SP_BrowserStop, s),
                                        tr("&Emergency stop"));
    m_stopAction->setShortcuts({QKeySequence(Qt::SHIFT | Qt::Key_Escape), QKeySequence(Qt::Key_Pause)});
    m_stopAction->setShortcutContext(Qt::ApplicationShortcut);
    connect(m_stopAction, &QAction::triggered, this, &MainWindow::emergencyStop);
    agentMenu->addSeparator();
    m_takeoverAction =
        agentMenu->addAction(themedIcon("takeover.svg", QStyle::SP_DesktopIcon, s), tr("&Take over"));
    m_takeoverAction->setCheckable(true);
    m_takeoverAction->setToolTip(tr("Use mouse and keyboard in the live view to control the target display"));
    connect(m_takeoverAction, &QAction::triggered, this, &MainWindow::setTakeover);
    m_sandboxAction =
        agentMenu->addAction(themedIcon("sandbox.svg", QStyle::SP_ComputerIcon, s), tr("&Sandbox display"));
    m_sandboxAction->setCheckable(true);
    m_sandboxAction->setToolTip(tr("Start a private display for the agent to work on"));
    connect(m_sandboxAction, &QAction::triggered, this,
            [this](bool on) { on ? startSandbox() : stopSandbox(); });
    m_openInSandboxAction =
        agentMenu->addAction(s->standardIcon(QStyle::SP_DirOpenIcon), tr("&Open program in sandbox…"));
    m_openInSandboxAction->setEnabled(false);
    connect(m_openInSandboxAction, &QAction::triggered, this, &MainWindow::openProgramInSandbox);

    // Help
    QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
    QAction* about =
        helpMenu->addAction(s->standardIcon(QStyle::SP_MessageBoxInformation), tr("&About CIU Agent"));
    connect(about, &QAction::triggered, this, [this] {
        auto* box =
            new QMessageBox(QMessageBox::Information, tr("About CIU Agent"),
                            tr("<b>CIU Agent %1</b><p>A desktop computer-use agent that keeps a live map of "
                               "the screen's interactive zones.</p><p>Emergency stop: %2</p>")
                                .arg(QStringLiteral(CIU_VERSION), m_settings.stopHotkey.toHtmlEscaped()),
                            QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });

    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("MainToolBar"));
    toolbar->addAction(run);
    toolbar->addAction(pause);
    toolbar->addAction(resume);
    toolbar->addAction(step);
    toolbar->addAction(m_stopAction);
    toolbar->addSeparator();
    toolbar->addAction(zoomIn);
    toolbar->addAction(zoomOut);
    toolbar->addAction(zoomFit);
    toolbar->addSeparator();
    toolbar->addAction(zones);
    toolbar->addAction(trail);
    toolbar->addAction(flash);
    toolbar->addAction(m_drawAction);
    toolbar->addSeparator();
    toolbar->addAction(m_takeoverAction);
    toolbar->addAction(m_sandboxAction);
    toolbar->addAction(m_openInSandboxAction);
}

void MainWindow::restoreWindowState()
{
    const auto settings = openSettings();
    restoreGeometry(settings->value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings->value(QStringLiteral("window/state")).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    {
        const auto settings = openSettings();
        settings->setValue(QStringLiteral("window/geometry"), saveGeometry());
        settings->setValue(QStringLiteral("window/state"), saveState());
    }
    if (m_state == AgentState::Running || m_state == AgentState::Paused)
        emit stopRequested();
    setTakeover(false);
    m_sandbox->stop();
    event->accept();
}

void MainWindow::applySettings()
{
    m_liveView->setTrailWindowMs(m_settings.trailSeconds * 1000);
    m_liveView->setFlashChanges(m_settings.flashChanges);
    if (m_state == AgentState::Idle || m_state == AgentState::Finished) {
        m_console->setProvider(m_settings.provider);
        m_console->setModel(m_settings.modelFor(m_settings.provider));
        m_console->setSpeed(m_settings.speed);
        m_console->setDryRun(m_settings.dryRunDefault);
    }
}

void MainWindow::setupHotkey()
{
    m_hotkey.reset();
    if (QGuiApplication::platformName() != QLatin1String("xcb")) {
        qCInfo(lcUi) << "no global hotkey on the" << QGuiApplication::platformName() << "platform";
        return;
    }
    // The user's keyboard is on the app's own display, whichever display the agent works on.
    auto result = platform::createGlobalHotkey(m_settings.stopHotkey, {QStringLiteral("x11"), QString()});
    if (!result.hotkey) {
        qCWarning(lcUi) << "emergency-stop hotkey:" << result.error;
        setStatusMessage(tr("The emergency-stop hotkey is not available: %1").arg(result.error));
        return;
    }
    m_hotkey = std::move(result.hotkey);
    connect(m_hotkey.get(), &platform::GlobalHotkey::activated, this, &MainWindow::emergencyStop);
    m_stopAction->setToolTip(tr("Stop the agent now (global hotkey: %1)").arg(m_settings.stopHotkey));
}

void MainWindow::showSettings()
{
    auto* dialog = new SettingsDialog(m_settings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const AppSettings previous = m_settings;
        m_settings = dialog->settings();
        {
            const auto settings = openSettings();
            m_settings.save(*settings);
        }
        applySettings();
        if (m_options.globalHotkey && previous.stopHotkey != m_settings.stopHotkey)
            setupHotkey();
        emit settingsChanged(m_settings);
    });
    connect(dialog, &SettingsDialog::apiKeyEntered, this, &MainWindow::apiKeyEntered);
    dialog->open();
}

// Engine → window

void MainWindow::setFrame(const Frame& frame)
{
    m_lastFrame = frame;
    m_liveView->setFrame(frame);
}

void MainWindow::addCursorSample(const CursorSample& sample)
{
    m_liveView->addCursorSample(sample);
}

void MainWindow::showChanges(const FrameDiff& diff)
{
    m_liveView->showChanges(diff);
}

void MainWindow::setZoneMap(ZoneMapPtr map)
{
    m_corrections->setBaseMap(std::move(map));
}

void MainWindow::addEvent(const SpatialEvent& event)
{
    m_eventLog->appendEvent(event);
}

void MainWindow::setPlannedTrajectory(const QList<QPoint>& path, const QString& targetZoneId)
{
    m_liveView->setPlannedTrajectory(path, targetZoneId);
}

void MainWindow::actionFinished()
{
    m_liveView->clearPlannedTrajectory();
}

void MainWindow::setPlan(const QStringList& steps, int currentStep)
{
    m_console->setPlan(steps, currentStep);
}

void MainWindow::setEngineStatus(const EngineStatus& status)
{
    m_statusFields->setStatus(status);
}

void MainWindow::setAgentState(AgentState state)
{
    m_state = state;
    m_console->setAgentState(state);
    m_indicator->setState(state);
    if (state != AgentState::Running && state != AgentState::Paused)
        m_liveView->clearPlannedTrajectory();
}

void MainWindow::setStatusMessage(const QString& message)
{
    statusBar()->showMessage(message, 10000);
    m_console->setStatusText(message);
}

void MainWindow::setWindows(const QList<platform::WindowInfo>& windows)
{
    m_corrections->setWindows(windows);
}

void MainWindow::requestConfirmation(quint64 requestId, const Action& action, const QString& reason)
{
    if (m_confirmation) {
        // One question at a time; a second one while the first is open is refused.
        emit confirmationAnswered(requestId, false);
        return;
    }
    QRect target;
    if (!action.zoneId.isEmpty()) {
        if (const Zone* zone = m_corrections->zone(action.zoneId))
            target = zone->bounds;
    }
    if (target.isNull() && action.point)
        target = QRect(*action.point - QPoint(1, 1), QSize(3, 3));
    const QImage crop = ConfirmationDialog::cropFor(m_lastFrame.image, m_lastFrame.origin, target);
    m_confirmation = new ConfirmationDialog(requestId, action, reason, crop, this);
    connect(m_confirmation, &ConfirmationDialog::answered, this, &MainWindow::confirmationAnswered);
    m_liveView->setTargetZone(action.zoneId);
    m_confirmation->open();
    QApplication::alert(this);
}

void MainWindow::emergencyStop()
{
    qCInfo(lcUi) << "emergency stop";
    if (m_confirmation)
        m_confirmation->reject();
    setTakeover(false);
    emit stopRequested();
    setStatusMessage(tr("Emergency stop: the agent was told to stop."));
}

// Sandbox and takeover

void MainWindow::startSandbox()
{
    if (m_sandbox->state() != SandboxDisplay::State::Stopped)
        return;
    setStatusMessage(tr("Starting the sandbox display…"));
    m_sandbox->start(QSize(1280, 800));
}

void MainWindow::stopSandbox()
{
    m_sandbox->stop();
}

void MainWindow::openProgramInSandbox()
{
    if (m_sandbox->state() != SandboxDisplay::State::Running) {
        setStatusMessage(tr("Start the sandbox display first."));
        return;
    }
    auto* dialog = new QInputDialog(this);
    dialog->setWindowTitle(tr("Open program in sandbox"));
    dialog->setLabelText(tr("Command (run on %1):").arg(m_sandbox->displayName()));
    dialog->setTextValue(QStringLiteral("xterm"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QInputDialog::textValueSelected, this, [this](const QString& command) {
        if (!m_sandbox->launch(command))
            setStatusMessage(m_sandbox->errorString());
        else
            setStatusMessage(tr("Started “%1” in the sandbox.").arg(command));
    });
    dialog->open();
}

void MainWindow::setTakeover(bool on)
{
    if (!on) {
        if (m_liveView->mode() == LiveView::Mode::Takeover)
            m_liveView->setMode(LiveView::Mode::Inspect);
        m_takeoverAction->setChecked(false);
        return;
    }
    if (targetIsOwnDisplay()) {
        m_takeoverAction->setChecked(false);
        setStatusMessage(
            tr("The agent works on this display: use mouse and keyboard directly to take over."));
        if (m_state == AgentState::Running)
            emit pauseRequested();
        return;
    }
    if (!m_forwarder) {
        m_forwardThread.reset(new QThread);
        m_forwardThread->setObjectName(QStringLiteral("forward"));
        m_forwarder = new InputForwarder;
        m_forwarder->moveToThread(m_forwardThread.get());
        connect(m_forwardThread.get(), &QThread::finished, m_forwarder, &QObject::deleteLater);
        m_forwardThread->start();
        connect(m_liveView, &LiveView::pointerForwarded, m_forwarder, &InputForwarder::moveTo);
        connect(m_liveView, &LiveView::buttonForwarded, m_forwarder, &InputForwarder::button);
        connect(m_liveView, &LiveView::wheelForwarded, m_forwarder, &InputForwarder::wheel);
        connect(m_liveView, &LiveView::keyForwarded, m_forwarder, &InputForwarder::key);
        connect(m_forwarder, &InputForwarder::failed, this, [this](const QString& error) {
            setStatusMessage(tr("Takeover: %1").arg(error));
            setTakeover(false);
        });
    }
    if (m_forwardDisplay != targetDisplay()) {
        m_forwardDisplay = targetDisplay();
        QMetaObject::invokeMethod(m_forwarder, "open", Qt::QueuedConnection,
                                  Q_ARG(QString, m_options.platform), Q_ARG(QString, m_forwardDisplay));
    }
    if (m_state == AgentState::Running)
        emit pauseRequested();
    m_liveView->setMode(LiveView::Mode::Takeover);
    m_takeoverAction->setChecked(true);
    setStatusMessage(tr("Takeover: your input in the live view goes to %1.").arg(m_forwardDisplay));
}

void MainWindow::updateExcludedRegions()
{
    QList<QRect> rects;
    QList<quint64> ids;
    if (targetIsOwnDisplay()) {
        for (QWidget* w : QApplication::topLevelWidgets()) {
            if (!w->isVisible() || w->isMinimized())
                continue;
            rects << w->frameGeometry();
            ids << quint64(w->winId());
        }
    }
    if (rects == m_excludedRects && ids == m_excludedIds)
        return;
    m_excludedRects = rects;
    m_excludedIds = ids;
    emit excludedRegionsChanged(rects, ids);
}

QWidget* MainWindow::openRecording(const QString& sessionPath)
{
    // A session folder holds at least its metadata, its video or one of its streams.
    namespace files = replay::files;
    const QDir dir(sessionPath);
    const QStringList sessionFiles{files::metadata, files::video, files::events, files::cursor, files::zones};
    const bool isSession =
        dir.exists() && std::any_of(sessionFiles.cbegin(), sessionFiles.cend(),
                                    [&dir](const QString& name) { return dir.exists(name); });
    auto* viewer = isSession ? new ReplayViewer() : nullptr;
    if (!viewer || !viewer->openSession(sessionPath)) {
        delete viewer;
        const QString message = tr("Cannot open the recording %1: it is not a session folder or it is "
                                   "unreadable.")
                                    .arg(QDir::toNativeSeparators(sessionPath));
        setStatusMessage(message);
        auto* box =
            new QMessageBox(QMessageBox::Warning, tr("Open recording"), message, QMessageBox::Ok, this);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        return nullptr;
    }
    viewer->setAttribute(Qt::WA_DeleteOnClose);
    viewer->setWindowFlag(Qt::Window);
    viewer->setWindowTitle(tr("Replay — %1").arg(QFileInfo(sessionPath).fileName()));
    viewer->resizeToFitScreen();
    viewer->show();
    qCInfo(lcUi) << "opened recording" << sessionPath;
    return viewer;
}

void MainWindow::setLastRecording(const QString& sessionPath)
{
    m_lastRecording = sessionPath;
    if (m_openLastRecording)
        m_openLastRecording->setEnabled(!sessionPath.isEmpty());
}

} // namespace ciu::ui
