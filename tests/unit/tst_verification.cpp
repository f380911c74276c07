// The ActionVerifier's postconditions without a Director: what counts as the effect of an action (a change
// in the target, a zone appearing) and what does not (a focus ring or hover highlight of another zone, an
// animation, a map re-versioned with the same zones); the accessibility tree's states trusted over pixels
// (a check box, a tab, a drop-down that opened); a drop-down read back showing the chosen option; typing
// read back rather than blamed on a focus ring.

#include "core/director/verification.h"
#include "tests/support/testzones.h"

#include <QTest>

using namespace ciu;

class TestVerification : public QObject
{
    Q_OBJECT
private slots:
    void focusRingElsewhereIsNoEffect();
    void caretInAnotherFieldIsNoEffect();
    void focusLeavingAFieldForTheButtonIsNoEffect();
    void changeInTheTargetIsTheEffect();
    void buttonsOwnLookIsNoEffect_data();
    void buttonsOwnLookIsNoEffect();
    void changeAwayFromOtherZonesIsTheEffect();
    void animationIsNoEffect();
    void sameZonesReversionedIsNoEffect();
    void zoneAppearingIsTheEffect();
    void targetStateMovingIsTheEffect();
    void treeCheckStateDecides_data();
    void treeCheckStateDecides();
    void treeTabSelectedDecides();
    void treeDropdownExpandedIsOpen();
    void sameZoneFoundByAccessible();
    void showsText_data();
    void showsText();
    void typingReadBackIsNotBlamedOnAFocusRing();
    void clickOutsideAnOpenMenuOnlyClosesIt();
    void passwordLengthFromTheTree();
};

using ciu::test::zone;

namespace {

QList<Zone> form()
{
    return {
        zone(QStringLiteral("z1"), ZoneType::TextField, QStringLiteral("First name"), QRect(90, 58, 300, 24)),
        zone(QStringLiteral("z2"), ZoneType::TextField, QStringLiteral("Last name"), QRect(90, 98, 300, 24)),
        zone(QStringLiteral("z3"), ZoneType::CheckBox, QStringLiteral("Subscribe"), QRect(20, 200, 120, 22),
             ZoneStateFlag::Enabled | ZoneStateFlag::Unchecked),
        zone(QStringLiteral("z4"), ZoneType::Button, QStringLiteral("OK"), QRect(20, 500, 80, 30)),
        zone(QStringLiteral("z5"), ZoneType::Tab, QStringLiteral("Advanced"), QRect(200, 20, 90, 24))};
}

ZoneMapPtr mapOf(quint64 version, QList<Zone> zones)
{
    return std::make_shared<const ZoneMap>(version, 0, QSize(1280, 800), std::move(zones));
}

ProposedAction clickOn(const QString& id, Expectation::Kind kind = Expectation::Kind::AnyChange)
{
    ProposedAction p;
    p.action.type = Action::Type::LeftClick;
    p.action.zoneId = id;
    p.expect.kind = kind;
    p.expect.description = QStringLiteral("the button's effect");
    return p;
}

ActionResult changedAt(QRect rect, double percent, bool animating = false)
{
    ActionResult r;
    r.success = true;
    r.changeObserved = true;
    ChangeRegion region;
    region.rect = rect;
    region.changedPercent = percent;
    region.animating = animating;
    r.changes << region;
    return r;
}

Zone fromTree(Zone z, const QString& ref)
{
    z.source = ZoneSource::Accessibility;
    z.accessibleRef = ref;
    return z;
}

} // namespace

void TestVerification::focusRingElsewhereIsNoEffect()
{
    // Clicking OK did nothing but take the focus ring off "First name": the ring's box is the field grown by
    // 2 px, and only its outline changed.
    const ZoneMapPtr before = mapOf(1, form());
    const ZoneMapPtr after = mapOf(2, form());
    const ActionResult r = changedAt(QRect(88, 56, 304, 28), 12);
    QString why;
    QVERIFY(ActionVerifier::isOutlineOfOtherZone(r.changes.first(), *before, QStringLiteral("z4")));
    QVERIFY(ActionVerifier::changeEvidence(clickOn(QStringLiteral("z4")), r, before, after).isEmpty());
    QVERIFY(!ActionVerifier::expectationMet(clickOn(QStringLiteral("z4")), r, before, after, &why));
    QCOMPARE(why, QStringLiteral("nothing changed that z4 explains (the button's effect expected)"));
    // The same box, but most of it changed: not a ring. Still no effect of the click by itself: inside
    // another text field, only its text moving is (below).
    const ActionResult content = changedAt(QRect(88, 56, 304, 28), 70);
    QVERIFY(!ActionVerifier::isOutlineOfOtherZone(content.changes.first(), *before, QStringLiteral("z4")));
    QVERIFY(
        ActionVerifier::insideOtherTextField(content.changes.first().rect, *before, QStringLiteral("z4")));
    QVERIFY(!ActionVerifier::expectationMet(clickOn(QStringLiteral("z4")), content, before, after, &why));
}

void TestVerification::caretInAnotherFieldIsNoEffect()
{
    // A save dialog: "Save" clicked, the dialog did not answer; what changed was the focused name field,
    // whole (its caret blinked, its border faded): the field's box, the tree's text unchanged.
    Zone name = fromTree(zone(QStringLiteral("z1"), ZoneType::TextField, QStringLiteral("Name:"),
                              QRect(158, 30, 1021, 34), ZoneStateFlag::Enabled | ZoneStateFlag::Focused),
                         QStringLiteral(":1.17:/org/a11y/atspi/accessible/12"));
    name.value = QStringLiteral("note.txt");
    const Zone save = fromTree(
        zone(QStringLiteral("z2"), ZoneType::Button, QStringLiteral("Save"), QRect(1097, 755, 86, 34)),
        QStringLiteral(":1.17:/org/a11y/atspi/accessible/389"));
    const ZoneMapPtr before = mapOf(1, {name, save});
    const ZoneMapPtr after = mapOf(2, {name, save});
    ActionResult r = changedAt(QRect(158, 30, 1021, 34), 55);
    ChangeRegion pressed; // the button's own pressed look
    pressed.rect = QRect(1098, 756, 84, 32);
    pressed.changedPercent = 30;
    r.changes << pressed;
    const ProposedAction click = clickOn(QStringLiteral("z2"));
    QVERIFY(ActionVerifier::changeEvidence(click, r, before, after).isEmpty());
    QString why;
    QVERIFY(!ActionVerifier::expectationMet(click, r, before, after, &why));
    QCOMPARE(why, QStringLiteral("nothing changed that z2 explains (the button's effect expected)"));
    // The field's text moved (a button that fills it): that is an effect.
    Zone filled = name;
    filled.value = QStringLiteral("/home/ada/note.txt");
    QCOMPARE(ActionVerifier::changeEvidence(click, r, before, mapOf(3, {filled, save})),
             QStringLiteral("the text of z1 changed"));
    // Typing, not a click, into the focused field: its pixels are the typing's effect.
    ProposedAction typing;
    typing.action.type = Action::Type::TypeText;
    typing.action.text = QStringLiteral("x");
    typing.expect.kind = Expectation::Kind::AnyChange;
    QVERIFY(!ActionVerifier::changeEvidence(typing, r, before, after).isEmpty());
}

void TestVerification::focusLeavingAFieldForTheButtonIsNoEffect()
{
    // A GTK window: a field above a button 8 px below it. Clicking the button moves the keyboard focus: the
    // field's ring and caret go, the button's ring comes, and the change detector reports one region over
    // both. The tree's text is unchanged: nothing happened.
    Zone field = fromTree(zone(QStringLiteral("z1"), ZoneType::TextField, QString(), QRect(139, 158, 284, 34),
                               ZoneStateFlag::Enabled | ZoneStateFlag::Focused),
                          QStringLiteral(":1.10:/org/a11y/atspi/accessible/2"));
    field.value = QStringLiteral("draft");
    const Zone button = fromTree(
        zone(QStringLiteral("z2"), ZoneType::Button, QStringLiteral("Refresh"), QRect(139, 200, 284, 34)),
        QStringLiteral(":1.10:/org/a11y/atspi/accessible/3"));
    const ZoneMapPtr before = mapOf(1, {field, button});
    const ZoneMapPtr after = mapOf(2, {field, button});
    const ActionResult r = changedAt(QRect(133, 152, 296, 88), 20);
    const ProposedAction click = clickOn(QStringLiteral("z2"));
    QVERIFY(ActionVerifier::changeEvidence(click, r, before, after).isEmpty());
    QString why;
    QVERIFY(!ActionVerifier::expectationMet(click, r, before, after, &why));
    // The same region reaching past both (a dialog drawn below them) is an effect.
    QCOMPARE(ActionVerifier::changeEvidence(click, changedAt(QRect(133, 152, 296, 200), 20), before, after),
             QStringLiteral("a change in z2"));
    // And the field's text moving still is.
    Zone filled = field;
    filled.value = QStringLiteral("fresh");
    QCOMPARE(ActionVerifier::changeEvidence(click, r, before, mapOf(3, {filled, button})),
             QStringLiteral("the text of z1 changed"));
}

void TestVerification::changeInTheTargetIsTheEffect()
{
    const ZoneMapPtr before = mapOf(1, form());
    // The check box's box drawn anew (its tick) is the target's change.
    const ActionResult r = changedAt(QRect(20, 203, 16, 16), 30);
    QCOMPARE(ActionVerifier::changeEvidence(clickOn(QStringLiteral("z3")), r, before, before),
             QStringLiteral("a change in z3"));
    QString why;
    QVERIFY(ActionVerifier::expectationMet(clickOn(QStringLiteral("z3")), r, before, before, &why));
}

void TestVerification::buttonsOwnLookIsNoEffect_data()
{
    QTest::addColumn<bool>("repeatable");
    QTest::newRow("button") << true;
    QTest::newRow("button, never clicked twice") << false;
}

void TestVerification::buttonsOwnLookIsNoEffect()
{
    // A click on Save that the program ignored: the button drew its hover and pressed look (inside its box
    // and its focus ring around it), and the map marks it hovered and pressed. None of it is Save's effect.
    QFETCH(bool, repeatable);
    ProposedAction save = clickOn(QStringLiteral("z4"));
    save.expect.repeatable = repeatable;
    QList<Zone> hovered = form();
    hovered[3].state =
        ZoneStateFlag::Enabled | ZoneStateFlag::Hovered | ZoneStateFlag::Pressed | ZoneStateFlag::Focused;
    const ZoneMapPtr before = mapOf(1, form());
    const ZoneMapPtr after = mapOf(2, hovered);
    ActionResult look = changedAt(QRect(19, 499, 82, 32), 60);
    look.changes << changedAt(QRect(16, 496, 88, 38), 20).changes;
    QCOMPARE(ActionVerifier::changeEvidence(save, look, before, after), QString());
    QString why;
    QVERIFY(!ActionVerifier::expectationMet(save, look, before, after, &why));
    QCOMPARE(why, QStringLiteral("nothing changed that z4 explains (the button's effect expected)"));

    // The dialog closing repaints far more than the button: that is the effect.
    const ActionResult closed = changedAt(QRect(0, 300, 600, 260), 80);
    QCOMPARE(ActionVerifier::changeEvidence(save, closed, before, after), QStringLiteral("a change in z4"));
    // So is a button whose own label moved ("Start" becomes "Stop").
    QList<Zone> relabelled = form();
    relabelled[3].label = QStringLiteral("Stop");
    QCOMPARE(ActionVerifier::changeEvidence(save, look, before, mapOf(2, relabelled)),
             QStringLiteral("z4 changed"));
    // Not the same label read again with noise from the hover look around it.
    QList<Zone> noisy = hovered;
    noisy[3].label = QStringLiteral("enue] OK");
    QCOMPARE(ActionVerifier::changeEvidence(save, look, before, mapOf(2, noisy)), QString());
    // The tree's label is the program's own: any change is one.
    QList<Zone> treeBefore = form();
    treeBefore[3] = fromTree(treeBefore[3], QStringLiteral(":1.5:/ok"));
    QList<Zone> treeAfter = treeBefore;
    treeAfter[3].label = QStringLiteral("OK (2)");
    QCOMPARE(ActionVerifier::changeEvidence(save, look, mapOf(1, treeBefore), mapOf(2, treeAfter)),
             QStringLiteral("z4 changed"));
}

void TestVerification::changeAwayFromOtherZonesIsTheEffect()
{
    // A status line that is no zone yet changed: the click had an effect.
    const ZoneMapPtr before = mapOf(1, form());
    const ActionResult r = changedAt(QRect(20, 600, 200, 16), 30);
    QCOMPARE(ActionVerifier::changeEvidence(clickOn(QStringLiteral("z4")), r, before, before),
             QStringLiteral("a change at (20, 600) 200x16"));
}

void TestVerification::animationIsNoEffect()
{
    const ZoneMapPtr before = mapOf(1, form());
    const ActionResult r = changedAt(QRect(1200, 0, 80, 20), 40, true); // a clock, a spinner
    QVERIFY(ActionVerifier::changeEvidence(clickOn(QStringLiteral("z4")), r, before, before).isEmpty());
}

void TestVerification::sameZonesReversionedIsNoEffect()
{
    // The canvas re-mapped after a focus change: same zones, one focused now. No effect of the click.
    QList<Zone> focused = form();
    focused[0].state |= ZoneStateFlag::Focused;
    const ZoneMapPtr before = mapOf(1, form());
    const ZoneMapPtr after = mapOf(2, focused);
    ActionResult r;
    r.success = true;
    QVERIFY(ActionVerifier::changeEvidence(clickOn(QStringLiteral("z4")), r, before, after).isEmpty());
    // A zone re-detected at nearly its old place with its old label and a new id is the same zone.
    QList<Zone> redetected = form();
    redetected[3].id = QStringLiteral("z40");
    redetected[3].bounds.translate(1, 0);
    QVERIFY(ActionVerifier::changeEvidence(clickOn(QStringLiteral("z1")), r, before, mapOf(3, redetected))
                .isEmpty());
}

void TestVerification::zoneAppearingIsTheEffect()
{
    QList<Zone> dialog = form();
    dialog << zone(QStringLiteral("z9"), ZoneType::Button, QStringLiteral("Close"), QRect(600, 400, 80, 30));
    ActionResult r;
    r.success = true;
    QCOMPARE(
        ActionVerifier::changeEvidence(clickOn(QStringLiteral("z4")), r, mapOf(1, form()), mapOf(2, dialog)),
        QStringLiteral("z9 appeared"));
    QCOMPARE(
        ActionVerifier::changeEvidence(clickOn(QStringLiteral("z4")), r, mapOf(2, dialog), mapOf(3, form())),
        QStringLiteral("z9 went away"));
}

void TestVerification::targetStateMovingIsTheEffect()
{
    QList<Zone> checked = form();
    checked[2].state = ZoneStateFlag::Enabled | ZoneStateFlag::Checked;
    ActionResult r;
    r.success = true;
    QCOMPARE(
        ActionVerifier::changeEvidence(clickOn(QStringLiteral("z3")), r, mapOf(1, form()), mapOf(2, checked)),
        QStringLiteral("z3 changed"));
}

void TestVerification::treeCheckStateDecides_data()
{
    QTest::addColumn<bool>("wantChecked");
    QTest::addColumn<bool>("treeChecked");
    QTest::addColumn<bool>("pixelsChanged");
    QTest::addColumn<bool>("met");
    QTest::newRow("checked, no pixel change seen") << true << true << false << true;
    QTest::newRow("still unchecked despite a change") << true << false << true << false;
    QTest::newRow("unchecked as asked") << false << false << true << true;
}

void TestVerification::treeCheckStateDecides()
{
    QFETCH(bool, wantChecked);
    QFETCH(bool, treeChecked);
    QFETCH(bool, pixelsChanged);
    QFETCH(bool, met);
    QList<Zone> before = form();
    before[2] = fromTree(before[2], QStringLiteral(":1.5:/org/a11y/atspi/accessible/7"));
    before[2].state =
        ZoneStateFlag::Enabled | (wantChecked ? ZoneStateFlag::Unchecked : ZoneStateFlag::Checked);
    QList<Zone> after = before;
    after[2].state =
        ZoneStateFlag::Enabled | (treeChecked ? ZoneStateFlag::Checked : ZoneStateFlag::Unchecked);
    ActionResult r = pixelsChanged ? changedAt(QRect(20, 200, 20, 22), 40) : ActionResult();
    r.success = true;
    const ProposedAction p = clickOn(QStringLiteral("z3"), wantChecked ? Expectation::Kind::StateChecked
                                                                       : Expectation::Kind::StateUnchecked);
    QString why;
    QCOMPARE(ActionVerifier::expectationMet(p, r, mapOf(1, before), mapOf(2, after), &why), met);
    if (!met)
        QCOMPARE(why, QStringLiteral("zone z3 is still unchecked"));
}

void TestVerification::treeTabSelectedDecides()
{
    QList<Zone> before = form();
    before[4] = fromTree(before[4], QStringLiteral(":1.5:/tab/2"));
    QList<Zone> selected = before;
    selected[4].state |= ZoneStateFlag::Selected;
    // The page repainted (a change) but the tab the program reports as selected is another one.
    const ActionResult r = changedAt(QRect(0, 50, 1280, 700), 60);
    const ProposedAction p = clickOn(QStringLiteral("z5"), Expectation::Kind::Selected);
    QString why;
    QVERIFY(!ActionVerifier::expectationMet(p, r, mapOf(1, before), mapOf(2, before), &why));
    QCOMPARE(why, QStringLiteral("z5 is not selected"));
    ActionResult none;
    none.success = true;
    QVERIFY(ActionVerifier::expectationMet(p, none, mapOf(1, before), mapOf(2, selected), &why));
    // From pixels alone a tab's selection is not known: the page switching is the evidence.
    const ProposedAction vision = clickOn(QStringLiteral("z5"), Expectation::Kind::Selected);
    QVERIFY(ActionVerifier::expectationMet(vision, r, mapOf(1, form()), mapOf(2, form()), &why));
    QVERIFY(!ActionVerifier::expectationMet(vision, none, mapOf(1, form()), mapOf(2, form()), &why));
}

void TestVerification::treeDropdownExpandedIsOpen()
{
    QList<Zone> before = form();
    before << fromTree(zone(QStringLiteral("z6"), ZoneType::Dropdown, QStringLiteral("Country"),
                            QRect(90, 140, 200, 24), ZoneStateFlag::Enabled | ZoneStateFlag::Collapsed),
                       QStringLiteral(":1.5:/combo"));
    QList<Zone> open = before;
    open.last().state = ZoneStateFlag::Enabled | ZoneStateFlag::Expanded;
    ActionResult r;
    r.success = true;
    QString why;
    const ProposedAction p = clickOn(QStringLiteral("z6"));
    QVERIFY(ActionVerifier::expectationMet(p, r, mapOf(1, before), mapOf(2, open), &why));
    QVERIFY(!ActionVerifier::expectationMet(p, r, mapOf(1, before), mapOf(2, before), &why));
}

void TestVerification::sameZoneFoundByAccessible()
{
    const Zone was = fromTree(form()[2], QStringLiteral(":1.5:/check"));
    Zone renamed = was;
    renamed.id = QStringLiteral("z77");
    const ZoneMapPtr after = mapOf(2, {form()[0], renamed});
    const Zone* same = ActionVerifier::sameZone(after.get(), was);
    QVERIFY(same);
    QCOMPARE(same->id, QStringLiteral("z77"));
    QVERIFY(!ActionVerifier::sameZone(after.get(), form()[3]));
}

void TestVerification::showsText_data()
{
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("seen");
    QTest::addColumn<bool>("shows");
    QTest::newRow("exact") << "Japan"
                           << "Japan" << true;
    QTest::newRow("arrow read as a letter") << "Japan"
                                            << "Japan v" << true;
    QTest::newRow("a reading slip") << "United Kingdom"
                                    << "United Kingdon" << true;
    QTest::newRow("another option") << "Japan"
                                    << "France" << false;
    QTest::newRow("the first item stayed") << "Japan"
                                           << "Afghanistan" << false;
    QTest::newRow("nothing") << "Japan"
                             << "" << false;
}

void TestVerification::showsText()
{
    QFETCH(QString, option);
    QFETCH(QString, seen);
    QFETCH(bool, shows);
    Expectation e;
    e.kind = Expectation::Kind::ShowsText;
    e.text = option;
    QString why;
    QCOMPARE(ActionVerifier::showsText(e, QStringLiteral("z6"), seen, &why), shows);
    if (!shows)
        QVERIFY2(why.startsWith(QStringLiteral("z6 does not show \"%1\"").arg(option)), qPrintable(why));
}

void TestVerification::typingReadBackIsNotBlamedOnAFocusRing()
{
    // "Lovelace" typed into Last name; the canvas attributes a change to First name (its focus ring went).
    ActionFlight flight;
    flight.sent.type = Action::Type::TypeText;
    flight.sent.text = QStringLiteral("Lovelace");
    flight.proposed.action = flight.sent;
    flight.proposed.focusZoneId = QStringLiteral("z2");
    flight.proposed.expect.kind = Expectation::Kind::TextEquals;
    flight.proposed.expect.text = QStringLiteral("Lovelace");
    SpatialEvent typed;
    typed.kind = SpatialEvent::Kind::ZoneType;
    typed.zoneId = QStringLiteral("z1");
    ActionResult r;
    r.success = true;
    QVERIFY(ActionVerifier::wrongZone(flight, r, {typed}).isEmpty()); // the read-back decides
    // Typing with nothing to read back: the attribution is all there is.
    flight.proposed.expect.kind = Expectation::Kind::AnyChange;
    QCOMPARE(ActionVerifier::wrongZone(flight, r, {typed}), QStringLiteral("z1"));
}

void TestVerification::passwordLengthFromTheTree()
{
    // Typing "hunter2" (7 characters) into a password field: its text is never read; the tree's count of
    // its characters decides. Doubled text ("LovelaceLovelace" in a password field) or keys that went
    // elsewhere are seen; without a tree, a change in the field is all there is.
    Zone field = fromTree(
        zone(QStringLiteral("z7"), ZoneType::TextField, QStringLiteral("PIN"), QRect(90, 140, 200, 24)),
        QStringLiteral(":1.5:/pin"));
    field.isPassword = true;
    field.textLength = 0;
    ProposedAction p;
    p.action.type = Action::Type::TypeText;
    p.action.text = QStringLiteral("hunter2");
    p.focusZoneId = QStringLiteral("z7");
    p.expect.kind = Expectation::Kind::LengthEquals;
    p.expect.length = 7;
    const ActionResult r = changedAt(QRect(92, 142, 60, 20), 30);
    QList<Zone> before = form();
    before << field;
    const auto withLength = [&](int length) {
        QList<Zone> zones = before;
        zones.last().textLength = length;
        return mapOf(2, zones);
    };
    QString why;
    QVERIFY(ActionVerifier::expectationMet(p, r, mapOf(1, before), withLength(7), &why));
    QVERIFY(!ActionVerifier::expectationMet(p, r, mapOf(1, before), withLength(14), &why));
    QCOMPARE(why, QStringLiteral("the password field z7 holds more characters than were typed"));
    QVERIFY(!ActionVerifier::expectationMet(p, r, mapOf(1, before), withLength(0), &why));
    QVERIFY2(!why.contains(QStringLiteral("hunter2")), qPrintable(why));
    // A field vision found (no tree, no count): the change in it.
    QList<Zone> vision = form();
    Zone seen = field;
    seen.source = ZoneSource::Local;
    seen.accessibleRef.clear();
    seen.textLength = -1;
    vision << seen;
    QVERIFY(ActionVerifier::expectationMet(p, r, mapOf(1, vision), mapOf(2, vision), &why));
    ActionResult none;
    none.success = true;
    QVERIFY(!ActionVerifier::expectationMet(p, none, mapOf(1, vision), mapOf(2, vision), &why));
}

QTEST_GUILESS_MAIN(TestVerification)
#include "tst_verification.moc"

void TestVerification::clickOutsideAnOpenMenuOnlyClosesIt()
{
    // The fixture's File menu open over the form, and a button far below it: the click closes the menu (the
    // popup takes it) and the zones it hid come back. None of that is the button's effect.
    const Zone title =
        zone(QStringLiteral("m0"), ZoneType::MenuItem, QStringLiteral("File"), QRect(417, 87, 31, 18));
    const Zone edit =
        zone(QStringLiteral("m9"), ZoneType::MenuItem, QStringLiteral("Edit"), QRect(452, 87, 34, 18));
    const QList<Zone> rows = {
        zone(QStringLiteral("m1"), ZoneType::MenuItem, QStringLiteral("New"), QRect(419, 109, 224, 19)),
        zone(QStringLiteral("m2"), ZoneType::MenuItem, QStringLiteral("Open"), QRect(419, 128, 224, 22)),
        zone(QStringLiteral("m3"), ZoneType::MenuItem, QStringLiteral("Save"), QRect(419, 150, 224, 22)),
        zone(QStringLiteral("m4"), ZoneType::MenuItem, QStringLiteral("Quit"), QRect(419, 172, 224, 21))};
    const Zone button =
        zone(QStringLiteral("b1"), ZoneType::Button, QStringLiteral("Open Dialog"), QRect(696, 672, 85, 22));
    const Zone hidden =
        zone(QStringLiteral("f1"), ZoneType::TextField, QStringLiteral("Name"), QRect(490, 141, 291, 22));
    QCOMPARE(ActionVerifier::openMenuRegion(*mapOf(1, QList<Zone>{title, edit} + rows + QList<Zone>{button})),
             QRect(417, 87, 226, 106));
    QVERIFY(ActionVerifier::openMenuRegion(*mapOf(1, {title, edit, button})).isEmpty()); // a menu bar alone

    const ZoneMapPtr before = mapOf(1, QList<Zone>{title, edit} + rows + QList<Zone>{button});
    const ZoneMapPtr after = mapOf(2, {title, edit, hidden, button});
    ActionResult r = changedAt(QRect(418, 87, 228, 110), 60);
    r.changes << changedAt(QRect(696, 673, 85, 21), 30).changes; // the button's own look
    r.pointUsed = QPoint(738, 682);
    ProposedAction click = clickOn(QStringLiteral("b1"));
    QCOMPARE(ActionVerifier::changeEvidence(click, r, before, after), QString());
    QString why;
    QVERIFY(!ActionVerifier::expectationMet(click, r, before, after, &why));

    // What the button does beyond the menu still counts (a dialog appearing).
    const Zone dialog =
        zone(QStringLiteral("d1"), ZoneType::Button, QStringLiteral("Yes"), QRect(600, 400, 80, 30));
    QCOMPARE(
        ActionVerifier::changeEvidence(click, r, before, mapOf(3, {title, edit, hidden, button, dialog})),
        QStringLiteral("d1 appeared"));
    // A click on a row of the open menu: the menu closing is the effect.
    ProposedAction row = clickOn(QStringLiteral("m2"));
    r.pointUsed = QPoint(500, 139);
    QCOMPARE(ActionVerifier::changeEvidence(row, r, before, after), QStringLiteral("a change in m2"));
}
