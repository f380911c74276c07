#pragma once

#include "core/director/commandscript.h"
#include "core/director/planbackend.h"
#include "core/director/zoneresolver.h"

namespace ciu {

// The offline planner (no model, no key, no network): runs a script of the local command language
// (commandscript.h) step by step, resolving zone names against the current zone map just before each
// action. It re-plans a step when its zone is missing (after a re-analysis), and reports a missing or
// ambiguous name with the candidates it saw.
class LocalPlanner final : public PlanBackend
{
    Q_OBJECT
public:
    using PlanBackend::PlanBackend;

    QString name() const override { return QStringLiteral("local"); }
    bool usesModel() const override { return false; }
    bool begin(const QString& task, QString* error) override;
    void decide(const WorldState& world) override;
    void report(const ProposedAction& action, const ActionOutcome& outcome) override;
    Plan plan() const override { return m_plan; }

    const QList<ScriptCommand>& commands() const { return m_commands; }
    // Begins with commands parsed elsewhere (the model's run_steps tool); `title` is the plan's task.
    void beginCommands(const QList<ScriptCommand>& commands, const QString& title);
    // The next decision on `map`, answered directly instead of through decided() (a planner that runs
    // the commands inside its own loop: ModelPlanner's run_steps).
    Decision nextDecision(const ZoneMap& map) { return next(map); }
    // Attempts to find a zone before the planner gives up on a step (each after a re-analysis).
    static constexpr int kMaxResolveAttempts = 3;
    void setMaxResolveAttempts(int attempts) { m_maxResolveAttempts = std::max(1, attempts); }
    static constexpr int kMaxStepRetries = 2;

    // The plan step a command shows as (exposed for tests).
    static PlanStep planStepFor(const ScriptCommand& command);

private:
    struct StepState
    {
        int phase = 0;
        int resolveAttempts = 0;
        int retries = 0;
        QString zoneId; // resolved target of an earlier phase
    };

    Decision next(const ZoneMap& map);
    // One action for the current step, or a decision that ends/redirects the loop.
    std::optional<Decision> actionFor(int index, const ZoneMap& map);
    std::optional<Zone> resolveOrDecide(const QString& name, const ZoneMap& map,
                                        ZoneResolver::Purpose purpose, std::optional<Decision>* decision);
    void finishStep(int index, PlanStep::Status status);
    Decision act(ProposedAction action);

    QList<ScriptCommand> m_commands;
    QList<StepState> m_state;
    Plan m_plan;
    int m_current = 0; // 0-based index of the running command
    int m_maxResolveAttempts = kMaxResolveAttempts;
    QString m_failure;        // why the failed step failed
    QStringList m_unverified; // steps that ran but whose effect was not seen, with what was seen
};

} // namespace ciu
