#include "core/director/mapwaiter.h"

#include <algorithm>
#include <utility>

namespace ciu {

MapWaiter::MapWaiter(QObject* owner, std::function<const ZoneMap*()> currentMap)
    : m_timer(owner)
    , m_currentMap(std::move(currentMap))
{
    m_timer.setSingleShot(true);
    QObject::connect(&m_timer, &QTimer::timeout, &m_timer, [this] { end(false); });
}

void MapWaiter::end(bool arrived)
{
    m_timer.stop();
    auto then = std::move(m_then);
    m_predicate = {};
    m_then = {};
    if (then)
        then(arrived);
}

void MapWaiter::wait(const Predicate& predicate, int timeoutMs, std::function<void(bool)> then)
{
    m_predicate = predicate;
    m_then = std::move(then);
    m_timer.start(std::max(0, timeoutMs));
    check();
}

void MapWaiter::check()
{
    const ZoneMap* map = m_currentMap();
    if (m_predicate && map && m_predicate(*map))
        end(true);
}

void MapWaiter::waitForQuiet(qint64 deadlineNs, int quietMs, const SessionClock& clock,
                             std::function<void()> then)
{
    const ZoneMap* map = m_currentMap();
    const quint64 now = map ? map->version() : 0;
    const qint64 leftMs = (deadlineNs - clock.nowNs()) / 1'000'000;
    if (leftMs <= 0) {
        then();
        return;
    }
    wait([now](const ZoneMap& m) { return m.version() > now; }, int(std::min<qint64>(quietMs, leftMs)),
         [this, deadlineNs, quietMs, clock, then = std::move(then)](bool arrived) mutable {
             if (arrived)
                 waitForQuiet(deadlineNs, quietMs, clock, std::move(then));
             else
                 then();
         });
}

void MapWaiter::cancel()
{
    m_timer.stop();
    m_predicate = {};
    m_then = {};
    m_lookPending = 0;
}

quint64 MapWaiter::beginLook(qint64 askedNs)
{
    m_lookAskedNs = askedNs;
    m_lookPending = ++m_lastLookToken;
    return m_lookPending;
}

void MapWaiter::endLook(quint64 token)
{
    if (m_lookPending == token)
        m_lookPending = 0;
}

bool MapWaiter::takeAnswer(quint64 token)
{
    if (token == 0 || token != m_lookPending)
        return false;
    m_lookPending = 0;
    m_lookAnswered = token;
    m_caughtUpNs = std::max(m_caughtUpNs, m_lookAskedNs);
    return true;
}

} // namespace ciu
