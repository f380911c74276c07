// Tier 0: tile diff, region merging, threshold, cursor-only changes, damage, animation and stability.

#include "core/capture/changedetector.h"

#include <QPainter>
#include <QTest>

using ciu::Frame;
using ciu::capture::ChangeDetector;
using ciu::capture::ChangeDetectorSettings;

namespace {

constexpr qint64 kMs = 1'000'000;

QImage blank(QSize size = {640, 480}, QColor color = QColor(0x30, 0x60, 0x90))
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(color);
    return image;
}

QImage withRect(const QImage& base, const QRect& rect, QColor color = Qt::red)
{
    QImage image = base.copy();
    QPainter painter(&image);
    painter.fillRect(rect, color);
    return image;
}

Frame frame(const QImage& image, qint64 tNs, quint64 index = 0, QPoint origin = {})
{
    Frame f;
    f.index = index;
    f.tNs = tNs;
    f.image = image;
    f.origin = origin;
    return f;
}

// A detector that has seen `base` as its first frame at t=0.
ChangeDetector primed(const QImage& base, const ChangeDetectorSettings& settings = {})
{
    ChangeDetector d(settings);
    d.process(frame(base, 0));
    return d;
}

} // namespace

class TestChangeDetector : public QObject
{
    Q_OBJECT
private slots:
    void firstFrameIsWholeChange();
    void identicalFramesReportNothing();
    void tileDiff_data();
    void tileDiff();
    void twoSeparateChangesGiveTwoRegions();
    void adjacentTilesMergeIntoOne();
    void threshold_data();
    void threshold();
    void cursorOnlyChangeIsIgnored();
    void cursorMoveIgnoresOldAndNewSprite();
    void cursorDoesNotHideOtherChanges();
    void damageRestrictsComparison();
    void alphaIsIgnored();
    void originGivesRootCoordinates();
    void sizeChangeIsWholeChange();
    void animationThenStableOnce();
    void slowChangesAreNotAnimation();
    void validateRejectsBadSettings_data();
    void validateRejectsBadSettings();
};

void TestChangeDetector::firstFrameIsWholeChange()
{
    ChangeDetector d;
    const auto r = d.process(frame(blank(), 0, 1));
    QVERIFY(r.reported);
    QCOMPARE(r.diff.frameIndex, quint64(1));
    QCOMPARE(r.diff.regions.size(), 1);
    QCOMPARE(r.diff.regions.first().rect, QRect(0, 0, 640, 480));
    QCOMPARE(r.diff.totalPercent, 100.0);
}

void TestChangeDetector::identicalFramesReportNothing()
{
    const QImage base = blank();
    ChangeDetector d = primed(base);
    // The same buffer (shared) and a separate buffer with the same pixels.
    for (const QImage& image : {base, base.copy()}) {
        const auto r = d.process(frame(image, 10 * kMs));
        QVERIFY(r.identical);
        QVERIFY(!r.reported);
        QVERIFY(r.diff.isEmpty());
        QCOMPARE(r.changedPixels, qint64(0));
        QVERIFY(!r.diff.cursorOnly);
    }
}

void TestChangeDetector::tileDiff_data()
{
    QTest::addColumn<QRect>("change");
    QTest::addColumn<int>("tileSize");

    QTest::newRow("inside one tile") << QRect(40, 40, 20, 20) << 32;
    QTest::newRow("across tile borders") << QRect(20, 20, 100, 90) << 32;
    QTest::newRow("right and bottom edge") << QRect(600, 440, 40, 40) << 32;
    QTest::newRow("partial edge tile") << QRect(630, 470, 10, 10) << 48;
    QTest::newRow("one pixel wide line") << QRect(100, 200, 300, 1) << 32;
    QTest::newRow("tile 16") << QRect(33, 65, 70, 50) << 16;
}

void TestChangeDetector::tileDiff()
{
    QFETCH(QRect, change);
    QFETCH(int, tileSize);
    ChangeDetectorSettings settings;
    settings.tileSize = tileSize;
    settings.thresholdPercent = 0;
    const QImage base = blank();
    ChangeDetector d = primed(base, settings);
    const auto r = d.process(frame(withRect(base, change), 50 * kMs));
    QVERIFY(r.reported);
    QVERIFY(!r.identical);
    QCOMPARE(r.changedPixels, qint64(change.width()) * change.height());
    QCOMPARE(r.diff.regions.size(), 1);
    QCOMPARE(r.diff.regions.first().rect, change); // tight box, not tile bounds
    QCOMPARE(r.diff.regions.first().changedPercent, 100.0);
    QCOMPARE(r.diff.totalPercent, 100.0 * change.width() * change.height() / (640.0 * 480.0));
}

void TestChangeDetector::twoSeparateChangesGiveTwoRegions()
{
    ChangeDetectorSettings settings;
    settings.thresholdPercent = 0;
    const QImage base = blank();
    ChangeDetector d = primed(base, settings);
    const QRect a(10, 10, 60, 40);
    const QRect b(400, 300, 100, 100);
    const auto r = d.process(frame(withRect(withRect(base, a), b), 50 * kMs));
    QCOMPARE(r.diff.regions.size(), 2);
    QCOMPARE(r.diff.regions.at(0).rect, a); // sorted top to bottom
    QCOMPARE(r.diff.regions.at(1).rect, b);
}

void TestChangeDetector::adjacentTilesMergeIntoOne()
{
    ChangeDetectorSettings settings;
    settings.thresholdPercent = 0;
    const QImage base = blank();
    ChangeDetector d = primed(base, settings);
    // Two changes in neighbouring tiles (not touching each other) and one diagonal neighbour.
    const QRect a(5, 5, 10, 10);   // tile (0,0)
    const QRect b(40, 10, 10, 10); // tile (1,0)
    const QRect c(70, 40, 10, 10); // tile (2,1): diagonal to (1,0)
    QImage image = withRect(withRect(withRect(base, a), b), c);
    const auto r = d.process(frame(image, 50 * kMs));
    QCOMPARE(r.diff.regions.size(), 1);
    QCOMPARE(r.diff.regions.first().rect, a.united(b).united(c));
    QCOMPARE(r.changedPixels, qint64(300));
    QVERIFY(r.diff.regions.first().changedPercent < 100.0);
}

void TestChangeDetector::threshold_data()
{
    QTest::addColumn<double>("thresholdPercent");
    QTest::addColumn<QRect>("change");
    QTest::addColumn<bool>("reported");

    // 640x480 = 307200 pixels; 0.5 % = 1536 pixels.
    QTest::newRow("tiny below default") << 0.5 << QRect(10, 10, 30, 30) << false; // 900 px
    QTest::newRow("just above default") << 0.5 << QRect(10, 10, 40, 40) << true;  // 1600 px
    QTest::newRow("tiny, threshold 0.1") << 0.1 << QRect(10, 10, 30, 30) << true;
    QTest::newRow("tiny, threshold 0") << 0.0 << QRect(10, 10, 1, 1) << true;
    QTest::newRow("large, threshold 50") << 50.0 << QRect(0, 0, 320, 400) << false; // 41.7 %
    QTest::newRow("split below default") << 0.5 << QRect(300, 10, 30, 30) << false;
}

void TestChangeDetector::threshold()
{
    QFETCH(double, thresholdPercent);
    QFETCH(QRect, change);
    QFETCH(bool, reported);
    ChangeDetectorSettings settings;
    settings.thresholdPercent = thresholdPercent;
    const QImage base = blank();
    ChangeDetector d = primed(base, settings);
    const auto r = d.process(frame(withRect(base, change), 50 * kMs));
    QCOMPARE(r.reported, reported);
    QCOMPARE(r.diff.isEmpty(), !reported);
    QCOMPARE(r.changedPixels, qint64(change.width()) * change.height()); // measured either way
    QVERIFY(!r.diff.cursorOnly);
}

void TestChangeDetector::cursorOnlyChangeIsIgnored()
{
    ChangeDetectorSettings settings;
    settings.thresholdPercent = 0;
    const QImage base = blank();
    ChangeDetector d = primed(base, settings);
    const QRect sprite(200, 150, 12, 19);
    const auto r =
        d.process(frame(withRect(base, sprite.adjusted(0, 0, -2, -2), Qt::white), 50 * kMs), sprite);
    QVERIFY(!r.reported);
    QVERIFY(r.diff.isEmpty());
    QVERIFY(r.diff.cursorOnly);
    QCOMPARE(r.changedPixels, qint64(0));
    QCOMPARE(r.cursorPixels, qint64(10 * 17));
}

void TestChangeDetector::cursorMoveIgnoresOldAndNewSprite()
{
    ChangeDetectorSettings settings;
    settings.thresholdPercent = 0;
    const QImage base = blank();
    ChangeDetector d(settings);
    const QRect spriteA(100, 100, 12, 19);
    const QRect spriteB(300, 200, 12, 19);
    // Frame 1: cursor drawn at A. Frame 2: cursor drawn at B (A restored).
    d.process(frame(withRect(base, spriteA, Qt::white), 0), spriteA);
    const auto r = d.process(frame(withRect(base, spriteB, Qt::white), 50 * kMs), spriteB);
    QVERIFY(r.diff.cursorOnly);
    QVERIFY(r.diff.isEmpty());
    QCOMPARE(r.cursorPixels, qint64(2 * 12 * 19));
}

void TestChangeDetector::cursorDoesNotHideOtherChanges()
{
    ChangeDetectorSettings settings;
    settings.thresholdPercent = 0;
    const QImage base = blank();
    ChangeDetector d = primed(base, settings);
    const QRect sprite(200, 150, 12, 19);
    const QRect menu(190, 140, 100, 80); // a change under and around the sprite
    const auto r = d.process(frame(withRect(base, menu), 50 * kMs), sprite);
    QVERIFY(r.reported);
    QVERIFY(!r.diff.cursorOnly);
    QCOMPARE(r.diff.regions.size(), 1);
    QCOMPARE(r.diff.regions.first().rect, menu);
    QCOMPARE(r.changedPixels, qint64(100 * 80 - 12 * 19));
}

void TestChangeDetector::damageRestrictsComparison()
{
    ChangeDetectorSettings settings;
    settings.thresholdPercent = 0;
    const QImage base = blank();
    ChangeDetector d = primed(base, settings);
    const QRect inside(50, 50, 40, 40);
    const QRect outside(400, 300, 40, 40);
    const QRegion damage(QRect(40, 40, 100, 100));
    const auto r = d.process(frame(withRect(withRect(base, inside), outside), 50 * kMs), {}, &damage);
    QCOMPARE(r.diff.regions.size(), 1);
    QCOMPARE(r.diff.regions.first().rect, inside);

    const QRegion none;
    const auto r2 = d.process(frame(withRect(base, QRect(0, 0, 300, 300)), 100 * kMs), {}, &none);
    QVERIFY(r2.identical);
    QVERIFY(r2.diff.isEmpty());
}

void TestChangeDetector::alphaIsIgnored()
{
    ChangeDetectorSettings settings;
    settings.thresholdPercent = 0;
    QImage base(64, 64, QImage::Format_ARGB32);
    base.fill(0xff112233u);
    ChangeDetector d = primed(base, settings);
    QImage other = base.copy();
    other.fill(0x00112233u); // X servers may leave alpha undefined
    const auto r = d.process(frame(other, 50 * kMs));
    QVERIFY(r.identical);
    QVERIFY(!r.reported);
}

void TestChangeDetector::originGivesRootCoordinates()
{
    ChangeDetectorSettings settings;
    settings.thresholdPercent = 0;
    const QImage base = blank();
    const QPoint origin(1920, 100); // e.g. the second monitor
    ChangeDetector d(settings);
    d.process(frame(base, 0, 0, origin));
    const QRect local(10, 20, 30, 40);
    const QRect sprite = QRect(100, 100, 12, 19).translated(origin);
    const QRegion damage(local.translated(origin));
    const auto r =
        d.process(frame(withRect(withRect(base, local), sprite.translated(-origin)), 50 * kMs, 1, origin),
                  sprite, &damage);
    QCOMPARE(r.diff.regions.size(), 1);
    QCOMPARE(r.diff.regions.first().rect, local.translated(origin));
    QCOMPARE(r.cursorPixels, qint64(0)); // the sprite change lies outside the damage: not compared
}

void TestChangeDetector::sizeChangeIsWholeChange()
{
    ChangeDetector d = primed(blank());
    const auto r = d.process(frame(blank({800, 600}), 50 * kMs));
    QVERIFY(r.reported);
    QCOMPARE(r.diff.regions.first().rect, QRect(0, 0, 800, 600));
    const auto again = d.process(frame(blank({800, 600}), 100 * kMs));
    QVERIFY(again.identical);
}

void TestChangeDetector::animationThenStableOnce()
{
    ChangeDetectorSettings settings;
    settings.thresholdPercent = 0;
    settings.animationFrames = 3;
    settings.stabilityWindowNs = 300 * kMs;
    const QImage base = blank();
    ChangeDetector d = primed(base, settings);
    const QRect spinner(100, 100, 60, 60);
    const QRect once(400, 300, 50, 50);
    qint64 t = 0;
    QList<bool> animating;
    for (int i = 0; i < 6; ++i) {
        t += 50 * kMs;
        QImage image = withRect(base, spinner, QColor::fromHsv(i * 50, 255, 255));
        if (i >= 4)
            image = withRect(image, once);
        const auto r = d.process(frame(image, t));
        QVERIFY(r.reported);
        QVERIFY(!r.diff.stable);
        animating << r.diff.animating;
        if (i == 4) {
            QCOMPARE(r.diff.regions.size(), 2);
            QVERIFY(r.diff.regions.at(0).animating);  // the spinner
            QVERIFY(!r.diff.regions.at(1).animating); // changed once
        }
    }
    QCOMPARE(animating, (QList<bool>{false, false, true, true, true, true}));
    QVERIFY(!d.isStable());

    // The animation stops: nothing reported until the stability window has passed, then `stable` once.
    const QImage last = withRect(withRect(base, spinner, QColor::fromHsv(5 * 50, 255, 255)), once);
    const qint64 lastChange = t;
    int stableReports = 0;
    for (int i = 0; i < 20; ++i) {
        t += 50 * kMs;
        const auto r = d.process(frame(last, t));
        QVERIFY(!r.reported);
        if (r.diff.stable) {
            ++stableReports;
            QVERIFY(t - lastChange >= settings.stabilityWindowNs);
        } else if (stableReports == 0) {
            QVERIFY(t - lastChange < settings.stabilityWindowNs);
        }
    }
    QCOMPARE(stableReports, 1);
    QVERIFY(d.isStable());

    // A new change makes it unstable again, and a later calm gives one more report.
    t += 50 * kMs;
    QVERIFY(d.process(frame(base, t)).reported);
    QVERIFY(!d.isStable());
    stableReports = 0;
    for (int i = 0; i < 10; ++i) {
        t += 50 * kMs;
        stableReports += d.process(frame(base, t)).diff.stable ? 1 : 0;
    }
    QCOMPARE(stableReports, 1);
}

void TestChangeDetector::slowChangesAreNotAnimation()
{
    ChangeDetectorSettings settings;
    settings.thresholdPercent = 0;
    const QImage base = blank();
    ChangeDetector d = primed(base, settings);
    // A caret blinking every 500 ms: changes far apart are not an animation.
    qint64 t = 0;
    for (int i = 0; i < 8; ++i) {
        t += 500 * kMs;
        const auto r = d.process(frame(i % 2 ? base : withRect(base, QRect(50, 50, 2, 16)), t));
        QVERIFY(r.reported);
        QVERIFY(!r.diff.animating);
    }
}

void TestChangeDetector::validateRejectsBadSettings_data()
{
    QTest::addColumn<int>("tileSize");
    QTest::addColumn<double>("thresholdPercent");
    QTest::addColumn<int>("animationFrames");
    QTest::addColumn<qint64>("stabilityNs");
    QTest::addColumn<bool>("valid");
    QTest::newRow("defaults") << 32 << 0.5 << 3 << 300 * kMs << true;
    QTest::newRow("tile 4") << 4 << 0.5 << 3 << 300 * kMs << false;
    QTest::newRow("tile 1000") << 1000 << 0.5 << 3 << 300 * kMs << false;
    QTest::newRow("negative threshold") << 32 << -1.0 << 3 << 300 * kMs << false;
    QTest::newRow("threshold NaN") << 32 << qQNaN() << 3 << 300 * kMs << false;
    QTest::newRow("threshold 101") << 32 << 101.0 << 3 << 300 * kMs << false;
    QTest::newRow("animation 1") << 32 << 0.5 << 1 << 300 * kMs << false;
    QTest::newRow("negative stability") << 32 << 0.5 << 3 << -kMs << false;
}

void TestChangeDetector::validateRejectsBadSettings()
{
    QFETCH(int, tileSize);
    QFETCH(double, thresholdPercent);
    QFETCH(int, animationFrames);
    QFETCH(qint64, stabilityNs);
    QFETCH(bool, valid);
    ChangeDetectorSettings s;
    s.tileSize = tileSize;
    s.thresholdPercent = thresholdPercent;
    s.animationFrames = animationFrames;
    s.stabilityWindowNs = stabilityNs;
    QCOMPARE(ChangeDetector::validate(s).isEmpty(), valid);
    ChangeDetector d;
    QCOMPARE(d.setSettings(s), valid);
    if (!valid)
        QCOMPARE(d.settings().tileSize, 32); // unchanged
}

QTEST_GUILESS_MAIN(TestChangeDetector)
#include "tst_changedetector.moc"
