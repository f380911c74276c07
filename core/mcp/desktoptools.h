#pragma once

// The tools and resources of `ciu-agent mcp`: the whole engine (capture, canvas, brush, director, recorder)
// behind an MCP ToolHost. Reading tools (list_windows, get_zones, find_zones, screenshot) answer from the
// latest zone map and frame; acting tools (click, type_text, press_keys, scroll, drag, launch_app, run_steps,
// run_task) become a task of the director with the local command language, one at a time, so they get the
// brush's verification, the safety guard (dry run unless --execute, high-risk actions confirmed through MCP
// elicitation or refused) and the session recording of any task. Resources: the sessions this server recorded
// (ciu://sessions/NAME and ciu://sessions/NAME/FILE).

#include "core/director/directortypes.h"
#include "core/director/zoneresolver.h"
#include "core/engine/engine.h"
#include "core/mcp/toolhost.h"
#include "core/model/frame.h"
#include "core/model/plan.h"
#include "core/model/spatialevent.h"
#include "core/model/zonemap.h"
#include "platform/platform.h"

#include <QElapsedTimer>
#include <QObject>

#include <deque>
#include <functional>
#include <memory>
#include <optional>

namespace ciu::mcp {

class DesktopTools final : public QObject, public ToolHost
{
    Q_OBJECT
public:
    struct Options
    {
        Engine::Options engine;
        DirectorOptions director;     // dryRun, limits; provider for run_task without one
        int maxActionsPerMinute = 60; // acting tool calls (0: no limit)
        int maxZonesDefault = 200;    // get_zones without a limit
    };

    explicit DesktopTools(Options options, QObject* parent = nullptr);
    ~DesktopTools() override;

    // Starts the engine; ready() or failed().
    void start();
    // Ends the session (a running task is stopped); shutDown() once the recording is closed.
    void shutdown();
    bool isReady() const { return m_ready; }
    QString sessionPath() const { return m_sessionPath; }

    QJsonArray tools() const override;
    void call(const QString& name, const QJsonObject& arguments, std::shared_ptr<ToolCallContext> context,
              Done done) override;
    QJsonArray resources() const override;
    std::optional<QJsonArray> readResource(const QString& uri, QString* error) const override;

    // The zone map as get_zones shows it (exposed for the benchmark and tests).
    static QJsonObject zoneJson(const Zone& zone);
    // One zone as a line of get_zones' and find_zones' text: id type "label" [x,y,w,h] state = "value".
    static QString zoneLine(const Zone& zone);

signals:
    void ready();
    void failed(const QString& error);
    void shutDown(const QString& sessionPath);

private:
    // A task for the director on behalf of one tool call.
    struct Job
    {
        QString tool;
        QString task;
        DirectorOptions options;
        std::shared_ptr<ToolCallContext> context;
        Done done;
        QJsonObject resolved; // targets as resolved before the task ({"target": zone json, ...})
        QJsonArray verifications;
        QStringList problems; // errors the director reported
    };
    struct Target
    {
        std::optional<Zone> zone;
        QString error;
        QJsonArray candidates;
    };

    void dispatch(const QString& name, const QJsonObject& args, std::shared_ptr<ToolCallContext> context,
                  Done done);
    // Reading tools (desktoptoolsactions.cpp).
    ToolResult listWindows();
    ToolResult focusWindow(const QJsonObject& args);
    ToolResult getZones(const QJsonObject& args);
    ToolResult findZones(const QJsonObject& args);
    ToolResult screenshot(const QJsonObject& args);
    // Acting tools: a script of the local command language, or an error result.
    std::optional<ToolResult> actionScript(const QString& name, const QJsonObject& args, QString* script,
                                           QJsonObject* resolved);
    Target resolveTarget(const QString& target, ZoneResolver::Purpose purpose) const;
    static QString zoneRef(const Zone& zone);

    void onFirstMap(const ZoneMapPtr& map);
    void enqueue(Job job);
    void runNext();
    void onTaskFinished(const TaskOutcome& outcome);
    void onConfirmation(quint64 id, const Action& action, const QString& reason);
    void onDirectorEvent(const SpatialEvent& event);
    void onDecision(const QJsonObject& record);
    void onPlanUpdated(const Plan& plan);
    void onCallCancelled(const ToolCallContext* context);
    bool rateLimited(QString* why);
    platform::Platform* platform(QString* error);
    QString untrustedNote() const;

    Options m_options;
    std::unique_ptr<Engine> m_engine;
    std::unique_ptr<platform::Platform> m_platform; // this thread's connection (windows)
    bool m_ready = false;
    bool m_failed = false;
    QString m_failure;
    QString m_sessionPath;
    QStringList m_sessions; // folders recorded by this server
    ZoneMapPtr m_map;
    Frame m_frame;
    std::deque<Job> m_jobs;
    std::optional<Job> m_running;
    std::deque<std::function<void()>> m_untilReady; // calls that arrived before the engine was up
    std::deque<qint64> m_actionTimesMs;             // for the rate limit
    QElapsedTimer m_clock;
};

} // namespace ciu::mcp
