#pragma once

#include "core/director/safety/actionguard.h"
#include "core/director/speedmode.h"
#include "core/model/plan.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

namespace ciu {

// How the Director runs a task.
struct DirectorOptions
{
    enum class Loop : quint8
    {
        Zones = 1, // structured zone map, zone-level tools, screenshots only when needed
        Classic,   // Anthropic's demo: a screenshot and a model call for every action
    };

    QString provider = QStringLiteral("local"); // local | anthropic | openai
    QString model;                              // empty: the provider's default
    // The embeddings model for past-task retrieval (provider openai only; core/director/pasttaskembedder.h).
    // Empty: CIU_OPENAI_EMBEDDING_MODEL, else none (BM25 alone).
    QString embeddingModel;
    Loop loop = Loop::Zones;
    SpeedMode speed = SpeedMode::Medium;
    bool dryRun = true; // the default for a new session
    int maxIterations = 20;
    double maxCostUsd = 1.0; // negative: no limit
    safety::ConfirmationMode confirmation = safety::ConfirmationMode::Refuse;
    double minConfidence = 0.1;
    int actionTimeoutMs = 15'000;    // the brush answers within this (plus the action's own duration)
    int settleTimeoutMs = 1'500;     // how long a verification waits for the canvas to report
    int reanalysisTimeoutMs = 6'000; // how long a re-analysis may take
    int firstMapTimeoutMs = 8'000;   // how long to wait for the first zone map
    int disabledWaitMs = 3'000;      // how long a disabled zone may take to become enabled
    // Someone can resume a paused task (the app's Resume): a takeover by the user's hand pauses it. Headless
    // (run, mcp) nobody can: a takeover stops the task with that reason instead of pausing it for good.
    bool resumable = false;
    // The recorded-sequence library (sequencelibrary.h): successful tasks are stored, and SPEED-MAX replays
    // a stored task without model calls. Empty dir: $XDG_DATA_HOME/ciu-agent/sequences.
    bool recordSequences = true;
    bool replaySequences = true; // in SPEED-MAX only
    QString sequenceDir;
    // The memory of past tasks (core/knowledge/taskmemory.h): a verified completion (not a dry run) is
    // remembered, and the remembered tasks similar to a new one are logged and given to the planner as a
    // reference. Empty dir: $XDG_DATA_HOME/ciu-agent/tasks.
    bool rememberTasks = true;
    QString taskMemoryDir;
    // The id of a remembered task whose steps are replayed (any speed) instead of planning; the normal
    // planner takes over when they no longer fit the screen.
    QString replayTaskId;

    QJsonObject toJson() const;
};

QString toString(DirectorOptions::Loop loop);

enum class DirectorState : quint8
{
    Idle = 1,
    Starting,   // waiting for the first zone map
    Planning,   // the planner (or the model) decides
    Executing,  // an action is with the brush
    Verifying,  // waiting for the canvas after an action
    Confirming, // waiting for a person to confirm a high-risk action
    Recovering, // error-table recovery (re-analysis, undo, recalibration, retry)
    Paused,
    Finished,
};
QString toString(DirectorState state);

// Usage of the session so far.
struct DirectorUsage
{
    int modelCalls = 0;
    qint64 inputTokens = 0;
    qint64 estimatedInputTokens = 0; // from the requests themselves (comparable across fake servers)
    qint64 outputTokens = 0;
    double costUsd = 0;
    int iterations = 0;
    int maxIterations = 0;
    double maxCostUsd = 0;
    int actionsExecuted = 0;
    int actionsRefused = 0;
    int screenshotsSent = 0;
    QJsonObject toJson() const;
};

struct TaskOutcome
{
    enum class Result : quint8
    {
        Completed = 1,
        Failed,
        Impossible,
        Stopped,        // the user stopped it
        IterationLimit, // max_iterations reached (never exceeded)
        CostLimit,      // the cost limit reached
        Unverified,     // every step ran, but the effect of at least one was not seen (never "completed")
    };
    Result result = Result::Failed;
    QString message; // summary or explanation
    Plan plan;
    DirectorUsage usage;
    bool dryRun = true;
    SpeedMode initialSpeed = SpeedMode::Medium;
    SpeedMode finalSpeed = SpeedMode::Medium;
    QString planner; // "local", "anthropic", "openai"
    QString loop;    // "zones", "classic"
    // Remembered tasks similar to this one, best first: {"id", "task", "relevance"}.
    QJsonArray similarTasks;
    QString rememberedTaskId; // the id this task was remembered under (empty: not remembered)

    bool success() const { return result == Result::Completed; }
    QJsonObject toJson() const;
};
QString toString(TaskOutcome::Result result);

} // namespace ciu

Q_DECLARE_METATYPE(ciu::DirectorOptions)
Q_DECLARE_METATYPE(ciu::DirectorState)
Q_DECLARE_METATYPE(ciu::DirectorUsage)
Q_DECLARE_METATYPE(ciu::TaskOutcome)
