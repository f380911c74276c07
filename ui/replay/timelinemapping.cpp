#include "ui/replay/timelinemapping.h"

#include <QtMath>

#include <cmath>

namespace ciu::ui {

void TimelineMapping::setDuration(qint64 durationNs)
{
    m_durationNs = qMax<qint64>(0, durationNs);
    setZoom(m_zoom);
}

void TimelineMapping::setWidth(int pixels)
{
    m_width = qMax(1, pixels);
    setZoom(m_zoom);
}

void TimelineMapping::setMargins(int left, int right)
{
    m_left = qMax(0, left);
    m_right = qMax(0, right);
    setZoom(m_zoom);
}

int TimelineMapping::trackWidth() const
{
    return qMax(1, m_width - m_left - m_right);
}

double TimelineMapping::maxZoom() const
{
    // Zooming stops at 1 ms per pixel (finer than a frame), and at kMaxZoom.
    const double nsPerPixelAtZoom1 = double(m_durationNs) / trackWidth();
    return qBound(1.0, nsPerPixelAtZoom1 / 1'000'000.0, kMaxZoom);
}

void TimelineMapping::setZoom(double zoom)
{
    if (!std::isfinite(zoom))
        zoom = 1.0;
    m_zoom = qBound(1.0, zoom, maxZoom());
    clampScroll();
}

void TimelineMapping::setScrollNs(qint64 tNs)
{
    m_scrollNs = tNs;
    clampScroll();
}

void TimelineMapping::clampScroll()
{
    const qint64 maxScroll = qMax<qint64>(0, m_durationNs - visibleDurationNs());
    m_scrollNs = qBound<qint64>(0, m_scrollNs, maxScroll);
}

qint64 TimelineMapping::visibleDurationNs() const
{
    return qint64(std::llround(double(m_durationNs) / m_zoom));
}

double TimelineMapping::timeToX(qint64 tNs) const
{
    const qint64 visible = visibleDurationNs();
    if (visible <= 0)
        return m_left;
    return m_left + double(tNs - m_scrollNs) * trackWidth() / double(visible);
}

qint64 TimelineMapping::xToTime(double x) const
{
    const qint64 visible = visibleDurationNs();
    if (visible <= 0)
        return 0;
    const double t = m_scrollNs + (x - m_left) * double(visible) / trackWidth();
    return qBound<qint64>(0, qint64(std::llround(t)), m_durationNs);
}

bool TimelineMapping::isVisible(qint64 tNs) const
{
    return tNs >= m_scrollNs && tNs <= m_scrollNs + visibleDurationNs();
}

void TimelineMapping::zoomAt(double factor, double x)
{
    if (factor <= 0 || !std::isfinite(factor))
        return;
    const double visible = double(visibleDurationNs());
    const double anchor = m_scrollNs + (x - m_left) * visible / trackWidth(); // unclamped time under x
    setZoom(m_zoom * factor);
    const double newVisible = double(visibleDurationNs());
    m_scrollNs = qint64(std::llround(anchor - (x - m_left) * newVisible / trackWidth()));
    clampScroll();
}

void TimelineMapping::ensureVisible(qint64 tNs, int marginPixels)
{
    const qint64 visible = visibleDurationNs();
    const qint64 margin = qint64(double(marginPixels) * double(visible) / trackWidth());
    if (tNs < m_scrollNs + margin)
        m_scrollNs = tNs - margin;
    else if (tNs > m_scrollNs + visible - margin)
        m_scrollNs = tNs - visible + margin;
    clampScroll();
}

qint64 TimelineMapping::tickSpacingNs(int minPixels) const
{
    const double nsPerPixel = double(qMax<qint64>(1, visibleDurationNs())) / trackWidth();
    const double minNs = qMax(1.0, nsPerPixel * qMax(1, minPixels));
    constexpr qint64 kSecond = 1'000'000'000;
    if (minNs <= double(kSecond)) {
        // Below a second: 1, 2, 5 x 10^k ns.
        for (double magnitude = 1.0;; magnitude *= 10.0) {
            for (double m : {1.0, 2.0, 5.0}) {
                if (m * magnitude >= minNs)
                    return qint64(m * magnitude);
            }
        }
    }
    // Clock-like steps above a second.
    for (qint64 s : {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600}) {
        if (double(s * kSecond) >= minNs)
            return s * kSecond;
    }
    const qint64 hours = qint64(std::ceil(minNs / (3600.0 * kSecond)));
    return hours * 3600 * kSecond;
}

QList<qint64> TimelineMapping::ticks(int minPixels) const
{
    QList<qint64> result;
    const qint64 spacing = tickSpacingNs(minPixels);
    const qint64 end = m_scrollNs + visibleDurationNs();
    for (qint64 t = (m_scrollNs + spacing - 1) / spacing * spacing; t <= end && result.size() < 10'000;
         t += spacing)
        result << t;
    return result;
}

QString TimelineMapping::formatTime(qint64 tNs, qint64 spacingNs)
{
    const bool negative = tNs < 0;
    const qint64 abs = negative ? -tNs : tNs;
    const QString sign = negative ? QStringLiteral("-") : QString();
    if (spacingNs < 1'000'000) { // sub-millisecond
        return sign + QStringLiteral("%1 ms").arg(double(abs) / 1e6, 0, 'f', spacingNs < 10'000 ? 3 : 2);
    }
    const qint64 ms = abs / 1'000'000;
    const QString minSec =
        QStringLiteral("%1:%2").arg(ms / 60000).arg((ms / 1000) % 60, 2, 10, QLatin1Char('0'));
    if (spacingNs % 1'000'000'000 == 0)
        return sign + minSec;
    if (spacingNs % 100'000'000 == 0)
        return sign + minSec + QStringLiteral(".%1").arg((ms % 1000) / 100);
    if (spacingNs % 10'000'000 == 0)
        return sign + minSec + QStringLiteral(".%1").arg((ms % 1000) / 10, 2, 10, QLatin1Char('0'));
    return sign + minSec + QStringLiteral(".%1").arg(ms % 1000, 3, 10, QLatin1Char('0'));
}

} // namespace ciu::ui
