#include "core/providers/retrypolicy.h"

#include <QLocale>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace ciu::director::retry {

QByteArray header(const HttpHeaders& headers, const QByteArray& name)
{
    for (const auto& [key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value.trimmed();
    }
    return {};
}

bool shouldRetry(int status, const HttpHeaders& headers)
{
    const QByteArray should = header(headers, "x-should-retry");
    if (should == "true")
        return true;
    if (should == "false")
        return false;
    if (status == 0)
        return true; // connection error or timeout
    return status == 408 || status == 409 || status == 429 || status >= 500;
}

namespace {
std::optional<QDateTime> parseHttpDate(const QByteArray& text)
{
    const QString s = QString::fromLatin1(text).trimmed();
    // RFC 7231 IMF-fixdate, plus the obsolete RFC 850 and asctime forms.
    static const char* formats[] = {"ddd, dd MMM yyyy HH:mm:ss 'GMT'", "dddd, dd-MMM-yy HH:mm:ss 'GMT'",
                                    "ddd MMM d HH:mm:ss yyyy"};
    const QLocale c = QLocale::c();
    for (const char* format : formats) {
        QDateTime t = c.toDateTime(s, QString::fromLatin1(format));
        if (t.isValid()) {
            t.setTimeZone(QTimeZone::utc());
            return t;
        }
    }
    return std::nullopt;
}
} // namespace

std::optional<qint64> retryAfterMs(const HttpHeaders& headers, const QDateTime& now)
{
    std::optional<double> seconds;
    const QByteArray ms = header(headers, "retry-after-ms");
    if (!ms.isEmpty()) {
        bool ok = false;
        const double v = ms.toDouble(&ok);
        if (ok && std::isfinite(v))
            seconds = v / 1000.0;
    }
    if (!seconds) {
        const QByteArray after = header(headers, "retry-after");
        if (!after.isEmpty()) {
            bool ok = false;
            const double v = after.toDouble(&ok);
            if (ok && std::isfinite(v)) {
                seconds = v;
            } else if (const auto date = parseHttpDate(after)) {
                seconds = double(now.msecsTo(*date)) / 1000.0;
            }
        }
    }
    if (seconds && *seconds > 0.0 && *seconds <= 60.0)
        return qint64(std::llround(*seconds * 1000.0));
    return std::nullopt;
}

qint64 delayMs(int retriesSoFar, const HttpHeaders& headers, double random01, const QDateTime& now)
{
    if (const auto after = retryAfterMs(headers, now))
        return *after;
    const int n = std::clamp(retriesSoFar, 0, 1000);
    const double sleepSeconds = std::min(0.5 * std::pow(2.0, n), 8.0);
    const double jitter = 1.0 - 0.25 * std::clamp(random01, 0.0, 1.0);
    return std::max<qint64>(0, qint64(std::llround(sleepSeconds * jitter * 1000.0)));
}

} // namespace ciu::director::retry
