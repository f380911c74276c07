// CanvasMapper: first frame, incremental Tier 1 with stable ids elsewhere, hover, cursor-only changes,
// animation, user corrections, minimum confidence, and Tier 2 through the fake API server.

#include "core/canvas/canvasmapper.h"
#include "core/knowledge/schemazones.h"
#include "core/knowledge/shortcutstore.h"
#include "core/knowledge/zonememory.h"
#include "core/model/geometry.h"
#include "core/providers/anthropicprovider.h"
#include "tests/support/fakeapiserver.h"

#include <QFont>
#include <QJsonArray>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using canvas::CanvasMapper;
using canvas::ZoneRegistry;
using ciu::test::FakeApiServer;

namespace {

void button(QPainter& p, const QRect& r, const QString& text, const QColor& fill = QColor(0xe8, 0xe8, 0xe8))
{
    p.setPen(QColor(0x90, 0x90, 0x90));
    p.setBrush(fill);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    p.setPen(Qt::black);
    p.drawText(r, Qt::AlignCenter, text);
}

// A small window: three buttons and a field; `name` is typed into the field, `hot` is hovered.
Frame frame(quint64 index, const QString& name = {}, bool hot = false)
{
    QImage image(640, 400, QImage::Format_RGB32);
    image.fill(QColor(0xf0, 0xf0, 0xf0));
    QPainter p(&image);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(12);
    p.setFont(font);
    p.setPen(QColor(0x90, 0x90, 0x90));
    p.setBrush(Qt::white);
    p.drawRect(QRect(40, 40, 300, 24).adjusted(0, 0, -1, -1));
    p.setPen(Qt::black);
    p.drawText(QRect(46, 40, 280, 24), Qt::AlignVCenter | Qt::AlignLeft, name);
    button(p, QRect(40, 300, 100, 26), QStringLiteral("Submit"),
           hot ? QColor(0xd0, 0xe4, 0xf8) : QColor(0xe8, 0xe8, 0xe8));
    button(p, QRect(160, 300, 100, 26), QStringLiteral("Cancel"));
    button(p, QRect(400, 300, 100, 26), QStringLiteral("Help"));
    p.end();
    Frame f;
    f.index = index;
    f.tNs = qint64(index) * 100'000'000;
    f.image = image;
    return f;
}

FrameDiff change(quint64 index, const QRect& r, double regionPercent = 60)
{
    FrameDiff d;
    d.frameIndex = index;
    d.tNs = qint64(index) * 100'000'000;
    d.regions = {{r, regionPercent}};
    d.totalPercent = 100.0 * r.width() * r.height() * regionPercent / 100.0 / (640.0 * 400.0);
    return d;
}

const Zone* byLabel(const ZoneMap& map, const QString& label)
{
    for (const Zone& z : map.zones()) {
        if (z.label == label)
            return &z;
    }
    return nullptr;
}

QList<SpatialEvent> ofKind(const QSignalSpy& spy, SpatialEvent::Kind kind)
{
    QList<SpatialEvent> result;
    for (const QList<QVariant>& args : spy) {
        const auto e = args.first().value<SpatialEvent>();
        if (e.kind == kind)
            result << e;
    }
    return result;
}

// Two icon buttons (no text: a corner, a diamond) in a tool bar, the one under `hot` highlighted, and a
// tooltip reading `tip` below the cursor at `tipAt` (none when empty). Frames are 100 ms apart.
const QRect kRing(400, 100, 28, 28);
const QRect kBar(432, 100, 28, 28);

Frame iconFrame(quint64 index, const QRect& hot = {}, const QString& tip = {}, QPoint tipAt = {})
{
    Frame f = frame(index);
    QPainter p(&f.image);
    p.setRenderHint(QPainter::Antialiasing, false);
    for (const QRect& r : {kRing, kBar}) {
        p.setPen(QColor(0x90, 0x90, 0x90));
        p.setBrush(r == hot ? QColor(0xd0, 0xe4, 0xf8) : QColor(0xe8, 0xe8, 0xe8));
        p.drawRect(r.adjusted(0, 0, -1, -1));
    }
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0x20, 0x40, 0x80));
    const QPoint a = kRing.center();
    p.drawPolygon(QPolygon({a + QPoint(-8, -6), a + QPoint(8, -6), a + QPoint(-8, 7)}));
    const QPoint c = kBar.center();
    p.drawPolygon(QPolygon({c + QPoint(0, -8), c + QPoint(8, 0), c + QPoint(0, 8), c + QPoint(-8, 0)}));
    if (!tip.isEmpty()) {
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPixelSize(12);
        p.setFont(font);
        const QRect box(tipAt, QSize(QFontMetrics(font).horizontalAdvance(tip) + 12, 22));
        p.setPen(Qt::black);
        p.setBrush(QColor(0xff, 0xff, 0xdc));
        p.drawRect(box.adjusted(0, 0, -1, -1));
        p.drawText(box, Qt::AlignCenter, tip);
    }
    p.end();
    return f;
}

const Zone* zoneAt(const ZoneMap& map, QPoint at)
{
    const Zone* best = nullptr;
    for (const Zone& z : map.zones()) {
        if (z.bounds.contains(at) && (!best || area(z.bounds) < area(best->bounds)))
            best = &z;
    }
    return best;
}

constexpr qint64 kMs = 1'000'000;

} // namespace

class TestCanvasMapper : public QObject
{
    Q_OBJECT
private slots:
    void firstFrameBuildsTheMap();
    void typingReanalysesOnlyTheField();
    void hoverUpdatesState();
    void cursorOnlyAndNoiseAreIgnored();
    void animationWaitsForStability();
    void changesWaitForTheirFrame();
    void windowReportsMakeSwitchesAndDialogs();
    void userCorrectionsAndConfidence();
    void requestedFullAnalysisKeepsIds();
    void tier2MergesTheModelsInventory();
    void excludedRegionsAreNeitherAnalysedNorPublished();
    void excludedPixelsNeverReachTheModel();
    void userZonesKeepReplacedDetectionsAway();
    void suppressedRegionsDropDetections();
    void smallChangesLeaveNoStaleZones();
    void lookAgainAlwaysAnswers();
    void rememberedWindowSparesTheFullAnalysis();
    void rememberedWindowWithAChangedPart();
    void rememberedWindowThatChangedIsAnalysed();
    void schemaZonesNameAndAddZones();
    void treeNewsIsStampedWhenItCame();
    void tooltipsNameIconButtons();
    void tooltipsOfAMovingPointerNameNothing();
    void aTooltipOverlappingItsButtonNamesIt();
    void aTooltipGoingAwayNamesNothing();
    void aWordBesideATooltipIsNotItsText();
    void aLetterButtonKeepsItsLetter();
};

void TestCanvasMapper::firstFrameBuildsTheMap()
{
    CanvasMapper mapper;
    QSignalSpy maps(&mapper, &CanvasMapper::zoneMapUpdated);
    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);
    QSignalSpy keyFrames(&mapper, &CanvasMapper::keyFrameAnalysed);
    mapper.onFrame(frame(1));
    QCOMPARE(maps.size(), 1);
    const ZoneMapPtr map = maps.first().first().value<ZoneMapPtr>();
    QVERIFY(map);
    QCOMPARE(map->screenSize(), QSize(640, 400));
    for (const char* label : {"Submit", "Cancel", "Help"})
        QVERIFY2(byLabel(*map, QString::fromLatin1(label)), label);
    const auto decisions = ofKind(events, SpatialEvent::Kind::TierDecision);
    QCOMPARE(decisions.size(), 1);
    QCOMPARE(decisions.first().data.value(QStringLiteral("reason")).toString(),
             QStringLiteral("first_frame"));
    QCOMPARE(decisions.first().data.value(QStringLiteral("tier")).toInt(), 2); // offline: a full Tier 1
    const auto analyses = ofKind(events, SpatialEvent::Kind::Analysis);
    QCOMPARE(analyses.size(), 1);
    QCOMPARE(analyses.first().data.value(QStringLiteral("tier")).toInt(), 1);
    QVERIFY(analyses.first().data.value(QStringLiteral("full_screen")).toBool());
    QCOMPARE(analyses.first().data.value(QStringLiteral("zones")).toInt(), int(map->size()));
    QCOMPARE(keyFrames.size(), 1);
    QCOMPARE(mapper.currentMap(), map);
}

void TestCanvasMapper::typingReanalysesOnlyTheField()
{
    CanvasMapper mapper;
    mapper.onFrame(frame(1));
    const ZoneMapPtr before = mapper.currentMap();
    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);
    mapper.onFrame(frame(2, QStringLiteral("Alice")));
    mapper.onChanges(change(2, QRect(45, 45, 40, 14)));
    const auto decisions = ofKind(events, SpatialEvent::Kind::TierDecision);
    QCOMPARE(decisions.size(), 1);
    const QVariantMap d = decisions.first().data;
    QCOMPARE(d.value(QStringLiteral("tier")).toInt(), 1);
    QVERIFY(d.value(QStringLiteral("changed_percent")).toDouble() < 0.5);
    const QVariantMap region = d.value(QStringLiteral("region")).toMap();
    QVERIFY(region.value(QStringLiteral("width")).toInt() <= 320);
    QVERIFY(region.value(QStringLiteral("y")).toInt() >= 30 &&
            region.value(QStringLiteral("height")).toInt() <= 40);
    const ZoneMapPtr after = mapper.currentMap();
    QVERIFY(after->version() > before->version());
    QVERIFY2(byLabel(*after, QStringLiteral("Alice")), "the field's new text was read");
    for (const char* label : {"Submit", "Cancel", "Help"}) {
        const QString l = QString::fromLatin1(label);
        QCOMPARE(byLabel(*after, l)->id, byLabel(*before, l)->id);
    }
}

void TestCanvasMapper::hoverUpdatesState()
{
    CanvasMapper mapper;
    mapper.onFrame(frame(1));
    const QString submit = byLabel(*mapper.currentMap(), QStringLiteral("Submit"))->id;
    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);
    mapper.onCursor({0, QPoint(90, 312), {}});
    mapper.onFrame(frame(2, {}, true));
    mapper.onChanges(change(2, QRect(41, 301, 98, 24), 80));
    auto decisions = ofKind(events, SpatialEvent::Kind::TierDecision);
    QCOMPARE(decisions.size(), 1);
    QCOMPARE(decisions.first().data.value(QStringLiteral("reason")).toString(), QStringLiteral("hover"));
    QCOMPARE(decisions.first().zoneId, submit);
    QVERIFY(mapper.currentMap()->find(submit)->state.testFlag(ZoneStateFlag::Hovered));
    QVERIFY(ofKind(events, SpatialEvent::Kind::Analysis).isEmpty()); // no re-analysis for a hover
    // The cursor leaves: the highlight goes, and so does the state.
    events.clear();
    mapper.onCursor({0, QPoint(600, 10), {}});
    mapper.onFrame(frame(3));
    mapper.onChanges(change(3, QRect(41, 301, 98, 24), 80));
    decisions = ofKind(events, SpatialEvent::Kind::TierDecision);
    QCOMPARE(decisions.first().data.value(QStringLiteral("reason")).toString(), QStringLiteral("hover_end"));
    QVERIFY(!mapper.currentMap()->find(submit)->state.testFlag(ZoneStateFlag::Hovered));
}

void TestCanvasMapper::cursorOnlyAndNoiseAreIgnored()
{
    CanvasMapper mapper;
    mapper.onFrame(frame(1));
    const ZoneMapPtr map = mapper.currentMap();
    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);
    QSignalSpy maps(&mapper, &CanvasMapper::zoneMapUpdated);
    FrameDiff cursor = change(2, QRect(300, 200, 16, 16), 30);
    cursor.cursorOnly = true;
    mapper.onFrame(frame(2));
    mapper.onChanges(cursor);
    mapper.onChanges(change(2, QRect(200, 200, 1, 14), 100)); // a caret blink
    const auto decisions = ofKind(events, SpatialEvent::Kind::TierDecision);
    QCOMPARE(decisions.size(), 2);
    QCOMPARE(decisions.at(0).data.value(QStringLiteral("reason")).toString(), QStringLiteral("cursor_only"));
    QCOMPARE(decisions.at(1).data.value(QStringLiteral("reason")).toString(), QStringLiteral("noise"));
    QCOMPARE(decisions.at(0).data.value(QStringLiteral("tier")).toInt(), 0);
    QCOMPARE(maps.size(), 0);
    QCOMPARE(mapper.currentMap(), map);
}

void TestCanvasMapper::animationWaitsForStability()
{
    CanvasMapper mapper;
    mapper.onFrame(frame(1));
    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);
    FrameDiff moving = change(2, QRect(400, 100, 200, 100), 40);
    moving.animating = true;
    mapper.onFrame(frame(2));
    mapper.onChanges(moving);
    QCOMPARE(ofKind(events, SpatialEvent::Kind::TierDecision)
                 .last()
                 .data.value(QStringLiteral("reason"))
                 .toString(),
             QStringLiteral("animation"));
    QVERIFY(ofKind(events, SpatialEvent::Kind::Analysis).isEmpty());
    FrameDiff settled;
    settled.frameIndex = 3;
    settled.tNs = 300'000'000;
    settled.stable = true;
    mapper.onFrame(frame(3));
    mapper.onChanges(settled);
    const auto analyses = ofKind(events, SpatialEvent::Kind::Analysis);
    QCOMPARE(analyses.size(), 1);
    const QVariantMap region = analyses.first().data.value(QStringLiteral("region")).toMap();
    QVERIFY(region.value(QStringLiteral("x")).toInt() <= 400 &&
            region.value(QStringLiteral("width")).toInt() >= 200);
}

void TestCanvasMapper::changesWaitForTheirFrame()
{
    CanvasMapper mapper;
    mapper.onFrame(frame(1));
    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);
    mapper.onChanges(change(2, QRect(45, 45, 40, 14))); // frame 2 not there yet
    QVERIFY(ofKind(events, SpatialEvent::Kind::TierDecision).isEmpty());
    mapper.onFrame(frame(2, QStringLiteral("Robert")));
    QCOMPARE(ofKind(events, SpatialEvent::Kind::TierDecision).size(), 1);
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Robert")));
}

namespace {

platform::WindowInfo window(quint64 id, const QRect& geometry)
{
    platform::WindowInfo w;
    w.id = id;
    w.geometry = geometry;
    return w;
}

QStringList decisionReasons(const QSignalSpy& spy)
{
    QStringList reasons;
    for (const SpatialEvent& e : ofKind(spy, SpatialEvent::Kind::TierDecision))
        reasons << e.data.value(QStringLiteral("reason")).toString();
    return reasons;
}

} // namespace

// The window list comes from a tracker's reports (onWindows): the focus moving to another window that
// was already there is an application switch (Tier 2 over the screen), a new window is a dialog (Tier 2
// over that window, no switch), and a report alone, without a change of the screen, decides nothing.
void TestCanvasMapper::windowReportsMakeSwitchesAndDialogs()
{
    const platform::WindowInfo editor = window(1, QRect(0, 0, 640, 400));
    const platform::WindowInfo browser = window(2, QRect(0, 0, 640, 400));
    const platform::WindowInfo dialog = window(3, QRect(200, 120, 240, 160));
    CanvasMapper mapper;
    mapper.onWindows({editor, browser}, editor);
    mapper.onFrame(frame(1));
    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);

    // Switch to the other application: nothing until the screen changes.
    mapper.onWindows({editor, browser}, browser);
    QVERIFY(decisionReasons(events).isEmpty());
    mapper.onFrame(frame(2, QStringLiteral("Alice")));
    mapper.onChanges(change(2, QRect(45, 45, 40, 14)));
    QCOMPARE(decisionReasons(events), QStringList{QStringLiteral("active_window_changed")});

    // The same report again is no second switch.
    events.clear();
    mapper.onWindows({editor, browser}, browser);
    mapper.onFrame(frame(3, QStringLiteral("Bob")));
    mapper.onChanges(change(3, QRect(45, 45, 40, 14)));
    QVERIFY(!decisionReasons(events).contains(QStringLiteral("active_window_changed")));

    // A dialog opens and takes the focus: analysed as a new window, not as a switch.
    events.clear();
    mapper.onWindows({editor, browser, dialog}, dialog);
    mapper.onFrame(frame(4, QStringLiteral("Carol")));
    mapper.onChanges(change(4, dialog.geometry, 80));
    const QStringList reasons = decisionReasons(events);
    QVERIFY2(reasons.contains(QStringLiteral("dialog")), qPrintable(reasons.join(QLatin1Char(','))));
    QVERIFY(!reasons.contains(QStringLiteral("active_window_changed")));
    for (const SpatialEvent& e : ofKind(events, SpatialEvent::Kind::TierDecision)) {
        if (e.data.value(QStringLiteral("reason")).toString() != QLatin1String("dialog"))
            continue;
        const QVariantMap region = e.data.value(QStringLiteral("region")).toMap();
        QVERIFY(QRect(region.value(QStringLiteral("x")).toInt(), region.value(QStringLiteral("y")).toInt(),
                      region.value(QStringLiteral("width")).toInt(),
                      region.value(QStringLiteral("height")).toInt())
                    .contains(dialog.geometry));
    }
}

void TestCanvasMapper::userCorrectionsAndConfidence()
{
    CanvasMapper mapper;
    mapper.onFrame(frame(1));
    Zone help = *byLabel(*mapper.currentMap(), QStringLiteral("Help"));
    help.label = QStringLiteral("Help and support");
    help.type = ZoneType::Link;
    QSignalSpy maps(&mapper, &CanvasMapper::zoneMapUpdated);
    mapper.applyUserCorrection(help);
    QCOMPARE(maps.size(), 1);
    const Zone* fixed = mapper.currentMap()->find(help.id);
    QVERIFY(fixed);
    QCOMPARE(fixed->label, QStringLiteral("Help and support"));
    QCOMPARE(int(fixed->source), int(ZoneSource::User));
    // A re-analysis of its region does not undo the correction.
    mapper.onFrame(frame(2));
    mapper.onChanges(change(2, QRect(380, 280, 140, 60), 100));
    QCOMPARE(mapper.currentMap()->find(help.id)->label, QStringLiteral("Help and support"));
    // Minimum confidence for acting.
    Zone unsure;
    unsure.bounds = QRect(500, 20, 40, 20);
    unsure.type = ZoneType::Button;
    mapper.applyUserCorrection(unsure);
    mapper.setMinActionConfidence(0.95);
    const auto actionable = CanvasMapper::actionableZones(*mapper.currentMap(), mapper.minActionConfidence());
    QCOMPARE(actionable.size(), 2); // only the user's zones have confidence 1
    QCOMPARE(CanvasMapper::actionableZones(*mapper.currentMap(), 0.0).size() > 3, true);
    mapper.removeZone(help.id);
    QVERIFY(!mapper.currentMap()->find(help.id));
    mapper.setUserZones({});
    for (const Zone& z : mapper.currentMap()->zones())
        QVERIFY(z.source != ZoneSource::User);
}

void TestCanvasMapper::requestedFullAnalysisKeepsIds()
{
    CanvasMapper mapper;
    mapper.onFrame(frame(1));
    const ZoneMapPtr before = mapper.currentMap();
    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);
    mapper.requestFullAnalysis(QStringLiteral("director"));
    QCOMPARE(ofKind(events, SpatialEvent::Kind::TierDecision)
                 .first()
                 .data.value(QStringLiteral("reason"))
                 .toString(),
             QStringLiteral("director"));
    for (const Zone& z : before->zones())
        QVERIFY2(mapper.currentMap()->find(z.id), qPrintable(z.label));
}

void TestCanvasMapper::tier2MergesTheModelsInventory()
{
    FakeApiServer server;
    QVERIFY(server.start());
    // The model sees the 640×400 frame unscaled; it reports Submit (renamed) and an element the local
    // analysis cannot see, plus one box off the screen.
    server.enqueue(FakeApiServer::textReply(QStringLiteral(
        R"([{"x": 40, "y": 300, "width": 100, "height": 26, "type": "button", "label": "Submit form", "state": ["enabled"]},
            {"x": 560, "y": 20, "width": 60, "height": 20, "type": "link", "label": "Sign out"},
            {"x": 900, "y": 20, "width": 60, "height": 20, "type": "button", "label": "Ghost"}])")));
    director::ProviderConfig config;
    config.baseUrl = server.baseUrl();
    config.apiKey = QStringLiteral("sk-ant-test");
    config.defaultModel = QStringLiteral("claude-sonnet-4-5");
    config.maxAttempts = 1;
    director::AnthropicProvider provider(config);
    CanvasMapper mapper;
    mapper.setProvider(&provider);
    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);
    mapper.onFrame(frame(1));
    // The local analysis is there at once...
    const QString submit = byLabel(*mapper.currentMap(), QStringLiteral("Submit"))->id;
    // ...the model's inventory follows.
    QVERIFY(QTest::qWaitFor(
        [&] { return byLabel(*mapper.currentMap(), QStringLiteral("Sign out")) != nullptr; }, 15000));
    const ZoneMapPtr map = mapper.currentMap();
    QCOMPARE(byLabel(*map, QStringLiteral("Submit form"))->id, submit); // same place: same id, model's label
    QVERIFY(byLabel(*map, QStringLiteral("Cancel")));                   // local zones the model missed stay
    QVERIFY(!byLabel(*map, QStringLiteral("Ghost")));
    QSignalSpy* spy = &events;
    QList<SpatialEvent> tier2;
    for (const SpatialEvent& e : ofKind(*spy, SpatialEvent::Kind::Analysis)) {
        if (e.data.value(QStringLiteral("tier")).toInt() == 2)
            tier2 << e;
    }
    QCOMPARE(tier2.size(), 1);
    QCOMPARE(tier2.first().data.value(QStringLiteral("accepted")).toInt(), 2);
    QCOMPARE(tier2.first().data.value(QStringLiteral("rejected")).toInt(), 1);
    QCOMPARE(server.requestCount(), 1);
}

void TestCanvasMapper::excludedRegionsAreNeitherAnalysedNorPublished()
{
    const QRect helpArea(380, 280, 200, 80); // the Help button, as if the agent's window covered it
    CanvasMapper mapper;
    mapper.setExcludedRegions({helpArea});
    mapper.onFrame(frame(1));
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Submit")));
    QVERIFY2(!byLabel(*mapper.currentMap(), QStringLiteral("Help")), "masked out of the analysis");
    for (const Zone& z : mapper.currentMap()->zones())
        QVERIFY2(!helpArea.contains(z.bounds.center()), qPrintable(z.label));

    // A change entirely inside the excluded area escalates nothing.
    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);
    mapper.onFrame(frame(2, {}, false));
    FrameDiff inside = change(2, QRect(390, 290, 150, 50), 100);
    inside.totalPercent = 40; // even a large one
    mapper.onChanges(inside);
    for (const SpatialEvent& e : ofKind(events, SpatialEvent::Kind::TierDecision))
        QVERIFY2(e.data.value(QStringLiteral("tier")).toInt() == 0,
                 qPrintable(e.data.value(QStringLiteral("reason")).toString()));
    QVERIFY(ofKind(events, SpatialEvent::Kind::Analysis).isEmpty());
    // A change reaching outside is analysed, still without the excluded zones.
    mapper.onFrame(frame(3, QStringLiteral("Alice")));
    mapper.onChanges(change(3, QRect(45, 45, 40, 14)));
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Alice")));
    QVERIFY(!byLabel(*mapper.currentMap(), QStringLiteral("Help")));

    // Excluding a published zone removes it at once.
    const QString submit = byLabel(*mapper.currentMap(), QStringLiteral("Submit"))->id;
    mapper.setExcludedRegions({helpArea, QRect(30, 290, 120, 50)});
    QVERIFY(!mapper.currentMap()->find(submit));
    mapper.requestFullAnalysis(QStringLiteral("test"));
    QVERIFY(!byLabel(*mapper.currentMap(), QStringLiteral("Submit")));
    QVERIFY(!byLabel(*mapper.currentMap(), QStringLiteral("Help")));

    // Clearing the exclusions analyses what they hid.
    events.clear();
    mapper.setExcludedRegions({});
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Submit")));
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Help")));
    const auto decisions = ofKind(events, SpatialEvent::Kind::TierDecision);
    QVERIFY(!decisions.isEmpty());
    QCOMPARE(decisions.first().data.value(QStringLiteral("reason")).toString(),
             QStringLiteral("exclusion_changed"));
}

void TestCanvasMapper::excludedPixelsNeverReachTheModel()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(FakeApiServer::textReply(QStringLiteral(
        R"([{"x": 400, "y": 300, "width": 100, "height": 26, "type": "button", "label": "Help"},
            {"x": 160, "y": 300, "width": 100, "height": 26, "type": "button", "label": "Cancel"}])")));
    director::ProviderConfig config;
    config.baseUrl = server.baseUrl();
    config.apiKey = QStringLiteral("sk-ant-test");
    config.defaultModel = QStringLiteral("claude-sonnet-4-5");
    config.maxAttempts = 1;
    director::AnthropicProvider provider(config);
    CanvasMapper mapper;
    mapper.setProvider(&provider);
    const QRect helpArea(380, 280, 200, 80);
    mapper.setExcludedRegions({helpArea});
    mapper.onFrame(frame(1));
    QVERIFY(server.waitForRequests(1));
    QVERIFY(QTest::qWaitFor(
        [&] { return byLabel(*mapper.currentMap(), QStringLiteral("Cancel")) != nullptr; }, 15000));
    // The model's zone inside the excluded area is not published either (both came in the same reply, so
    // the map that has Cancel is the one that would have Help).
    QVERIFY(!byLabel(*mapper.currentMap(), QStringLiteral("Help")));
    // The image it was sent: flat where the Help button is.
    QString data;
    for (const QJsonValue& m : server.lastRequest().json.value(QLatin1String("messages")).toArray()) {
        for (const QJsonValue& c : m.toObject().value(QLatin1String("content")).toArray()) {
            const QJsonObject source = c.toObject().value(QLatin1String("source")).toObject();
            if (source.contains(QLatin1String("data")))
                data = source.value(QLatin1String("data")).toString();
        }
    }
    QVERIFY(!data.isEmpty());
    const QImage sent = QImage::fromData(QByteArray::fromBase64(data.toLatin1()));
    QCOMPARE(sent.size(), QSize(640, 400));
    QCOMPARE(sent.pixelColor(450, 313), sent.pixelColor(385, 285)); // no "Help" text, no border
    QCOMPARE(sent.pixelColor(450, 313), sent.pixelColor(575, 355));
    QVERIFY(sent.pixelColor(210, 313) != sent.pixelColor(385, 285)); // Cancel is still there
}

void TestCanvasMapper::userZonesKeepReplacedDetectionsAway()
{
    CanvasMapper mapper;
    mapper.onFrame(frame(1));
    const Zone* cancel = byLabel(*mapper.currentMap(), QStringLiteral("Cancel"));
    QVERIFY(cancel);
    const QString cancelId = cancel->id;
    // The user replaced the detected Cancel button with a taller link of another name: the overlap is
    // just over IoU 0.5, with neither the type nor the label in common.
    Zone user;
    user.bounds = QRect(cancel->bounds.x(), cancel->bounds.y(), cancel->bounds.width(),
                        cancel->bounds.height() * 2 - 6);
    QVERIFY(intersectionOverUnion(user.bounds, cancel->bounds) >= 0.5);
    user.type = ZoneType::Link;
    user.label = QStringLiteral("Abort the form");
    mapper.setUserZones({user});
    auto detectedAt = [&](const QRect& r) {
        int n = 0;
        for (const Zone& z : mapper.currentMap()->zones())
            n += z.source != ZoneSource::User && intersectionOverUnion(z.bounds, r) >= 0.5 ? 1 : 0;
        return n;
    };
    QVERIFY(!mapper.currentMap()->find(cancelId));
    QCOMPARE(detectedAt(user.bounds), 0);
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Abort the form")));
    // Later analyses (of the region, of the whole screen) do not bring the detection back.
    mapper.onFrame(frame(2));
    mapper.onChanges(change(2, QRect(150, 290, 130, 60), 100));
    QCOMPARE(detectedAt(user.bounds), 0);
    mapper.requestFullAnalysis(QStringLiteral("test"));
    QCOMPARE(detectedAt(user.bounds), 0);
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Abort the form")));
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Submit")));
    // Without the user zone, the button is detected again.
    mapper.setUserZones({});
    mapper.requestFullAnalysis(QStringLiteral("test"));
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Cancel")));
}

void TestCanvasMapper::suppressedRegionsDropDetections()
{
    CanvasMapper mapper;
    mapper.onFrame(frame(1));
    const Zone help = *byLabel(*mapper.currentMap(), QStringLiteral("Help"));
    const QString submit = byLabel(*mapper.currentMap(), QStringLiteral("Submit"))->id;
    // The user deleted the Help zone; the suppressed rectangle is a little off (IoU >= 0.5 is enough).
    const QRect suppressed = help.bounds.adjusted(4, 2, 8, 4);
    QVERIFY(intersectionOverUnion(suppressed, help.bounds) >= 0.5);
    mapper.setSuppressedRegions({suppressed});
    QVERIFY(!mapper.currentMap()->find(help.id));
    QVERIFY(!byLabel(*mapper.currentMap(), QStringLiteral("Help")));
    mapper.onFrame(frame(2));
    mapper.onChanges(change(2, QRect(380, 280, 140, 60), 100));
    QVERIFY(!byLabel(*mapper.currentMap(), QStringLiteral("Help")));
    mapper.requestFullAnalysis(QStringLiteral("test"));
    QVERIFY(!byLabel(*mapper.currentMap(), QStringLiteral("Help")));
    QVERIFY(mapper.currentMap()->find(submit)); // nothing else suppressed
    // Cleared: the next analysis finds it again.
    mapper.setSuppressedRegions({});
    mapper.requestFullAnalysis(QStringLiteral("test"));
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Help")));
}

namespace {

// A full-HD screen where one button moved and a status line went away: each change is far below the
// threshold of an immediate analysis (0.5 % of the screen).
Frame desktop(quint64 index, QPoint help, bool status)
{
    QImage image(1920, 1080, QImage::Format_RGB32);
    image.fill(QColor(0xf0, 0xf0, 0xf0));
    QPainter p(&image);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(12);
    p.setFont(font);
    button(p, QRect(40, 300, 100, 26), QStringLiteral("Submit"));
    button(p, QRect(160, 300, 100, 26), QStringLiteral("Cancel"));
    button(p, QRect(help, QSize(100, 26)), QStringLiteral("Help"));
    if (status) {
        p.setPen(Qt::black);
        p.drawText(QRect(40, 400, 200, 20), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("Status: ready"));
    }
    p.end();
    Frame f;
    f.index = index;
    f.tNs = qint64(index) * 100'000'000;
    f.image = image;
    return f;
}

} // namespace

void TestCanvasMapper::smallChangesLeaveNoStaleZones()
{
    CanvasMapper mapper;
    const QPoint oldHelp(400, 300);
    const QPoint newHelp(900, 600);
    mapper.onFrame(desktop(1, oldHelp, true));
    const ZoneMapPtr before = mapper.currentMap();
    const Zone* help = byLabel(*before, QStringLiteral("Help"));
    QVERIFY(help);
    QVERIFY(help->bounds.contains(oldHelp + QPoint(50, 13)));
    const auto statusZone = [](const ZoneMap& map) {
        for (const Zone& z : map.zones()) {
            if (z.label.contains(QStringLiteral("ready")))
                return &z;
        }
        return static_cast<const Zone*>(nullptr);
    };
    QVERIFY(statusZone(*before));

    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);
    mapper.onFrame(desktop(2, newHelp, false));
    FrameDiff diff;
    diff.frameIndex = 2;
    diff.tNs = 2 * 100'000'000;
    diff.regions = {{QRect(oldHelp, QSize(100, 26)), 70},
                    {QRect(newHelp, QSize(100, 26)), 70},
                    {QRect(40, 402, 90, 16), 30}};
    diff.totalPercent = 100.0 * (2 * 2600 * 0.7 + 1440 * 0.3) / (1920.0 * 1080.0);
    QVERIFY(diff.totalPercent < 0.5);
    mapper.onChanges(diff);
    // The screen settles: what was too small to analyse at once is analysed now.
    mapper.onFrame(desktop(3, newHelp, false));
    FrameDiff stable;
    stable.frameIndex = 3;
    stable.tNs = 3 * 100'000'000;
    stable.stable = true;
    mapper.onChanges(stable);

    const ZoneMapPtr after = mapper.currentMap();
    int helps = 0;
    for (const Zone& z : after->zones())
        helps += z.label == QLatin1String("Help") ? 1 : 0;
    QCOMPARE(helps, 1); // moved, not doubled
    QVERIFY(byLabel(*after, QStringLiteral("Help"))->bounds.contains(newHelp + QPoint(50, 13)));
    QVERIFY(!after->zoneAt(oldHelp + QPoint(50, 13)));
    QVERIFY2(!statusZone(*after), "the status line's zone outlived its text");
    for (const char* label : {"Submit", "Cancel"}) {
        const QString l = QString::fromLatin1(label);
        QCOMPARE(byLabel(*after, l)->id, byLabel(*before, l)->id);
    }
    QVERIFY(decisionReasons(events).contains(QStringLiteral("small_change_settled")));
}

void TestCanvasMapper::lookAgainAlwaysAnswers()
{
    CanvasMapper mapper;
    const QPoint oldHelp(400, 300);
    const QPoint newHelp(900, 600);
    const auto statusZone = [](const ZoneMap& map) {
        for (const Zone& z : map.zones()) {
            if (z.label.contains(QStringLiteral("ready")))
                return &z;
        }
        return static_cast<const Zone*>(nullptr);
    };
    const auto token = [](const QSignalSpy& spy, qsizetype i) { return spy.at(i).at(0).value<quint64>(); };
    const auto answer = [](const QSignalSpy& spy, qsizetype i) {
        return spy.at(i).at(1).value<ZoneMapPtr>();
    };
    // Before the first frame: answered all the same, with no map.
    QSignalSpy answers(&mapper, &CanvasMapper::lookedAgain);
    mapper.lookAgain(3);
    QCOMPARE(answers.size(), 1);
    QCOMPARE(token(answers, 0), quint64(3));
    QVERIFY(!answer(answers, 0));

    mapper.onFrame(desktop(1, oldHelp, false));
    const ZoneMapPtr first = mapper.currentMap();
    QVERIFY(first && !statusZone(*first));
    QSignalSpy maps(&mapper, &CanvasMapper::zoneMapUpdated);
    QSignalSpy events(&mapper, &CanvasMapper::eventOccurred);
    // Nothing changed: the answer is the current map, and nothing is analysed or published.
    mapper.lookAgain(7);
    QCOMPARE(answers.size(), 2);
    QCOMPARE(token(answers, 1), quint64(7));
    QVERIFY(answer(answers, 1) == first);
    QVERIFY(maps.isEmpty());
    QVERIFY(ofKind(events, SpatialEvent::Kind::Analysis).isEmpty());

    // A status line appears (a button's effect), far below the threshold of an immediate analysis, and the
    // screen has not reported itself stable: the change is held back.
    mapper.onFrame(desktop(2, oldHelp, true));
    mapper.onChanges(change(2, QRect(40, 402, 90, 16), 30));
    QVERIFY(!statusZone(*mapper.currentMap()));
    mapper.lookAgain(8);
    QCOMPARE(answers.size(), 3);
    QCOMPARE(token(answers, 2), quint64(8));
    const ZoneMapPtr seen = answer(answers, 2);
    QVERIFY(seen);
    QVERIFY2(statusZone(*seen), "the second look did not analyse the held-back change");
    QVERIFY(seen == mapper.currentMap());
    QVERIFY(maps.last().first().value<ZoneMapPtr>() == seen); // published before the answer
    QVERIFY(decisionReasons(events).contains(QStringLiteral("look_again")));
    for (const char* label : {"Submit", "Cancel", "Help"}) {
        const QString l = QString::fromLatin1(label);
        QCOMPARE(byLabel(*seen, l)->id, byLabel(*first, l)->id);
    }

    // A button moves while the screen reports an animation: held back until the animation ends, unless a
    // second look is asked for.
    FrameDiff moving;
    moving.frameIndex = 3;
    moving.tNs = 3 * 100'000'000;
    moving.regions = {{QRect(oldHelp, QSize(100, 26)), 70}, {QRect(newHelp, QSize(100, 26)), 70}};
    moving.animating = true;
    mapper.onFrame(desktop(3, newHelp, true));
    mapper.onChanges(moving);
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Help"))->bounds.contains(oldHelp + QPoint(50, 13)));
    mapper.lookAgain(9);
    QCOMPARE(answers.size(), 4);
    QCOMPARE(token(answers, 3), quint64(9));
    const ZoneMapPtr moved = answer(answers, 3);
    QVERIFY(byLabel(*moved, QStringLiteral("Help"))->bounds.contains(newHelp + QPoint(50, 13)));
    QVERIFY(!moved->zoneAt(oldHelp + QPoint(50, 13)));
    QVERIFY(statusZone(*moved));
}

namespace {

// The test frame as one program's window, filling the screen.
platform::WindowInfo programWindow()
{
    platform::WindowInfo w = window(7, QRect(0, 0, 640, 400));
    w.windowClass = QStringLiteral("ciu-test-app");
    return w;
}

// A mapper with the zone memory in `dir` and the program's window reported.
std::unique_ptr<CanvasMapper> memoryMapper(const QString& dir)
{
    auto mapper = std::make_unique<CanvasMapper>();
    mapper->setZoneMemory(std::make_unique<ZoneMemory>(dir));
    mapper->onWindows({programWindow()}, programWindow());
    return mapper;
}

// Session 1: the window mapped by a full analysis, and remembered.
ZoneMapPtr rememberFirstFrame(const QString& dir)
{
    auto mapper = memoryMapper(dir);
    mapper->onFrame(frame(1));
    if (mapper->memoryStats().remembers != 1 || mapper->memoryStats().recalls != 0)
        return nullptr;
    return mapper->currentMap();
}

QVariantMap memoryEvent(const QSignalSpy& events)
{
    for (const SpatialEvent& e : ofKind(events, SpatialEvent::Kind::Analysis)) {
        if (e.data.value(QStringLiteral("source")).toString() == QLatin1String("memory"))
            return e.data;
    }
    return {};
}

QRect regionOf(const QVariantMap& data)
{
    const QVariantMap r = data.value(QStringLiteral("region")).toMap();
    return {r.value(QStringLiteral("x")).toInt(), r.value(QStringLiteral("y")).toInt(),
            r.value(QStringLiteral("width")).toInt(), r.value(QStringLiteral("height")).toInt()};
}

} // namespace

// A remembered window that comes back unchanged: its map is the remembered zones, with their ids and labels,
// and no full analysis runs (the screen is that window); only the field, whose value memory does not keep,
// gets a Tier 1 look.
void TestCanvasMapper::rememberedWindowSparesTheFullAnalysis()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const ZoneMapPtr first = rememberFirstFrame(dir.path());
    QVERIFY(first);
    QVERIFY(first->size() >= 4);

    auto mapper = memoryMapper(dir.path());
    QSignalSpy events(mapper.get(), &CanvasMapper::eventOccurred);
    mapper->onFrame(frame(1));
    QCOMPARE(decisionReasons(events),
             (QStringList{QStringLiteral("recalled"), QStringLiteral("recalled_changed")}));
    const SpatialEvent decision = ofKind(events, SpatialEvent::Kind::TierDecision).first();
    QCOMPARE(decision.data.value(QStringLiteral("action")).toString(), QStringLiteral("ignore"));
    QCOMPARE(regionOf(decision.data), QRect(0, 0, 640, 400));
    const auto analyses = ofKind(events, SpatialEvent::Kind::Analysis);
    QCOMPARE(analyses.size(), 2); // the memory's, and the field's look
    QCOMPARE(analyses.last().data.value(QStringLiteral("reason")).toString(),
             QStringLiteral("recalled_changed"));
    QCOMPARE(analyses.last().data.value(QStringLiteral("full_screen")).toBool(), false);
    QCOMPARE(regionOf(analyses.last().data), QRect(36, 36, 308, 32)); // the field and the analysis margin
    const QVariantMap recalled = memoryEvent(events);
    QCOMPARE(recalled.value(QStringLiteral("recalled")).toBool(), true);
    QCOMPARE(recalled.value(QStringLiteral("confirmed")).toInt(), int(first->size()));
    QCOMPARE(recalled.value(QStringLiteral("zones")).toInt(), int(first->size()));
    QCOMPARE(recalled.value(QStringLiteral("changed_regions")).toInt(), 0);
    QCOMPARE(mapper->memoryStats().spared, 1);
    QCOMPARE(mapper->memoryStats().zonesRecalled, int(first->size()));

    const ZoneMapPtr map = mapper->currentMap();
    QCOMPARE(map->size(), first->size());
    for (const Zone& z : first->zones()) {
        const Zone* again = map->find(z.id);
        QVERIFY2(again, qPrintable(z.id));
        QCOMPARE(again->label, z.label);
        QCOMPARE(again->bounds, z.bounds);
        QVERIFY(again->type == z.type);
        QCOMPARE(isRemembered(*again), z.type != ZoneType::TextField); // the field was looked at again
    }
}

// A remembered window with a new element in a part that was empty: every remembered zone is confirmed, the
// part that differs (the thumbnail's cells there) gets a Tier 1 look, nothing else is analysed.
void TestCanvasMapper::rememberedWindowWithAChangedPart()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const ZoneMapPtr first = rememberFirstFrame(dir.path());
    QVERIFY(first);

    Frame changed = frame(1);
    {
        // On the thumbnail's grid (cells of 40 × 25 pixels): cells (10..12, 6).
        QPainter p(&changed.image);
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPixelSize(12);
        p.setFont(font);
        button(p, QRect(400, 150, 120, 25), QStringLiteral("Export"), QColor(0x80, 0x80, 0x80));
    }
    auto mapper = memoryMapper(dir.path());
    QSignalSpy events(mapper.get(), &CanvasMapper::eventOccurred);
    mapper->onFrame(changed);
    QCOMPARE(decisionReasons(events),
             (QStringList{QStringLiteral("recalled"), QStringLiteral("recalled_changed")}));
    const QVariantMap recalled = memoryEvent(events);
    QCOMPARE(recalled.value(QStringLiteral("recalled")).toBool(), true);
    QCOMPARE(recalled.value(QStringLiteral("confirmed")).toInt(), int(first->size()));
    QCOMPARE(recalled.value(QStringLiteral("changed_regions")).toInt(), 3);
    const auto analyses = ofKind(events, SpatialEvent::Kind::Analysis);
    QCOMPARE(analyses.size(), 3); // the memory's, the field's look (its value), the new element's
    QCOMPARE(regionOf(analyses.last().data), QRect(36, 36, 308, 32));
    const QVariantMap look = analyses.at(1).data;
    QCOMPARE(look.value(QStringLiteral("tier")).toInt(), 1);
    QCOMPARE(look.value(QStringLiteral("reason")).toString(), QStringLiteral("recalled_changed"));
    QCOMPARE(look.value(QStringLiteral("full_screen")).toBool(), false);
    QCOMPARE(regionOf(look), QRect(396, 146, 128, 33)); // the three cells and the analysis margin

    const ZoneMapPtr map = mapper->currentMap();
    QVERIFY2(byLabel(*map, QStringLiteral("Export")), "the new element was analysed");
    for (const Zone& z : first->zones()) {
        const Zone* again = map->find(z.id);
        QVERIFY2(again, qPrintable(z.id));
        QCOMPARE(again->label, z.label);
    }
}

// A remembered window that changed beyond the criterion (the buttons moved down: their pixels no longer
// match): the remembered zones that still match are published, and the full analysis runs as before.
void TestCanvasMapper::rememberedWindowThatChangedIsAnalysed()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const ZoneMapPtr first = rememberFirstFrame(dir.path());
    QVERIFY(first);

    Frame moved = frame(1);
    moved.image.fill(QColor(0xf0, 0xf0, 0xf0));
    {
        QPainter p(&moved.image);
        p.drawImage(QPoint(0, 6), frame(1).image);
    }
    auto mapper = memoryMapper(dir.path());
    QSignalSpy events(mapper.get(), &CanvasMapper::eventOccurred);
    mapper->onFrame(moved);
    QCOMPARE(mapper->memoryStats().recalls, 1);
    QCOMPARE(mapper->memoryStats().spared, 0);
    QCOMPARE(decisionReasons(events), QStringList{QStringLiteral("first_frame")});
    const QVariantMap recalled = memoryEvent(events);
    QCOMPARE(recalled.value(QStringLiteral("recalled")).toBool(), false);
    QVERIFY(recalled.value(QStringLiteral("confirmed")).toInt() < 0.8 * first->size());
    const auto analyses = ofKind(events, SpatialEvent::Kind::Analysis);
    QCOMPARE(analyses.size(), 2);
    QCOMPARE(analyses.last().data.value(QStringLiteral("tier")).toInt(), 1);
    QVERIFY(analyses.last().data.value(QStringLiteral("full_screen")).toBool());
    QVERIFY(byLabel(*mapper->currentMap(), QStringLiteral("Submit")));
}

// The program's app schema names the Help button (a place a little off the detected one) and a search field
// where nothing is detected; a third named zone lies outside the window. Window-relative: the window is not
// at the screen's corner.
void TestCanvasMapper::schemaZonesNameAndAddZones()
{
    QTemporaryDir dir;
    platform::WindowInfo w = window(9, QRect(20, 20, 600, 360));
    w.windowClass = QStringLiteral("ciu-test-app");
    CanvasMapper mapper;
    mapper.onWindows({w}, w);
    mapper.onFrame(frame(1));
    const Zone help = *byLabel(*mapper.currentMap(), QStringLiteral("Help"));
    const QString submitId = byLabel(*mapper.currentMap(), QStringLiteral("Submit"))->id;
    const QRect searchPlace(460, 20, 120, 24); // root (480, 40, 120, 24): background
    AppSchema schema{w.windowClass, {}, {}, {}};
    schema.zones = {{QStringLiteral("Get help"), help.bounds.translated(-20, -20).adjusted(-3, -2, 4, 2)},
                    {QStringLiteral("Search field"), searchPlace, ZoneType::TextField},
                    {QStringLiteral("Beyond"), QRect(580, 300, 40, 40), ZoneType::Button}};
    QString error;
    QVERIFY2(ShortcutStore(dir.path()).save(schema, &error), qPrintable(error));

    QSignalSpy maps(&mapper, &CanvasMapper::zoneMapUpdated);
    const quint64 before = mapper.currentMap()->version();
    mapper.setAppSchemas(std::make_unique<ShortcutStore>(dir.path()));
    QCOMPARE(maps.size(), 1);
    const ZoneMapPtr map = mapper.currentMap();
    QVERIFY(map->version() > before);
    const Zone* named = map->find(help.id);
    QVERIFY(named);
    QCOMPARE(named->label, QStringLiteral("Get help"));
    QVERIFY(named->labelSource == LabelSource::Schema);
    QCOMPARE(named->bounds, help.bounds);
    const Zone* search = map->find(schemaZoneId(9, QStringLiteral("Search field")));
    QVERIFY(search);
    QCOMPARE(search->bounds, searchPlace.translated(20, 20));
    QVERIFY(search->source == ZoneSource::Schema);
    QVERIFY(search->type == ZoneType::TextField);
    QVERIFY(!byLabel(*map, QStringLiteral("Beyond")));
    QCOMPARE(map->find(submitId)->label, QStringLiteral("Submit"));
    QCOMPARE(map->size(), mapper.registry().zones().size() + 1);
    // Publishing again with nothing changed publishes nothing.
    mapper.setSuppressedRegions({});
    QCOMPARE(maps.size(), 1);

    // The user's corrections rank above: a user zone at the search field's place keeps its own name and the
    // schema adds nothing there; a removed place (suppressed) gets no schema zone either.
    Zone user;
    user.id = QStringLiteral("u1");
    user.bounds = searchPlace.translated(22, 21);
    user.type = ZoneType::TextField;
    user.label = QStringLiteral("Find");
    mapper.setUserZones({user});
    QVERIFY(!mapper.currentMap()->find(search->id));
    QCOMPARE(mapper.currentMap()->find(QStringLiteral("u1"))->label, QStringLiteral("Find"));
    mapper.setUserZones({});
    QVERIFY(mapper.currentMap()->find(schemaZoneId(9, QStringLiteral("Search field"))));
    const quint64 withSearch = mapper.currentMap()->version();
    mapper.setSuppressedRegions({searchPlace.translated(20, 20)});
    QVERIFY(!mapper.currentMap()->find(schemaZoneId(9, QStringLiteral("Search field"))));
    QVERIFY(mapper.currentMap()->version() > withSearch);
    QCOMPARE(mapper.currentMap()->find(help.id)->label, QStringLiteral("Get help"));
}

void TestCanvasMapper::treeNewsIsStampedWhenItCame()
{
    // The tree reports between frames, often before the screen shows anything new: a map the tree changed
    // carries the time its news came, not the time of the last frame. The Director judges an action's effect
    // against the newest map of a frame from before the action; the tree's report of that very effect,
    // stamped with the older frame's time, was taken for the screen before it (the effect "not seen").
    CanvasMapper::Options options;
    options.clock =
        std::make_shared<const SessionClock>(SessionClock::clock::now() - std::chrono::seconds(10));
    CanvasMapper mapper(options);
    mapper.onFrame(frame(1));
    QCOMPARE(mapper.currentMap()->tNs(), frame(1).tNs);

    auto snapshot = std::make_shared<platform::AccessibilitySnapshot>();
    snapshot->version = 1;
    platform::AccessibleNode window;
    window.ref = window.windowRef = QStringLiteral(":1.5:/w");
    window.role = QStringLiteral("frame");
    window.name = QStringLiteral("App");
    window.states = {QStringLiteral("showing"), QStringLiteral("visible"), QStringLiteral("enabled")};
    window.bounds = QRect(0, 0, 640, 400);
    window.pid = 4242;
    window.childPath = {0, 0};
    platform::AccessibleNode apply = window;
    apply.ref = QStringLiteral(":1.5:/apply");
    apply.parentRef = window.ref;
    apply.role = QStringLiteral("push button");
    apply.name = QStringLiteral("Apply");
    apply.bounds = QRect(400, 200, 100, 26);
    apply.depth = 1;
    apply.childPath = {0, 0, 0};
    snapshot->nodes = {window, apply};
    QSignalSpy maps(&mapper, &CanvasMapper::zoneMapUpdated);
    const qint64 sentNs = options.clock->nowNs();
    mapper.onAccessibilitySnapshot(snapshot, {window.ref});
    QCOMPARE(maps.size(), 1);
    const ZoneMapPtr map = mapper.currentMap();
    QVERIFY(byLabel(*map, QStringLiteral("Apply")));
    QVERIFY2(map->tNs() >= sentNs, qPrintable(QString::number(map->tNs())));

    // A frame taken before the news (its time is older) does not turn the map's time back.
    mapper.onFrame(frame(2, QStringLiteral("Alice")));
    mapper.onChanges(change(2, QRect(45, 45, 40, 14)));
    QVERIFY(mapper.currentMap()->version() > map->version());
    QVERIFY(mapper.currentMap()->tNs() >= sentNs);
}

void TestCanvasMapper::tooltipsNameIconButtons()
{
    CanvasMapper mapper;
    mapper.onCursor({0, QPoint(600, 380), {}});
    mapper.onFrame(iconFrame(1));
    const Zone* ring = zoneAt(*mapper.currentMap(), kRing.center());
    QVERIFY(ring);
    QCOMPARE(toString(ring->type), QStringLiteral("button"));
    QVERIFY(ring->label.isEmpty()); // an icon: nothing to read
    const QString ringId = ring->id;
    const QString barId = zoneAt(*mapper.currentMap(), kBar.center())->id;
    QVERIFY(barId != ringId);

    // The pointer rests on the ring from 150 ms; it lights up, and its tooltip shows at 300 ms: too soon
    // after the move to be sure it is the ring's.
    mapper.onCursor({150 * kMs, kRing.center(), {}});
    mapper.onFrame(iconFrame(2, kRing));
    mapper.onChanges(change(2, kRing.adjusted(1, 1, -1, -1), 80));
    QVERIFY(mapper.currentMap()->find(ringId)->state.testFlag(ZoneStateFlag::Hovered));
    const QPoint tipAt = kRing.center() + QPoint(2, 20);
    const QRect tipBox(tipAt, QSize(90, 22));
    mapper.onFrame(iconFrame(3, kRing, QStringLiteral("Rotate left"), tipAt));
    mapper.onChanges(change(3, tipBox, 70));
    QVERIFY(mapper.currentMap()->find(ringId)->label.isEmpty());
    bool tipRead = false;
    for (const Zone& z : mapper.currentMap()->zones())
        tipRead = tipRead || (z.temporary && z.label.contains(QLatin1String("Rotate")));
    QVERIFY2(tipRead, "the tooltip was analysed as one");
    // Later frames show the same tooltip: the one of 600 ms was taken 450 ms into the rest.
    for (quint64 i = 4; i <= 5; ++i) {
        mapper.onFrame(iconFrame(i, kRing, QStringLiteral("Rotate left"), tipAt));
        QVERIFY(mapper.currentMap()->find(ringId)->label.isEmpty());
    }
    mapper.onFrame(iconFrame(6, kRing, QStringLiteral("Rotate left"), tipAt));
    const Zone* named = mapper.currentMap()->find(ringId);
    QCOMPARE(named->label, QStringLiteral("Rotate left"));
    QCOMPARE(toString(named->labelSource), QStringLiteral("tooltip"));
    QVERIFY(mapper.currentMap()->find(barId)->label.isEmpty());

    // The pointer leaves, the tooltip and the highlight go, the tool bar is read again: the name stays.
    mapper.onCursor({650 * kMs, QPoint(600, 380), {}});
    mapper.onFrame(iconFrame(7));
    FrameDiff gone = change(7, tipBox, 70);
    gone.regions << ChangeRegion{kRing.adjusted(1, 1, -1, -1), 80};
    mapper.onChanges(gone);
    mapper.requestFullAnalysis(QStringLiteral("test"));
    QCOMPARE(mapper.currentMap()->find(ringId)->label, QStringLiteral("Rotate left"));
    QCOMPARE(toString(mapper.currentMap()->find(ringId)->labelSource), QStringLiteral("tooltip"));
    QVERIFY(mapper.currentMap()->find(barId)->label.isEmpty());

    // A tooltip already up changes at once when the pointer moves to the bar: named once the rest is long.
    mapper.onCursor({900 * kMs, kBar.center(), {}});
    const QPoint barTipAt = kBar.center() + QPoint(2, 20);
    mapper.onFrame(iconFrame(10, kBar, QStringLiteral("Flip"), barTipAt));
    FrameDiff shown = change(10, kBar.adjusted(1, 1, -1, -1), 80);
    shown.regions << ChangeRegion{QRect(barTipAt, QSize(60, 22)), 70};
    mapper.onChanges(shown);
    QVERIFY(mapper.currentMap()->find(barId)->label.isEmpty());
    for (quint64 i = 11; i <= 13; ++i)
        mapper.onFrame(iconFrame(i, kBar, QStringLiteral("Flip"), barTipAt));
    QCOMPARE(mapper.currentMap()->find(barId)->label, QStringLiteral("Flip"));
    QCOMPARE(mapper.currentMap()->find(ringId)->label, QStringLiteral("Rotate left"));
}

void TestCanvasMapper::tooltipsOfAMovingPointerNameNothing()
{
    CanvasMapper mapper;
    mapper.onCursor({0, QPoint(600, 380), {}});
    mapper.onFrame(iconFrame(1));
    const QString ringId = zoneAt(*mapper.currentMap(), kRing.center())->id;
    const QString barId = zoneAt(*mapper.currentMap(), kBar.center())->id;
    // The ring's tooltip shows just as the pointer reaches the bar (the program has not answered the move
    // yet), and the pointer goes on before the rest is long enough: neither button is named.
    mapper.onCursor({150 * kMs, kBar.center(), {}});
    mapper.onFrame(iconFrame(2, kBar));
    mapper.onChanges(change(2, kBar.adjusted(1, 1, -1, -1), 80));
    const QPoint tipAt = kRing.center() + QPoint(2, 20);
    mapper.onFrame(iconFrame(3, kBar, QStringLiteral("Rotate left"), tipAt));
    mapper.onChanges(change(3, QRect(tipAt, QSize(90, 22)), 70));
    mapper.onCursor({350 * kMs, QPoint(600, 380), {}});
    for (quint64 i = 4; i <= 8; ++i)
        mapper.onFrame(iconFrame(i, {}, QStringLiteral("Rotate left"), tipAt));
    QVERIFY(mapper.currentMap()->find(barId)->label.isEmpty());
    QVERIFY(mapper.currentMap()->find(ringId)->label.isEmpty());
    // A tooltip that changes while the pointer rests is read again: the last one names the zone.
    mapper.onCursor({900 * kMs, kBar.center(), {}});
    mapper.onFrame(iconFrame(10, kBar, QStringLiteral("Rotate left"), tipAt));
    mapper.onChanges(change(10, kBar.adjusted(1, 1, -1, -1), 80));
    mapper.onFrame(iconFrame(11, kBar, QStringLiteral("Flip"), tipAt));
    mapper.onChanges(change(11, QRect(tipAt, QSize(90, 22)), 70));
    for (quint64 i = 12; i <= 14; ++i)
        mapper.onFrame(iconFrame(i, kBar, QStringLiteral("Flip"), tipAt));
    QCOMPARE(mapper.currentMap()->find(barId)->label, QStringLiteral("Flip"));
    QVERIFY(mapper.currentMap()->find(ringId)->label.isEmpty());
}

void TestCanvasMapper::aTooltipOverlappingItsButtonNamesIt()
{
    // A tooltip drawn over its button's lower edge (a tool bar cell's box reaches into it): the button the
    // pointer rests on is still the one it names.
    CanvasMapper mapper;
    mapper.onCursor({0, QPoint(600, 380), {}});
    mapper.onFrame(iconFrame(1));
    const QString ringId = zoneAt(*mapper.currentMap(), kRing.center())->id;
    mapper.onCursor({50 * kMs, kRing.center(), {}});
    mapper.onFrame(iconFrame(2, kRing));
    mapper.onChanges(change(2, kRing.adjusted(1, 1, -1, -1), 80));
    const QPoint tipAt(kRing.center().x() + 2, kRing.bottom() - 6);
    for (quint64 i = 3; i <= 8; ++i) {
        mapper.onFrame(iconFrame(i, kRing, QStringLiteral("Rotate left"), tipAt));
        if (i == 3)
            mapper.onChanges(change(3, QRect(tipAt, QSize(90, 22)), 70));
    }
    const Zone* ring = mapper.currentMap()->find(ringId);
    QVERIFY(ring);
    QCOMPARE(ring->label, QStringLiteral("Rotate left"));
    QCOMPARE(toString(ring->labelSource), QStringLiteral("tooltip"));
}

// A tooltip going away shows again what was under it (a tab's title near the pointer): that change is beside
// the resting pointer like a tooltip, but its text is what the map had there already, under the same name.
void TestCanvasMapper::aTooltipGoingAwayNamesNothing()
{
    const QRect word(430, 150, 60, 16);
    auto withWord = [&word](Frame f) {
        QPainter p(&f.image);
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPixelSize(12);
        p.setFont(font);
        p.setPen(Qt::black);
        p.drawText(word, Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("Search"));
        return f;
    };
    CanvasMapper mapper;
    mapper.onCursor({0, QPoint(600, 380), {}});
    mapper.onFrame(withWord(iconFrame(1)));
    QVERIFY(byLabel(*mapper.currentMap(), QStringLiteral("Search")));
    const QString ringId = zoneAt(*mapper.currentMap(), kRing.center())->id;
    mapper.onCursor({50 * kMs, kRing.center(), {}});
    mapper.onFrame(withWord(iconFrame(2, kRing)));
    mapper.onChanges(change(2, kRing.adjusted(1, 1, -1, -1), 80));
    mapper.onFrame(withWord(iconFrame(3, kRing)));
    mapper.onChanges(change(3, word.adjusted(-4, -3, 4, 3), 60));
    for (quint64 i = 4; i <= 8; ++i)
        mapper.onFrame(withWord(iconFrame(i, kRing)));
    QVERIFY2(mapper.currentMap()->find(ringId)->label.isEmpty(),
             qPrintable(mapper.currentMap()->find(ringId)->label));
}

// A tooltip drawn over the page's text: the part of a word left showing beside its box is not its text.
void TestCanvasMapper::aWordBesideATooltipIsNotItsText()
{
    const QPoint tipAt = kRing.center() + QPoint(2, 20);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(12);
    const QString text = QStringLiteral("Rotate left");
    const QRect box(tipAt, QSize(QFontMetrics(font).horizontalAdvance(text) + 12, 22));
    auto withWord = [&](Frame f, bool tip) {
        QPainter p(&f.image);
        p.setFont(font);
        p.setPen(Qt::black);
        p.drawText(QRect(tipAt.x() - 5, tipAt.y(), 80, 22), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("Contents"));
        if (tip) {
            p.setBrush(QColor(0xff, 0xff, 0xdc));
            p.drawRect(box.adjusted(0, 0, -1, -1));
            p.drawText(box, Qt::AlignCenter, text);
        }
        return f;
    };
    CanvasMapper mapper;
    mapper.onCursor({0, QPoint(600, 380), {}});
    mapper.onFrame(withWord(iconFrame(1), false));
    const QString ringId = zoneAt(*mapper.currentMap(), kRing.center())->id;
    mapper.onCursor({50 * kMs, kRing.center(), {}});
    mapper.onFrame(withWord(iconFrame(2, kRing), false));
    mapper.onChanges(change(2, kRing.adjusted(1, 1, -1, -1), 80));
    mapper.onFrame(withWord(iconFrame(3, kRing), true));
    mapper.onChanges(change(3, box, 70));
    for (quint64 i = 4; i <= 8; ++i)
        mapper.onFrame(withWord(iconFrame(i, kRing), true));
    QCOMPARE(mapper.currentMap()->find(ringId)->label, QStringLiteral("Rotate left"));
}

// A button read as one letter when the tooltip showed ("B") keeps it: only a control unnamed then (an icon
// read as a letter later) takes the tooltip's text over one character.
void TestCanvasMapper::aLetterButtonKeepsItsLetter()
{
    const QRect key(400, 100, 28, 28);
    const QPoint tipAt = key.center() + QPoint(2, 20);
    auto letterFrame = [&](quint64 index, bool hot, bool tip) {
        Frame f = frame(index);
        QPainter p(&f.image);
        p.setPen(QColor(0x90, 0x90, 0x90));
        p.setBrush(hot ? QColor(0xd0, 0xe4, 0xf8) : QColor(0xe8, 0xe8, 0xe8));
        p.drawRect(key.adjusted(0, 0, -1, -1));
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPixelSize(14);
        font.setBold(true);
        p.setFont(font);
        p.setPen(Qt::black);
        p.drawText(key, Qt::AlignCenter, QStringLiteral("B"));
        if (tip) {
            font.setPixelSize(12);
            font.setBold(false);
            p.setFont(font);
            const QRect box(tipAt,
                            QSize(QFontMetrics(font).horizontalAdvance(QStringLiteral("Bold")) + 12, 22));
            p.setBrush(QColor(0xff, 0xff, 0xdc));
            p.drawRect(box.adjusted(0, 0, -1, -1));
            p.drawText(box, Qt::AlignCenter, QStringLiteral("Bold"));
        }
        return f;
    };
    CanvasMapper mapper;
    mapper.onCursor({0, QPoint(600, 380), {}});
    mapper.onFrame(letterFrame(1, false, false));
    const Zone* b = zoneAt(*mapper.currentMap(), key.center());
    QVERIFY(b);
    QCOMPARE(b->label, QStringLiteral("B"));
    const QString id = b->id;
    mapper.onCursor({50 * kMs, key.center(), {}});
    mapper.onFrame(letterFrame(2, true, false));
    mapper.onChanges(change(2, key.adjusted(1, 1, -1, -1), 80));
    mapper.onFrame(letterFrame(3, true, true));
    mapper.onChanges(change(3, QRect(tipAt, QSize(44, 22)), 70));
    for (quint64 i = 4; i <= 8; ++i)
        mapper.onFrame(letterFrame(i, true, true));
    QCOMPARE(mapper.currentMap()->find(id)->label, QStringLiteral("B"));
}

QTEST_MAIN(TestCanvasMapper)
#include "tst_canvasmapper.moc"
