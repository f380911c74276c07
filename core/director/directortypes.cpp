#include "core/director/directortypes.h"

namespace ciu {

QString toString(DirectorOptions::Loop loop)
{
    return loop == DirectorOptions::Loop::Classic ? QStringLiteral("classic") : QStringLiteral("zones");
}

QJsonObject DirectorOptions::toJson() const
{
    return {{QStringLiteral("provider"), provider},
            {QStringLiteral("model"), model},
            {QStringLiteral("loop"), toString(loop)},
            {QStringLiteral("speed"), toString(speed)},
            {QStringLiteral("dry_run"), dryRun},
            {QStringLiteral("max_iterations"), maxIterations},
            {QStringLiteral("max_cost_usd"), maxCostUsd},
            {QStringLiteral("confirmation"), confirmation == safety::ConfirmationMode::Ask
                                                 ? QStringLiteral("ask")
                                                 : QStringLiteral("refuse")},
            {QStringLiteral("min_confidence"), minConfidence},
            {QStringLiteral("resumable"), resumable},
            {QStringLiteral("record_sequences"), recordSequences},
            {QStringLiteral("replay_sequences"), replaySequences},
            {QStringLiteral("remember_tasks"), rememberTasks},
            {QStringLiteral("replay_task"), replayTaskId}};
}

QString toString(DirectorState state)
{
    switch (state) {
    case DirectorState::Idle:
        return QStringLiteral("idle");
    case DirectorState::Starting:
        return QStringLiteral("starting");
    case DirectorState::Planning:
        return QStringLiteral("planning");
    case DirectorState::Executing:
        return QStringLiteral("executing");
    case DirectorState::Verifying:
        return QStringLiteral("verifying");
    case DirectorState::Confirming:
        return QStringLiteral("confirming");
    case DirectorState::Recovering:
        return QStringLiteral("recovering");
    case DirectorState::Paused:
        return QStringLiteral("paused");
    case DirectorState::Finished:
        return QStringLiteral("finished");
    }
    return {};
}

QJsonObject DirectorUsage::toJson() const
{
    return {{QStringLiteral("model_calls"), modelCalls},
            {QStringLiteral("input_tokens"), double(inputTokens)},
            {QStringLiteral("estimated_input_tokens"), double(estimatedInputTokens)},
            {QStringLiteral("output_tokens"), double(outputTokens)},
            {QStringLiteral("cost_usd"), costUsd},
            {QStringLiteral("iterations"), iterations},
            {QStringLiteral("max_iterations"), maxIterations},
            {QStringLiteral("max_cost_usd"), maxCostUsd},
            {QStringLiteral("actions_executed"), actionsExecuted},
            {QStringLiteral("actions_refused"), actionsRefused},
            {QStringLiteral("screenshots_sent"), screenshotsSent}};
}

QString toString(TaskOutcome::Result result)
{
    switch (result) {
    case TaskOutcome::Result::Completed:
        return QStringLiteral("completed");
    case TaskOutcome::Result::Failed:
        return QStringLiteral("failed");
    case TaskOutcome::Result::Impossible:
        return QStringLiteral("impossible");
    case TaskOutcome::Result::Stopped:
        return QStringLiteral("stopped");
    case TaskOutcome::Result::IterationLimit:
        return QStringLiteral("max_iterations_reached");
    case TaskOutcome::Result::CostLimit:
        return QStringLiteral("cost_limit_reached");
    case TaskOutcome::Result::Unverified:
        return QStringLiteral("unverified");
    }
    return {};
}

QJsonObject TaskOutcome::toJson() const
{
    return {{QStringLiteral("outcome"), toString(result)},
            {QStringLiteral("success"), success()},
            {QStringLiteral("message"), message},
            {QStringLiteral("plan"), plan.toJson()},
            {QStringLiteral("usage"), usage.toJson()},
            {QStringLiteral("dry_run"), dryRun},
            {QStringLiteral("speed_initial"), toString(initialSpeed)},
            {QStringLiteral("speed_final"), toString(finalSpeed)},
            {QStringLiteral("planner"), planner},
            {QStringLiteral("loop"), loop},
            {QStringLiteral("similar_tasks"), similarTasks},
            {QStringLiteral("remembered_task"), rememberedTaskId}};
}

} // namespace ciu
