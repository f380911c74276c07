// An app schema's named zones on a map (applySchemaZones): a detection at a named zone's place takes its name
// unless the user or the tree named it; a named zone with nothing there is added (source schema), not when a
// window above covers it or it does not fit in the window; other programs' zones are left alone; idempotent.

#include "core/knowledge/schemazones.h"
#include "tests/support/testzones.h"

#include <QTest>

using namespace ciu;
using ciu::test::zone;

namespace {

platform::WindowInfo editorWindow()
{
    platform::WindowInfo w;
    w.id = 42;
    w.windowClass = QStringLiteral("Mousepad");
    w.geometry = QRect(100, 50, 600, 400);
    return w;
}

const QList<NamedZone> kNamed{
    {QStringLiteral("Save button"), QRect(40, 10, 30, 30), ZoneType::Button},
    {QStringLiteral("Search field"), QRect(300, 10, 200, 24), ZoneType::TextField},
    {QStringLiteral("Status bar"), QRect(0, 370, 600, 30)},
};

const Zone* byId(const QList<Zone>& zones, const QString& id)
{
    for (const Zone& z : zones) {
        if (z.id == id)
            return &z;
    }
    return nullptr;
}

} // namespace

class TestSchemaZones : public QObject
{
    Q_OBJECT
private slots:
    void detectionTakesTheName();
    void userAndTreeNamesWin_data();
    void userAndTreeNamesWin();
    void missingZoneIsAdded();
    void coveredOrNotFittingIsNotAdded();
    void otherProgramsAreLeftAlone();
    void idempotent();
};

void TestSchemaZones::detectionTakesTheName()
{
    // The save icon as vision found it, a few pixels off the schema's place (root: window origin + place).
    Zone icon = zone(QStringLiteral("z1"), ZoneType::Button, QString(), QRect(142, 62, 30, 28));
    icon.labelSource = LabelSource::Icon;
    Zone ocr =
        zone(QStringLiteral("z2"), ZoneType::Static, QStringLiteral("Ln 1, Col 1"), QRect(100, 421, 600, 28));
    ocr.labelSource = LabelSource::Ocr;
    const QList<Zone> result = applySchemaZones(kNamed, editorWindow(), {icon, ocr}, {editorWindow()}, 7);
    QCOMPARE(byId(result, QStringLiteral("z1"))->label, QStringLiteral("Save button"));
    QVERIFY(byId(result, QStringLiteral("z1"))->labelSource == LabelSource::Schema);
    QVERIFY(byId(result, QStringLiteral("z1"))->source == ZoneSource::Local); // still vision's zone
    QCOMPARE(byId(result, QStringLiteral("z1"))->bounds, icon.bounds);
    QCOMPARE(byId(result, QStringLiteral("z2"))->label, QStringLiteral("Status bar")); // OCR is outranked
    QCOMPARE(result.size(), 3); // and the search field added
}

void TestSchemaZones::userAndTreeNamesWin_data()
{
    QTest::addColumn<int>("source");
    QTest::addColumn<int>("labelSource");
    QTest::addColumn<QString>("expected");
    QTest::newRow("tree") << int(ZoneSource::Accessibility) << int(LabelSource::Tree) << "Save";
    QTest::newRow("tree, label source unrecorded")
        << int(ZoneSource::Accessibility) << int(LabelSource::Unknown) << "Save";
    QTest::newRow("typed by the user") << int(ZoneSource::Local) << int(LabelSource::User) << "Save";
    QTest::newRow("user zone") << int(ZoneSource::User) << int(LabelSource::Unknown) << "Save";
    QTest::newRow("ocr") << int(ZoneSource::Local) << int(LabelSource::Ocr) << "Save button";
    QTest::newRow("model") << int(ZoneSource::Model) << int(LabelSource::Model) << "Save button";
    QTest::newRow("icon") << int(ZoneSource::Local) << int(LabelSource::Icon) << "Save button";
}

void TestSchemaZones::userAndTreeNamesWin()
{
    QFETCH(int, source);
    QFETCH(int, labelSource);
    QFETCH(QString, expected);
    Zone z = zone(QStringLiteral("z1"), ZoneType::Button, QStringLiteral("Save"), QRect(140, 60, 30, 30));
    z.source = ZoneSource(source);
    z.labelSource = LabelSource(labelSource);
    const QList<Zone> result = applySchemaZones(kNamed, editorWindow(), {z}, {editorWindow()});
    QCOMPARE(byId(result, QStringLiteral("z1"))->label, expected);
    // Never a second zone at the place of one that is there.
    QCOMPARE(result.size(), 3);
}

void TestSchemaZones::missingZoneIsAdded()
{
    const QList<Zone> result = applySchemaZones(kNamed, editorWindow(), {}, {editorWindow()}, 99);
    QCOMPARE(result.size(), 3);
    const Zone* search = byId(result, schemaZoneId(42, QStringLiteral("Search field")));
    QVERIFY(search);
    QCOMPARE(search->bounds, QRect(400, 60, 200, 24));
    QCOMPARE(search->label, QStringLiteral("Search field"));
    QVERIFY(search->type == ZoneType::TextField);
    QVERIFY(search->source == ZoneSource::Schema);
    QVERIFY(search->labelSource == LabelSource::Schema);
    QCOMPARE(search->confidence, kSchemaZoneConfidence);
    QCOMPARE(search->application, QStringLiteral("Mousepad"));
    QCOMPARE(search->windowId, quint64(42));
    QCOMPARE(search->lastSeenNs, qint64(99));
    QCOMPARE(search->events, QStringList{QStringLiteral("click")});
    const Zone* status = byId(result, schemaZoneId(42, QStringLiteral("Status bar")));
    QVERIFY(status && status->type == ZoneType::Static && status->events.isEmpty());
    // Ids are stable per window and name.
    QCOMPARE(schemaZoneId(42, QStringLiteral("Search field")), search->id);
    QVERIFY(schemaZoneId(43, QStringLiteral("Search field")) != search->id);
    QVERIFY(search->id.startsWith(QLatin1Char('s')) && search->id.size() == 9);
}

void TestSchemaZones::coveredOrNotFittingIsNotAdded()
{
    platform::WindowInfo dialog;
    dialog.id = 43;
    dialog.geometry = QRect(350, 40, 300, 200); // over the search field's centre (500, 72)
    QList<Zone> result = applySchemaZones(kNamed, editorWindow(), {}, {editorWindow(), dialog});
    QVERIFY(!byId(result, schemaZoneId(42, QStringLiteral("Search field"))));
    QVERIFY(byId(result, schemaZoneId(42, QStringLiteral("Save button"))));
    // A smaller window: the status bar's place is outside it.
    platform::WindowInfo small = editorWindow();
    small.geometry.setHeight(300);
    result = applySchemaZones(kNamed, small, {}, {small});
    QVERIFY(!byId(result, schemaZoneId(42, QStringLiteral("Status bar"))));
    QCOMPARE(result.size(), 2);
    // A user zone without a name (a correction) names nothing.
    result = applySchemaZones({{QString(), QRect(0, 0, 10, 10), ZoneType::Button, ShortcutSource::User}},
                              editorWindow(), {}, {editorWindow()});
    QVERIFY(result.isEmpty());
}

void TestSchemaZones::otherProgramsAreLeftAlone()
{
    Zone other = zone(QStringLiteral("z1"), ZoneType::Button, QStringLiteral("Keep"), QRect(140, 60, 30, 30));
    other.application = QStringLiteral("FeatherPad");
    Zone otherWindow = other;
    otherWindow.id = QStringLiteral("z2");
    otherWindow.application = QStringLiteral("Mousepad");
    otherWindow.windowId = 77; // another Mousepad window at the same place
    const QList<Zone> result =
        applySchemaZones(kNamed, editorWindow(), {other, otherWindow}, {editorWindow()});
    QCOMPARE(byId(result, QStringLiteral("z1"))->label, QStringLiteral("Keep"));
    QCOMPARE(byId(result, QStringLiteral("z2"))->label, QStringLiteral("Keep"));
    QVERIFY(byId(result, schemaZoneId(42, QStringLiteral("Save button")))); // nothing of this window there
}

void TestSchemaZones::idempotent()
{
    Zone icon = zone(QStringLiteral("z1"), ZoneType::Button, QString(), QRect(142, 62, 30, 28));
    const QList<Zone> once = applySchemaZones(kNamed, editorWindow(), {icon}, {editorWindow()}, 5);
    QCOMPARE(applySchemaZones(kNamed, editorWindow(), once, {editorWindow()}, 5), once);
    QCOMPARE(applySchemaZones({}, editorWindow(), {icon}, {editorWindow()}), QList<Zone>{icon});
}

QTEST_GUILESS_MAIN(TestSchemaZones)
#include "tst_schemazones.moc"
