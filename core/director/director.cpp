#include "core/director/director.h"

#include "core/director/directorinternal.h"
#include "core/director/directorlog.h"

#include <QJsonArray>

// The Director's control, main loop and helpers. Its inputs (zone maps, events, windows, frames):
// directorinputs.cpp; execution of actions: directorexecution.cpp; the recovery ladder: directorrecovery.cpp
// (decisions in recovery.cpp); verification after an action: directorverification.cpp (checks in
// verification.cpp, text read back by ReadBack); the run phase: directorphase.cpp; the planner and the
// fallback from a replay: directorplanner.cpp. Waits on zone maps: MapWaiter; recorded sequences and past
// tasks: TaskLearning.

namespace ciu {

using directordetail::proposedJson;

namespace directordetail {

QJsonObject proposedJson(const ProposedAction& p)
{
    QJsonObject o{{QStringLiteral("action"), p.action.toJson()},
                  {QStringLiteral("description"), p.action.describe()}};
    if (!p.toolUseId.isEmpty())
        o[QStringLiteral("tool_use_id")] = p.toolUseId;
    if (!p.toolName.isEmpty())
        o[QStringLiteral("tool")] = p.toolName;
    if (p.planStep > 0)
        o[QStringLiteral("plan_step")] = p.planStep;
    if (!p.expect.description.isEmpty())
        o[QStringLiteral("expect")] = p.expect.description;
    return o;
}

} // namespace directordetail

namespace {

void registerDirectorTypes()
{
    static const bool once = [] {
        qRegisterMetaType<Plan>();
        qRegisterMetaType<Decision>();
        qRegisterMetaType<CallUsage>();
        qRegisterMetaType<DirectorOptions>();
        qRegisterMetaType<DirectorState>();
        qRegisterMetaType<DirectorUsage>();
        qRegisterMetaType<TaskOutcome>();
        return true;
    }();
    Q_UNUSED(once)
}

} // namespace

Director::Director(QObject* parent)
    : QObject(parent)
    , m_launcher(std::make_unique<ProcessLauncher>())
    , m_actionTimer(this)
    , m_maps(this, [this] { return m_map.get(); })
    , m_learning(TaskLearning::Log{[this](const QString& what, const QString& message,
                                          const QVariantMap& data) { emitInfo(what, message, data); },
                                   [this](const QString& what, const QString& message,
                                          const QVariantMap& data) { emitError(what, message, data); },
                                   [this](const QString& type, const QJsonObject& r) { record(type, r); }})
{
    registerDirectorTypes();
    m_actionTimer.setSingleShot(true);
    connect(&m_actionTimer, &QTimer::timeout, this, &Director::onActionTimeout);
}

Director::~Director() = default;

void Director::setLaunchEnvironment(const QProcessEnvironment& environment)
{
    m_launcher = std::make_unique<ProcessLauncher>(environment);
}

void Director::setLauncher(std::unique_ptr<Launcher> launcher)
{
    m_launcher = launcher ? std::move(launcher) : std::make_unique<ProcessLauncher>();
}

Plan Director::plan() const
{
    Plan p = m_backend ? m_backend->plan() : Plan();
    if (!m_backend)
        p.task = m_task;
    p.task = m_secrets.masked(p.task);
    for (PlanStep& step : p.steps) {
        step.description = m_secrets.masked(step.description);
        step.zoneLabel = m_secrets.masked(step.zoneLabel);
        step.verb = m_secrets.masked(step.verb);
    }
    if (m_phase == Phase::Finished) {
        switch (m_result) {
        case TaskOutcome::Result::Completed:
            p.status = Plan::Status::Completed;
            break;
        case TaskOutcome::Result::Stopped:
        case TaskOutcome::Result::IterationLimit:
        case TaskOutcome::Result::CostLimit:
            p.status = Plan::Status::Stopped;
            break;
        default:
            p.status = Plan::Status::Failed;
            break;
        }
    } else if (m_runMode == RunMode::Paused) {
        p.status = Plan::Status::Paused;
    }
    return p;
}

// ---------------------------------------------------------------------------------------------------------
// Control

void Director::startTask(const QString& task, const DirectorOptions& options)
{
    if (isRunning()) {
        emitError(QStringLiteral("busy"), QStringLiteral("a task is already running; stop it first"));
        return;
    }
    ++m_generation;
    m_readBack.cancel();
    m_task = task;
    m_secrets = SecretMask(secretsOfTask(task));
    m_options = options;
    m_speed = SpeedPolicy(options.speed);
    m_iterations = safety::IterationBudget(options.maxIterations);
    m_cost = safety::CostBudget(options.maxCostUsd);
    m_usage = DirectorUsage();
    m_usage.maxIterations = options.maxIterations;
    m_usage.maxCostUsd = options.maxCostUsd;
    m_queue.clear();
    m_inFlight.reset();
    m_recovery.reset();
    m_confirmation.reset();
    m_runMode = RunMode::Continuous;
    m_disabledWaitedFor.clear();
    m_focusedZoneId.clear();
    m_unseenEffects.clear();
    m_actedNs = 0;
    m_mapOutdated = false;
    m_events.clearSinceDecision();
    m_result = TaskOutcome::Result::Failed;
    m_backend.reset();
    setPhase(Phase::Starting, m_secrets.masked(task));
    record(QStringLiteral("task_started"),
           {{QStringLiteral("task"), task}, {QStringLiteral("options"), options.toJson()}});

    m_learning.begin(task, options);

    QString error;
    std::unique_ptr<PlanBackend> backend = m_learning.replayPlanner();
    if (!backend)
        backend = createBackend(&error);
    if (!backend) {
        finish(TaskOutcome::Result::Failed, error.isEmpty() ? QStringLiteral("no planner available") : error);
        return;
    }
    if (!installBackend(std::move(backend)))
        return;
    emitPlan();
    emitInfo(QStringLiteral("task_started"),
             QStringLiteral("%1 planner, %2 loop, speed %3, %4")
                 .arg(m_backend->name(), toString(options.loop), toString(options.speed),
                      options.dryRun ? QStringLiteral("dry run") : QStringLiteral("executing")));
    emit usageUpdated(m_usage);
    if (!m_map) {
        m_maps.wait([](const ZoneMap&) { return true; }, options.firstMapTimeoutMs,
                    [this](bool arrived) {
                        if (!arrived)
                            emitInfo(QStringLiteral("no_zone_map"),
                                     QStringLiteral("no zone map yet; planning without one"));
                        scheduleProceed();
                    });
        return;
    }
    scheduleProceed();
}

void Director::pause()
{
    if (!isRunning() || m_runMode == RunMode::Paused)
        return;
    m_runMode = RunMode::Paused;
    emitInfo(QStringLiteral("paused"), QStringLiteral("paused"));
    if (!waitingForOthers())
        setState(DirectorState::Paused); // the loop holds before its next step (proceed())
    emitPlan();
}

void Director::resume()
{
    if (!isRunning() || m_runMode != RunMode::Paused)
        return;
    m_runMode = RunMode::Continuous;
    emitInfo(QStringLiteral("resumed"), QStringLiteral("resumed"));
    emitPlan();
    if (m_phase == Phase::Paused)
        scheduleProceed();
}

void Director::step()
{
    if (!isRunning())
        return;
    m_runMode = RunMode::SingleStep;
    if (m_phase == Phase::Paused)
        scheduleProceed();
}

void Director::stop(const QString& reason)
{
    if (!isRunning())
        return;
    finish(TaskOutcome::Result::Stopped, reason.isEmpty() ? QStringLiteral("stopped by the user") : reason);
}

void Director::answerConfirmation(quint64 id, bool approved)
{
    if (!m_confirmation || m_confirmation->id != id || !isRunning())
        return;
    const Confirmation c = *std::exchange(m_confirmation, std::nullopt);
    setPhase(Phase::Ready);
    record(QStringLiteral("confirmation_answered"),
           {{QStringLiteral("id"), double(id)}, {QStringLiteral("approved"), approved}});
    if (approved) {
        emitInfo(QStringLiteral("confirmed"), QStringLiteral("confirmed: %1").arg(c.flight.sent.describe()));
        dispatch(c.flight);
        return;
    }
    ++m_usage.actionsRefused;
    ActionOutcome o;
    o.status = ActionOutcome::Status::Declined;
    o.message = QStringLiteral("the user declined %1").arg(c.flight.sent.describe());
    o.mapAfter = m_map;
    emitError(QStringLiteral("declined"), o.message);
    finishAction(o);
}

// ---------------------------------------------------------------------------------------------------------
// The loop

void Director::scheduleProceed()
{
    if (!isRunning())
        return; // a stop from a signal of this step: the task stays finished
    setPhase(Phase::Ready);
    const quint64 generation = m_generation;
    QMetaObject::invokeMethod(
        this,
        [this, generation] {
            if (generation == m_generation)
                proceed();
        },
        Qt::QueuedConnection);
}

void Director::proceed()
{
    if (m_phase != Phase::Ready && m_phase != Phase::Paused)
        return; // finished, or something is outstanding (the planner, the brush, the user, a zone map)
    if (m_runMode == RunMode::Paused) {
        setPhase(Phase::Paused);
        return;
    }
    if (!m_queue.isEmpty())
        executeNext();
    else
        requestDecision();
}

void Director::requestDecision()
{
    if (m_iterations.exhausted()) {
        finish(TaskOutcome::Result::IterationLimit,
               QStringLiteral("stopped at the iteration limit (%1 of %2 used)")
                   .arg(m_iterations.used())
                   .arg(m_iterations.maximum()));
        return;
    }
    if (m_backend->usesModel() && m_cost.exhausted()) {
        finish(TaskOutcome::Result::CostLimit, QStringLiteral("stopped at the cost limit ($%1 of $%2 spent)")
                                                   .arg(m_cost.spentUsd(), 0, 'f', 4)
                                                   .arg(m_cost.limitUsd(), 0, 'f', 2));
        return;
    }
    // Never decide on the screen as it was before the last action while the canvas may still be analysing
    // what it did (a loaded machine): a step would resolve its target among zones no longer there.
    if (!m_mapOutdated && mapPredatesLastAction()) {
        takeFreshLook();
        return;
    }
    m_iterations.take();
    m_usage.iterations = m_iterations.used();
    if (m_iterations.takeWarning())
        emitInfo(QStringLiteral("iteration_warning"),
                 QStringLiteral("%1 of %2 iterations used (80 % of the limit)")
                     .arg(m_iterations.used())
                     .arg(m_iterations.maximum()),
                 {{QStringLiteral("iterations"), m_iterations.used()},
                  {QStringLiteral("max_iterations"), m_iterations.maximum()}});

    WorldState world;
    world.map = m_map;
    world.recentEvents = m_events.takeSinceDecision();
    const Frame& frame = m_readBack.lastFrame();
    world.screenSize = m_map ? m_map->screenSize() : frame.image.size();
    world.speed = m_speed.mode();
    world.dryRun = m_options.dryRun;
    world.windows = m_readBack.windows();
    if (m_backend->wantsScreenshot() && frame.isValid())
        world.screenshot = frame.image;
    setPhase(Phase::Deciding,
             QStringLiteral("iteration %1 of %2").arg(m_iterations.used()).arg(m_iterations.maximum()));
    emit usageUpdated(m_usage);
    m_backend->decide(world);
}

void Director::onDecided(const Decision& decision)
{
    if (m_phase != Phase::Deciding)
        return;
    setPhase(Phase::Ready);
    const bool outdated = std::exchange(m_mapOutdated, false);
    noteSecrets(decision.actions);
    QJsonArray actions;
    for (const ProposedAction& p : decision.actions)
        actions.append(proposedJson(p));
    static const char* kinds[] = {"",       "act",       "complete", "impossible",
                                  "failed", "reanalyze", "fallback", "unverified"};
    record(QStringLiteral("decision"),
           {{QStringLiteral("kind"), QString::fromLatin1(kinds[int(decision.kind)])},
            {QStringLiteral("message"), decision.message},
            {QStringLiteral("actions"), actions},
            {QStringLiteral("planner"), m_backend->name()},
            {QStringLiteral("map_outdated"), outdated}});
    if (outdated) {
        // Taken on the zone map from before the last action (the canvas did not answer): an action chosen on
        // it may hit what is no longer there, and a model's "done" judged the screen as it was.
        const QString why =
            QStringLiteral("the screen was not analysed after the last action (the canvas did not answer "
                           "within %1 s)")
                .arg(freshLookTimeoutMs() / 1000.0);
        if (decision.kind == Decision::Kind::Act) {
            finish(
                TaskOutcome::Result::Failed,
                QStringLiteral("%1: the next action is not chosen on the zone map from before it").arg(why));
            return;
        }
        if (decision.kind == Decision::Kind::Complete && m_backend->usesModel()) {
            finish(TaskOutcome::Result::Unverified,
                   QStringLiteral("the planner reported the task done, but %1").arg(why));
            return;
        }
    }
    switch (decision.kind) {
    case Decision::Kind::Complete:
        // A model's "done" is its word, not evidence: an effect not seen since ends the task unverified (the
        // local and replay planners keep that account per step themselves).
        if (m_backend->usesModel() && !m_unseenEffects.isEmpty()) {
            QStringList steps;
            for (const UnseenEffect& e : std::as_const(m_unseenEffects))
                steps << e.message;
            finish(TaskOutcome::Result::Unverified,
                   QStringLiteral(
                       "the planner reported the task done%1, but the effect of %2 %3 was not seen: %4")
                       .arg(decision.message.isEmpty() ? QString()
                                                       : QStringLiteral(" (%1)").arg(decision.message))
                       .arg(steps.size())
                       .arg(steps.size() == 1 ? QStringLiteral("action") : QStringLiteral("actions"))
                       .arg(steps.join(QStringLiteral("; "))));
            return;
        }
        finish(TaskOutcome::Result::Completed, decision.message);
        return;
    case Decision::Kind::Impossible:
        finish(TaskOutcome::Result::Impossible, decision.message);
        return;
    case Decision::Kind::Unverified:
        finish(TaskOutcome::Result::Unverified, decision.message);
        return;
    case Decision::Kind::Failed:
        finish(TaskOutcome::Result::Failed, decision.message);
        return;
    case Decision::Kind::Reanalyze: {
        // Zone not found: Tier 2 re-analysis, then re-plan.
        setPhase(Phase::AwaitingMap, decision.message);
        emitInfo(QStringLiteral("reanalysis"), decision.message);
        emit analysisRequested(decision.message);
        // A window still opening (a file dialog) is mapped in pieces: after the first new map, wait until the
        // maps stop coming, within the re-analysis time.
        const quint64 version = m_map ? m_map->version() : 0;
        const qint64 deadlineNs = m_clock.nowNs() + qint64(m_options.reanalysisTimeoutMs) * 1'000'000;
        m_maps.wait(
            [version](const ZoneMap& m) { return m.version() > version; }, m_options.reanalysisTimeoutMs,
            [this, deadlineNs](bool) { waitForQuietMaps(deadlineNs, [this] { scheduleProceed(); }); });
        return;
    }
    case Decision::Kind::Fallback:
        fallBackFromReplay(decision.message);
        return;
    case Decision::Kind::Act:
        m_queue = decision.actions;
        emitPlan();
        scheduleProceed();
        return;
    }
}

void Director::finishAction(ActionOutcome outcome, bool cutBatch)
{
    if (m_queue.isEmpty()) {
        scheduleProceed();
        return;
    }
    const ProposedAction p = m_queue.takeFirst();
    outcome.batchCut = cutBatch && !outcome.isError() && !outcome.verificationFailed;
    m_learning.noteOutcome(p, outcome);
    noteEffectSeen(p, outcome);
    record(QStringLiteral("action_outcome"),
           {{QStringLiteral("action"), proposedJson(p)},
            {QStringLiteral("status"), toString(outcome.status)},
            {QStringLiteral("success"), !outcome.isError()},
            {QStringLiteral("message"), outcome.message},
            {QStringLiteral("result"), outcome.result.toJson()},
            {QStringLiteral("verification_failed"), outcome.verificationFailed}});
    m_backend->report(p, outcome);
    if (outcome.isError() || cutBatch)
        skipRemaining(outcome.isError()
                          ? QStringLiteral("not executed: an earlier action of this turn failed")
                          : QStringLiteral("not executed: the screen changed at a verification point; "
                                           "decide again with the new zone map"));
    emit usageUpdated(m_usage);
    if (m_runMode == RunMode::SingleStep)
        m_runMode = RunMode::Paused;
    scheduleProceed();
}

void Director::noteEffectSeen(const ProposedAction& p, const ActionOutcome& outcome)
{
    if (outcome.status != ActionOutcome::Status::Executed || !outcome.result.success)
        return; // not executed, or failed: the planner hears of it as an error
    const QString step =
        p.planStep > 0 ? QStringLiteral("%1#%2").arg(p.toolUseId).arg(p.planStep) : QString();
    const QString subject = subjectKey(p);
    if (outcome.verificationFailed) {
        m_unseenEffects.append(
            {step, subject, QStringLiteral("%1: %2").arg(p.action.describe(), outcome.message)});
        return;
    }
    m_unseenEffects.removeIf(
        [&](const UnseenEffect& e) { return e.subject == subject || (!step.isEmpty() && e.step == step); });
}

QString Director::subjectKey(const ProposedAction& p)
{
    // What the action acted on: its field, zone or window (else its keys or text), and how.
    const QString subject = !p.focusZoneId.isEmpty()     ? p.focusZoneId
                            : !p.action.zoneId.isEmpty() ? p.action.zoneId
                            : p.action.windowId != 0     ? QStringLiteral("window %1").arg(p.action.windowId)
                            : p.expect.windowId != 0     ? QStringLiteral("window %1").arg(p.expect.windowId)
                                                         : p.action.text;
    return toString(p.action.type) + QLatin1Char(' ') + subject;
}

void Director::skipRemaining(const QString& why)
{
    while (!m_queue.isEmpty()) {
        const ProposedAction p = m_queue.takeFirst();
        ActionOutcome o;
        o.status = ActionOutcome::Status::Skipped;
        o.message = why;
        o.mapAfter = m_map;
        m_backend->report(p, o);
    }
}

// ---------------------------------------------------------------------------------------------------------
// Helpers

void Director::finish(TaskOutcome::Result result, const QString& message)
{
    if (m_phase == Phase::Finished)
        return;
    ++m_generation;
    m_readBack.cancel();
    m_actionTimer.stop();
    m_maps.cancel();
    m_inFlight.reset();
    m_confirmation.reset();
    m_recovery.reset();
    if (m_backend) {
        m_backend->cancel();
        if (!m_queue.isEmpty())
            skipRemaining(QStringLiteral("not executed: the task ended"));
    }
    m_queue.clear();
    m_runMode = RunMode::Continuous;
    m_result = result;
    if (result == TaskOutcome::Result::Completed)
        m_learning.completed(m_backend ? m_backend->name() : m_options.provider);
    setPhase(Phase::Finished, {}, Report::Silently); // before plan(): the plan's status follows the result

    TaskOutcome o;
    o.result = result;
    o.message = m_secrets.masked(message);
    o.plan = plan();
    o.usage = m_usage;
    o.dryRun = m_options.dryRun;
    o.initialSpeed = m_speed.initialMode();
    o.finalSpeed = m_speed.mode();
    o.planner = m_backend ? m_backend->name() : m_options.provider;
    o.loop = toString(m_options.loop);
    for (const SimilarTask& s : m_learning.similarTasks())
        o.similarTasks.append(QJsonObject{{QStringLiteral("id"), s.task.id},
                                          {QStringLiteral("task"), s.task.task},
                                          {QStringLiteral("relevance"), s.relevance}});
    o.rememberedTaskId = m_learning.rememberedTaskId();
    QJsonObject summary = o.toJson();
    summary.insert(QStringLiteral("totals"), summary.take(QStringLiteral("usage"))); // "usage" means one call
    record(QStringLiteral("finished"), summary);
    // A user's stop is what they asked for, not an error.
    if (result == TaskOutcome::Result::Completed || result == TaskOutcome::Result::Stopped)
        emitInfo(QStringLiteral("finished"), QStringLiteral("%1: %2").arg(toString(result), o.message));
    else
        emitError(QStringLiteral("finished"), QStringLiteral("%1: %2").arg(toString(result), o.message));
    emitPlan();
    emit usageUpdated(m_usage);
    qCDebug(lcDirector) << "state" << toString(DirectorState::Finished) << o.message;
    emit statusChanged(DirectorState::Finished, o.message); // even when the message is empty
    emit finished(o);
}

void Director::emitEvent(SpatialEvent::Kind kind, const QVariantMap& data, const QString& zoneId)
{
    SpatialEvent e;
    e.kind = kind;
    e.tNs = m_clock.nowNs();
    e.zoneId = zoneId;
    e.data = data;
    if (!m_secrets.isEmpty()) {
        for (QVariant& v : e.data) {
            if (v.typeId() == QMetaType::QString)
                v = m_secrets.masked(v.toString());
        }
    }
    e.data.insert(QStringLiteral("source"), QStringLiteral("director"));
    emit eventOccurred(e);
}

void Director::emitInfo(const QString& what, const QString& message, QVariantMap data)
{
    data.insert(QStringLiteral("what"), what);
    data.insert(QStringLiteral("message"), m_secrets.masked(message));
    qCInfo(lcDirector).noquote() << what << m_secrets.masked(message);
    emitEvent(SpatialEvent::Kind::Info, data);
}

void Director::emitError(const QString& what, const QString& message, QVariantMap data)
{
    data.insert(QStringLiteral("what"), what);
    data.insert(QStringLiteral("message"), m_secrets.masked(message));
    qCWarning(lcDirector).noquote() << what << m_secrets.masked(message);
    emitEvent(SpatialEvent::Kind::Error, data);
}

void Director::record(const QString& type, QJsonObject r)
{
    r.insert(QStringLiteral("t_ns"), double(m_clock.nowNs()));
    r.insert(QStringLiteral("type"), type);
    emit decisionRecorded(m_secrets.masked(r));
}

void Director::escalate(const QString& reason)
{
    const SpeedMode before = m_speed.mode();
    if (const auto after = m_speed.escalate()) {
        const QString message = QStringLiteral("speed %1 → %2 after a failed verification: %3")
                                    .arg(toString(before), toString(*after), reason);
        emitInfo(QStringLiteral("speed_escalated"), message,
                 {{QStringLiteral("from"), toString(before)}, {QStringLiteral("to"), toString(*after)}});
        record(QStringLiteral("speed_escalated"), {{QStringLiteral("from"), toString(before)},
                                                   {QStringLiteral("to"), toString(*after)},
                                                   {QStringLiteral("reason"), reason}});
    }
}

void Director::emitPlan()
{
    emit planUpdated(plan());
}

ActionContext Director::contextFor(const ProposedAction& p) const
{
    ActionContext c;
    c.action = p.action;
    c.checkpoint = p.checkpoint;
    c.modelAvailable = m_backend && m_backend->usesModel();
    const Zone* z = m_map && !p.action.zoneId.isEmpty() ? m_map->find(p.action.zoneId) : nullptr;
    if (z) {
        c.zoneType = z->type;
        c.zoneLabel = z->label;
    }
    return c;
}

} // namespace ciu
