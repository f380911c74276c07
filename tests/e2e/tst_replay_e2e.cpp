// Record a session under Xvfb (real X11 backend, the fixture app on screen) for 60 s while xdotool moves
// the cursor, then replay it: cursor positions at sampled times match what was recorded and where
// xdotool put the pointer; the video decodes over the whole session; the headless HTML export works.
//
// CIU_E2E_RECORD_SECONDS shortens the recording for development runs (CI runs the full 60 s).

#include "core/model/metatypes.h"
#include "core/replay/grabfeed.h"
#include "core/replay/sessionreader.h"
#include "core/replay/sessionwriter.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <memory>

using namespace ciu;
using namespace ciu::replay;

namespace {

struct ThreadStopper
{
    void operator()(QThread* thread) const
    {
        thread->quit();
        thread->wait();
        delete thread;
    }
};
using ThreadPtr = std::unique_ptr<QThread, ThreadStopper>;

ThreadPtr startThread(const char* name)
{
    ThreadPtr thread(new QThread);
    thread->setObjectName(QString::fromLatin1(name));
    thread->start();
    return thread;
}

} // namespace

class TestReplayE2e : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void recordAndReplay();
    void cleanupTestCase();

private:
    std::unique_ptr<test::XvfbServer> m_xvfb;
    test::FixtureApp m_app;
};

void TestReplayE2e::initTestCase()
{
    registerMetaTypes();
    QVERIFY2(test::xvfbAvailable(), "Xvfb is not installed");
    m_xvfb = std::make_unique<test::XvfbServer>();
    QVERIFY2(m_xvfb->start(), qPrintable(m_xvfb->errorString()));
    QVERIFY2(m_app.start(m_xvfb->environment()), qPrintable(m_app.errorString()));
}

void TestReplayE2e::cleanupTestCase()
{
    m_app.stop();
    m_xvfb.reset();
}

void TestReplayE2e::recordAndReplay()
{
    const int seconds = qEnvironmentVariableIsSet("CIU_E2E_RECORD_SECONDS")
                            ? qBound(3, qEnvironmentVariableIntValue("CIU_E2E_RECORD_SECONDS"), 600)
                            : 60;
    QTemporaryDir root;
    SessionClock clock;

    GrabFeed::Options feedOptions;
    feedOptions.platform = {QStringLiteral("x11"), m_xvfb->displayName()};
    feedOptions.clock = clock;
    auto* feed = new GrabFeed(feedOptions);
    SessionWriterOptions writerOptions;
    writerOptions.rootDir = root.path();
    writerOptions.clock = clock;
    writerOptions.task = QStringLiteral("e2e: cursor moved by xdotool");
    auto* writer = new SessionWriter(writerOptions);
    ThreadPtr captureThread = startThread("capture");
    ThreadPtr recorderThread = startThread("recorder");
    feed->moveToThread(captureThread.get());
    writer->moveToThread(recorderThread.get());
    connect(captureThread.get(), &QThread::finished, feed, &QObject::deleteLater);
    connect(recorderThread.get(), &QThread::finished, writer, &QObject::deleteLater);
    connect(feed, &GrabFeed::frameCaptured, writer, &SessionWriter::onFrame);
    connect(feed, &GrabFeed::cursorSampled, writer, &SessionWriter::onCursor);
    // What the capture loop saw, in this thread, to compare with the replay.
    QList<CursorSample> emitted;
    connect(feed, &GrabFeed::cursorSampled, this, [&](const CursorSample& s) { emitted << s; });
    QString failure;
    connect(feed, &GrabFeed::failed, this, [&](const QString& e) { failure = e; });
    connect(writer, &SessionWriter::recordingFailed, this, [&](const QString& e) { failure = e; });

    QMetaObject::invokeMethod(writer, &SessionWriter::start, Qt::BlockingQueuedConnection);
    QMetaObject::invokeMethod(feed, &GrabFeed::start, Qt::QueuedConnection);

    // Move the pointer with xdotool along a path; remember where it was put and when it was surely there.
    struct Check
    {
        qint64 tNs;
        QPoint pos;
    };
    QList<Check> checks;
    QElapsedTimer elapsed;
    elapsed.start();
    int step = 0;
    while (elapsed.elapsed() < seconds * 1000 && failure.isEmpty()) {
        const QPoint target(40 + (step * 97) % 1200, 40 + (step * 53) % 720);
        QProcess xdotool;
        xdotool.setProcessEnvironment(m_xvfb->environment());
        xdotool.start(QStringLiteral("xdotool"), {QStringLiteral("mousemove"), QString::number(target.x()),
                                                  QString::number(target.y())});
        QVERIFY2(xdotool.waitForFinished(5000) && xdotool.exitCode() == 0, "xdotool mousemove failed");
        QTest::qWait(150); // the pointer is polled every 16 ms: by now a sample has it
        checks << Check{clock.nowNs(), target};
        QTest::qWait(100);
        ++step;
    }
    QMetaObject::invokeMethod(feed, &GrabFeed::stop, Qt::BlockingQueuedConnection);
    QMetaObject::invokeMethod(writer, &SessionWriter::stop, Qt::BlockingQueuedConnection);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const QString sessionPath = writer->sessionPath();
    const RecordingStats stats = writer->stats();
    QCoreApplication::processEvents();           // deliver the last queued cursor samples to `emitted`
    QVERIFY(stats.framesEncoded > seconds * 10); // at least 10 fps got through on a loaded machine
    QVERIFY(checks.size() > seconds * 2);

    // Replay.
    SessionReader reader;
    QVERIFY(reader.open(sessionPath));
    QVERIFY2(reader.problems().isEmpty(), qPrintable(reader.problems().join(QLatin1Char('\n'))));
    QCOMPARE(reader.screenSize(), QSize(1280, 800));
    QVERIFY(reader.durationNs() >= qint64(seconds - 1) * 1'000'000'000);

    // 1. Where xdotool put the pointer is where the replay shows it.
    int mismatches = 0;
    for (const Check& c : std::as_const(checks)) {
        const auto s = reader.cursorAt(c.tNs);
        if (!s || s->pos != c.pos) {
            ++mismatches;
            qWarning("at %lld ms: replay %d,%d, xdotool %d,%d", c.tNs / 1'000'000, s ? s->pos.x() : -1,
                     s ? s->pos.y() : -1, c.pos.x(), c.pos.y());
        }
    }
    QCOMPARE(mismatches, 0);
    // 2. At sampled times, the replay's cursor equals the last sample the capture loop emitted.
    QVERIFY(!emitted.isEmpty());
    for (int i = 0; i < 200; ++i) {
        const qint64 t = emitted.first().tNs + (emitted.last().tNs - emitted.first().tNs) * i / 199;
        const auto it = std::upper_bound(emitted.cbegin(), emitted.cend(), t,
                                         [](qint64 x, const CursorSample& s) { return x < s.tNs; });
        QVERIFY(it != emitted.cbegin());
        const auto replayed = reader.cursorAt(t);
        QVERIFY(replayed);
        QCOMPARE(replayed->pos, std::prev(it)->pos);
    }
    // 3. The video covers the session: frames decode at the start, middle and end, at the screen size.
    for (qint64 t : {qint64(0), reader.durationNs() / 2, reader.durationNs() - 500'000'000}) {
        qint64 frameT = -1;
        const QImage frame = reader.frameAt(t, &frameT);
        QVERIFY2(!frame.isNull(), qPrintable(QString::number(t)));
        QCOMPARE(frame.size(), QSize(1280, 800));
        QVERIFY(t - frameT < 1'000'000'000);
    }
    // The fixture app's window is in the picture: its area is not the plain desktop.
    const QImage mid = reader.frameAt(reader.durationNs() / 2);
    const QRect window = m_app.windowRect().intersected(QRect(0, 0, 1280, 800));
    QVERIFY(!window.isEmpty());
    QVERIFY(mid.pixelColor(window.center()) != mid.pixelColor(2, 798));

    // 4. Headless export from the command line.
    const QString html = root.filePath(QStringLiteral("report.html"));
    QProcess cli;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    cli.setProcessEnvironment(env);
    cli.start(QStringLiteral(CIU_AGENT_BIN),
              {QStringLiteral("replay"), sessionPath, QStringLiteral("--export-html"), html});
    QVERIFY(cli.waitForFinished(60000));
    QVERIFY2(cli.exitCode() == 0, cli.readAllStandardError().constData());
    QVERIFY(QFileInfo(html).size() > 1000);
}

QTEST_MAIN(TestReplayE2e)
#include "tst_replay_e2e.moc"
