// The whole Engine (capture → canvas → brush → director) in-process against the fixture app on a private
// Xvfb: small changes (a few typed characters, a checkbox) reach the canvas as Tier 1 decisions on their
// region, and regions excluded as the agent's own windows are neither mapped nor clicked; a verification's
// second look goes through the capture (a fresh frame) to the canvas and is answered.

#include "core/canvas/canvasmapper.h"
#include "core/capture/captureengine.h"
#include "core/director/director.h"
#include "core/engine/engine.h"
#include "core/model/metatypes.h"
#include "core/replay/sessionreader.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using namespace ciu::test;

class TestEngineE2e : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void smallChangesReachTheCanvas();
    void excludedRegionIsNeverMappedOrClicked();
    void recordingBudgetStopsRecordingKeepsFiles();
    void secondLookIsAnsweredAfterAFreshFrame();

private:
    bool startEngine(const QList<QRect>& excluded = {});
    std::optional<TaskOutcome> runTask(const QString& task);
    // Tier 1 (or 2) decisions whose region intersects `rect`, among those seen since `from`.
    int analysesTouching(const QRect& rect, qsizetype from) const;

    std::unique_ptr<XvfbServer> m_x;
    std::unique_ptr<FixtureApp> m_app;
    std::unique_ptr<Engine> m_engine;
    QList<SpatialEvent> m_decisions;
    ZoneMapPtr m_map;
};

void TestEngineE2e::initTestCase()
{
    registerMetaTypes();
    qputenv("OMP_THREAD_LIMIT", "1");
}

void TestEngineE2e::init()
{
    if (!xvfbAvailable())
        QSKIP("Xvfb is not installed");
    m_x = std::make_unique<XvfbServer>();
    QVERIFY2(m_x->start(), qPrintable(m_x->errorString()));
    m_app = std::make_unique<FixtureApp>();
    QVERIFY2(
        m_app->start(m_x->environment(), {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
        qPrintable(m_app->errorString()));
    m_decisions.clear();
    m_map.reset();
}

void TestEngineE2e::cleanup()
{
    if (m_engine) {
        QSignalSpy down(m_engine.get(), &Engine::shutDown);
        m_engine->shutdown();
        down.wait(20'000);
        m_engine.reset();
    }
    m_app.reset();
    m_x.reset();
}

bool TestEngineE2e::startEngine(const QList<QRect>& excluded)
{
    Engine::Options options;
    options.platform = QStringLiteral("x11");
    options.display = m_x->displayName();
    options.record = false;
    m_engine = std::make_unique<Engine>(options);
    if (!excluded.isEmpty())
        m_engine->setExcludedRegions(excluded);
    QSignalSpy ready(m_engine.get(), &Engine::ready);
    QSignalSpy failed(m_engine.get(), &Engine::failed);
    m_engine->start();
    connect(m_engine->canvas(), &canvas::CanvasMapper::eventOccurred, this, [this](const SpatialEvent& e) {
        if (e.kind == SpatialEvent::Kind::TierDecision)
            m_decisions << e;
    });
    connect(m_engine->canvas(), &canvas::CanvasMapper::zoneMapUpdated, this,
            [this](const ZoneMapPtr& map) { m_map = map; });
    if (!ready.wait(30'000) && ready.isEmpty()) {
        qWarning() << "engine not ready:"
                   << (failed.isEmpty() ? QString() : failed.first().first().toString());
        return false;
    }
    // The first full analysis has been published.
    return QTest::qWaitFor([this] { return m_map && !m_map->zones().isEmpty(); }, 30'000);
}

std::optional<TaskOutcome> TestEngineE2e::runTask(const QString& task)
{
    DirectorOptions options;
    options.dryRun = false;
    QSignalSpy finished(m_engine.get(), &Engine::taskFinished);
    m_engine->runTask(task, options);
    if (!finished.wait(120'000))
        return std::nullopt;
    return finished.first().first().value<TaskOutcome>();
}

int TestEngineE2e::analysesTouching(const QRect& rect, qsizetype from) const
{
    int n = 0;
    for (qsizetype i = from; i < m_decisions.size(); ++i) {
        const QVariantMap data = m_decisions.at(i).data;
        if (data.value(QStringLiteral("tier")).toInt() < 1)
            continue;
        const QVariantMap r = data.value(QStringLiteral("region")).toMap();
        const QRect region(r.value(QStringLiteral("x")).toInt(), r.value(QStringLiteral("y")).toInt(),
                           r.value(QStringLiteral("width")).toInt(),
                           r.value(QStringLiteral("height")).toInt());
        if (region.intersects(rect))
            ++n;
    }
    return n;
}

void TestEngineE2e::smallChangesReachTheCanvas()
{
    QVERIFY(startEngine());
    const auto name = m_app->widget(QStringLiteral("name"));
    const auto subscribe = m_app->widget(QStringLiteral("subscribe"));
    QVERIFY(name && subscribe);
    // Both changes are far below 0.5 % of the 1280×800 screen (5,120 pixels), the canvas's threshold for
    // changes outside known zones.
    qsizetype before = m_decisions.size();
    auto outcome = runTask(QStringLiteral("type \"Ada\" into Name"));
    QVERIFY(outcome);
    QVERIFY(m_app->waitFor(
        [](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == QLatin1String("text_changed") &&
                   o.value(QStringLiteral("text")).toString() == QLatin1String("Ada");
        },
        5000));
    QVERIFY2(QTest::qWaitFor([&] { return analysesTouching(name->rect, before) > 0; }, 10'000),
             "typing into the field was never analysed");

    before = m_decisions.size();
    outcome = runTask(QStringLiteral("check Subscribe"));
    QVERIFY(outcome);
    QVERIFY(m_app->waitForEvent(QStringLiteral("toggled"), 5000));
    QVERIFY2(QTest::qWaitFor([&] { return analysesTouching(subscribe->rect, before) > 0; }, 10'000),
             "the checkbox toggling was never analysed");
}

void TestEngineE2e::excludedRegionIsNeverMappedOrClicked()
{
    const auto submit = m_app->widget(QStringLiteral("submit"));
    QVERIFY(submit);
    const QRect excluded = submit->rect.adjusted(-6, -6, 6, 6);
    QVERIFY(startEngine({excluded}));
    for (const Zone& z : m_map->zones())
        QVERIFY2(
            !excluded.contains(z.bounds.center()),
            qPrintable(QStringLiteral("zone %1 \"%2\" is inside the excluded region").arg(z.id, z.label)));

    const auto outcome = runTask(QStringLiteral("click Submit"));
    QVERIFY(outcome);
    QVERIFY(outcome->result != TaskOutcome::Result::Completed);
    // The task has ended: a click it had sent has reached the app by the time the app answers a sync.
    QVERIFY(m_app->sync());
    m_app->pending();
    for (const QJsonObject& line : m_app->allLines())
        QVERIFY2(!(line.value(QStringLiteral("event")).toString() == QLatin1String("clicked") &&
                   line.value(QStringLiteral("name")).toString() == QLatin1String("submit")),
                 "the excluded button was clicked");
}

void TestEngineE2e::recordingBudgetStopsRecordingKeepsFiles()
{
    QTemporaryDir sessions;
    Engine::Options options;
    options.platform = QStringLiteral("x11");
    options.display = m_x->displayName();
    options.sessionRoot = sessions.path();
    options.maxSessionBytes = 16 * 1024;
    m_engine = std::make_unique<Engine>(options);
    QSignalSpy ready(m_engine.get(), &Engine::ready);
    QSignalSpy started(m_engine.get(), &Engine::recordingStarted);
    QSignalSpy stopped(m_engine.get(), &Engine::recordingStopped);
    m_engine->start();
    QVERIFY(ready.wait(30'000) || ready.count() == 1);
    QCOMPARE(started.count(), 1);
    // Changing pictures until the session outgrows its budget.
    for (int i = 0; i < 60 && stopped.isEmpty(); ++i) {
        m_app->send(i % 2 ? QStringLiteral("close-window") : QStringLiteral("open-window"));
        stopped.wait(500);
    }
    QVERIFY2(!stopped.isEmpty(), "the size budget never stopped the recording");
    const QString reason = stopped.first().first().toString();
    QVERIFY2(!reason.isEmpty(), "no reason given");
    // What was written is kept and readable.
    replay::SessionReader reader;
    QVERIFY2(reader.open(started.first().first().toString()),
             qPrintable(reader.problems().join(QLatin1Char('\n'))));
    QVERIFY(reader.hasVideo());
    QVERIFY(reader.durationNs() > 0);
    QSignalSpy down(m_engine.get(), &Engine::shutDown);
    m_engine->shutdown();
    QVERIFY(down.wait(20'000) || down.count() == 1);
    m_engine.reset();
}

void TestEngineE2e::secondLookIsAnsweredAfterAFreshFrame()
{
    QVERIFY(startEngine());
    // What the main thread receives, in order: the capture's frames, the canvas' maps and its answers. All
    // come queued; the frame grabbed for the look is posted before the look reaches the canvas, so it is
    // here before the answer.
    quint64 lastFrame = 0;
    struct Answer
    {
        quint64 token = 0;
        ZoneMapPtr map;
        quint64 frameBefore = 0; // the latest frame received before the answer
        ZoneMapPtr published;    // the latest map received before the answer
    };
    QList<Answer> answers;
    QObject receiver; // declared last: its connections end before the variables they write
    connect(m_engine->capture(), &CaptureEngine::frameCaptured, &receiver,
            [&lastFrame](const Frame& frame) { lastFrame = frame.index; });
    connect(m_engine->canvas(), &canvas::CanvasMapper::lookedAgain, &receiver,
            [&](quint64 token, const ZoneMapPtr& map) {
                answers.append({token, map, lastFrame, m_map});
            });
    QVERIFY(QTest::qWaitFor([&] { return lastFrame > 0; }, 10'000));
    for (const quint64 token : {quint64(41), quint64(42)}) {
        const quint64 frameAtRequest = lastFrame;
        emit m_engine->director()->lookAgainRequested(token);
        QVERIFY2(QTest::qWaitFor([&] { return !answers.isEmpty() && answers.last().token == token; }, 30'000),
                 "the canvas never answered the second look");
        const Answer& a = answers.last();
        QVERIFY2(a.frameBefore > frameAtRequest, "no frame was captured for the second look");
        QVERIFY(a.map);
        QVERIFY(a.map == a.published); // the canvas' current map, published before its answer
    }
    QCOMPARE(answers.size(), 2);
}

QTEST_GUILESS_MAIN(TestEngineE2e)
#include "tst_engine_e2e.moc"
