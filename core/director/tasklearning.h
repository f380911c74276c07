#pragma once

#include "core/director/actionflight.h"
#include "core/director/directortypes.h"
#include "core/director/planbackend.h"
#include "core/director/sequencelibrary.h"
#include "core/knowledge/taskmemory.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QVariantMap>

#include <functional>
#include <memory>
#include <optional>

namespace ciu {

// What a task teaches for the next ones, as the Director uses it:
//  - recorded sequences (SPEED-MAX): the actions of a task that completed (not a dry run) are stored as zone
//    references in the SequenceLibrary; a later SPEED-MAX task that matches is replayed without model calls;
//  - past tasks (core/knowledge/taskmemory.h): the remembered tasks similar to a new one are logged and
//  handed
//    to the planner as a reference, a verified completion is remembered with the steps that worked, and a
//    remembered task's steps can be replayed (DirectorOptions::replayTaskId).
// It is told of each dispatched action and its outcome, and of the task's completion; it reports through
// the Log it is given (the Director's events and decision records). It never acts on the screen.
class TaskLearning
{
public:
    // Where it reports: info and error events (what, message, data) and decision records (type, record).
    struct Log
    {
        std::function<void(const QString& what, const QString& message, const QVariantMap& data)> info;
        std::function<void(const QString& what, const QString& message, const QVariantMap& data)> error;
        std::function<void(const QString& type, const QJsonObject& record)> record;
    };

    explicit TaskLearning(Log log);

    // A new task: forgets the last task's steps and looks up the remembered tasks similar to this one
    // (logged as "similar_tasks"; none with options.rememberTasks off or a past task to replay). With the
    // openai provider and an embedding model (pasttaskembedder.h) the lookup makes one embeddings call on
    // this thread, which waits for it (kPastTaskEmbeddingTotalMs at most); a failed call is logged once
    // ("past_task_embeddings_failed") and the ranking is BM25's.
    void begin(const QString& task, const DirectorOptions& options);
    // The replay planner for the task: of the remembered task options.replayTaskId names, else of the stored
    // sequence when the task runs in SPEED-MAX with replaySequences; null when there is none (logged why when
    // one was asked for or found unreadable). While it plans, nothing is recorded.
    std::unique_ptr<PlanBackend> replayPlanner();
    bool replaying() const { return m_replaying; }
    // The replay gave way to the normal planner: what it plans from here on is recorded again (the replayed
    // actions that worked stay).
    void replayEnded() { m_replaying = false; }

    // The similar remembered tasks (best first) and their reference text for the planner.
    const QList<SimilarTask>& similarTasks() const { return m_similarTasks; }
    QString pastTaskReference() const { return m_pastTaskReference; }
    // The id the completed task was remembered as (empty: not remembered).
    QString rememberedTaskId() const { return m_rememberedTaskId; }

    // An action went to the brush (or a program was launched): the step it would be in a sequence, unless it
    // cannot be recorded (a secret typed, a window named, raw coordinates: then the task is not recordable).
    void noteDispatched(const ActionFlight& flight);
    // The outcome of a proposed action: a step that succeeded (executed, verified) is recorded.
    void noteOutcome(const ProposedAction& proposed, const ActionOutcome& outcome);
    // The task completed, planned by `planner`: stores its steps as a sequence and remembers it as a past
    // task (each as the options allow; nothing in a dry run, a replay, or with a step that cannot be
    // recorded).
    void completed(const QString& planner);

    const QList<RecordedStep>& recordedSteps() const { return m_recordedSteps; }

private:
    std::unique_ptr<PlanBackend> storedReplay(); // replayPlanner() without the bookkeeping
    std::unique_ptr<PlanBackend> pastTaskReplay();
    void lookUpSimilarTasks();
    void storeSequence(const QString& planner);
    void rememberTask(const QString& planner);
    void logInfo(const QString& what, const QString& message, const QVariantMap& data = {}) const;
    void logError(const QString& what, const QString& message, const QVariantMap& data = {}) const;
    void logRecord(const QString& type, const QJsonObject& record) const;

    Log m_log;
    QString m_task;
    DirectorOptions m_options;
    QList<RecordedStep> m_recordedSteps;
    std::optional<RecordedStep> m_pendingStep; // of the action with the brush
    QString m_notRecordableWhy;                // empty: the task's actions can be stored as a sequence
    bool m_replaying = false;                  // the planner is a ReplayPlanner (nothing to record)
    QList<SimilarTask> m_similarTasks;         // remembered tasks like this one, best first
    QString m_pastTaskReference;               // their reference text for the planner
    QHash<QString, int> m_stepApplications;    // window class of each recorded step's target zone
    QString m_rememberedTaskId;
    std::optional<TaskEmbedding> m_taskEmbedding; // this task's vector from the lookup: kept when remembered
};

} // namespace ciu
