// Zones from an accessibility snapshot (roles, states, labels, clipping, occlusion, own and foreign
// windows) and the fusion of tree zones with vision zones; the zone JSON's accessibility fields.

#include "core/canvas/accessibilityzones.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace ciu;
using namespace ciu::canvas;
using platform::AccessibilitySnapshot;
using platform::AccessibleNode;
using platform::WindowInfo;

namespace {

constexpr qint64 kAppPid = 4242;

AccessibleNode window(const QString& ref, const QRect& bounds, qint64 pid = kAppPid)
{
    AccessibleNode n;
    n.ref = ref;
    n.windowRef = ref;
    n.role = QStringLiteral("frame");
    n.name = QStringLiteral("App");
    n.states = {QStringLiteral("showing"), QStringLiteral("visible"), QStringLiteral("enabled")};
    n.bounds = bounds;
    n.pid = pid;
    n.application = QStringLiteral("app");
    n.childPath = {0, 0};
    return n;
}

AccessibleNode node(const QString& ref, const AccessibleNode& parent, const QString& role,
                    const QString& name, const QRect& bounds, QStringList extraStates = {})
{
    AccessibleNode n;
    n.ref = ref;
    n.parentRef = parent.ref;
    n.windowRef = parent.windowRef;
    n.role = role;
    n.name = name;
    n.states = QStringList{QStringLiteral("showing"), QStringLiteral("visible"), QStringLiteral("enabled")} +
               extraStates;
    n.bounds = bounds;
    n.pid = parent.pid;
    n.application = parent.application;
    n.depth = parent.depth + 1;
    n.childPath = parent.childPath + QList<int>{0};
    return n;
}

WindowInfo managed(quint64 id, const QRect& geometry, qint64 pid = kAppPid)
{
    WindowInfo w;
    w.id = id;
    w.geometry = geometry;
    w.pid = pid;
    w.windowClass = QStringLiteral("App");
    return w;
}

const Zone* zoneByRef(const QList<Zone>& zones, const QString& ref)
{
    for (const Zone& z : zones) {
        if (z.accessibleRef == ref)
            return &z;
    }
    return nullptr;
}

} // namespace

class TestAccessibilityZones : public QObject
{
    Q_OBJECT

private slots:
    void roleMapping_data();
    void roleMapping();
    void statesAndLabels();
    void passwordHasNoValue();
    void clippedToWindowAndScreen();
    void coveredByWindowAbove();
    void ownAndForeignWindowsSkipped();
    void popupCoversManagedWindow();
    void popupListUnderItsComboIsShown();
    void parentsByTree();
    void fusionTreeWins();
    void fusionKeepsUnexplainedVision();
    void fusionTextSeenByBothIsOne();
    void zoneJsonRoundTrip();
    void oldZoneJsonStillReads();
};

void TestAccessibilityZones::roleMapping_data()
{
    QTest::addColumn<QString>("role");
    QTest::addColumn<int>("type"); // -1: no zone
    QTest::newRow("push button") << "push button" << int(ZoneType::Button);
    QTest::newRow("toggle button") << "toggle button" << int(ZoneType::Button);
    QTest::newRow("check box") << "check box" << int(ZoneType::CheckBox);
    QTest::newRow("radio button") << "radio button" << int(ZoneType::CheckBox);
    QTest::newRow("entry") << "entry" << int(ZoneType::TextField);
    QTest::newRow("password text") << "password text" << int(ZoneType::TextField);
    QTest::newRow("spin button") << "spin button" << int(ZoneType::TextField);
    QTest::newRow("combo box") << "combo box" << int(ZoneType::Dropdown);
    QTest::newRow("menu item") << "menu item" << int(ZoneType::MenuItem);
    QTest::newRow("menu") << "menu" << int(ZoneType::MenuItem);
    QTest::newRow("page tab") << "page tab" << int(ZoneType::Tab);
    QTest::newRow("slider") << "slider" << int(ZoneType::Slider);
    QTest::newRow("scroll bar") << "scroll bar" << int(ZoneType::ScrollArea);
    QTest::newRow("link") << "link" << int(ZoneType::Link);
    QTest::newRow("list item") << "list item" << int(ZoneType::Button);
    QTest::newRow("table cell") << "table cell" << int(ZoneType::Button);
    QTest::newRow("label") << "label" << int(ZoneType::Static);
    QTest::newRow("heading") << "heading" << int(ZoneType::Static);
    QTest::newRow("table column header") << "table column header" << int(ZoneType::Static);
    QTest::newRow("panel") << "panel" << -1;
    QTest::newRow("filler") << "filler" << -1;
    QTest::newRow("frame") << "frame" << -1;
    QTest::newRow("page tab list") << "page tab list" << -1;
    QTest::newRow("list") << "list" << int(ZoneType::ScrollArea);
    QTest::newRow("scroll pane") << "scroll pane" << int(ZoneType::ScrollArea);
}

void TestAccessibilityZones::roleMapping()
{
    QFETCH(QString, role);
    QFETCH(int, type);
    const std::optional<ZoneType> mapped = zoneTypeForRole(role);
    if (type < 0)
        QVERIFY(!mapped);
    else
        QCOMPARE(int(mapped.value_or(ZoneType(0))), type);
}

void TestAccessibilityZones::statesAndLabels()
{
    AccessibilitySnapshot s;
    const AccessibleNode w = window(QStringLiteral(":1.5:/w"), QRect(100, 100, 400, 300));
    s.nodes << w;
    s.nodes << node(QStringLiteral(":1.5:/check"), w, QStringLiteral("check box"),
                    QStringLiteral("Subscribe"), QRect(110, 110, 80, 20),
                    {QStringLiteral("checked"), QStringLiteral("focused")});
    AccessibleNode unchecked = node(QStringLiteral(":1.5:/check2"), w, QStringLiteral("check box"),
                                    QStringLiteral("Remember"), QRect(210, 110, 80, 20));
    unchecked.states.removeAll(QStringLiteral("enabled"));
    s.nodes << unchecked;
    AccessibleNode entry = node(QStringLiteral(":1.5:/entry"), w, QStringLiteral("text"), QString(),
                                QRect(110, 140, 200, 24), {QStringLiteral("editable")});
    entry.labelledBy = QStringLiteral("Name:");
    entry.value = QStringLiteral("Ada");
    entry.keyBinding = QStringLiteral("<Alt>n");
    s.nodes << entry;
    AccessibleNode readOnly =
        node(QStringLiteral(":1.5:/ro"), w, QStringLiteral("text"), QString(), QRect(110, 170, 200, 24));
    readOnly.value = QStringLiteral("Read me");
    s.nodes << readOnly;
    s.nodes << node(QStringLiteral(":1.5:/emptylabel"), w, QStringLiteral("label"), QString(),
                    QRect(110, 200, 50, 20));
    AccessibleNode combo = node(QStringLiteral(":1.5:/combo"), w, QStringLiteral("combo box"), QString(),
                                QRect(110, 230, 100, 24));
    combo.description = QStringLiteral("Colour");
    combo.value = QStringLiteral("Green");
    s.nodes << combo;
    AccessibilityScene scene;
    scene.windows = {managed(7, QRect(100, 100, 400, 300))};
    const AccessibilityZones result = zonesFromAccessibility(s, scene);

    const Zone* check = zoneByRef(result.zones, QStringLiteral(":1.5:/check"));
    QVERIFY(check);
    QCOMPARE(int(check->type), int(ZoneType::CheckBox));
    QCOMPARE(check->label, QStringLiteral("Subscribe"));
    QCOMPARE(check->state,
             ZoneState(ZoneStateFlag::Enabled | ZoneStateFlag::Checked | ZoneStateFlag::Focused));
    QCOMPARE(int(check->source), int(ZoneSource::Accessibility));
    QCOMPARE(check->role, QStringLiteral("check box"));
    QCOMPARE(check->windowId, quint64(7));
    QCOMPARE(check->application, QStringLiteral("App"));
    QCOMPARE(check->bounds, QRect(110, 110, 80, 20));
    const Zone* check2 = zoneByRef(result.zones, QStringLiteral(":1.5:/check2"));
    QVERIFY(check2);
    QCOMPARE(check2->state, ZoneState(ZoneStateFlag::Disabled | ZoneStateFlag::Unchecked));

    const Zone* field = zoneByRef(result.zones, QStringLiteral(":1.5:/entry"));
    QVERIFY(field);
    QCOMPARE(int(field->type), int(ZoneType::TextField));
    QCOMPARE(field->label, QStringLiteral("Name:")); // labelled-by, not the typed text
    QCOMPARE(field->value, QStringLiteral("Ada"));
    QCOMPARE(field->keyBinding, QStringLiteral("<Alt>n"));
    QVERIFY(field->state.testFlag(ZoneStateFlag::Editable));

    const Zone* ro = zoneByRef(result.zones, QStringLiteral(":1.5:/ro"));
    QVERIFY(ro);
    QCOMPARE(int(ro->type), int(ZoneType::Static)); // read-only text is read, not typed into
    QCOMPARE(ro->label, QStringLiteral("Read me"));

    QVERIFY(!zoneByRef(result.zones, QStringLiteral(":1.5:/emptylabel"))); // nothing to read
    const Zone* dropdown = zoneByRef(result.zones, QStringLiteral(":1.5:/combo"));
    QVERIFY(dropdown);
    QCOMPARE(dropdown->label, QStringLiteral("Colour"));
    QCOMPARE(dropdown->value, QStringLiteral("Green"));
    QVERIFY(dropdown->state.testFlag(ZoneStateFlag::Collapsed));
    QCOMPARE(result.zones.size(), 5);
}

void TestAccessibilityZones::passwordHasNoValue()
{
    AccessibilitySnapshot s;
    const AccessibleNode w = window(QStringLiteral(":1.5:/w"), QRect(0, 0, 300, 200));
    AccessibleNode pw =
        node(QStringLiteral(":1.5:/pw"), w, QStringLiteral("password text"), QStringLiteral("Password"),
             QRect(10, 10, 100, 20), {QStringLiteral("editable")});
    pw.value = QStringLiteral("hunter2"); // a backend never reads it; even if one did, it goes nowhere
    pw.characterCount = 7;                // what the backend reads instead: how many characters
    AccessibleNode entry = node(QStringLiteral(":1.5:/e"), w, QStringLiteral("text"), QStringLiteral("Name"),
                                QRect(10, 40, 100, 20), {QStringLiteral("editable")});
    entry.characterCount = 3; // only a password field's count is kept
    s.nodes << w << pw << entry;
    const AccessibilityZones result = zonesFromAccessibility(s, {});
    QCOMPARE(result.zones.size(), 2);
    QVERIFY(result.zones.first().isPassword);
    QVERIFY(result.zones.first().value.isEmpty());
    QCOMPARE(result.zones.first().textLength, 7);
    QCOMPARE(result.zones.last().textLength, -1);
    QVERIFY(!toJson(result.zones.first()).contains(QStringLiteral("value")));
}

void TestAccessibilityZones::clippedToWindowAndScreen()
{
    AccessibilitySnapshot s;
    const AccessibleNode w = window(QStringLiteral(":1.5:/w"), QRect(700, 100, 400, 300));
    s.nodes << w;
    // Half outside the window (scrolled), mostly off the screen, zero-sized, not showing.
    s.nodes << node(QStringLiteral(":1.5:/half"), w, QStringLiteral("push button"), QStringLiteral("Half"),
                    QRect(690, 120, 40, 20));
    s.nodes << node(QStringLiteral(":1.5:/off"), w, QStringLiteral("push button"), QStringLiteral("Off"),
                    QRect(790, 120, 40, 20));
    s.nodes << node(QStringLiteral(":1.5:/zero"), w, QStringLiteral("push button"), QStringLiteral("Zero"),
                    QRect(720, 150, 0, 0));
    AccessibleNode hidden = node(QStringLiteral(":1.5:/hidden"), w, QStringLiteral("push button"),
                                 QStringLiteral("Hidden"), QRect(720, 180, 40, 20));
    hidden.states.removeAll(QStringLiteral("visible"));
    s.nodes << hidden;
    AccessibilityScene scene;
    scene.windows = {managed(1, QRect(700, 100, 400, 300))};
    scene.screen = QRect(0, 0, 800, 600);
    const AccessibilityZones result = zonesFromAccessibility(s, scene);
    const Zone* half = zoneByRef(result.zones, QStringLiteral(":1.5:/half"));
    QVERIFY(half);
    QCOMPARE(half->bounds, QRect(700, 120, 30, 20)); // the part inside the window
    const Zone* off = zoneByRef(result.zones, QStringLiteral(":1.5:/off"));
    QVERIFY(off);
    QCOMPARE(off->bounds, QRect(790, 120, 10, 20)); // 10 of 40 px on screen: kept, clipped
    QVERIFY(!zoneByRef(result.zones, QStringLiteral(":1.5:/zero")));
    QVERIFY(!zoneByRef(result.zones, QStringLiteral(":1.5:/hidden")));
    QCOMPARE(result.zones.size(), 2);
}

void TestAccessibilityZones::coveredByWindowAbove()
{
    AccessibilitySnapshot s;
    const AccessibleNode w = window(QStringLiteral(":1.5:/w"), QRect(0, 0, 600, 400));
    s.nodes << w;
    s.nodes << node(QStringLiteral(":1.5:/under"), w, QStringLiteral("push button"), QStringLiteral("Under"),
                    QRect(100, 100, 80, 20));
    s.nodes << node(QStringLiteral(":1.5:/partly"), w, QStringLiteral("push button"),
                    QStringLiteral("Partly"), QRect(280, 300, 40, 20));
    s.nodes << node(QStringLiteral(":1.5:/free"), w, QStringLiteral("push button"), QStringLiteral("Free"),
                    QRect(400, 350, 80, 20));
    AccessibilityScene scene;
    // Another program's window (no accessibility) above, covering the first button and half of the second.
    scene.windows = {managed(1, QRect(0, 0, 600, 400)), managed(2, QRect(50, 50, 250, 300), 999)};
    const AccessibilityZones result = zonesFromAccessibility(s, scene);
    QVERIFY(!zoneByRef(result.zones, QStringLiteral(":1.5:/under")));
    const Zone* partly = zoneByRef(result.zones, QStringLiteral(":1.5:/partly"));
    QVERIFY(partly);
    QCOMPARE(partly->bounds, QRect(300, 300, 20, 20));
    QVERIFY(zoneByRef(result.zones, QStringLiteral(":1.5:/free")));
    // The same stacking the other way round: nothing covers the accessible window.
    std::swap(scene.windows[0], scene.windows[1]);
    QCOMPARE(zonesFromAccessibility(s, scene).zones.size(), 3);
}

void TestAccessibilityZones::ownAndForeignWindowsSkipped()
{
    AccessibilitySnapshot s;
    const AccessibleNode own = window(QStringLiteral(":1.9:/own"), QRect(0, 0, 300, 300), 77);
    const AccessibleNode foreign = window(QStringLiteral(":1.8:/foreign"), QRect(0, 0, 300, 300), 88);
    const AccessibleNode here = window(QStringLiteral(":1.5:/here"), QRect(400, 0, 300, 300));
    s.nodes << own
            << node(QStringLiteral(":1.9:/b"), own, QStringLiteral("push button"), QStringLiteral("Own"),
                    QRect(10, 10, 50, 20));
    s.nodes << foreign
            << node(QStringLiteral(":1.8:/b"), foreign, QStringLiteral("push button"),
                    QStringLiteral("Foreign"), QRect(10, 40, 50, 20));
    s.nodes << here
            << node(QStringLiteral(":1.5:/b"), here, QStringLiteral("push button"), QStringLiteral("Here"),
                    QRect(410, 10, 50, 20));
    AccessibilityScene scene;
    // The agent's window (pid 77) is on this display; pid 88's window is on another display on the bus.
    scene.windows = {managed(1, QRect(0, 0, 300, 300), 77), managed(2, QRect(400, 0, 300, 300))};
    scene.ownPid = 77;
    const AccessibilityZones result = zonesFromAccessibility(s, scene);
    QCOMPARE(result.zones.size(), 1);
    QCOMPARE(result.zones.first().label, QStringLiteral("Here"));
    // Excluded regions (the agent's windows when it runs elsewhere) drop zones too.
    scene.ownPid = -1;
    scene.excluded = {QRect(400, 0, 100, 100)};
    const AccessibilityZones excluded = zonesFromAccessibility(s, scene);
    QVERIFY(!zoneByRef(excluded.zones, QStringLiteral(":1.5:/b")));
}

void TestAccessibilityZones::popupCoversManagedWindow()
{
    AccessibilitySnapshot s;
    const AccessibleNode main = window(QStringLiteral(":1.5:/main"), QRect(0, 0, 600, 400));
    AccessibleNode popup = window(QStringLiteral(":1.5:/menu"), QRect(20, 30, 120, 60));
    popup.role = QStringLiteral("window");
    s.nodes << main
            << node(QStringLiteral(":1.5:/under"), main, QStringLiteral("push button"),
                    QStringLiteral("Under"), QRect(30, 40, 80, 20));
    s.nodes << popup
            << node(QStringLiteral(":1.5:/item"), popup, QStringLiteral("menu item"), QStringLiteral("Open"),
                    QRect(22, 32, 116, 22));
    AccessibilityScene scene;
    scene.windows = {managed(1, QRect(0, 0, 600, 400))}; // the popup is override-redirect: not listed
    const AccessibilityZones result = zonesFromAccessibility(s, scene);
    QVERIFY(!zoneByRef(result.zones, QStringLiteral(":1.5:/under")));
    const Zone* item = zoneByRef(result.zones, QStringLiteral(":1.5:/item"));
    QVERIFY(item);
    QCOMPARE(item->windowId, quint64(0));
    QCOMPARE(result.windowIds.value(QStringLiteral(":1.5:/main")), quint64(1));
}

void TestAccessibilityZones::popupListUnderItsComboIsShown()
{
    // GTK: a combo box's open list is reported under the combo, in the dialog's tree; the popup window's own
    // node is empty. The list's rows are on the popup (not covered by it), even below the dialog's edge; the
    // dialog's button under the popup stays covered.
    AccessibilitySnapshot s;
    const AccessibleNode dialog = window(QStringLiteral(":1.5:/dialog"), QRect(0, 0, 300, 200));
    const AccessibleNode combo = node(QStringLiteral(":1.5:/combo"), dialog, QStringLiteral("combo box"),
                                      QStringLiteral("France"), QRect(100, 130, 160, 30));
    const AccessibleNode list = node(QStringLiteral(":1.5:/list"), combo, QStringLiteral("menu"), QString(),
                                     QRect(100, 160, 160, 90));
    s.nodes << dialog << combo << list
            << node(QStringLiteral(":1.5:/japan"), list, QStringLiteral("menu item"), QStringLiteral("Japan"),
                    QRect(100, 190, 160, 28))
            << node(QStringLiteral(":1.5:/peru"), list, QStringLiteral("menu item"), QStringLiteral("Peru"),
                    QRect(100, 220, 160, 28))
            << node(QStringLiteral(":1.5:/ok"), dialog, QStringLiteral("push button"), QStringLiteral("OK"),
                    QRect(110, 165, 60, 25));
    AccessibleNode popup = window(QStringLiteral(":1.5:/popup"), QRect(100, 160, 160, 90));
    popup.role = QStringLiteral("window");
    s.nodes << popup;
    AccessibilityScene scene;
    scene.windows = {managed(1, QRect(0, 0, 300, 200))};
    const AccessibilityZones result = zonesFromAccessibility(s, scene);
    const Zone* japan = zoneByRef(result.zones, QStringLiteral(":1.5:/japan"));
    QVERIFY(japan);
    QCOMPARE(japan->bounds, QRect(100, 190, 160, 28));
    const Zone* peru = zoneByRef(result.zones, QStringLiteral(":1.5:/peru"));
    QVERIFY(peru);
    QCOMPARE(peru->bounds, QRect(100, 220, 160, 28)); // below the dialog's edge, on the popup
    QVERIFY(!zoneByRef(result.zones, QStringLiteral(":1.5:/ok")));
    QVERIFY(zoneByRef(result.zones, QStringLiteral(":1.5:/combo")));
    // Without the popup window (the list closed, its nodes still reported showing): clipped to the dialog.
    s.nodes.removeLast();
    const AccessibilityZones closed = zonesFromAccessibility(s, scene);
    QVERIFY(!zoneByRef(closed.zones, QStringLiteral(":1.5:/peru")));
}

void TestAccessibilityZones::parentsByTree()
{
    AccessibilitySnapshot s;
    const AccessibleNode w = window(QStringLiteral(":1.5:/w"), QRect(0, 0, 600, 400));
    const AccessibleNode menu = node(QStringLiteral(":1.5:/menu"), w, QStringLiteral("menu"),
                                     QStringLiteral("File"), QRect(0, 0, 40, 20));
    AccessibleNode panel =
        node(QStringLiteral(":1.5:/panel"), menu, QStringLiteral("panel"), QString(), QRect(0, 20, 100, 100));
    const AccessibleNode item = node(QStringLiteral(":1.5:/item"), panel, QStringLiteral("menu item"),
                                     QStringLiteral("Quit"), QRect(0, 20, 100, 20));
    s.nodes << w << menu << panel << item;
    const AccessibilityZones result = zonesFromAccessibility(s, {});
    QCOMPARE(result.zones.size(), 2);
    const Zone* quit = zoneByRef(result.zones, QStringLiteral(":1.5:/item"));
    QVERIFY(quit);
    // Through the panel, which is no zone; by the menu's stable id.
    QCOMPARE(quit->parentId, zoneByRef(result.zones, QStringLiteral(":1.5:/menu"))->id);
    QVERIFY(quit->id.startsWith(QLatin1Char('z')));
    QCOMPARE(quit->events, QStringList{QStringLiteral("click")});
    QCOMPARE(zoneByRef(result.zones, QStringLiteral(":1.5:/menu"))->events,
             (QStringList{QStringLiteral("click"), QStringLiteral("opens_menu")}));
}

void TestAccessibilityZones::fusionTreeWins()
{
    Zone tree;
    tree.id = QStringLiteral("tmp:a");
    tree.bounds = QRect(100, 100, 80, 24);
    tree.type = ZoneType::CheckBox;
    tree.label = QStringLiteral("Subscribe");
    tree.state = ZoneStateFlag::Enabled | ZoneStateFlag::Checked;
    tree.source = ZoneSource::Accessibility;
    tree.confidence = 0.9;
    Zone icon = tree;
    icon.id = QStringLiteral("tmp:b");
    icon.bounds = QRect(300, 100, 24, 24);
    icon.type = ZoneType::Button;
    icon.label.clear(); // an icon button without an accessible name

    Zone visionSame; // the same check box as vision saw it: other type, label and state
    visionSame.id = QStringLiteral("z1");
    visionSame.bounds = QRect(98, 101, 84, 22);
    visionSame.type = ZoneType::Button;
    visionSame.label = QStringLiteral("Subscr1be");
    visionSame.source = ZoneSource::Local;
    Zone visionCaption = visionSame; // OCR of the caption inside the check box
    visionCaption.id = QStringLiteral("z2");
    visionCaption.bounds = QRect(120, 104, 55, 14);
    visionCaption.type = ZoneType::Static;
    Zone visionIcon = visionSame;
    visionIcon.id = QStringLiteral("z3");
    visionIcon.bounds = QRect(300, 100, 24, 24);
    visionIcon.label = QStringLiteral("Save");

    const QList<Zone> fused = fuseZones({tree, icon}, {visionSame, visionCaption, visionIcon});
    QCOMPARE(fused.size(), 2);
    QCOMPARE(int(fused.at(0).type), int(ZoneType::CheckBox));
    QCOMPARE(fused.at(0).label, QStringLiteral("Subscribe"));
    QCOMPARE(fused.at(0).state, ZoneState(ZoneStateFlag::Enabled | ZoneStateFlag::Checked));
    QCOMPARE(fused.at(0).confidence, 1.0); // seen by both
    QCOMPARE(int(fused.at(0).source), int(ZoneSource::Accessibility));
    QCOMPARE(fused.at(1).label, QStringLiteral("Save")); // the name vision read
    QCOMPARE(int(fused.at(1).type), int(ZoneType::Button));
}

void TestAccessibilityZones::fusionKeepsUnexplainedVision()
{
    Zone tree;
    tree.id = QStringLiteral("tmp:a");
    tree.bounds = QRect(100, 100, 80, 24);
    tree.type = ZoneType::Button;
    tree.label = QStringLiteral("OK");
    tree.source = ZoneSource::Accessibility;
    Zone canvasKey; // a custom-drawn key the tree does not know
    canvasKey.id = QStringLiteral("z9");
    canvasKey.bounds = QRect(400, 300, 40, 40);
    canvasKey.type = ZoneType::Button;
    canvasKey.label = QStringLiteral("7");
    canvasKey.source = ZoneSource::Local;
    const QList<Zone> fused = fuseZones({tree}, {canvasKey});
    QCOMPARE(fused.size(), 2);
    QCOMPARE(fused.at(1), canvasKey);
    QCOMPARE(fuseZones({}, {canvasKey}), QList<Zone>{canvasKey});
}

void TestAccessibilityZones::fusionTextSeenByBothIsOne()
{
    // The fixture's status bar: the tree's zone is the whole bar, vision's the word's ink at its left.
    Zone bar;
    bar.id = QStringLiteral("tmp:bar");
    bar.bounds = QRect(190, 705, 900, 22);
    bar.type = ZoneType::Static;
    bar.role = QStringLiteral("status bar");
    bar.label = QStringLiteral("Ready");
    bar.source = ZoneSource::Accessibility;
    Zone readyInk;
    readyInk.id = QStringLiteral("z1");
    readyInk.bounds = QRect(195, 706, 40, 21);
    readyInk.type = ZoneType::Static;
    readyInk.label = QStringLiteral("Ready");
    readyInk.source = ZoneSource::Local;
    // gtk3-widget-factory's frame caption: the tree's label is the word, vision's line runs past it.
    Zone inset = bar;
    inset.id = QStringLiteral("tmp:inset");
    inset.bounds = QRect(885, 61, 37, 17);
    inset.role = QStringLiteral("label");
    inset.label = QStringLiteral("inset");
    Zone insetLine = readyInk;
    insetLine.id = QStringLiteral("z2");
    insetLine.bounds = QRect(886, 61, 175, 17);
    insetLine.label = QStringLiteral("Inset:");
    // Other text inside the bar is other information; a button vision saw around a label is the button.
    Zone otherText = readyInk;
    otherText.id = QStringLiteral("z3");
    otherText.bounds = QRect(600, 706, 80, 21);
    otherText.label = QStringLiteral("3 items");
    Zone buttonAroundLabel = insetLine;
    buttonAroundLabel.id = QStringLiteral("z4");
    buttonAroundLabel.type = ZoneType::Button;
    buttonAroundLabel.label = QStringLiteral("inset");
    // A dialog's label at its top, taken by vision for a menu (kdialog's "Pick a colour:"): the tree's label.
    Zone caption = bar;
    caption.id = QStringLiteral("tmp:caption");
    caption.bounds = QRect(541, 321, 178, 17);
    caption.role = QStringLiteral("label");
    caption.label = QStringLiteral("Pick a colour:");
    Zone captionAsMenu = readyInk;
    captionAsMenu.id = QStringLiteral("z5");
    captionAsMenu.bounds = QRect(537, 319, 94, 20);
    captionAsMenu.type = ZoneType::MenuItem;
    captionAsMenu.label = QStringLiteral("Pick a colour");

    const QList<Zone> fused =
        fuseZones({bar, inset, caption}, {readyInk, insetLine, otherText, buttonAroundLabel, captionAsMenu});
    QStringList labels;
    for (const Zone& z : fused)
        labels << z.label;
    QCOMPARE(labels,
             (QStringList{QStringLiteral("Ready"), QStringLiteral("inset"), QStringLiteral("Pick a colour:"),
                          QStringLiteral("3 items"), QStringLiteral("inset")}));
    for (const auto& [zone, tree] :
         {std::pair{fused.at(0), bar}, std::pair{fused.at(1), inset}, std::pair{fused.at(2), caption}}) {
        QCOMPARE(zone.bounds, tree.bounds); // the tree's zone, seen by both
        QCOMPARE(int(zone.source), int(ZoneSource::Accessibility));
        QCOMPARE(zone.confidence, 1.0);
    }
    QCOMPARE(fused.at(3), otherText);
    QCOMPARE(int(fused.at(4).type), int(ZoneType::Button));
}

void TestAccessibilityZones::zoneJsonRoundTrip()
{
    Zone z;
    z.id = QStringLiteral("z4");
    z.bounds = QRect(1, 2, 30, 40);
    z.type = ZoneType::TextField;
    z.label = QStringLiteral("Name");
    z.state = ZoneStateFlag::Enabled | ZoneStateFlag::Editable | ZoneStateFlag::Selected;
    z.source = ZoneSource::Accessibility;
    z.confidence = 1.0;
    z.role = QStringLiteral("text");
    z.value = QStringLiteral("Ada");
    z.keyBinding = QStringLiteral("<Alt>n");
    z.accessibleRef = QStringLiteral(":1.5:/org/a11y/atspi/accessible/12");
    z.accessiblePath = QStringLiteral("0/0/3/1");
    QString error;
    const std::optional<Zone> back = zoneFromJson(toJson(z), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(*back, z);
    QCOMPARE(toJson(z).value(QStringLiteral("source")).toString(), QStringLiteral("accessibility"));
    QCOMPARE(zoneSourceFromString(QStringLiteral("atspi")),
             std::optional<ZoneSource>(ZoneSource::Accessibility));
    QCOMPARE(zoneSourceFromString(QStringLiteral("vision")), std::optional<ZoneSource>(ZoneSource::Local));
}

void TestAccessibilityZones::oldZoneJsonStillReads()
{
    // A zone line as sessions recorded before the accessibility fields existed.
    const QJsonObject old{{QStringLiteral("id"), QStringLiteral("z1")},
                          {QStringLiteral("bounds"), QJsonObject{{QStringLiteral("x"), 5},
                                                                 {QStringLiteral("y"), 6},
                                                                 {QStringLiteral("width"), 70},
                                                                 {QStringLiteral("height"), 20}}},
                          {QStringLiteral("type"), QStringLiteral("button")},
                          {QStringLiteral("label"), QStringLiteral("OK")},
                          {QStringLiteral("state"), QJsonArray{QStringLiteral("enabled")}},
                          {QStringLiteral("confidence"), 0.8},
                          {QStringLiteral("source"), QStringLiteral("local")}};
    QString error;
    const std::optional<Zone> z = zoneFromJson(old, &error);
    QVERIFY2(z, qPrintable(error));
    QVERIFY(z->role.isEmpty() && z->value.isEmpty() && z->accessibleRef.isEmpty());
    QCOMPARE(int(z->source), int(ZoneSource::Local));
    // And what it writes back has no new keys.
    const QJsonObject again = toJson(*z);
    for (const char* key : {"role", "value", "key_binding", "accessible_ref", "accessible_path"})
        QVERIFY2(!again.contains(QLatin1String(key)), key);
}

QTEST_GUILESS_MAIN(TestAccessibilityZones)
#include "tst_accessibilityzones.moc"
