#include "core/brush/heldinputs.h"

#include "core/brush/brushlog.h"

namespace ciu {

bool HeldInputs::releaseKeys(platform::Input& input)
{
    bool ok = true;
    for (auto it = m_keys.crbegin(); it != m_keys.crend(); ++it)
        ok = input.key(*it, false) && ok;
    ok = input.sync() && ok;
    m_keys.clear();
    return ok;
}

void HeldInputs::releaseAll(platform::Input& input)
{
    for (const platform::MouseButton b : std::as_const(m_buttons))
        input.button(b, false);
    for (auto it = m_keys.crbegin(); it != m_keys.crend(); ++it)
        input.key(*it, false);
    if (!m_buttons.isEmpty() || !m_keys.isEmpty()) {
        qCInfo(lcBrush) << "released" << m_buttons.size() << "buttons and" << m_keys.size() << "keys";
        input.sync();
    }
    m_buttons.clear();
    m_keys.clear();
}

} // namespace ciu
