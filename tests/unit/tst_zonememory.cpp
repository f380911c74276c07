// Stable zone ids (the same element gets the same id in two independently built maps, collisions resolved
// the same way every time, a tree zone renames the vision zone it matches) and the zone memory (store round
// trip, strict parsing, a corrupt file loses nothing, layout matching, the pixel check, forgetting).

#include "core/canvas/accessibilityzones.h"
#include "core/canvas/zoneidentity.h"
#include "core/canvas/zoneregistry.h"
#include "core/knowledge/zonememory.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using namespace ciu::canvas;
using platform::AccessibilitySnapshot;
using platform::AccessibleNode;
using platform::WindowInfo;

namespace {

const QString kProgram = QStringLiteral("Fixture");

AccessibleNode node(const QString& ref, const AccessibleNode* parent, const QString& role,
                    const QString& name, const QRect& bounds, qint64 pid)
{
    AccessibleNode n;
    n.ref = ref;
    n.parentRef = parent ? parent->ref : QString();
    n.windowRef = parent ? parent->windowRef : ref;
    n.role = role;
    n.name = name;
    n.states = {QStringLiteral("showing"), QStringLiteral("visible"), QStringLiteral("enabled")};
    n.bounds = bounds;
    n.pid = pid;
    n.application = QStringLiteral("fixture");
    n.depth = parent ? parent->depth + 1 : 0;
    return n;
}

// The same window as one process of the program shows it: object paths and bus name differ per process,
// and so may the window's place and title.
AccessibilitySnapshot fixtureTree(const QString& bus, QPoint origin, const QString& title, qint64 pid)
{
    const QRect frame(origin, QSize(400, 300));
    AccessibilitySnapshot s;
    const AccessibleNode w =
        node(bus + QStringLiteral(":/") + bus, nullptr, QStringLiteral("frame"), title, frame, pid);
    const AccessibleNode panel = node(bus + QStringLiteral(":/p"), &w, QStringLiteral("panel"), QString(),
                                      QRect(origin + QPoint(0, 0), QSize(400, 300)), pid);
    const AccessibleNode name =
        node(bus + QStringLiteral(":/n"), &panel, QStringLiteral("entry"), QStringLiteral("Name"),
             QRect(origin + QPoint(20, 20), QSize(200, 24)), pid);
    // Two buttons without a name under the same panel: the same identity, told apart by their order.
    const AccessibleNode a = node(bus + QStringLiteral(":/a"), &panel, QStringLiteral("push button"),
                                  QString(), QRect(origin + QPoint(20, 60), QSize(30, 30)), pid);
    const AccessibleNode b = node(bus + QStringLiteral(":/b"), &panel, QStringLiteral("push button"),
                                  QString(), QRect(origin + QPoint(60, 60), QSize(30, 30)), pid);
    const AccessibleNode submit =
        node(bus + QStringLiteral(":/s"), &panel, QStringLiteral("push button"), QStringLiteral("Submit"),
             QRect(origin + QPoint(300, 250), QSize(80, 30)), pid);
    s.nodes << w << panel << name << a << b << submit;
    return s;
}

AccessibilityScene sceneFor(QPoint origin, qint64 pid, quint64 windowId)
{
    WindowInfo info;
    info.id = windowId;
    info.geometry = QRect(origin, QSize(400, 300));
    info.pid = pid;
    info.windowClass = kProgram;
    AccessibilityScene scene;
    scene.windows = {info};
    return scene;
}

// Ids by accessible name/role and position within the window: what identifies the element to a person.
QMap<QString, QString> idsByElement(const QList<Zone>& zones, QPoint origin)
{
    QMap<QString, QString> ids;
    for (const Zone& z : zones) {
        const QPoint p = z.bounds.topLeft() - origin;
        ids.insert(QStringLiteral("%1 %2 %3,%4").arg(z.role, z.label).arg(p.x()).arg(p.y()), z.id);
    }
    return ids;
}

Zone visionZone(ZoneType type, const QString& label, const QRect& bounds, quint64 windowId)
{
    Zone z;
    z.type = type;
    z.label = label;
    z.bounds = bounds;
    z.source = ZoneSource::Local;
    z.confidence = 0.8;
    z.windowId = windowId;
    z.application = kProgram;
    return z;
}

// A window's pixels: a grey background, framed boxes with a pattern inside (edges a signature can see).
QImage windowImage(QSize size, int variant = 0)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(QColor(0xee, 0xee, 0xee));
    QPainter p(&image);
    const auto box = [&p](const QRect& r, int stripes) {
        p.setPen(Qt::black);
        p.setBrush(Qt::white);
        p.drawRect(r.adjusted(0, 0, -1, -1));
        for (int i = 0; i < stripes; ++i)
            p.fillRect(QRect(r.x() + 4 + i * 8, r.y() + 4, 4, r.height() - 8), QColor(0x30, 0x30, 0x30));
    };
    box(QRect(20, 20, 200, 24), 6);
    box(QRect(20, 60, 30, 30), 2);
    box(QRect(300, 250, 80, 30), 4 + variant);
    return image;
}

QList<Zone> windowZones(QPoint origin)
{
    QList<Zone> zones{
        visionZone(ZoneType::TextField, QStringLiteral("Name"),
                   QRect(origin + QPoint(20, 20), QSize(200, 24)), 7),
        visionZone(ZoneType::Button, QString(), QRect(origin + QPoint(20, 60), QSize(30, 30)), 7),
        visionZone(ZoneType::Button, QStringLiteral("Submit"),
                   QRect(origin + QPoint(300, 250), QSize(80, 30)), 7)};
    for (int i = 0; i < zones.size(); ++i)
        zones[i].id = QStringLiteral("z%1").arg(i, 8, 10, QLatin1Char('0'));
    Zone password = visionZone(ZoneType::TextField, QStringLiteral("Password"),
                               QRect(origin + QPoint(20, 150), QSize(200, 24)), 7);
    password.id = QStringLiteral("zpassword");
    password.isPassword = true;
    password.value = QStringLiteral("hunter2-secret");
    zones << password;
    zones[0].value = QStringLiteral("typed text");
    return zones;
}

} // namespace

class TestZoneMemory : public QObject
{
    Q_OBJECT

private slots:
    void treeIdsEqualAcrossProcesses();
    void treeIdCollisionsDeterministic();
    void visionIdsFollowTheWindow();
    void visionIdCollisions();
    void treeZoneRenamesVisionZone();
    void userZonesKeepTheirIds();
    void storeRoundTrip();
    void neverStoresContents();
    void corruptFileLosesNothing();
    void strictParsing_data();
    void strictParsing();
    void layoutMatching();
    void pixelCheck();
    void recallConfirmedWell();
    void forgetAndClear();
};

void TestZoneMemory::treeIdsEqualAcrossProcesses()
{
    // Two processes of the program: other bus names and object paths, another window place and title, and
    // each map built by its own registry.
    const QPoint o1(10, 10);
    const QPoint o2(300, 200);
    const AccessibilityZones one = zonesFromAccessibility(
        fixtureTree(QStringLiteral("1.42"), o1, QStringLiteral("a.txt"), 100), sceneFor(o1, 100, 5));
    const AccessibilityZones two = zonesFromAccessibility(
        fixtureTree(QStringLiteral("1.97"), o2, QStringLiteral("b.txt - edited"), 200), sceneFor(o2, 200, 9));
    QCOMPARE(one.zones.size(), 4);
    ZoneRegistry r1;
    ZoneRegistry r2;
    r1.replaceWithin({}, one.zones, 1);
    r2.replaceWithin({}, two.zones, 1);
    const QMap<QString, QString> ids1 = idsByElement(r1.zones(), o1);
    const QMap<QString, QString> ids2 = idsByElement(r2.zones(), o2);
    QCOMPARE(ids1.size(), 4);
    QCOMPARE(ids1, ids2);
    for (const QString& id : ids1) {
        QCOMPARE(id.size(), 9); // "z" + 8 hex digits
        QVERIFY(id.startsWith(QLatin1Char('z')));
    }
    // The id is the program's: another program with the same widgets has other ids.
    AccessibilityScene other = sceneFor(o1, 100, 5);
    other.windows[0].windowClass = QStringLiteral("Other");
    const AccessibilityZones three =
        zonesFromAccessibility(fixtureTree(QStringLiteral("1.42"), o1, QStringLiteral("a.txt"), 100), other);
    QVERIFY(three.zones.first().id != one.zones.first().id);
}

void TestZoneMemory::treeIdCollisionsDeterministic()
{
    const QPoint o(0, 0);
    const AccessibilityZones one =
        zonesFromAccessibility(fixtureTree(QStringLiteral("1.1"), o, QString(), 1), sceneFor(o, 1, 1));
    const AccessibilityZones two =
        zonesFromAccessibility(fixtureTree(QStringLiteral("1.2"), o, QString(), 2), sceneFor(o, 2, 1));
    QSet<QString> unique;
    for (const Zone& z : one.zones)
        unique.insert(z.id);
    QCOMPARE(unique.size(), one.zones.size()); // the two unnamed buttons have two ids
    const QString first = one.zones.at(1).id;  // tree order: the left button first
    const QString second = one.zones.at(2).id;
    QVERIFY(first != second);
    QCOMPARE(two.zones.at(1).id, first);
    QCOMPARE(two.zones.at(2).id, second);
    // The allocator itself: a taken id moves to key#2, the same way every time.
    ZoneIdAllocator a;
    ZoneIdAllocator b;
    const QString k = QStringLiteral("key");
    QCOMPARE(a.allocate(k), zoneIdForKey(k));
    QCOMPARE(a.allocate(k), zoneIdForKey(k + QStringLiteral("#2")));
    QCOMPARE(b.allocate(k), zoneIdForKey(k));
    b.reserve(zoneIdForKey(k + QStringLiteral("#2")));
    QCOMPARE(b.allocate(k), zoneIdForKey(k + QStringLiteral("#3")));
}

void TestZoneMemory::visionIdsFollowTheWindow()
{
    // The same window at two places of the screen (two sessions): the same ids.
    ZoneRegistry r1;
    ZoneRegistry r2;
    r1.setWindowOrigins({{7, QPoint(10, 10)}});
    r2.setWindowOrigins({{7, QPoint(503, 211)}});
    QList<Zone> z1 = windowZones(QPoint(10, 10));
    QList<Zone> z2 = windowZones(QPoint(503, 211));
    for (Zone& z : z1)
        z.id.clear();
    for (Zone& z : z2)
        z.id.clear();
    std::reverse(z2.begin(), z2.end()); // discovered in another order
    r1.replaceWithin({}, z1, 1);
    r2.replaceWithin({}, z2, 1);
    QMap<QString, QString> ids1;
    QMap<QString, QString> ids2;
    for (const Zone& z : r1.zones())
        ids1.insert(z.label + QString::number(z.bounds.x() - 10), z.id);
    for (const Zone& z : r2.zones())
        ids2.insert(z.label + QString::number(z.bounds.x() - 503), z.id);
    QCOMPARE(ids1.size(), 4);
    QCOMPARE(ids1, ids2);
    // A different label is a different element.
    const Zone* submit = r1.find(ids1.value(QStringLiteral("Submit300")));
    QVERIFY(submit);
    Zone renamed = *submit;
    renamed.label = QStringLiteral("Cancel");
    QVERIFY(zoneIdForKey(visionZoneKey(renamed, QPoint(10, 10))) != submit->id);
    QCOMPARE(zoneIdForKey(visionZoneKey(*submit, QPoint(10, 10))), submit->id);
}

void TestZoneMemory::visionIdCollisions()
{
    // Two unlabelled buttons in the same position cell: two ids, the same two in every registry.
    const QList<Zone> zones{visionZone(ZoneType::Button, QString(), QRect(97, 100, 10, 10), 0),
                            visionZone(ZoneType::Button, QString(), QRect(100, 99, 10, 10), 0)};
    QCOMPARE(visionZoneKey(zones.at(0), {}), visionZoneKey(zones.at(1), {}));
    QStringList ids[2];
    for (auto& list : ids) {
        ZoneRegistry r;
        r.merge(zones, 1);
        for (const Zone& z : r.zones())
            list << z.id;
    }
    QCOMPARE(ids[0].size(), 2);
    QVERIFY(ids[0].at(0) != ids[0].at(1));
    QCOMPARE(ids[0], ids[1]);
    QCOMPARE(ids[0].at(0), zoneIdForKey(visionZoneKey(zones.at(0), {})));
}

void TestZoneMemory::treeZoneRenamesVisionZone()
{
    ZoneRegistry r;
    Zone vision = visionZone(ZoneType::Button, QStringLiteral("Submit"), QRect(300, 250, 80, 30), 0);
    Zone caption = visionZone(ZoneType::Static, QStringLiteral("x"), QRect(305, 255, 10, 10), 0);
    r.merge({vision, caption}, 1);
    QString visionId;
    for (const Zone& z : r.zones()) {
        if (z.label == QLatin1String("Submit"))
            visionId = z.id;
    }
    r.takeRemovedIds();
    Zone tree = vision;
    tree.source = ZoneSource::Accessibility;
    tree.role = QStringLiteral("push button");
    tree.id = zoneIdForKey(QStringLiteral("tree key"));
    const ZoneRegistry::UpdateStats stats = r.merge({tree}, 2);
    QCOMPARE(stats.renamed, 1);
    QCOMPARE(stats.updated, 1);
    QVERIFY(!r.find(visionId));
    QVERIFY(r.find(tree.id));
    QVERIFY(r.find(tree.id)->source == ZoneSource::Accessibility);
    QCOMPARE(r.takeRemovedIds(), QStringList{visionId});
    // The caption inside it follows its parent's new id.
    for (const Zone& z : r.zones()) {
        if (z.label == QLatin1String("x"))
            QCOMPARE(z.parentId, tree.id);
    }
    // A user zone is never renamed.
    ZoneRegistry u;
    const QString userId = u.applyUserCorrection(vision, 1);
    u.merge({tree}, 2);
    QVERIFY(u.find(userId));
    QVERIFY(!u.find(tree.id));
}

void TestZoneMemory::userZonesKeepTheirIds()
{
    ZoneRegistry r;
    Zone user = visionZone(ZoneType::Button, QStringLiteral("Mine"), QRect(10, 10, 40, 20), 0);
    const QString id = r.applyUserCorrection(user, 1);
    QVERIFY2(id.startsWith(QLatin1Char('u')), qPrintable(id));
    user.id = QStringLiteral("u1234abcd");
    QCOMPARE(r.applyUserCorrection(user, 2), QStringLiteral("u1234abcd"));
}

void TestZoneMemory::storeRoundTrip()
{
    QTemporaryDir dir;
    ZoneMemory memory(dir.path());
    const QRect geometry(50, 40, 400, 300);
    const QImage image = windowImage(geometry.size());
    QVERIFY(memory.remember(kProgram, geometry, image, windowZones(geometry.topLeft())));
    QString error;
    const auto loaded = memory.load(kProgram, &error);
    QVERIFY2(loaded, qPrintable(error));
    QCOMPARE(loaded->program, kProgram);
    QCOMPARE(loaded->layouts.size(), 1);
    const RememberedLayout& layout = loaded->layouts.first();
    QCOMPARE(layout.windowSize, geometry.size());
    QCOMPARE(layout.zones.size(), 4);
    QCOMPARE(layout.zones.at(2).bounds, QRect(300, 250, 80, 30)); // window-relative
    QCOMPARE(layout.zones.at(2).label, QStringLiteral("Submit"));
    QCOMPARE(layout.zones.at(2).id, QStringLiteral("z00000002"));
    QVERIFY(layout.signatures.contains(QStringLiteral("z00000002")));
    // The JSON written is the JSON read.
    QCOMPARE(ProgramMemory::fromJson(loaded->toJson()), loaded);
    QCOMPARE(memory.programs(), QStringList{kProgram});
    // The same layout again replaces itself; another size is a second layout.
    QVERIFY(memory.remember(kProgram, geometry, image, windowZones(geometry.topLeft())));
    QCOMPARE(memory.load(kProgram)->layouts.size(), 1);
    const QRect bigger(50, 40, 500, 300);
    QVERIFY(memory.remember(kProgram, bigger, windowImage(bigger.size()), windowZones(bigger.topLeft())));
    QCOMPARE(memory.load(kProgram)->layouts.size(), 2);
    QCOMPARE(memory.load(kProgram)->layouts.first().windowSize, bigger.size()); // most recent first
}

void TestZoneMemory::neverStoresContents()
{
    QTemporaryDir dir;
    ZoneMemory memory(dir.path());
    const QRect geometry(0, 0, 400, 300);
    QVERIFY(memory.remember(kProgram, geometry, windowImage(geometry.size()), windowZones({})));
    QFile file(memory.filePath(kProgram));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(!bytes.contains("hunter2-secret"));
    QVERIFY(!bytes.contains("typed text"));
    const auto loaded = memory.load(kProgram);
    const RememberedLayout& layout = loaded->layouts.first();
    QVERIFY(!layout.signatures.contains(QStringLiteral("zpassword"))); // not even its pixels
    for (const Zone& z : layout.zones)
        QVERIFY(z.value.isEmpty());
}

void TestZoneMemory::corruptFileLosesNothing()
{
    QTemporaryDir dir;
    ZoneMemory memory(dir.path());
    QVERIFY(QDir().mkpath(dir.path()));
    QFile file(memory.filePath(kProgram));
    QVERIFY(file.open(QIODevice::WriteOnly));
    const QByteArray garbage = "{\"format\": 1, \"program\": \"Fixture\", \"layouts\": [ {";
    file.write(garbage);
    file.close();
    QString error;
    QVERIFY(!memory.load(kProgram, &error));
    QVERIFY2(error.contains(memory.filePath(kProgram)), qPrintable(error));
    const QRect geometry(0, 0, 400, 300);
    error.clear();
    QVERIFY(!memory.remember(kProgram, geometry, windowImage(geometry.size()), windowZones({}), &error));
    QVERIFY(!error.isEmpty());
    error.clear();
    QVERIFY(!memory.recall(kProgram, windowImage(geometry.size()), &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), garbage); // untouched
}

void TestZoneMemory::strictParsing_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("expected");
    const QString thumb = QString(512, QLatin1Char('0'));
    const auto layout = [&](const QString& extra) {
        return QStringLiteral(
                   R"({"format":1,"program":"Fixture","layouts":[{"width":10,"height":10,"thumbnail":"%1","saved_ms":"5","zones":[%2]}]})")
            .arg(thumb, extra)
            .toUtf8();
    };
    QTest::newRow("format") << QByteArray(R"({"format":2,"program":"Fixture","layouts":[]})")
                            << QStringLiteral("format");
    QTest::newRow("program") << QByteArray(R"({"format":1,"layouts":[]})") << QStringLiteral("program");
    QTest::newRow("layouts") << QByteArray(R"({"format":1,"program":"Fixture"})")
                             << QStringLiteral("layouts");
    QTest::newRow("size") << QByteArray(
                                 R"({"format":1,"program":"Fixture","layouts":[{"width":0,"height":10}]})")
                          << QStringLiteral("positive");
    QTest::newRow("thumbnail")
        << QByteArray(
               R"({"format":1,"program":"Fixture","layouts":[{"width":10,"height":10,"thumbnail":"00"}]})")
        << QStringLiteral("thumbnail");
    QTest::newRow("zone") << layout(QStringLiteral(R"({"id":"z1","type":"button"})"))
                          << QStringLiteral("zone 0");
    QTest::newRow("signature")
        << layout(QStringLiteral(
               R"({"id":"z1","type":"button","bounds":{"x":1,"y":1,"width":2,"height":2},"signature":"xyz"})"))
        << QStringLiteral("signature");
    QTest::newRow("other program") << QByteArray(R"({"format":1,"program":"Someone","layouts":[]})")
                                   << QStringLiteral("Someone");
}

void TestZoneMemory::strictParsing()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    ZoneMemory memory(dir.path());
    QVERIFY(QDir().mkpath(dir.path()));
    QFile file(memory.filePath(kProgram));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(json);
    file.close();
    QString error;
    QVERIFY(!memory.load(kProgram, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

void TestZoneMemory::layoutMatching()
{
    QTemporaryDir dir;
    ZoneMemory memory(dir.path());
    const QRect geometry(0, 0, 400, 300);
    QVERIFY(memory.remember(kProgram, geometry, windowImage(geometry.size()), windowZones({})));
    // The same window: found. A small change (one button's look): still the layout.
    QVERIFY(memory.recall(kProgram, windowImage(geometry.size())));
    QVERIFY(memory.recall(kProgram, windowImage(geometry.size(), 1)));
    // Another size, another look, another program: not.
    QVERIFY(!memory.recall(kProgram, windowImage(QSize(300, 300))));
    QImage dark(geometry.size(), QImage::Format_RGB32);
    dark.fill(QColor(0x20, 0x20, 0x60));
    QVERIFY(!memory.recall(kProgram, dark));
    QString error;
    QVERIFY(!memory.recall(QStringLiteral("Other"), windowImage(geometry.size()), &error));
    QVERIFY(error.isEmpty()); // nothing stored is no error
}

void TestZoneMemory::pixelCheck()
{
    QTemporaryDir dir;
    ZoneMemory memory(dir.path());
    const QRect geometry(0, 0, 400, 300);
    QVERIFY(memory.remember(kProgram, geometry, windowImage(geometry.size()), windowZones({})));
    const auto layout = memory.recall(kProgram, windowImage(geometry.size()));
    QVERIFY(layout);
    // At another place of the screen, the same pixels: every zone, source memory, root coordinates.
    int dropped = -1;
    const QList<Zone> all =
        memory.confirmedZones(*layout, windowImage(geometry.size()), QPoint(100, 50), &dropped);
    QCOMPARE(all.size(), 4);
    QCOMPARE(dropped, 0);
    for (const Zone& z : all)
        QVERIFY(isRemembered(z));
    QCOMPARE(all.at(2).bounds, QRect(400, 300, 80, 30));
    // The Submit button looks different now: it is dropped, the others stay.
    QImage changed = windowImage(geometry.size());
    QPainter p(&changed);
    p.fillRect(QRect(300, 250, 80, 30), QColor(0xee, 0xee, 0xee));
    p.end();
    const QList<Zone> some = memory.confirmedZones(*layout, changed, {}, &dropped);
    QCOMPARE(dropped, 1);
    QCOMPARE(some.size(), 3);
    for (const Zone& z : some)
        QVERIFY(z.label != QLatin1String("Submit"));
}

void TestZoneMemory::recallConfirmedWell()
{
    QTemporaryDir dir;
    ZoneMemory memory(dir.path());
    const QRect geometry(0, 0, 400, 300);
    QVERIFY(memory.remember(kProgram, geometry, windowImage(geometry.size()), windowZones({})));
    const auto layout = memory.recall(kProgram, windowImage(geometry.size()));
    QVERIFY(layout);
    // The same pixels: every zone confirmed, the same thumbnail, nothing differs.
    const QImage same = windowImage(geometry.size());
    const ZoneMemory::RecallMatch all = memory.match(*layout, same, memory.confirmedZones(*layout, same, {}));
    QCOMPARE(all.remembered, 4);
    QCOMPARE(all.confirmed, 4);
    QCOMPARE(all.thumbnailDistance, 0.0);
    QVERIFY(all.changed.isEmpty());
    QVERIFY(all.confirmedWell);
    // One button of four looks different: 3 of 4 is below 80 %, and the button is what differs.
    QImage changed = windowImage(geometry.size());
    QPainter p(&changed);
    p.fillRect(QRect(300, 250, 80, 30), QColor(0xee, 0xee, 0xee));
    p.end();
    const ZoneMemory::RecallMatch some =
        memory.match(*layout, changed, memory.confirmedZones(*layout, changed, {}));
    QCOMPARE(some.confirmed, 3);
    QVERIFY(!some.confirmedWell);
    QVERIFY(!some.changed.isEmpty());
    QCOMPARE(some.changed.first(), QRect(300, 250, 80, 30));
}

void TestZoneMemory::forgetAndClear()
{
    QTemporaryDir dir;
    ZoneMemory memory(dir.path());
    const QRect geometry(0, 0, 400, 300);
    QVERIFY(memory.remember(kProgram, geometry, windowImage(geometry.size()), windowZones({})));
    QVERIFY(memory.remember(QStringLiteral("Other App"), geometry, windowImage(geometry.size()),
                            windowZones({})));
    QCOMPARE(memory.programs().size(), 2);
    QString error;
    QVERIFY(memory.forget(kProgram, &error));
    QCOMPARE(memory.programs(), QStringList{QStringLiteral("Other App")});
    QVERIFY(!memory.forget(kProgram, &error));
    QVERIFY(error.contains(kProgram));
    QVERIFY(memory.clear(&error));
    QVERIFY(memory.programs().isEmpty());
}

QTEST_GUILESS_MAIN(TestZoneMemory)
#include "tst_zonememory.moc"
