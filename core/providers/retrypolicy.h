#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QPair>

#include <optional>

namespace ciu::director {

using HttpHeaders = QList<QPair<QByteArray, QByteArray>>;

// The official SDKs' retry policy: obey x-should-retry if present, else retry 408, 409,
// 429, ≥ 500, connection errors and timeouts; wait retry-after-ms / retry-after (seconds or HTTP date) when
// it is in (0, 60] s, else min(0.5 · 2^n, 8) s · (1 − 0.25 · rand) where n counts the retries made so far.
namespace retry {

// status 0: no HTTP response (connection error or timeout).
bool shouldRetry(int status, const HttpHeaders& headers);
// The server's requested delay in ms, if valid (0 < d ≤ 60 s). `now` for HTTP dates.
std::optional<qint64> retryAfterMs(const HttpHeaders& headers, const QDateTime& now);
// Delay before retry number `retriesSoFar` + 1; `random01` in [0, 1).
qint64 delayMs(int retriesSoFar, const HttpHeaders& headers, double random01, const QDateTime& now);
// Case-insensitive header lookup.
QByteArray header(const HttpHeaders& headers, const QByteArray& name);

} // namespace retry
} // namespace ciu::director
