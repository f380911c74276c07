// The main window's menus, toolbar and their actions (MainWindow::createActions), apart from the window's
// wiring of its docks, controllers and engine slots in mainwindow.cpp.

#include "core/replay/sessionformat.h"
#include "ui/helpdialog.h"
#include "ui/liveview.h"
#include "ui/mainwindow.h"
#include "ui/taskconsole.h"
#include "ui/zoneinspector.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QStyle>
#include <QToolBar>
#include <QUndoStack>

namespace ciu::ui {
namespace {

QIcon themedIcon(const char* resource, QStyle::StandardPixmap fallback, const QStyle* style)
{
    const QString path = QStringLiteral(":/icons/") + QLatin1String(resource);
    QIcon icon(path);
    return icon.availableSizes().isEmpty() && icon.pixmap(16).isNull() ? style->standardIcon(fallback) : icon;
}

} // namespace

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
    // Enabled as the run state allows (updateRunActions).
    QAction* run = m_runAction = agentMenu->addAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Run task"));
    run->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
    connect(run, &QAction::triggered, m_console, &TaskConsole::run);
    QAction* pause = m_pauseAction =
        agentMenu->addAction(s->standardIcon(QStyle::SP_MediaPause), tr("&Pause"));
    pause->setShortcut(QKeySequence(Qt::Key_F6));
    connect(pause, &QAction::triggered, this, &MainWindow::pauseRequested);
    QAction* resume = m_resumeAction =
        agentMenu->addAction(s->standardIcon(QStyle::SP_MediaSeekForward), tr("Res&ume"));
    resume->setShortcut(QKeySequence(Qt::Key_F5));
    connect(resume, &QAction::triggered, this, &MainWindow::resumeRequested);
    QAction* step = m_stepAction =
        agentMenu->addAction(s->standardIcon(QStyle::SP_MediaSkipForward), tr("S&tep"));
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
    QAction* started =
        helpMenu->addAction(s->standardIcon(QStyle::SP_DialogHelpButton), tr("&Getting started"));
    started->setShortcut(QKeySequence::HelpContents);
    connect(started, &QAction::triggered, this, [this] { showHelp(HelpDialog::Page::GettingStarted); });
    QAction* language = helpMenu->addAction(tr("&Command language"));
    connect(language, &QAction::triggered, this, [this] { showHelp(HelpDialog::Page::CommandLanguage); });
    QAction* keys = helpMenu->addAction(tr("&Keyboard shortcuts"));
    connect(keys, &QAction::triggered, this, [this] { showHelp(HelpDialog::Page::Shortcuts); });
    helpMenu->addSeparator();
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

} // namespace ciu::ui
