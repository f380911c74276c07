// CaptureEngine on the synthetic platform, on its own thread: frames, damage skipping, change reports,
// adaptive rate, cursor samples, settings and error paths. No timing assertions: counts and flags only.

#include "core/capture/captureengine.h"
#include "core/model/metatypes.h"
#include "core/model/workerthread.h"
#include "platform/synthetic/syntheticscene.h"

#include <QTest>

using namespace ciu;
using ciu::platform::SyntheticScene;

namespace {

// Receives the engine's signals on the test thread (queued), so the lists are only touched here.
class Recorder : public QObject
{
public:
    explicit Recorder(CaptureEngine* engine)
    {
        connect(engine, &CaptureEngine::frameCaptured, this, [this](const Frame& f) {
            if (keepFrames)
                frames << f;
            ++frameCount;
        });
        connect(engine, &CaptureEngine::changesDetected, this, [this](const FrameDiff& d) { diffs << d; });
        connect(engine, &CaptureEngine::cursorSampled, this, [this](const CursorSample& c) { cursor << c; });
        connect(engine, &CaptureEngine::statsUpdated, this, [this](const CaptureStats& s) { stats << s; });
        connect(engine, &CaptureEngine::errorOccurred, this, [this](const QString& e) { errors << e; });
        connect(engine, &CaptureEngine::started, this, [this](QRect r) { started << r; });
        connect(engine, &CaptureEngine::stopped, this, [this] { ++stopped; });
    }
    bool keepFrames = true;
    int frameCount = 0;
    QList<Frame> frames;
    QList<FrameDiff> diffs;
    QList<CursorSample> cursor;
    QList<CaptureStats> stats;
    QStringList errors;
    QList<QRect> started;
    int stopped = 0;
};

} // namespace

class TestCaptureEngine : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void staticScreenSharesPixels();
    void changeIsReportedAndPatchedFromDamage();
    void adaptiveRate();
    void withoutDamageFullGrabsStillShareUnchangedFrames();
    void movingSquareFramesAreExact();
    void cursorSamplesOnOneClock();
    void monitorTarget();
    void liveSettings();
    void badBackendReportsError();
    void displayGoneStopsCleanly();

private:
    struct Run
    {
        CaptureEngine* engine = nullptr; // deleted on its thread when the thread ends
        WorkerThread thread;
        std::unique_ptr<Recorder> rec; // destroyed first
    };
    Run startEngine(CaptureSettings settings = {}, const QString& backend = QStringLiteral("synthetic"));
    static CaptureSettings fastSettings();

    QString m_display;
    std::shared_ptr<SyntheticScene> m_scene;
    std::shared_ptr<const SessionClock> m_clock;
    int m_counter = 0;
};

void TestCaptureEngine::initTestCase()
{
    registerMetaTypes();
}

void TestCaptureEngine::init()
{
    SyntheticScene::resetAll();
    m_display = QStringLiteral("synthetic:capture%1").arg(++m_counter);
    m_scene = SyntheticScene::forDisplay(m_display);
    m_scene->setSize({640, 400});
    m_clock = std::make_shared<const SessionClock>();
}

void TestCaptureEngine::cleanup()
{
    m_scene.reset();
}

CaptureSettings TestCaptureEngine::fastSettings()
{
    CaptureSettings s;
    s.fps = 30;
    s.idleFps = 5;
    s.stabilityWindowMs = 150;
    s.thresholdPercent = 0.5;
    return s;
}

TestCaptureEngine::Run TestCaptureEngine::startEngine(CaptureSettings settings, const QString& backend)
{
    Run run;
    CaptureEngine::Options options;
    options.backend = backend;
    options.display = m_display;
    options.clock = m_clock;
    options.settings = settings;
    options.statsIntervalMs = 100;
    run.engine = new CaptureEngine(options);
    run.rec = std::make_unique<Recorder>(run.engine);
    run.thread = startWorkerThread(run.engine, QStringLiteral("capture"));
    QMetaObject::invokeMethod(run.engine, &CaptureEngine::start, Qt::QueuedConnection);
    return run;
}

void TestCaptureEngine::staticScreenSharesPixels()
{
    Run run = startEngine(fastSettings());
    Recorder& r = *run.rec;
    QTRY_VERIFY(r.frames.size() >= 10);
    QCOMPARE(run.thread->objectName(), QStringLiteral("capture"));
    QCOMPARE(r.frames.first().image.size(), QSize(640, 400));
    for (qsizetype i = 1; i < r.frames.size(); ++i) {
        QCOMPARE(r.frames.at(i).index, r.frames.at(i - 1).index + 1);
        QVERIFY(r.frames.at(i).tNs > r.frames.at(i - 1).tNs);
        QCOMPARE(r.frames.at(i).image.cacheKey(), r.frames.first().image.cacheKey()); // not grabbed again
    }
    // The first frame is a whole-screen change; then only the stability report.
    QTRY_VERIFY(r.diffs.size() >= 2);
    QCOMPARE(r.diffs.first().regions.size(), 1);
    QCOMPARE(r.diffs.first().regions.first().rect, QRect(0, 0, 640, 400));
    QVERIFY(r.diffs.at(1).stable);
    QVERIFY(r.diffs.at(1).isEmpty());

    QTRY_VERIFY(!r.stats.isEmpty() && r.stats.last().skippedGrabs >= 9);
    const CaptureStats& stats = r.stats.last();
    QCOMPARE(stats.fullGrabs, quint64(1));
    QCOMPARE(stats.damageGrabs, quint64(0));
    QVERIFY(stats.unchangedFrames >= 9);
    // The ring holds many frames for one buffer.
    QVERIFY(run.engine->ring()->size() >= 10);
    QCOMPARE(run.engine->ring()->stats().buffers, 1);
    QCOMPARE(run.engine->ring()->memoryBytes(), qint64(640 * 400 * 4));
    QVERIFY(r.errors.isEmpty());
}

void TestCaptureEngine::changeIsReportedAndPatchedFromDamage()
{
    Run run = startEngine(fastSettings());
    Recorder& r = *run.rec;
    QTRY_VERIFY(r.frames.size() >= 3);
    const qint64 before = r.frames.last().image.cacheKey();
    r.diffs.clear();

    const QRect window(100, 80, 200, 150);
    m_scene->fillRect(window, Qt::red);
    QTRY_VERIFY(!r.diffs.isEmpty());
    const FrameDiff diff = r.diffs.first();
    QCOMPARE(diff.regions.size(), 1);
    QCOMPARE(diff.regions.first().rect, window);
    QCOMPARE(diff.regions.first().changedPercent, 100.0);
    QVERIFY(!diff.cursorOnly);

    // The frame of that diff has the new pixels; untouched areas are as before.
    const auto changed = run.engine->ring()->byIndex(diff.frameIndex);
    QVERIFY(changed);
    QVERIFY(changed->image.cacheKey() != before);
    QCOMPARE(changed->image.pixelColor(150, 100), QColor(Qt::red));
    QCOMPARE(changed->image.pixelColor(10, 10), QColor(0x3a, 0x6e, 0xa5));

    QTRY_VERIFY(!r.stats.isEmpty() && r.stats.last().damageGrabs >= 1);
    QCOMPARE(r.stats.last().fullGrabs, quint64(1)); // only the first frame
}

void TestCaptureEngine::adaptiveRate()
{
    CaptureSettings settings = fastSettings();
    settings.stabilityWindowMs = 500; // several stats periods (100 ms) at full rate after a change
    Run run = startEngine(settings);
    Recorder& r = *run.rec;
    // Static screen: after the stability report the engine drops to the idle rate.
    QTRY_VERIFY(!r.stats.isEmpty() && r.stats.last().idle);
    QCOMPARE(r.stats.last().targetFps, 5);

    // An action forces the full rate even on a static screen.
    QMetaObject::invokeMethod(
        run.engine, [e = run.engine] { e->setActionActive(true); }, Qt::QueuedConnection);
    QTRY_VERIFY(!r.stats.last().idle && r.stats.last().actionActive);
    QCOMPARE(r.stats.last().targetFps, 30);
    QMetaObject::invokeMethod(
        run.engine, [e = run.engine] { e->setActionActive(false); }, Qt::QueuedConnection);
    QTRY_VERIFY(r.stats.last().idle && !r.stats.last().actionActive);

    // The first change brings the full rate back, and calm brings the idle rate again.
    r.stats.clear();
    r.diffs.clear();
    m_scene->fillRect(QRect(0, 0, 100, 100), Qt::green);
    QTRY_VERIFY(!r.diffs.isEmpty());
    QVERIFY(!r.diffs.first().isEmpty());
    QTRY_VERIFY(std::any_of(r.stats.cbegin(), r.stats.cend(), [](const CaptureStats& s) { return !s.idle; }));
    QTRY_VERIFY(r.stats.last().idle);
    QVERIFY(r.diffs.last().stable);
}

void TestCaptureEngine::withoutDamageFullGrabsStillShareUnchangedFrames()
{
    CaptureSettings s = fastSettings();
    s.useDamage = false;
    Run run = startEngine(s);
    Recorder& r = *run.rec;
    QTRY_VERIFY(r.frames.size() >= 6);
    for (const Frame& f : std::as_const(r.frames))
        QCOMPARE(f.image.cacheKey(), r.frames.first().image.cacheKey()); // identical grabs are dropped
    QTRY_VERIFY(!r.stats.isEmpty() && r.stats.last().fullGrabs >= 6);
    const CaptureStats& stats = r.stats.last();
    QCOMPARE(stats.damageGrabs, quint64(0));
    QCOMPARE(stats.skippedGrabs, quint64(0));
    QVERIFY(stats.unchangedFrames >= 5);

    r.diffs.clear();
    m_scene->fillRect(QRect(300, 200, 120, 90), Qt::yellow);
    QTRY_VERIFY(!r.diffs.isEmpty());
    QCOMPARE(r.diffs.first().regions.first().rect, QRect(300, 200, 120, 90));
}

void TestCaptureEngine::movingSquareFramesAreExact()
{
    // Nobody keeps the frames here, so the engine recycles old buffers and grabs only what went stale;
    // every frame must still equal the scene exactly, and the ring must rebuild older frames exactly.
    Run run = startEngine(fastSettings());
    Recorder& r = *run.rec;
    r.keepFrames = false;
    QTRY_VERIFY(r.frameCount >= 3);
    const QColor background(0x3a, 0x6e, 0xa5);
    QPoint pos(20, 20);
    QList<QPair<quint64, QImage>> expected;
    for (int i = 0; i < 12; ++i) {
        const QPoint next = pos + QPoint(23, 11);
        r.diffs.clear();
        m_scene->fillRect(QRect(pos, QSize(60, 60)), background);
        m_scene->fillRect(QRect(next, QSize(60, 60)), QColor::fromHsv(i * 30, 255, 255));
        const QImage truth = m_scene->render(QRect());
        // The latest frame becomes exactly the scene (a wrong stale area would stay wrong for good).
        QTRY_VERIFY(run.engine->ring()->latest()->image == truth);
        const auto latest = run.engine->ring()->latest();
        // The diffs reach this thread by a queued signal, after the ring already holds the frame.
        const auto reported = [&r] {
            QRect united;
            for (const FrameDiff& d : std::as_const(r.diffs)) {
                for (const ChangeRegion& region : d.regions)
                    united |= region.rect;
            }
            return united;
        };
        const QRect moved =
            i == 0 ? QRect(next, QSize(60, 60)) : QRect(pos, QSize(60, 60)) | QRect(next, QSize(60, 60));
        QTRY_COMPARE(reported(), moved);
        expected.append({latest->index, truth});
        pos = next;
        const int seen = r.frameCount;
        QTRY_VERIFY(r.frameCount > seen + 1); // let the buffers go around
    }
    for (const auto& [index, truth] : std::as_const(expected))
        QVERIFY2(run.engine->ring()->byIndex(index)->image == truth, qPrintable(QString::number(index)));
    QVERIFY(run.engine->ring()->stats().deltaFrames > 10);
    QTRY_VERIFY(!r.stats.isEmpty() && r.stats.last().damageGrabs >= 12);
    QVERIFY2(r.stats.last().recycledBuffers > 0, qPrintable(QString::number(r.stats.last().recycledBuffers)));
}

void TestCaptureEngine::cursorSamplesOnOneClock()
{
    Run run = startEngine(fastSettings());
    Recorder& r = *run.rec;
    QTRY_VERIFY(r.cursor.size() >= 3);
    m_scene->moveCursor({123, 45});
    QTRY_COMPARE(r.cursor.last().pos, QPoint(123, 45));
    QCOMPARE(r.cursor.last().shape, QStringLiteral("left_ptr"));
    for (qsizetype i = 1; i < r.cursor.size(); ++i)
        QVERIFY(r.cursor.at(i).tNs >= r.cursor.at(i - 1).tNs);
    QVERIFY(r.cursor.last().tNs <= m_clock->nowNs()); // the session's clock, not another one
    // On demand.
    const qsizetype count = r.cursor.size();
    QMetaObject::invokeMethod(run.engine, &CaptureEngine::sampleCursor, Qt::QueuedConnection);
    QTRY_VERIFY(r.cursor.size() > count);
    // Moving the pointer alone gives no change report.
    r.diffs.clear();
    m_scene->moveCursor({300, 300});
    QTRY_COMPARE(r.cursor.last().pos, QPoint(300, 300));
    for (const FrameDiff& d : std::as_const(r.diffs))
        QVERIFY(d.isEmpty());
}

void TestCaptureEngine::monitorTarget()
{
    m_scene->setMonitors({{QStringLiteral("left"), QRect(0, 0, 320, 400), true},
                          {QStringLiteral("right"), QRect(320, 0, 320, 400), false}});
    CaptureSettings s = fastSettings();
    s.monitorIndex = 1;
    Run run = startEngine(s);
    Recorder& r = *run.rec;
    QTRY_VERIFY(!r.started.isEmpty());
    QCOMPARE(r.started.first(), QRect(320, 0, 320, 400));
    QTRY_VERIFY(r.frames.size() >= 2);
    QCOMPARE(r.frames.last().origin, QPoint(320, 0));
    QCOMPARE(r.frames.last().image.size(), QSize(320, 400));

    // A change on the other monitor is not seen; one on this monitor is, in root coordinates.
    r.diffs.clear();
    m_scene->fillRect(QRect(10, 10, 100, 100), Qt::red);
    m_scene->fillRect(QRect(400, 50, 100, 100), Qt::red);
    QTRY_VERIFY(!r.diffs.isEmpty());
    QCOMPARE(r.diffs.first().regions.size(), 1);
    QCOMPARE(r.diffs.first().regions.first().rect, QRect(400, 50, 100, 100));

    // Switching to a monitor that does not exist is refused; capture goes on.
    CaptureSettings bad = s;
    bad.monitorIndex = 5;
    QMetaObject::invokeMethod(
        run.engine, [e = run.engine, bad] { e->applySettings(bad); }, Qt::QueuedConnection);
    QTRY_VERIFY(!r.errors.isEmpty());
    QVERIFY2(r.errors.first().contains(QStringLiteral("no monitor 5")), qPrintable(r.errors.first()));
    const qsizetype frames = r.frames.size();
    QTRY_VERIFY(r.frames.size() > frames + 2);
    QCOMPARE(r.frames.last().origin, QPoint(320, 0));
    QCOMPARE(r.stopped, 0);
}

void TestCaptureEngine::liveSettings()
{
    Run run = startEngine(fastSettings());
    Recorder& r = *run.rec;
    QTRY_VERIFY(r.frames.size() >= 2);

    CaptureSettings bad = fastSettings();
    bad.fps = 100;
    QMetaObject::invokeMethod(
        run.engine, [e = run.engine, bad] { e->applySettings(bad); }, Qt::QueuedConnection);
    QTRY_VERIFY(!r.errors.isEmpty());
    QVERIFY2(r.errors.first().contains(QStringLiteral("15..30")), qPrintable(r.errors.first()));

    // A higher threshold hides a change that the default reports.
    CaptureSettings coarse = fastSettings();
    coarse.thresholdPercent = 20;
    coarse.ringSeconds = 1;
    QMetaObject::invokeMethod(
        run.engine, [e = run.engine, coarse] { e->applySettings(coarse); }, Qt::QueuedConnection);
    QTRY_COMPARE(run.engine->ring()->settings().durationNs, qint64(1'000'000'000)); // applied
    r.diffs.clear();
    m_scene->fillRect(QRect(0, 0, 100, 100), Qt::red); // 3.9 % of the screen
    const qsizetype frames = r.frames.size();
    QTRY_VERIFY(r.frames.size() > frames + 5);
    QVERIFY(r.frames.last().image.pixelColor(50, 50) == QColor(Qt::red)); // captured, not reported
    for (const FrameDiff& d : std::as_const(r.diffs))
        QVERIFY(d.isEmpty());
    QCOMPARE(r.stopped, 0);
}

void TestCaptureEngine::badBackendReportsError()
{
    Run run = startEngine(fastSettings(), QStringLiteral("no-such-backend"));
    QTRY_COMPARE(run.rec->stopped, 1);
    QCOMPARE(run.rec->errors.size(), 1);
    QVERIFY(run.rec->errors.first().contains(QStringLiteral("no-such-backend")));
    QVERIFY(run.rec->frames.isEmpty());

    CaptureSettings bad;
    bad.idleFps = 0;
    Run run2 = startEngine(bad);
    QTRY_COMPARE(run2.rec->stopped, 1);
    QVERIFY(run2.rec->errors.first().contains(QStringLiteral("idle")));
}

void TestCaptureEngine::displayGoneStopsCleanly()
{
    Run run = startEngine(fastSettings());
    Recorder& r = *run.rec;
    QTRY_VERIFY(r.frames.size() >= 2);
    m_scene->setConnected(false);
    QTRY_COMPARE(r.stopped, 1);
    QCOMPARE(r.errors.size(), 1);
    QVERIFY(r.errors.first().contains(QStringLiteral("went away")));
    const qsizetype frames = r.frames.size();
    // Stopped means stopped: a capture asked for now yields nothing. The blocking call is a barrier (the
    // engine's thread has handled the request); then every signal it sent before is delivered here.
    QMetaObject::invokeMethod(run.engine, &CaptureEngine::captureNow, Qt::QueuedConnection);
    QMetaObject::invokeMethod(
        run.engine, [] {}, Qt::BlockingQueuedConnection);
    QCoreApplication::sendPostedEvents();
    QCOMPARE(r.frames.size(), frames);
    QCOMPARE(r.stopped, 1);
    QVERIFY(run.engine->ring()->latest()); // looking back still works after the stop
}

QTEST_GUILESS_MAIN(TestCaptureEngine)
#include "tst_captureengine.moc"
