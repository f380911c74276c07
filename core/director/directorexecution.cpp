#include "core/director/director.h"
#include "core/director/directorinternal.h"
#include "core/director/verification.h"
#include "core/director/zoneresolver.h"

// Executing the planner's actions: validation and safety checks before an action, the actions the
// Director answers itself (waits, screenshots), dispatch to the brush and programs started with `launch`
// (through the Launcher).

namespace ciu {

using directordetail::proposedJson;

void Director::noteSecrets(const QList<ProposedAction>& actions)
{
    for (const ProposedAction& p : actions) {
        if (p.action.text.isEmpty() ||
            (p.action.type != Action::Type::TypeText && p.action.type != Action::Type::Paste))
            continue;
        safety::GuardOptions guardOptions;
        guardOptions.limits.screenSize = m_map ? m_map->screenSize() : m_readBack.lastFrame().image.size();
        guardOptions.minConfidence = m_options.minConfidence;
        guardOptions.focusedZoneId = p.focusZoneId.isEmpty() ? m_focusedZoneId : p.focusZoneId;
        if (p.action.secretText || safety::checkAction(p.action, m_map.get(), guardOptions).secretText)
            m_secrets.add(p.action.text);
    }
}

void Director::executeNext()
{
    if (m_queue.isEmpty()) {
        requestDecision();
        return;
    }
    ProposedAction p = m_queue.first();
    if (p.local) {
        runLocal(p);
        return;
    }
    safety::GuardOptions guardOptions;
    guardOptions.limits.screenSize = m_map ? m_map->screenSize() : m_readBack.lastFrame().image.size();
    guardOptions.minConfidence = m_options.minConfidence;
    guardOptions.focusedZoneId = m_focusedZoneId;
    const safety::GuardVerdict verdict = safety::checkAction(p.action, m_map.get(), guardOptions);
    if (verdict.secretText) {
        // A password or key: masked in every message, event, record and dialog from here on.
        p.action.secretText = true;
        m_queue.first().action.secretText = true;
        m_secrets.add(p.action.text);
    }
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
        setPhase(Phase::AwaitingMap, verdict.reason);
        m_maps.wait([version](const ZoneMap& m) { return m.version() > version; },
                    m_options.reanalysisTimeoutMs, [this](bool) { scheduleProceed(); });
        return;
    }
    case safety::GuardVerdict::Kind::NeedsConfirmation:
    case safety::GuardVerdict::Kind::Allowed:
        break;
    }

    if (p.action.isClick() && !p.action.zoneId.isEmpty())
        m_focusedZoneId = p.action.zoneId;
    ActionFlight flight;
    flight.proposed = p;
    flight.sent = p.action;
    flight.mapBefore = m_map;
    if (!p.action.zoneId.isEmpty() && m_map) {
        if (const Zone* z = m_map->find(p.action.zoneId))
            flight.target = *z;
    }
    // Zone state unexpected (disabled): wait for it to become enabled, else let the planner find an
    // alternative. A field's content enables a dialog's button only once the program has taken the typing
    // in: the wait is for the zone's own state (the tree reports it by event), not for the next map.
    if (flight.target && flight.target->state.testFlag(ZoneStateFlag::Disabled)) {
        if (m_disabledWaitedFor != flight.target->id) {
            m_disabledWaitedFor = flight.target->id;
            emitInfo(QStringLiteral("zone_disabled"),
                     QStringLiteral("zone %1 (\"%2\") is disabled; waiting up to %3 ms for it to be enabled")
                         .arg(flight.target->id, flight.target->label)
                         .arg(m_options.disabledWaitMs));
            setPhase(Phase::AwaitingMap, QStringLiteral("waiting for a disabled zone"));
            m_maps.wait(
                [was = *flight.target](const ZoneMap& m) {
                    const Zone* now = ActionVerifier::sameZone(&m, was);
                    return !now || !now->state.testFlag(ZoneStateFlag::Disabled);
                },
                m_options.disabledWaitMs, [this](bool) { scheduleProceed(); });
            return;
        }
        m_disabledWaitedFor.clear();
        ActionOutcome o;
        o.status = ActionOutcome::Status::Failed;
        o.retry = true;
        o.message = QStringLiteral("zone %1 (\"%2\") stays disabled after %3 ms; find another way")
                        .arg(flight.target->id, flight.target->label)
                        .arg(m_options.disabledWaitMs);
        emitError(QStringLiteral("zone_disabled"), o.message);
        finishAction(o);
        return;
    }
    m_disabledWaitedFor.clear();

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
            setPhase(Phase::AwaitingConfirmation, verdict.reason);
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
        m_inFlight = ActionFlight{};
        setPhase(Phase::Executing, QStringLiteral("waiting %1 ms").arg(p.action.durationMs));
        m_inFlight->proposed = p;
        QTimer::singleShot(std::max(0, p.action.durationMs), this, [this, generation, o]() mutable {
            if (generation != m_generation)
                return;
            m_inFlight.reset();
            m_actedNs = m_clock.nowNs(); // the screen may have changed meanwhile
            setPhase(Phase::Ready);
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
        setPhase(Phase::Verifying, text.isEmpty() ? QStringLiteral("waiting for a change")
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
        m_maps.wait(predicate, timeoutMs, [this, o, text, timeoutMs](bool arrived) mutable {
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
        o.screenshot = m_readBack.lastFrame().image;
        o.result.success = m_readBack.lastFrame().isValid();
        if (!o.result.success)
            o.result.error = QStringLiteral("no frame has been captured yet");
        o.mapAfter = m_map;
        finishAction(o);
        return;
    case Action::Type::CursorPosition:
        o.result.success = true;
        o.result.output =
            QStringLiteral("%1,%2").arg(m_events.lastCursor().x()).arg(m_events.lastCursor().y());
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

void Director::dispatch(ActionFlight flight)
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
        m_learning.noteDispatched(flight);
        m_events.dispatched();
        const ActionResult result = launch(flight.sent);
        m_actedNs = m_clock.nowNs();
        ++m_usage.actionsExecuted;
        afterExecution(flight, result);
        return;
    }
    m_learning.noteDispatched(flight);
    flight.id = ++m_nextActionId;
    flight.sentNs = m_clock.nowNs();
    m_events.dispatched();
    m_inFlight = flight;
    setPhase(flight.recovery ? Phase::Recovering : Phase::Executing, flight.sent.describe());
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
    const ActionFlight flight = *std::exchange(m_inFlight, std::nullopt);
    m_actedNs = result.actedNs > 0 ? result.actedNs : m_clock.nowNs();
    setPhase(Phase::Ready);
    if (flight.recovery) {
        afterRecovery(result);
        return;
    }
    ++m_usage.actionsExecuted;
    afterExecution(flight, result);
}

ActionResult Director::launch(const Action& action)
{
    const qint64 startNs = m_clock.nowNs();
    ActionResult r = m_launcher->launch(action.text);
    r.startNs = startNs;
    r.durationNs = m_clock.nowNs() - startNs;
    return r;
}

} // namespace ciu
