// Record a session under Xvfb (real X11 backend, the fixture app and a ticking xclock on screen) for 60 s
// through the real pipeline (CaptureEngine on its "capture" thread -> SessionWriter on its "recorder" thread,
// wired as Engine::start() wires them) while xdotool moves the cursor, then replay it: cursor positions at
// sampled times match what was recorded and where xdotool put the pointer; the video decodes over the whole
// session; the headless HTML export works.
//
// CIU_E2E_RECORD_SECONDS shortens the recording for development runs (CI runs the full 60 s).

#include "core/capture/captureengine.h"
#include "core/model/metatypes.h"
#include "core/model/workerthread.h"
#include "core/replay/sessionreader.h"
#include "core/replay/sessionwriter.h"
#include "tests/support/agentrun.h"
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
    QProcess m_clock; // a typical desktop: something changes every second
};

void TestReplayE2e::initTestCase()
{
    registerMetaTypes();
    QVERIFY2(test::xvfbAvailable(), "Xvfb is not installed");
    m_xvfb = std::make_unique<test::XvfbServer>();
    QVERIFY2(m_xvfb->start(), qPrintable(m_xvfb->errorString()));
    QVERIFY2(m_app.start(m_xvfb->environment()), qPrintable(m_app.errorString()));
    m_clock.setProcessEnvironment(m_xvfb->environment());
    m_clock.start(QStringLiteral("xclock"),
                  {QStringLiteral("-update"), QStringLiteral("1"), QStringLiteral("-geometry"),
                   QStringLiteral("160x160+1100+600")});
    QVERIFY2(m_clock.waitForStarted(5000), "xclock (x11-apps) is not installed");
}

void TestReplayE2e::cleanupTestCase()
{
    m_clock.kill();
    m_clock.waitForFinished(5000);
    m_app.stop();
    m_xvfb.reset();
}

void TestReplayE2e::recordAndReplay()
{
    const int seconds = qEnvironmentVariableIsSet("CIU_E2E_RECORD_SECONDS")
                            ? qBound(3, qEnvironmentVariableIntValue("CIU_E2E_RECORD_SECONDS"), 600)
                            : 60;
    QTemporaryDir root;
    const auto clock = std::make_shared<const SessionClock>();

    CaptureEngine::Options captureOptions; // the engine's default capture settings
    captureOptions.backend = QStringLiteral("x11");
    captureOptions.display = m_xvfb->displayName();
    captureOptions.clock = clock;
    auto* capture = new CaptureEngine(captureOptions);
    SessionWriterOptions writerOptions;
    writerOptions.rootDir = root.path();
    writerOptions.clock = *clock;
    writerOptions.task = QStringLiteral("e2e: cursor moved by xdotool");
    auto* writer = new SessionWriter(writerOptions);
    connect(capture, &CaptureEngine::frameCaptured, writer, &SessionWriter::onFrame, Qt::QueuedConnection);
    connect(capture, &CaptureEngine::cursorSampled, writer, &SessionWriter::onCursor, Qt::QueuedConnection);
    // What the capture loop saw, in this thread, to compare with the replay.
    QList<CursorSample> emitted;
    connect(capture, &CaptureEngine::cursorSampled, this, [&](const CursorSample& s) { emitted << s; });
    QString failure;
    bool captureUp = false;
    connect(capture, &CaptureEngine::started, this, [&] { captureUp = true; });
    connect(capture, &CaptureEngine::errorOccurred, this, [&](const QString& e) { failure = e; });
    connect(writer, &SessionWriter::recordingFailed, this, [&](const QString& e) { failure = e; });

    WorkerThread recorderThread = startWorkerThread(writer, QStringLiteral("recorder"));
    WorkerThread captureThread = startWorkerThread(capture, QStringLiteral("capture"));
    QMetaObject::invokeMethod(writer, &SessionWriter::start, Qt::BlockingQueuedConnection);
    QMetaObject::invokeMethod(capture, &CaptureEngine::start, Qt::QueuedConnection);
    QTRY_VERIFY_WITH_TIMEOUT(captureUp || !failure.isEmpty(), 10000);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));

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
        // The capture loop has sampled the pointer there: from now until the next move the replay shows it.
        QTRY_VERIFY_WITH_TIMEOUT(!emitted.isEmpty() && emitted.last().pos == target, 5000);
        checks << Check{clock->nowNs(), target};
        ++step;
    }
    QMetaObject::invokeMethod(capture, &CaptureEngine::stop, Qt::BlockingQueuedConnection);
    captureThread.reset(); // nothing is captured after this
    QMetaObject::invokeMethod(writer, &SessionWriter::stop, Qt::BlockingQueuedConnection);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    const QString sessionPath = writer->sessionPath();
    const RecordingStats stats = writer->stats();
    QCoreApplication::processEvents(); // deliver the last queued cursor samples to `emitted`
    // At least the idle rate (5 fps) arrived; only changed frames are encoded (the clock ticks every second).
    QVERIFY2(stats.framesReceived > seconds * 3, qPrintable(QString::number(stats.framesReceived)));
    QVERIFY2(stats.framesEncoded >= seconds / 2, qPrintable(QString::number(stats.framesEncoded)));
    QVERIFY(stats.framesEncoded <= stats.framesReceived);
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
        QVERIFY2(t - frameT < 2'000'000'000, qPrintable(QStringLiteral("%1 %2").arg(t).arg(frameT)));
    }
    // The fixture app's window is in the picture: its area is not the plain desktop.
    const QImage mid = reader.frameAt(reader.durationNs() / 2);
    const QRect window = m_app.windowRect().intersected(QRect(0, 0, 1280, 800));
    QVERIFY(!window.isEmpty());
    QVERIFY(mid.pixelColor(window.center()) != mid.pixelColor(2, 798));

    // 4. Headless export from the command line.
    const QString html = root.filePath(QStringLiteral("report.html"));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    const test::AgentRun cli = test::runAgent(
        {QStringLiteral("replay"), sessionPath, QStringLiteral("--export-html"), html}, env, 60'000);
    QVERIFY2(cli.exitCode == 0, qPrintable(cli.failure()));
    QVERIFY(QFileInfo(html).size() > 1000);
}

QTEST_MAIN(TestReplayE2e)
#include "tst_replay_e2e.moc"
