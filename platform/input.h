#pragma once

#include "platform/keys.h"
#include "platform/types.h"

#include <QString>

namespace ciu::platform {

// Primitive synthetic input. Compound operations (clicks with counts, drags, key combos, holds) are
// built on these by InputActions so that every backend behaves the same.
class Input
{
public:
    virtual ~Input() = default;

    virtual bool moveTo(QPoint rootPos) = 0;
    virtual bool button(MouseButton button, bool down) = 0;
    // One wheel click in a direction at the current cursor position.
    virtual bool wheel(ScrollDirection direction) = 0;
    // Press or release one key identified by its keysym (see keys.h).
    virtual bool key(Keysym keysym, bool down) = 0;
    // Types text as the user would, including characters absent from the keyboard map.
    virtual bool typeText(const QString& text, int perCharDelayMs = 0) = 0;
    // Pushes pending requests to the server and waits until it has processed them.
    virtual bool sync() = 0;
    // Waits until the input sent so far has taken effect for everyone who may hold it back: a window
    // manager's synchronous grab freezes the pointer after a button press until the manager has handled the
    // press, and until then the pointer reads where it was. Called when the pointer is not where it was sent
    // (before that is taken for the user's hand); slower than sync(). False when the display is gone.
    virtual bool settle() { return sync(); }

    virtual QString errorString() const = 0;
};

} // namespace ciu::platform
