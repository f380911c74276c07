// ReplayViewer (offscreen): frames and overlay at t, event log in sync, jumps, stepping, playback, banner.

#include "core/model/metatypes.h"
#include "replaytestutil.h"
#include "ui/replay/replayeventmodel.h"
#include "ui/replay/replayframeview.h"
#include "ui/replay/replayviewer.h"
#include "ui/replay/timelinewidget.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using ciu::ui::ReplayViewer;

class TestReplayViewer : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void opensAtStart();
    void scrubShowsFrameAndOverlay();
    void eventLogFollowsTime();
    void clickEventJumps();
    void nextAndPreviousEvent();
    void frameStep();
    void playback();
    void speedClamps_data();
    void speedClamps();
    void timelineClickScrubs();
    void bannerForProblems();
    void missingFolder();

private:
    static bool waitForFrame(ReplayViewer& viewer, qint64 atOrBefore);
    QTemporaryDir m_dir;
    test::SmallSession m_session;
};

void TestReplayViewer::initTestCase()
{
    registerMetaTypes();
    m_session = test::writeSmallSession(m_dir.filePath(QStringLiteral("session")));
}

bool TestReplayViewer::waitForFrame(ReplayViewer& viewer, qint64 expected)
{
    if (QTest::qWaitFor([&] { return viewer.shownFrameTime() == expected; }, 5000))
        return true;
    qWarning("expected the frame at %lld ms, shown: %lld ms (time %lld ms)", expected / 1'000'000,
             viewer.shownFrameTime() / 1'000'000, viewer.currentTime() / 1'000'000);
    return false;
}

void TestReplayViewer::opensAtStart()
{
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(m_session.path));
    QVERIFY2(viewer.bannerText().isEmpty(), qPrintable(viewer.bannerText()));
    QCOMPARE(viewer.currentTime(), qint64(0));
    QVERIFY(viewer.duration() >= m_session.frameTimesNs.last());
    QCOMPARE(viewer.eventModel()->rowCount(), 4); // click, typing action, decision, model call
    QVERIFY(QTest::qWaitFor([&] { return viewer.frameView()->hasFrame(); }, 5000));
    QVERIFY(!viewer.timeline()->mapping().durationNs() == 0);
}

void TestReplayViewer::scrubShowsFrameAndOverlay()
{
    ReplayViewer viewer;
    viewer.resize(800, 600);
    QVERIFY(viewer.openSession(m_session.path));
    const qint64 t = m_session.frameTimesNs.at(30) + 20'000'000;
    viewer.setTime(t);
    QVERIFY(waitForFrame(viewer, m_session.frameTimesNs.at(30)));
    QVERIFY(test::meanAbsDiff(viewer.frameView()->frame(), test::syntheticFrame(m_session.size, 30)) < 8.0);
    QCOMPARE(viewer.timeline()->currentTime(), t);
    // The overlay painted over the frame differs from the bare frame: render the widget and compare.
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    const QImage rendered = viewer.frameView()->grab().toImage();
    QVERIFY(!rendered.isNull());
}

void TestReplayViewer::eventLogFollowsTime()
{
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(m_session.path));
    viewer.setTime(500'000'000);
    QCOMPARE(viewer.eventModel()->currentRow(), -1);
    viewer.setTime(900'000'000); // after the decision at 0.8 s
    QCOMPARE(viewer.eventModel()->currentRow(), 0);
    viewer.setTime(1'300'000'000); // after the click at 1.2 s
    QCOMPARE(viewer.eventModel()->currentRow(), 2);
    viewer.setTime(viewer.duration());
    QCOMPARE(viewer.eventModel()->currentRow(), 3);
}

void TestReplayViewer::clickEventJumps()
{
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(m_session.path));
    QTableView* table = viewer.eventTable();
    const QModelIndex row = table->model()->index(2, 0); // the click at 1.2 s
    emit table->clicked(row);
    QCOMPARE(viewer.currentTime(), qint64(1'200'000'000));
    QVERIFY(waitForFrame(viewer, m_session.frameTimesNs.at(22))); // 100 + 22 × 50 = 1200 ms
}

void TestReplayViewer::nextAndPreviousEvent()
{
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(m_session.path));
    viewer.nextEvent();
    QCOMPARE(viewer.currentTime(), qint64(800'000'000));
    viewer.nextEvent();
    QCOMPARE(viewer.currentTime(), qint64(1'000'000'000));
    viewer.nextEvent();
    viewer.nextEvent();
    QCOMPARE(viewer.currentTime(), qint64(2'000'000'000));
    viewer.nextEvent(); // no more: stays
    QCOMPARE(viewer.currentTime(), qint64(2'000'000'000));
    viewer.previousEvent();
    QCOMPARE(viewer.currentTime(), qint64(1'200'000'000));
}

void TestReplayViewer::frameStep()
{
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(m_session.path));
    viewer.setTime(m_session.frameTimesNs.at(10));
    QVERIFY(waitForFrame(viewer, m_session.frameTimesNs.at(10)));
    viewer.stepForward();
    QVERIFY(waitForFrame(viewer, m_session.frameTimesNs.at(11)));
    QTRY_COMPARE(viewer.currentTime(), m_session.frameTimesNs.at(11));
    viewer.stepBackward();
    QVERIFY(waitForFrame(viewer, m_session.frameTimesNs.at(10)));
    QTRY_COMPARE(viewer.currentTime(), m_session.frameTimesNs.at(10));
}

void TestReplayViewer::playback()
{
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(m_session.path));
    viewer.setSpeed(8.0);
    viewer.play();
    QVERIFY(viewer.isPlaying());
    // At 8× the 3 s session ends quickly and playback stops at the end.
    QVERIFY(QTest::qWaitFor([&] { return !viewer.isPlaying(); }, 10000));
    QCOMPARE(viewer.currentTime(), viewer.duration());
    viewer.togglePlay(); // from the end: starts over
    QVERIFY(viewer.isPlaying());
    viewer.pause();
    QVERIFY(!viewer.isPlaying());
    QVERIFY(viewer.currentTime() < viewer.duration());
}

void TestReplayViewer::speedClamps_data()
{
    QTest::addColumn<double>("requested");
    QTest::addColumn<double>("expected");
    QTest::newRow("slowest") << 0.1 << 0.25;
    QTest::newRow("half") << 0.5 << 0.5;
    QTest::newRow("fastest") << 100.0 << 8.0;
}

void TestReplayViewer::speedClamps()
{
    QFETCH(double, requested);
    QFETCH(double, expected);
    ReplayViewer viewer;
    viewer.setSpeed(requested);
    QCOMPARE(viewer.speed(), expected);
}

void TestReplayViewer::timelineClickScrubs()
{
    ReplayViewer viewer;
    viewer.resize(1000, 700);
    QVERIFY(viewer.openSession(m_session.path));
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    ui::TimelineWidget* timeline = viewer.timeline();
    const int x = timeline->width() / 2;
    QTest::mouseClick(timeline, Qt::LeftButton, {}, QPoint(x, timeline->height() / 2));
    const qint64 expected = timeline->mapping().xToTime(x);
    // Either the time under the mouse or a marker within a few pixels of it.
    QVERIFY(qAbs(viewer.currentTime() - expected) <=
            5 * viewer.duration() / timeline->mapping().trackWidth());
    QVERIFY(viewer.currentTime() > 0);
}

void TestReplayViewer::bannerForProblems()
{
    QTemporaryDir dir;
    for (const QString& name : QDir(m_session.path).entryList(QDir::Files)) {
        if (name != QStringLiteral("zones.jsonl"))
            QFile::copy(m_session.path + QLatin1Char('/') + name, dir.filePath(name));
    }
    QFile events(dir.filePath(QStringLiteral("events.jsonl")));
    QVERIFY(events.open(QIODevice::Append));
    events.write("{\"t_ns\":5,\"kin");
    events.close();
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(dir.path()));
    QVERIFY(viewer.bannerText().contains(QStringLiteral("zones.jsonl is missing")));
    QVERIFY(viewer.bannerText().contains(QStringLiteral("truncated")));
    // The rest works.
    viewer.setTime(1'500'000'000);
    QVERIFY(waitForFrame(viewer, 1'500'000'000));
}

void TestReplayViewer::missingFolder()
{
    ReplayViewer viewer;
    QVERIFY(!viewer.openSession(m_dir.filePath(QStringLiteral("nope"))));
    QVERIFY(viewer.bannerText().contains(QStringLiteral("does not exist")));
    viewer.setTime(1000);
    viewer.play();
    viewer.stepForward();
    viewer.nextEvent();
    QCOMPARE(viewer.currentTime(), qint64(0));
}

QTEST_MAIN(TestReplayViewer)
#include "tst_replayviewer.moc"
