#include "platform/types.h"

namespace ciu::platform {

QString toString(MouseButton button)
{
    switch (button) {
    case MouseButton::Left:
        return QStringLiteral("left");
    case MouseButton::Middle:
        return QStringLiteral("middle");
    case MouseButton::Right:
        return QStringLiteral("right");
    }
    return {};
}

QString toString(ScrollDirection direction)
{
    switch (direction) {
    case ScrollDirection::Up:
        return QStringLiteral("up");
    case ScrollDirection::Down:
        return QStringLiteral("down");
    case ScrollDirection::Left:
        return QStringLiteral("left");
    case ScrollDirection::Right:
        return QStringLiteral("right");
    }
    return {};
}

std::optional<MouseButton> mouseButtonFromString(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("left") || n == QLatin1String("1"))
        return MouseButton::Left;
    if (n == QLatin1String("middle") || n == QLatin1String("2"))
        return MouseButton::Middle;
    if (n == QLatin1String("right") || n == QLatin1String("3"))
        return MouseButton::Right;
    return std::nullopt;
}

std::optional<ScrollDirection> scrollDirectionFromString(const QString& name)
{
    const QString n = name.trimmed().toLower();
    if (n == QLatin1String("up"))
        return ScrollDirection::Up;
    if (n == QLatin1String("down"))
        return ScrollDirection::Down;
    if (n == QLatin1String("left"))
        return ScrollDirection::Left;
    if (n == QLatin1String("right"))
        return ScrollDirection::Right;
    return std::nullopt;
}

} // namespace ciu::platform
