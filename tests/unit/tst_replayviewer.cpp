// ReplayViewer (offscreen): frames and overlay at t, event log in sync, jumps, stepping, playback, banner.

#include "core/model/metatypes.h"
#include "core/replay/videodecoder.h"
#include "replaytestutil.h"
#include "ui/replay/replayeventmodel.h"
#include "ui/replay/replayframeview.h"
#include "ui/replay/replayviewer.h"
#include "ui/replay/timelinewidget.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPointer>
#include <QProgressDialog>
#include <QPushButton>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <memory>

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
    void dragScrubs();
    void markersOnTimeline();
    void speedScalesPlayback_data();
    void speedScalesPlayback();
    void exportWithProgress_data();
    void exportWithProgress();
    void exportCancelled();
    void bannerForProblems();
    void missingFolder();
    void followsASessionBeingRecorded();

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
    QVERIFY(viewer.timeline()->mapping().durationNs() > 0);
    QCOMPARE(viewer.timeline()->mapping().durationNs(), viewer.duration());
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

void TestReplayViewer::dragScrubs()
{
    ReplayViewer viewer;
    viewer.resize(1000, 700);
    QVERIFY(viewer.openSession(m_session.path));
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    ui::TimelineWidget* timeline = viewer.timeline();
    const int y = timeline->height() / 2;
    const auto& mapping = timeline->mapping();
    auto send = [&](QEvent::Type type, int x, Qt::MouseButtons buttons) {
        const QPointF local(x, y);
        QMouseEvent event(type, local, timeline->mapToGlobal(local), Qt::LeftButton, buttons, {});
        QApplication::sendEvent(timeline, &event);
    };
    const int x0 = int(mapping.timeToX(m_session.frameTimesNs.at(5)));
    send(QEvent::MouseButtonPress, x0, Qt::LeftButton);
    qint64 previous = viewer.currentTime();
    // Dragging right moves the time forward step by step, to the time under the mouse (no marker snapping).
    for (int i = 1; i <= 8; ++i) {
        const int x = x0 + i * (timeline->width() - x0) / 10;
        send(QEvent::MouseMove, x, Qt::LeftButton);
        QVERIFY2(viewer.currentTime() > previous, qPrintable(QString::number(i)));
        QCOMPARE(viewer.currentTime(), qBound<qint64>(0, mapping.xToTime(x), viewer.duration()));
        QCOMPARE(timeline->currentTime(), viewer.currentTime());
        previous = viewer.currentTime();
    }
    // The frame shown follows the drag.
    QVERIFY(QTest::qWaitFor([&] { return viewer.shownFrameTime() > m_session.frameTimesNs.at(20); }, 5000));
    send(QEvent::MouseButtonRelease, x0, Qt::NoButton);
    const qint64 released = viewer.currentTime();
    send(QEvent::MouseMove, x0, Qt::NoButton); // no button: no scrubbing
    QCOMPARE(viewer.currentTime(), released);
}

void TestReplayViewer::markersOnTimeline()
{
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(m_session.path));
    QSet<replay::Marker::Kind> kinds;
    for (const replay::Marker& m : viewer.timeline()->markers()) {
        kinds << m.kind;
        QVERIFY(m.tNs >= 0 && m.tNs <= viewer.duration());
    }
    // The small session has a click, typing, a model call and a decision (tst_sessionreader checks the
    // analysis, error and takeover markers).
    for (auto kind : {replay::Marker::Kind::Click, replay::Marker::Kind::Typing,
                      replay::Marker::Kind::ModelCall, replay::Marker::Kind::Decision})
        QVERIFY2(kinds.contains(kind), qPrintable(replay::toString(kind)));
    QCOMPARE(viewer.timeline()->markers().size(), viewer.reader().markers().size());
    // Each kind has its own colour.
    QSet<QRgb> colours;
    for (auto kind :
         {replay::Marker::Kind::Click, replay::Marker::Kind::Typing, replay::Marker::Kind::Analysis,
          replay::Marker::Kind::ModelCall, replay::Marker::Kind::Error, replay::Marker::Kind::Takeover})
        colours << ui::TimelineWidget::markerColor(kind).rgb();
    QCOMPARE(colours.size(), 6);
}

void TestReplayViewer::speedScalesPlayback_data()
{
    QTest::addColumn<double>("speed");
    QTest::newRow("0.25x") << 0.25;
    QTest::newRow("1x") << 1.0;
    QTest::newRow("8x") << 8.0;
}

void TestReplayViewer::speedScalesPlayback()
{
    QFETCH(double, speed);
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(m_session.path));
    viewer.setSpeed(speed);
    QElapsedTimer wall;
    wall.start();
    viewer.play();
    QVERIFY(QTest::qWaitFor([&] { return viewer.currentTime() > 0; }, 5000));
    const qint64 wallNs = wall.nsecsElapsed();
    const qint64 advanced = viewer.currentTime();
    viewer.pause();
    // Session time moves by the wall time elapsed since play() times the speed, never more.
    QVERIFY2(double(advanced) <= speed * double(wallNs) + 1e6,
             qPrintable(QStringLiteral("%1 ns in %2 ns of wall time").arg(advanced).arg(wallNs)));
    // Paused: its clock is stopped, so the time stays.
    QVERIFY(!viewer.isPlaying());
    QCoreApplication::sendPostedEvents();
    QCOMPARE(viewer.currentTime(), advanced);
}

void TestReplayViewer::exportWithProgress_data()
{
    QTest::addColumn<int>("format");
    QTest::addColumn<QString>("name");
    QTest::newRow("html") << int(ReplayViewer::ExportFormat::Html) << QStringLiteral("report.html");
    QTest::newRow("mp4") << int(ReplayViewer::ExportFormat::Mp4) << QStringLiteral("overlay.mp4");
}

void TestReplayViewer::exportWithProgress()
{
    QFETCH(int, format);
    QFETCH(QString, name);
    QTemporaryDir out;
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(m_session.path));
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    QSignalSpy finished(&viewer, &ReplayViewer::exportFinished);
    const QString file = out.filePath(name);
    QVERIFY(viewer.exportTo(ReplayViewer::ExportFormat(format), file));
    QPointer<QProgressDialog> progress = viewer.exportProgress();
    QVERIFY(progress);
    QVERIFY(!progress->labelText().isEmpty());
    QCOMPARE(progress->maximum(), 1000);
    QVERIFY(!viewer.exportTo(ReplayViewer::ExportFormat(format), file)); // one at a time
    int maxValue = 0;
    QVERIFY(QTest::qWaitFor(
        [&] {
            if (progress)
                maxValue = qMax(maxValue, progress->value());
            return finished.size() == 1;
        },
        60000));
    QCOMPARE(finished.first().at(0).toString(), file);
    QVERIFY2(finished.first().at(1).toString().isEmpty(), qPrintable(finished.first().at(1).toString()));
    QVERIFY(QTest::qWaitFor([&] { return !progress; }, 5000)); // closed and deleted
    QVERIFY(!viewer.exportProgress());
    // The user is told it is done, and where the file is.
    auto* done = viewer.findChild<QMessageBox*>(QStringLiteral("ExportDone"));
    QVERIFY(done);
    QVERIFY2(done->text().contains(QDir::toNativeSeparators(file)), qPrintable(done->text()));
    done->close();
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray data = f.readAll();
    if (ReplayViewer::ExportFormat(format) == ReplayViewer::ExportFormat::Html) {
        QVERIFY(data.contains("<html"));
        QVERIFY(data.contains("press OK"));
    } else {
        replay::VideoDecoder decoder;
        QVERIFY2(decoder.open(file), qPrintable(decoder.errorString()));
        QVERIFY(!decoder.frameAt(m_session.frameTimesNs.at(30) / 1'000'000).isNull());
        QVERIFY(maxValue > 0); // the bar moved while the frames were encoded
    }
}

void TestReplayViewer::exportCancelled()
{
    QTemporaryDir out;
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(m_session.path));
    QSignalSpy finished(&viewer, &ReplayViewer::exportFinished);
    const QString file = out.filePath(QStringLiteral("x.mp4"));

    // The export runs on the global thread pool: hold its only thread until the user has cancelled, so the
    // export cannot have finished before the cancel.
    QThreadPool* pool = QThreadPool::globalInstance();
    const int threads = pool->maxThreadCount();
    pool->setMaxThreadCount(1);
    auto hold = std::make_shared<QSemaphore>();
    const auto restore = qScopeGuard([pool, threads, hold] {
        hold->release();
        pool->setMaxThreadCount(threads);
    });
    pool->start([hold] { hold->acquire(); });
    QVERIFY(viewer.exportTo(ReplayViewer::ExportFormat::Mp4, file));
    QPointer<QProgressDialog> progress = viewer.exportProgress();
    QVERIFY(progress);
    auto* cancel = progress->findChild<QPushButton*>();
    QVERIFY(cancel);
    cancel->click(); // the user's Cancel
    hold->release();
    QVERIFY(QTest::qWaitFor([&] { return finished.size() == 1; }, 60000));
    QCOMPARE(finished.first().at(0).toString(), file);
    QCOMPARE(finished.first().at(1).toString(), QStringLiteral("cancelled"));
    QVERIFY(!QFile::exists(file)); // no partial video is left
    // No error box for a cancel, and a new export may start.
    QVERIFY(QTest::qWaitFor([&] { return !progress && !viewer.exportProgress(); }, 5000));
    QVERIFY(!viewer.findChild<QMessageBox*>());
    QVERIFY(viewer.exportTo(ReplayViewer::ExportFormat::Html, out.filePath(QStringLiteral("r.html"))));
    QVERIFY(QTest::qWaitFor([&] { return finished.size() == 2; }, 60000));
    QVERIFY2(finished.at(1).at(1).toString().isEmpty(), qPrintable(finished.at(1).at(1).toString()));
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

void TestReplayViewer::followsASessionBeingRecorded()
{
    using namespace ciu::replay;
    QTemporaryDir dir;
    SessionWriterOptions o;
    o.sessionPath = dir.filePath(QStringLiteral("live"));
    o.task = QStringLiteral("still running");
    o.maxFrameLagMs = 0;
    o.metadataIntervalMs = 0;
    o.keyFrameIntervalMs = 500;
    SessionWriter writer(o);
    writer.start();
    const QSize size(320, 240);
    const auto frameTime = [](int n) { return 100'000'000 + qint64(n) * 50'000'000; };
    const auto write = [&](int from, int to) {
        for (int n = from; n < to; ++n)
            writer.onFrame(Frame{quint64(n + 1), frameTime(n), test::syntheticFrame(size, n), {}});
    };
    write(0, 30);
    ReplayViewer viewer;
    QVERIFY(viewer.openSession(writer.sessionPath()));
    viewer.setTime(viewer.duration()); // at the end, watching
    const qint64 before = viewer.duration();

    // The recording goes on: the open viewer reads it again by itself and stays at the end, which now
    // shows at most one fragment (plus a frame) older than the newest frame written.
    write(30, 90);
    const qint64 newest = frameTime(89);
    const qint64 oldestAllowed = newest - qint64(o.fragmentIntervalMs) * 1'000'000 - 50'000'000;
    QTRY_VERIFY_WITH_TIMEOUT(viewer.duration() > before && viewer.currentTime() == viewer.duration() &&
                                 viewer.shownFrameTime() >= oldestAllowed,
                             15'000);
    const int shown = int((viewer.shownFrameTime() - frameTime(0)) / 50'000'000);
    QVERIFY(test::meanAbsDiff(viewer.frameView()->frame(), test::syntheticFrame(size, shown)) < 8.0);

    // A viewer looking at an earlier moment keeps it while the session grows.
    viewer.setTime(500'000'000);
    const qint64 grown = viewer.duration();
    write(90, 130);
    QTRY_VERIFY_WITH_TIMEOUT(viewer.duration() > grown, 15'000);
    QCOMPARE(viewer.currentTime(), qint64(500'000'000));
    writer.stop();
}

QTEST_MAIN(TestReplayViewer)
#include "tst_replayviewer.moc"
