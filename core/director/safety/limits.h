#pragma once

#include <QString>

#include <optional>

namespace ciu::safety {

// The iteration budget of a session: a configurable maximum (default 20), a
// warning once 80 % is used, and never one iteration beyond the maximum.
class IterationBudget
{
public:
    explicit IterationBudget(int maximum = 20);

    int maximum() const { return m_maximum; }
    int used() const { return m_used; }
    int remaining() const { return m_maximum - m_used; }
    bool exhausted() const { return m_used >= m_maximum; }
    // The iteration at which the warning is due: ceil(0.8 · maximum).
    int warningAt() const;

    // Takes one iteration; false (and nothing taken) when the budget is exhausted.
    bool take();
    // True exactly once: after the take() that reached warningAt().
    bool takeWarning();

private:
    int m_maximum;
    int m_used = 0;
    bool m_warningDue = false;
    bool m_warned = false;
};

// The cost limit: running cost in USD, auto-stop when it reaches the limit.
// A limit of 0 allows no paid call at all; negative means no limit.
class CostBudget
{
public:
    explicit CostBudget(double limitUsd = 1.0)
        : m_limitUsd(limitUsd)
    {
    }

    double limitUsd() const { return m_limitUsd; }
    double spentUsd() const { return m_spentUsd; }
    bool hasLimit() const { return m_limitUsd >= 0; }
    // True once spending reached the limit: no further call may start.
    bool exhausted() const { return hasLimit() && m_spentUsd >= m_limitUsd; }
    // True when a call estimated at `estimateUsd` would still fit.
    bool allows(double estimateUsd) const { return !hasLimit() || m_spentUsd + estimateUsd <= m_limitUsd; }
    void add(double usd) { m_spentUsd += usd; }
    // True exactly once, when 80 % of the limit is reached.
    bool takeWarning();

private:
    double m_limitUsd;
    double m_spentUsd = 0;
    bool m_warned = false;
};

} // namespace ciu::safety
