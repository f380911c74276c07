#include "core/director/directorlog.h"
#include "core/director/modelplanner.h"
#include "core/director/safety/untrusted.h"
#include "core/director/zoneresolver.h"

#include <QJsonArray>

// run_steps: the model plans several steps ahead by name. The reply's tool calls run as segments in their
// order (batches of zone-tool actions, run_steps scripts); a script runs through an embedded LocalPlanner
// one step per decision, each resolved against the zone map as it is just before the step, with the
// Director's checks on every action; its one tool result says which steps ran, the first failure and the
// zones that may be meant. The model is called again only when nothing of the reply is left to run.

namespace ciu {

using director::ContentBlock;

namespace {

// The zone-not-found row for a script step: one re-analysis, then the model re-plans with the new map.
constexpr int kScriptResolveAttempts = 2;
// Zones listed in a failed script's result (candidates for the missing name and zones that appeared).
constexpr int kMaxRelevantZones = 12;

bool finishedStatus(PlanStep::Status s)
{
    return s == PlanStep::Status::Done || s == PlanStep::Status::Skipped;
}

} // namespace

std::optional<QList<ScriptCommand>> ModelPlanner::parseSteps(const QJsonObject& input, QString* error)
{
    const QString usage = QStringLiteral(
        "run_steps needs \"steps\": a list of commands, e.g. [\"click File\", \"click Open\"]");
    const QJsonValue value = input.value(QStringLiteral("steps"));
    QStringList steps;
    if (value.isString()) {
        steps << value.toString();
    } else if (value.isArray()) {
        const QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i) {
            if (!array.at(i).isString()) {
                *error = QStringLiteral("step %1 is not a string; %2").arg(i + 1).arg(usage);
                return std::nullopt;
            }
            steps << array.at(i).toString();
        }
    } else {
        *error = usage;
        return std::nullopt;
    }
    if (steps.isEmpty()) {
        *error = QStringLiteral("the list of steps is empty; %1").arg(usage);
        return std::nullopt;
    }
    if (steps.size() > kMaxScriptSteps) {
        *error =
            QStringLiteral("%1 steps; at most %2 in one run_steps").arg(steps.size()).arg(kMaxScriptSteps);
        return std::nullopt;
    }
    QList<ScriptCommand> commands;
    for (qsizetype i = 0; i < steps.size(); ++i) {
        const ScriptParseResult parsed = parseScript(steps.at(i));
        if (!parsed.ok()) {
            *error = QStringLiteral("step %1 (\"%2\"): %3; no step was run")
                         .arg(i + 1)
                         .arg(steps.at(i).left(200), parsed.error->toString());
            return std::nullopt;
        }
        if (parsed.commands.isEmpty()) {
            *error = QStringLiteral("step %1 is empty; no step was run").arg(i + 1);
            return std::nullopt;
        }
        for (const ScriptCommand& c : parsed.commands) {
            if (c.verb == ScriptCommand::Verb::Launch) {
                // Starting programs is for the person who gives the task, never for the model.
                *error = QStringLiteral("step %1: launch is not available to the model; no step was run")
                             .arg(i + 1);
                return std::nullopt;
            }
            commands.append(c);
        }
    }
    if (commands.size() > kMaxScriptSteps) {
        *error = QStringLiteral("%1 commands; at most %2 in one run_steps")
                     .arg(commands.size())
                     .arg(kMaxScriptSteps);
        return std::nullopt;
    }
    return commands;
}

Plan ModelPlanner::plan() const
{
    if (!m_script || m_modelPlanned)
        return m_plan;
    // The running script's steps show as the plan's next steps.
    Plan p = m_plan;
    const Plan script = m_script->runner->plan();
    const int base = int(p.steps.size());
    p.steps.append(script.steps);
    p.currentStep = base + script.currentStep;
    p.status = Plan::Status::Executing;
    return p;
}

std::optional<Decision> ModelPlanner::advance(const ZoneMapPtr& map)
{
    static const ZoneMap empty;
    for (;;) {
        if (m_script) {
            ScriptRun& run = *m_script;
            if (run.stopForModel) {
                run.stopForModel = false;
                const Plan p = run.runner->plan();
                const bool left = std::any_of(p.steps.begin(), p.steps.end(),
                                              [](const PlanStep& s) { return !finishedStatus(s.status); });
                if (left) {
                    finishScript(map, ScriptEnd::Paused);
                    dropSegments(QStringLiteral("not executed: a verification point before it needs you"));
                    return std::nullopt;
                }
            }
            run.runner->setWindows(m_windows);
            Decision d = run.runner->nextDecision(map ? *map : empty);
            switch (d.kind) {
            case Decision::Kind::Act:
                for (ProposedAction& p : d.actions) {
                    p.toolUseId = run.callId;
                    p.toolName = QStringLiteral("run_steps");
                }
                emit planChanged();
                return d;
            case Decision::Kind::Reanalyze:
                if (m_dryRun && run.actionsRun > 0) {
                    // Nothing was executed, so what an earlier step opens is not there to name.
                    finishScript(map, ScriptEnd::DryRunStop, d.message);
                    continue;
                }
                return d; // zone not found: Tier 2 re-analysis, then the step again
            case Decision::Kind::Complete:
                finishScript(map, ScriptEnd::Completed);
                continue;
            case Decision::Kind::Unverified: // every step ran; the model reads which effects were not seen
                finishScript(map, ScriptEnd::Unverified, d.message);
                continue;
            default: // Impossible, Failed: the model re-plans
                finishScript(map, ScriptEnd::Failed, d.message);
                dropSegments(QStringLiteral("not executed: a run_steps step before it failed"));
                return std::nullopt;
            }
        }
        if (m_segments.isEmpty())
            return std::nullopt;
        Segment segment = m_segments.takeFirst();
        if (segment.scriptCallId.isEmpty()) {
            Decision d;
            d.kind = Decision::Kind::Act;
            d.actions = segment.actions;
            return d;
        }
        startScript(std::move(segment), map);
    }
}

void ModelPlanner::startScript(Segment segment, const ZoneMapPtr& map)
{
    ScriptRun run;
    run.callId = segment.scriptCallId;
    run.runner = std::make_unique<LocalPlanner>();
    run.runner->setMaxResolveAttempts(kScriptResolveAttempts);
    if (m_shortcuts)
        run.runner->setShortcutLookup(m_shortcuts);
    run.runner->beginCommands(segment.commands, QStringLiteral("run_steps"));
    run.notes = QList<QStringList>(segment.commands.size());
    run.mapAtStart = map;
    qCDebug(lcModelPlanner) << "run_steps" << run.callId << "with" << segment.commands.size() << "steps";
    m_script = std::move(run);
}

bool ModelPlanner::reportScript(const ProposedAction& action, const ActionOutcome& outcome)
{
    if (!m_script || action.toolUseId != m_script->callId)
        return false;
    ScriptRun& run = *m_script;
    run.runner->report(action, outcome);
    const int index = action.planStep - 1;
    if (index >= 0 && index < run.notes.size()) {
        QString note;
        if (outcome.status == ActionOutcome::Status::DryRun)
            note = QStringLiteral("dry run");
        else if (outcome.isError())
            note = QStringLiteral("error: %1")
                       .arg(outcome.message.isEmpty() ? outcome.result.error : outcome.message);
        else if (outcome.verificationFailed)
            note = outcome.message;
        if (!action.action.zoneId.isEmpty())
            note = note.isEmpty() ? action.action.zoneId : action.action.zoneId + QStringLiteral(" ") + note;
        if (!outcome.result.output.isEmpty() && action.local)
            note += (note.isEmpty() ? QString() : QStringLiteral(" ")) + outcome.result.output;
        if (!note.isEmpty() && !run.notes[index].contains(note))
            run.notes[index] << note;
    }
    if (outcome.status == ActionOutcome::Status::Executed || outcome.status == ActionOutcome::Status::DryRun)
        ++run.actionsRun;
    if (!outcome.screenshot.isNull())
        run.screenshot = outcome.screenshot;
    if (outcome.batchCut) {
        // Only between steps: a step's own actions (focus, then type) belong together.
        const Plan p = run.runner->plan();
        if (index >= 0 && index < p.steps.size() && finishedStatus(p.steps[index].status))
            run.stopForModel = true;
    }
    emit planChanged();
    return true;
}

void ModelPlanner::finishScript(const ZoneMapPtr& map, ScriptEnd end, const QString& detail)
{
    ScriptRun run = std::move(*m_script);
    m_script.reset();
    const Plan p = run.runner->plan();
    const QList<ScriptCommand>& commands = run.runner->commands();
    const int total = int(commands.size());
    int stoppedAt = -1; // 0-based
    for (int i = 0; i < total && stoppedAt < 0; ++i) {
        if (!finishedStatus(p.steps[i].status))
            stoppedAt = i;
    }
    const int done = stoppedAt < 0 ? total : stoppedAt;
    const QString why = safety::defuseUntrusted(detail);

    QStringList lines;
    switch (end) {
    case ScriptEnd::Completed:
        lines << (m_dryRun ? QStringLiteral("dry run: all %1 steps logged, nothing executed").arg(total)
                           : QStringLiteral("all %1 steps done").arg(total));
        break;
    case ScriptEnd::Unverified:
        lines << QStringLiteral("all %1 steps ran, but not every effect was seen: %2").arg(total).arg(why);
        break;
    case ScriptEnd::Failed: {
        // The runner's messages start with "step N (command)": say "step N of M (command)" instead.
        const QString source = done < total ? commands[done].source : QString();
        const QString prefix =
            safety::defuseUntrusted(QStringLiteral("step %1 (%2)").arg(done + 1).arg(source));
        const QString step =
            QStringLiteral("step %1 of %2 (%3)").arg(done + 1).arg(total).arg(source.simplified());
        const QString rest = why.startsWith(prefix) ? why.mid(prefix.size()) : QStringLiteral(": ") + why;
        lines << QStringLiteral("stopped at ") + step + rest;
        break;
    }
    case ScriptEnd::Paused:
        lines << QStringLiteral(
                     "paused after step %1 of %2: the speed mode wants you to check the screen before "
                     "the next step; send the remaining steps again if they still fit")
                     .arg(done)
                     .arg(total);
        break;
    case ScriptEnd::DryRunStop:
        lines << QStringLiteral(
                     "dry run: %1 of %2 steps logged, nothing executed; step %3 names a zone that is "
                     "not on screen (an executed earlier step would show it), the rest was not "
                     "checked (%4)")
                     .arg(done)
                     .arg(total)
                     .arg(done + 1)
                     .arg(why);
        break;
    }
    for (int i = 0; i < total; ++i) {
        const PlanStep& step = p.steps[i];
        QString state;
        switch (step.status) {
        case PlanStep::Status::Done:
            state = QStringLiteral("done");
            break;
        case PlanStep::Status::Skipped:
            state = QStringLiteral("no action needed (%1)").arg(safety::defuseUntrusted(step.description));
            break;
        case PlanStep::Status::Failed:
            state = QStringLiteral("failed");
            break;
        default:
            state = i == stoppedAt && end == ScriptEnd::Failed ? QStringLiteral("failed")
                                                               : QStringLiteral("not run");
            break;
        }
        const QStringList& notes = run.notes.value(i);
        if (!notes.isEmpty())
            state += QStringLiteral(" (%1)").arg(safety::defuseUntrusted(notes.join(QStringLiteral("; "))));
        lines << QStringLiteral("%1. %2: %3").arg(i + 1).arg(commands[i].source.simplified(), state);
    }

    if (end == ScriptEnd::Failed && map && stoppedAt >= 0) {
        // The zones the failed step may have meant, and what appeared since the script started.
        QStringList zones;
        QSet<QString> seen;
        auto add = [&](const Zone& z) {
            if (zones.size() < kMaxRelevantZones && !seen.contains(z.id)) {
                seen.insert(z.id);
                zones << describeZone(z);
            }
        };
        const ScriptCommand& failed = commands[stoppedAt];
        for (const QString& name : {failed.target, failed.target2, failed.text}) {
            if (name.isEmpty() || failed.verb == ScriptCommand::Verb::Type ||
                failed.verb == ScriptCommand::Verb::Press)
                continue;
            for (const ZoneResolver::Candidate& c :
                 ZoneResolver::resolve(name, *map, ZoneResolver::Purpose::Any).candidates) {
                if (c.score >= 0.3) // the resolver's "closest" threshold
                    add(c.zone);
            }
        }
        if (run.mapAtStart) {
            for (const Zone& z : map->zones()) {
                if (!run.mapAtStart->find(z.id))
                    add(z);
            }
        }
        if (!zones.isEmpty())
            lines << safety::wrapUntrusted(
                QStringLiteral("zones that may be meant now (id type label [x,y,w,h] state):\n") +
                    zones.join(QLatin1Char('\n')),
                QStringLiteral("zone_map"));
    }

    const bool isError = end == ScriptEnd::Failed;
    answer(run.callId, lines.join(QLatin1Char('\n')), isError, run.screenshot);
    for (ToolCall& c : m_calls) {
        if (c.id == run.callId)
            c.incomplete = end == ScriptEnd::Paused;
    }
    qCDebug(lcModelPlanner) << "run_steps" << run.callId << "ended:" << lines.first();

    if (!m_modelPlanned) {
        m_plan.steps.append(p.steps);
        m_plan.currentStep = int(m_plan.steps.size());
    } else if (end == ScriptEnd::Completed && m_plan.currentStep < m_plan.steps.size()) {
        m_plan.steps[std::max(0, m_plan.currentStep - 1)].status = PlanStep::Status::Done;
        ++m_plan.currentStep;
    }
    emit planChanged();
}

void ModelPlanner::dropSegments(const QString& why)
{
    for (const Segment& s : std::as_const(m_segments)) {
        QStringList ids;
        if (!s.scriptCallId.isEmpty())
            ids << s.scriptCallId;
        for (const ProposedAction& a : s.actions) {
            if (!ids.contains(a.toolUseId))
                ids << a.toolUseId;
        }
        for (const QString& id : std::as_const(ids)) {
            for (ToolCall& c : m_calls) {
                if (c.id == id && !c.result)
                    c.result = ContentBlock::makeToolResultText(id, why, true);
            }
        }
    }
    m_segments.clear();
}

} // namespace ciu
