// ZoneRegistry: stable ids, replace-within-region, nesting, ageing, user corrections, snapshots.

#include "core/canvas/zoneregistry.h"

#include <QTest>

using namespace ciu;
using canvas::ZoneRegistry;

namespace {

Zone zone(const QRect& r, ZoneType type, const QString& label, ZoneSource source = ZoneSource::Local)
{
    Zone z;
    z.bounds = r;
    z.type = type;
    z.label = label;
    z.source = source;
    z.confidence = 0.8;
    return z;
}

QString idOf(const ZoneRegistry& registry, const QString& label)
{
    for (const Zone& z : registry.zones()) {
        if (z.label == label)
            return z.id;
    }
    return {};
}

} // namespace

class TestZoneRegistry : public QObject
{
    Q_OBJECT
private slots:
    void idsStayForTheSamePlace_data();
    void idsStayForTheSamePlace();
    void movedZoneKeepsItsId();
    void movedZoneWithAnotherLabelIsNew();
    void replaceWithinRegion();
    void nestingByContainment();
    void explicitParentsFromProvisionalIds();
    void ageing();
    void changedPixelsNeedAnAnalysis();
    void failedConfirmationRemoves();
    void temporaryZones();
    void userCorrectionsWin();
    void snapshotsAreVersioned();
    void knownIdsUpdateDirectly();
    void removedIdsForgetTheirExplicitParent_data();
    void removedIdsForgetTheirExplicitParent();
    void labelSimilarity_data();
    void labelSimilarity();
};

void TestZoneRegistry::idsStayForTheSamePlace_data()
{
    QTest::addColumn<QRect>("again");
    QTest::addColumn<int>("type");
    QTest::addColumn<QString>("label");
    QTest::addColumn<bool>("sameId");
    const QRect base(100, 100, 80, 24);
    QTest::newRow("identical") << base << int(ZoneType::Button) << "OK" << true;
    QTest::newRow("shifted 3px") << base.translated(3, 1) << int(ZoneType::Button) << "OK" << true;
    QTest::newRow("ocr variant") << base << int(ZoneType::Button) << "0K" << true;
    QTest::newRow("retyped, same box") << base << int(ZoneType::Tab) << "OK" << true;
    QTest::newRow("elsewhere") << base.translated(0, 300) << int(ZoneType::Button) << "Cancel" << false;
    QTest::newRow("half overlap, other type and label")
        << base.translated(45, 0) << int(ZoneType::TextField) << "Name" << false;
}

void TestZoneRegistry::idsStayForTheSamePlace()
{
    QFETCH(QRect, again);
    QFETCH(int, type);
    QFETCH(QString, label);
    QFETCH(bool, sameId);
    ZoneRegistry registry;
    registry.setScreenSize({1280, 800});
    registry.replaceWithin({}, {zone(QRect(100, 100, 80, 24), ZoneType::Button, QStringLiteral("OK"))}, 1);
    const QString first = registry.zones().first().id;
    QVERIFY(!first.isEmpty());
    registry.replaceWithin({}, {zone(again, ZoneType(type), label)}, 2);
    QCOMPARE(registry.size(), 1);
    QCOMPARE(registry.zones().first().id == first, sameId);
    QCOMPARE(registry.zones().first().label, label);
}

void TestZoneRegistry::movedZoneKeepsItsId()
{
    ZoneRegistry registry;
    registry.replaceWithin({},
                           {zone(QRect(100, 100, 80, 24), ZoneType::Button, QStringLiteral("Submit")),
                            zone(QRect(300, 100, 80, 24), ZoneType::Button, QStringLiteral("Cancel"))},
                           1);
    const QString submit = idOf(registry, QStringLiteral("Submit"));
    const QString cancel = idOf(registry, QStringLiteral("Cancel"));
    // Submit moved 150 px down inside the re-analysed region.
    const ZoneRegistry::UpdateStats stats = registry.replaceWithin(
        QRect(0, 0, 250, 400), {zone(QRect(100, 250, 82, 24), ZoneType::Button, QStringLiteral("Submit"))},
        2);
    QCOMPARE(stats.updated, 1);
    QCOMPARE(stats.added, 0);
    QCOMPARE(stats.removed, 0);
    QCOMPARE(idOf(registry, QStringLiteral("Submit")), submit);
    QCOMPARE(registry.find(submit)->bounds, QRect(100, 250, 82, 24));
    QCOMPARE(idOf(registry, QStringLiteral("Cancel")), cancel); // outside: untouched
}

void TestZoneRegistry::movedZoneWithAnotherLabelIsNew()
{
    ZoneRegistry registry;
    registry.replaceWithin({}, {zone(QRect(100, 100, 80, 24), ZoneType::Button, QStringLiteral("Submit"))},
                           1);
    const QString submit = idOf(registry, QStringLiteral("Submit"));
    const auto stats = registry.replaceWithin(
        {}, {zone(QRect(100, 250, 80, 24), ZoneType::Button, QStringLiteral("Delete"))}, 2);
    QCOMPARE(stats.added, 1);
    QCOMPARE(stats.removed, 1);
    QVERIFY(idOf(registry, QStringLiteral("Delete")) != submit);
    QCOMPARE(registry.takeRemovedIds(), QStringList{submit});
}

void TestZoneRegistry::replaceWithinRegion()
{
    ZoneRegistry registry;
    registry.replaceWithin({},
                           {zone(QRect(10, 10, 50, 20), ZoneType::Button, QStringLiteral("A")),
                            zone(QRect(10, 50, 50, 20), ZoneType::Button, QStringLiteral("B")),
                            zone(QRect(400, 10, 50, 20), ZoneType::Button, QStringLiteral("C")),
                            // mostly outside the region below: untouched
                            zone(QRect(90, 10, 100, 20), ZoneType::Button, QStringLiteral("D"))},
                           1);
    const QString a = idOf(registry, QStringLiteral("A"));
    const QString c = idOf(registry, QStringLiteral("C"));
    const QString d = idOf(registry, QStringLiteral("D"));
    // Re-analysis of (0,0 100x100): A found again, B gone, E new.
    const auto stats =
        registry.replaceWithin(QRect(0, 0, 100, 100),
                               {zone(QRect(10, 10, 50, 20), ZoneType::Button, QStringLiteral("A")),
                                zone(QRect(10, 75, 40, 16), ZoneType::CheckBox, QStringLiteral("E"))},
                               2);
    QCOMPARE(stats.updated, 1);
    QCOMPARE(stats.added, 1);
    QCOMPARE(stats.removed, 1);
    QCOMPARE(idOf(registry, QStringLiteral("A")), a);
    QVERIFY(idOf(registry, QStringLiteral("B")).isEmpty());
    QCOMPARE(idOf(registry, QStringLiteral("C")), c);
    QCOMPARE(idOf(registry, QStringLiteral("D")), d);
    QVERIFY(!idOf(registry, QStringLiteral("E")).isEmpty());
    QCOMPARE(registry.size(), 4);
}

void TestZoneRegistry::nestingByContainment()
{
    ZoneRegistry registry;
    registry.replaceWithin({},
                           {zone(QRect(0, 0, 500, 400), ZoneType::Static, QStringLiteral("Window")),
                            zone(QRect(10, 10, 200, 200), ZoneType::ScrollArea, QStringLiteral("List")),
                            zone(QRect(12, 12, 100, 16), ZoneType::Static, QStringLiteral("Item 1")),
                            zone(QRect(300, 300, 80, 24), ZoneType::Button, QStringLiteral("OK")),
                            zone(QRect(700, 10, 80, 24), ZoneType::Button, QStringLiteral("Outside"))},
                           1);
    const QString window = idOf(registry, QStringLiteral("Window"));
    const QString list = idOf(registry, QStringLiteral("List"));
    QCOMPARE(registry.find(list)->parentId, window);
    QCOMPARE(registry.find(idOf(registry, QStringLiteral("Item 1")))->parentId, list);
    QCOMPARE(registry.find(idOf(registry, QStringLiteral("OK")))->parentId, window);
    QVERIFY(registry.find(idOf(registry, QStringLiteral("Outside")))->parentId.isEmpty());
    QVERIFY(registry.find(window)->parentId.isEmpty());
    // The list goes away: its item's parent becomes the window.
    registry.remove(list);
    QCOMPARE(registry.find(idOf(registry, QStringLiteral("Item 1")))->parentId, window);
    const ZoneMapPtr map = registry.snapshot(2);
    QCOMPARE(map->children(window).size(), 2);
}

void TestZoneRegistry::explicitParentsFromProvisionalIds()
{
    ZoneRegistry registry;
    Zone menu = zone(QRect(10, 10, 40, 20), ZoneType::MenuItem, QStringLiteral("File"));
    menu.id = QStringLiteral("tmp:0");
    Zone item = zone(QRect(10, 40, 120, 20), ZoneType::MenuItem, QStringLiteral("Open"));
    item.id = QStringLiteral("tmp:1");
    item.parentId = QStringLiteral("tmp:0");
    registry.replaceWithin({}, {menu, item}, 1);
    const QString file = idOf(registry, QStringLiteral("File"));
    const QString open = idOf(registry, QStringLiteral("Open"));
    QVERIFY(!file.startsWith(QLatin1String("tmp:")));
    QVERIFY(!open.startsWith(QLatin1String("tmp:")));
    QCOMPARE(registry.find(open)->parentId, file); // not contained, but declared
    // A second inventory with the same provisional ids matches by place, not by the provisional id.
    registry.replaceWithin({}, {menu, item}, 2);
    QCOMPARE(idOf(registry, QStringLiteral("File")), file);
    QCOMPARE(idOf(registry, QStringLiteral("Open")), open);
    QCOMPARE(registry.size(), 2);
}

void TestZoneRegistry::ageing()
{
    ZoneRegistry::Options options;
    options.maxAgeNs = 1000;
    ZoneRegistry registry(options);
    registry.replaceWithin({},
                           {zone(QRect(10, 10, 50, 20), ZoneType::Button, QStringLiteral("A")),
                            zone(QRect(300, 10, 50, 20), ZoneType::Button, QStringLiteral("B"))},
                           0);
    registry.applyUserCorrection(zone(QRect(600, 10, 50, 20), ZoneType::Button, QStringLiteral("U")), 0);
    // Tier 0 saw a change over A only: B is confirmed, A is not.
    registry.confirmUnchanged({QRect(0, 0, 100, 100)}, 900);
    const QString a = idOf(registry, QStringLiteral("A")); // before ageOut removes it
    QCOMPARE(registry.ageOut(1500), QStringList{a});
    QCOMPARE(registry.size(), 2);
    const QString b = idOf(registry, QStringLiteral("B"));
    QVERIFY(registry.ageOut(5000).contains(b));
    QCOMPARE(registry.size(), 1); // the user's zone never ages out
    QCOMPARE(registry.zones().first().label, QStringLiteral("U"));
}

void TestZoneRegistry::changedPixelsNeedAnAnalysis()
{
    ZoneRegistry::Options options;
    options.maxAgeNs = 1000;
    ZoneRegistry registry(options);
    registry.replaceWithin({},
                           {zone(QRect(10, 10, 50, 20), ZoneType::Button, QStringLiteral("A")),
                            zone(QRect(300, 10, 50, 20), ZoneType::Button, QStringLiteral("B")),
                            zone(QRect(600, 10, 50, 20), ZoneType::Button, QStringLiteral("C")),
                            zone(QRect(0, 200, 800, 400), ZoneType::Static, QStringLiteral("Panel"))},
                           0);
    registry.applyUserCorrection(zone(QRect(10, 100, 50, 20), ZoneType::Button, QStringLiteral("U")), 0);
    const QString a = idOf(registry, QStringLiteral("A"));
    const QString b = idOf(registry, QStringLiteral("B"));
    const QString c = idOf(registry, QStringLiteral("C"));
    const QString panel = idOf(registry, QStringLiteral("Panel"));
    // A's pixels changed (the rectangle holds its centre), C's a quarter of it, the panel's a sliver, the
    // user's zone all of it.
    registry.markChangedPixels(
        {QRect(20, 12, 30, 10), QRect(600, 10, 25, 10), QRect(10, 100, 50, 20), QRect(100, 300, 20, 20)},
        100);
    QVERIFY(registry.isUnconfirmed(a));
    QVERIFY(!registry.isUnconfirmed(b));
    QVERIFY(registry.isUnconfirmed(c));
    QVERIFY(!registry.isUnconfirmed(panel));
    QVERIFY(!registry.isUnconfirmed(idOf(registry, QStringLiteral("U"))));
    // Unchanged frames from then on confirm B and the panel, never A or C: they wait for an analysis.
    registry.confirmUnchanged({}, 900);
    registry.confirmUnchanged({}, 1500);
    QCOMPARE(registry.find(a)->lastSeenNs, 0);
    QCOMPARE(registry.find(b)->lastSeenNs, 1500);
    // A hover highlight explains C's change.
    registry.confirm(c, 1500);
    QVERIFY(!registry.isUnconfirmed(c));
    // A zone carried over unseen (the accessibility tree's fusion passes vision's zones on) is not
    // confirmed by that: it keeps aging.
    registry.replaceWithin(QRect(0, 0, 100, 50), {*registry.find(a)}, 1500);
    QVERIFY(registry.isUnconfirmed(a));
    QCOMPARE(registry.find(a)->lastSeenNs, 0);
    QCOMPARE(registry.ageOut(1500), QStringList{a});
    QVERIFY(registry.find(b) && registry.find(c) && registry.find(panel));
    QCOMPARE(registry.size(), 4);
}

void TestZoneRegistry::failedConfirmationRemoves()
{
    ZoneRegistry registry;
    // A: its centre lies in the analysed region but most of it does not. B likewise, pixels unchanged.
    registry.replaceWithin({},
                           {zone(QRect(100, 10, 56, 20), ZoneType::Button, QStringLiteral("A")),
                            zone(QRect(100, 60, 56, 20), ZoneType::Button, QStringLiteral("B")),
                            zone(QRect(10, 110, 50, 20), ZoneType::Button, QStringLiteral("Moved"))},
                           0);
    const QString a = idOf(registry, QStringLiteral("A"));
    const QString b = idOf(registry, QStringLiteral("B"));
    const QString moved = idOf(registry, QStringLiteral("Moved"));
    registry.markChangedPixels({QRect(100, 10, 56, 20), QRect(10, 110, 50, 20)}, 10);
    // An analysis of the region holding A's and B's centres (x 0..129) that found neither: A failed its
    // confirmation and goes; B's pixels did not change, so with most of it outside the region it stays.
    const QRect region(0, 0, 130, 200);
    const auto stats = registry.replaceWithin(
        region, {zone(QRect(10, 150, 50, 20), ZoneType::Button, QStringLiteral("Moved"))}, 20, true);
    QVERIFY(!registry.find(a));
    QVERIFY(registry.find(b));
    // The moved zone was found again (in the region, same label, type and size): the same id, confirmed.
    QCOMPARE(idOf(registry, QStringLiteral("Moved")), moved);
    QCOMPARE(registry.find(moved)->bounds, QRect(10, 150, 50, 20));
    QVERIFY(!registry.isUnconfirmed(moved));
    QCOMPARE(stats.removed, 1);
    QCOMPARE(registry.takeRemovedIds(), QStringList{a});
    // Without the analysis flag (zones carried over), nothing unconfirmed is removed beyond the region.
    registry.markChangedPixels({QRect(100, 60, 56, 20)}, 30);
    registry.replaceWithin(region, {*registry.find(moved)}, 40);
    QVERIFY(registry.find(b));
}

void TestZoneRegistry::temporaryZones()
{
    ZoneRegistry registry;
    Zone tip = zone(QRect(100, 100, 120, 20), ZoneType::Static, QStringLiteral("Send the form"));
    tip.temporary = true;
    registry.merge({zone(QRect(10, 10, 50, 20), ZoneType::Button, QStringLiteral("A")), tip}, 1);
    QCOMPARE(registry.size(), 2);
    QVERIFY(registry.removeTemporary(QRect(0, 0, 50, 50)).isEmpty());
    QCOMPARE(registry.removeTemporary(QRect(150, 95, 10, 10)).size(), 1);
    QCOMPARE(registry.size(), 1);
}

void TestZoneRegistry::userCorrectionsWin()
{
    ZoneRegistry registry;
    registry.replaceWithin({}, {zone(QRect(10, 10, 50, 20), ZoneType::Button, QStringLiteral("Sbumit"))}, 1);
    const QString id = registry.zones().first().id;
    Zone fixed = registry.zones().first();
    fixed.label = QStringLiteral("Submit");
    fixed.type = ZoneType::Button;
    QCOMPARE(registry.applyUserCorrection(fixed, 2), id);
    QCOMPARE(int(registry.find(id)->source), int(ZoneSource::User));
    QCOMPARE(registry.find(id)->confidence, 1.0);
    // A later detection at the same place does not overwrite it...
    const auto stats = registry.replaceWithin(
        {}, {zone(QRect(11, 10, 50, 20), ZoneType::TextField, QStringLiteral("Sbumit"))}, 3);
    QCOMPARE(stats.userKept, 1);
    QCOMPARE(registry.size(), 1);
    QCOMPARE(registry.find(id)->label, QStringLiteral("Submit"));
    QCOMPARE(int(registry.find(id)->type), int(ZoneType::Button));
    QCOMPARE(registry.find(id)->lastSeenNs, 3);
    // ...and a re-analysis that does not find it keeps it.
    registry.replaceWithin({}, {}, 4);
    QCOMPARE(registry.size(), 1);
    // A new user zone gets an id.
    const QString added =
        registry.applyUserCorrection(zone(QRect(200, 200, 30, 30), ZoneType::CheckBox, {}), 5);
    QVERIFY(!added.isEmpty() && added != id);
    QVERIFY(registry.remove(added));
    QVERIFY(!registry.remove(added));
}

void TestZoneRegistry::snapshotsAreVersioned()
{
    ZoneRegistry registry;
    registry.setScreenSize({800, 600});
    const ZoneMapPtr empty = registry.snapshot(0);
    QCOMPARE(registry.snapshot(1), empty); // nothing changed: the same snapshot
    registry.replaceWithin({}, {zone(QRect(10, 10, 50, 20), ZoneType::Button, QStringLiteral("A"))}, 1);
    const ZoneMapPtr one = registry.snapshot(1);
    QVERIFY(one->version() > empty->version());
    QCOMPARE(one->size(), 1);
    QCOMPARE(empty->size(), 0); // immutable
    // The same detection again: only last_seen changes, the map does not.
    registry.replaceWithin({}, {zone(QRect(10, 10, 50, 20), ZoneType::Button, QStringLiteral("A"))}, 2);
    QCOMPARE(registry.snapshot(2), one);
    QVERIFY(registry.setStateFlag(one->zones().first().id, ZoneStateFlag::Hovered, true));
    const ZoneMapPtr hovered = registry.snapshot(3);
    QVERIFY(hovered->version() > one->version());
    QVERIFY(hovered->zones().first().state.testFlag(ZoneStateFlag::Hovered));
    QVERIFY(!registry.setStateFlag(QStringLiteral("nope"), ZoneStateFlag::Hovered, true));
}

void TestZoneRegistry::knownIdsUpdateDirectly()
{
    ZoneRegistry registry;
    registry.replaceWithin({}, {zone(QRect(10, 10, 50, 20), ZoneType::Button, QStringLiteral("A"))}, 1);
    Zone moved = registry.zones().first();
    moved.bounds = QRect(500, 400, 50, 20); // re-found by template matching far away
    registry.replaceWithin({}, {moved}, 2);
    QCOMPARE(registry.size(), 1);
    QCOMPARE(registry.zones().first().id, moved.id);
    QCOMPARE(registry.zones().first().bounds, moved.bounds);
}

void TestZoneRegistry::removedIdsForgetTheirExplicitParent_data()
{
    QTest::addColumn<QString>("path");
    QTest::newRow("remove") << QStringLiteral("remove");
    QTest::newRow("clear") << QStringLiteral("clear");
    QTest::newRow("removeTemporary") << QStringLiteral("removeTemporary");
    QTest::newRow("ageOut") << QStringLiteral("ageOut");
    QTest::newRow("replaceWithin") << QStringLiteral("replaceWithin");
}

// Every way a zone leaves the registry forgets that its parent was set explicitly: a later zone that
// reuses the id gets its parent from containment, not from the removed zone's flag.
void TestZoneRegistry::removedIdsForgetTheirExplicitParent()
{
    QFETCH(QString, path);
    ZoneRegistry registry;
    registry.setScreenSize({1280, 800});
    Zone menu = zone(QRect(0, 0, 200, 300), ZoneType::ScrollArea, QStringLiteral("Menu"), ZoneSource::User);
    menu.id = QStringLiteral("menu");
    registry.applyUserCorrection(menu, 1);
    // An item outside the menu, its parent given explicitly.
    Zone item = zone(QRect(400, 400, 80, 20), ZoneType::MenuItem, QStringLiteral("Open"));
    item.id = QStringLiteral("item");
    item.parentId = menu.id;
    item.temporary = path == QLatin1String("removeTemporary");
    registry.merge({item}, 1);
    QVERIFY(registry.find(item.id));
    QCOMPARE(registry.find(item.id)->parentId, menu.id);

    if (path == QLatin1String("remove")) {
        QVERIFY(registry.remove(item.id));
    } else if (path == QLatin1String("clear")) {
        registry.clear(true);
    } else if (path == QLatin1String("removeTemporary")) {
        QCOMPARE(registry.removeTemporary(), QStringList{item.id});
    } else if (path == QLatin1String("ageOut")) {
        QCOMPARE(registry.ageOut(1 + registry.options().maxAgeNs + 1), QStringList{item.id});
    } else {
        registry.replaceWithin(QRect(300, 300, 400, 400), {}, 2);
    }
    QVERIFY(!registry.find(item.id));
    QCOMPARE(registry.takeRemovedIds(), QStringList{item.id});

    // A user zone given the same id and naming the menu as its parent, but outside it: containment
    // decides (nothing contains it), the removed zone's flag does not leak to it.
    Zone again = zone(QRect(600, 600, 80, 20), ZoneType::Button, QStringLiteral("Other"));
    again.id = item.id;
    again.parentId = menu.id;
    QCOMPARE(registry.applyUserCorrection(again, 3), item.id);
    QVERIFY(registry.find(item.id));
    QCOMPARE(registry.find(item.id)->parentId, QString());
}

void TestZoneRegistry::labelSimilarity_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<double>("min");
    QTest::addColumn<double>("max");
    QTest::newRow("same") << "Submit"
                          << "Submit" << 1.0 << 1.0;
    QTest::newRow("case and spaces") << "Open  dialog"
                                     << "open Dialog" << 1.0 << 1.0;
    QTest::newRow("one typo") << "Remember me"
                              << "Rernember me" << 0.8 << 0.95;
    QTest::newRow("different") << "OK"
                               << "Cancel" << 0.0 << 0.2;
    QTest::newRow("both empty") << ""
                                << "" << 1.0 << 1.0;
    QTest::newRow("one empty") << "OK"
                               << "" << 0.0 << 0.0;
}

void TestZoneRegistry::labelSimilarity()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(double, min);
    QFETCH(double, max);
    const double s = ZoneRegistry::labelSimilarity(a, b);
    QVERIFY2(s >= min && s <= max, qPrintable(QString::number(s)));
}

QTEST_GUILESS_MAIN(TestZoneRegistry)
#include "tst_zoneregistry.moc"
