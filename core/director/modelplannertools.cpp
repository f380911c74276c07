#include "core/director/modelplanner.h"
#include "core/director/safety/untrusted.h"

#include <QJsonArray>

#include <algorithm>

// The model's side of the zone loop: the zone-level tool definitions, the zone map as text (whole and
// deltas), the computer tool's input as an action, and the tool results built from action outcomes.

namespace ciu {

using director::ContentBlock;
using director::Message;
using director::ToolDefinition;

namespace {

QJsonObject schema(const QJsonObject& properties, const QStringList& required)
{
    return {{QStringLiteral("type"), QStringLiteral("object")},
            {QStringLiteral("properties"), properties},
            {QStringLiteral("required"), QJsonArray::fromStringList(required)}};
}

QJsonObject prop(const QString& type, const QString& description)
{
    return {{QStringLiteral("type"), type}, {QStringLiteral("description"), description}};
}

QJsonObject enumProp(const QStringList& values, const QString& description)
{
    return {{QStringLiteral("type"), QStringLiteral("string")},
            {QStringLiteral("enum"), QJsonArray::fromStringList(values)},
            {QStringLiteral("description"), description}};
}

QString quotedLabel(const QString& label)
{
    QString l = safety::defuseUntrusted(label);
    l.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('"'), QLatin1String("\\\""));
    l.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return QLatin1Char('"') + l + QLatin1Char('"');
}

} // namespace

QString ModelPlanner::describeZone(const Zone& z)
{
    QStringList states = zoneStateNames(z.state);
    states.removeAll(QStringLiteral("enabled"));
    QString line = QStringLiteral("%1 %2 %3 [%4,%5,%6,%7]")
                       .arg(z.id, toString(z.type),
                            z.isPassword ? QStringLiteral("\"(password field)\"") : quotedLabel(z.label))
                       .arg(z.bounds.x())
                       .arg(z.bounds.y())
                       .arg(z.bounds.width())
                       .arg(z.bounds.height());
    if (!states.isEmpty())
        line += QLatin1Char(' ') + states.join(QLatin1Char(','));
    // From the accessibility tree: the toolkit's own role and the current value (text, number, selected
    // item), untrusted screen text like the label; a long text is cut.
    if (!z.role.isEmpty())
        line += QStringLiteral(" role ") + quotedLabel(z.role);
    if (!z.value.isEmpty() && !z.isPassword) {
        constexpr qsizetype kMaxValueChars = 80;
        const QString value =
            z.value.size() > kMaxValueChars ? z.value.left(kMaxValueChars) + QStringLiteral("...") : z.value;
        line += QStringLiteral(" value ") + quotedLabel(value);
    }
    if (!z.parentId.isEmpty())
        line += QStringLiteral(" in ") + z.parentId;
    return line;
}

QList<ToolDefinition> ModelPlanner::zoneTools()
{
    const QJsonObject zoneId =
        prop(QStringLiteral("string"), QStringLiteral("a zone id from the zone map, e.g. \"z12\""));
    return {
        ToolDefinition::function(
            QStringLiteral("run_steps"),
            QStringLiteral(
                "Run several steps in order without asking you in between, and get ONE result. Each step "
                "names zones by LABEL and is looked up in the zone map as it is just before that step (after "
                "the previous step's change settled), so a step may name a zone that is not on screen yet: "
                "a menu item after \"click File\", a dialog button after the button that opens the "
                "dialog, an option after its dropdown. Steps, one command each: click NAME, double-click "
                "NAME, right-click NAME, hover NAME, check NAME, uncheck NAME, type \"text\" into NAME, "
                "type \"text\", press KEYS (xdotool: ctrl+s, Return), select OPTION in NAME, scroll "
                "down 3 in NAME, drag NAME to NAME, wait for \"text\", wait 2s, invoke \"Menu > Item\". NAME "
                "is a label, quoted "
                "when it has several words (\"Save as\"), or #id (#z12). Every step gets the same "
                "checks as any action (high-risk ones need a confirmation). It stops at the first step "
                "that fails and reports the steps that ran, the failure and the zones that may be meant."),
            schema({{QStringLiteral("steps"),
                     QJsonObject{{QStringLiteral("type"), QStringLiteral("array")},
                                 {QStringLiteral("items"),
                                  QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}},
                                 {QStringLiteral("description"),
                                  QStringLiteral("e.g. [\"click File\", \"click Open\"] or [\"type "
                                                 "\\\"Ada\\\" into Name\", \"click Submit\"]")}}}},
                   {QStringLiteral("steps")})),
        ToolDefinition::function(
            QStringLiteral("invoke_menu_action"),
            QStringLiteral(
                "Run a menu action (\"Save As…\" or \"File > Save As…\") by its known shortcut, else "
                "through its menu path; checked like any action."),
            schema({{QStringLiteral("action"),
                     prop(QStringLiteral("string"), QStringLiteral("a menu item's label or path"))}},
                   {QStringLiteral("action")})),
        ToolDefinition::function(
            QStringLiteral("click_zone"), QStringLiteral("Click a zone of the zone map."),
            schema({{QStringLiteral("zone_id"), zoneId},
                    {QStringLiteral("button"),
                     enumProp({QStringLiteral("left"), QStringLiteral("right"), QStringLiteral("middle")},
                              QStringLiteral("default left"))},
                    {QStringLiteral("clicks"),
                     prop(QStringLiteral("integer"), QStringLiteral("1, 2 or 3 (default 1)"))}},
                   {QStringLiteral("zone_id")})),
        ToolDefinition::function(
            QStringLiteral("type_in_zone"),
            QStringLiteral("Click a text zone to focus it, then type the text (optionally press Enter)."),
            schema(
                {{QStringLiteral("zone_id"), zoneId},
                 {QStringLiteral("text"), prop(QStringLiteral("string"), QStringLiteral("the text to type"))},
                 {QStringLiteral("press_enter"),
                  prop(QStringLiteral("boolean"), QStringLiteral("press Enter afterwards"))}},
                {QStringLiteral("zone_id"), QStringLiteral("text")})),
        ToolDefinition::function(
            QStringLiteral("scroll_zone"), QStringLiteral("Scroll inside a zone."),
            schema({{QStringLiteral("zone_id"), zoneId},
                    {QStringLiteral("direction"), enumProp({QStringLiteral("up"), QStringLiteral("down"),
                                                            QStringLiteral("left"), QStringLiteral("right")},
                                                           {})},
                    {QStringLiteral("amount"),
                     prop(QStringLiteral("integer"), QStringLiteral("wheel clicks, 1..50 (default 3)"))}},
                   {QStringLiteral("zone_id"), QStringLiteral("direction")})),
        ToolDefinition::function(
            QStringLiteral("drag_zone"), QStringLiteral("Drag one zone onto another."),
            schema({{QStringLiteral("from_zone_id"), zoneId}, {QStringLiteral("to_zone_id"), zoneId}},
                   {QStringLiteral("from_zone_id"), QStringLiteral("to_zone_id")})),
        ToolDefinition::function(
            QStringLiteral("press_keys"),
            QStringLiteral("Press keys in xdotool syntax: \"ctrl+s\", \"Return\", \"alt+Tab\"."),
            schema({{QStringLiteral("keys"), prop(QStringLiteral("string"), {})}}, {QStringLiteral("keys")})),
        ToolDefinition::function(
            QStringLiteral("wait_for_change"),
            QStringLiteral("Wait until the screen changes, or until a zone with this text appears."),
            schema({{QStringLiteral("timeout_ms"),
                     prop(QStringLiteral("integer"), QStringLiteral("default 5000, at most 100000"))},
                    {QStringLiteral("text"),
                     prop(QStringLiteral("string"), QStringLiteral("optional label to wait for"))}},
                   {})),
        ToolDefinition::function(
            QStringLiteral("request_reanalysis"),
            QStringLiteral("The zone map looks wrong or incomplete: analyse the whole screen again."),
            schema({{QStringLiteral("reason"), prop(QStringLiteral("string"), {})}},
                   {QStringLiteral("reason")})),
        ToolDefinition::function(
            QStringLiteral("update_plan"),
            QStringLiteral("Record your plan: the steps and the current step (1-based)."),
            schema({{QStringLiteral("steps"),
                     QJsonObject{
                         {QStringLiteral("type"), QStringLiteral("array")},
                         {QStringLiteral("items"),
                          schema({{QStringLiteral("description"), prop(QStringLiteral("string"), {})},
                                  {QStringLiteral("zone_id"), zoneId},
                                  {QStringLiteral("expected_change"), prop(QStringLiteral("string"), {})}},
                                 {QStringLiteral("description")})}}},
                    {QStringLiteral("current_step"), prop(QStringLiteral("integer"), {})}},
                   {QStringLiteral("steps")})),
        ToolDefinition::function(QStringLiteral("task_complete"), QStringLiteral("The task is done."),
                                 schema({{QStringLiteral("summary"), prop(QStringLiteral("string"), {})}},
                                        {QStringLiteral("summary")})),
        ToolDefinition::function(
            QStringLiteral("task_impossible"),
            QStringLiteral("The task cannot be done on this screen; explain why to the user."),
            schema({{QStringLiteral("explanation"), prop(QStringLiteral("string"), {})}},
                   {QStringLiteral("explanation")})),
    };
}

QString ModelPlanner::describeShortcuts(const AppSchema& schema, int maxShortcuts)
{
    // Verified first, then those a person checked, then the rest, each in the schema's order.
    const auto rank = [](const Shortcut& s) {
        if (s.isVerified())
            return 0;
        return s.source == ShortcutSource::Schema || s.source == ShortcutSource::User ? 1 : 2;
    };
    QList<Shortcut> withKeys;
    for (const Shortcut& s : schema.shortcuts) {
        if (!s.keys.isEmpty())
            withKeys.append(s);
    }
    if (withKeys.isEmpty())
        return {};
    std::stable_sort(withKeys.begin(), withKeys.end(),
                     [&](const Shortcut& a, const Shortcut& b) { return rank(a) < rank(b); });
    QStringList items;
    for (const Shortcut& s : std::as_const(withKeys)) {
        if (items.size() >= maxShortcuts) {
            items << QStringLiteral("… %1 more").arg(withKeys.size() - maxShortcuts);
            break;
        }
        items << QStringLiteral("%1 = %2%3")
                     .arg(s.action, s.keys, s.isVerified() ? QStringLiteral(" (verified)") : QString());
    }
    return QStringLiteral("Known shortcuts of %1: %2")
        .arg(schema.application, items.join(QStringLiteral(", ")));
}

QString ModelPlanner::describeZones(const ZoneMap& map, int maxZones)
{
    QStringList lines;
    lines << QStringLiteral("zone map v%1, screen %2x%3, %4 zones (id type label [x,y,w,h] state):")
                 .arg(map.version())
                 .arg(map.screenSize().width())
                 .arg(map.screenSize().height())
                 .arg(map.size());
    int n = 0;
    for (const Zone& z : map.zones()) {
        if (n++ >= maxZones) {
            lines << QStringLiteral("… %1 more zones not listed").arg(map.size() - maxZones);
            break;
        }
        lines << describeZone(z);
    }
    return lines.join(QLatin1Char('\n'));
}

QString ModelPlanner::describeDelta(const ZoneMap& before, const ZoneMap& after)
{
    QStringList lines;
    for (const Zone& z : after.zones()) {
        const Zone* old = before.find(z.id);
        if (!old)
            lines << QStringLiteral("+ ") + describeZone(z);
        else if (old->label != z.label || old->state != z.state || old->bounds != z.bounds ||
                 old->type != z.type)
            lines << QStringLiteral("~ ") + describeZone(z);
    }
    for (const Zone& z : before.zones()) {
        if (!after.find(z.id))
            lines << QStringLiteral("- %1").arg(z.id);
    }
    if (lines.isEmpty())
        return {};
    return QStringLiteral("zone map v%1 → v%2 changes (+ added, ~ changed, - removed):\n%3")
        .arg(before.version())
        .arg(after.version())
        .arg(lines.join(QLatin1Char('\n')));
}

std::optional<ProposedAction> ModelPlanner::computerAction(const QJsonObject& in, QString* error)
{
    const QString name = in.value(QStringLiteral("action")).toString();
    ProposedAction p;
    p.toolName = QStringLiteral("computer");
    auto point = [&](const char* key) -> std::optional<QPoint> {
        const QJsonArray a = in.value(QLatin1String(key)).toArray();
        if (a.size() != 2)
            return std::nullopt;
        return QPoint(a.at(0).toInt(), a.at(1).toInt());
    };
    const QString held = in.contains(QStringLiteral("key")) ? in.value(QStringLiteral("key")).toString()
                                                            : in.value(QStringLiteral("text")).toString();
    // The one duration cap of every planner (a 99999 s wait or a 1e7 s hold is refused, never wrapped).
    auto seconds = [&]() -> std::optional<int> {
        const QJsonValue v = in.value(QStringLiteral("duration"));
        if (!v.isUndefined() && !v.isNull() && !v.isDouble()) {
            *error = QStringLiteral("%1 needs duration as a number of seconds").arg(name);
            return std::nullopt;
        }
        QString why;
        const auto ms = boundedDurationMs(v.toDouble(0), 1000.0, &why);
        if (!ms)
            *error = QStringLiteral("%1: %2").arg(name, why);
        return ms;
    };
    Action& a = p.action;
    static const QList<std::pair<const char*, Action::Type>> clicks = {
        {"left_click", Action::Type::LeftClick},     {"right_click", Action::Type::RightClick},
        {"middle_click", Action::Type::MiddleClick}, {"double_click", Action::Type::DoubleClick},
        {"triple_click", Action::Type::TripleClick},
    };
    for (const auto& [n, t] : clicks) {
        if (name == QLatin1String(n)) {
            a.type = t;
            a.point = point("coordinate");
            a.heldKeys = held;
            return p;
        }
    }
    if (name == QLatin1String("screenshot")) {
        a.type = Action::Type::Screenshot;
        p.local = true;
    } else if (name == QLatin1String("cursor_position")) {
        a.type = Action::Type::CursorPosition;
        p.local = true;
    } else if (name == QLatin1String("mouse_move")) {
        a.type = Action::Type::MouseMove;
        a.point = point("coordinate");
        if (!a.point) {
            *error = QStringLiteral("mouse_move needs coordinate");
            return std::nullopt;
        }
    } else if (name == QLatin1String("left_click_drag")) {
        a.type = Action::Type::LeftClickDrag;
        a.point = point("start_coordinate");
        a.endPoint = point("coordinate");
        if (!a.endPoint) {
            *error = QStringLiteral("left_click_drag needs coordinate");
            return std::nullopt;
        }
    } else if (name == QLatin1String("left_mouse_down") || name == QLatin1String("left_mouse_up")) {
        a.type = name == QLatin1String("left_mouse_down") ? Action::Type::LeftMouseDown
                                                          : Action::Type::LeftMouseUp;
        a.point = point("coordinate");
    } else if (name == QLatin1String("scroll")) {
        a.type = Action::Type::Scroll;
        a.point = point("coordinate");
        const auto dir =
            platform::scrollDirectionFromString(in.value(QStringLiteral("scroll_direction")).toString());
        if (!dir) {
            *error = QStringLiteral("scroll needs scroll_direction up/down/left/right");
            return std::nullopt;
        }
        a.scrollDirection = *dir;
        a.amount = in.value(QStringLiteral("scroll_amount")).toInt(3);
        a.heldKeys = in.value(QStringLiteral("key")).toString();
    } else if (name == QLatin1String("type") || name == QLatin1String("key")) {
        a.type = name == QLatin1String("type") ? Action::Type::TypeText : Action::Type::Key;
        a.text = in.value(QStringLiteral("text")).toString();
    } else if (name == QLatin1String("hold_key")) {
        a.type = Action::Type::HoldKey;
        a.text = in.value(QStringLiteral("text")).toString();
        const auto ms = seconds();
        if (!ms)
            return std::nullopt;
        a.durationMs = *ms;
    } else if (name == QLatin1String("wait")) {
        a.type = Action::Type::Wait;
        const auto ms = seconds();
        if (!ms)
            return std::nullopt;
        a.durationMs = *ms;
        p.local = true;
    } else {
        *error = QStringLiteral("computer action \"%1\" is not supported").arg(name);
        return std::nullopt;
    }
    return p;
}

void ModelPlanner::answer(const QString& toolUseId, const QString& text, bool isError, const QImage& image)
{
    for (ToolCall& c : m_calls) {
        if (c.id != toolUseId)
            continue;
        QList<ContentBlock> content{ContentBlock::makeText(text)};
        if (!image.isNull())
            content.append(ContentBlock::makeImage(image));
        c.result = ContentBlock::makeToolResult(toolUseId, content, isError);
        return;
    }
}

void ModelPlanner::report(const ProposedAction& action, const ActionOutcome& outcome)
{
    if (reportScript(action, outcome))
        return;
    // The tool calls after a failed action or a verification point wait for the model.
    if (outcome.isError() || outcome.batchCut)
        dropSegments(outcome.isError()
                         ? QStringLiteral("not executed: an earlier action of this turn failed")
                         : QStringLiteral("not executed: the screen changed at a verification point; "
                                          "decide again with the new zone map"));
    for (ToolCall& c : m_calls) {
        if (c.id != action.toolUseId || c.result)
            continue;
        c.outcomes.append(outcome);
        if (int(c.outcomes.size()) < c.expected && !outcome.isError())
            return;
        QStringList lines;
        bool isError = false;
        QImage image;
        for (const ActionOutcome& o : std::as_const(c.outcomes)) {
            QString line = o.isError() ? QStringLiteral("error: ") : QStringLiteral("ok: ");
            line += o.message.isEmpty() ? (o.result.error.isEmpty() ? QStringLiteral("done") : o.result.error)
                                        : o.message;
            if (!o.result.output.isEmpty())
                line += QStringLiteral(" (%1)").arg(o.result.output);
            if (o.status == ActionOutcome::Status::Executed && o.result.success)
                line += o.result.changeObserved ? QStringLiteral("; the screen changed")
                                                : QStringLiteral("; no change seen");
            lines << line;
            isError = isError || o.isError();
            if (!o.screenshot.isNull())
                image = o.screenshot;
        }
        answer(c.id, lines.join(QLatin1Char('\n')), isError, image);
        if (m_plan.steps.isEmpty() || m_plan.status != Plan::Status::Executing) {
            PlanStep s;
            s.description = action.action.describe();
            s.status = isError ? PlanStep::Status::Failed : PlanStep::Status::Done;
            m_plan.steps.append(s);
            m_plan.currentStep = int(m_plan.steps.size());
            emit planChanged();
        } else if (!isError && m_plan.currentStep < m_plan.steps.size()) {
            m_plan.steps[std::max(0, m_plan.currentStep - 1)].status = PlanStep::Status::Done;
            ++m_plan.currentStep;
            emit planChanged();
        }
        return;
    }
}

} // namespace ciu
