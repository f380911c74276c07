// mergeInventory: a model's inventory keeps all its zones and gains the local zones it did not report;
// a local zone overlapping a model zone (IoU >= 0.3) counts as reported; the caller may veto local zones.

#include "core/canvas/inventorymerge.h"

#include <QTest>

using namespace ciu;
using canvas::mergeInventory;

namespace {

Zone zone(const QString& id, const QRect& r, ZoneSource source)
{
    Zone z;
    z.id = id;
    z.bounds = r;
    z.type = ZoneType::Button;
    z.source = source;
    return z;
}

QStringList ids(const QList<Zone>& zones)
{
    QStringList out;
    for (const Zone& z : zones)
        out << z.id;
    return out;
}

} // namespace

class TestInventoryMerge : public QObject
{
    Q_OBJECT
private slots:
    void modelZonesStayInTheirOrder();
    void unreportedLocalZonesAreAdded();
    void overlapDecidesWhatIsReported_data();
    void overlapDecidesWhatIsReported();
    void callerVetoesLocalZones();
    void noModelZonesKeepsEveryLocalZone();
};

void TestInventoryMerge::modelZonesStayInTheirOrder()
{
    const QList<Zone> model = {zone(QStringLiteral("m2"), QRect(0, 0, 50, 20), ZoneSource::Model),
                               zone(QStringLiteral("m1"), QRect(0, 40, 50, 20), ZoneSource::Model)};
    QCOMPARE(ids(mergeInventory(model, {})), (QStringList{QStringLiteral("m2"), QStringLiteral("m1")}));
}

void TestInventoryMerge::unreportedLocalZonesAreAdded()
{
    const QList<Zone> model = {zone(QStringLiteral("m"), QRect(0, 0, 100, 20), ZoneSource::Model)};
    const QList<Zone> local = {zone(QStringLiteral("same"), QRect(2, 0, 100, 20), ZoneSource::Local),
                               zone(QStringLiteral("b"), QRect(0, 300, 40, 20), ZoneSource::Local),
                               zone(QStringLiteral("a"), QRect(0, 200, 40, 20), ZoneSource::Local)};
    const QList<Zone> merged = mergeInventory(model, local);
    QCOMPARE(ids(merged), (QStringList{QStringLiteral("m"), QStringLiteral("b"), QStringLiteral("a")}));
    QVERIFY(merged.at(1).source == ZoneSource::Local); // added as they were
}

void TestInventoryMerge::overlapDecidesWhatIsReported_data()
{
    QTest::addColumn<QRect>("local");
    QTest::addColumn<bool>("added");
    const QRect model(0, 0, 100, 100);
    QTest::newRow("identical") << model << false;
    QTest::newRow("IoU 0.5") << QRect(0, 0, 100, 50) << false;
    QTest::newRow("IoU exactly 0.3") << QRect(0, 0, 100, 30) << false;
    QTest::newRow("IoU 0.29") << QRect(0, 0, 100, 29) << true;
    QTest::newRow("inside, small") << QRect(10, 10, 20, 20) << true;
    QTest::newRow("apart") << QRect(200, 0, 100, 100) << true;
}

void TestInventoryMerge::overlapDecidesWhatIsReported()
{
    QFETCH(QRect, local);
    QFETCH(bool, added);
    const QList<Zone> merged =
        mergeInventory({zone(QStringLiteral("m"), QRect(0, 0, 100, 100), ZoneSource::Model)},
                       {zone(QStringLiteral("l"), local, ZoneSource::Local)});
    QCOMPARE(merged.size(), added ? 2 : 1);
}

void TestInventoryMerge::callerVetoesLocalZones()
{
    const QList<Zone> local = {zone(QStringLiteral("gone"), QRect(0, 200, 40, 20), ZoneSource::Local),
                               zone(QStringLiteral("kept"), QRect(0, 300, 40, 20), ZoneSource::Local)};
    const QList<Zone> merged =
        mergeInventory({zone(QStringLiteral("m"), QRect(0, 0, 100, 20), ZoneSource::Model)}, local,
                       [](const Zone& z) { return z.id != QLatin1String("gone"); });
    QCOMPARE(ids(merged), (QStringList{QStringLiteral("m"), QStringLiteral("kept")}));
}

void TestInventoryMerge::noModelZonesKeepsEveryLocalZone()
{
    const QList<Zone> local = {zone(QStringLiteral("a"), QRect(0, 0, 40, 20), ZoneSource::Local),
                               zone(QStringLiteral("b"), QRect(0, 0, 40, 20), ZoneSource::Local)};
    QCOMPARE(ids(mergeInventory({}, local)), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
}

QTEST_GUILESS_MAIN(TestInventoryMerge)
#include "tst_inventorymerge.moc"
