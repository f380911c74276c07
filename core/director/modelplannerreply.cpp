#include "core/director/directorlog.h"
#include "core/director/modelplanner.h"
#include "core/director/safety/untrusted.h"

#include <QJsonArray>
#include <QJsonDocument>

// The model's reply turned into the Director's decision: its stop reason, its text and its tool calls
// (computer actions, zone actions, scripts, done and give-up), each checked before it becomes an action.

namespace ciu {

using director::ContentBlock;
using director::ProviderResponse;
using director::StopReason;

Decision ModelPlanner::interpret(const ProviderResponse& response)
{
    switch (response.stopReason) {
    case StopReason::Refusal:
        return {Decision::Kind::Failed,
                {},
                QStringLiteral("the model refused the task%1")
                    .arg(response.text().isEmpty() ? QString() : QStringLiteral(": ") + response.text())};
    case StopReason::ContextWindowExceeded:
        return {Decision::Kind::Failed,
                {},
                QStringLiteral("the conversation exceeded the model's context window")};
    case StopReason::PauseTurn:
        m_continuePaused = true; // send the paused reply back unchanged
        return {Decision::Kind::Act, {}, QStringLiteral("pause_turn: continuing")};
    default:
        break;
    }
    const QList<ContentBlock> uses = response.toolUses();
    if (response.stopReason == StopReason::MaxTokens) {
        bool complete = !uses.isEmpty();
        for (const ContentBlock& u : uses)
            complete = complete && u.inputError.isEmpty();
        if (!complete) {
            if (++m_maxTokensRetries > 2)
                return {Decision::Kind::Failed,
                        {},
                        QStringLiteral("the model's replies were cut at max_tokens three times")};
            m_nudge = QStringLiteral(
                "Your reply was cut off (max_tokens). Answer briefly: fewer tool calls, no long text.");
        }
    }
    if (uses.isEmpty()) {
        if (!m_nudge.isEmpty()) {
            // Only the cut text came back: ask again (the assistant turn is in the history).
            return {Decision::Kind::Act, {}, QStringLiteral("max_tokens: asking again")};
        }
        // No tool call: the model considers the task finished (classic loop convention).
        m_plan.status = Plan::Status::Completed;
        emit planChanged();
        return {Decision::Kind::Complete, {}, response.text()};
    }

    Decision d;
    d.kind = Decision::Kind::Act;
    m_segments.clear(); // a new reply: whatever was left of the last one was answered as not executed
    m_script.reset();
    const auto scaler = response.scaler;
    for (const ContentBlock& u : uses) {
        ToolCall call;
        call.id = u.id;
        call.name = u.name;
        m_calls.append(call);
        ToolCall& c = m_calls.last();
        auto error = [&](const QString& text) {
            c.result = ContentBlock::makeToolResultText(c.id, text, true);
        };
        if (!u.inputError.isEmpty()) {
            error(QStringLiteral("the arguments were not a JSON object: %1").arg(u.inputError));
            continue;
        }
        const QJsonObject in = u.input;
        auto zoneAction = [&](Action::Type type, const QString& zone) {
            ProposedAction p;
            p.action.type = type;
            p.action.zoneId = zone;
            p.toolUseId = u.id;
            p.toolName = u.name;
            return p;
        };
        QList<ProposedAction> actions;
        const QString zone = in.value(QStringLiteral("zone_id")).toString();
        if (u.name == QLatin1String("task_complete")) {
            c.result = ContentBlock::makeToolResultText(c.id, in.value(QStringLiteral("summary")).toString());
            continue;
        }
        if (u.name == QLatin1String("task_impossible")) {
            m_plan.status = Plan::Status::Failed;
            emit planChanged();
            return {Decision::Kind::Impossible, {}, in.value(QStringLiteral("explanation")).toString()};
        }
        if (u.name == QLatin1String("update_plan")) {
            m_plan.steps.clear();
            for (const QJsonValue& v : in.value(QStringLiteral("steps")).toArray()) {
                const QJsonObject o = v.toObject();
                PlanStep s;
                s.description = o.value(QStringLiteral("description")).toString();
                s.zoneId = o.value(QStringLiteral("zone_id")).toString();
                s.expectedChange = o.value(QStringLiteral("expected_change")).toString();
                m_plan.steps.append(s);
            }
            m_plan.currentStep =
                std::clamp(in.value(QStringLiteral("current_step")).toInt(1), 0, int(m_plan.steps.size()));
            m_plan.status = Plan::Status::Executing;
            m_modelPlanned = true;
            emit planChanged();
            c.result = ContentBlock::makeToolResultText(c.id, QStringLiteral("plan recorded"));
            continue;
        }
        if (u.name == QLatin1String("request_reanalysis")) {
            c.result = ContentBlock::makeToolResultText(
                c.id, QStringLiteral("re-analysis requested; the new zone map follows"));
            if (uses.size() == 1)
                return {Decision::Kind::Reanalyze, {}, in.value(QStringLiteral("reason")).toString()};
            continue;
        }
        if (u.name == QLatin1String("invoke_menu_action")) {
            const QString action = in.value(QStringLiteral("action")).toString().simplified();
            if (action.isEmpty()) {
                error(QStringLiteral("invoke_menu_action needs \"action\": a menu item's label or path"));
                continue;
            }
            ScriptCommand command;
            command.verb = ScriptCommand::Verb::Invoke;
            command.target = action;
            command.source = command.toString();
            Segment script;
            script.scriptCallId = u.id;
            script.commands = {command};
            m_segments.append(std::move(script));
            continue;
        }
        if (u.name == QLatin1String("run_steps")) {
            QString scriptError;
            auto commands = parseSteps(in, &scriptError);
            if (!commands) {
                error(QStringLiteral("run_steps was not run: %1").arg(scriptError));
                continue;
            }
            Segment script;
            script.scriptCallId = u.id;
            script.commands = std::move(*commands);
            m_segments.append(std::move(script));
            continue;
        }
        if (u.name == QLatin1String("click_zone")) {
            const QString button = in.value(QStringLiteral("button")).toString(QStringLiteral("left"));
            const int clicks = in.value(QStringLiteral("clicks")).toInt(1);
            Action::Type type = Action::Type::LeftClick;
            if (button == QLatin1String("right"))
                type = Action::Type::RightClick;
            else if (button == QLatin1String("middle"))
                type = Action::Type::MiddleClick;
            else if (clicks == 2)
                type = Action::Type::DoubleClick;
            else if (clicks == 3)
                type = Action::Type::TripleClick;
            if (zone.isEmpty() || clicks < 1 || clicks > 3 ||
                (button != QLatin1String("left") && button != QLatin1String("right") &&
                 button != QLatin1String("middle"))) {
                error(QStringLiteral("click_zone needs zone_id, button left/right/middle and clicks 1..3"));
                continue;
            }
            actions << zoneAction(type, zone);
        } else if (u.name == QLatin1String("type_in_zone")) {
            const QString text = in.value(QStringLiteral("text")).toString();
            if (zone.isEmpty() || text.isEmpty()) {
                error(QStringLiteral("type_in_zone needs zone_id and text"));
                continue;
            }
            actions << zoneAction(Action::Type::LeftClick, zone);
            ProposedAction t = zoneAction(Action::Type::TypeText, {});
            t.action.text = text;
            t.focusZoneId = zone;
            // Read back: the field ends with the text (the tool result says what it reads otherwise).
            t.expect.kind = Expectation::Kind::TextEndsWith;
            t.expect.text = text;
            t.expect.description = QStringLiteral("typed text");
            actions << t;
            if (in.value(QStringLiteral("press_enter")).toBool()) {
                ProposedAction k = zoneAction(Action::Type::Key, {});
                k.action.text = QStringLiteral("Return");
                actions << k;
            }
        } else if (u.name == QLatin1String("scroll_zone")) {
            const auto dir =
                platform::scrollDirectionFromString(in.value(QStringLiteral("direction")).toString());
            if (zone.isEmpty() || !dir) {
                error(QStringLiteral("scroll_zone needs zone_id and direction up/down/left/right"));
                continue;
            }
            ProposedAction p = zoneAction(Action::Type::Scroll, zone);
            p.action.scrollDirection = *dir;
            p.action.amount = in.value(QStringLiteral("amount")).toInt(3);
            actions << p;
        } else if (u.name == QLatin1String("drag_zone")) {
            ProposedAction p =
                zoneAction(Action::Type::LeftClickDrag, in.value(QStringLiteral("from_zone_id")).toString());
            p.action.endZoneId = in.value(QStringLiteral("to_zone_id")).toString();
            if (p.action.zoneId.isEmpty() || p.action.endZoneId.isEmpty()) {
                error(QStringLiteral("drag_zone needs from_zone_id and to_zone_id"));
                continue;
            }
            actions << p;
        } else if (u.name == QLatin1String("press_keys")) {
            ProposedAction p = zoneAction(Action::Type::Key, {});
            p.action.text = in.value(QStringLiteral("keys")).toString();
            actions << p;
        } else if (u.name == QLatin1String("wait_for_change")) {
            ProposedAction p = zoneAction(Action::Type::WaitForChange, {});
            p.action.text = in.value(QStringLiteral("text")).toString();
            p.local = true;
            QString why;
            const auto timeout =
                boundedDurationMs(in.value(QStringLiteral("timeout_ms")).toDouble(5000), 1.0, &why);
            if (!timeout) {
                error(QStringLiteral("timeout_ms: %1").arg(why));
                continue;
            }
            p.action.durationMs = *timeout;
            actions << p;
        } else if (u.name == QLatin1String("computer")) {
            QString mapError;
            const auto mapped = scaler.mapInputToScreen(in, &mapError);
            if (!mapped) {
                error(QStringLiteral("refused: %1").arg(mapError));
                continue;
            }
            QString actionError;
            auto p = computerAction(*mapped, &actionError);
            if (!p) {
                error(actionError);
                continue;
            }
            p->toolUseId = u.id;
            actions << *p;
        } else {
            error(QStringLiteral("unknown tool \"%1\"").arg(u.name));
            continue;
        }
        c.expected = int(actions.size());
        // Consecutive zone tools form one batch; a run_steps script between them keeps the order.
        if (m_segments.isEmpty() || !m_segments.last().scriptCallId.isEmpty())
            m_segments.append(Segment());
        m_segments.last().actions.append(actions);
    }
    if (m_plan.steps.isEmpty() || m_plan.status == Plan::Status::Planning) {
        m_plan.status = Plan::Status::Executing;
        emit planChanged();
    }
    // The first segment starts on the zone map the model saw (the Director checks every action against
    // the current one before it runs).
    if (auto next = advance(m_lastMap))
        return *next;
    return d;
}

} // namespace ciu
