#pragma once

#include "core/director/directortypes.h"
#include "ui/appsettings.h"
#include "ui/enginestatus.h"
#include "ui/taskconsole.h"

#include <QObject>

#include <memory>

namespace ciu {
class Engine;
}

namespace ciu::ui {

class MainWindow;

// Connects one MainWindow to the engine (docs/ARCHITECTURE.md): creates an Engine on the
// window's target display, feeds the window the workers' values through queued connections and turns the
// window's requests into engine calls. A new Engine is made when the target display changes.
class EngineBridge final : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        QString platform;    // backend override
        bool record = false; // record even when the settings turned recording off (--session-dir)
        QString sessionRoot;
    };

    EngineBridge(MainWindow* window, Options options, QObject* parent = nullptr);
    ~EngineBridge() override;

    Engine* engine() const { return m_engine.get(); }
    bool isReady() const { return m_ready; }

    // The task request as Director options, with the limits of the window's settings (pure).
    static DirectorOptions directorOptions(const TaskRequest& request, int maxIterations, double maxCostUsd);
    // True when a settings change needs a new engine (capture, thresholds, recording).
    static bool needsRestart(const AppSettings& before, const AppSettings& after);

public slots:
    // (Re)creates the engine on `displayName` and starts it.
    void startOn(const QString& displayName);
    void shutdown();

signals:
    void ready();
    void failed(const QString& error);
    void taskFinished(const ciu::TaskOutcome& outcome);

private:
    void connectEngine();
    void connectWorkers();
    void run(const TaskRequest& request);
    void publishStatus();
    void onSettingsChanged(const AppSettings& settings);

    MainWindow* m_window;
    Options m_options;
    std::unique_ptr<Engine> m_engine;
    bool m_ready = false;
    bool m_taskActive = false;
    std::optional<TaskRequest> m_pending; // a run requested before the engine was ready
    EngineStatus m_status;
    AppSettings m_engineSettings;  // what the running engine was made with
    bool m_restartPending = false; // settings changed during a task: restart once it ends
};

} // namespace ciu::ui
