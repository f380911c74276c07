#include "core/director/localplanner.h"

#include "core/director/directorlog.h"

#include <QCoreApplication>

#include <tuple>

namespace ciu {

namespace {

QString quoted(const QString& s)
{
    return QLatin1Char('"') + s + QLatin1Char('"');
}

Expectation expectFor(const Zone& zone)
{
    Expectation e;
    switch (zone.type) {
    case ZoneType::Dropdown:
        e.kind = Expectation::Kind::AnyChange;
        e.description = QStringLiteral("option list");
        break;
    case ZoneType::MenuItem:
        e.kind = Expectation::Kind::AnyChange;
        e.description = QStringLiteral("menu dropdown");
        break;
    case ZoneType::Tab:
        e.kind = Expectation::Kind::Selected;
        e.description = QStringLiteral("page switch");
        break;
    case ZoneType::Button:
    case ZoneType::Link:
        // Its effect is not known here: a change in it, its window or a new window, never a focus ring
        // elsewhere.
        e.kind = Expectation::Kind::AnyChange;
        e.description = zone.type == ZoneType::Link ? QStringLiteral("the link's effect")
                                                    : QStringLiteral("the button's effect");
        e.repeatable = false;
        break;
    case ZoneType::CheckBox:
        e.kind = Expectation::Kind::AnyChange;
        e.description = QStringLiteral("check mark");
        break;
    default:
        break;
    }
    return e;
}

} // namespace

PlanStep LocalPlanner::planStepFor(const ScriptCommand& c)
{
    PlanStep s;
    auto zoneStep = [&](const QString& label, const QString& verb) {
        s.kind = PlanStep::Kind::ZoneAction;
        s.zoneLabel = label;
        s.verb = verb;
    };
    switch (c.verb) {
    case ScriptCommand::Verb::Click:
        zoneStep(c.target, QStringLiteral("click"));
        break;
    case ScriptCommand::Verb::DoubleClick:
        zoneStep(c.target, QStringLiteral("double-click"));
        break;
    case ScriptCommand::Verb::RightClick:
        zoneStep(c.target, QStringLiteral("right-click"));
        break;
    case ScriptCommand::Verb::MiddleClick:
        zoneStep(c.target, QStringLiteral("middle-click"));
        break;
    case ScriptCommand::Verb::TripleClick:
        zoneStep(c.target, QStringLiteral("triple-click"));
        break;
    case ScriptCommand::Verb::Hover:
        zoneStep(c.target, QStringLiteral("hover"));
        break;
    case ScriptCommand::Verb::Check:
        zoneStep(c.target, QStringLiteral("check"));
        break;
    case ScriptCommand::Verb::Uncheck:
        zoneStep(c.target, QStringLiteral("uncheck"));
        break;
    case ScriptCommand::Verb::Type:
        if (c.target.isEmpty()) {
            s.description = QStringLiteral("Type %1").arg(quoted(c.text));
        } else {
            zoneStep(c.target, QStringLiteral("type %1").arg(quoted(c.text)));
        }
        break;
    case ScriptCommand::Verb::Append:
        zoneStep(c.target, QStringLiteral("append %1").arg(quoted(c.text)));
        break;
    case ScriptCommand::Verb::Press:
        s.description = QStringLiteral("Press %1").arg(c.text);
        break;
    case ScriptCommand::Verb::Scroll: {
        const QString verb = QStringLiteral("scroll %1 %2")
                                 .arg(platform::toString(c.scrollDirection))
                                 .arg(c.amount > 0 ? c.amount : 3);
        if (c.target.isEmpty())
            s.description = QStringLiteral("Scroll %1 %2")
                                .arg(platform::toString(c.scrollDirection))
                                .arg(c.amount > 0 ? c.amount : 3);
        else
            zoneStep(c.target, verb);
        break;
    }
    case ScriptCommand::Verb::Drag:
        zoneStep(c.target, QStringLiteral("drag to %1").arg(quoted(c.target2)));
        break;
    case ScriptCommand::Verb::WaitFor:
        s.kind = PlanStep::Kind::WaitForChange;
        s.expectedChange = quoted(c.text);
        break;
    case ScriptCommand::Verb::Wait:
        s.description = QStringLiteral("Wait %1 s").arg(double(c.durationMs) / 1000.0);
        break;
    case ScriptCommand::Verb::Launch:
        s.description = QStringLiteral("Launch %1").arg(c.text);
        break;
    case ScriptCommand::Verb::Invoke:
        s.description = QStringLiteral("Invoke %1").arg(quoted(c.target));
        break;
    case ScriptCommand::Verb::Select:
        zoneStep(c.target, QStringLiteral("select %1").arg(quoted(c.text)));
        s.expectedChange = QStringLiteral("option list");
        break;
    }
    return s;
}

bool LocalPlanner::begin(const QString& task, QString* error)
{
    const ScriptParseResult parsed = parseScript(task);
    if (!parsed.ok()) {
        if (error)
            *error =
                QStringLiteral("the local planner cannot read the task: %1").arg(parsed.error->toString());
        return false;
    }
    beginCommands(parsed.commands, task);
    return true;
}

void LocalPlanner::beginCommands(const QList<ScriptCommand>& commands, const QString& title)
{
    m_commands = commands;
    m_state = QList<StepState>(m_commands.size());
    m_current = 0;
    m_failure.clear();
    m_unverified.clear();
    m_lastWindowId = m_proposedWindowId = 0;
    m_windowsAtLastAction.clear();
    m_proposedAmong.clear();
    m_plan = Plan();
    m_plan.task = title.simplified();
    for (const ScriptCommand& c : std::as_const(m_commands))
        m_plan.steps.append(planStepFor(c));
    m_plan.currentStep = m_commands.isEmpty() ? 0 : 1;
    m_plan.status = Plan::Status::Executing;
    emit planChanged();
}

void LocalPlanner::decide(const WorldState& world)
{
    static const ZoneMap empty;
    const ZoneMap& map = world.map ? *world.map : empty;
    m_windows = world.windows;
    m_dryRun = world.dryRun;
    emit decided(next(map));
}

Decision LocalPlanner::next(const ZoneMap& map)
{
    while (m_current < m_commands.size()) {
        if (m_plan.steps[m_current].status == PlanStep::Status::Failed) {
            m_plan.status = Plan::Status::Failed;
            emit planChanged();
            return {Decision::Kind::Failed, {}, m_failure};
        }
        m_plan.currentStep = m_current + 1;
        m_plan.steps[m_current].status = PlanStep::Status::Running;
        if (auto d = actionFor(m_current, map)) {
            if (d->kind == Decision::Kind::Act && !d->actions.isEmpty()) {
                m_proposedWindowId = windowActedOn(d->actions.first().action, map);
                m_proposedAmong.clear();
                for (const platform::WindowInfo& w : std::as_const(m_windows))
                    m_proposedAmong.insert(w.id);
            }
            emit planChanged();
            if (d->kind == Decision::Kind::Impossible || d->kind == Decision::Kind::Failed) {
                m_plan.steps[m_current].status = PlanStep::Status::Failed;
                m_plan.status = Plan::Status::Failed;
                emit planChanged();
            }
            return *d;
        }
        // The step needed no action (already checked, already selected).
    }
    if (!m_unverified.isEmpty()) {
        m_plan.status = Plan::Status::Failed;
        emit planChanged();
        return {Decision::Kind::Unverified,
                {},
                QStringLiteral("all %1 steps ran, but %2 of them could not be verified: %3")
                    .arg(m_commands.size())
                    .arg(m_unverified.size())
                    .arg(m_unverified.join(QStringLiteral("; ")))};
    }
    m_plan.status = Plan::Status::Completed;
    emit planChanged();
    return {Decision::Kind::Complete, {}, QStringLiteral("all %1 steps done").arg(m_commands.size())};
}

Decision LocalPlanner::act(ProposedAction action)
{
    action.planStep = m_current + 1;
    return {Decision::Kind::Act, {action}, {}};
}

std::optional<Zone> LocalPlanner::resolveOrDecide(const QString& name, const ZoneMap& map,
                                                  ZoneResolver::Purpose purpose,
                                                  std::optional<Decision>* decision)
{
    ZoneResolver::Result r = ZoneResolver::resolve(name, map, purpose, m_windows);
    StepState& st = m_state[m_current];
    // Once tooltips are being read, a zone that came only with the hovers and was not hovered is most
    // likely a tooltip's own text taken for a control (its box is gone by the time it is clicked): no
    // target. The hovered zones themselves, and what was there before, are.
    if (r.zone && !st.tooltipsRead.isEmpty() && !st.beforeTooltips.contains(r.zone->id) &&
        !st.tooltipsRead.contains(r.zone->id)) {
        qCDebug(lcLocalPlanner) << "step" << m_current + 1 << r.zone->id << r.zone->label
                                << "came with a hover; not taken for the target";
        r.error = QStringLiteral("no zone matches \"%1\" (only a zone that came with a hover, %2 \"%3\")")
                      .arg(name, r.zone->id, r.zone->label);
        r.zone.reset();
    }
    if (r.zone) {
        PlanStep& step = m_plan.steps[m_current];
        if (step.zoneId.isEmpty() || st.phase == 0) {
            step.zoneId = r.zone->id;
            step.zoneType = r.zone->type;
        }
        return r.zone;
    }
    if (r.ambiguous) {
        *decision = Decision{
            Decision::Kind::Impossible,
            {},
            QStringLiteral("step %1 (%2): %3").arg(m_current + 1).arg(m_commands[m_current].source, r.error)};
        return std::nullopt;
    }
    // Zone not found: Tier 2 re-analysis, then re-plan (the recovery ladder). A window whose tree is still
    // being read is waited for first: what vision alone sees of it is not yet what there is.
    if (const QString window = windowAwaitingTree(map); !window.isEmpty() && st.treeWaits < kMaxTreeWaits) {
        ++st.treeWaits;
        *decision =
            Decision{Decision::Kind::Reanalyze,
                     {},
                     QStringLiteral("zone not found: %1; waiting for the accessibility tree of \"%2\"")
                         .arg(r.error, window)};
        return std::nullopt;
    }
    ++st.resolveAttempts;
    if (st.resolveAttempts < m_maxResolveAttempts) {
        *decision =
            Decision{Decision::Kind::Reanalyze, {}, QStringLiteral("zone not found: %1").arg(r.error)};
        return std::nullopt;
    }
    // Icon buttons the pixels could not name: their tooltips may (the canvas names each from its own).
    if (const auto unnamed = unreadTooltip(map, purpose)) {
        if (st.tooltipsRead.isEmpty()) {
            for (const Zone& z : map.zones())
                st.beforeTooltips.insert(z.id);
        }
        st.tooltipsRead.insert(unnamed->id);
        qCDebug(lcLocalPlanner) << "step" << m_current + 1 << "hovers" << unnamed->id << "for its tooltip";
        ProposedAction p;
        p.action.type = Action::Type::MouseMove;
        p.action.zoneId = unnamed->id;
        p.undoable = false;
        p.awaitLabelOf = unnamed->id;
        p.expect.description = QStringLiteral("the tooltip of an unnamed button");
        *decision = act(p);
        return std::nullopt;
    }
    const QString tooltips =
        st.tooltipsRead.isEmpty()
            ? QString()
            : QStringLiteral(" and the tooltips of %1 unnamed buttons read").arg(st.tooltipsRead.size());
    *decision = Decision{
        Decision::Kind::Impossible,
        {},
        QStringLiteral("step %1 (%2): %3 after %4 %5%6")
            .arg(m_current + 1)
            .arg(m_commands[m_current].source, r.error)
            .arg(m_maxResolveAttempts - 1)
            .arg(m_maxResolveAttempts == 2 ? QStringLiteral("re-analysis") : QStringLiteral("re-analyses"),
                 tooltips)};
    return std::nullopt;
}

std::optional<Zone> LocalPlanner::unreadTooltip(const ZoneMap& map, ZoneResolver::Purpose purpose) const
{
    const StepState& st = m_state[m_current];
    if (m_dryRun || st.tooltipsRead.size() >= kMaxTooltipHovers)
        return std::nullopt;
    // Stacking order, top first: the window a name is looked for in first.
    auto rank = [this](quint64 windowId) {
        for (qsizetype i = m_windows.size() - 1; i >= 0; --i) {
            if (m_windows.at(i).id == windowId)
                return int(m_windows.size() - 1 - i);
        }
        return int(m_windows.size()); // not listed: last
    };
    const auto key = [&rank](const Zone& a) {
        return std::tuple(rank(a.windowId), a.bounds.top(), a.bounds.left());
    };
    std::optional<Zone> best;
    for (const Zone& z : map.zones()) {
        const bool kind = z.type == ZoneType::Button ||
                          (purpose == ZoneResolver::Purpose::Toggle ? z.type == ZoneType::CheckBox
                                                                    : z.type == ZoneType::Tab);
        if (!kind || !z.label.trimmed().isEmpty() || z.temporary || z.source == ZoneSource::Accessibility ||
            z.source == ZoneSource::User || st.tooltipsRead.contains(z.id) ||
            std::max(z.bounds.width(), z.bounds.height()) > kMaxIconButtonSide ||
            z.state.testFlag(ZoneStateFlag::Disabled))
            continue;
        if (!best || key(z) < key(*best))
            best = z;
    }
    return best;
}

std::optional<Decision> LocalPlanner::actionFor(int index, const ZoneMap& map)
{
    const ScriptCommand& c = m_commands[index];
    StepState& st = m_state[index];
    std::optional<Decision> decision;
    ProposedAction p;
    auto onZone = [&](Action::Type type, const Zone& z) {
        p.action.type = type;
        p.action.zoneId = z.id;
        if (p.expect.kind == Expectation::Kind::None)
            p.expect = expectFor(z);
        return act(p);
    };
    auto skip = [&](const QString& why) {
        qCDebug(lcLocalPlanner) << "step" << index + 1 << "needs no action:" << why;
        m_plan.steps[index].description = why;
        finishStep(index, PlanStep::Status::Skipped);
        return std::nullopt;
    };

    switch (c.verb) {
    case ScriptCommand::Verb::Click:
    case ScriptCommand::Verb::DoubleClick:
    case ScriptCommand::Verb::RightClick:
    case ScriptCommand::Verb::MiddleClick:
    case ScriptCommand::Verb::TripleClick:
    case ScriptCommand::Verb::Hover: {
        if (c.verb == ScriptCommand::Verb::Click) {
            // `click xterm`: a window named, not a zone, is activated (raised and given the focus).
            if (const auto w = windowFor(c.target, map, ZoneResolver::Purpose::Click, &decision))
                return activateWindow(*w);
            if (decision)
                return decision;
        }
        const auto z = resolveOrDecide(c.target, map, ZoneResolver::Purpose::Click, &decision);
        if (!z)
            return decision;
        const Action::Type type = c.verb == ScriptCommand::Verb::Click         ? Action::Type::LeftClick
                                  : c.verb == ScriptCommand::Verb::DoubleClick ? Action::Type::DoubleClick
                                  : c.verb == ScriptCommand::Verb::RightClick  ? Action::Type::RightClick
                                  : c.verb == ScriptCommand::Verb::MiddleClick ? Action::Type::MiddleClick
                                  : c.verb == ScriptCommand::Verb::TripleClick ? Action::Type::TripleClick
                                                                               : Action::Type::MouseMove;
        if (type == Action::Type::RightClick) {
            p.expect.kind = Expectation::Kind::AnyChange;
            p.expect.description = QStringLiteral("context menu");
        }
        if (type == Action::Type::MouseMove)
            p.undoable = false;
        return onZone(type, *z);
    }
    case ScriptCommand::Verb::Check:
    case ScriptCommand::Verb::Uncheck: {
        const auto z = resolveOrDecide(c.target, map, ZoneResolver::Purpose::Toggle, &decision);
        if (!z)
            return decision;
        const bool check = c.verb == ScriptCommand::Verb::Check;
        if (check && z->state.testFlag(ZoneStateFlag::Checked))
            return skip(QStringLiteral("\"%1\" is already checked").arg(z->label));
        if (!check && z->state.testFlag(ZoneStateFlag::Unchecked))
            return skip(QStringLiteral("\"%1\" is already unchecked").arg(z->label));
        p.expect.kind = check ? Expectation::Kind::StateChecked : Expectation::Kind::StateUnchecked;
        p.expect.description = check ? QStringLiteral("check mark") : QStringLiteral("cleared check mark");
        p.undoable = false;
        return onZone(Action::Type::LeftClick, *z);
    }
    case ScriptCommand::Verb::Type:
    case ScriptCommand::Verb::Append: {
        if (!c.target.isEmpty() && st.phase == 0) {
            // `type "ls" into xterm`: the window is activated and the text typed into what it focuses.
            st.windowId = 0;
            if (const auto w = windowFor(c.target, map, ZoneResolver::Purpose::TypeInto, &decision))
                return activateWindow(*w);
            if (decision)
                return decision;
            const auto z = resolveOrDecide(c.target, map, ZoneResolver::Purpose::TypeInto, &decision);
            if (!z)
                return decision;
            st.zoneId = z->id;
            return onZone(Action::Type::LeftClick, *z); // focus the field
        }
        if (c.target.isEmpty() && st.phase == 0 && c.verb == ScriptCommand::Verb::Type) {
            if (auto d = focusForText(map))
                return d;
        }
        if (st.windowId != 0 && st.phase == 1)
            st.phase = 2; // a window holds no field to select: the text goes where it has the focus
        if (!c.target.isEmpty() && st.phase == 1) {
            // "type X into F" sets F to X: select what is there, so the typing replaces it (a pre-filled
            // "Untitled", or this step's own text when it is retried). "append" goes to the end instead.
            // A retry selects another way: not every toolkit takes ctrl+a as "select all" (Tk and Emacs-style
            // bindings move to the line's start), while End then shift+Home selects a one-line field
            // anywhere.
            p.action.type = Action::Type::Key;
            p.action.text = c.verb == ScriptCommand::Verb::Append ? QStringLiteral("ctrl+End")
                            : st.retries == 0                     ? QStringLiteral("ctrl+a")
                                                                  : QStringLiteral("End shift+Home");
            p.focusZoneId = st.zoneId;
            p.undoable = false;
            return act(p);
        }
        p.action.type = Action::Type::TypeText;
        p.action.text = c.text;
        p.focusZoneId = st.zoneId;
        p.expect.kind = Expectation::Kind::AnyChange;
        p.expect.description = QStringLiteral("typed text");
        // `type "X"` with no target: the keys go to the active window, and X must show there (the issue's
        // editor that never received the typing, a window whose keys go nowhere). Typed once, like into a
        // named window.
        quint64 windowId = st.windowId;
        if (windowId == 0 && c.target.isEmpty()) {
            const qint64 ownPid = QCoreApplication::applicationPid();
            for (const platform::WindowInfo& w : m_windows) {
                if (w.active && w.pid != ownPid)
                    windowId = w.id;
            }
        }
        if (windowId != 0) {
            // The text must show in the window (its tree's text, else what OCR reads there). Typed once:
            // a terminal would run a command typed twice.
            p.expect.kind = Expectation::Kind::WindowShowsText;
            p.expect.text = c.text;
            p.expect.windowId = windowId;
            p.expect.repeatable = false;
        } else if (!c.target.isEmpty()) {
            // The field must read the text afterwards (all of it; appended: at its end). A password field
            // is never read back: its tree says how many characters it holds (the text set: as many as
            // typed); without a tree, a change is all that can be asked of it.
            const Zone* field = map.find(st.zoneId);
            if (!field || !field->isPassword) {
                p.expect.kind = c.verb == ScriptCommand::Verb::Append ? Expectation::Kind::TextEndsWith
                                                                      : Expectation::Kind::TextEquals;
                p.expect.text = c.text;
            } else if (c.verb == ScriptCommand::Verb::Type) {
                p.expect.kind = Expectation::Kind::LengthEquals;
                p.expect.length = int(c.text.toUcs4().size());
                // (Not how many: a secret's length is not logged either, Action::maskedText().)
                p.expect.description = QStringLiteral("as many characters in the password field as typed");
            }
        }
        return act(p);
    }
    case ScriptCommand::Verb::Press:
        p.action.type = Action::Type::Key;
        p.action.text = c.text;
        return act(p);
    case ScriptCommand::Verb::Scroll: {
        p.action.type = Action::Type::Scroll;
        p.action.scrollDirection = c.scrollDirection;
        p.action.amount = c.amount > 0 ? c.amount : 3;
        p.expect.kind = Expectation::Kind::AnyChange;
        p.expect.description = QStringLiteral("scrolled content");
        p.undoable = false;
        if (c.target.isEmpty())
            return act(p);
        const auto z = resolveOrDecide(c.target, map, ZoneResolver::Purpose::Scroll, &decision);
        if (!z)
            return decision;
        return onZone(Action::Type::Scroll, *z);
    }
    case ScriptCommand::Verb::Drag: {
        const auto from = resolveOrDecide(c.target, map, ZoneResolver::Purpose::Click, &decision);
        if (!from)
            return decision;
        const auto to = resolveOrDecide(c.target2, map, ZoneResolver::Purpose::Any, &decision);
        if (!to)
            return decision;
        p.action.endZoneId = to->id;
        p.expect.kind = Expectation::Kind::AnyChange;
        p.expect.description = QStringLiteral("moved item");
        return onZone(Action::Type::LeftClickDrag, *from);
    }
    case ScriptCommand::Verb::WaitFor:
        p.action.type = Action::Type::WaitForChange;
        p.action.text = c.text;
        p.action.durationMs = c.durationMs;
        p.expect.kind = Expectation::Kind::ZoneAppears;
        p.expect.text = c.text;
        p.expect.description = quoted(c.text);
        p.checkpoint = true;
        p.local = true;
        p.undoable = false;
        return act(p);
    case ScriptCommand::Verb::Wait:
        p.action.type = Action::Type::Wait;
        p.action.durationMs = c.durationMs;
        p.local = true;
        p.undoable = false;
        return act(p);
    case ScriptCommand::Verb::Launch:
        p.action.type = Action::Type::Launch;
        p.action.text = c.text;
        p.undoable = false;
        return act(p);
    case ScriptCommand::Verb::Invoke:
        return invokeAction(index, map);
    case ScriptCommand::Verb::Select:
        return selectAction(index, map);
    }
    return decision;
}

void LocalPlanner::finishStep(int index, PlanStep::Status status)
{
    m_plan.steps[index].status = status;
    if (index == m_current && status != PlanStep::Status::Failed)
        ++m_current;
    m_plan.currentStep = std::min(m_current + 1, int(m_commands.size()));
    emit planChanged();
}

void LocalPlanner::report(const ProposedAction& action, const ActionOutcome& outcome)
{
    const int index = action.planStep - 1;
    if (index != m_current || index < 0 || index >= m_commands.size())
        return;
    if (!action.awaitLabelOf.isEmpty())
        return; // a hover that read a tooltip: no phase of the step (its name is looked for again)
    const ScriptCommand& c = m_commands[index];
    StepState& st = m_state[index];
    PlanStep& step = m_plan.steps[index];

    const bool ok = outcome.status == ActionOutcome::Status::DryRun ||
                    (outcome.status == ActionOutcome::Status::Executed && outcome.result.success);
    // Typing with no field named is not typed twice (it would double the text); typing into a field is
    // retried (the retry selects the field's text first, so it replaces rather than appends).
    const bool untargetedText = action.action.type == Action::Type::TypeText && c.target.isEmpty();
    const bool once = untargetedText || !action.expect.repeatable;
    if (outcome.status == ActionOutcome::Status::Executed && outcome.result.success) {
        m_lastWindowId = m_proposedWindowId;
        m_windowsAtLastAction = m_proposedAmong;
    }
    if (ok && selectReported(index, action))
        return;
    if (ok && (!outcome.verificationFailed || once || st.retries >= kMaxStepRetries)) {
        // A step out of retries goes on, but the task can no longer end "completed": it ends "unverified".
        if (outcome.verificationFailed && outcome.status == ActionOutcome::Status::Executed)
            m_unverified << QStringLiteral("step %1 (%2): %3").arg(index + 1).arg(c.source, outcome.message);
        ++st.phase;
        int phases = 1;
        if ((c.verb == ScriptCommand::Verb::Type || c.verb == ScriptCommand::Verb::Append) &&
            !c.target.isEmpty())
            phases = 3; // focus, select (or go to the end), type
        else if (c.verb == ScriptCommand::Verb::Type && st.windowId != 0)
            phases = 2; // the window activated (focusForText()), the text typed
        if (c.verb == ScriptCommand::Verb::Select)
            phases = 3;
        if (c.verb == ScriptCommand::Verb::Invoke)
            phases = st.keys.isEmpty() ? int(st.menuPath.size()) : 1;
        if (c.verb == ScriptCommand::Verb::Invoke && !outcome.verificationFailed &&
            outcome.status == ActionOutcome::Status::Executed) {
            if (!st.keys.isEmpty())
                invokeDone(index);
            else if (st.phase >= phases)
                invokeMenuDone(index, outcome.mapAfter.get());
        }
        if (st.phase >= phases)
            finishStep(index, PlanStep::Status::Done);
        return;
    }
    if (outcome.status == ActionOutcome::Status::Refused ||
        outcome.status == ActionOutcome::Status::Declined) {
        if (outcome.retry && st.resolveAttempts < m_maxResolveAttempts) {
            ++st.resolveAttempts;
            st.phase = 0;
            return;
        }
        m_failure =
            QStringLiteral("step %1 (%2) was not executed: %3").arg(index + 1).arg(c.source, outcome.message);
        finishStep(index, PlanStep::Status::Failed);
        return;
    }
    // Failed, or executed without the expected change: re-plan the step from its first action.
    ++st.retries;
    if (st.retries <= kMaxStepRetries && (outcome.retry || outcome.verificationFailed)) {
        st.phase = 0;
        step.zoneId.clear();
        return;
    }
    const QString why = outcome.message.isEmpty() ? outcome.result.error : outcome.message;
    m_failure = QStringLiteral("step %1 (%2) failed: %3").arg(index + 1).arg(c.source, why);
    finishStep(index, PlanStep::Status::Failed);
}

QString toString(ActionOutcome::Status status)
{
    switch (status) {
    case ActionOutcome::Status::Executed:
        return QStringLiteral("executed");
    case ActionOutcome::Status::DryRun:
        return QStringLiteral("dry_run");
    case ActionOutcome::Status::Refused:
        return QStringLiteral("refused");
    case ActionOutcome::Status::Declined:
        return QStringLiteral("declined");
    case ActionOutcome::Status::Skipped:
        return QStringLiteral("skipped");
    case ActionOutcome::Status::Failed:
        return QStringLiteral("failed");
    }
    return {};
}

} // namespace ciu
