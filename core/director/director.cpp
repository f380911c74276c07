#include "core/director/director.h"

#include "core/director/localplanner.h"
#include "core/director/zoneresolver.h"

#include <QJsonArray>
#include <QLoggingCategory>
#include <QProcess>

namespace ciu {

Q_LOGGING_CATEGORY(lcDirector, "ciu.director")

namespace {

constexpr int kMaxEventsKept = 200;

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

bool hasCheckState(const Zone& z)
{
    return z.state.testFlag(ZoneStateFlag::Checked) || z.state.testFlag(ZoneStateFlag::Unchecked);
}

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

} // namespace

Director::Director(QObject* parent)
    : QObject(parent)
    , m_actionTimer(this)
    , m_waitTimer(this)
{
    registerDirectorTypes();
    m_actionTimer.setSingleShot(true);
    connect(&m_actionTimer, &QTimer::timeout, this, &Director::onActionTimeout);
    m_waitTimer.setSingleShot(true);
    connect(&m_waitTimer, &QTimer::timeout, this, [this] {
        auto then = std::move(m_mapThen);
        m_mapPredicate = {};
        m_mapThen = {};
        if (then)
            then(false);
    });
}

Director::~Director() = default;

Plan Director::plan() const
{
    Plan p = m_backend ? m_backend->plan() : Plan();
    if (!m_backend)
        p.task = m_task;
    if (m_state == DirectorState::Finished) {
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
    } else if (m_paused) {
        p.status = Plan::Status::Paused;
    }
    return p;
}

std::unique_ptr<PlanBackend> Director::defaultBackend(const DirectorOptions& options, QString* error) const
{
    if (options.loop == DirectorOptions::Loop::Classic) {
        *error = QStringLiteral("the classic loop needs a model provider (--provider anthropic or openai)");
        return nullptr;
    }
    if (options.provider.isEmpty() || options.provider == QLatin1String("local"))
        return std::make_unique<LocalPlanner>();
    *error = QStringLiteral("no planner for provider \"%1\" in this build").arg(options.provider);
    return nullptr;
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
    m_task = task;
    m_options = options;
    m_speed = SpeedPolicy(options.speed);
    m_iterations = safety::IterationBudget(options.maxIterations);
    m_cost = safety::CostBudget(options.maxCostUsd);
    m_usage = DirectorUsage();
    m_usage.maxIterations = options.maxIterations;
    m_usage.maxCostUsd = options.maxCostUsd;
    m_queue.clear();
    m_inFlight.reset();
    m_recovery = Recovery::None;
    m_recoveryOf.reset();
    m_confirmation.reset();
    m_awaitingDecision = false;
    m_paused = false;
    m_stepOnce = false;
    m_proceedPending = false;
    m_screenshotForNext = false;
    m_disabledWaits = 0;
    m_eventsSinceDecision.clear();
    m_result = TaskOutcome::Result::Failed;
    m_backend.reset();
    setState(DirectorState::Starting, task);
    record(QStringLiteral("task_started"),
           {{QStringLiteral("task"), task}, {QStringLiteral("options"), options.toJson()}});

    QString error;
    std::unique_ptr<PlanBackend> backend =
        m_factory ? m_factory(options, &error) : defaultBackend(options, &error);
    if (!backend) {
        finish(TaskOutcome::Result::Failed, error.isEmpty() ? QStringLiteral("no planner available") : error);
        return;
    }
    m_backend = std::move(backend);
    connect(m_backend.get(), &PlanBackend::decided, this, &Director::onDecided, Qt::QueuedConnection);
    connect(m_backend.get(), &PlanBackend::planChanged, this, &Director::emitPlan);
    connect(m_backend.get(), &PlanBackend::modelCalled, this,
            [this](const QJsonObject& call, const CallUsage& u) {
                ++m_usage.modelCalls;
                m_usage.inputTokens += u.inputTokens;
                m_usage.estimatedInputTokens += u.estimatedInputTokens;
                m_usage.screenshotsSent +=
                    call.value(QStringLiteral("images_in_prompt")).toInt(); // actually sent
                m_usage.outputTokens += u.outputTokens;
                m_usage.costUsd += u.costUsd;
                m_cost.add(u.costUsd);
                record(QStringLiteral("model_call"), call);
                emitEvent(
                    SpatialEvent::Kind::ModelCall,
                    {{QStringLiteral("input_tokens"), u.inputTokens},
                     {QStringLiteral("output_tokens"), u.outputTokens},
                     {QStringLiteral("cost_usd"), u.costUsd},
                     {QStringLiteral("stop_reason"), call.value(QStringLiteral("stop_reason")).toString()},
                     {QStringLiteral("calls"), m_usage.modelCalls}});
                if (m_cost.takeWarning())
                    emitInfo(QStringLiteral("cost_warning"),
                             QStringLiteral("80 % of the cost limit used ($%1 of $%2)")
                                 .arg(m_cost.spentUsd(), 0, 'f', 4)
                                 .arg(m_cost.limitUsd(), 0, 'f', 2));
                emit usageUpdated(m_usage);
            });
    if (!m_backend->begin(task, &error)) {
        finish(TaskOutcome::Result::Failed, error);
        return;
    }
    emitPlan();
    emitInfo(QStringLiteral("task_started"),
             QStringLiteral("%1 planner, %2 loop, speed %3, %4")
                 .arg(m_backend->name(), toString(options.loop), toString(options.speed),
                      options.dryRun ? QStringLiteral("dry run") : QStringLiteral("executing")));
    emit usageUpdated(m_usage);
    if (!m_map) {
        waitForMap([](const ZoneMap&) { return true; }, options.firstMapTimeoutMs,
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
    if (!isRunning() || m_paused)
        return;
    m_paused = true;
    m_stepOnce = false;
    emitInfo(QStringLiteral("paused"), QStringLiteral("paused"));
    if (!m_inFlight && !m_awaitingDecision && !m_confirmation)
        setState(DirectorState::Paused);
    emitPlan();
}

void Director::resume()
{
    if (!isRunning() || !m_paused)
        return;
    m_paused = false;
    m_stepOnce = false;
    emitInfo(QStringLiteral("resumed"), QStringLiteral("resumed"));
    emitPlan();
    if (m_proceedPending) {
        m_proceedPending = false;
        scheduleProceed();
    }
}

void Director::step()
{
    if (!isRunning())
        return;
    m_paused = false;
    m_stepOnce = true;
    if (m_proceedPending) {
        m_proceedPending = false;
        scheduleProceed();
    }
}

void Director::stop()
{
    if (!isRunning())
        return;
    finish(TaskOutcome::Result::Stopped, QStringLiteral("stopped by the user"));
}

void Director::answerConfirmation(quint64 id, bool approved)
{
    if (!m_confirmation || m_confirmation->id != id || !isRunning())
        return;
    const Confirmation c = *m_confirmation;
    m_confirmation.reset();
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
// Inputs

void Director::onZoneMap(const ZoneMapPtr& map)
{
    if (!map)
        return;
    m_map = map;
    checkMapWaiter();
}

void Director::onEvent(const SpatialEvent& event)
{
    if (event.kind == SpatialEvent::Kind::ModelCall || event.kind == SpatialEvent::Kind::Action)
        return; // our own
    if (event.kind == SpatialEvent::Kind::ZoneEnter || event.kind == SpatialEvent::Kind::ZoneHover ||
        event.kind == SpatialEvent::Kind::ZoneClick)
        m_lastCursor = event.point;
    m_eventsSinceDecision.append(event);
    if (m_eventsSinceDecision.size() > kMaxEventsKept)
        m_eventsSinceDecision.removeFirst();
    m_eventsSinceDispatch.append(event);
    if (m_eventsSinceDispatch.size() > kMaxEventsKept)
        m_eventsSinceDispatch.removeFirst();
    if (event.kind == SpatialEvent::Kind::Takeover && isRunning() && !m_paused) {
        emitInfo(QStringLiteral("takeover"),
                 QStringLiteral("the user took over the mouse or keyboard; paused"));
        pause();
    }
}

void Director::onFrame(const Frame& frame)
{
    m_lastFrame = frame;
}

// ---------------------------------------------------------------------------------------------------------
// The loop

void Director::scheduleProceed()
{
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
    if (!isRunning() || m_inFlight || m_awaitingDecision || m_confirmation || m_mapThen)
        return;
    if (m_paused) {
        m_proceedPending = true;
        setState(DirectorState::Paused);
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
    world.recentEvents = m_eventsSinceDecision;
    m_eventsSinceDecision.clear();
    world.screenSize = m_map ? m_map->screenSize() : m_lastFrame.image.size();
    world.speed = m_speed.mode();
    world.dryRun = m_options.dryRun;
    if ((m_backend->wantsScreenshot() || m_screenshotForNext) && m_lastFrame.isValid())
        world.screenshot = m_lastFrame.image;
    m_screenshotForNext = false;
    m_awaitingDecision = true;
    setState(DirectorState::Planning,
             QStringLiteral("iteration %1 of %2").arg(m_iterations.used()).arg(m_iterations.maximum()));
    emit usageUpdated(m_usage);
    m_backend->decide(world);
}

void Director::onDecided(const Decision& decision)
{
    if (!m_awaitingDecision || !isRunning())
        return;
    m_awaitingDecision = false;
    QJsonArray actions;
    for (const ProposedAction& p : decision.actions)
        actions.append(proposedJson(p));
    static const char* kinds[] = {"", "act", "complete", "impossible", "failed", "reanalyze"};
    record(QStringLiteral("decision"),
           {{QStringLiteral("kind"), QString::fromLatin1(kinds[int(decision.kind)])},
            {QStringLiteral("message"), decision.message},
            {QStringLiteral("actions"), actions},
            {QStringLiteral("planner"), m_backend->name()}});
    switch (decision.kind) {
    case Decision::Kind::Complete:
        finish(TaskOutcome::Result::Completed, decision.message);
        return;
    case Decision::Kind::Impossible:
        finish(TaskOutcome::Result::Impossible, decision.message);
        return;
    case Decision::Kind::Failed:
        finish(TaskOutcome::Result::Failed, decision.message);
        return;
    case Decision::Kind::Reanalyze: {
        // Zone not found: Tier 2 re-analysis, then re-plan.
        setState(DirectorState::Recovering, decision.message);
        emitInfo(QStringLiteral("reanalysis"), decision.message);
        emit analysisRequested(decision.message);
        const quint64 version = m_map ? m_map->version() : 0;
        waitForMap([version](const ZoneMap& m) { return m.version() > version; },
                   m_options.reanalysisTimeoutMs, [this](bool) { scheduleProceed(); });
        return;
    }
    case Decision::Kind::Act:
        m_queue = decision.actions;
        emitPlan();
        scheduleProceed();
        return;
    }
}

void Director::executeNext()
{
    if (m_queue.isEmpty()) {
        requestDecision();
        return;
    }
    const ProposedAction p = m_queue.first();
    if (p.local) {
        runLocal(p);
        return;
    }
    safety::GuardOptions guardOptions;
    guardOptions.limits.screenSize = m_map ? m_map->screenSize() : m_lastFrame.image.size();
    guardOptions.minConfidence = m_options.minConfidence;
    const safety::GuardVerdict verdict = safety::checkAction(p.action, m_map.get(), guardOptions);
    switch (verdict.kind) {
    case safety::GuardVerdict::Kind::Invalid: {
        ++m_usage.actionsRefused;
        emitError(QStringLiteral("action_refused"),
                  QStringLiteral("refused %1: %2").arg(p.action.describe(), verdict.reason));
        ActionOutcome o;
        o.status = ActionOutcome::Status::Refused;
        o.message = QStringLiteral("refused: %1").arg(verdict.reason);
        o.mapAfter = m_map;
        finishAction(o);
        return;
    }
    case safety::GuardVerdict::Kind::ZoneMissing:
    case safety::GuardVerdict::Kind::LowConfidence: {
        // Zone not found: Tier 2 re-analysis, then re-plan with the fresh map.
        ++m_usage.actionsRefused;
        emitError(QStringLiteral("zone_not_found"), verdict.reason);
        emit analysisRequested(verdict.reason);
        ActionOutcome o;
        o.status = ActionOutcome::Status::Refused;
        o.retry = true;
        o.message = QStringLiteral("not executed: %1; the screen is being re-analysed, use the new zone map")
                        .arg(verdict.reason);
        const quint64 version = m_map ? m_map->version() : 0;
        o.mapAfter = m_map;
        const ProposedAction front = m_queue.takeFirst();
        record(QStringLiteral("action_outcome"), {{QStringLiteral("action"), proposedJson(front)},
                                                  {QStringLiteral("status"), toString(o.status)},
                                                  {QStringLiteral("message"), o.message}});
        m_backend->report(front, o);
        skipRemaining(QStringLiteral("not executed: an earlier action named a zone that does not exist"));
        setState(DirectorState::Recovering, verdict.reason);
        waitForMap([version](const ZoneMap& m) { return m.version() > version; },
                   m_options.reanalysisTimeoutMs, [this](bool) { scheduleProceed(); });
        return;
    }
    case safety::GuardVerdict::Kind::NeedsConfirmation:
    case safety::GuardVerdict::Kind::Allowed:
        break;
    }

    InFlight flight;
    flight.proposed = p;
    flight.sent = p.action;
    flight.mapBefore = m_map;
    if (!p.action.zoneId.isEmpty() && m_map) {
        if (const Zone* z = m_map->find(p.action.zoneId))
            flight.target = *z;
    }
    // Zone state unexpected (disabled): wait, retry, else let the planner find an alternative.
    if (flight.target && flight.target->state.testFlag(ZoneStateFlag::Disabled)) {
        if (m_disabledWaits < m_options.disabledRetries) {
            ++m_disabledWaits;
            emitInfo(QStringLiteral("zone_disabled"),
                     QStringLiteral("zone %1 (\"%2\") is disabled; waiting (%3 of %4)")
                         .arg(flight.target->id, flight.target->label)
                         .arg(m_disabledWaits)
                         .arg(m_options.disabledRetries));
            setState(DirectorState::Recovering, QStringLiteral("waiting for a disabled zone"));
            const quint64 version = m_map->version();
            waitForMap([version](const ZoneMap& m) { return m.version() > version; },
                       m_options.settleTimeoutMs * 2, [this](bool) { scheduleProceed(); });
            return;
        }
        m_disabledWaits = 0;
        ActionOutcome o;
        o.status = ActionOutcome::Status::Failed;
        o.retry = true;
        o.message = QStringLiteral("zone %1 (\"%2\") stays disabled; find another way")
                        .arg(flight.target->id, flight.target->label);
        emitError(QStringLiteral("zone_disabled"), o.message);
        finishAction(o);
        return;
    }
    m_disabledWaits = 0;

    if (verdict.kind == safety::GuardVerdict::Kind::NeedsConfirmation) {
        if (m_options.dryRun) {
            emitInfo(QStringLiteral("would_confirm"),
                     QStringLiteral("dry run: %1 would need a confirmation (%2)")
                         .arg(p.action.describe(), verdict.reason));
        } else if (m_options.confirmation == safety::ConfirmationMode::Refuse) {
            ++m_usage.actionsRefused;
            const QString message =
                QStringLiteral("refused high-risk action %1 (%2): nobody can confirm it here "
                               "(no terminal, no window)")
                    .arg(p.action.describe(), verdict.reason);
            emitError(QStringLiteral("high_risk_refused"), message);
            ActionOutcome o;
            o.status = ActionOutcome::Status::Refused;
            o.message = message;
            o.mapAfter = m_map;
            finishAction(o);
            return;
        } else {
            const quint64 id = ++m_nextActionId;
            m_confirmation = Confirmation{id, flight};
            setState(DirectorState::Confirming, verdict.reason);
            record(QStringLiteral("confirmation_requested"), {{QStringLiteral("id"), double(id)},
                                                              {QStringLiteral("action"), proposedJson(p)},
                                                              {QStringLiteral("reason"), verdict.reason}});
            emitInfo(QStringLiteral("confirmation_requested"),
                     QStringLiteral("%1 needs a confirmation: %2").arg(p.action.describe(), verdict.reason));
            emit confirmationRequested(id, p.action, verdict.reason);
            return;
        }
    }
    dispatch(flight);
}

void Director::runLocal(const ProposedAction& p)
{
    const quint64 generation = m_generation;
    ActionOutcome o;
    o.result.startNs = m_clock.nowNs();
    switch (p.action.type) {
    case Action::Type::Wait: {
        setState(DirectorState::Executing, QStringLiteral("waiting %1 ms").arg(p.action.durationMs));
        m_inFlight = InFlight{};
        m_inFlight->proposed = p;
        QTimer::singleShot(std::max(0, p.action.durationMs), this, [this, generation, o]() mutable {
            if (generation != m_generation)
                return;
            m_inFlight.reset();
            o.result.success = true;
            o.mapAfter = m_map;
            finishAction(o);
        });
        return;
    }
    case Action::Type::WaitForChange: {
        const QString text = p.action.text;
        const quint64 version = m_map ? m_map->version() : 0;
        const int timeoutMs = p.action.durationMs > 0 ? p.action.durationMs : 10'000;
        setState(DirectorState::Verifying, text.isEmpty() ? QStringLiteral("waiting for a change")
                                                          : QStringLiteral("waiting for \"%1\"").arg(text));
        MapPredicate predicate;
        if (text.isEmpty()) {
            predicate = [version](const ZoneMap& m) { return m.version() > version; };
        } else {
            predicate = [text](const ZoneMap& m) {
                for (const Zone& z : m.zones()) {
                    if (ZoneResolver::similarity(text, z.label) >= ZoneResolver::kMinScore)
                        return true;
                }
                return false;
            };
        }
        waitForMap(predicate, timeoutMs, [this, o, text, timeoutMs](bool arrived) mutable {
            o.mapAfter = m_map;
            o.result.success = arrived || text.isEmpty();
            if (!arrived && !text.isEmpty()) {
                o.result.error =
                    QStringLiteral("\"%1\" did not appear within %2 ms").arg(text).arg(timeoutMs);
                o.verificationFailed = true;
                escalate(o.result.error);
            }
            o.result.changeObserved = arrived;
            o.result.output =
                arrived ? QStringLiteral("changed") : QStringLiteral("no change within %1 ms").arg(timeoutMs);
            o.message = o.result.success ? o.result.output : o.result.error;
            finishAction(o, !o.result.success);
        });
        return;
    }
    case Action::Type::Screenshot:
        o.screenshot = m_lastFrame.image;
        o.result.success = m_lastFrame.isValid();
        if (!o.result.success)
            o.result.error = QStringLiteral("no frame has been captured yet");
        o.mapAfter = m_map;
        finishAction(o);
        return;
    case Action::Type::CursorPosition:
        o.result.success = true;
        o.result.output = QStringLiteral("%1,%2").arg(m_lastCursor.x()).arg(m_lastCursor.y());
        o.mapAfter = m_map;
        finishAction(o);
        return;
    default:
        o.status = ActionOutcome::Status::Refused;
        o.message = QStringLiteral("%1 cannot be answered by the director").arg(toString(p.action.type));
        finishAction(o);
        return;
    }
}

void Director::dispatch(InFlight flight)
{
    if (m_options.dryRun && !flight.recovery) {
        const QString d = flight.sent.describe();
        emitEvent(SpatialEvent::Kind::Action,
                  {{QStringLiteral("action"), flight.sent.toJson().toVariantMap()},
                   {QStringLiteral("dry_run"), true},
                   {QStringLiteral("message"), QString(QStringLiteral("would ") + d)}},
                  flight.sent.zoneId);
        ActionOutcome o;
        o.status = ActionOutcome::Status::DryRun;
        o.result.success = true;
        o.message = QStringLiteral("dry run: not executed (%1)").arg(d);
        o.mapAfter = m_map;
        finishAction(o);
        return;
    }
    if (flight.sent.type == Action::Type::Launch) {
        // The brush does not start programs: the director does, on the target display.
        emitEvent(SpatialEvent::Kind::Action,
                  {{QStringLiteral("action"), flight.sent.toJson().toVariantMap()}});
        record(QStringLiteral("action_requested"), {{QStringLiteral("action"), flight.sent.toJson()}});
        m_eventsSinceDispatch.clear();
        const ActionResult result = launch(flight.sent);
        ++m_usage.actionsExecuted;
        afterExecution(flight, result);
        return;
    }
    flight.id = ++m_nextActionId;
    flight.sentNs = m_clock.nowNs();
    m_eventsSinceDispatch.clear();
    m_inFlight = flight;
    setState(flight.recovery ? DirectorState::Recovering : DirectorState::Executing, flight.sent.describe());
    emitEvent(SpatialEvent::Kind::Action,
              {{QStringLiteral("action"), flight.sent.toJson().toVariantMap()},
               {QStringLiteral("id"), flight.id},
               {QStringLiteral("recovery"), flight.recovery}},
              flight.sent.zoneId);
    record(QStringLiteral("action_requested"), {{QStringLiteral("id"), double(flight.id)},
                                                {QStringLiteral("action"), flight.sent.toJson()},
                                                {QStringLiteral("recovery"), flight.recovery}});
    m_actionTimer.start(m_options.actionTimeoutMs + std::max(0, flight.sent.durationMs));
    emit actionRequested(flight.id, flight.sent);
}

void Director::onActionFinished(quint64 id, const ActionResult& result)
{
    if (!m_inFlight || m_inFlight->id != id || !isRunning())
        return;
    m_actionTimer.stop();
    InFlight flight = *m_inFlight;
    m_inFlight.reset();
    if (!flight.recovery)
        ++m_usage.actionsExecuted;
    if (flight.recovery)
        afterRecovery(flight, result);
    else
        afterExecution(flight, result);
}

void Director::onActionTimeout()
{
    if (!m_inFlight)
        return;
    InFlight flight = *m_inFlight;
    m_inFlight.reset();
    const QString what = QStringLiteral("no result for %1 within %2 ms")
                             .arg(flight.sent.describe())
                             .arg(m_options.actionTimeoutMs + std::max(0, flight.sent.durationMs));
    emitError(QStringLiteral("action_timeout"), what);
    escalate(what);
    if (flight.recovery) {
        m_recovery = Recovery::None;
        m_recoveryOf.reset();
        ActionOutcome o;
        o.status = ActionOutcome::Status::Failed;
        o.retry = true;
        o.message = QStringLiteral("recovery failed: %1").arg(what);
        finishAction(o);
        return;
    }
    // Timeout: re-execute once, then re-plan.
    if (!flight.reexecuted && canReexecute(flight)) {
        emitInfo(QStringLiteral("reexecute"),
                 QStringLiteral("re-executing %1 after a timeout").arg(flight.sent.describe()));
        flight.reexecuted = true;
        dispatch(flight);
        return;
    }
    ActionOutcome o;
    o.status = ActionOutcome::Status::Failed;
    o.retry = true;
    o.result.error = what;
    o.message = what;
    finishAction(o);
}

void Director::afterExecution(InFlight flight, const ActionResult& result)
{
    // Brush lost: recalibrate (move to a known position), then restart the step.
    bool lost = result.error.contains(QLatin1String("brush lost"), Qt::CaseInsensitive) ||
                result.error.contains(QLatin1String("brush_lost"), Qt::CaseInsensitive);
    for (const SpatialEvent& e : std::as_const(m_eventsSinceDispatch))
        lost = lost || e.kind == SpatialEvent::Kind::BrushLost;
    if (lost) {
        escalate(QStringLiteral("brush lost"));
        if (!flight.recalibrated) {
            flight.recalibrated = true;
            InFlight calibration;
            calibration.recovery = true;
            calibration.sent.type = Action::Type::MouseMove;
            QPoint known = flight.target ? flight.target->center() : QPoint();
            if (!flight.target) {
                const QSize screen = m_map ? m_map->screenSize() : m_lastFrame.image.size();
                known = QPoint(screen.width() / 2, screen.height() / 2);
            }
            calibration.sent.point = known;
            m_recovery = Recovery::Recalibrate;
            m_recoveryOf = flight;
            m_recoveryReason = QStringLiteral("brush lost");
            emitInfo(QStringLiteral("recalibrate"),
                     QStringLiteral("brush lost during %1; recalibrating at (%2, %3)")
                         .arg(flight.sent.describe())
                         .arg(known.x())
                         .arg(known.y()));
            dispatch(calibration);
            return;
        }
        ActionOutcome o;
        o.status = ActionOutcome::Status::Failed;
        o.retry = true;
        o.result = result;
        o.message = QStringLiteral("the brush was lost again after recalibrating");
        finishAction(o);
        return;
    }
    if (!result.success) {
        emitError(QStringLiteral("action_failed"),
                  QStringLiteral("%1 failed: %2").arg(flight.sent.describe(), result.error));
        escalate(QStringLiteral("action failed"));
        ActionOutcome o;
        o.status = ActionOutcome::Status::Executed;
        o.result = result;
        o.retry = true;
        o.message = QStringLiteral("failed: %1").arg(result.error);
        o.mapAfter = m_map;
        finishAction(o);
        return;
    }
    // Wrong zone: the click or the text landed somewhere else.
    QString wrong;
    QString wrongType;
    if (flight.target && flight.sent.isClick()) {
        for (const SpatialEvent& e : std::as_const(m_eventsSinceDispatch)) {
            if (e.kind == SpatialEvent::Kind::ZoneClick && !e.zoneId.isEmpty() &&
                e.zoneId != flight.target->id && !flight.target->bounds.contains(e.point)) {
                // A click inside a child of the target (its caption) is still the target.
                const Zone* z = flight.mapBefore ? flight.mapBefore->find(e.zoneId) : nullptr;
                if (!z || !flight.target->bounds.contains(z->bounds))
                    wrong = e.zoneId;
            }
        }
        if (wrong.isEmpty() && !result.pointUsed.isNull() &&
            !flight.target->bounds.adjusted(-3, -3, 3, 3).contains(result.pointUsed)) {
            const Zone* z = flight.mapBefore ? flight.mapBefore->zoneAt(result.pointUsed) : nullptr;
            wrong =
                z ? z->id : QStringLiteral("(%1, %2)").arg(result.pointUsed.x()).arg(result.pointUsed.y());
        }
    }
    if (flight.sent.type == Action::Type::TypeText && !flight.proposed.focusZoneId.isEmpty()) {
        for (const SpatialEvent& e : std::as_const(m_eventsSinceDispatch)) {
            if (e.kind == SpatialEvent::Kind::ZoneType && !e.zoneId.isEmpty() &&
                e.zoneId != flight.proposed.focusZoneId)
                wrong = e.zoneId;
        }
    }
    if (!wrong.isEmpty()) {
        const QString expected = flight.target ? flight.target->id : flight.proposed.focusZoneId;
        const QString message =
            QStringLiteral("%1 landed in %2 instead of %3").arg(flight.sent.describe(), wrong, expected);
        emitError(QStringLiteral("wrong_zone"), message);
        escalate(message);
        if (flight.proposed.undoable && !flight.undone) {
            flight.undone = true;
            InFlight undo;
            undo.recovery = true;
            undo.sent.type = Action::Type::Key;
            undo.sent.text = flight.sent.type == Action::Type::TypeText ? QStringLiteral("ctrl+z")
                                                                        : QStringLiteral("Escape");
            m_recovery = Recovery::Undo;
            m_recoveryOf = flight;
            m_recoveryReason = message;
            emitInfo(QStringLiteral("undo"),
                     QStringLiteral("undoing with %1: %2").arg(undo.sent.text, message));
            dispatch(undo);
            return;
        }
        ActionOutcome o;
        o.status = ActionOutcome::Status::Executed;
        o.result = result;
        o.result.success = false;
        o.result.error = message;
        o.retry = true;
        o.message = message;
        o.mapAfter = m_map;
        finishAction(o);
        return;
    }
    verify(flight, result);
}

void Director::afterRecovery(const InFlight& recovery, const ActionResult& result)
{
    Q_UNUSED(recovery)
    const Recovery kind = m_recovery;
    std::optional<InFlight> original = m_recoveryOf;
    const QString reason = m_recoveryReason;
    m_recovery = Recovery::None;
    m_recoveryOf.reset();
    if (!original) {
        scheduleProceed();
        return;
    }
    if (kind == Recovery::Recalibrate && result.success) {
        // Restart the step.
        dispatch(*original);
        return;
    }
    ActionOutcome o;
    o.status = ActionOutcome::Status::Executed;
    o.result.success = false;
    o.result.error = reason;
    o.retry = true;
    o.message = kind == Recovery::Undo ? QStringLiteral("%1; undone, re-planning").arg(reason)
                                       : QStringLiteral("recalibration failed: %1").arg(result.error);
    o.mapAfter = m_map;
    finishAction(o);
}

ActionResult Director::launch(const Action& action)
{
    ActionResult r;
    r.startNs = m_clock.nowNs();
    QStringList args = QProcess::splitCommand(action.text);
    if (args.isEmpty()) {
        r.error = QStringLiteral("launch needs a program");
        return r;
    }
    const QString program = args.takeFirst();
    QProcess process;
    process.setProgram(program);
    process.setArguments(args);
    process.setProcessEnvironment(m_launchEnvironment);
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
    qint64 pid = 0;
    r.success = process.startDetached(&pid);
    if (!r.success)
        r.error = QStringLiteral("cannot start \"%1\": %2").arg(program, process.errorString());
    else
        r.output = QStringLiteral("started %1 (pid %2)").arg(program).arg(pid);
    r.durationNs = m_clock.nowNs() - r.startNs;
    return r;
}

bool Director::canReexecute(const InFlight& flight) const
{
    switch (flight.sent.type) {
    case Action::Type::TypeText:
    case Action::Type::Paste:
    case Action::Type::Cut:
    case Action::Type::Launch:
    case Action::Type::Key:
    case Action::Type::HoldKey:
    case Action::Type::ClipboardWrite:
        return false; // repeating them would type, paste or run twice
    default:
        break;
    }
    const Expectation::Kind kind = flight.proposed.expect.kind;
    if (kind == Expectation::Kind::StateChecked || kind == Expectation::Kind::StateUnchecked)
        return false; // a second click would toggle it back: the planner re-plans from the map instead
    if (flight.target && flight.target->type == ZoneType::CheckBox)
        return false;
    return true;
}

void Director::verify(InFlight flight, const ActionResult& result)
{
    const ActionContext context = contextFor(flight.proposed);
    const Verification verification = m_speed.verificationFor(context);
    auto complete = [this, flight, result, context, verification]() mutable {
        QString why;
        const bool met = expectationMet(flight.proposed, result, flight.mapBefore, m_map, &why);
        if (!met) {
            emitError(QStringLiteral("verification_failed"),
                      QStringLiteral("%1: %2").arg(flight.sent.describe(), why));
            escalate(why);
            // Timeout row: re-execute once, then re-plan.
            if (!flight.reexecuted && canReexecute(flight)) {
                emitInfo(QStringLiteral("reexecute"),
                         QStringLiteral("re-executing %1: %2").arg(flight.sent.describe(), why));
                flight.reexecuted = true;
                dispatch(flight);
                return;
            }
        }
        ActionOutcome o;
        o.status = ActionOutcome::Status::Executed;
        o.result = result;
        o.mapAfter = m_map;
        o.verificationFailed = !met;
        o.retry = !met;
        o.message = met ? QStringLiteral("done") : QStringLiteral("executed, but %1").arg(why);
        const bool modelCheck = verification == Verification::Model;
        if (modelCheck && m_speed.screenshotForVerification(context) && m_lastFrame.isValid()) {
            o.screenshot = m_lastFrame.image;
        }
        record(QStringLiteral("verification"), {{QStringLiteral("action"), proposedJson(flight.proposed)},
                                                {QStringLiteral("verification"), toString(verification)},
                                                {QStringLiteral("speed"), toString(m_speed.mode())},
                                                {QStringLiteral("met"), met},
                                                {QStringLiteral("why"), why}});
        // A model verification point ends the batch unless the rest of the batch still fits the screen (every
        // zone it names is still there): then the change is explained locally and the model sees it in the
        // next call anyway. SPEED-LOW always asks the model before the next action.
        bool cut = !met;
        if (modelCheck && !cut) {
            cut = m_speed.mode() == SpeedMode::Low;
            for (qsizetype i = 1; i < m_queue.size(); ++i) { // the front is this action
                const ProposedAction& next = m_queue.at(i);
                for (const QString& id : {next.action.zoneId, next.action.endZoneId, next.focusZoneId}) {
                    if (!id.isEmpty() && (!m_map || !m_map->find(id)))
                        cut = true;
                }
            }
        }
        finishAction(o, cut);
    };
    if (verification == Verification::None) {
        complete();
        return;
    }
    setState(
        DirectorState::Verifying,
        QStringLiteral("%1 verification (speed %2)").arg(toString(verification), toString(m_speed.mode())));
    const quint64 version = flight.mapBefore ? flight.mapBefore->version() : 0;
    const bool opens = flight.target && (flight.target->type == ZoneType::MenuItem ||
                                         flight.target->type == ZoneType::Dropdown ||
                                         flight.sent.type == Action::Type::RightClick);
    MapPredicate settled = [version](const ZoneMap& m) { return m.version() > version; };
    if (opens && flight.mapBefore) {
        // A menu or list opens: wait for its items, not just any newer map (a hover state comes first).
        settled = [before = flight.mapBefore](const ZoneMap& m) {
            if (m.version() <= before->version())
                return false;
            for (const Zone& z : m.zones()) {
                if (!before->find(z.id))
                    return true;
            }
            return false;
        };
    }
    if (!opens) {
        waitForMap(settled, m_options.settleTimeoutMs, [complete](bool) mutable { complete(); });
        return;
    }
    // Menus and lists are analysed in pieces: after the first map with new zones, wait until the maps stop
    // coming (a quiet period), at most a few settle periods.
    const qint64 deadlineNs = m_clock.nowNs() + qint64(m_options.settleTimeoutMs) * 3'000'000;
    auto quiet = std::make_shared<std::function<void()>>();
    *quiet = [this, complete, deadlineNs, quiet]() mutable {
        const quint64 now = m_map ? m_map->version() : 0;
        const int quietMs = std::max(50, m_options.settleTimeoutMs / 3);
        waitForMap([now](const ZoneMap& m) { return m.version() > now; }, quietMs,
                   [this, complete, deadlineNs, quiet](bool arrived) mutable {
                       if (arrived && m_clock.nowNs() < deadlineNs)
                           (*quiet)();
                       else {
                           complete();
                           *quiet = nullptr; // break the cycle
                       }
                   });
    };
    waitForMap(settled, m_options.settleTimeoutMs * 2, [quiet](bool) { (*quiet)(); });
}

bool Director::expectationMet(const ProposedAction& p, const ActionResult& result, const ZoneMapPtr& before,
                              const ZoneMapPtr& after, QString* why) const
{
    const bool changed = result.changeObserved || !result.changes.isEmpty() ||
                         (before && after && before->version() != after->version()) || (!before && after);
    const QString expected =
        p.expect.description.isEmpty() ? QStringLiteral("a change") : p.expect.description;
    // Tier 0 reports nothing below its threshold (0.5 % of the screen by default): a change confined to a
    // small zone (a check mark, a few typed letters) cannot be seen, so its absence proves nothing.
    if (!changed && p.expect.kind != Expectation::Kind::ZoneAppears) {
        const QString id = p.action.zoneId.isEmpty() ? p.focusZoneId : p.action.zoneId;
        const ZoneMap* map = after ? after.get() : before.get();
        const Zone* z = map && !id.isEmpty() ? map->find(id) : nullptr;
        const QSize screen = map ? map->screenSize() : QSize();
        const qint64 screenArea = qint64(screen.width()) * screen.height();
        const bool small =
            !z || screenArea <= 0 || qint64(z->bounds.width()) * z->bounds.height() * 200 < screenArea;
        const bool opensSomething =
            z && (z->type == ZoneType::Dropdown || z->type == ZoneType::MenuItem || z->type == ZoneType::Tab);
        const bool partial = p.action.type == Action::Type::TypeText || p.action.type == Action::Type::Key ||
                             (z && (z->type == ZoneType::CheckBox || z->type == ZoneType::TextField));
        if ((small || partial) && !opensSomething) {
            qCDebug(lcDirector) << "no change seen after" << p.action.describe()
                                << "but the zone is too small to tell";
            return true;
        }
    }
    switch (p.expect.kind) {
    case Expectation::Kind::None:
        return true;
    case Expectation::Kind::AnyChange:
        if (!changed)
            *why = QStringLiteral("no canvas change (%1 expected)").arg(expected);
        return changed;
    case Expectation::Kind::StateChecked:
    case Expectation::Kind::StateUnchecked: {
        const Zone* z = after ? after->find(p.action.zoneId) : nullptr;
        const Zone* was = before ? before->find(p.action.zoneId) : nullptr;
        // The canvas' check state is trusted only when it moved: a state that did not follow a visible
        // change of the box is more likely a detection miss than a missed click.
        const bool stateMoved =
            z && was && hasCheckState(*z) && hasCheckState(*was) && z->state != was->state;
        if (z && hasCheckState(*z) && (stateMoved || !changed)) {
            const bool wantChecked = p.expect.kind == Expectation::Kind::StateChecked;
            if (z->state.testFlag(ZoneStateFlag::Checked) != wantChecked) {
                *why = QStringLiteral("zone %1 is still %2")
                           .arg(z->id, wantChecked ? QStringLiteral("unchecked") : QStringLiteral("checked"));
                return false;
            }
            return true;
        }
        if (!changed)
            *why = QStringLiteral("no canvas change (%1 expected)").arg(expected);
        return changed;
    }
    case Expectation::Kind::ZoneAppears:
        if (after) {
            for (const Zone& z : after->zones()) {
                if (ZoneResolver::similarity(p.expect.text, z.label) >= ZoneResolver::kMinScore)
                    return true;
            }
        }
        *why = QStringLiteral("\"%1\" did not appear").arg(p.expect.text);
        return false;
    }
    return true;
}

void Director::finishAction(ActionOutcome outcome, bool cutBatch)
{
    if (m_queue.isEmpty()) {
        scheduleProceed();
        return;
    }
    const ProposedAction p = m_queue.takeFirst();
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
    if (m_stepOnce) {
        m_stepOnce = false;
        m_paused = true;
    }
    scheduleProceed();
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

void Director::waitForMap(const MapPredicate& predicate, int timeoutMs, std::function<void(bool)> then)
{
    m_mapPredicate = predicate;
    m_mapThen = std::move(then);
    m_waitTimer.start(std::max(0, timeoutMs));
    checkMapWaiter();
}

void Director::checkMapWaiter()
{
    if (!m_mapPredicate || !m_map || !m_mapPredicate(*m_map))
        return;
    m_waitTimer.stop();
    auto then = std::move(m_mapThen);
    m_mapPredicate = {};
    m_mapThen = {};
    if (then)
        then(true);
}

void Director::finish(TaskOutcome::Result result, const QString& message)
{
    if (m_state == DirectorState::Finished)
        return;
    ++m_generation;
    m_actionTimer.stop();
    m_waitTimer.stop();
    m_mapPredicate = {};
    m_mapThen = {};
    m_inFlight.reset();
    m_confirmation.reset();
    m_recovery = Recovery::None;
    m_recoveryOf.reset();
    m_awaitingDecision = false;
    if (m_backend) {
        m_backend->cancel();
        if (!m_queue.isEmpty())
            skipRemaining(QStringLiteral("not executed: the task ended"));
    }
    m_queue.clear();
    m_paused = false;
    m_result = result;
    m_state = DirectorState::Finished; // before plan(): the plan's status follows the result

    TaskOutcome o;
    o.result = result;
    o.message = message;
    o.plan = plan();
    o.usage = m_usage;
    o.dryRun = m_options.dryRun;
    o.initialSpeed = m_speed.initialMode();
    o.finalSpeed = m_speed.mode();
    o.planner = m_backend ? m_backend->name() : m_options.provider;
    o.loop = toString(m_options.loop);
    QJsonObject summary = o.toJson();
    summary.insert(QStringLiteral("totals"), summary.take(QStringLiteral("usage"))); // "usage" means one call
    record(QStringLiteral("finished"), summary);
    if (result == TaskOutcome::Result::Completed)
        emitInfo(QStringLiteral("finished"), QStringLiteral("%1: %2").arg(toString(result), message));
    else
        emitError(QStringLiteral("finished"), QStringLiteral("%1: %2").arg(toString(result), message));
    emitPlan();
    emit usageUpdated(m_usage);
    m_state = DirectorState::Idle; // lets setState report the transition
    setState(DirectorState::Finished, message);
    emit finished(o);
}

void Director::setState(DirectorState state, const QString& detail)
{
    if (state == m_state && detail.isEmpty())
        return;
    m_state = state;
    qCDebug(lcDirector) << "state" << toString(state) << detail;
    emit statusChanged(state, detail);
}

void Director::emitEvent(SpatialEvent::Kind kind, const QVariantMap& data, const QString& zoneId)
{
    SpatialEvent e;
    e.kind = kind;
    e.tNs = m_clock.nowNs();
    e.zoneId = zoneId;
    e.data = data;
    e.data.insert(QStringLiteral("source"), QStringLiteral("director"));
    emit eventOccurred(e);
}

void Director::emitInfo(const QString& what, const QString& message, QVariantMap data)
{
    data.insert(QStringLiteral("what"), what);
    data.insert(QStringLiteral("message"), message);
    qCInfo(lcDirector).noquote() << what << message;
    emitEvent(SpatialEvent::Kind::Info, data);
}

void Director::emitError(const QString& what, const QString& message, QVariantMap data)
{
    data.insert(QStringLiteral("what"), what);
    data.insert(QStringLiteral("message"), message);
    qCWarning(lcDirector).noquote() << what << message;
    emitEvent(SpatialEvent::Kind::Error, data);
}

void Director::record(const QString& type, QJsonObject r)
{
    r.insert(QStringLiteral("t_ns"), double(m_clock.nowNs()));
    r.insert(QStringLiteral("type"), type);
    emit decisionRecorded(r);
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
