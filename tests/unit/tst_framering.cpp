// FrameRing: ordering, lookups by time and index, the time window, the memory bound (shared frames
// counted once, downscaling and dropping of older frames, never the newest).

#include "core/capture/framering.h"

#include <QPainter>
#include <QTest>

using ciu::Frame;
using ciu::capture::FrameRing;
using ciu::capture::FrameRingSettings;

namespace {

constexpr qint64 kMs = 1'000'000;
constexpr qint64 kMiB = 1 << 20;

QImage image(QColor color, QSize size = {512, 512}) // 1 MiB in RGB32
{
    QImage i(size, QImage::Format_RGB32);
    i.fill(color);
    return i;
}

Frame frame(quint64 index, qint64 tNs, const QImage& img)
{
    Frame f;
    f.index = index;
    f.tNs = tNs;
    f.image = img;
    return f;
}

QColor colorFor(int i)
{
    return QColor::fromHsv((i * 37) % 360, 200, 200);
}

} // namespace

class TestFrameRing : public QObject
{
    Q_OBJECT
private slots:
    void orderingAndLookups();
    void keepsOnlyTheTimeWindow();
    void sharedFramesCountOnce();
    void boundNeverDropsNewest_data();
    void boundNeverDropsNewest();
    void downscaledFramesLookUpFullSize();
    void sharedBufferDegradesTogether();
    void frameLargerThanBoundIsKeptAlone();
    void shrinkingSettingsApplyAtOnce();
    void refusesBadInput();
    void deltasRebuildExactly();
    void unchangedFramesWithDamageCostNothing();
    void largeChangesStayWhole();
    void deltaChainsGetKeys();
};

void TestFrameRing::orderingAndLookups()
{
    FrameRing ring;
    QVERIFY(ring.isEmpty());
    QVERIFY(!ring.latest());
    QVERIFY(!ring.atOrBefore(0));
    QList<qint64> keys;
    for (int i = 0; i < 10; ++i) {
        const QImage img = image(colorFor(i), {64, 64});
        keys << img.cacheKey();
        QVERIFY(ring.push(frame(quint64(i + 1), i * 100 * kMs, img)));
    }
    QCOMPARE(ring.size(), 10);
    QCOMPARE(ring.at(0)->index, quint64(1));
    QCOMPARE(ring.at(9)->index, quint64(10));
    QVERIFY(!ring.at(10));
    QVERIFY(!ring.at(-1));
    QCOMPARE(ring.latest()->index, quint64(10));
    QCOMPARE(ring.latest()->image.cacheKey(), keys.last()); // the same buffer, no copy

    QCOMPARE(ring.atOrBefore(250 * kMs)->index, quint64(3)); // t = 200 ms
    QCOMPARE(ring.atOrBefore(300 * kMs)->index, quint64(4)); // exact hit
    QCOMPARE(ring.atOrBefore(10'000 * kMs)->index, quint64(10));
    QVERIFY(!ring.atOrBefore(-1));

    QCOMPARE(ring.byIndex(7)->tNs, 600 * kMs);
    QCOMPARE(ring.byIndex(7)->image.pixel(0, 0), colorFor(6).rgb());
    QVERIFY(!ring.byIndex(42));
}

void TestFrameRing::keepsOnlyTheTimeWindow()
{
    FrameRingSettings s;
    s.durationNs = 1000 * kMs;
    FrameRing ring(s);
    for (int i = 0; i <= 50; ++i) // 5 s at 10 fps
        ring.push(frame(quint64(i), i * 100 * kMs, image(colorFor(i), {32, 32})));
    QCOMPARE(ring.size(), 11); // t = 4.0 .. 5.0 s
    QCOMPARE(ring.at(0)->tNs, 4000 * kMs);
    QCOMPARE(ring.latest()->tNs, 5000 * kMs);
}

void TestFrameRing::sharedFramesCountOnce()
{
    FrameRing ring;
    const QImage a = image(Qt::red);
    const QImage b = image(Qt::blue);
    for (int i = 0; i < 20; ++i)
        ring.push(frame(quint64(i), i * 50 * kMs, i < 10 ? a : b)); // unchanged frames share pixels
    QCOMPARE(ring.size(), 20);
    QCOMPARE(ring.memoryBytes(), a.sizeInBytes() + b.sizeInBytes());
    const auto stats = ring.stats();
    QCOMPARE(stats.buffers, 2);
    QCOMPARE(stats.bytes, 2 * kMiB);
    QCOMPARE(ring.at(3)->image.cacheKey(), a.cacheKey());

    // Dropping frames that share a buffer frees it only with the last of them.
    FrameRingSettings s;
    s.durationNs = 300 * kMs;
    QVERIFY(ring.setSettings(s));
    QCOMPARE(ring.size(), 7); // t = 650 .. 950 ms
    QCOMPARE(ring.memoryBytes(), b.sizeInBytes());
}

void TestFrameRing::boundNeverDropsNewest_data()
{
    QTest::addColumn<bool>("downscale");
    QTest::newRow("downscale then drop") << true;
    QTest::newRow("drop only") << false;
}

void TestFrameRing::boundNeverDropsNewest()
{
    QFETCH(bool, downscale);
    FrameRingSettings s;
    s.maxBytes = 8 * kMiB;
    s.downscaleOlder = downscale;
    FrameRing ring(s);
    quint64 previousOldest = 0;
    for (int i = 1; i <= 60; ++i) { // 60 distinct 1 MiB frames within the time window
        const QImage img = image(colorFor(i));
        QVERIFY(ring.push(frame(quint64(i), i * 33 * kMs, img)));
        QVERIFY2(ring.memoryBytes() <= s.maxBytes, qPrintable(QString::number(ring.memoryBytes())));
        const auto newest = ring.latest();
        QCOMPARE(newest->index, quint64(i));
        QCOMPARE(newest->image.cacheKey(), img.cacheKey()); // untouched, full size
        QVERIFY(!ring.isDegraded(quint64(i)));
        // Ordering: strictly increasing indexes, oldest first, and the oldest only moves forward.
        for (qsizetype p = 1; p < ring.size(); ++p)
            QVERIFY(ring.at(p - 1)->index < ring.at(p)->index);
        QVERIFY(ring.at(0)->index >= previousOldest);
        previousOldest = ring.at(0)->index;
    }
    const auto stats = ring.stats();
    if (downscale) {
        // Half size RGB16 is 1/8 of the bytes: many more frames fit than at full size.
        QVERIFY2(stats.frames > 30, qPrintable(QString::number(stats.frames)));
        QVERIFY(stats.degradedFrames > 0);
        QVERIFY(stats.downscaled > 0);
    } else {
        QCOMPARE(stats.frames, 8);
        QCOMPARE(stats.degradedFrames, 0);
    }
    QVERIFY(stats.droppedForMemory > 0);
}

void TestFrameRing::downscaledFramesLookUpFullSize()
{
    FrameRingSettings s;
    s.maxBytes = 2 * kMiB;
    FrameRing ring(s);
    ring.push(frame(1, 0, image(Qt::red)));
    ring.push(frame(2, 33 * kMs, image(Qt::green)));
    ring.push(frame(3, 66 * kMs, image(Qt::blue)));
    QVERIFY(ring.isDegraded(1));
    QVERIFY(!ring.isDegraded(3));
    const auto old = ring.byIndex(1);
    QVERIFY(old);
    QCOMPARE(old->image.size(), QSize(512, 512));
    QCOMPARE(old->image.format(), QImage::Format_RGB32);
    QCOMPARE(old->image.pixelColor(100, 100), QColor(Qt::red)); // pure colours survive RGB16
    QCOMPARE(ring.byIndex(3)->image.pixelColor(0, 0), QColor(Qt::blue));
}

void TestFrameRing::sharedBufferDegradesTogether()
{
    FrameRingSettings s;
    s.maxBytes = 2 * kMiB;
    FrameRing ring(s);
    const QImage a = image(Qt::red);
    for (int i = 1; i <= 5; ++i)
        ring.push(frame(quint64(i), i * kMs, a));
    QCOMPARE(ring.memoryBytes(), kMiB);
    ring.push(frame(6, 6 * kMs, image(Qt::green)));
    // 3 MiB: the shared red buffer is downscaled once for all five frames; 2.125 MiB is still too much,
    // so the green one follows; blue (the newest) stays.
    ring.push(frame(7, 7 * kMs, image(Qt::blue)));
    QCOMPARE(ring.size(), 7);
    for (quint64 i = 1; i <= 6; ++i)
        QVERIFY(ring.isDegraded(i));
    QVERIFY(!ring.isDegraded(7));
    QCOMPARE(ring.stats().buffers, 3);
    QCOMPARE(ring.stats().downscaled, quint64(6));
    QCOMPARE(ring.memoryBytes(), kMiB + 2 * (kMiB / 8));
}

void TestFrameRing::frameLargerThanBoundIsKeptAlone()
{
    FrameRingSettings s;
    s.maxBytes = kMiB;
    FrameRing ring(s);
    ring.push(frame(1, 0, image(Qt::red, {256, 256})));
    const QImage big = image(Qt::blue, {1024, 1024}); // 4 MiB
    ring.push(frame(2, kMs, big));
    QCOMPARE(ring.size(), 1);
    QCOMPARE(ring.latest()->image.cacheKey(), big.cacheKey());
}

void TestFrameRing::shrinkingSettingsApplyAtOnce()
{
    FrameRing ring;
    for (int i = 1; i <= 10; ++i)
        ring.push(frame(quint64(i), i * kMs, image(colorFor(i))));
    QCOMPARE(ring.memoryBytes(), 10 * kMiB);
    FrameRingSettings s;
    s.maxBytes = 3 * kMiB;
    s.downscaleOlder = false;
    QVERIFY(ring.setSettings(s));
    QCOMPARE(ring.size(), 3);
    QCOMPARE(ring.at(0)->index, quint64(8));
}

void TestFrameRing::refusesBadInput()
{
    FrameRing ring;
    QVERIFY(!ring.push(frame(1, 0, QImage())));
    QVERIFY(ring.push(frame(5, 100, image(Qt::red, {8, 8}))));
    QVERIFY(!ring.push(frame(6, 50, image(Qt::red, {8, 8}))));  // earlier time
    QVERIFY(!ring.push(frame(4, 200, image(Qt::red, {8, 8})))); // earlier index
    QCOMPARE(ring.size(), 1);

    FrameRingSettings bad;
    bad.durationNs = 0;
    QVERIFY(!FrameRing::validate(bad).isEmpty());
    QVERIFY(!ring.setSettings(bad));
    bad = {};
    bad.maxBytes = 1000;
    QVERIFY(FrameRing::validate(bad).contains(QStringLiteral("1 MiB")));
    QVERIFY(!ring.setSettings(bad));
    QCOMPARE(ring.settings().maxBytes, FrameRingSettings{}.maxBytes);
}

namespace {

// A 512x512 scene with a 40x40 square at `pos` over a gradient.
QImage scene(QPoint pos)
{
    QImage img(512, 512, QImage::Format_RGB32);
    for (int y = 0; y < img.height(); ++y) {
        auto* line = reinterpret_cast<QRgb*>(img.scanLine(y));
        for (int x = 0; x < img.width(); ++x)
            line[x] = qRgb(x / 2, y / 2, (x + y) / 4);
    }
    QPainter painter(&img);
    painter.fillRect(QRect(pos, QSize(40, 40)), Qt::red);
    return img;
}

} // namespace

void TestFrameRing::deltasRebuildExactly()
{
    FrameRing ring;
    QList<QImage> originals;
    QPoint pos(10, 10);
    for (int i = 1; i <= 30; ++i) {
        const QPoint next = pos + QPoint(7, 5);
        const QImage img = scene(next);
        const QRegion damage = QRegion(QRect(pos, QSize(40, 40))) + QRect(next, QSize(40, 40));
        QVERIFY(ring.push(frame(quint64(i), i * 33 * kMs, img), i == 1 ? nullptr : &damage));
        originals << img;
        pos = next;
    }
    const auto stats = ring.stats();
    QCOMPARE(stats.frames, 30);
    QCOMPARE(stats.deltaFrames, 29); // all but the newest
    QVERIFY2(ring.memoryBytes() < kMiB + 29 * 2 * 52 * 52 * 4,
             qPrintable(QString::number(ring.memoryBytes())));
    QCOMPARE(ring.latest()->image.cacheKey(), originals.last().cacheKey());
    for (int i = 0; i < 30; ++i)
        QVERIFY2(ring.at(i)->image == originals.at(i), qPrintable(QString::number(i)));
    QVERIFY(ring.atOrBefore(5 * 33 * kMs)->image == originals.at(4));

    // Dropping the oldest frames leaves the others intact (deltas only depend on newer frames).
    FrameRingSettings s;
    s.durationNs = 10 * 33 * kMs;
    QVERIFY(ring.setSettings(s));
    QCOMPARE(ring.size(), 11);
    for (qsizetype p = 0; p < ring.size(); ++p)
        QVERIFY(ring.at(p)->image == originals.at(19 + p));
}

void TestFrameRing::unchangedFramesWithDamageCostNothing()
{
    FrameRing ring;
    const QImage a = image(Qt::red);
    const QRegion none;
    for (int i = 1; i <= 10; ++i)
        ring.push(frame(quint64(i), i * kMs, a), &none);
    QCOMPARE(ring.memoryBytes(), kMiB);
    QCOMPARE(ring.stats().deltaFrames, 9);
    QCOMPARE(ring.at(0)->image.pixelColor(5, 5), QColor(Qt::red));
}

void TestFrameRing::largeChangesStayWhole()
{
    FrameRing ring;
    const QRegion big(QRect(0, 0, 512, 200)); // 39 % of the frame
    ring.push(frame(1, kMs, image(Qt::red)));
    ring.push(frame(2, 2 * kMs, image(Qt::green)), &big);
    ring.push(frame(3, 3 * kMs, image(Qt::blue)), &big);
    QCOMPARE(ring.stats().deltaFrames, 0);
    QCOMPARE(ring.memoryBytes(), 3 * kMiB);
}

void TestFrameRing::deltaChainsGetKeys()
{
    FrameRing ring;
    QList<QImage> originals;
    const QRect band(0, 0, 512, 64); // 1/8 of the frame per delta: 32 deltas reach the 4-frame budget
    for (int i = 1; i <= 80; ++i) {
        QImage next = originals.isEmpty() ? image(Qt::white) : originals.last().copy();
        const QRect changed = band.translated(0, (i % 8) * 64);
        {
            QPainter painter(&next);
            painter.fillRect(changed, colorFor(i));
        }
        const QRegion damage(changed);
        ring.push(frame(quint64(i), i * 10 * kMs, next), originals.isEmpty() ? nullptr : &damage);
        originals << next;
    }
    const auto stats = ring.stats();
    QCOMPARE(stats.frames, 80);
    QVERIFY(stats.deltaFrames < 79); // some keys were kept
    QVERIFY(stats.deltaFrames > 60);
    QVERIFY(ring.memoryBytes() < 80 * kMiB / 4);
    for (int i = 0; i < 80; ++i)
        QVERIFY2(ring.at(i)->image == originals.at(i), qPrintable(QString::number(i)));
}

QTEST_GUILESS_MAIN(TestFrameRing)
#include "tst_framering.moc"
