// bench brush: the brush's hot paths.
//  - hit test: ZoneMap::zoneAt / zonesAt and ZoneTracker::update with 1,000 zones (target ≤ 1 µs a query);
//  - cursor → zone_enter: a sample sent from another thread (as the capture engine does) until the
//    zone_enter event is back on that thread (target ≤ one frame interval);
//  - a local action on a known zone against the fixture app on an X display (Xvfb): move + click +
//    change detected, with the brush's own part separated from the app's reaction (target ≤ 50 ms plus
//    the app's reaction). Needs an X display (--display, or $DISPLAY, e.g. under xvfb-run) and the
//    fixture app (arg fixture=PATH, $CIU_FIXTURE_APP, or the build tree's tests/fixture-app).

#include "bench/benchmark.h"
#include "core/brush/brushcontroller.h"
#include "core/brush/zonetracker.h"
#include "core/model/metatypes.h"
#include "core/model/workerthread.h"
#include "platform/platformfactory.h"
#include "platform/synthetic/syntheticscene.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QThread>

#include <atomic>

namespace ciu::bench {
namespace {

constexpr QSize kScreen(1920, 1080);

ZoneMapPtr randomMap(int count, quint32 seed)
{
    QRandomGenerator rng(seed);
    QList<Zone> zones;
    zones.reserve(count);
    for (int i = 0; i < count; ++i) {
        Zone z;
        z.id = QStringLiteral("z%1").arg(i);
        // Mostly widget-sized zones, a few large containers.
        const bool container = i % 50 == 0;
        const int w = container ? 300 + rng.bounded(600) : 20 + rng.bounded(160);
        const int h = container ? 200 + rng.bounded(400) : 14 + rng.bounded(40);
        z.bounds = QRect(rng.bounded(kScreen.width() - w), rng.bounded(kScreen.height() - h), w, h);
        z.type = container ? ZoneType::ScrollArea : ZoneType::Button;
        zones << z;
    }
    return std::make_shared<const ZoneMap>(1, 0, kScreen, zones);
}

void hitTest(const Context& context, Reporter& out)
{
    const ZoneMapPtr map = randomMap(1000, 7);
    const int queries = context.iterations > 0 ? context.iterations * 1000 : 1'000'000;
    QRandomGenerator rng(11);
    QList<QPoint> points;
    points.reserve(4096);
    for (int i = 0; i < 4096; ++i)
        points << QPoint(rng.bounded(kScreen.width()), rng.bounded(kScreen.height()));
    const QJsonObject info{{QLatin1String("zones"), 1000}, {QLatin1String("queries"), queries}};

    volatile quintptr sink = 0;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < queries; ++i)
        sink = sink + quintptr(map->zoneAt(points.at(i & 4095)));
    out.figure(QStringLiteral("hit_test_zoneAt"), double(timer.nsecsElapsed()) / queries / 1000.0,
               QStringLiteral("us"), info);

    timer.restart();
    for (int i = 0; i < queries; ++i)
        sink = sink + quintptr(map->zonesAt(points.at(i & 4095)).size());
    out.figure(QStringLiteral("hit_test_zonesAt"), double(timer.nsecsElapsed()) / queries / 1000.0,
               QStringLiteral("us"), info);

    // The tracker per cursor sample: hit test, crossings between samples, events. Samples follow a
    // random walk of 1–20 px steps, as a moving cursor does.
    ZoneTracker tracker;
    tracker.setZoneMap(map, 0);
    QPoint p(960, 540);
    const int samples = queries / 10;
    qint64 events = 0;
    timer.restart();
    for (int i = 0; i < samples; ++i) {
        p += QPoint(int(points.at(i & 4095).x() % 41) - 20, int(points.at((i + 7) & 4095).y() % 41) - 20);
        p = QPoint(std::clamp(p.x(), 0, kScreen.width() - 1), std::clamp(p.y(), 0, kScreen.height() - 1));
        events += tracker.update(CursorSample{qint64(i) * 8'000'000, p, {}}).size();
    }
    out.figure(QStringLiteral("tracker_update"), double(timer.nsecsElapsed()) / samples / 1000.0,
               QStringLiteral("us"),
               QJsonObject{{QLatin1String("zones"), 1000},
                           {QLatin1String("samples"), samples},
                           {QLatin1String("events"), double(events)}});
    Q_UNUSED(sink)
}

// Sends samples from this (the "capture") thread to a brush on its own thread and times the zone_enter.
class SampleSource final : public QObject
{
    Q_OBJECT
signals:
    void cursor(const ciu::CursorSample& sample);
};

void enterLatency(const Context& context, Reporter& out)
{
    const QString display = QStringLiteral("bench-brush");
    auto scene = platform::SyntheticScene::forDisplay(display);
    scene->moveCursor({500, 500});
    SessionClock clock;
    auto* brush =
        new BrushController(platform::PlatformOptions{QStringLiteral("synthetic"), display}, {}, clock);
    QThread thread;
    thread.setObjectName(QStringLiteral("brush"));
    addWorkerToThread(brush, &thread);
    thread.start();
    QMetaObject::invokeMethod(brush, &BrushController::start, Qt::BlockingQueuedConnection);
    QMetaObject::invokeMethod(
        brush, [brush] { brush->onZoneMap(randomMap(1000, 7)); }, Qt::BlockingQueuedConnection);

    SampleSource source;
    QObject::connect(&source, &SampleSource::cursor, brush, &BrushController::onCursor, Qt::QueuedConnection);
    std::atomic<qint64> enteredAt{0};
    QObject receiver;
    QObject::connect(brush, &BrushController::eventOccurred, &receiver, [&](const SpatialEvent& e) {
        if (e.kind == SpatialEvent::Kind::ZoneEnter && enteredAt == 0)
            enteredAt = clock.nowNs();
    });

    const ZoneMapPtr map = randomMap(1000, 7);
    const int rounds = context.iterations > 0 ? context.iterations : 300;
    QList<double> ms;
    QRandomGenerator rng(3);
    for (int i = 0; i < rounds; ++i) {
        // Park outside every zone (or where the map has none), then jump into a random zone.
        const Zone& z = map->zones().at(rng.bounded(int(map->zones().size())));
        emit source.cursor(CursorSample{clock.nowNs(), {kScreen.width() + 5, 5}, {}});
        QThread::usleep(300);
        QCoreApplication::processEvents();
        enteredAt = 0;
        const qint64 sent = clock.nowNs();
        emit source.cursor(CursorSample{sent, z.center(), {}});
        QDeadlineTimer deadline(1000);
        while (enteredAt == 0 && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
        if (enteredAt != 0)
            ms << double(enteredAt - sent) / 1e6;
    }
    thread.quit();
    thread.wait();
    platform::SyntheticScene::resetAll();
    if (ms.isEmpty()) {
        out.note(QStringLiteral("no zone_enter came back"));
        return;
    }
    const QJsonObject info{{QLatin1String("zones"), 1000},
                           {QLatin1String("rounds"), ms.size()},
                           {QLatin1String("frame_interval_ms_60hz"), 1000.0 / 60}};
    out.figure(QStringLiteral("cursor_to_zone_enter_median"), median(ms), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("cursor_to_zone_enter_p95"), percentile(ms, 95), QStringLiteral("ms"), info);
}

// A stand-in for the capture engine's Tier 0 while it is not wired here: grabs the watched rectangle
// every millisecond and reports a FrameDiff when it differs from the previous grab.
class RegionWatcher final : public QThread
{
public:
    RegionWatcher(QString display, QRect rect, SessionClock clock, BrushController* brush)
        : m_display(std::move(display))
        , m_rect(rect)
        , m_clock(clock)
        , m_brush(brush)
    {
    }
    std::atomic<bool> stopping{false};

protected:
    void run() override
    {
        auto opened = platform::createPlatform({QStringLiteral("x11"), m_display});
        if (!opened.platform)
            return;
        QImage previous = opened.platform->screen().grab(m_rect);
        quint64 index = 1;
        while (!stopping) {
            QThread::usleep(1000);
            const QImage now = opened.platform->screen().grab(m_rect);
            const qint64 t = m_clock.nowNs();
            ++index;
            if (now.isNull() || now == previous)
                continue;
            previous = now;
            FrameDiff diff{index, t, {ChangeRegion{m_rect, 100}}, 1.0};
            QMetaObject::invokeMethod(
                m_brush, [b = m_brush, diff] { b->onChanges(diff); }, Qt::QueuedConnection);
        }
    }

private:
    QString m_display;
    QRect m_rect;
    SessionClock m_clock;
    BrushController* m_brush;
};

QString fixturePath(const Context& context)
{
    for (const QString& a : context.args) {
        if (a.startsWith(QLatin1String("fixture=")))
            return a.mid(8);
    }
    if (const QString env = qEnvironmentVariable("CIU_FIXTURE_APP"); !env.isEmpty())
        return env;
    return QCoreApplication::applicationDirPath() + QStringLiteral("/../tests/fixture-app/ciu-fixture-app");
}

void localAction(const Context& context, Reporter& out)
{
    const QString display = context.display.isEmpty() ? qEnvironmentVariable("DISPLAY") : context.display;
    auto probe = platform::createPlatform({QStringLiteral("x11"), display});
    if (!probe.platform) {
        out.note(
            QStringLiteral("local action skipped: no X display (%1); run under xvfb-run or pass --display")
                .arg(probe.error));
        return;
    }
    const QString fixture = fixturePath(context);
    if (!QFileInfo(fixture).isExecutable()) {
        out.note(
            QStringLiteral("local action skipped: fixture app not found at %1 (fixture=PATH)").arg(fixture));
        return;
    }
    QProcess app;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), display);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    app.setProcessEnvironment(env);
    app.start(fixture, {QStringLiteral("--geometry"), QStringLiteral("40,40,900,640")});
    QByteArray buffer;
    QHash<QString, QRect> rects;
    auto readLines = [&](const std::function<bool(const QJsonObject&)>& stopAt, int timeoutMs) {
        QDeadlineTimer deadline(timeoutMs);
        while (!deadline.hasExpired()) {
            app.waitForReadyRead(5);
            buffer += app.readAllStandardOutput();
            qsizetype nl;
            while ((nl = buffer.indexOf('\n')) >= 0) {
                const QJsonObject o = QJsonDocument::fromJson(buffer.left(nl)).object();
                buffer.remove(0, nl + 1);
                if (stopAt(o))
                    return true;
            }
            QCoreApplication::processEvents();
        }
        return false;
    };
    const bool ready = readLines(
        [&](const QJsonObject& o) {
            if (o.value(QLatin1String("event")).toString() != QLatin1String("ready"))
                return false;
            for (const QJsonValue& v : o.value(QLatin1String("widgets")).toArray()) {
                const QJsonObject w = v.toObject();
                const QJsonObject r = w.value(QLatin1String("rect")).toObject();
                rects.insert(w.value(QLatin1String("name")).toString(),
                             QRect(r.value(QLatin1String("x")).toInt(), r.value(QLatin1String("y")).toInt(),
                                   r.value(QLatin1String("w")).toInt(), r.value(QLatin1String("h")).toInt()));
            }
            return true;
        },
        15000);
    if (!ready || !rects.contains(QStringLiteral("subscribe"))) {
        out.note(QStringLiteral("local action skipped: the fixture app did not start on %1").arg(display));
        app.kill();
        app.waitForFinished(2000);
        return;
    }
    QList<Zone> zones;
    for (auto it = rects.cbegin(); it != rects.cend(); ++it) {
        Zone z;
        z.id = it.key();
        z.bounds = it.value();
        z.type = ZoneType::CheckBox;
        zones << z;
    }
    const QSize screen = probe.platform->screen().size();
    const auto map = std::make_shared<const ZoneMap>(1, 0, screen, zones);

    BrushSettings settings;
    settings.trajectory.speedPxPerS = 0; // --speed max: the pointer jumps
    settings.changeScope = ChangeScope::Target;
    settings.changeTimeoutMs = 1000;
    SessionClock clock;
    BrushController brush(platform::PlatformOptions{QStringLiteral("x11"), display}, settings, clock);
    brush.start();
    brush.onZoneMap(map);
    brush.onChanges(FrameDiff{}); // a change feed is connected
    qint64 clickNs = 0;
    QObject::connect(&brush, &BrushController::eventOccurred, &brush, [&](const SpatialEvent& e) {
        if (e.kind == SpatialEvent::Kind::ZoneClick)
            clickNs = e.tNs;
    });
    std::optional<ActionResult> result;
    QObject::connect(&brush, &BrushController::actionFinished, &brush,
                     [&](quint64, const ActionResult& r) { result = r; });

    const int rounds = context.iterations > 0 ? std::min(context.iterations, 200) : 40;
    QList<double> overheadMs;
    QList<double> totalMs;
    QList<double> reactionMs;
    int noChange = 0;
    const QStringList targets{QStringLiteral("subscribe"), QStringLiteral("remember")};
    for (int i = 0; i < rounds; ++i) {
        const QString target = targets.at(i % targets.size());
        // Park the pointer far away, let hover effects settle, then act.
        Action park;
        park.type = Action::Type::MouseMove;
        park.point = QPoint(screen.width() - 20, screen.height() - 20);
        result.reset();
        brush.executeAction(quint64(2 * i + 1), park);
        readLines([](const QJsonObject&) { return false; }, 120);
        RegionWatcher watcher(display, rects.value(target), clock, &brush);
        watcher.start();
        QThread::msleep(5);
        Action click;
        click.type = Action::Type::LeftClick;
        click.zoneId = target;
        result.reset();
        clickNs = 0;
        brush.executeAction(quint64(2 * i + 2), click);
        QDeadlineTimer deadline(3000);
        while (!result && !deadline.hasExpired())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
        watcher.stopping = true;
        watcher.wait();
        if (!result || !result->success) {
            out.note(
                QStringLiteral("click failed: %1").arg(result ? result->error : QStringLiteral("timeout")));
            continue;
        }
        overheadMs << double(clickNs - result->startNs) / 1e6;
        if (result->changeObserved) {
            totalMs << double(result->durationNs) / 1e6;
            reactionMs << double(result->startNs + result->durationNs - clickNs) / 1e6;
        } else {
            ++noChange;
        }
        readLines(
            [](const QJsonObject& o) {
                return o.value(QLatin1String("event")).toString() == QLatin1String("toggled");
            },
            1000);
    }
    app.write("quit\n");
    if (!app.waitForFinished(3000)) {
        app.kill();
        app.waitForFinished(2000);
    }
    const QJsonObject info{{QLatin1String("rounds"), rounds},
                           {QLatin1String("no_change_seen"), noChange},
                           {QLatin1String("speed"), QStringLiteral("max")},
                           {QLatin1String("display"), display}};
    if (!overheadMs.isEmpty()) {
        out.figure(QStringLiteral("local_action_move_verify_click_median"), median(overheadMs),
                   QStringLiteral("ms"), info);
        out.figure(QStringLiteral("local_action_move_verify_click_p95"), percentile(overheadMs, 95),
                   QStringLiteral("ms"), info);
    }
    if (!totalMs.isEmpty()) {
        out.figure(QStringLiteral("local_action_total_median"), median(totalMs), QStringLiteral("ms"), info);
        out.figure(QStringLiteral("local_action_total_p95"), percentile(totalMs, 95), QStringLiteral("ms"),
                   info);
        out.figure(QStringLiteral("local_action_click_to_change_median"), median(reactionMs),
                   QStringLiteral("ms"), info);
    }
}

} // namespace

int runBrushBenchmark(const Context& context, Reporter& out)
{
    registerMetaTypes();
    hitTest(context, out);
    enterLatency(context, out);
    localAction(context, out);
    return 0;
}

} // namespace ciu::bench

#include "bench_brush.moc"
