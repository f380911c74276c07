#include "core/brush/pointerguard.h"

#include <QLineF>

#include <algorithm>
#include <cstdlib>

namespace ciu {

bool PointerGuard::inFailSafeCorner(QPoint pos) const
{
    const int t = std::max(0, m_settings.failSafeTolerancePx);
    return std::abs(pos.x() - m_settings.failSafeCorner.x()) <= t &&
           std::abs(pos.y() - m_settings.failSafeCorner.y()) <= t;
}

QPoint PointerGuard::outsideFailSafeCorner(QPoint pos) const
{
    if (!m_settings.failSafeEnabled || !inFailSafeCorner(pos))
        return pos;
    const int t = m_settings.failSafeTolerancePx + 1;
    return QPoint(m_settings.failSafeCorner.x() + (pos.x() >= m_settings.failSafeCorner.x() ? t : -t),
                  pos.y());
}

PointerGuard::Verdict PointerGuard::check(QPoint pos) const
{
    if (m_settings.failSafeEnabled && !m_failSafe && inFailSafeCorner(pos))
        return Verdict::FailSafe;
    if (m_failSafe)
        return Verdict::FailSafeActive;
    if (m_settings.takeoverDetection && m_lastCommanded &&
        QLineF(pos, *m_lastCommanded).length() > m_settings.lostTolerancePx)
        return Verdict::Takeover;
    return Verdict::Ok;
}

} // namespace ciu
