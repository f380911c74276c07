// EscalationPolicy: which tier for which change.

#include "core/canvas/escalationpolicy.h"

#include <QTest>

using namespace ciu;
using canvas::EscalationPolicy;
using canvas::TierDecision;

namespace {

const QSize kScreen(1000, 1000); // 1 % = 10 000 px

Zone zone(const QString& id, const QRect& r, ZoneType type, const QString& label = {})
{
    Zone z;
    z.id = id;
    z.bounds = r;
    z.type = type;
    z.label = label;
    z.confidence = 0.8;
    return z;
}

Zone tooltipZone(const QString& id, const QRect& r, const QString& label)
{
    Zone z = zone(id, r, ZoneType::Static, label);
    z.temporary = true;
    return z;
}

ZoneMapPtr knownMap()
{
    return std::make_shared<const ZoneMap>(
        1, 0, kScreen,
        QList<Zone>{
            zone(QStringLiteral("ok"), QRect(100, 100, 100, 30), ZoneType::Button, QStringLiteral("OK")),
            zone(QStringLiteral("name"), QRect(100, 200, 300, 24), ZoneType::TextField),
            zone(QStringLiteral("go"), QRect(100, 232, 300, 24), ZoneType::Button, QStringLiteral("Go")),
            tooltipZone(QStringLiteral("tip"), QRect(260, 262, 100, 22), QStringLiteral("Go on")),
            zone(QStringLiteral("page"), QRect(500, 134, 300, 100), ZoneType::TextField),
            zone(QStringLiteral("file"), QRect(10, 0, 40, 20), ZoneType::MenuItem, QStringLiteral("File")),
            zone(QStringLiteral("tool"), QRect(12, 24, 30, 30), ZoneType::Button),
            zone(QStringLiteral("title"), QRect(500, 10, 200, 20), ZoneType::Static, QStringLiteral("Title")),
            // A tool bar button above a dock's tab and a search field.
            zone(QStringLiteral("back"), QRect(600, 300, 30, 30), ZoneType::Button),
            zone(QStringLiteral("dock tab"), QRect(480, 336, 150, 28), ZoneType::Tab,
                 QStringLiteral("Bookmarks")),
            zone(QStringLiteral("find"), QRect(640, 336, 150, 24), ZoneType::TextField)});
}

FrameDiff diffOf(const QList<ChangeRegion>& regions, double totalPercent)
{
    FrameDiff d;
    d.frameIndex = 7;
    d.tNs = 1000;
    d.regions = regions;
    d.totalPercent = totalPercent;
    return d;
}

} // namespace

class TestEscalation : public QObject
{
    Q_OBJECT
private slots:
    void decide_data();
    void decide();
    void newWindowIsAnalysedAsDialog();
    void dialogRegionWithAProvider();
    void mixedChangesGiveSeveralDecisions();
    void mergeRegions();
};

void TestEscalation::decide_data()
{
    QTest::addColumn<QList<ChangeRegion>>("regions");
    QTest::addColumn<double>("total");
    QTest::addColumn<bool>("cursorOnly");
    QTest::addColumn<bool>("animating");
    QTest::addColumn<bool>("windowChanged");
    QTest::addColumn<QPoint>("cursor");
    QTest::addColumn<QString>("hovered");
    QTest::addColumn<int>("action");
    QTest::addColumn<int>("tier");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<QRect>("region"); // union of the decision's regions (null: whole screen / none)

    const QPoint away(900, 900);
    using A = TierDecision::Action;
    QTest::newRow("cursor only") << QList<ChangeRegion>{{QRect(500, 500, 16, 16), 40}} << 0.01 << true
                                 << false << false << away << QString() << int(A::Ignore) << 0
                                 << "cursor_only" << QRect();
    QTest::newRow("caret blink is noise")
        << QList<ChangeRegion>{{QRect(120, 204, 1, 15), 100}} << 0.0015 << false << false << false << away
        << QString() << int(A::Ignore) << 0 << "noise" << QRect();
    QTest::newRow("small change outside zones < 0.5 %")
        << QList<ChangeRegion>{{QRect(700, 700, 60, 60), 60}} << 0.2 << false << false << false << away
        << QString() << int(A::Ignore) << 0 << "below_threshold" << QRect();
    QTest::newRow("localized 0.5-30 % → tier 1 on the region")
        << QList<ChangeRegion>{{QRect(600, 600, 200, 100), 40}} << 1.0 << false << false << false << away
        << QString() << int(A::Local) << 1 << "local_change" << QRect(596, 596, 208, 108);
    QTest::newRow("> 30 % → tier 2") << QList<ChangeRegion>{{QRect(0, 0, 1000, 400), 90}} << 36.0 << false
                                     << false << false << away << QString() << int(A::Full) << 2
                                     << "large_change" << QRect();
    QTest::newRow("active window changed → tier 2")
        << QList<ChangeRegion>{{QRect(600, 600, 20, 20), 50}} << 0.02 << false << false << true << away
        << QString() << int(A::Full) << 2 << "active_window_changed" << QRect();
    QTest::newRow("animation → wait")
        << QList<ChangeRegion>{{QRect(600, 600, 200, 100), 50}} << 1.0 << false << true << false << away
        << QString() << int(A::Wait) << 0 << "animation" << QRect(600, 600, 200, 100);
    QTest::newRow("hover on a button")
        << QList<ChangeRegion>{{QRect(101, 101, 98, 28), 70}} << 0.2 << false << false << false
        << QPoint(150, 115) << QString() << int(A::Hover) << 1 << "hover" << QRect(101, 101, 98, 28);
    QTest::newRow("hover ends") << QList<ChangeRegion>{{QRect(101, 101, 98, 28), 70}} << 0.2 << false << false
                                << false << away << QStringLiteral("ok") << int(A::Hover) << 1 << "hover_end"
                                << QRect(101, 101, 98, 28);
    QTest::newRow("typing in a known field → tier 1 on the field")
        << QList<ChangeRegion>{{QRect(104, 204, 40, 14), 40}} << 0.05 << false << false << false
        << QPoint(120, 210) << QStringLiteral("name") << int(A::Local) << 1 << "zone_changed"
        << QRect(96, 196, 308, 32);
    QTest::newRow("tooltip near the cursor after a hover")
        << QList<ChangeRegion>{{QRect(160, 140, 110, 22), 80}} << 0.2 << false << false << false
        << QPoint(150, 120) << QStringLiteral("ok") << int(A::Local) << 1 << "tooltip"
        << QRect(156, 136, 118, 30);
    QTest::newRow("tooltip near a resting cursor that lit no zone")
        << QList<ChangeRegion>{{QRect(160, 140, 110, 22), 80}} << 0.2 << false << false << false
        << QPoint(150, 120) << QString() << int(A::Local) << 1 << "tooltip" << QRect(156, 136, 118, 30);
    QTest::newRow("a control lit up under the cursor is no tooltip")
        << QList<ChangeRegion>{{QRect(140, 110, 30, 30), 80}} << 0.01 << false << false << false
        << QPoint(150, 120) << QString() << int(A::Ignore) << 0 << "below_threshold" << QRect();
    QTest::newRow("a control lit up with its tooltip below in one change: the tooltip is the part below")
        << QList<ChangeRegion>{{QRect(100, 100, 100, 50), 60}} << 0.3 << false << false << false
        << QPoint(150, 115) << QString() << int(A::Local) << 1 << "tooltip" << QRect(96, 126, 108, 28);
    QTest::newRow("a focus ring leaving the field above a clicked button is no tooltip")
        << QList<ChangeRegion>{{QRect(100, 200, 300, 56), 30}} << 1.0 << false << false << false
        << QPoint(250, 244) << QStringLiteral("go") << int(A::Local) << 1 << "local_change"
        << QRect(96, 196, 308, 64);
    QTest::newRow("a tooltip over a page the pointer is not on")
        << QList<ChangeRegion>{{QRect(520, 136, 90, 22), 90}} << 0.1 << false << false << false
        << QPoint(490, 115) << QStringLiteral("ok") << int(A::Local) << 1 << "tooltip"
        << QRect(516, 132, 98, 30);
    QTest::newRow("typing on a page near the resting pointer is no tooltip")
        << QList<ChangeRegion>{{QRect(520, 136, 90, 22), 25}} << 0.1 << false << false << false
        << QPoint(490, 115) << QStringLiteral("ok") << int(A::Local) << 1 << "zone_changed"
        << QRect(496, 130, 308, 108);
    QTest::newRow("a tooltip over part of a control beside the hovered one")
        << QList<ChangeRegion>{{QRect(590, 338, 36, 22), 85}} << 0.1 << false << false << false
        << QPoint(615, 315) << QStringLiteral("back") << int(A::Local) << 1 << "tooltip"
        << QRect(586, 334, 44, 30);
    QTest::newRow("a control beside the hovered one repainted whole is its change")
        << QList<ChangeRegion>{{QRect(481, 337, 148, 26), 85}} << 0.1 << false << false << false
        << QPoint(615, 315) << QStringLiteral("back") << int(A::Local) << 1 << "zone_changed"
        << QRect(476, 332, 158, 36);
    QTest::newRow("text typed into a field beside the hovered control is no tooltip")
        << QList<ChangeRegion>{{QRect(644, 339, 40, 18), 85}} << 0.1 << false << false << false
        << QPoint(615, 315) << QStringLiteral("back") << int(A::Local) << 1 << "zone_changed"
        << QRect(636, 332, 158, 32);
    QTest::newRow("typing beside the resting pointer (a field found too short) is no tooltip")
        << QList<ChangeRegion>{{QRect(160, 140, 80, 16), 25}} << 0.6 << false << false << false
        << QPoint(150, 120) << QStringLiteral("ok") << int(A::Local) << 1 << "local_change"
        << QRect(156, 136, 88, 24);
    QTest::newRow("typing in the pointer's row, beside the field under it, is no tooltip")
        << QList<ChangeRegion>{{QRect(40, 104, 50, 14), 70}} << 0.6 << false << false << false
        << QPoint(150, 115) << QStringLiteral("ok") << int(A::Local) << 1 << "local_change"
        << QRect(36, 100, 58, 22);
    QTest::newRow("a tooltip's text changing in place is its tooltip")
        << QList<ChangeRegion>{{QRect(300, 266, 40, 14), 30}} << 0.1 << false << false << false
        << QPoint(250, 244) << QStringLiteral("go") << int(A::Local) << 1 << "tooltip"
        << QRect(296, 262, 48, 22);
    QTest::newRow("a small box near a cursor on no control is no tooltip")
        << QList<ChangeRegion>{{QRect(700, 700, 110, 22), 80}} << 0.2 << false << false << false
        << QPoint(690, 690) << QString() << int(A::Ignore) << 0 << "below_threshold" << QRect();
    QTest::newRow("menu opened below a menu item")
        << QList<ChangeRegion>{{QRect(10, 20, 150, 120), 90}} << 1.8 << false << false << false
        << QPoint(30, 10) << QStringLiteral("file") << int(A::Local) << 1 << "menu_opened"
        << QRect(6, 16, 158, 128);
    QTest::newRow("a tool bar button under a menu bar lit up with its tooltip is no menu")
        << QList<ChangeRegion>{{QRect(8, 22, 120, 60), 60}} << 0.4 << false << false << false
        << QPoint(27, 38) << QStringLiteral("tool") << int(A::Local) << 1 << "tooltip"
        << QRect(4, 50, 128, 36);
    QTest::newRow("a short menu opened under the pointer on its title is no tooltip")
        << QList<ChangeRegion>{{QRect(10, 0, 150, 62), 90}} << 0.4 << false << false << false
        << QPoint(30, 10) << QStringLiteral("file") << int(A::Local) << 1 << "menu_opened"
        << QRect(6, 0, 158, 66);
    QTest::newRow("dialog: a large new rectangle → tier 2 on its region")
        << QList<ChangeRegion>{{QRect(300, 300, 400, 200), 95}} << 8.0 << false << false << false << away
        << QString() << int(A::Full) << 2 << "dialog" << QRect(296, 296, 408, 208);
}

void TestEscalation::decide()
{
    QFETCH(QList<ChangeRegion>, regions);
    QFETCH(double, total);
    QFETCH(bool, cursorOnly);
    QFETCH(bool, animating);
    QFETCH(bool, windowChanged);
    QFETCH(QPoint, cursor);
    QFETCH(QString, hovered);
    QFETCH(int, action);
    QFETCH(int, tier);
    QFETCH(QString, reason);
    QFETCH(QRect, region);

    FrameDiff diff = diffOf(regions, total);
    diff.cursorOnly = cursorOnly;
    diff.animating = animating;
    EscalationPolicy::Context context;
    context.map = knownMap();
    context.screenSize = kScreen;
    context.cursor = cursor;
    context.hoveredZoneId = hovered;
    context.activeWindowChanged = windowChanged;
    const QList<TierDecision> decisions = EscalationPolicy().decide(diff, context);
    QCOMPARE(decisions.size(), 1);
    const TierDecision& d = decisions.first();
    QCOMPARE(d.reason, reason);
    QCOMPARE(int(d.action), action);
    QCOMPARE(d.tier, tier);
    QRect all;
    for (const QRect& r : d.regions)
        all = all.united(r);
    if (!region.isNull())
        QCOMPARE(all, region);
    else if (d.action != TierDecision::Action::Ignore)
        QVERIFY(d.regions.isEmpty());
    QCOMPARE(d.changedPercent, total);
    if (reason == QLatin1String("hover") || reason == QLatin1String("hover_end"))
        QCOMPARE(d.zoneId, QStringLiteral("ok"));
    if (reason == QLatin1String("menu_opened")) {
        QCOMPARE(d.zoneId, QStringLiteral("file"));
        QVERIFY(d.menuPopup);
    }
    QCOMPARE(d.temporary, reason == QLatin1String("tooltip"));
}

void TestEscalation::newWindowIsAnalysedAsDialog()
{
    EscalationPolicy::Context context;
    context.map = knownMap();
    context.screenSize = kScreen;
    context.newWindows = {QRect(300, 300, 320, 140)};
    const QList<TierDecision> decisions =
        EscalationPolicy().decide(diffOf({{QRect(300, 300, 320, 140), 90}}, 4.5), context);
    QCOMPARE(decisions.size(), 1);
    QCOMPARE(decisions.first().reason, QStringLiteral("dialog"));
    QCOMPARE(decisions.first().tier, 2);
    QCOMPARE(int(decisions.first().action), int(TierDecision::Action::Full));
    QCOMPARE(decisions.first().regions, QList<QRect>{QRect(296, 296, 328, 148)});
}

void TestEscalation::dialogRegionWithAProvider()
{
    EscalationPolicy::Context context;
    context.map = knownMap();
    context.screenSize = kScreen;
    context.providerAvailable = true;
    const QList<TierDecision> decisions =
        EscalationPolicy().decide(diffOf({{QRect(300, 300, 400, 200), 95}}, 8.0), context);
    QCOMPARE(decisions.size(), 1);
    QCOMPARE(int(decisions.first().action), int(TierDecision::Action::Full));
    QCOMPARE(decisions.first().tier, 2);
    QVERIFY(!decisions.first().regions.isEmpty()); // only the dialog's region
}

void TestEscalation::mixedChangesGiveSeveralDecisions()
{
    EscalationPolicy::Context context;
    context.map = knownMap();
    context.screenSize = kScreen;
    context.cursor = QPoint(150, 115);
    const QList<TierDecision> decisions = EscalationPolicy().decide(
        diffOf({{QRect(101, 101, 98, 28), 70}, {QRect(600, 600, 200, 100), 40}}, 1.2), context);
    QCOMPARE(decisions.size(), 2);
    QCOMPARE(decisions.at(0).reason, QStringLiteral("hover"));
    QCOMPARE(decisions.at(1).reason, QStringLiteral("local_change"));
}

void TestEscalation::mergeRegions()
{
    const EscalationPolicy policy;
    const QList<QRect> merged = policy.mergeRegions(
        {QRect(0, 0, 10, 10), QRect(15, 0, 10, 10), QRect(500, 500, 10, 10)}, QSize(600, 600));
    QCOMPARE(merged.size(), 2);
    QCOMPARE(merged.at(0), QRect(0, 0, 29, 14)); // joined, grown by 4 and clipped at the screen's edge
    QCOMPARE(merged.at(1), QRect(496, 496, 18, 18));
    QList<QRect> many;
    for (int i = 0; i < 20; ++i)
        many << QRect(i * 50, 0, 5, 5);
    QCOMPARE(policy.mergeRegions(many, QSize(2000, 100)).size(), 1);
}

QTEST_GUILESS_MAIN(TestEscalation)
#include "tst_escalation.moc"
