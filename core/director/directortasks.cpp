#include "core/director/director.h"
#include "core/director/directorinternal.h"
#include "core/director/replayplanner.h"

// The memory of past tasks (core/knowledge/taskmemory.h) as the Director uses it: the remembered tasks
// similar to a new one are logged and handed to the planner as a reference; a task that completed, verified
// and not in a dry run, is remembered with the steps that worked; a remembered task's steps can be replayed.

#include <QJsonArray>

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

void Director::lookUpSimilarTasks()
{
    m_similarTasks.clear();
    m_pastTaskReference.clear();
    m_stepApplications.clear();
    m_rememberedTaskId.clear();
    if (!m_options.rememberTasks || !m_options.replayTaskId.isEmpty())
        return;
    const TaskMemory memory(m_options.taskMemoryDir);
    QStringList problems;
    m_similarTasks = memory.similar(m_task, TaskMemory::kDefaultLimit, TaskMemory::kDefaultFloor, &problems);
    for (const QString& problem : std::as_const(problems))
        emitError(QStringLiteral("past_task_ignored"), problem);
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
        tasks.append(QJsonObject{{QStringLiteral("id"), s.task.id},
                                 {QStringLiteral("task"), s.task.task},
                                 {QStringLiteral("score"), s.score},
                                 {QStringLiteral("relevance"), s.relevance}});
        ids << s.task.id;
    }
    emitInfo(QStringLiteral("similar_tasks"),
             QStringLiteral("similar to: %1").arg(names.join(QStringLiteral("; "))),
             {{QStringLiteral("ids"), ids}});
    record(QStringLiteral("similar_tasks"), {{QStringLiteral("tasks"), tasks}});
}

std::unique_ptr<PlanBackend> Director::pastTaskReplay()
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
        emitError(QStringLiteral("past_task_not_replayed"), error);
        return nullptr;
    }
    emitInfo(QStringLiteral("past_task_replay"),
             QStringLiteral("replaying remembered task %1 \"%2\" (%3 steps); the planner takes over if they "
                            "no longer fit")
                 .arg(past->id, past->task)
                 .arg(sequence.steps.size()),
             {{QStringLiteral("id"), past->id}});
    record(QStringLiteral("past_task_replay"),
           {{QStringLiteral("id"), past->id}, {QStringLiteral("steps"), int(sequence.steps.size())}});
    return std::make_unique<ReplayPlanner>(std::move(sequence));
}

void Director::rememberTask()
{
    // Only what the Director saw complete and verify, executed for real, by its own steps.
    if (!m_options.rememberTasks || m_options.dryRun || m_replaying || m_recordedSteps.isEmpty())
        return;
    if (!m_sequenceNotRecordableWhy.isEmpty()) {
        // A secret typed, or raw coordinates: the same reasons a sequence is not recorded.
        emitInfo(QStringLiteral("task_not_remembered"), m_sequenceNotRecordableWhy);
        return;
    }
    PastTask task;
    task.task = m_task;
    task.planner = m_backend ? m_backend->name() : m_options.provider;
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
    const TaskMemory memory(m_options.taskMemoryDir);
    QString error;
    const std::optional<PastTask> stored = memory.remember(task, &error);
    if (!stored) {
        emitError(QStringLiteral("task_not_remembered"), error);
        return;
    }
    m_rememberedTaskId = stored->id;
    emitInfo(QStringLiteral("task_remembered"),
             QStringLiteral("remembered as %1 with %2 steps").arg(stored->id).arg(stored->steps.size()),
             {{QStringLiteral("id"), stored->id}, {QStringLiteral("file"), memory.pathFor(stored->id)}});
    record(QStringLiteral("task_remembered"),
           {{QStringLiteral("id"), stored->id}, {QStringLiteral("steps"), int(stored->steps.size())}});
}

} // namespace ciu
