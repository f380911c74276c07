#pragma once

#include "core/director/directortypes.h"
#include "core/knowledge/correctionstore.h"
#include "core/model/action.h"
#include "core/model/frame.h"
#include "core/model/spatialevent.h"
#include "core/model/zonemap.h"
#include "platform/types.h"
#include "ui/appsettings.h"
#include "ui/enginestatus.h"
#include "ui/helpdialog.h"
#include "ui/runstate.h"
#include "ui/taskconsole.h"

#include <QMainWindow>
#include <QPointer>

#include <memory>

class QAction;
class QLabel;
class QSettings;

namespace ciu::ui {

class ConfirmationDialog;
class HotkeyController;
class InputForwarding;
class OwnWindowTracker;
class SandboxController;
class EngineStatusBar;
class SettingsDialog;
class AgentIndicator;
class EventLogView;
class LiveView;
class ZoneCorrections;
class ZoneInspector;

struct MainWindowOptions
{
    QString display;              // target display, empty: $DISPLAY
    QString platform;             // backend override
    QString settingsFile;         // empty: the user's settings; tests pass a file in a temp dir
    QString correctionsDirectory; // empty: $XDG_DATA_HOME/ciu-agent/corrections
    bool globalHotkey = true;     // grab the emergency-stop hotkey
};

// The desktop app's window: the live view in the centre, the task console, zone inspector and event log
// in docks, the engine's figures in the status bar. It takes the engine's values through its slots and
// reports the user's intentions through its signals (see app/cmd_gui.cpp for the wiring). The services
// behind it (the sandbox display, takeover input, the emergency hotkey, the tracking of its own windows)
// are controllers in ui/controllers/ that it only talks to through their signals and slots.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(MainWindowOptions options, QWidget* parent = nullptr);
    ~MainWindow() override;

    LiveView* liveView() const { return m_liveView; }
    QString lastRecording() const { return m_lastRecording; }
    TaskConsole* taskConsole() const { return m_console; }
    EventLogView* eventLog() const { return m_eventLog; }
    ZoneInspector* zoneInspector() const { return m_inspector; }
    ZoneCorrections* corrections() const { return m_corrections; }
    EngineStatusBar* engineStatusBar() const { return m_statusFields; }
    AgentIndicator* agentIndicator() const { return m_indicator; }
    const AppSettings& settings() const { return m_settings; }
    AgentState agentState() const { return m_run->state(); }
    // The one state of the run that every part of the window reads.
    RunState* runState() const { return m_run; }
    QAction* runAction() const { return m_runAction; }
    QAction* pauseAction() const { return m_pauseAction; }
    QAction* resumeAction() const { return m_resumeAction; }
    QAction* stepAction() const { return m_stepAction; }
    // The display the agent works on: the sandbox while it runs, else the option's display.
    QString targetDisplay() const;
    bool targetIsOwnDisplay() const;
    // Own top-level windows (root coordinates) while the target is the app's own display.
    QList<QRect> excludedRegions() const;
    QList<quint64> excludedWindowIds() const;
    QAction* stopAction() const { return m_stopAction; }
    // The services the window drives (for tests).
    SandboxController* sandbox() const { return m_sandbox; }
    InputForwarding* inputForwarding() const { return m_forwarding; }
    HotkeyController* hotkey() const { return m_hotkey; }
    // The same hotkey grabbed on the target display when it is not the app's own (null otherwise).
    HotkeyController* targetHotkey() const { return m_targetHotkey; }
    // The open settings dialog (null when none is open).
    SettingsDialog* settingsDialog() const;
    // Opens a help page (Help menu); returns the dialog (deleted when closed).
    HelpDialog* showHelp(ciu::ui::HelpDialog::Page page);
    OwnWindowTracker* ownWindows() const { return m_ownWindows; }

public slots:
    // Engine → window.
    void setFrame(const ciu::Frame& frame);
    void addCursorSample(const ciu::CursorSample& sample);
    void showChanges(const ciu::FrameDiff& diff);
    void setZoneMap(ciu::ZoneMapPtr map);
    void addEvent(const ciu::SpatialEvent& event);
    void setPlannedTrajectory(const QList<QPoint>& path, const QString& targetZoneId);
    void actionFinished();
    void setPlan(const ciu::Plan& plan);
    void setEngineStatus(const ciu::ui::EngineStatus& status);
    void setDirectorState(ciu::DirectorState state, const QString& detail);
    void taskFinished(const ciu::TaskOutcome& outcome);
    void engineFailed(const QString& error);
    void setStatusMessage(const QString& message);
    void setWindows(const QList<ciu::platform::WindowInfo>& windows);
    // Opens the confirmation dialog for a high-risk action (non-blocking); the answer comes back
    // through confirmationAnswered(). A second request while one is open is denied at once.
    void requestConfirmation(quint64 requestId, const ciu::Action& action, const QString& reason);
    // The emergency stop (button, menu, global hotkey).
    void emergencyStop();
    void showSettings();
    // Opens a recorded session in a replay viewer window; a message box explains a folder it cannot read.
    // Returns the viewer (owned by Qt: deleted when closed), or null.
    QWidget* openRecording(const QString& sessionPath);
    // The session the engine records to (File ▸ Open last recording).
    void setLastRecording(const QString& sessionPath);
    void startSandbox();
    void stopSandbox();
    void openProgramInSandbox();
    void setTakeover(bool on);
    // What the key store knows about `provider`'s key, for the open settings dialog.
    void setApiKeyStatus(const QString& provider, const QString& status, bool hasKey);
    // The keychain did not take a key: ask whether to keep it for this session only, or in a file only the
    // user can read; never drop it silently.
    void offerSessionKey(const QString& provider, const QString& key, const QString& failure);

signals:
    void runRequested(const ciu::ui::TaskRequest& request);
    void pauseRequested();
    void resumeRequested();
    void stepRequested();
    void stopRequested();
    void confirmationAnswered(quint64 requestId, bool allowed);
    // Hand corrections for the canvas mapper (CanvasMapper should apply them to its registry).
    void correctionsChanged(const ciu::CorrectionSet& set);
    // The app's own windows on the target display: mask them out of analysis, never click them.
    void excludedRegionsChanged(const QList<QRect>& rects, const QList<quint64>& windowIds);
    // The agent's display changed (sandbox started or stopped): restart the engine on it.
    void targetDisplayChanged(const QString& displayName);
    void settingsChanged(const ciu::ui::AppSettings& settings);
    // A key typed in the settings dialog, for the keychain (never stored in the settings).
    void apiKeyEntered(const QString& provider, const QString& key);
    // The settings dialog asks whether a key exists for `provider` (answer: setApiKeyStatus()).
    void apiKeyStatusWanted(const QString& provider);
    // The user chose to keep a key in memory for this session (the keychain refused it).
    void sessionKeyChosen(const QString& provider, const QString& key);
    // The user chose, explicitly, to keep a key in a file readable only by them (the keychain refused it).
    void keyFileChosen(const QString& provider, const QString& key);

protected:
    void closeEvent(QCloseEvent* event) override;

private:
    void createActions();
    void createDocks();
    void restoreWindowState();
    // Applies the settings; with `previous`, only what changed reaches the task console (the user's
    // choices there stay).
    void applySettings(const AppSettings* previous = nullptr);
    void updateRunActions();
    void setupHotkey();
    // (Re)grabs the hotkey on the target display when it differs from the app's own.
    void setupTargetHotkey();
    void showFirstRunHint();
    void fitToScreen();
    void connectSandbox();
    std::unique_ptr<QSettings> openSettings() const;

    MainWindowOptions m_options;
    AppSettings m_settings;
    RunState* m_run = nullptr;
    LiveView* m_liveView = nullptr;
    TaskConsole* m_console = nullptr;
    EventLogView* m_eventLog = nullptr;
    ZoneCorrections* m_corrections = nullptr;
    ZoneInspector* m_inspector = nullptr;
    EngineStatusBar* m_statusFields = nullptr;
    AgentIndicator* m_indicator = nullptr;
    QLabel* m_targetLabel = nullptr;
    QAction* m_stopAction = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_pauseAction = nullptr;
    QAction* m_resumeAction = nullptr;
    QAction* m_stepAction = nullptr;
    QAction* m_takeoverAction = nullptr;
    QAction* m_drawAction = nullptr;
    QAction* m_sandboxAction = nullptr;
    QAction* m_openInSandboxAction = nullptr;
    QPointer<ConfirmationDialog> m_confirmation;
    SandboxController* m_sandbox = nullptr;
    HotkeyController* m_hotkey = nullptr;
    HotkeyController* m_targetHotkey = nullptr;
    QPointer<SettingsDialog> m_settingsDialog;
    InputForwarding* m_forwarding = nullptr;
    OwnWindowTracker* m_ownWindows = nullptr;
    Frame m_lastFrame;
    QString m_lastRecording;
    QAction* m_openLastRecording = nullptr;
};

} // namespace ciu::ui
