#pragma once

#include "core/director/directortypes.h"
#include "core/director/localplanner.h"
#include "core/director/planbackend.h"
#include "core/providers/provider.h"

#include <QHash>
#include <QSet>

#include <memory>

namespace ciu {

// A planner that asks a model provider (Anthropic Messages API or an OpenAI-compatible server).
//
// Zones loop: the model sees the zone map as structured, delimited untrusted data and acts
// with zone-level tools — click_zone, type_in_zone, scroll_zone, drag_zone, press_keys, wait_for_change,
// request_reanalysis, update_plan, task_complete, task_impossible — plus the native computer tool for raw
// coordinates. It may batch several tools in one reply; later calls carry tool results and a zone-map delta,
// and a screenshot only when the speed mode's verification asks for one.
//
// run_steps (modelplannerscript.cpp): the model plans several steps ahead by name in the local planner's
// command language ("click File", "click Open"). The steps run one at a time through an embedded
// LocalPlanner, each resolved against the zone map as it is just before that step, with the Director's
// usual checks; the model gets ONE tool result (the steps that ran, the first failure and the zones that
// may be meant) and is called again only when a step fails or a verification needs it.
//
// Classic loop (Anthropic's reference demo): only the computer tool, a screenshot with the task
// and after every action, one model call per action. Kept for comparison (--loop classic).
class ModelPlanner final : public PlanBackend
{
    Q_OBJECT
public:
    ModelPlanner(std::unique_ptr<director::Provider> provider, DirectorOptions::Loop loop, QString model = {},
                 QObject* parent = nullptr);
    ~ModelPlanner() override;

    QString name() const override;
    bool usesModel() const override { return true; }
    bool begin(const QString& task, QString* error) override;
    void decide(const WorldState& world) override;
    void report(const ProposedAction& action, const ActionOutcome& outcome) override;
    void cancel() override;
    // Shown once, after the task, as untrusted data (past tasks name labels read from the screen).
    void setReference(const QString& text) override { m_reference = text; }
    Plan plan() const override;
    bool wantsScreenshot() const override;

    // The compact text form of a zone map the model reads (one zone a line), exposed for tests.
    static QString describeZones(const ZoneMap& map, int maxZones = 250);
    // Lines for the zones added, removed or changed between two maps; empty when nothing changed.
    static QString describeDelta(const ZoneMap& before, const ZoneMap& after);
    // The known shortcuts of a program as the model reads them, those with keys only, the verified and
    // person-checked ones (a shipped schema, the user's) first: "Known shortcuts of Mousepad: Save As… =
    // ctrl+shift+s (verified), Open… = ctrl+o". Empty when none has keys.
    static QString describeShortcuts(const AppSchema& schema, int maxShortcuts = kMaxShortcutsTold);
    static constexpr int kMaxShortcutsTold = 25;
    // What is known of a program's shortcuts (default: knownShortcuts() of the store under XDG data); the
    // model is told those of the program in front once per program and task. Passed on to run_steps.
    void setShortcutLookup(LocalPlanner::ShortcutLookup lookup) { m_shortcuts = std::move(lookup); }
    // The zone-level tool definitions.
    static QList<director::ToolDefinition> zoneTools();
    // One zone as the model reads it: `z12 button "OK" [x,y,w,h] state in parent`.
    static QString describeZone(const Zone& zone);
    // Parses run_steps' input into commands of the local language; nullopt and *error when it is malformed
    // (no steps, not strings, a parse error, a command the model may not use, too many steps).
    static std::optional<QList<ScriptCommand>> parseSteps(const QJsonObject& input, QString* error);
    static constexpr int kMaxScriptSteps = 50;
    // Converts a computer tool input (already mapped to screen coordinates) into an action.
    static std::optional<ProposedAction> computerAction(const QJsonObject& input, QString* error);

private:
    struct ToolCall
    {
        QString id;
        QString name;
        int expected = 0; // actions proposed for it
        QList<ActionOutcome> outcomes;
        std::optional<director::ContentBlock> result; // answered
        bool incomplete = false;                      // answered, but steps were left for the model
    };
    // The part of a reply still to run, in the order of its tool calls: the actions of consecutive zone
    // tools, or one run_steps script.
    struct Segment
    {
        QList<ProposedAction> actions;
        QString scriptCallId; // run_steps: its tool_use id
        QList<ScriptCommand> commands;
    };
    // The run_steps script being executed.
    struct ScriptRun
    {
        QString callId;
        std::unique_ptr<LocalPlanner> runner;
        QList<QStringList> notes; // per command: what became of its actions
        ZoneMapPtr mapAtStart;
        QImage screenshot; // the last one a verification asked for
        int actionsRun = 0;
        bool stopForModel = false; // a verification point wants the model before the next step
    };

    void onFinished(quint64 requestId, const director::ProviderResponse& response);
    // Runs the pending segments of the last reply: a decision with the next actions, or nullopt when
    // nothing is left (or a script failed) and the model decides next.
    std::optional<Decision> advance(const ZoneMapPtr& map);
    void startScript(Segment segment, const ZoneMapPtr& map);
    // Ends the running script with its one tool result.
    enum class ScriptEnd : quint8
    {
        Completed = 1,
        Failed,     // a step failed (is_error)
        Paused,     // a verification point wants the model before the next step (steps left)
        DryRunStop, // dry run: a step names a zone that only an executed earlier step would show
        Unverified, // every step ran, some effects were not seen (told to the model, not an error)
    };
    void finishScript(const ZoneMapPtr& map, ScriptEnd end, const QString& detail = {});
    bool reportScript(const ProposedAction& action, const ActionOutcome& outcome);
    // Answers the calls of the segments that will not run now (an earlier action or step failed).
    void dropSegments(const QString& why);
    void send(const WorldState& world);
    Decision interpret(const director::ProviderResponse& response);
    void answer(const QString& toolUseId, const QString& text, bool isError, const QImage& image = {});
    QString systemPrompt(const WorldState& world) const;
    // The known shortcuts of the program in front on `map` when the model was not told them yet, else empty.
    QString shortcutsToTell(const ZoneMap& map);
    QJsonObject recordFor(const director::ProviderRequest& request,
                          const director::ProviderResponse& response) const;
    static qint64 estimateTokens(const director::ProviderRequest& request);

    std::unique_ptr<director::Provider> m_provider;
    DirectorOptions::Loop m_loop;
    QString m_model;
    QString m_task;
    QString m_reference; // similar past tasks (empty: none)
    Plan m_plan;
    QList<director::Message> m_messages;
    QList<ToolCall> m_calls; // of the last reply, in order
    director::ProviderRequest m_lastRequest;
    director::ProviderResponse m_lastResponse;
    quint64 m_requestId = 0;
    bool m_continuePaused = false;
    int m_maxTokensRetries = 0;
    QString m_nudge; // text for the next user message
    ZoneMapPtr m_lastSentMap;
    QSize m_screenSize;
    bool m_first = true;
    QList<Segment> m_segments;
    std::optional<ScriptRun> m_script;
    ZoneMapPtr m_lastMap;                  // of the last decide()
    QList<platform::WindowInfo> m_windows; // of the last decide(): run_steps may name a window
    bool m_dryRun = true;
    bool m_modelPlanned = false; // the model recorded its own plan (update_plan)
    LocalPlanner::ShortcutLookup m_shortcuts;
    QSet<QString> m_shortcutsTold; // the programs whose known shortcuts the model was given
};

} // namespace ciu
