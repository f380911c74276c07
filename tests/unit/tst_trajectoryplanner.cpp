#include "core/brush/trajectoryplanner.h"

#include <QLineF>
#include <QRandomGenerator>
#include <QTest>

#include <cmath>

using namespace ciu;

namespace {

Zone makeZone(const QString& id, QRect bounds, ZoneType type = ZoneType::Button)
{
    Zone z;
    z.id = id;
    z.bounds = bounds;
    z.type = type;
    z.label = id;
    return z;
}

// Every pixel the pointer passes when it jumps from step to step (half-pixel sampling of each chord).
QList<QPoint> rasterize(QPoint start, const QList<TimedPoint>& steps)
{
    QList<QPoint> pixels{start};
    QPoint previous = start;
    for (const TimedPoint& s : steps) {
        const double length = QLineF(previous, s.pos).length();
        const int n = std::max(1, int(std::ceil(length * 2)));
        for (int i = 1; i <= n; ++i) {
            const double t = double(i) / n;
            pixels << QPoint(int(std::lround(previous.x() + (s.pos.x() - previous.x()) * t)),
                             int(std::lround(previous.y() + (s.pos.y() - previous.y()) * t)));
        }
        previous = s.pos;
    }
    return pixels;
}

QList<Zone> randomLayout(QRandomGenerator& rng, QSize screen, int count)
{
    QList<Zone> zones;
    int attempts = 0;
    while (zones.size() < count && attempts++ < count * 50) {
        const QRect r(rng.bounded(screen.width() - 120), rng.bounded(screen.height() - 60),
                      30 + rng.bounded(90), 16 + rng.bounded(44));
        const bool overlaps = std::any_of(zones.cbegin(), zones.cend(), [&](const Zone& z) {
            return z.bounds.adjusted(-4, -4, 4, 4).intersects(r);
        });
        if (!overlaps)
            zones << makeZone(QStringLiteral("z%1").arg(zones.size()), r);
    }
    return zones;
}

QPoint freePoint(QRandomGenerator& rng, QSize screen, const QList<Zone>& zones)
{
    for (;;) {
        const QPoint p(rng.bounded(screen.width()), rng.bounded(screen.height()));
        if (std::none_of(zones.cbegin(), zones.cend(),
                         [&](const Zone& z) { return z.bounds.adjusted(-3, -3, 3, 3).contains(p); }))
            return p;
    }
}

} // namespace

class TestTrajectoryPlanner : public QObject
{
    Q_OBJECT
private slots:
    void kindNames();
    void directTiming_data();
    void directTiming();
    void directInstant();
    void directListsZonesCrossed();
    void humanLikeBendsAndEases();
    void safeIsStraightWhenClear();
    void safeGoesAroundAZone();
    void safeNeverEntersAnotherZone();
    void safeAllowsTargetAndItsParents();
    void safeFailsWhenEnclosed();
    void exploratoryCoversRegion_data();
    void exploratoryCoversRegion();
    void exploratoryRejectsEmptyRegion();
};

void TestTrajectoryPlanner::kindNames()
{
    for (const TrajectoryKind k : {TrajectoryKind::Direct, TrajectoryKind::Safe, TrajectoryKind::Exploratory})
        QVERIFY(trajectoryKindFromString(toString(k)) == k);
    QVERIFY(trajectoryKindFromString(QStringLiteral("SAFE")) == TrajectoryKind::Safe);
    QVERIFY(!trajectoryKindFromString(QStringLiteral("teleport")));
}

void TestTrajectoryPlanner::directTiming_data()
{
    QTest::addColumn<QPoint>("from");
    QTest::addColumn<QPoint>("to");
    QTest::addColumn<double>("speed");
    QTest::addColumn<int>("rate");
    QTest::addColumn<int>("expectedSteps");
    QTest::newRow("1000 px at 2000 px/s, 100 Hz") << QPoint(0, 0) << QPoint(1000, 0) << 2000.0 << 100 << 50;
    QTest::newRow("diagonal 500 px at 500 px/s, 60 Hz")
        << QPoint(100, 100) << QPoint(400, 500) << 500.0 << 60 << 60;
    QTest::newRow("short hop") << QPoint(10, 10) << QPoint(12, 10) << 2000.0 << 120 << 1;
}

void TestTrajectoryPlanner::directTiming()
{
    QFETCH(QPoint, from);
    QFETCH(QPoint, to);
    QFETCH(double, speed);
    QFETCH(int, rate);
    QFETCH(int, expectedSteps);
    TrajectorySettings s;
    s.speedPxPerS = speed;
    s.stepRateHz = rate;
    const Trajectory t = TrajectoryPlanner(s).direct(from, to);
    QVERIFY(t.isValid());
    QVERIFY(t.kind == TrajectoryKind::Direct);
    QCOMPARE(t.path, (QList<QPoint>{from, to}));
    QCOMPARE(t.steps.size(), expectedSteps);
    QCOMPARE(t.steps.constLast().pos, to);
    const double expectedNs = QLineF(from, to).length() / speed * 1e9;
    QVERIFY(qAbs(double(t.durationNs()) - expectedNs) < 1e6);
    // Evenly timed, strictly increasing, each step on the line.
    for (qsizetype i = 1; i < t.steps.size(); ++i)
        QVERIFY(t.steps.at(i).tNs > t.steps.at(i - 1).tNs);
    for (const TimedPoint& p : t.steps) {
        const QLineF line(from, to);
        const double cross = std::abs((to.x() - from.x()) * (p.pos.y() - from.y()) -
                                      (to.y() - from.y()) * (p.pos.x() - from.x()));
        QVERIFY(cross / line.length() <= 1.0);
    }
}

void TestTrajectoryPlanner::directInstant()
{
    TrajectorySettings s;
    s.speedPxPerS = 0;
    const Trajectory t = TrajectoryPlanner(s).direct({5, 5}, {900, 700});
    QCOMPARE(t.steps.size(), 1);
    QCOMPARE(t.steps.first().pos, QPoint(900, 700));
    QCOMPARE(t.durationNs(), 0);
    // Same point: one step, no motion.
    QCOMPARE(TrajectoryPlanner().direct({5, 5}, {5, 5}).steps.size(), 1);
}

void TestTrajectoryPlanner::directListsZonesCrossed()
{
    const auto map = std::make_shared<const ZoneMap>(
        1, 0, QSize(1000, 600),
        QList<Zone>{makeZone(QStringLiteral("start"), QRect(0, 100, 80, 50)),
                    makeZone(QStringLiteral("a"), QRect(100, 100, 100, 50)),
                    makeZone(QStringLiteral("b"), QRect(300, 100, 100, 50)),
                    makeZone(QStringLiteral("target"), QRect(500, 100, 100, 50))});
    const Trajectory t = TrajectoryPlanner().direct({40, 125}, {550, 125}, map);
    QCOMPARE(t.zonesCrossed,
             (QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("target")}));
}

void TestTrajectoryPlanner::humanLikeBendsAndEases()
{
    TrajectorySettings s;
    s.humanLike = true;
    s.speedPxPerS = 1000;
    s.stepRateHz = 100;
    const QPoint from(100, 400);
    const QPoint to(900, 400);
    const Trajectory t = TrajectoryPlanner(s).direct(from, to);
    QVERIFY(t.isValid());
    QCOMPARE(t.steps.constLast().pos, to);
    QCOMPARE(t.path.constFirst(), from);
    QCOMPARE(t.path.constLast(), to);
    int maxOffset = 0;
    for (const QPoint& p : t.path)
        maxOffset = std::max(maxOffset, std::abs(p.y() - 400));
    QVERIFY2(maxOffset >= 10 && maxOffset <= 40, qPrintable(QString::number(maxOffset)));
    // Eased: the first and the last steps are shorter than the ones in the middle.
    auto stepLength = [&](qsizetype i) {
        return QLineF(i == 0 ? from : t.steps.at(i - 1).pos, t.steps.at(i).pos).length();
    };
    const qsizetype mid = t.steps.size() / 2;
    QVERIFY(stepLength(0) < stepLength(mid) / 3);
    QVERIFY(stepLength(t.steps.size() - 1) < stepLength(mid) / 3);
    // Deterministic for a seed.
    QCOMPARE(TrajectoryPlanner(s).direct(from, to).path, t.path);
}

void TestTrajectoryPlanner::safeIsStraightWhenClear()
{
    const auto map = std::make_shared<const ZoneMap>(
        1, 0, QSize(1000, 600), QList<Zone>{makeZone(QStringLiteral("far"), QRect(500, 500, 50, 50))});
    const Trajectory t = TrajectoryPlanner().safe({10, 10}, {400, 10}, map);
    QVERIFY(t.isValid());
    QCOMPARE(t.path, (QList<QPoint>{{10, 10}, {400, 10}}));
}

void TestTrajectoryPlanner::safeGoesAroundAZone()
{
    const auto map = std::make_shared<const ZoneMap>(
        1, 0, QSize(1000, 600),
        QList<Zone>{makeZone(QStringLiteral("wall"), QRect(400, 100, 60, 300)),
                    makeZone(QStringLiteral("target"), QRect(700, 230, 80, 40)),
                    makeZone(QStringLiteral("label"), QRect(200, 240, 100, 20), ZoneType::Static)});
    const QPoint from(100, 250);
    const QPoint to(740, 250);
    const Trajectory direct = TrajectoryPlanner().direct(from, to, map);
    QVERIFY(direct.zonesCrossed.contains(QStringLiteral("wall")));
    const Trajectory t = TrajectoryPlanner().safe(from, to, map, {QStringLiteral("target")});
    QVERIFY2(t.isValid(), qPrintable(t.error));
    QVERIFY(t.path.size() >= 3);
    QCOMPARE(t.steps.constLast().pos, to);
    QVERIFY(!t.zonesCrossed.contains(QStringLiteral("wall")));
    QVERIFY(t.zonesCrossed.contains(QStringLiteral("target")));
    for (const QPoint& p : rasterize(from, t.steps))
        QVERIFY(!QRect(400, 100, 60, 300).contains(p));
    // Static zones are not obstacles: the straight start through the label is allowed.
    QVERIFY(TrajectoryPlanner::segmentClear({100, 250}, {350, 250},
                                            TrajectoryPlanner::obstaclesFor(*map, from, to, {}), 0));
}

void TestTrajectoryPlanner::safeNeverEntersAnotherZone()
{
    // Property check over random layouts: the pointer, jumping from step to step, never touches a
    // pixel of any zone but the target.
    QRandomGenerator rng(20240611);
    const QSize screen(1280, 800);
    int planned = 0;
    for (int round = 0; round < 80; ++round) {
        QList<Zone> zones = randomLayout(rng, screen, 15 + rng.bounded(40));
        const Zone target = zones.takeLast();
        zones << target;
        const auto map = std::make_shared<const ZoneMap>(1, 0, screen, zones);
        const QPoint from = freePoint(rng, screen, zones);
        const QPoint to(target.bounds.x() + rng.bounded(target.bounds.width()),
                        target.bounds.y() + rng.bounded(target.bounds.height()));
        TrajectorySettings s;
        s.humanLike = (round % 2) == 1;
        s.speedPxPerS = 3000;
        s.stepRateHz = 60; // long steps: chords must still stay clear
        const Trajectory t = TrajectoryPlanner(s).safe(from, to, map, {target.id});
        if (!t.isValid()) {
            QVERIFY(!t.error.isEmpty());
            continue;
        }
        ++planned;
        QCOMPARE(t.steps.constLast().pos, to);
        for (const QPoint& p : rasterize(from, t.steps)) {
            for (const Zone& z : zones) {
                if (z.id != target.id && z.bounds.contains(p))
                    QFAIL(qPrintable(QStringLiteral("round %1: (%2, %3) enters %4")
                                         .arg(round)
                                         .arg(p.x())
                                         .arg(p.y())
                                         .arg(z.id)));
            }
        }
        QVERIFY2(t.zonesCrossed == QStringList{target.id},
                 qPrintable(t.zonesCrossed.join(QLatin1Char(',')) + QStringLiteral(" target ") + target.id));
    }
    QVERIFY2(planned >= 70, qPrintable(QStringLiteral("only %1 of 80 layouts had a path").arg(planned)));
}

void TestTrajectoryPlanner::safeAllowsTargetAndItsParents()
{
    Zone panel = makeZone(QStringLiteral("panel"), QRect(300, 100, 400, 400), ZoneType::ScrollArea);
    Zone child = makeZone(QStringLiteral("child"), QRect(450, 250, 60, 30));
    child.parentId = panel.id;
    Zone other = makeZone(QStringLiteral("other"), QRect(320, 260, 60, 30));
    other.parentId = panel.id;
    const auto map =
        std::make_shared<const ZoneMap>(1, 0, QSize(1000, 600), QList<Zone>{panel, child, other});
    const Trajectory t = TrajectoryPlanner().safe({100, 265}, child.center(), map, {child.id});
    QVERIFY2(t.isValid(), qPrintable(t.error));
    QVERIFY(t.zonesCrossed.contains(QStringLiteral("panel")));
    QVERIFY(!t.zonesCrossed.contains(QStringLiteral("other")));
    QCOMPARE(t.zonesCrossed.constLast(), QStringLiteral("child"));
}

void TestTrajectoryPlanner::safeFailsWhenEnclosed()
{
    // The target sits inside a ring of buttons with no gap.
    QList<Zone> zones{makeZone(QStringLiteral("target"), QRect(500, 300, 40, 40))};
    zones << makeZone(QStringLiteral("n"), QRect(460, 260, 120, 40))
          << makeZone(QStringLiteral("s"), QRect(460, 340, 120, 40))
          << makeZone(QStringLiteral("w"), QRect(460, 300, 40, 40))
          << makeZone(QStringLiteral("e"), QRect(540, 300, 40, 40));
    const auto map = std::make_shared<const ZoneMap>(1, 0, QSize(1000, 600), zones);
    const Trajectory t = TrajectoryPlanner().safe({100, 100}, {520, 320}, map, {QStringLiteral("target")});
    QVERIFY(!t.isValid());
    QVERIFY(!t.error.isEmpty());
}

void TestTrajectoryPlanner::exploratoryCoversRegion_data()
{
    QTest::addColumn<QPoint>("from");
    QTest::addColumn<QRect>("region");
    QTest::addColumn<int>("spacing");
    QTest::newRow("from the top-left") << QPoint(0, 0) << QRect(100, 100, 300, 200) << 24;
    QTest::newRow("from the bottom-right") << QPoint(900, 700) << QRect(200, 150, 250, 130) << 16;
    QTest::newRow("thin strip") << QPoint(50, 50) << QRect(100, 100, 400, 10) << 24;
}

void TestTrajectoryPlanner::exploratoryCoversRegion()
{
    QFETCH(QPoint, from);
    QFETCH(QRect, region);
    QFETCH(int, spacing);
    TrajectorySettings s;
    s.sweepSpacingPx = spacing;
    s.exploreSpeedPxPerS = 300;
    s.stepRateHz = 100;
    const auto map = std::make_shared<const ZoneMap>(1, 0, QSize(1000, 800), QList<Zone>{});
    const Trajectory t = TrajectoryPlanner(s).exploratory(from, region, map);
    QVERIFY2(t.isValid(), qPrintable(t.error));
    QVERIFY(t.kind == TrajectoryKind::Exploratory);
    const QList<QPoint> pixels = rasterize(from, t.steps);
    // Every point of the region is within half a spacing (plus a pixel) of where the pointer passed.
    for (int y = region.top(); y <= region.bottom(); y += 3) {
        for (int x = region.left(); x <= region.right(); x += 3) {
            double best = 1e9;
            for (const QPoint& p : pixels)
                best = std::min(best,
                                double(std::abs(p.y() - y)) + (p.x() == x ? 0.0 : std::abs(p.x() - x) * 1.0));
            QVERIFY2(best <= spacing / 2 + 1,
                     qPrintable(QStringLiteral("(%1, %2) is %3 px away").arg(x).arg(y).arg(best)));
        }
    }
    // The sweep is slow: the time spent is about the sweep length at the exploration speed.
    double sweepLength = 0;
    for (qsizetype i = 2; i < t.path.size(); ++i)
        sweepLength += QLineF(t.path.at(i - 1), t.path.at(i)).length();
    QVERIFY(double(t.durationNs()) / 1e9 >= sweepLength / s.exploreSpeedPxPerS * 0.95);
    for (qsizetype i = 1; i < t.steps.size(); ++i)
        QVERIFY(t.steps.at(i).tNs >= t.steps.at(i - 1).tNs);
}

void TestTrajectoryPlanner::exploratoryRejectsEmptyRegion()
{
    const auto map = std::make_shared<const ZoneMap>(1, 0, QSize(1000, 800), QList<Zone>{});
    QVERIFY(!TrajectoryPlanner().exploratory({0, 0}, QRect(), map).isValid());
    const Trajectory off = TrajectoryPlanner().exploratory({0, 0}, QRect(2000, 2000, 50, 50), map);
    QVERIFY(!off.isValid());
    QVERIFY(off.error.contains(QStringLiteral("empty")));
}

QTEST_GUILESS_MAIN(TestTrajectoryPlanner)
#include "tst_trajectoryplanner.moc"
