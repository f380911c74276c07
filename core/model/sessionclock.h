#pragma once

#include <QtGlobal>

#include <chrono>

namespace ciu {

// The one monotonic clock of a session: nanoseconds since the session started. Frames, cursor samples,
// events, actions and Director decisions all carry times from it so the replay lines them up.
class SessionClock
{
public:
    using clock = std::chrono::steady_clock;

    SessionClock()
        : m_start(clock::now())
    {
    }
    explicit SessionClock(clock::time_point start)
        : m_start(start)
    {
    }

    qint64 nowNs() const { return toNs(clock::now()); }
    qint64 toNs(clock::time_point t) const
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(t - m_start).count();
    }
    clock::time_point start() const { return m_start; }
    // Wall-clock time of the session start in ms since the epoch (for metadata only).
    qint64 startEpochMs() const { return m_startEpochMs; }

private:
    clock::time_point m_start;
    qint64 m_startEpochMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
};

} // namespace ciu
