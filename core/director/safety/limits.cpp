#include "core/director/safety/limits.h"

#include <algorithm>

namespace ciu::safety {

IterationBudget::IterationBudget(int maximum)
    : m_maximum(std::max(0, maximum))
{
}

int IterationBudget::warningAt() const
{
    return (m_maximum * 8 + 9) / 10;
}

bool IterationBudget::take()
{
    if (exhausted())
        return false;
    ++m_used;
    if (!m_warned && m_used >= warningAt())
        m_warningDue = true;
    return true;
}

bool IterationBudget::takeWarning()
{
    if (!m_warningDue)
        return false;
    m_warningDue = false;
    m_warned = true;
    return true;
}

bool CostBudget::takeWarning()
{
    if (m_warned || !hasLimit() || m_limitUsd <= 0 || m_spentUsd < 0.8 * m_limitUsd)
        return false;
    m_warned = true;
    return true;
}

} // namespace ciu::safety
