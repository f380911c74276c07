#include "ui/mainwindow.h"

#include "core/replay/sessionformat.h"
#include "ui/confirmationdialog.h"
#include "ui/controllers/hotkeycontroller.h"
#include "ui/controllers/inputforwarding.h"
#include "ui/controllers/ownwindowtracker.h"
#include "ui/controllers/sandboxcontroller.h"
#include "ui/enginestatus.h"
#include "ui/eventlogview.h"
#include "ui/knowledgepage.h"
#include "ui/liveview.h"
#include "ui/replay/replayviewer.h"
#include "ui/settingsdialog.h"
#include "ui/uilog.h"
#include "ui/zonecorrections.h"
#include "ui/zoneinspector.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QGuiApplication>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>

#include <algorithm>

namespace ciu::ui {

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(std::move(options))
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
    m_run = new RunState(this);
    m_liveView = new LiveView(this);
    setCentralWidget(m_liveView);
    m_sandbox = new SandboxController(this);
    m_forwarding = new InputForwarding(this);
    // The user's keyboard is on the app's own display, whichever display the agent works on.
    m_hotkey = new HotkeyController({QStringLiteral("x11"), QString()}, this);
    m_ownWindows = new OwnWindowTracker(m_options.platform, targetDisplay(), this);

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

    // The task console's requests leave through the window's signals; the run state follows them.
    connect(m_console, &TaskConsole::runRequested, this, [this](const TaskRequest& request) {
        setTakeover(false); // the agent and the user never drive the display at the same time
        m_run->start(request.dryRun);
        emit runRequested(request);
    });
    connect(m_console, &TaskConsole::pauseRequested, this, &MainWindow::pauseRequested);
    connect(m_console, &TaskConsole::resumeRequested, this, &MainWindow::resumeRequested);
    connect(m_console, &TaskConsole::stepRequested, this, &MainWindow::stepRequested);
    connect(m_console, &TaskConsole::stopRequested, this, [this] {
        m_run->requestStop();
        emit stopRequested();
    });
    connect(m_run, &RunState::changed, this, &MainWindow::updateRunActions);
    connect(m_console, &TaskConsole::settingsRequested, this, &MainWindow::showSettings);
    connect(m_console, &TaskConsole::hintClosed, this,
            [this] { openSettings()->setValue(QStringLiteral("help/firstRunHintClosed"), true); });

    connect(m_ownWindows, &OwnWindowTracker::regionsChanged, this, &MainWindow::excludedRegionsChanged);
    connectSandbox();

    // Takeover: the live view's input goes to the target display.
    connect(m_liveView, &LiveView::pointerForwarded, m_forwarding, &InputForwarding::moveTo);
    connect(m_liveView, &LiveView::buttonForwarded, m_forwarding, &InputForwarding::button);
    connect(m_liveView, &LiveView::wheelForwarded, m_forwarding, &InputForwarding::wheel);
    connect(m_liveView, &LiveView::keyForwarded, m_forwarding, &InputForwarding::key);
    connect(m_forwarding, &InputForwarding::failed, this, [this](const QString& error) {
        setStatusMessage(tr("Takeover: %1").arg(error));
        setTakeover(false);
    });
    connect(m_hotkey, &HotkeyController::activated, this, &MainWindow::emergencyStop);

    applySettings();
    updateRunActions();
    if (m_options.globalHotkey)
        setupHotkey();
    fitToScreen();
    restoreWindowState();
    setStatusMessage(tr("Ready"));
    showFirstRunHint();
}

MainWindow::~MainWindow() = default;

void MainWindow::connectSandbox()
{
    connect(m_sandbox, &SandboxController::started, this, [this](const QString& display) {
        m_targetLabel->setText(tr("Target: sandbox %1").arg(display));
        m_sandboxAction->setChecked(true);
        m_openInSandboxAction->setEnabled(true);
        setStatusMessage(tr("Sandbox display %1 is running.").arg(display));
        m_ownWindows->setTargetDisplay(targetDisplay());
        if (m_options.globalHotkey)
            setupTargetHotkey();
        emit targetDisplayChanged(display);
    });
    connect(m_sandbox, &SandboxController::failed, this, [this](const QString& error) {
        m_sandboxAction->setChecked(false);
        m_openInSandboxAction->setEnabled(false);
        setStatusMessage(tr("Sandbox display: %1").arg(error));
    });
    connect(m_sandbox, &SandboxController::stopped, this, [this] {
        setTakeover(false);
        m_sandboxAction->setChecked(false);
        m_openInSandboxAction->setEnabled(false);
        m_targetLabel->setText(tr("Target: %1").arg(targetDisplay()));
        m_ownWindows->setTargetDisplay(targetDisplay());
        if (m_options.globalHotkey)
            setupTargetHotkey();
        emit targetDisplayChanged(targetDisplay());
    });
}

std::unique_ptr<QSettings> MainWindow::openSettings() const
{
    if (!m_options.settingsFile.isEmpty())
        return std::make_unique<QSettings>(m_options.settingsFile, QSettings::IniFormat);
    return std::make_unique<QSettings>();
}

QString MainWindow::targetDisplay() const
{
    if (m_sandbox && m_sandbox->isRunning())
        return m_sandbox->displayName();
    return m_options.display.isEmpty() ? qEnvironmentVariable("DISPLAY") : m_options.display;
}

bool MainWindow::targetIsOwnDisplay() const
{
    return m_ownWindows->targetIsOwnDisplay();
}

QList<QRect> MainWindow::excludedRegions() const
{
    return m_ownWindows->regions().rects;
}

QList<quint64> MainWindow::excludedWindowIds() const
{
    return m_ownWindows->regions().ids;
}

void MainWindow::createDocks()
{
    m_console = new TaskConsole(m_run, this);
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
    if (m_run->isActive())
        emit stopRequested();
    setTakeover(false);
    m_sandbox->stop();
    event->accept();
}

void MainWindow::applySettings(const AppSettings* previous)
{
    m_liveView->setTrailWindowMs(m_settings.trailSeconds * 1000);
    m_liveView->setFlashChanges(m_settings.flashChanges);
    if (!m_run->canEditTask())
        return;
    // At start the settings fill the task console; later only a default the user changed in the settings
    // replaces what is in the console, so OK in the settings never flips the user's choice there.
    const AppSettings& s = m_settings;
    if (!previous || previous->provider != s.provider)
        m_console->setProvider(s.provider);
    if (!previous || previous->provider != s.provider ||
        previous->modelFor(s.provider) != s.modelFor(s.provider))
        m_console->setModel(s.modelFor(s.provider));
    if (!previous || previous->speed != s.speed)
        m_console->setSpeed(s.speed);
    if (!previous || previous->dryRunDefault != s.dryRunDefault)
        m_console->setDryRun(s.dryRunDefault);
}

void MainWindow::updateRunActions()
{
    m_runAction->setEnabled(m_run->canRun());
    m_pauseAction->setEnabled(m_run->canPause());
    m_resumeAction->setEnabled(m_run->canResume());
    m_stepAction->setEnabled(m_run->canStep());
    m_indicator->setState(m_run->state());
    if (!m_run->isActive())
        m_liveView->clearPlannedTrajectory();
}

void MainWindow::setupHotkey()
{
    setupTargetHotkey();
    if (m_hotkey->grab(m_settings.stopHotkey) == HotkeyController::GrabResult::Failed) {
        setStatusMessage(tr("The emergency-stop hotkey is not available: %1").arg(m_hotkey->errorString()));
        return;
    }
    if (m_hotkey->isGrabbed())
        m_stopAction->setToolTip(tr("Stop the agent now (global hotkey: %1)").arg(m_settings.stopHotkey));
}

void MainWindow::setupTargetHotkey()
{
    delete m_targetHotkey;
    m_targetHotkey = nullptr;
    if (targetIsOwnDisplay())
        return; // the grab on the app's own display covers it
    // The user may be looking at the target display (another screen, a VNC view): the hotkey is grabbed
    // there too, so pressing it stops the agent and never reaches the program in front.
    m_targetHotkey = new HotkeyController(
        {m_options.platform.isEmpty() ? QStringLiteral("x11") : m_options.platform, targetDisplay()}, this);
    connect(m_targetHotkey, &HotkeyController::activated, this, &MainWindow::emergencyStop);
    if (m_targetHotkey->grab(m_settings.stopHotkey) == HotkeyController::GrabResult::Failed)
        setStatusMessage(tr("The emergency-stop hotkey is not available on %1: %2")
                             .arg(targetDisplay(), m_targetHotkey->errorString()));
}

void MainWindow::fitToScreen()
{
    // Most of the screen, so the live view shows the target readably; a saved geometry replaces this.
    const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    const QRect available = screen ? screen->availableGeometry() : QRect(0, 0, 1280, 800);
    const QSize size = (available.size() * 0.92).boundedTo(available.size());
    resize(size);
    move(available.center() - QPoint(size.width() / 2, size.height() / 2));
}

SettingsDialog* MainWindow::settingsDialog() const
{
    return m_settingsDialog;
}

void MainWindow::showSettings()
{
    if (m_settingsDialog) {
        m_settingsDialog->raise();
        m_settingsDialog->activateWindow();
        return;
    }
    auto* dialog = new SettingsDialog(m_settings, this);
    m_settingsDialog = dialog;
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SettingsDialog::keyStatusWanted, this, &MainWindow::apiKeyStatusWanted);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const AppSettings previous = m_settings;
        m_settings = dialog->settings();
        {
            const auto settings = openSettings();
            m_settings.save(*settings);
        }
        applySettings(&previous);
        if (m_options.globalHotkey && previous.stopHotkey != m_settings.stopHotkey)
            setupHotkey();
        emit settingsChanged(m_settings);
    });
    connect(dialog, &SettingsDialog::apiKeyEntered, this, &MainWindow::apiKeyEntered);
    if (!m_options.correctionsDirectory.isEmpty()) {
        KnowledgePage::Directories directories = dialog->knowledgePage()->directories();
        directories.corrections = m_options.correctionsDirectory;
        dialog->knowledgePage()->setDirectories(directories);
    }
    // Corrections forgotten in the settings are dropped from the map too (and not saved back by an edit).
    connect(dialog->knowledgePage(), &KnowledgePage::forgotten, this,
            [this](const QString& program, KnowledgePage::Kind kind) {
                if (m_corrections && kind == KnowledgePage::Kind::Corrections)
                    m_corrections->setCorrections(CorrectionSet{program, {}, {}});
            });
    dialog->open();
    if (m_settings.provider != QLatin1String("local"))
        emit apiKeyStatusWanted(m_settings.provider); // the dialog asked before it was connected
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

void MainWindow::setPlan(const Plan& plan)
{
    m_console->setPlan(plan, m_run->isDryRun());
}

void MainWindow::setEngineStatus(const EngineStatus& status)
{
    m_statusFields->setStatus(status);
}

void MainWindow::setDirectorState(DirectorState state, const QString& detail)
{
    m_run->setDirectorState(state, detail);
}

void MainWindow::taskFinished(const TaskOutcome& outcome)
{
    m_run->finish(outcome);
    m_console->setPlan(outcome.plan, outcome.dryRun);
}

void MainWindow::engineFailed(const QString& error)
{
    m_run->engineFailed(error);
}

void MainWindow::setStatusMessage(const QString& message)
{
    // Passing news (connected, recording to …); where the run stands is the run state's line.
    statusBar()->showMessage(message, 10000);
}

void MainWindow::setWindows(const QList<platform::WindowInfo>& windows)
{
    m_corrections->setWindows(windows);
}

void MainWindow::requestConfirmation(quint64 requestId, const Action& action, const QString& reason)
{
    if (m_confirmation) {
        // One question at a time; a second one while the first is open is refused.
        qCWarning(lcUi) << "confirmation" << requestId << "refused: question" << m_confirmation->requestId()
                        << "is still open";
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
    qCInfo(lcUi) << "asking to confirm" << requestId << action.describe();
    m_confirmation->open();
    QApplication::alert(this);
}

void MainWindow::emergencyStop()
{
    qCInfo(lcUi) << "emergency stop";
    if (m_confirmation)
        m_confirmation->reject();
    setTakeover(false);
    m_run->requestStop();
    emit stopRequested();
    setStatusMessage(tr("Emergency stop: the agent was told to stop."));
}

// Sandbox and takeover

void MainWindow::startSandbox()
{
    if (!m_sandbox->isStopped())
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
    if (!m_sandbox->isRunning()) {
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
        m_run->setTakeover(false);
        return;
    }
    if (targetIsOwnDisplay()) {
        m_takeoverAction->setChecked(false);
        setStatusMessage(
            tr("The agent works on this display: use mouse and keyboard directly to take over."));
        if (m_run->canPause())
            emit pauseRequested();
        return;
    }
    m_forwarding->open(m_options.platform, targetDisplay());
    if (m_run->canPause())
        emit pauseRequested();
    m_run->setTakeover(true);
    m_liveView->setMode(LiveView::Mode::Takeover);
    m_takeoverAction->setChecked(true);
    setStatusMessage(tr("Takeover: your input in the live view goes to %1.").arg(m_forwarding->display()));
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
