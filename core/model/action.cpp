#include "core/model/action.h"

#include <QJsonArray>

#include <algorithm>
#include <array>
#include <utility>

namespace ciu {
namespace {
constexpr std::array<std::pair<Action::Type, const char*>, 25> kNames{{
    {Action::Type::MouseMove, "mouse_move"},
    {Action::Type::LeftClick, "left_click"},
    {Action::Type::RightClick, "right_click"},
    {Action::Type::MiddleClick, "middle_click"},
    {Action::Type::DoubleClick, "double_click"},
    {Action::Type::TripleClick, "triple_click"},
    {Action::Type::LeftClickDrag, "left_click_drag"},
    {Action::Type::LeftMouseDown, "left_mouse_down"},
    {Action::Type::LeftMouseUp, "left_mouse_up"},
    {Action::Type::Scroll, "scroll"},
    {Action::Type::TypeText, "type"},
    {Action::Type::Key, "key"},
    {Action::Type::HoldKey, "hold_key"},
    {Action::Type::Wait, "wait"},
    {Action::Type::WaitForChange, "wait_for_change"},
    {Action::Type::Screenshot, "screenshot"},
    {Action::Type::CursorPosition, "cursor_position"},
    {Action::Type::Copy, "copy"},
    {Action::Type::Paste, "paste"},
    {Action::Type::Cut, "cut"},
    {Action::Type::SelectAll, "select_all"},
    {Action::Type::ClipboardRead, "clipboard_read"},
    {Action::Type::ClipboardWrite, "clipboard_write"},
    {Action::Type::Launch, "launch"},
    {Action::Type::ActivateWindow, "activate_window"},
}};

QJsonArray pointJson(QPoint p)
{
    return QJsonArray{p.x(), p.y()};
}

std::optional<QPoint> pointFromJson(const QJsonValue& v)
{
    const QJsonArray a = v.toArray();
    if (a.size() != 2 || !a.at(0).isDouble() || !a.at(1).isDouble())
        return std::nullopt;
    return QPoint(a.at(0).toInt(), a.at(1).toInt());
}
} // namespace

QString toString(Action::Type type)
{
    for (const auto& [t, name] : kNames) {
        if (t == type)
            return QString::fromLatin1(name);
    }
    return {};
}

std::optional<Action::Type> actionTypeFromString(const QString& name)
{
    for (const auto& [t, typeName] : kNames) {
        if (name == QLatin1String(typeName))
            return t;
    }
    return std::nullopt;
}

bool Action::needsPointer() const
{
    switch (type) {
    case Type::MouseMove:
    case Type::LeftClick:
    case Type::RightClick:
    case Type::MiddleClick:
    case Type::DoubleClick:
    case Type::TripleClick:
    case Type::LeftClickDrag:
    case Type::LeftMouseDown:
    case Type::LeftMouseUp:
    case Type::Scroll:
        return !zoneId.isEmpty() || point.has_value();
    default:
        return false;
    }
}

bool Action::isClick() const
{
    return type == Type::LeftClick || type == Type::RightClick || type == Type::MiddleClick ||
           type == Type::DoubleClick || type == Type::TripleClick;
}

namespace {
const QString kMaskedText = QStringLiteral("••••••");
} // namespace

QString Action::maskedText()
{
    return kMaskedText;
}

QJsonObject Action::toJson() const
{
    QJsonObject o;
    o[QLatin1String("action")] = toString(type);
    if (!zoneId.isEmpty())
        o[QLatin1String("zone_id")] = zoneId;
    if (point)
        o[QLatin1String("coordinate")] = pointJson(*point);
    if (!endZoneId.isEmpty())
        o[QLatin1String("end_zone_id")] = endZoneId;
    if (endPoint)
        o[QLatin1String("end_coordinate")] = pointJson(*endPoint);
    if (windowId != 0)
        o[QLatin1String("window_id")] = double(windowId);
    if (!text.isEmpty())
        o[QLatin1String("text")] = secretText ? kMaskedText : text;
    if (secretText)
        o[QLatin1String("secret")] = true;
    if (!heldKeys.isEmpty())
        o[QLatin1String("held_keys")] = heldKeys;
    if (type == Type::Scroll) {
        o[QLatin1String("scroll_direction")] = platform::toString(scrollDirection);
        o[QLatin1String("scroll_amount")] = amount;
    }
    if (durationMs > 0)
        o[QLatin1String("duration_ms")] = durationMs;
    return o;
}

std::optional<Action> Action::fromJson(const QJsonObject& o, QString* error)
{
    auto failed = [&](const QString& message) -> std::optional<Action> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    const QString name = o.value(QLatin1String("action")).toString();
    const auto type = actionTypeFromString(name);
    if (!type)
        return failed(QStringLiteral("unknown action \"%1\"").arg(name));
    Action a;
    a.type = *type;
    a.zoneId = o.value(QLatin1String("zone_id")).toString();
    if (o.contains(QLatin1String("coordinate"))) {
        a.point = pointFromJson(o.value(QLatin1String("coordinate")));
        if (!a.point)
            return failed(QStringLiteral("coordinate must be [x, y]"));
    }
    a.endZoneId = o.value(QLatin1String("end_zone_id")).toString();
    if (o.contains(QLatin1String("end_coordinate"))) {
        a.endPoint = pointFromJson(o.value(QLatin1String("end_coordinate")));
        if (!a.endPoint)
            return failed(QStringLiteral("end_coordinate must be [x, y]"));
    }
    a.windowId = quint64(std::max(0.0, o.value(QLatin1String("window_id")).toDouble()));
    if (a.type == Type::ActivateWindow && a.windowId == 0)
        return failed(QStringLiteral("activate_window needs a window_id"));
    a.text = o.value(QLatin1String("text")).toString();
    a.heldKeys = o.value(QLatin1String("held_keys")).toString();
    if (a.type == Type::Scroll) {
        const auto dir =
            platform::scrollDirectionFromString(o.value(QLatin1String("scroll_direction")).toString());
        if (!dir)
            return failed(QStringLiteral("scroll_direction must be up, down, left or right"));
        a.scrollDirection = *dir;
        a.amount = o.value(QLatin1String("scroll_amount")).toInt(1);
    }
    a.durationMs = o.value(QLatin1String("duration_ms")).toInt(0);
    return a;
}

QString Action::describe() const
{
    QString d = toString(type);
    if (!zoneId.isEmpty())
        d += QStringLiteral(" zone ") + zoneId;
    if (point)
        d += QStringLiteral(" at (%1, %2)").arg(point->x()).arg(point->y());
    if (!endZoneId.isEmpty())
        d += QStringLiteral(" to zone ") + endZoneId;
    if (windowId != 0)
        d += QStringLiteral(" window 0x%1").arg(windowId, 0, 16);
    if (endPoint)
        d += QStringLiteral(" to (%1, %2)").arg(endPoint->x()).arg(endPoint->y());
    if (type == Type::Scroll)
        d += QStringLiteral(" %1 x%2").arg(platform::toString(scrollDirection)).arg(amount);
    if (!text.isEmpty())
        d += QStringLiteral(" \"%1\"").arg(secretText ? kMaskedText : text);
    if (!heldKeys.isEmpty())
        d += QStringLiteral(" holding %1").arg(heldKeys);
    return d;
}

QString validate(const Action& action, const ActionLimits& limits)
{
    const QRect screen(QPoint(0, 0), limits.screenSize);
    auto onScreen = [&](const std::optional<QPoint>& p) {
        return !p || screen.isEmpty() || screen.contains(*p);
    };
    if (action.zoneId.isEmpty() && !onScreen(action.point))
        return QStringLiteral("coordinate (%1, %2) is outside the %3x%4 screen")
            .arg(action.point->x())
            .arg(action.point->y())
            .arg(limits.screenSize.width())
            .arg(limits.screenSize.height());
    if (action.endZoneId.isEmpty() && !onScreen(action.endPoint))
        return QStringLiteral("end coordinate is outside the screen");
    if (action.text.size() > limits.maxTextLength)
        return QStringLiteral("text of %1 characters exceeds the limit of %2")
            .arg(action.text.size())
            .arg(limits.maxTextLength);
    if (action.durationMs < 0 || action.durationMs > limits.maxDurationMs)
        return QStringLiteral("duration %1 ms is outside 0..%2 ms")
            .arg(action.durationMs)
            .arg(limits.maxDurationMs);
    switch (action.type) {
    case Action::Type::Scroll:
        if (action.amount < 1 || action.amount > limits.maxScrollClicks)
            return QStringLiteral("scroll amount %1 is outside 1..%2")
                .arg(action.amount)
                .arg(limits.maxScrollClicks);
        break;
    case Action::Type::TypeText:
    case Action::Type::Key:
    case Action::Type::HoldKey:
    case Action::Type::Launch:
        if (action.text.isEmpty())
            return QStringLiteral("%1 needs text").arg(toString(action.type));
        break;
    case Action::Type::ActivateWindow:
        if (action.windowId == 0)
            return QStringLiteral("activate_window needs a window");
        break;
    case Action::Type::LeftClickDrag:
        if (action.endZoneId.isEmpty() && !action.endPoint)
            return QStringLiteral("left_click_drag needs an end zone or coordinate");
        break;
    default:
        break;
    }
    return {};
}

QJsonObject ActionResult::toJson() const
{
    QJsonObject o;
    o[QLatin1String("success")] = success;
    if (!error.isEmpty())
        o[QLatin1String("error")] = error;
    o[QLatin1String("start_ns")] = double(startNs);
    o[QLatin1String("duration_ms")] = double(durationNs) / 1e6;
    o[QLatin1String("point")] = pointJson(pointUsed);
    o[QLatin1String("change_observed")] = changeObserved;
    QJsonArray changesJson;
    for (const ChangeRegion& c : changes)
        changesJson.append(QJsonArray{c.rect.x(), c.rect.y(), c.rect.width(), c.rect.height()});
    o[QLatin1String("changes")] = changesJson;
    if (frameAfter != 0)
        o[QLatin1String("frame_after")] = double(frameAfter);
    if (!output.isEmpty())
        o[QLatin1String("output")] = output;
    return o;
}

} // namespace ciu
