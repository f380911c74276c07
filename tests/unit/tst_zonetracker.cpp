#include "core/brush/zonetracker.h"

#include <QTest>

using namespace ciu;

namespace {

constexpr qint64 kMs = 1'000'000;

Zone makeZone(const QString& id, QRect bounds, ZoneType type = ZoneType::Button, const QString& parent = {})
{
    Zone z;
    z.id = id;
    z.bounds = bounds;
    z.type = type;
    z.label = id;
    z.parentId = parent;
    return z;
}

ZoneMapPtr rowOfButtons()
{
    // Three buttons on one line with gaps, plus one off the line.
    return std::make_shared<const ZoneMap>(
        1, 0, QSize(1000, 600),
        QList<Zone>{makeZone(QStringLiteral("a"), QRect(100, 100, 100, 50)),
                    makeZone(QStringLiteral("b"), QRect(300, 100, 100, 50)),
                    makeZone(QStringLiteral("c"), QRect(500, 100, 100, 50)),
                    makeZone(QStringLiteral("off"), QRect(300, 400, 100, 50))});
}

QString describe(const SpatialEvent& e)
{
    return QStringLiteral("%1 %2 %3,%4").arg(toString(e.kind), e.zoneId).arg(e.point.x()).arg(e.point.y());
}

QStringList describeAll(const QList<SpatialEvent>& events, bool withHover = true)
{
    QStringList out;
    for (const SpatialEvent& e : events) {
        if (withHover || e.kind != SpatialEvent::Kind::ZoneHover)
            out << describe(e);
    }
    return out;
}

QList<SpatialEvent> run(ZoneTracker& tracker, const QList<QPoint>& points, qint64 stepNs)
{
    QList<SpatialEvent> events;
    qint64 t = 0;
    for (const QPoint& p : points) {
        events += tracker.update(CursorSample{t, p, {}});
        t += stepNs;
    }
    return events;
}

} // namespace

class TestZoneTracker : public QObject
{
    Q_OBJECT
private slots:
    void crossingSequence_data();
    void crossingSequence();
    void eventTimesAreOrderedAndInterpolated();
    void nestedZones_data();
    void nestedZones();
    void hoverDwell();
    void hoverOncePerStay();
    void hoverBeforeExitBetweenSparseSamples();
    void hoverDwellIsConfigurable();
    void newMapKeepsState();
    void vanishedAndMovedZonesExit();
    void zoneAppearingUnderCursorEnters();
    void staleSamplesIgnored();
    void noMapNoEvents();
    void zonesCrossedAlongPolyline();
};

void TestZoneTracker::crossingSequence_data()
{
    QTest::addColumn<QList<QPoint>>("points");
    QTest::addColumn<bool>("interpolate");
    QTest::addColumn<QStringList>("expected");

    QList<QPoint> dense;
    for (int x = 50; x <= 650; x += 10)
        dense << QPoint(x, 125);
    const QStringList sweep{
        QStringLiteral("zone_enter a 100,125"), QStringLiteral("zone_exit a 199,125"),
        QStringLiteral("zone_enter b 300,125"), QStringLiteral("zone_exit b 399,125"),
        QStringLiteral("zone_enter c 500,125"), QStringLiteral("zone_exit c 599,125"),
    };
    QTest::newRow("dense sweep") << dense << true << sweep;
    // Two samples only: the zones in between are crossed, in order, at interpolated points.
    QTest::newRow("jump across") << QList<QPoint>{{50, 125}, {650, 125}} << true << sweep;
    QTest::newRow("jump across, no interpolation")
        << QList<QPoint>{{50, 125}, {650, 125}} << false << QStringList{};
    QTest::newRow("right to left") << QList<QPoint>{{650, 125}, {450, 125}, {250, 125}, {50, 125}} << true
                                   << QStringList{QStringLiteral("zone_enter c 599,125"),
                                                  QStringLiteral("zone_exit c 500,125"),
                                                  QStringLiteral("zone_enter b 399,125"),
                                                  QStringLiteral("zone_exit b 300,125"),
                                                  QStringLiteral("zone_enter a 199,125"),
                                                  QStringLiteral("zone_exit a 100,125")};
    QTest::newRow("start inside, end inside")
        << QList<QPoint>{{150, 125}, {550, 125}} << true
        << QStringList{QStringLiteral("zone_enter a 150,125"), QStringLiteral("zone_exit a 199,125"),
                       QStringLiteral("zone_enter b 300,125"), QStringLiteral("zone_exit b 399,125"),
                       QStringLiteral("zone_enter c 500,125")};
    QTest::newRow("sample points, no interpolation")
        << QList<QPoint>{{50, 125}, {150, 125}, {250, 125}, {350, 125}} << false
        << QStringList{QStringLiteral("zone_enter a 150,125"), QStringLiteral("zone_exit a 150,125"),
                       QStringLiteral("zone_enter b 350,125")};
    QTest::newRow("edge pixels") << QList<QPoint>{{99, 100}, {100, 100}, {199, 149}, {200, 149}} << true
                                 << QStringList{QStringLiteral("zone_enter a 100,100"),
                                                QStringLiteral("zone_exit a 199,149")};
    QTest::newRow("diagonal misses b's corner")
        << QList<QPoint>{{290, 140}, {310, 160}} << true << QStringList{};
    QTest::newRow("vertical through off")
        << QList<QPoint>{{350, 300}, {350, 500}} << true
        << QStringList{QStringLiteral("zone_enter off 350,400"), QStringLiteral("zone_exit off 350,449")};
}

void TestZoneTracker::crossingSequence()
{
    QFETCH(QList<QPoint>, points);
    QFETCH(bool, interpolate);
    QFETCH(QStringList, expected);
    ZoneTracker::Settings settings;
    settings.interpolate = interpolate;
    settings.hoverDwellNs = 10'000 * kMs;
    ZoneTracker tracker(settings);
    tracker.setZoneMap(rowOfButtons(), 0);
    QCOMPARE(describeAll(run(tracker, points, 10 * kMs)), expected);
}

void TestZoneTracker::eventTimesAreOrderedAndInterpolated()
{
    ZoneTracker tracker;
    tracker.setZoneMap(rowOfButtons(), 0);
    tracker.update(CursorSample{0, {0, 125}, {}});
    // 550 px in 550 ms: one pixel per ms.
    const QList<SpatialEvent> events = tracker.update(CursorSample{550 * kMs, {550, 125}, {}});
    QCOMPARE(events.size(), 5);
    QVERIFY(events.at(0).kind == SpatialEvent::Kind::ZoneEnter);
    QCOMPARE(events.at(0).zoneId, QStringLiteral("a"));
    QVERIFY(qAbs(events.at(0).tNs - 99 * kMs) <= kMs);
    QVERIFY(events.at(1).kind == SpatialEvent::Kind::ZoneExit);
    QVERIFY(qAbs(events.at(1).tNs - 200 * kMs) <= kMs);
    QVERIFY(events.at(4).kind == SpatialEvent::Kind::ZoneEnter);
    QCOMPARE(events.at(4).zoneId, QStringLiteral("c"));
    QCOMPARE(events.at(4).point, QPoint(500, 125));
    for (qsizetype i = 1; i < events.size(); ++i)
        QVERIFY(events.at(i - 1).tNs <= events.at(i).tNs);
    QCOMPARE(events.at(0).data.value(QStringLiteral("label")).toString(), QStringLiteral("a"));
    QCOMPARE(tracker.currentZones(), QStringList{QStringLiteral("c")});
}

void TestZoneTracker::nestedZones_data()
{
    QTest::addColumn<QList<QPoint>>("points");
    QTest::addColumn<QStringList>("expected");
    QTest::newRow("into the child and out")
        << QList<QPoint>{{500, 500}, {30, 30}, {100, 100}, {500, 500}}
        << QStringList{QStringLiteral("zone_enter panel 399,399"), QStringLiteral("zone_enter child 59,59"),
                       QStringLiteral("zone_exit child 59,59"), QStringLiteral("zone_exit panel 399,399")};
    QTest::newRow("start in the child, jump out")
        << QList<QPoint>{{30, 30}, {500, 30}}
        << QStringList{QStringLiteral("zone_enter panel 30,30"), QStringLiteral("zone_enter child 30,30"),
                       QStringLiteral("zone_exit child 59,30"), QStringLiteral("zone_exit panel 399,30")};
    QTest::newRow("child shares the parent's edge")
        << QList<QPoint>{{500, 10}, {380, 10}, {500, 10}}
        << QStringList{QStringLiteral("zone_enter panel 399,10"), QStringLiteral("zone_enter edge 399,10"),
                       QStringLiteral("zone_exit edge 399,10"), QStringLiteral("zone_exit panel 399,10")};
}

void TestZoneTracker::nestedZones()
{
    QFETCH(QList<QPoint>, points);
    QFETCH(QStringList, expected);
    const auto map = std::make_shared<const ZoneMap>(
        1, 0, QSize(1000, 800),
        QList<Zone>{makeZone(QStringLiteral("child"), QRect(20, 20, 40, 40), ZoneType::Button,
                             QStringLiteral("panel")),
                    makeZone(QStringLiteral("panel"), QRect(0, 0, 400, 400), ZoneType::ScrollArea),
                    makeZone(QStringLiteral("edge"), QRect(370, 0, 30, 20), ZoneType::Button,
                             QStringLiteral("panel"))});
    ZoneTracker::Settings settings;
    settings.hoverDwellNs = 10'000 * kMs;
    ZoneTracker tracker(settings);
    tracker.setZoneMap(map, 0);
    QCOMPARE(describeAll(run(tracker, points, 10 * kMs)), expected);
}

void TestZoneTracker::hoverDwell()
{
    ZoneTracker tracker; // default dwell 300 ms
    tracker.setZoneMap(rowOfButtons(), 0);
    QCOMPARE(describeAll(tracker.update({1000 * kMs, {150, 125}, {}})),
             QStringList{QStringLiteral("zone_enter a 150,125")});
    QVERIFY(tracker.update({1200 * kMs, {151, 125}, {}}).isEmpty());
    QVERIFY(tracker.tick(1300 * kMs).isEmpty()); // exactly the dwell: not yet (strictly longer)
    const QList<SpatialEvent> hover = tracker.tick(1301 * kMs);
    QCOMPARE(hover.size(), 1);
    QVERIFY(hover.first().kind == SpatialEvent::Kind::ZoneHover);
    QCOMPARE(hover.first().zoneId, QStringLiteral("a"));
    QCOMPARE(hover.first().tNs, 1300 * kMs);
    QCOMPARE(hover.first().data.value(QStringLiteral("duration_ms")).toDouble(), 300.0);
    QCOMPARE(hover.first().point, QPoint(151, 125));
}

void TestZoneTracker::hoverOncePerStay()
{
    ZoneTracker tracker;
    tracker.setZoneMap(rowOfButtons(), 0);
    tracker.update({0, {150, 125}, {}});
    QCOMPARE(tracker.update({400 * kMs, {160, 125}, {}}).size(), 1); // the hover
    QVERIFY(tracker.update({800 * kMs, {170, 125}, {}}).isEmpty());
    QVERIFY(tracker.tick(2000 * kMs).isEmpty());
    // Leave and come back: a new stay, a new hover.
    QCOMPARE(describeAll(tracker.update({2010 * kMs, {250, 125}, {}})),
             QStringList{QStringLiteral("zone_exit a 199,125")});
    QCOMPARE(describeAll(tracker.update({2020 * kMs, {150, 125}, {}})),
             QStringList{QStringLiteral("zone_enter a 199,125")});
    QVERIFY(tracker.tick(2200 * kMs).isEmpty());
    QCOMPARE(tracker.tick(2400 * kMs).size(), 1);
}

void TestZoneTracker::hoverBeforeExitBetweenSparseSamples()
{
    // The cursor rested in `a` for a second without samples, then left: hover comes before the exit.
    ZoneTracker tracker;
    tracker.setZoneMap(rowOfButtons(), 0);
    tracker.update({0, {150, 125}, {}});
    const QList<SpatialEvent> events = tracker.update({1000 * kMs, {250, 125}, {}});
    QCOMPARE(events.size(), 2);
    QVERIFY(events.at(0).kind == SpatialEvent::Kind::ZoneHover);
    QCOMPARE(events.at(0).tNs, 300 * kMs);
    QVERIFY(events.at(1).kind == SpatialEvent::Kind::ZoneExit);
    // A slow pass through b (entered and left between two samples, 500 ms inside) hovers it too.
    const QList<SpatialEvent> pass = tracker.update({2000 * kMs, {450, 125}, {}});
    QCOMPARE(describeAll(pass),
             (QStringList{QStringLiteral("zone_enter b 300,125"), QStringLiteral("zone_hover b 360,125"),
                          QStringLiteral("zone_exit b 399,125")}));
}

void TestZoneTracker::hoverDwellIsConfigurable()
{
    ZoneTracker::Settings settings;
    settings.hoverDwellNs = 50 * kMs;
    ZoneTracker tracker(settings);
    tracker.setZoneMap(rowOfButtons(), 0);
    tracker.update({0, {150, 125}, {}});
    QVERIFY(tracker.tick(40 * kMs).isEmpty());
    const QList<SpatialEvent> hover = tracker.tick(60 * kMs);
    QCOMPARE(hover.size(), 1);
    QCOMPARE(hover.first().data.value(QStringLiteral("duration_ms")).toDouble(), 50.0);
}

void TestZoneTracker::newMapKeepsState()
{
    ZoneTracker tracker;
    tracker.setZoneMap(rowOfButtons(), 0);
    tracker.update({0, {150, 125}, {}});
    // Same ids, `a` slightly re-detected: no events, and the hover clock keeps running.
    const auto map2 =
        std::make_shared<const ZoneMap>(2, 100 * kMs, QSize(1000, 600),
                                        QList<Zone>{makeZone(QStringLiteral("a"), QRect(101, 99, 100, 52)),
                                                    makeZone(QStringLiteral("b"), QRect(300, 100, 100, 50))});
    QVERIFY(tracker.setZoneMap(map2, 100 * kMs).isEmpty());
    QCOMPARE(tracker.currentZones(), QStringList{QStringLiteral("a")});
    const QList<SpatialEvent> hover = tracker.tick(301 * kMs);
    QCOMPARE(hover.size(), 1);
    QCOMPARE(hover.first().tNs, 300 * kMs);
}

void TestZoneTracker::vanishedAndMovedZonesExit()
{
    const auto nested = std::make_shared<const ZoneMap>(
        1, 0, QSize(1000, 600),
        QList<Zone>{makeZone(QStringLiteral("panel"), QRect(0, 0, 500, 500), ZoneType::ScrollArea),
                    makeZone(QStringLiteral("btn"), QRect(100, 100, 100, 50), ZoneType::Button,
                             QStringLiteral("panel")),
                    makeZone(QStringLiteral("tip"), QRect(140, 110, 40, 20), ZoneType::Static)});
    ZoneTracker tracker;
    tracker.setZoneMap(nested, 0);
    QCOMPARE(tracker.update({0, {150, 120}, {}}).size(), 3);
    QCOMPARE(tracker.currentZones(),
             (QStringList{QStringLiteral("panel"), QStringLiteral("btn"), QStringLiteral("tip")}));
    // The tooltip vanishes and the button moves away from under the cursor.
    const auto moved = std::make_shared<const ZoneMap>(
        2, 0, QSize(1000, 600),
        QList<Zone>{makeZone(QStringLiteral("panel"), QRect(0, 0, 500, 500), ZoneType::ScrollArea),
                    makeZone(QStringLiteral("btn"), QRect(300, 300, 100, 50), ZoneType::Button,
                             QStringLiteral("panel"))});
    const QList<SpatialEvent> events = tracker.setZoneMap(moved, 50 * kMs);
    QCOMPARE(describeAll(events),
             (QStringList{QStringLiteral("zone_exit tip 150,120"), QStringLiteral("zone_exit btn 150,120")}));
    QCOMPARE(events.at(0).data.value(QStringLiteral("reason")).toString(), QStringLiteral("vanished"));
    QVERIFY(!events.at(1).data.contains(QStringLiteral("reason")));
    QCOMPARE(events.at(0).tNs, 50 * kMs);
    QCOMPARE(tracker.currentZones(), QStringList{QStringLiteral("panel")});
    // An empty map exits everything.
    QCOMPARE(tracker.setZoneMap(nullptr, 60 * kMs).size(), 1);
    QVERIFY(tracker.currentZones().isEmpty());
}

void TestZoneTracker::zoneAppearingUnderCursorEnters()
{
    ZoneTracker tracker;
    tracker.setZoneMap(rowOfButtons(), 0);
    tracker.update({0, {700, 500}, {}});
    const auto withMenu = std::make_shared<const ZoneMap>(
        2, 0, QSize(1000, 600),
        QList<Zone>{makeZone(QStringLiteral("menu"), QRect(650, 450, 100, 100), ZoneType::MenuItem)});
    QCOMPARE(describeAll(tracker.setZoneMap(withMenu, 5 * kMs)),
             QStringList{QStringLiteral("zone_enter menu 700,500")});
    QCOMPARE(tracker.innermostZone(), QStringLiteral("menu"));
}

void TestZoneTracker::staleSamplesIgnored()
{
    ZoneTracker tracker;
    tracker.setZoneMap(rowOfButtons(), 0);
    tracker.update({100 * kMs, {150, 125}, {}});
    // A sample taken earlier but delivered later changes nothing.
    QVERIFY(tracker.update({50 * kMs, {700, 500}, {}}).isEmpty());
    QVERIFY(tracker.isInside(QStringLiteral("a")));
    QCOMPARE(tracker.lastPosition(), QPoint(150, 125));
    // Same time is fine.
    QCOMPARE(tracker.update({100 * kMs, {250, 125}, {}}).size(), 1);
}

void TestZoneTracker::noMapNoEvents()
{
    ZoneTracker tracker;
    QVERIFY(tracker.update({0, {10, 10}, {}}).isEmpty());
    QVERIFY(tracker.update({1, {500, 500}, {}}).isEmpty());
    QVERIFY(tracker.tick(10'000 * kMs).isEmpty());
    // The map arrives later: the zone under the cursor is entered at once.
    const auto map = std::make_shared<const ZoneMap>(
        1, 0, QSize(1000, 600), QList<Zone>{makeZone(QStringLiteral("z"), QRect(400, 400, 200, 200))});
    QCOMPARE(tracker.setZoneMap(map, 2).size(), 1);
    tracker.reset();
    QVERIFY(tracker.currentZones().isEmpty());
    QVERIFY(!tracker.lastPosition());
}

void TestZoneTracker::zonesCrossedAlongPolyline()
{
    const ZoneMapPtr map = rowOfButtons();
    QCOMPARE(ZoneTracker::zonesCrossed(map, {{150, 125}, {650, 125}, {350, 500}}),
             (QStringList{QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("off")}));
    QCOMPARE(ZoneTracker::zonesCrossed(map, {{0, 0}, {0, 500}}), QStringList{});
    QCOMPARE(ZoneTracker::zonesCrossed(nullptr, {{0, 0}, {650, 125}}), QStringList{});
}

QTEST_GUILESS_MAIN(TestZoneTracker)
#include "tst_zonetracker.moc"
