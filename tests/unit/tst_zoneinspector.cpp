// The zone inspector and its document: every edit kind changes the corrections (and so the effective
// zone map) the right way, is saved, is announced for the canvas mapper, and undoes cleanly.

#include "ui/zonecorrections.h"
#include "ui/zoneinspector.h"
#include "ui/zonelistmodel.h"

#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace ciu;
using namespace ciu::ui;

namespace {

const QString kApp = QStringLiteral("Fixture");

Zone detected(const QString& id, QRect bounds, ZoneType type = ZoneType::Button, const QString& label = {})
{
    Zone z;
    z.id = id;
    z.bounds = bounds;
    z.type = type;
    z.label = label;
    z.confidence = 0.7;
    z.source = ZoneSource::Local;
    z.application = kApp;
    return z;
}

ZoneMapPtr baseMap(QPoint origin = {})
{
    return std::make_shared<const ZoneMap>(
        1, 100, QSize(1280, 800),
        QList<Zone>{
            detected(QStringLiteral("z1"), QRect(10, 10, 100, 30).translated(origin), ZoneType::Button,
                     QStringLiteral("OK")),
            detected(QStringLiteral("z2"), QRect(10, 60, 200, 24).translated(origin), ZoneType::TextField),
            detected(QStringLiteral("z3"), QRect(0, 0, 400, 300).translated(origin), ZoneType::ScrollArea)});
}

QList<platform::WindowInfo> windowsAt(QPoint origin)
{
    platform::WindowInfo w;
    w.id = 42;
    w.windowClass = kApp;
    w.geometry = QRect(origin, QSize(400, 300));
    w.active = true;
    return {w};
}

} // namespace

class TestZoneInspector : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void editProperties();
    void editGeometryTwiceKeepsOneUserZone();
    void deleteDetectedAndUserZones();
    void addDrawnZone();
    void formEditsThroughWidgets();
    void showsTreeFields();
    void invalidEditsAreNotPushed();
    void persistedWindowRelativeAndReapplied();
    void corruptStoreReportsError();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

void TestZoneInspector::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
}

void TestZoneInspector::editProperties()
{
    ZoneCorrections doc{CorrectionStore(m_dir->path())};
    ZoneInspector inspector(&doc);
    QSignalSpy changed(&doc, &ZoneCorrections::correctionsChanged);
    doc.setBaseMap(baseMap());
    QCOMPARE(inspector.listModel()->rowCount(), 3);

    inspector.setSelectedZone(QStringLiteral("z1"));
    QCOMPARE(inspector.selectedZone(), QStringLiteral("z1"));
    QVERIFY(inspector.editProperties(QStringLiteral("Save"), ZoneType::Link,
                                     ZoneStateFlag::Enabled | ZoneStateFlag::Focused));

    // The detected zone is replaced by a user zone with full confidence.
    const ZoneMapPtr map = doc.effectiveMap();
    QVERIFY(!map->find(QStringLiteral("z1")));
    QCOMPARE(map->size(), 3);
    const QString newId = inspector.selectedZone();
    QVERIFY(newId.startsWith(QLatin1Char('u')));
    const Zone* edited = map->find(newId);
    QVERIFY(edited);
    QCOMPARE(edited->label, QStringLiteral("Save"));
    QCOMPARE(toString(edited->labelSource), QStringLiteral("user")); // typed in the inspector
    QVERIFY(edited->type == ZoneType::Link);
    QCOMPARE(edited->state, ZoneState(ZoneStateFlag::Enabled | ZoneStateFlag::Focused));
    QVERIFY(edited->source == ZoneSource::User);
    QCOMPARE(edited->confidence, 1.0);
    QCOMPARE(edited->bounds, QRect(10, 10, 100, 30));

    // Announced for the canvas mapper and saved.
    QCOMPARE(changed.count(), 1);
    const auto set = changed.last().at(0).value<CorrectionSet>();
    QCOMPARE(set.application, kApp);
    QCOMPARE(set.zones.size(), 1);
    QCOMPARE(set.suppressed, QList<QRect>{QRect(10, 10, 100, 30)});
    QVERIFY(QFile::exists(doc.store().filePath(kApp)));
    // The file keeps where the label came from.
    const auto stored = doc.store().load(kApp);
    QVERIFY(stored && stored->zones.size() == 1);
    QCOMPARE(toString(stored->zones.first().labelSource), QStringLiteral("user"));

    // Undo restores the detected zone and removes the file; redo brings the edit back.
    inspector.undoStack()->undo();
    QVERIFY(doc.effectiveMap()->find(QStringLiteral("z1")));
    QVERIFY(!doc.effectiveMap()->find(newId));
    QCOMPARE(inspector.selectedZone(), QStringLiteral("z1"));
    QVERIFY(doc.corrections(kApp).isEmpty());
    QVERIFY(!QFile::exists(doc.store().filePath(kApp)));
    inspector.undoStack()->redo();
    QCOMPARE(doc.effectiveMap()->find(newId)->label, QStringLiteral("Save"));
    QCOMPARE(inspector.selectedZone(), newId);
}

void TestZoneInspector::editGeometryTwiceKeepsOneUserZone()
{
    ZoneCorrections doc{CorrectionStore(m_dir->path())};
    ZoneInspector inspector(&doc);
    doc.setBaseMap(baseMap());
    inspector.setSelectedZone(QStringLiteral("z2"));
    QVERIFY(inspector.editGeometry(QRect(12, 62, 150, 20)));
    const QString id = inspector.selectedZone();
    QCOMPARE(doc.effectiveMap()->find(id)->bounds, QRect(12, 62, 150, 20));
    // A geometry edit keeps where the label came from (only a typed label is the user's).
    QVERIFY(doc.effectiveMap()->find(id)->labelSource == LabelSource::Unknown);
    // The second edit of a user zone changes it in place (same id, still one suppressed region).
    inspector.setZoneGeometry(id, QRect(20, 70, 100, 20));
    QCOMPARE(inspector.selectedZone(), id);
    QCOMPARE(doc.corrections(kApp).zones.size(), 1);
    QCOMPARE(doc.corrections(kApp).suppressed.size(), 1);
    QCOMPARE(doc.effectiveMap()->find(id)->bounds, QRect(20, 70, 100, 20));
    QCOMPARE(inspector.undoStack()->count(), 2);
    inspector.undoStack()->undo();
    QCOMPARE(doc.effectiveMap()->find(id)->bounds, QRect(12, 62, 150, 20));
    inspector.undoStack()->undo();
    QCOMPARE(doc.effectiveMap()->find(QStringLiteral("z2"))->bounds, QRect(10, 60, 200, 24));
    QCOMPARE(doc.effectiveMap()->size(), 3);
}

void TestZoneInspector::deleteDetectedAndUserZones()
{
    ZoneCorrections doc{CorrectionStore(m_dir->path())};
    ZoneInspector inspector(&doc);
    QSignalSpy suppressed(&doc, &ZoneCorrections::suppressedRegionsChanged);
    doc.setBaseMap(baseMap());
    inspector.setSelectedZone(QStringLiteral("z1"));
    inspector.deleteSelectedZone();
    QVERIFY(!doc.effectiveMap()->find(QStringLiteral("z1")));
    QCOMPARE(doc.effectiveMap()->size(), 2);
    QCOMPARE(doc.corrections(kApp).suppressed, QList<QRect>{QRect(10, 10, 100, 30)});
    // The canvas is told, in root coordinates, so its next analysis does not bring z1 back.
    QVERIFY(!suppressed.isEmpty());
    QCOMPARE(suppressed.constLast().first().value<QList<QRect>>(), QList<QRect>{QRect(10, 10, 100, 30)});
    QCOMPARE(doc.suppressedRegions(), QList<QRect>{QRect(10, 10, 100, 30)});
    QVERIFY(inspector.selectedZone().isEmpty());

    // A new base map from the canvas still has z1: it stays suppressed.
    doc.setBaseMap(baseMap());
    QVERIFY(!doc.effectiveMap()->find(QStringLiteral("z1")));

    inspector.addZone(QRect(300, 300, 40, 40));
    const QString added = inspector.selectedZone();
    QVERIFY(doc.effectiveMap()->find(added));
    inspector.deleteSelectedZone();
    QVERIFY(!doc.effectiveMap()->find(added));
    QCOMPARE(doc.corrections(kApp).zones.size(), 0); // a user zone is removed, not suppressed
    QCOMPARE(doc.corrections(kApp).suppressed.size(), 1);

    inspector.undoStack()->undo(); // the user zone is back
    QVERIFY(doc.effectiveMap()->find(added));
    inspector.undoStack()->undo(); // not added
    inspector.undoStack()->undo(); // not deleted
    QVERIFY(doc.effectiveMap()->find(QStringLiteral("z1")));
    QVERIFY(doc.corrections(kApp).isEmpty());
}

void TestZoneInspector::addDrawnZone()
{
    ZoneCorrections doc{CorrectionStore(m_dir->path())};
    ZoneInspector inspector(&doc);
    QSignalSpy selected(&inspector, &ZoneInspector::zoneSelected);
    doc.setBaseMap(baseMap());
    inspector.addZone(QRect(50, 200, 60, 25)); // drawn inside z3 (application Fixture)
    const QString id = inspector.selectedZone();
    const Zone* zone = doc.effectiveMap()->find(id);
    QVERIFY(zone);
    QCOMPARE(zone->bounds, QRect(50, 200, 60, 25));
    QVERIFY(zone->source == ZoneSource::User);
    QCOMPARE(toString(zone->labelSource), QStringLiteral("user"));
    QCOMPARE(zone->application, kApp);
    QCOMPARE(zone->confidence, 1.0);
    QCOMPARE(selected.last().at(0).toString(), id);
    QCOMPARE(doc.effectiveMap()->size(), 4); // nothing suppressed
    QVERIFY(doc.corrections(kApp).suppressed.isEmpty());
    inspector.undoStack()->undo();
    QCOMPARE(doc.effectiveMap()->size(), 3);
}

void TestZoneInspector::formEditsThroughWidgets()
{
    ZoneCorrections doc{CorrectionStore(m_dir->path())};
    ZoneInspector inspector(&doc);
    doc.setBaseMap(baseMap());
    inspector.setSelectedZone(QStringLiteral("z1"));
    auto* label = inspector.findChild<QLineEdit*>();
    QVERIFY(label);
    // The first line edit is the zone filter; find the label field by its accessible name.
    for (auto* edit : inspector.findChildren<QLineEdit*>()) {
        if (edit->accessibleName() == QStringLiteral("Zone label"))
            label = edit;
    }
    QCOMPARE(label->text(), QStringLiteral("OK"));
    label->setText(QStringLiteral("Apply"));
    emit label->editingFinished();
    QCOMPARE(inspector.undoStack()->count(), 1);
    QCOMPARE(doc.effectiveMap()->find(inspector.selectedZone())->label, QStringLiteral("Apply"));
    // Finishing without a change pushes nothing.
    emit label->editingFinished();
    QCOMPARE(inspector.undoStack()->count(), 1);
}

void TestZoneInspector::showsTreeFields()
{
    ZoneCorrections doc{CorrectionStore(m_dir->path())};
    ZoneInspector inspector(&doc);
    Zone tree =
        detected(QStringLiteral("z4"), QRect(10, 100, 120, 24), ZoneType::TextField, QStringLiteral("Name"));
    tree.source = ZoneSource::Accessibility;
    tree.role = QStringLiteral("text");
    tree.value = QStringLiteral("Ada");
    tree.accessiblePath = QStringLiteral("0/2/1");
    tree.accessibleRef = QStringLiteral(":1.5:/org/a11y/atspi/accessible/7");
    Zone secret = tree;
    secret.id = QStringLiteral("z5");
    secret.bounds.translate(0, 40);
    secret.isPassword = true;
    secret.value = QStringLiteral("hunter2");
    QList<Zone> zones = baseMap()->zones();
    zones << tree << secret;
    doc.setBaseMap(std::make_shared<const ZoneMap>(1, 100, QSize(1280, 800), zones));
    inspector.show();
    const auto label = [&inspector](const QString& name) {
        for (auto* l : inspector.findChildren<QLabel*>()) {
            if (l->accessibleName() == name)
                return l;
        }
        return static_cast<QLabel*>(nullptr);
    };
    QLabel* role = label(QStringLiteral("Zone role"));
    QLabel* value = label(QStringLiteral("Zone value"));
    QLabel* path = label(QStringLiteral("Accessible path"));
    QVERIFY(role && value && path);

    inspector.setSelectedZone(QStringLiteral("z4"));
    QCOMPARE(role->text(), QStringLiteral("text"));
    QCOMPARE(value->text(), QStringLiteral("Ada"));
    QCOMPARE(path->text(), QStringLiteral("0/2/1 (:1.5:/org/a11y/atspi/accessible/7)"));
    QVERIFY(role->isVisible() && value->isVisible() && path->isVisible());
    // A password field's value is never shown (the backend never reads it either).
    inspector.setSelectedZone(QStringLiteral("z5"));
    QVERIFY(value->text().isEmpty());
    QVERIFY(!value->isVisible());
    QVERIFY(role->isVisible());
    // A zone of vision has none of these rows.
    inspector.setSelectedZone(QStringLiteral("z1"));
    QVERIFY(!role->isVisible() && !value->isVisible() && !path->isVisible());
}

void TestZoneInspector::invalidEditsAreNotPushed()
{
    ZoneCorrections doc{CorrectionStore(m_dir->path())};
    ZoneInspector inspector(&doc);
    doc.setBaseMap(baseMap());
    QVERIFY(!inspector.editProperties(QStringLiteral("x"), ZoneType::Button, {})); // nothing selected
    inspector.setSelectedZone(QStringLiteral("nope"));
    QVERIFY(inspector.selectedZone().isEmpty());
    inspector.setZoneGeometry(QStringLiteral("nope"), QRect(0, 0, 10, 10));
    inspector.setSelectedZone(QStringLiteral("z1"));
    QVERIFY(!inspector.editGeometry(QRect(0, 0, 0, 10)));     // empty
    QVERIFY(!inspector.editGeometry(QRect(10, 10, 100, 30))); // unchanged
    QVERIFY(!inspector.editProperties(QStringLiteral("OK"), ZoneType::Button,
                                      ZoneStateFlag::Enabled)); // unchanged
    inspector.addZone(QRect(0, 0, 0, 0));
    QCOMPARE(inspector.undoStack()->count(), 0);
    QVERIFY(doc.corrections(kApp).isEmpty());
}

void TestZoneInspector::persistedWindowRelativeAndReapplied()
{
    QString editedId;
    {
        ZoneCorrections doc{CorrectionStore(m_dir->path())};
        ZoneInspector inspector(&doc);
        doc.setWindows(windowsAt(QPoint(100, 50)));
        doc.setBaseMap(baseMap(QPoint(100, 50)));
        inspector.setSelectedZone(QStringLiteral("z1"));
        QVERIFY(inspector.editProperties(QStringLiteral("Save"), ZoneType::Button, ZoneStateFlag::Enabled));
        editedId = inspector.selectedZone();
        // Stored relative to the window.
        QCOMPARE(doc.corrections(kApp).zones.first().bounds, QRect(10, 10, 100, 30));
        QCOMPARE(doc.corrections(kApp).suppressed.first(), QRect(10, 10, 100, 30));
    }
    // Next session: the window is elsewhere; the correction is loaded when the application is seen.
    ZoneCorrections doc{CorrectionStore(m_dir->path())};
    QSignalSpy changed(&doc, &ZoneCorrections::correctionsChanged);
    doc.setWindows(windowsAt(QPoint(300, 150)));
    doc.setBaseMap(baseMap(QPoint(300, 150)));
    QCOMPARE(changed.count(), 1); // announced for the canvas mapper
    const ZoneMapPtr map = doc.effectiveMap();
    QVERIFY(!map->find(QStringLiteral("z1")));
    const Zone* zone = map->find(editedId);
    QVERIFY(zone);
    QCOMPARE(zone->bounds, QRect(310, 160, 100, 30));
    QCOMPARE(zone->label, QStringLiteral("Save"));
    // The replaced detection is suppressed where the window is now.
    QCOMPARE(doc.suppressedRegions(), QList<QRect>{QRect(310, 160, 100, 30)});
}

void TestZoneInspector::corruptStoreReportsError()
{
    const CorrectionStore store(m_dir->path());
    QFile file(store.filePath(kApp));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{ not json");
    file.close();
    ZoneCorrections doc{store};
    QSignalSpy errors(&doc, &ZoneCorrections::errorOccurred);
    doc.setBaseMap(baseMap());
    QCOMPARE(errors.count(), 1);
    QVERIFY(errors.first().at(0).toString().contains(kApp));
    QCOMPARE(doc.effectiveMap()->size(), 3); // the map is still shown
}

QTEST_MAIN(TestZoneInspector)
#include "tst_zoneinspector.moc"
