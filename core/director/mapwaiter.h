#pragma once

#include "core/model/sessionclock.h"
#include "core/model/zonemap.h"

#include <QTimer>

#include <functional>

namespace ciu {

// Waiting for zone maps, as the Director's steps do (the first map of a task, a re-analysis, a disabled zone
// becoming enabled, the effect of an action): one wait at a time for a map meeting a predicate — the
// current one or a later one (check() on each new map) — bounded by a timeout; waiting for the maps to stop
// coming; and the account of second looks (the look waited for, the one the canvas answered last).
class MapWaiter
{
public:
    using Predicate = std::function<bool(const ZoneMap&)>;

    // `owner`: the QObject whose thread runs the timeouts (the timer is its child); `currentMap`: the zone
    // map as it is now (null: none yet).
    MapWaiter(QObject* owner, std::function<const ZoneMap*()> currentMap);
    MapWaiter(const MapWaiter&) = delete;
    MapWaiter& operator=(const MapWaiter&) = delete;

    // Calls then(true) as soon as the current map meets `predicate` (checked now and by check()), else
    // then(false) after `timeoutMs`. A new wait replaces the one in progress (its `then` is never called).
    void wait(const Predicate& predicate, int timeoutMs, std::function<void(bool)> then);
    // A new map came (or a second look was answered): ends the wait if the current map meets its predicate.
    void check();
    // Calls `then` once no new map came for `quietMs`, or at `deadlineNs` of `clock`.
    void waitForQuiet(qint64 deadlineNs, int quietMs, const SessionClock& clock, std::function<void()> then);
    // The task ended: ends the wait without calling its `then`, and no second look is waited for any more.
    void cancel();

    // Second looks: a new token (the look waited for from now on), asked for at `askedNs`; whether the canvas
    // answered `token`; the end of the wait for `token` (a later answer is too late); and an answer of the
    // canvas: true when it is the look waited for (it counts as answered).
    quint64 beginLook(qint64 askedNs);
    bool lookAnswered(quint64 token) const { return m_lookAnswered == token; }
    void endLook(quint64 token);
    bool takeAnswer(quint64 token);
    // When the latest look the canvas answered was asked for (0: none): the canvas had analysed the screen
    // as it was then, whatever the time of its map (an unchanged map keeps the time of its frame).
    qint64 caughtUpNs() const { return m_caughtUpNs; }

private:
    // Ends the wait in progress: its `then` is called (once) with whether the map came.
    void end(bool arrived);

    QTimer m_timer;
    std::function<const ZoneMap*()> m_currentMap;
    Predicate m_predicate; // the map waited for (empty: no wait)
    std::function<void(bool)> m_then;
    quint64 m_lastLookToken = 0; // of the latest second look asked for
    quint64 m_lookPending = 0;   // the second look waited for (0: none)
    quint64 m_lookAnswered = 0;  // the latest second look the canvas answered
    qint64 m_lookAskedNs = 0;    // when the look waited for was asked for
    qint64 m_caughtUpNs = 0;     // when the look answered last was asked for
};

} // namespace ciu
