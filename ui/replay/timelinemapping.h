#pragma once

#include <QList>
#include <QString>

namespace ciu::ui {

// The replay timeline's mapping between session time and pixels: zoom (1 = the whole session fits), a
// scroll offset (the time at the left edge), margins, clamping, and "nice" tick spacing. A plain class
// with no widget so it is tested on its own.
class TimelineMapping
{
public:
    static constexpr double kMaxZoom = 10'000.0;

    void setDuration(qint64 durationNs);
    void setWidth(int pixels);
    void setMargins(int left, int right);
    // Clamped to [1, maxZoom()]; keeps the scroll offset valid.
    void setZoom(double zoom);
    // The time at the left edge of the track; clamped so the view never runs past either end.
    void setScrollNs(qint64 tNs);

    qint64 durationNs() const { return m_durationNs; }
    int width() const { return m_width; }
    double zoom() const { return m_zoom; }
    qint64 scrollNs() const { return m_scrollNs; }
    // Zooming stops at 1 ms per pixel (and at kMaxZoom).
    double maxZoom() const;
    int trackWidth() const; // width minus margins, at least 1
    int leftMargin() const { return m_left; }
    qint64 visibleDurationNs() const;

    // x (widget pixels) of a time; outside the track when the time is scrolled out of view.
    double timeToX(qint64 tNs) const;
    // The time under x, clamped to [0, duration].
    qint64 xToTime(double x) const;
    bool isVisible(qint64 tNs) const;

    // Zooms by `factor` keeping the time under x where it is.
    void zoomAt(double factor, double x);
    // Scrolls the least amount that brings tNs into view (with `marginPixels` to spare).
    void ensureVisible(qint64 tNs, int marginPixels = 20);

    // The smallest step of 1, 2 or 5 × 10^k ms (or ns below a ms) at least `minPixels` apart.
    qint64 tickSpacingNs(int minPixels) const;
    // Tick times in view, multiples of the spacing.
    QList<qint64> ticks(int minPixels) const;
    // "1:05", "1:05.250", "0.120 s" ... precise enough for the spacing.
    static QString formatTime(qint64 tNs, qint64 spacingNs = 1'000'000'000);

private:
    void clampScroll();

    qint64 m_durationNs = 0;
    int m_width = 1;
    int m_left = 0;
    int m_right = 0;
    double m_zoom = 1.0;
    qint64 m_scrollNs = 0;
};

} // namespace ciu::ui
