#include "core/director/director.h"
#include "core/director/directorinternal.h"
#include "core/director/zoneresolver.h"

// Verification after an action as the speed mode asks: wait for the canvas to settle (menus and lists
// until their maps stop coming), then check the expected change in the zone map.

namespace ciu {

using directordetail::proposedJson;

namespace {

bool hasCheckState(const Zone& z)
{
    return z.state.testFlag(ZoneStateFlag::Checked) || z.state.testFlag(ZoneStateFlag::Unchecked);
}

} // namespace

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
    const bool opens = flight.target && (flight.target->type == ZoneType::MenuItem ||
                                         flight.target->type == ZoneType::Dropdown ||
                                         flight.sent.type == Action::Type::RightClick);
    if (verification == Verification::None && !opens) {
        complete();
        return;
    }
    // Even unverified (SPEED-MAX), a menu or list that opens is waited for: the next step names one of its
    // items, and resolving it on a map without them (or with half of them) would click the wrong row.
    setState(
        DirectorState::Verifying,
        verification == Verification::None
            ? QStringLiteral("waiting for the menu or list to open (speed %1)").arg(toString(m_speed.mode()))
            : QStringLiteral("%1 verification (speed %2)")
                  .arg(toString(verification), toString(m_speed.mode())));
    const quint64 version = flight.mapBefore ? flight.mapBefore->version() : 0;
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

} // namespace ciu
