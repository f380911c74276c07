#include "core/director/tasklearning.h"

#include "core/director/pasttaskembedder.h"
#include "core/director/replayplanner.h"

#include <QJsonArray>

#include <utility>

// The MAX speed mode's recorded sequences: what a successful task did is stored (zone references, never
// coordinates); a later SPEED-MAX task that matches is replayed without model calls, and the normal planner
// takes over when the replay cannot go on (the Director's fallBackFromReplay).
//
// The memory of past tasks (core/knowledge/taskmemory.h): the remembered tasks similar to a new one are
// logged and handed to the planner as a reference; a task that completed, verified and not in a dry run, is
// remembered with the steps that worked; a remembered task's steps can be replayed.

namespace ciu {
namespace {

// One readable line for a recorded step: `left_click button "OK"`, `type_text "Ada" into text_field beside
// "Name:"`.
QString stepLine(const RecordedStep& step)
{
    QString line = toString(step.action.type);
    if (!step.action.text.isEmpty())
        line += QStringLiteral(" \"%1\"").arg(step.action.text);
    if (!step.target.isEmpty())
        line += QLatin1Char(' ') + step.target.describe();
    else if (!step.focus.isEmpty())
        line += QStringLiteral(" into ") + step.focus.describe();
    if (!step.end.isEmpty())
        line += QStringLiteral(" to ") + step.end.describe();
    return line;
}

} // namespace

TaskLearning::TaskLearning(Log log)
    : m_log(std::move(log))
{
}

void TaskLearning::begin(const QString& task, const DirectorOptions& options)
{
    m_task = task;
    m_options = options;
    m_recordedSteps.clear();
    m_pendingStep.reset();
    m_notRecordableWhy.clear();
    m_replaying = false;
    lookUpSimilarTasks();
}

std::unique_ptr<PlanBackend> TaskLearning::replayPlanner()
{
    std::unique_ptr<PlanBackend> planner = storedReplay();
    m_replaying = planner != nullptr;
    return planner;
}

std::unique_ptr<PlanBackend> TaskLearning::storedReplay()
{
    if (!m_options.replayTaskId.isEmpty())
        return pastTaskReplay();
    if (m_options.speed != SpeedMode::Max || !m_options.replaySequences)
        return nullptr;
    const SequenceLibrary library(m_options.sequenceDir);
    QString warning;
    std::optional<RecordedSequence> sequence = library.find(m_task, &warning);
    if (!warning.isEmpty())
        logError(QStringLiteral("sequence_ignored"), warning);
    if (!sequence)
        return nullptr;
    logInfo(QStringLiteral("sequence_replay"),
            QStringLiteral("replaying the recorded sequence for this task (%1 actions, recorded %2 by the %3 "
                           "planner); no model calls, verified at the end")
                .arg(sequence->steps.size())
                .arg(sequence->recordedAt.toString(Qt::ISODate), sequence->planner),
            {{QStringLiteral("file"), library.pathFor(m_task)}});
    logRecord(QStringLiteral("sequence_replay"), {{QStringLiteral("file"), library.pathFor(m_task)},
                                                  {QStringLiteral("steps"), int(sequence->steps.size())}});
    return std::make_unique<ReplayPlanner>(std::move(*sequence));
}

void TaskLearning::noteDispatched(const ActionFlight& flight)
{
    m_pendingStep.reset();
    if (flight.recovery)
        return;
    if (flight.proposed.action.secretText || flight.sent.secretText) {
        // A password is never written to a sequence file.
        m_notRecordableWhy = QStringLiteral("not recorded for replay: an action typed a secret");
        return;
    }
    if (flight.sent.type == Action::Type::ActivateWindow) {
        // A window id is good for this session only.
        m_notRecordableWhy = QStringLiteral("not recorded for replay: a step named a window");
        return;
    }
    m_pendingStep = RecordedStep::from(flight.proposed, flight.mapBefore.get());
    if (const Zone* target = flight.mapBefore ? flight.mapBefore->find(flight.sent.zoneId) : nullptr;
        target && !target->application.isEmpty())
        ++m_stepApplications[target->application];
    if (!m_pendingStep) {
        // Raw coordinates: not replayable on another run.
        m_notRecordableWhy = QStringLiteral("not recorded for replay: an action used raw screen coordinates");
    }
}

void TaskLearning::noteOutcome(const ProposedAction& proposed, const ActionOutcome& outcome)
{
    const bool succeeded = outcome.status == ActionOutcome::Status::Executed && outcome.result.success &&
                           !outcome.verificationFailed;
    if (proposed.local) {
        // A wait the task named ("wait for \"Saved\"") is part of the sequence; screenshots are not.
        if (succeeded && proposed.action.type == Action::Type::WaitForChange) {
            if (auto step = RecordedStep::from(proposed, nullptr))
                m_recordedSteps.append(*step);
        }
        return;
    }
    std::optional<RecordedStep> step = std::exchange(m_pendingStep, std::nullopt);
    if (succeeded && step)
        m_recordedSteps.append(*step);
}

void TaskLearning::storeSequence(const QString& planner)
{
    if (!m_options.recordSequences || m_options.dryRun || m_replaying || m_recordedSteps.isEmpty())
        return;
    if (!m_notRecordableWhy.isEmpty()) {
        logInfo(QStringLiteral("sequence_not_recorded"), m_notRecordableWhy);
        return;
    }
    RecordedSequence sequence;
    sequence.task = m_task;
    sequence.planner = planner;
    sequence.recordedAt = QDateTime::currentDateTimeUtc();
    sequence.steps = m_recordedSteps;
    const SequenceLibrary library(m_options.sequenceDir);
    QString error;
    if (!library.store(sequence, &error)) {
        logError(QStringLiteral("sequence_not_recorded"), error);
        return;
    }
    logInfo(QStringLiteral("sequence_recorded"),
            QStringLiteral("recorded %1 actions for replay in SPEED-MAX").arg(sequence.steps.size()),
            {{QStringLiteral("file"), library.pathFor(m_task)}});
    logRecord(QStringLiteral("sequence_recorded"), {{QStringLiteral("file"), library.pathFor(m_task)},
                                                    {QStringLiteral("steps"), int(sequence.steps.size())}});
}

void TaskLearning::completed(const QString& planner)
{
    storeSequence(planner);
    rememberTask(planner);
}

void TaskLearning::logInfo(const QString& what, const QString& message, const QVariantMap& data) const
{
    if (m_log.info)
        m_log.info(what, message, data);
}

void TaskLearning::logError(const QString& what, const QString& message, const QVariantMap& data) const
{
    if (m_log.error)
        m_log.error(what, message, data);
}

void TaskLearning::logRecord(const QString& type, const QJsonObject& record) const
{
    if (m_log.record)
        m_log.record(type, record);
}

void TaskLearning::lookUpSimilarTasks()
{
    m_similarTasks.clear();
    m_pastTaskReference.clear();
    m_stepApplications.clear();
    m_rememberedTaskId.clear();
    m_taskEmbedding.reset();
    if (!m_options.rememberTasks || !m_options.replayTaskId.isEmpty())
        return;
    const TaskMemory memory(m_options.taskMemoryDir);
    TaskMemory::SimilarityOptions options;
    options.embedder = pastTaskEmbedder(m_options.provider, m_options.embeddingModel);
    const TaskMemory::SimilarityResult found = memory.findSimilar(m_task, options);
    m_similarTasks = found.tasks;
    m_taskEmbedding = found.taskEmbedding;
    for (const QString& problem : found.problems)
        logError(QStringLiteral("past_task_ignored"), problem);
    for (const QString& problem : found.storeProblems)
        logError(QStringLiteral("past_task_vector_not_stored"), problem);
    if (!found.embeddingError.isEmpty()) {
        // Once a task, never fatal: the ranking is BM25's, as offline.
        logInfo(QStringLiteral("past_task_embeddings_failed"),
                QStringLiteral("past tasks ranked by BM25 alone: the %1 embeddings call failed: %2")
                    .arg(options.embedder.model, found.embeddingError));
        logRecord(QStringLiteral("past_task_embeddings_failed"),
                  {{QStringLiteral("model"), options.embedder.model},
                   {QStringLiteral("error"), found.embeddingError}});
    }
    if (m_similarTasks.isEmpty())
        return;
    m_pastTaskReference = TaskMemory::referenceText(m_similarTasks);
    QStringList names;
    QJsonArray tasks;
    QVariantList ids;
    for (const SimilarTask& s : std::as_const(m_similarTasks)) {
        names << QStringLiteral("\"%1\" (%2, relevance %3)")
                     .arg(s.task.task, s.task.id)
                     .arg(s.relevance, 0, 'f', 2);
        QJsonObject entry{{QStringLiteral("id"), s.task.id},
                          {QStringLiteral("task"), s.task.task},
                          {QStringLiteral("score"), s.score},
                          {QStringLiteral("relevance"), s.relevance}};
        if (s.cosine) {
            entry.insert(QStringLiteral("bm25_relevance"), s.bm25Relevance);
            entry.insert(QStringLiteral("cosine"), *s.cosine);
        }
        tasks.append(entry);
        ids << s.task.id;
    }
    QVariantMap data{{QStringLiteral("ids"), ids}};
    QJsonObject record{{QStringLiteral("tasks"), tasks}};
    if (found.usedEmbeddings) {
        data.insert(QStringLiteral("method"), QStringLiteral("bm25+embeddings"));
        record.insert(QStringLiteral("method"), QStringLiteral("bm25+embeddings"));
        record.insert(QStringLiteral("embedding_model"), options.embedder.model);
    }
    logInfo(QStringLiteral("similar_tasks"),
            QStringLiteral("similar to: %1").arg(names.join(QStringLiteral("; "))), data);
    logRecord(QStringLiteral("similar_tasks"), record);
}

std::unique_ptr<PlanBackend> TaskLearning::pastTaskReplay()
{
    const TaskMemory memory(m_options.taskMemoryDir);
    QString error;
    std::optional<PastTask> past = memory.find(m_options.replayTaskId, &error);
    RecordedSequence sequence;
    if (past) {
        sequence.task = past->task;
        sequence.planner = past->planner;
        sequence.recordedAt = past->recordedAt;
        for (qsizetype i = 0; i < past->steps.size() && error.isEmpty(); ++i) {
            QString stepError;
            if (auto step = RecordedStep::fromJson(past->steps.at(i).toObject(), &stepError))
                sequence.steps.append(*step);
            else
                error =
                    QStringLiteral("step %1 of remembered task %2: %3").arg(i + 1).arg(past->id, stepError);
        }
    }
    if (!error.isEmpty()) {
        // The task is planned as usual; the log says why the replay did not happen.
        logError(QStringLiteral("past_task_not_replayed"), error);
        return nullptr;
    }
    logInfo(QStringLiteral("past_task_replay"),
            QStringLiteral("replaying remembered task %1 \"%2\" (%3 steps); the planner takes over if they "
                           "no longer fit")
                .arg(past->id, past->task)
                .arg(sequence.steps.size()),
            {{QStringLiteral("id"), past->id}});
    logRecord(QStringLiteral("past_task_replay"),
              {{QStringLiteral("id"), past->id}, {QStringLiteral("steps"), int(sequence.steps.size())}});
    return std::make_unique<ReplayPlanner>(std::move(sequence));
}

void TaskLearning::rememberTask(const QString& planner)
{
    // Only what the Director saw complete and verify, executed for real, by its own steps.
    if (!m_options.rememberTasks || m_options.dryRun || m_replaying || m_recordedSteps.isEmpty())
        return;
    if (!m_notRecordableWhy.isEmpty()) {
        // A secret typed, or raw coordinates: the same reasons a sequence is not recorded.
        logInfo(QStringLiteral("task_not_remembered"), m_notRecordableWhy);
        return;
    }
    PastTask task;
    task.task = m_task;
    task.planner = planner;
    int most = 0;
    for (auto it = m_stepApplications.cbegin(); it != m_stepApplications.cend(); ++it) {
        if (it.value() > most || (it.value() == most && it.key() < task.application)) {
            most = it.value();
            task.application = it.key();
        }
    }
    for (const RecordedStep& step : std::as_const(m_recordedSteps)) {
        task.stepLines.append(stepLine(step));
        task.steps.append(step.toJson());
    }
    task.narrative = TaskMemory::narrate(task.task, task.application, task.stepLines);
    task.embedding = m_taskEmbedding; // the vector of this very text (scrubbed), when the lookup made one
    const TaskMemory memory(m_options.taskMemoryDir);
    QString error;
    const std::optional<PastTask> stored = memory.remember(task, &error);
    if (!stored) {
        logError(QStringLiteral("task_not_remembered"), error);
        return;
    }
    m_rememberedTaskId = stored->id;
    logInfo(QStringLiteral("task_remembered"),
            QStringLiteral("remembered as %1 with %2 steps").arg(stored->id).arg(stored->steps.size()),
            {{QStringLiteral("id"), stored->id}, {QStringLiteral("file"), memory.pathFor(stored->id)}});
    logRecord(QStringLiteral("task_remembered"),
              {{QStringLiteral("id"), stored->id}, {QStringLiteral("steps"), int(stored->steps.size())}});
}

} // namespace ciu
