#include "platform/inputactions.h"

#include <QThread>

#include <cmath>

namespace ciu::platform {
namespace {
constexpr int kMaxClickCount = 3;
constexpr int kMaxScrollClicks = 100;
constexpr int kMaxHoldMs = 100'000;
} // namespace

InputActions::InputActions(Input& input, Pointer& pointer)
    : m_input(input)
    , m_pointer(pointer)
{
}

bool InputActions::fail(const QString& message)
{
    m_error = message;
    return false;
}

bool InputActions::moveTo(QPoint pos)
{
    if (!m_input.moveTo(pos))
        return fail(m_input.errorString());
    return m_input.sync() || fail(m_input.errorString());
}

bool InputActions::moveSmooth(QPoint to, int durationMs, int steps)
{
    const auto from = m_pointer.position();
    if (!from)
        return fail(QStringLiteral("cannot read the cursor position"));
    steps = qMax(1, steps);
    const double stepDelayMs = steps > 1 ? double(qMax(0, durationMs)) / steps : 0.0;
    for (int i = 1; i <= steps; ++i) {
        const double t = double(i) / steps;
        const QPoint p(int(std::lround(from->x() + (to.x() - from->x()) * t)),
                       int(std::lround(from->y() + (to.y() - from->y()) * t)));
        if (!m_input.moveTo(p))
            return fail(m_input.errorString());
        if (stepDelayMs > 0) {
            m_input.sync();
            QThread::usleep(static_cast<unsigned long>(stepDelayMs * 1000));
        }
    }
    return m_input.sync() || fail(m_input.errorString());
}

bool InputActions::pressCombo(const KeyCombo& combo)
{
    for (const Keysym mod : combo.modifiers) {
        if (!m_input.key(mod, true))
            return fail(m_input.errorString());
    }
    if (combo.key != 0 && !m_input.key(combo.key, true))
        return fail(m_input.errorString());
    return true;
}

bool InputActions::releaseCombo(const KeyCombo& combo)
{
    bool ok = true;
    if (combo.key != 0)
        ok = m_input.key(combo.key, false) && ok;
    for (auto it = combo.modifiers.crbegin(); it != combo.modifiers.crend(); ++it)
        ok = m_input.key(*it, false) && ok;
    return ok || fail(m_input.errorString());
}

bool InputActions::withHeldKeys(const QString& heldKeys, const std::function<bool()>& action)
{
    if (heldKeys.trimmed().isEmpty())
        return action();
    const KeyParseResult parsed = parseKeySequence(heldKeys);
    if (!parsed.ok())
        return fail(parsed.error);
    if (parsed.combos.size() != 1)
        return fail(QStringLiteral("held keys must be one combination, got \"%1\"").arg(heldKeys));
    const KeyCombo& combo = parsed.combos.first();
    if (!pressCombo(combo)) {
        releaseCombo(combo);
        return false;
    }
    const bool ok = action();
    const QString actionError = m_error;
    const bool released = releaseCombo(combo);
    m_input.sync();
    if (!ok) {
        m_error = actionError;
        return false;
    }
    return released;
}

bool InputActions::click(MouseButton button, int count, const QString& heldKeys)
{
    if (count < 1 || count > kMaxClickCount)
        return fail(QStringLiteral("click count must be 1 to %1, got %2").arg(kMaxClickCount).arg(count));
    return withHeldKeys(heldKeys, [&] {
        for (int i = 0; i < count; ++i) {
            if (!m_input.button(button, true) || !m_input.button(button, false))
                return fail(m_input.errorString());
        }
        return m_input.sync() || fail(m_input.errorString());
    });
}

bool InputActions::clickAt(QPoint pos, MouseButton button, int count, const QString& heldKeys)
{
    return moveTo(pos) && click(button, count, heldKeys);
}

bool InputActions::buttonDown(MouseButton button)
{
    return (m_input.button(button, true) && m_input.sync()) || fail(m_input.errorString());
}

bool InputActions::buttonUp(MouseButton button)
{
    return (m_input.button(button, false) && m_input.sync()) || fail(m_input.errorString());
}

bool InputActions::drag(QPoint from, QPoint to, MouseButton button, int steps)
{
    if (!moveTo(from))
        return false;
    if (!buttonDown(button))
        return false;
    // Intermediate motion so toolkits see a drag rather than a press and a release far apart.
    steps = qMax(2, steps);
    for (int i = 1; i <= steps; ++i) {
        const double t = double(i) / steps;
        const QPoint p(int(std::lround(from.x() + (to.x() - from.x()) * t)),
                       int(std::lround(from.y() + (to.y() - from.y()) * t)));
        if (!m_input.moveTo(p) || !m_input.sync()) {
            const QString error = m_input.errorString();
            m_input.button(button, false);
            return fail(error);
        }
        QThread::msleep(5);
    }
    return buttonUp(button);
}

bool InputActions::scroll(ScrollDirection direction, int clicks, const QString& heldKeys)
{
    if (clicks < 1 || clicks > kMaxScrollClicks)
        return fail(
            QStringLiteral("scroll amount must be 1 to %1 clicks, got %2").arg(kMaxScrollClicks).arg(clicks));
    return withHeldKeys(heldKeys, [&] {
        for (int i = 0; i < clicks; ++i) {
            if (!m_input.wheel(direction))
                return fail(m_input.errorString());
        }
        return m_input.sync() || fail(m_input.errorString());
    });
}

bool InputActions::scrollAt(QPoint pos, ScrollDirection direction, int clicks, const QString& heldKeys)
{
    return moveTo(pos) && scroll(direction, clicks, heldKeys);
}

bool InputActions::keys(const QString& sequence)
{
    const KeyParseResult parsed = parseKeySequence(sequence);
    if (!parsed.ok())
        return fail(parsed.error);
    for (const KeyCombo& combo : parsed.combos) {
        const bool pressed = pressCombo(combo);
        const QString error = m_error;
        const bool released = releaseCombo(combo);
        if (!pressed)
            return fail(error);
        if (!released)
            return false;
    }
    return m_input.sync() || fail(m_input.errorString());
}

bool InputActions::keyDown(const QString& name)
{
    const auto sym = keysymFromName(name);
    if (!sym)
        return fail(QStringLiteral("unknown key name \"%1\"").arg(name));
    return (m_input.key(*sym, true) && m_input.sync()) || fail(m_input.errorString());
}

bool InputActions::keyUp(const QString& name)
{
    const auto sym = keysymFromName(name);
    if (!sym)
        return fail(QStringLiteral("unknown key name \"%1\"").arg(name));
    return (m_input.key(*sym, false) && m_input.sync()) || fail(m_input.errorString());
}

bool InputActions::holdKey(const QString& sequence, int durationMs)
{
    if (durationMs < 0 || durationMs > kMaxHoldMs)
        return fail(
            QStringLiteral("hold duration must be 0 to %1 ms, got %2").arg(kMaxHoldMs).arg(durationMs));
    const KeyParseResult parsed = parseKeySequence(sequence);
    if (!parsed.ok())
        return fail(parsed.error);
    if (parsed.combos.size() != 1)
        return fail(QStringLiteral("hold_key takes one key combination, got \"%1\"").arg(sequence));
    const KeyCombo& combo = parsed.combos.first();
    if (!pressCombo(combo)) {
        releaseCombo(combo);
        return false;
    }
    m_input.sync();
    QThread::msleep(static_cast<unsigned long>(durationMs));
    return releaseCombo(combo) && (m_input.sync() || fail(m_input.errorString()));
}

bool InputActions::type(const QString& text, int perCharDelayMs)
{
    if (text.isEmpty())
        return true;
    return (m_input.typeText(text, perCharDelayMs) && m_input.sync()) || fail(m_input.errorString());
}

} // namespace ciu::platform
