#pragma once

#include "platform/input.h"

#include <QList>

namespace ciu {

// The mouse buttons and keys the brush is holding down (a drag, left_mouse_down, hold_key), so that they
// can all be let go: on a failed action, a takeover, the fail-safe, stop, or when the brush goes away.
// Nothing is ever left pressed behind.
class HeldInputs final
{
public:
    bool holdsButton(platform::MouseButton button) const { return m_buttons.contains(button); }
    void addButton(platform::MouseButton button) { m_buttons << button; }
    void removeButton(platform::MouseButton button) { m_buttons.removeAll(button); }
    void addKey(platform::Keysym key) { m_keys << key; }

    // Releases the held keys (last pressed first) and syncs; false when one of them failed (all are still
    // attempted and forgotten).
    bool releaseKeys(platform::Input& input);
    // Releases everything held, and syncs when anything was.
    void releaseAll(platform::Input& input);

private:
    QList<platform::MouseButton> m_buttons;
    QList<platform::Keysym> m_keys;
};

} // namespace ciu
