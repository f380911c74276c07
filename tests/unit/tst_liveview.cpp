// LiveView: takes frames, maps, cursor samples and diffs through its slots; selects, moves, resizes and
// draws zones with the mouse; zooms; forwards input while taking over.

#include "ui/liveview.h"

#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

using namespace ciu;
using namespace ciu::ui;

namespace {

Frame frame(QSize size = QSize(800, 600))
{
    Frame f;
    f.index = 1;
    f.image = QImage(size, QImage::Format_RGB32);
    f.image.fill(Qt::white);
    return f;
}

ZoneMapPtr map()
{
    Zone a;
    a.id = QStringLiteral("ok");
    a.bounds = QRect(100, 100, 100, 40);
    a.type = ZoneType::Button;
    a.label = QStringLiteral("OK");
    a.confidence = 0.9;
    Zone b;
    b.id = QStringLiteral("panel");
    b.bounds = QRect(0, 0, 400, 300);
    b.type = ZoneType::ScrollArea;
    b.confidence = 0.5;
    return std::make_shared<const ZoneMap>(1, 0, QSize(800, 600), QList<Zone>{a, b});
}

// The view is 800×600 showing an 800×600 frame: widget and root coordinates are the same.
struct Fixture
{
    LiveView view;
    Fixture()
    {
        view.resize(800, 600);
        view.setFrame(frame());
        view.setZoneMap(map());
        view.show();
    }
};

} // namespace

class TestLiveView : public QObject
{
    Q_OBJECT
private slots:
    void initialTransform();
    void clickSelectsInnermostZone();
    void dragMovesSelectedZone();
    void handleResizes();
    void drawMode();
    void hoverLabel();
    void trailKeepsLastSeconds();
    void plannedTrajectoryAndTarget();
    void flashToggle();
    void wheelZoomsAtCursor();
    void takeoverForwardsInput();
    void eventHighlight();
    void mapUpdateDropsVanishedTarget();
};

void TestLiveView::initialTransform()
{
    Fixture f;
    QVERIFY(QTest::qWaitForWindowExposed(&f.view));
    QCOMPARE(f.view.viewTransform().scale(), 1.0);
    QCOMPARE(f.view.viewTransform().sourceRect(), QRect(0, 0, 800, 600));
    QCOMPARE(f.view.zoneLayer().items().size(), size_t(2));
    f.view.resize(400, 300);
    QCOMPARE(f.view.viewTransform().scale(), 0.5);
}

void TestLiveView::clickSelectsInnermostZone()
{
    Fixture f;
    QSignalSpy selected(&f.view, &LiveView::zoneSelected);
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, QPoint(150, 120));
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.first().at(0).toString(), QStringLiteral("ok"));
    QCOMPARE(f.view.selectionItem().rect(), QRect(100, 100, 100, 40));
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, QPoint(350, 250));
    QCOMPARE(selected.last().at(0).toString(), QStringLiteral("panel"));
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, QPoint(700, 500));
    QCOMPARE(selected.last().at(0).toString(), QString()); // empty space clears
}

void TestLiveView::dragMovesSelectedZone()
{
    Fixture f;
    QSignalSpy edited(&f.view, &LiveView::zoneGeometryEdited);
    QTest::mousePress(&f.view, Qt::LeftButton, {}, QPoint(150, 120));
    QTest::mouseMove(&f.view, QPoint(170, 130));
    QTest::mouseMove(&f.view, QPoint(180, 140));
    QTest::mouseRelease(&f.view, Qt::LeftButton, {}, QPoint(180, 140));
    QCOMPARE(edited.count(), 1);
    QCOMPARE(edited.first().at(0).toString(), QStringLiteral("ok"));
    QCOMPARE(edited.first().at(1).toRect(), QRect(130, 120, 100, 40));
    // A click without movement edits nothing.
    QTest::mouseClick(&f.view, Qt::LeftButton, {}, QPoint(150, 120));
    QCOMPARE(edited.count(), 1);
}

void TestLiveView::handleResizes()
{
    Fixture f;
    f.view.setZoom(2.0); // handles keep their size while the zone scales
    f.view.setSelectedZone(QStringLiteral("ok"));
    const QPointF corner = f.view.viewTransform().toView(QPointF(200, 140)); // bottom right
    QSignalSpy edited(&f.view, &LiveView::zoneGeometryEdited);
    QTest::mousePress(&f.view, Qt::LeftButton, {}, corner.toPoint());
    QTest::mouseMove(&f.view, (corner + QPointF(20, 10)).toPoint());
    QTest::mouseRelease(&f.view, Qt::LeftButton, {}, (corner + QPointF(20, 10)).toPoint());
    QCOMPARE(edited.count(), 1);
    QCOMPARE(edited.first().at(1).toRect(), QRect(100, 100, 110, 45)); // 20×10 view px at scale 2
}

void TestLiveView::drawMode()
{
    Fixture f;
    QSignalSpy drawn(&f.view, &LiveView::zoneDrawn);
    QSignalSpy modes(&f.view, &LiveView::modeChanged);
    f.view.setMode(LiveView::Mode::Draw);
    QTest::mousePress(&f.view, Qt::LeftButton, {}, QPoint(500, 400));
    QTest::mouseMove(&f.view, QPoint(560, 430));
    QTest::mouseRelease(&f.view, Qt::LeftButton, {}, QPoint(560, 430));
    QCOMPARE(drawn.count(), 1);
    QCOMPARE(drawn.first().at(0).toRect(), QRect(QPoint(500, 400), QPoint(560, 430)));
    QCOMPARE(f.view.mode(), LiveView::Mode::Inspect); // back to inspecting
    QCOMPARE(modes.count(), 2);
    // A tiny drag draws nothing; Escape leaves draw mode.
    f.view.setMode(LiveView::Mode::Draw);
    QTest::mousePress(&f.view, Qt::LeftButton, {}, QPoint(500, 400));
    QTest::mouseRelease(&f.view, Qt::LeftButton, {}, QPoint(501, 401));
    QCOMPARE(drawn.count(), 1);
    f.view.setMode(LiveView::Mode::Draw);
    QTest::keyClick(&f.view, Qt::Key_Escape);
    QCOMPARE(f.view.mode(), LiveView::Mode::Inspect);
}

void TestLiveView::hoverLabel()
{
    Fixture f;
    QTest::mouseMove(&f.view, QPoint(150, 120));
    QCOMPARE(f.view.hoveredZone(), QStringLiteral("ok"));
    QVERIFY(f.view.hoverLabel().text().contains(QStringLiteral("OK")));
    QVERIFY(f.view.hoverLabel().text().contains(QStringLiteral("90")));
    QTest::mouseMove(&f.view, QPoint(700, 500));
    QVERIFY(f.view.hoveredZone().isEmpty());
    QVERIFY(f.view.hoverLabel().text().isEmpty());
}

void TestLiveView::trailKeepsLastSeconds()
{
    Fixture f;
    f.view.setTrailWindowMs(1000);
    for (int i = 0; i <= 30; ++i)
        f.view.addCursorSample({qint64(i) * 100'000'000, QPoint(i * 10, 50), {}}); // 3 s, 10 Hz
    const auto& points = f.view.trailItem().points();
    QCOMPARE(points.size(), 11); // the last second: 2.0 s … 3.0 s
    QCOMPARE(points.last(), QPointF(300.5, 50.5));
    QCOMPARE(points.first(), QPointF(200.5, 50.5));
    // A sample from a new session's clock starts a new trail.
    f.view.addCursorSample({5, QPoint(1, 1), {}});
    QCOMPARE(f.view.trailItem().points().size(), 1);
}

void TestLiveView::plannedTrajectoryAndTarget()
{
    Fixture f;
    f.view.setPlannedTrajectory({QPoint(0, 0), QPoint(50, 50), QPoint(150, 120)}, QStringLiteral("ok"));
    QCOMPARE(f.view.plannedItem().points().size(), 3);
    QCOMPARE(f.view.targetZone(), QStringLiteral("ok"));
    QCOMPARE(f.view.targetItem().rect(), QRect(100, 100, 100, 40));
    f.view.clearPlannedTrajectory();
    QVERIFY(f.view.plannedItem().points().isEmpty());
    QVERIFY(f.view.targetItem().rect().isNull());
}

void TestLiveView::flashToggle()
{
    Fixture f;
    FrameDiff diff;
    diff.regions = {{QRect(10, 10, 64, 64), 50}};
    f.view.showChanges(diff);
    QCOMPARE(f.view.flashItem().opacity(), 1.0);
    QCOMPARE(f.view.flashItem().regions(), QList<QRect>{QRect(10, 10, 64, 64)});
    // The flash fades out by itself.
    QTRY_COMPARE_WITH_TIMEOUT(f.view.flashItem().opacity(), 0.0, 5000);
    f.view.setFlashChanges(false);
    f.view.showChanges(diff);
    QCOMPARE(f.view.flashItem().opacity(), 0.0);
    f.view.setFlashChanges(true);
    diff.cursorOnly = true;
    f.view.showChanges(diff);
    QCOMPARE(f.view.flashItem().opacity(), 0.0); // cursor-only changes are not flashed
}

void TestLiveView::wheelZoomsAtCursor()
{
    Fixture f;
    QSignalSpy zoom(&f.view, &LiveView::zoomChanged);
    const QPointF anchor(150, 120);
    QWheelEvent wheel(anchor, f.view.mapToGlobal(anchor), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(&f.view, &wheel);
    QCOMPARE(zoom.count(), 1);
    QCOMPARE(f.view.viewTransform().zoom(), 1.25);
    const QPointF source = f.view.viewTransform().toSource(anchor);
    QVERIFY(qAbs(source.x() - 150) < 1e-9 && qAbs(source.y() - 120) < 1e-9);
    f.view.zoomToFit();
    QCOMPARE(f.view.viewTransform().zoom(), 1.0);
    f.view.zoomIn();
    f.view.zoomOut();
    QVERIFY(qAbs(f.view.viewTransform().zoom() - 1.0) < 1e-9);
}

void TestLiveView::takeoverForwardsInput()
{
    Fixture f;
    f.view.resize(400, 300); // scale 0.5: view (100,50) is root (200,100)
    f.view.setMode(LiveView::Mode::Takeover);
    QSignalSpy moved(&f.view, &LiveView::pointerForwarded);
    QSignalSpy buttons(&f.view, &LiveView::buttonForwarded);
    QSignalSpy keys(&f.view, &LiveView::keyForwarded);
    QSignalSpy selected(&f.view, &LiveView::zoneSelected);
    QTest::mouseClick(&f.view, Qt::RightButton, {}, QPoint(100, 50));
    QCOMPARE(buttons.count(), 2);
    QCOMPARE(buttons.at(0), (QList<QVariant>{3, true}));
    QCOMPARE(buttons.at(1), (QList<QVariant>{3, false}));
    QCOMPARE(moved.first().at(0).toPoint(), QPoint(200, 100));
    QTest::keyClick(&f.view, Qt::Key_A, {}, -1);
    QCOMPARE(keys.count(), 2);
    QCOMPARE(keys.first().at(0).toUInt(), quint32('a'));
    QTest::keyClick(&f.view, Qt::Key_Return);
    QCOMPARE(keys.at(2).at(0).toUInt(), 0xff0du);
    QCOMPARE(selected.count(), 0); // no zone selection while taking over
}

void TestLiveView::eventHighlight()
{
    Fixture f;
    f.view.highlightEvent(QStringLiteral("ok"), QPoint(150, 120));
    QCOMPARE(f.view.eventItem().rect(), QRect(100, 100, 100, 40));
    f.view.highlightEvent({}, QPoint(300, 300)); // no zone: a small mark at the point
    QVERIFY(f.view.eventItem().rect().contains(QPoint(300, 300)));
    f.view.highlightEvent({}, {});
    QVERIFY(f.view.eventItem().rect().isNull());
}

void TestLiveView::mapUpdateDropsVanishedTarget()
{
    Fixture f;
    f.view.setTargetZone(QStringLiteral("ok"));
    f.view.setSelectedZone(QStringLiteral("ok"));
    f.view.setZoneMap(std::make_shared<const ZoneMap>(2, 0, QSize(800, 600), QList<Zone>{}));
    QVERIFY(f.view.targetItem().rect().isNull());
    QVERIFY(f.view.selectedZone().isEmpty());
    f.view.setZoneMap(nullptr); // no crash
    QCOMPARE(f.view.zoneLayer().items().size(), size_t(0));
}

QTEST_MAIN(TestLiveView)
#include "tst_liveview.moc"
