// TimelineMapping: time <-> pixel with zoom, scroll, clamping and tick spacing (data-driven).

#include "ui/replay/timelinemapping.h"

#include <QTest>

using ciu::ui::TimelineMapping;

namespace {
constexpr qint64 kSec = 1'000'000'000;
constexpr qint64 kMs = 1'000'000;
} // namespace

class TestTimelineMapping : public QObject
{
    Q_OBJECT
private slots:
    void timeToX_data();
    void timeToX();
    void xToTimeClamps_data();
    void xToTimeClamps();
    void zoomClamps_data();
    void zoomClamps();
    void scrollClamps_data();
    void scrollClamps();
    void zoomAtKeepsAnchor_data();
    void zoomAtKeepsAnchor();
    void ensureVisible_data();
    void ensureVisible();
    void tickSpacing_data();
    void tickSpacing();
    void ticksInView();
    void formatTime_data();
    void formatTime();
    void emptySession();
};

static TimelineMapping make(qint64 durationNs, int width, double zoom = 1, qint64 scrollNs = 0, int left = 0,
                            int right = 0)
{
    TimelineMapping m;
    m.setDuration(durationNs);
    m.setWidth(width);
    m.setMargins(left, right);
    m.setZoom(zoom);
    m.setScrollNs(scrollNs);
    return m;
}

void TestTimelineMapping::timeToX_data()
{
    QTest::addColumn<qint64>("duration");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("left");
    QTest::addColumn<double>("zoom");
    QTest::addColumn<qint64>("scroll");
    QTest::addColumn<qint64>("t");
    QTest::addColumn<double>("x");
    QTest::newRow("start") << 100 * kSec << 1000 << 0 << 1.0 << qint64(0) << qint64(0) << 0.0;
    QTest::newRow("middle") << 100 * kSec << 1000 << 0 << 1.0 << qint64(0) << 50 * kSec << 500.0;
    QTest::newRow("end") << 100 * kSec << 1000 << 0 << 1.0 << qint64(0) << 100 * kSec << 1000.0;
    QTest::newRow("margins") << 100 * kSec << 1020 << 10 << 1.0 << qint64(0) << 50 * kSec << 510.0;
    QTest::newRow("zoom 4") << 100 * kSec << 1000 << 0 << 4.0 << qint64(0) << 25 * kSec << 1000.0;
    QTest::newRow("zoom 4 scrolled") << 100 * kSec << 1000 << 0 << 4.0 << 50 * kSec << 60 * kSec << 400.0;
    QTest::newRow("scrolled out left") << 100 * kSec << 1000 << 0 << 4.0 << 50 * kSec << 40 * kSec << -400.0;
}

void TestTimelineMapping::timeToX()
{
    QFETCH(qint64, duration);
    QFETCH(int, width);
    QFETCH(int, left);
    QFETCH(double, zoom);
    QFETCH(qint64, scroll);
    QFETCH(qint64, t);
    QFETCH(double, x);
    const TimelineMapping m = make(duration, width, zoom, scroll, left, left);
    QCOMPARE(m.timeToX(t), x);
    // And back, for points on the track.
    if (x >= left && x <= width - left)
        QCOMPARE(m.xToTime(x), t);
}

void TestTimelineMapping::xToTimeClamps_data()
{
    QTest::addColumn<double>("x");
    QTest::addColumn<qint64>("t");
    QTest::newRow("left of the track") << -50.0 << qint64(0);
    QTest::newRow("in the left margin") << 5.0 << qint64(0);
    QTest::newRow("right of the track") << 5000.0 << 10 * kSec;
    QTest::newRow("quarter") << 10.0 + 250.0 << 10 * kSec / 4;
}

void TestTimelineMapping::xToTimeClamps()
{
    QFETCH(double, x);
    QFETCH(qint64, t);
    const TimelineMapping m = make(10 * kSec, 1020, 1, 0, 10, 10);
    QCOMPARE(m.xToTime(x), t);
}

void TestTimelineMapping::zoomClamps_data()
{
    QTest::addColumn<qint64>("duration");
    QTest::addColumn<double>("requested");
    QTest::addColumn<double>("expected");
    QTest::newRow("below 1") << 100 * kSec << 0.2 << 1.0;
    QTest::newRow("nan") << 100 * kSec << qQNaN() << 1.0;
    QTest::newRow("in range") << 100 * kSec << 8.0 << 8.0;
    // 100 s over 1000 px is 100 ms/px; zooming stops at 1 ms/px.
    QTest::newRow("beyond 1 ms per pixel") << 100 * kSec << 1000.0 << 100.0;
    QTest::newRow("tiny session cannot zoom") << 500 * kMs << 4.0 << 1.0;
    QTest::newRow("huge session stops at max") << 10'000'000 * kSec << 1e9 << TimelineMapping::kMaxZoom;
}

void TestTimelineMapping::zoomClamps()
{
    QFETCH(qint64, duration);
    QFETCH(double, requested);
    QFETCH(double, expected);
    const TimelineMapping m = make(duration, 1000, requested);
    QCOMPARE(m.zoom(), expected);
}

void TestTimelineMapping::scrollClamps_data()
{
    QTest::addColumn<double>("zoom");
    QTest::addColumn<qint64>("requested");
    QTest::addColumn<qint64>("expected");
    QTest::newRow("no zoom: no scroll") << 1.0 << 30 * kSec << qint64(0);
    QTest::newRow("negative") << 2.0 << -5 * kSec << qint64(0);
    QTest::newRow("in range") << 2.0 << 30 * kSec << 30 * kSec;
    QTest::newRow("past the end") << 2.0 << 90 * kSec << 50 * kSec;
}

void TestTimelineMapping::scrollClamps()
{
    QFETCH(double, zoom);
    QFETCH(qint64, requested);
    QFETCH(qint64, expected);
    TimelineMapping m = make(100 * kSec, 1000, zoom, requested);
    QCOMPARE(m.scrollNs(), expected);
    // Zooming out again re-clamps the scroll.
    m.setZoom(1.0);
    QCOMPARE(m.scrollNs(), qint64(0));
}

void TestTimelineMapping::zoomAtKeepsAnchor_data()
{
    QTest::addColumn<double>("factor");
    QTest::addColumn<double>("x");
    QTest::newRow("in at centre") << 2.0 << 500.0;
    QTest::newRow("in at a quarter") << 4.0 << 250.0;
    QTest::newRow("in, then the anchor") << 1.5 << 800.0;
}

void TestTimelineMapping::zoomAtKeepsAnchor()
{
    QFETCH(double, factor);
    QFETCH(double, x);
    TimelineMapping m = make(100 * kSec, 1000, 2.0, 20 * kSec);
    const qint64 before = m.xToTime(x);
    m.zoomAt(factor, x);
    QCOMPARE(m.zoom(), 2.0 * factor);
    QVERIFY(qAbs(m.xToTime(x) - before) <= 1);
    // Zooming back out restores the view.
    m.zoomAt(1.0 / factor, x);
    QCOMPARE(m.zoom(), 2.0);
    QVERIFY(qAbs(m.xToTime(x) - before) <= 1);
}

void TestTimelineMapping::ensureVisible_data()
{
    QTest::addColumn<qint64>("t");
    QTest::addColumn<qint64>("expectedScroll");
    // zoom 4 of 100 s: 25 s visible, 1000 px: 25 ms/px; margin 20 px = 0.5 s
    QTest::newRow("already visible") << 30 * kSec << 20 * kSec;
    QTest::newRow("right of view") << 60 * kSec << 60 * kSec - 25 * kSec + kSec / 2;
    QTest::newRow("left of view") << 10 * kSec << 10 * kSec - kSec / 2;
    QTest::newRow("start") << qint64(0) << qint64(0);
    QTest::newRow("end") << 100 * kSec << 75 * kSec;
}

void TestTimelineMapping::ensureVisible()
{
    QFETCH(qint64, t);
    QFETCH(qint64, expectedScroll);
    TimelineMapping m = make(100 * kSec, 1000, 4.0, 20 * kSec);
    m.ensureVisible(t, 20);
    QCOMPARE(m.scrollNs(), expectedScroll);
    QVERIFY(m.isVisible(t));
}

void TestTimelineMapping::tickSpacing_data()
{
    QTest::addColumn<qint64>("duration");
    QTest::addColumn<double>("zoom");
    QTest::addColumn<int>("minPixels");
    QTest::addColumn<qint64>("spacing");
    // 1000 px
    QTest::newRow("10 s, 80 px") << 10 * kSec << 1.0 << 80 << kSec;               // 0.8 s → 1 s
    QTest::newRow("10 s, 50 px") << 10 * kSec << 1.0 << 50 << 500 * kMs;          // 0.5 s
    QTest::newRow("60 s, 80 px") << 60 * kSec << 1.0 << 80 << 5 * kSec;           // 4.8 s → 5 s
    QTest::newRow("10 min, 80 px") << 600 * kSec << 1.0 << 80 << 60 * kSec;       // 48 s → 1 min
    QTest::newRow("1 h, 80 px") << 3600 * kSec << 1.0 << 80 << 5 * 60 * kSec;     // 288 s → 5 min
    QTest::newRow("zoomed to 1 ms/px") << 100 * kSec << 100.0 << 80 << 100 * kMs; // 80 ms → 100 ms
    QTest::newRow("short session") << 1 * kSec << 1.0 << 80 << 100 * kMs;
}

void TestTimelineMapping::tickSpacing()
{
    QFETCH(qint64, duration);
    QFETCH(double, zoom);
    QFETCH(int, minPixels);
    QFETCH(qint64, spacing);
    const TimelineMapping m = make(duration, 1000, zoom);
    const qint64 got = m.tickSpacingNs(minPixels);
    // Ticks are at least minPixels apart...
    QVERIFY(m.timeToX(got) - m.timeToX(0) >= minPixels - 1e-9);
    QCOMPARE(got, spacing);
}

void TestTimelineMapping::ticksInView()
{
    const TimelineMapping m = make(100 * kSec, 1000, 4.0, 21 * kSec + 300 * kMs);
    const QList<qint64> ticks = m.ticks(80);
    QVERIFY(!ticks.isEmpty());
    const qint64 spacing = m.tickSpacingNs(80);
    QCOMPARE(ticks.first(), 22 * kSec); // first multiple of 2 s at or after 21.3 s
    for (qint64 t : ticks) {
        QVERIFY(m.isVisible(t));
        QCOMPARE(t % spacing, qint64(0));
    }
}

void TestTimelineMapping::formatTime_data()
{
    QTest::addColumn<qint64>("t");
    QTest::addColumn<qint64>("spacing");
    QTest::addColumn<QString>("text");
    QTest::newRow("seconds") << 65 * kSec << kSec << "1:05";
    QTest::newRow("tenths") << 65 * kSec + 250 * kMs << 500 * kMs << "1:05.2";
    QTest::newRow("hundredths") << 5 * kSec + 250 * kMs << 50 * kMs << "0:05.25";
    QTest::newRow("ms") << 5 * kSec + 257 * kMs << 5 * kMs << "0:05.257";
    QTest::newRow("sub-ms") << qint64(1'750'000) << qint64(500'000) << QStringLiteral("1.75 ms");
    QTest::newRow("negative") << -3 * kSec << kSec << "-0:03";
    QTest::newRow("an hour") << 3700 * kSec << kSec << "61:40";
}

void TestTimelineMapping::formatTime()
{
    QFETCH(qint64, t);
    QFETCH(qint64, spacing);
    QFETCH(QString, text);
    QCOMPARE(TimelineMapping::formatTime(t, spacing), text);
}

void TestTimelineMapping::emptySession()
{
    TimelineMapping m = make(0, 0, 5.0, 100);
    QCOMPARE(m.zoom(), 1.0);
    QCOMPARE(m.scrollNs(), qint64(0));
    QCOMPARE(m.trackWidth(), 1);
    QCOMPARE(m.xToTime(500), qint64(0));
    QVERIFY(!m.ticks(80).isEmpty()); // just 0
    QCOMPARE(m.tickSpacingNs(80) > 0, true);
}

QTEST_GUILESS_MAIN(TestTimelineMapping)
#include "tst_timelinemapping.moc"
