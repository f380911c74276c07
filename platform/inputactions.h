#pragma once

#include "platform/input.h"
#include "platform/pointer.h"

#include <QString>

#include <functional>

namespace ciu::platform {

// The complete action set on top of the Input primitives. Returns false with
// errorString() set on the first failing step; a failed step releases whatever it had pressed.
class InputActions
{
public:
    InputActions(Input& input, Pointer& pointer);

    bool moveTo(QPoint pos);
    // Moves in `steps` straight-line steps over `durationMs` (smooth movement option).
    bool moveSmooth(QPoint to, int durationMs, int steps);
    bool click(MouseButton button, int count = 1, const QString& heldKeys = {});
    bool clickAt(QPoint pos, MouseButton button, int count = 1, const QString& heldKeys = {});
    bool buttonDown(MouseButton button);
    bool buttonUp(MouseButton button);
    bool drag(QPoint from, QPoint to, MouseButton button = MouseButton::Left, int steps = 10);
    bool scroll(ScrollDirection direction, int clicks, const QString& heldKeys = {});
    bool scrollAt(QPoint pos, ScrollDirection direction, int clicks, const QString& heldKeys = {});
    // xdotool syntax, may hold several combos separated by spaces.
    bool keys(const QString& sequence);
    bool keyDown(const QString& name);
    bool keyUp(const QString& name);
    bool holdKey(const QString& sequence, int durationMs);
    bool type(const QString& text, int perCharDelayMs = 0);

    QString errorString() const { return m_error; }

private:
    bool fail(const QString& message);
    bool pressCombo(const KeyCombo& combo);
    bool releaseCombo(const KeyCombo& combo);
    bool withHeldKeys(const QString& heldKeys, const std::function<bool()>& action);

    Input& m_input;
    Pointer& m_pointer;
    QString m_error;
};

} // namespace ciu::platform
