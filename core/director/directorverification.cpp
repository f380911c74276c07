#include "core/director/director.h"
#include "core/director/directorinternal.h"
#include "core/director/directorlog.h"
#include "core/director/verification.h"

#include <QList>
#include <QMetaMethod>
#include <QRect>

#include <utility>

// Verification after an action as the speed mode asks: wait for the canvas to settle (menus and lists
// until their maps stop coming), then let the ActionVerifier check the expected change in the zone map;
// typed text and chosen options are read back (ReadBack) until they show.

namespace ciu {

using directordetail::proposedJson;

namespace {

// The zones whose centre is in `region`, as label and place, in the map's order: what moves when a list
// scrolls.
QList<std::pair<QString, QRect>> rowsIn(const ZoneMap& map, const QRect& region)
{
    QList<std::pair<QString, QRect>> rows;
    for (const Zone& z : map.zones()) {
        if (region.contains(z.bounds.center()))
            rows.append({z.label, z.bounds});
    }
    return rows;
}

} // namespace

void Director::verify(ActionFlight flight, const ActionResult& result)
{
    // The screen as it was when the action went out: on a loaded machine the canvas may publish what it
    // analysed before (the rest of a first analysis, new zones included) after the action was sent; none of
    // that is the action's effect.
    flight.mapBefore = baselineFor(flight, result.actedNs);
    const ActionContext context = contextFor(flight.proposed);
    const Verification verification = m_speed.verificationFor(context);
    auto complete = [this, flight, result, context,
                     verification](std::optional<QString> fieldText = {}) mutable {
        QString why;
        const bool met =
            ActionVerifier::expectationMet(flight.proposed, result, flight.mapBefore, m_map, &why, fieldText);
        if (!met) {
            emitError(QStringLiteral("verification_failed"),
                      QStringLiteral("%1: %2").arg(flight.sent.describe(), why));
            escalate(why);
            // Timeout row: re-execute once, then re-plan.
            const RecoveryController::Step next = m_recovery.afterFailedVerification(flight);
            // A click whose effect may repeat (a button's) is never done twice.
            if (next.kind == RecoveryController::Step::Kind::Reexecute && flight.proposed.expect.repeatable) {
                emitInfo(QStringLiteral("reexecute"),
                         QStringLiteral("re-executing %1: %2").arg(flight.sent.describe(), why));
                dispatch(next.flight);
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
        if (modelCheck && m_speed.screenshotForVerification(context) && m_readBack.lastFrame().isValid()) {
            o.screenshot = m_readBack.lastFrame().image;
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
    const Expectation::Kind kind = flight.proposed.expect.kind;
    if (kind == Expectation::Kind::TextEquals || kind == Expectation::Kind::TextEndsWith ||
        kind == Expectation::Kind::ShowsText || kind == Expectation::Kind::WindowShowsText) {
        // Typed text and a chosen option are read back at every speed: a wrong "completed" costs more.
        setPhase(Phase::Verifying, kind == Expectation::Kind::ShowsText
                                       ? QStringLiteral("reading the chosen option back")
                                       : QStringLiteral("reading the typed text back"));
        readFieldTextSettled(flight, result.frameAfter,
                             [complete](const std::optional<QString>& text) mutable { complete(text); });
        return;
    }
    if (kind == Expectation::Kind::None && !flight.proposed.awaitChangeIn.isEmpty() && flight.mapBefore) {
        // The rows of a scrolled list move late: waited for so that the next decision sees them moved (it
        // would otherwise take a look of its own, from the iteration budget). Unmoved: the list's end.
        setPhase(Phase::Verifying, QStringLiteral("waiting for the scrolled rows to move"));
        const QRect region = flight.proposed.awaitChangeIn;
        m_maps.wait(
            [version = flight.mapBefore->version(), rowsBefore = rowsIn(*flight.mapBefore, region),
             actedNs = result.actedNs, region](const ZoneMap& m) {
                return m.version() > version && m.tNs() >= actedNs && rowsIn(m, region) != rowsBefore;
            },
            m_options.settleTimeoutMs, [complete](bool) mutable { complete(); });
        return;
    }
    if (kind == Expectation::Kind::None && !flight.proposed.awaitLabelOf.isEmpty()) {
        // A tooltip shows a moment after the pointer comes to rest; the canvas names the zone from it.
        setPhase(Phase::Verifying,
                 QStringLiteral("waiting for the tooltip of %1").arg(flight.proposed.awaitLabelOf));
        m_maps.wait(
            [id = flight.proposed.awaitLabelOf, actedNs = result.actedNs](const ZoneMap& m) {
                const Zone* z = m.find(id);
                return m.tNs() >= actedNs && z && !z->label.trimmed().isEmpty();
            },
            m_options.settleTimeoutMs * 2, [complete](bool) mutable { complete(); });
        return;
    }
    const bool opens = ActionVerifier::opensMenuOrList(flight);
    if (verification == Verification::None && !opens) {
        complete();
        return;
    }
    // Even unverified (SPEED-MAX), a menu or list that opens is waited for: the next step names one of its
    // items, and resolving it on a map without them (or with half of them) would click the wrong row.
    setPhase(
        Phase::Verifying,
        verification == Verification::None
            ? QStringLiteral("waiting for the menu or list to open (speed %1)").arg(toString(m_speed.mode()))
            : QStringLiteral("%1 verification (speed %2)")
                  .arg(toString(verification), toString(m_speed.mode())));
    const quint64 version = flight.mapBefore ? flight.mapBefore->version() : 0;
    // The first newer map may only show the pointer's arrival (a hover look): the effect (a dialog closing,
    // a page loading) can come a map or two later. Wait for a map that shows it, or the settle time.
    // MapWaiter::check() asks with *m_map: the verifier is given the shared pointer itself.
    // Only a map of a frame from after the action can show its effect: on a loaded machine the canvas may
    // still be publishing what it analysed before (the rest of a first analysis), new zones included.
    const qint64 actedNs = result.actedNs;
    MapPredicate settled = [this, version, flight, result, actedNs](const ZoneMap& m) {
        QString why;
        return m.version() > version && m.tNs() >= actedNs &&
               ActionVerifier::expectationMet(flight.proposed, result, flight.mapBefore, m_map, &why);
    };
    if (opens && flight.mapBefore) {
        // A menu or list opens: wait for its items, not just any newer map (a hover state comes first).
        settled = [before = flight.mapBefore, actedNs](const ZoneMap& m) {
            if (m.version() <= before->version() || m.tNs() < actedNs)
                return false;
            for (const Zone& z : m.zones()) {
                if (!before->find(z.id))
                    return true;
            }
            return false;
        };
    }
    // No map showing the effect within the settle time does not yet mean that nothing changed: maps come
    // only when something did, and a loaded machine may still be capturing or analysing it. A second look
    // (a fresh frame, the canvas caught up) decides; unless the current map meets the expectation already
    // (the brush saw the change, or no change is expected).
    if (!opens) {
        m_maps.wait(settled, m_options.settleTimeoutMs,
                    [this, flight, result, settled, complete](bool arrived) mutable {
                        QString why;
                        if (arrived || ActionVerifier::expectationMet(flight.proposed, result,
                                                                      flight.mapBefore, m_map, &why))
                            complete();
                        else
                            takeSecondLook(flight.proposed, settled, [complete]() mutable { complete(); });
                    });
        return;
    }
    // Menus and lists are analysed in pieces: after the first map with new zones, wait until the maps stop
    // coming (a quiet period), at most a few settle periods.
    const qint64 deadlineNs = m_clock.nowNs() + qint64(m_options.settleTimeoutMs) * 3'000'000;
    m_maps.wait(settled, m_options.settleTimeoutMs * 2,
                [this, proposed = flight.proposed, settled, complete, deadlineNs](bool arrived) mutable {
                    if (arrived)
                        waitForQuietMaps(deadlineNs, complete);
                    else // the second look analysed all the canvas held: no quiet period to wait for
                        takeSecondLook(proposed, settled, [complete]() mutable { complete(); });
                });
}

void Director::takeSecondLook(const ProposedAction& proposed, const MapPredicate& met,
                              std::function<void()> then)
{
    if (!isSignalConnected(QMetaMethod::fromSignal(&Director::lookAgainRequested))) {
        then(); // no canvas to ask: the first look stands
        return;
    }
    const quint64 token = m_maps.beginLook(m_clock.nowNs());
    const quint64 versionBefore = m_map ? m_map->version() : 0;
    setPhase(Phase::Verifying, QStringLiteral("taking a second look (the screen may not be analysed yet)"));
    emitInfo(QStringLiteral("second_look"),
             QStringLiteral("no effect of %1 seen yet; asking the canvas for a second look")
                 .arg(proposed.action.describe()));
    emit lookAgainRequested(token);
    // The answer, or a map meeting the expectation that came meanwhile, whichever is first.
    const MapPredicate seen = [this, token, met](const ZoneMap& m) {
        return m_maps.lookAnswered(token) || (met && met(m));
    };
    auto after = [this, token, versionBefore, proposed, met, then = std::move(then)](bool arrived) {
        m_maps.endLook(token); // a later answer is too late
        // What ended the wait: the canvas' answer, a map showing the effect (the canvas publishes it before
        // it answers), or the re-analysis time.
        QString endedBy = QStringLiteral("timeout");
        if (m_maps.lookAnswered(token))
            endedBy = QStringLiteral("answer");
        else if (arrived)
            endedBy = QStringLiteral("map");
        QJsonObject r = {{QStringLiteral("action"), proposedJson(proposed)},
                         {QStringLiteral("ended_by"), endedBy},
                         {QStringLiteral("map_version_before"), double(versionBefore)},
                         {QStringLiteral("map_version"), double(m_map ? m_map->version() : 0)},
                         {QStringLiteral("zones"), m_map ? int(m_map->size()) : 0}};
        if (met)
            r.insert(QStringLiteral("met"), m_map && met(*m_map));
        record(QStringLiteral("second_look"), r);
        then();
    };
    m_maps.wait(seen, m_options.reanalysisTimeoutMs, std::move(after));
}

bool Director::mapPredatesLastAction() const
{
    if (m_actedNs == 0 || !isSignalConnected(QMetaMethod::fromSignal(&Director::lookAgainRequested)))
        return false; // nothing done yet, or no canvas to ask
    const qint64 seenNs = std::max(m_map ? m_map->tNs() : 0, m_maps.caughtUpNs());
    return seenNs < m_actedNs;
}

void Director::takeFreshLook()
{
    const qint64 actedNs = m_actedNs;
    const qint64 askedNs = m_clock.nowNs();
    const quint64 token = m_maps.beginLook(askedNs);
    const quint64 versionBefore = m_map ? m_map->version() : 0;
    setPhase(Phase::AwaitingMap, QStringLiteral("waiting for the screen as the last action left it"));
    emit lookAgainRequested(token);
    // The canvas' answer, or a map of a frame from after the action, whichever is first.
    const MapPredicate current = [this, token, actedNs](const ZoneMap& m) {
        return m_maps.lookAnswered(token) || m.tNs() >= actedNs;
    };
    m_maps.wait(current, freshLookTimeoutMs(), [this, token, askedNs, versionBefore](bool arrived) {
        m_maps.endLook(token);
        const QString endedBy = m_maps.lookAnswered(token) ? QStringLiteral("answer")
                                : arrived                  ? QStringLiteral("map")
                                                           : QStringLiteral("timeout");
        record(QStringLiteral("fresh_look"),
               {{QStringLiteral("ended_by"), endedBy},
                {QStringLiteral("waited_ms"), double((m_clock.nowNs() - askedNs) / 1'000'000)},
                {QStringLiteral("map_version_before"), double(versionBefore)},
                {QStringLiteral("map_version"), double(m_map ? m_map->version() : 0)}});
        if (!arrived) {
            m_mapOutdated = true;
            emitError(QStringLiteral("map_outdated"),
                      QStringLiteral("the canvas did not analyse the screen after the last "
                                     "action within %1 ms")
                          .arg(freshLookTimeoutMs()));
        }
        scheduleProceed();
    });
}

void Director::onLookedAgain(quint64 token, const ZoneMapPtr& map)
{
    if (!m_maps.takeAnswer(token))
        return; // the answer to a look that is over (its step or task ended)
    // The canvas published a changed map before it answered; this one is at least as new.
    if (map && (!m_map || map->version() > m_map->version())) {
        m_map = map;
        m_recentMaps.append(map);
        if (m_recentMaps.size() > kRecentMaps)
            m_recentMaps.removeFirst();
    }
    m_maps.check();
}

void Director::readFieldTextSettled(const ActionFlight& flight, quint64 frameAfter,
                                    std::function<void(const std::optional<QString>&)> done)
{
    ReadBack::Settling settling;
    settling.frameAfter = frameAfter;
    settling.context = this;
    settling.settleTimeoutMs = m_options.settleTimeoutMs;
    settling.currentMap = [this] { return m_map.get(); };
    settling.secondLook = [this, proposed = flight.proposed](std::function<void()> then) {
        takeSecondLook(proposed, {}, std::move(then));
    };
    m_readBack.readSettled(flight, std::move(settling), std::move(done));
}

} // namespace ciu
