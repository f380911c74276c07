// bench capture: per-frame cost of capture + Tier 0 at the display's size (grab, diff, total), and CPU % of
// one core of the CaptureEngine running on its thread at 20 and 30 fps.
//
// Arguments (key=value after the name):
//   mode=all|frame|cpu|run   all (default): frame costs and CPU runs; run: one engine run (for scripts)
//   seconds=N                length of each CPU run (default 5)
//   fps=20,30                rates of the CPU runs (default 20,30)
//   idle=adaptive|fixed|both adaptive: idle rate when stable (default behaviour); fixed: always full rate
//   animate=none|window|fullscreen   start ffplay showing a moving test pattern: a 400x300 window or the
//                            whole screen (needs ffplay); default none
//   ring=SECONDS             ring length (default 5)

#include "bench/benchmark.h"
#include "core/capture/captureengine.h"
#include "core/capture/changedetector.h"
#include "core/model/workerthread.h"
#include "platform/platformfactory.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QPainter>
#include <QProcess>
#include <QThread>
#include <QTimer>

#include <memory>

namespace ciu::bench {
namespace {

struct CaptureArgs
{
    QString mode = QStringLiteral("all");
    int seconds = 5;
    QList<int> fps{20, 30};
    QString idle = QStringLiteral("both");
    QString animate = QStringLiteral("none");
    double ringSeconds = 5.0;
};

std::optional<CaptureArgs> parseArgs(const QStringList& args, QString* error)
{
    CaptureArgs a;
    for (const QString& arg : args) {
        const qsizetype eq = arg.indexOf(QLatin1Char('='));
        const QString key = eq < 0 ? arg : arg.left(eq);
        const QString value = eq < 0 ? QString() : arg.mid(eq + 1);
        bool ok = true;
        if (key == QLatin1String("mode")) {
            a.mode = value;
            ok = QStringList{QStringLiteral("all"), QStringLiteral("frame"), QStringLiteral("cpu"),
                             QStringLiteral("run")}
                     .contains(value);
        } else if (key == QLatin1String("seconds")) {
            a.seconds = value.toInt(&ok);
            ok = ok && a.seconds > 0 && a.seconds <= 3600;
        } else if (key == QLatin1String("fps")) {
            a.fps.clear();
            for (const QString& f : value.split(QLatin1Char(','))) {
                const int v = f.toInt(&ok);
                if (!ok || v < 15 || v > 30) {
                    ok = false;
                    break;
                }
                a.fps << v;
            }
        } else if (key == QLatin1String("idle")) {
            a.idle = value;
            ok = QStringList{QStringLiteral("adaptive"), QStringLiteral("fixed"), QStringLiteral("both")}
                     .contains(value);
        } else if (key == QLatin1String("animate")) {
            a.animate = value;
            ok = QStringList{QStringLiteral("none"), QStringLiteral("window"), QStringLiteral("fullscreen")}
                     .contains(value);
        } else if (key == QLatin1String("ring")) {
            a.ringSeconds = value.toDouble(&ok);
            ok = ok && a.ringSeconds > 0 && a.ringSeconds <= 600;
        } else {
            *error = QStringLiteral("unknown argument \"%1\" (mode=, seconds=, fps=, idle=, animate=, ring=)")
                         .arg(arg);
            return std::nullopt;
        }
        if (!ok) {
            *error = QStringLiteral("bad value in \"%1\"").arg(arg);
            return std::nullopt;
        }
    }
    return a;
}

// ffplay showing a moving test pattern on the display, stopped in the destructor.
class Animation
{
public:
    bool start(const QString& display, const QString& kind, QSize screen, QString* error)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), display);
        env.insert(QStringLiteral("SDL_AUDIODRIVER"), QStringLiteral("dummy"));
        m_process.setProcessEnvironment(env);
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        QStringList args{QStringLiteral("-loglevel"), QStringLiteral("error"), QStringLiteral("-an"),
                         QStringLiteral("-noborder"), QStringLiteral("-f"),    QStringLiteral("lavfi")};
        if (kind == QLatin1String("window")) {
            args << QStringLiteral("-i") << QStringLiteral("testsrc2=size=400x300:rate=30")
                 << QStringLiteral("-left") << QStringLiteral("100") << QStringLiteral("-top")
                 << QStringLiteral("100");
        } else {
            // A small source scaled to the whole screen: every pixel changes, ffplay stays cheap.
            args << QStringLiteral("-i") << QStringLiteral("testsrc2=size=480x270:rate=30")
                 << QStringLiteral("-left") << QStringLiteral("0") << QStringLiteral("-top")
                 << QStringLiteral("0") << QStringLiteral("-x") << QString::number(screen.width())
                 << QStringLiteral("-y") << QString::number(screen.height());
        }
        m_process.start(QStringLiteral("ffplay"), args);
        if (!m_process.waitForStarted(5000)) {
            *error = QStringLiteral("cannot start ffplay for the animation: %1").arg(m_process.errorString());
            return false;
        }
        QThread::msleep(1500); // the window maps and starts playing
        if (m_process.state() != QProcess::Running) {
            *error = QStringLiteral("ffplay exited at once (is the display %1 usable?)").arg(display);
            return false;
        }
        return true;
    }
    ~Animation()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(3000)) {
                m_process.kill();
                m_process.waitForFinished(3000);
            }
        }
    }

private:
    QProcess m_process;
};

Frame makeFrame(const QImage& image, quint64 index, QPoint origin = {})
{
    Frame f;
    f.index = index;
    f.tNs = qint64(index) * 33'000'000;
    f.image = image;
    f.origin = origin;
    return f;
}

int frameCosts(platform::Platform& p, const QJsonObject& info, int iterations, Reporter& out)
{
    platform::Screen& screen = p.screen();
    const QRect whole(QPoint(0, 0), screen.size());
    capture::ChangeDetector detector;
    QImage previous = screen.grab(whole);
    if (previous.isNull()) {
        out.note(QStringLiteral("grab failed: %1").arg(screen.errorString()));
        return 1;
    }
    quint64 index = 0;
    detector.process(makeFrame(previous, ++index));

    // 1. No damage (fallback path): full grab, full comparison of the whole frame.
    QList<double> grabMs, diffMs, totalMs;
    for (int i = 0; i < iterations + 5; ++i) {
        QElapsedTimer t;
        t.start();
        const QImage image = screen.grab(whole);
        const double g = double(t.nsecsElapsed()) / 1e6;
        detector.process(makeFrame(image, ++index));
        const double all = double(t.nsecsElapsed()) / 1e6;
        if (image.isNull()) {
            out.note(QStringLiteral("grab failed: %1").arg(screen.errorString()));
            return 1;
        }
        if (i >= 5) {
            grabMs << g;
            diffMs << all - g;
            totalMs << all;
        }
    }
    out.figure(QStringLiteral("full_grab_ms"), median(grabMs), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("full_diff_ms"), median(diffMs), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("full_total_ms"), median(totalMs), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("full_total_p95_ms"), percentile(totalMs, 95), QStringLiteral("ms"), info);

    // 2. Damage of 400x300: copy of the previous frame + grab of the damaged area, and a Tier 0 pass over
    // the damaged tiles that finds every pixel changed (alternating two versions of the area).
    const QRect area(whole.width() / 4, whole.height() / 4, 400, 300);
    const QRegion damage(area);
    QImage base = screen.grab(whole);
    QImage changed = base.copy();
    {
        QPainter painter(&changed);
        painter.setCompositionMode(QPainter::RasterOp_SourceXorDestination);
        painter.fillRect(area, Qt::white);
    }
    detector.reset();
    detector.process(makeFrame(base, ++index));
    grabMs.clear();
    diffMs.clear();
    totalMs.clear();
    for (int i = 0; i < iterations + 5; ++i) {
        QElapsedTimer t;
        t.start();
        QImage patched = previous.copy();
        if (!screen.grabInto(patched, QPoint(0, 0), area)) {
            out.note(QStringLiteral("grabInto failed: %1").arg(screen.errorString()));
            return 1;
        }
        const double g = double(t.nsecsElapsed()) / 1e6;
        t.restart();
        const auto r = detector.process(makeFrame(i % 2 ? base : changed, ++index), {}, &damage);
        const double d = double(t.nsecsElapsed()) / 1e6;
        if (r.changedPixels != qint64(area.width()) * area.height()) {
            out.note(QStringLiteral("unexpected diff result: %1 changed pixels").arg(r.changedPixels));
            return 1;
        }
        if (i >= 5) {
            grabMs << g;
            diffMs << d;
            totalMs << g + d;
        }
    }
    out.figure(QStringLiteral("damage400x300_grab_ms"), median(grabMs), QStringLiteral("ms"), info);
    // The engine's usual case: a recycled buffer (nobody holds it any more), so only the area is grabbed.
    QList<double> recycledMs;
    QImage spare = previous.copy();
    for (int i = 0; i < iterations + 5; ++i) {
        QElapsedTimer t;
        t.start();
        if (!screen.grabInto(spare, QPoint(0, 0), area)) {
            out.note(QStringLiteral("grabInto failed: %1").arg(screen.errorString()));
            return 1;
        }
        if (i >= 5)
            recycledMs << double(t.nsecsElapsed()) / 1e6;
    }
    out.figure(QStringLiteral("damage400x300_recycled_grab_ms"), median(recycledMs), QStringLiteral("ms"),
               info);
    out.figure(QStringLiteral("damage400x300_recycled_total_ms"), median(recycledMs) + median(diffMs),
               QStringLiteral("ms"), info);
    out.figure(QStringLiteral("damage400x300_diff_ms"), median(diffMs), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("damage400x300_total_ms"), median(totalMs), QStringLiteral("ms"), info);

    // 3. Static screen with damage: ask the server, nothing damaged, no grab; Tier 0 on the shared image.
    if (screen.damageSupported()) {
        totalMs.clear();
        screen.takeDamage();
        for (int i = 0; i < iterations + 5; ++i) {
            QElapsedTimer t;
            t.start();
            const QRegion d = screen.takeDamage();
            const QImage image = d.isEmpty() ? base : screen.grab(whole);
            detector.process(makeFrame(image, ++index), {}, &d);
            if (i >= 5)
                totalMs << double(t.nsecsElapsed()) / 1e6;
        }
        out.figure(QStringLiteral("static_damage_total_ms"), median(totalMs), QStringLiteral("ms"), info);
    }

    // Cursor sample (position + sprite + shape name).
    QList<double> cursorMs;
    for (int i = 0; i < iterations; ++i) {
        QElapsedTimer t;
        t.start();
        if (!p.pointer().cursor())
            break;
        cursorMs << double(t.nsecsElapsed()) / 1e6;
    }
    out.figure(QStringLiteral("cursor_sample_ms"), median(cursorMs), QStringLiteral("ms"), info);
    return 0;
}

struct RunResult
{
    bool ok = false;
    double cpuPercent = 0;
    double seconds = 0;
    CaptureStats last;
    double grabMs = 0, diffMs = 0, totalMs = 0; // frame-weighted means over the run
    qint64 maxRingBytes = 0;
};

RunResult engineRun(const Context& context, const CaptureArgs& args, int fps, bool adaptive, Reporter& out)
{
    CaptureEngine::Options options;
    options.backend = context.platform;
    options.display = context.display;
    options.settings.fps = fps;
    options.settings.idleFps = adaptive ? 5 : fps;
    options.settings.ringSeconds = args.ringSeconds;
    auto* engine = new CaptureEngine(options);
    QObject receiver;
    RunResult result;
    double grabSum = 0, diffSum = 0, totalSum = 0, frames = 0;
    bool failed = false;
    QObject::connect(engine, &CaptureEngine::statsUpdated, &receiver, [&](const CaptureStats& s) {
        const double n = s.fps; // frames of the period (about one second)
        grabSum += s.grabMs * n;
        diffSum += s.diffMs * n;
        totalSum += s.totalMs * n;
        frames += n;
        result.last = s;
        result.maxRingBytes = std::max(result.maxRingBytes, s.ringBytes);
    });
    QObject::connect(engine, &CaptureEngine::errorOccurred, &receiver, [&](const QString& e) {
        out.note(e);
        failed = true;
    });
    QEventLoop loop;
    QObject::connect(engine, &CaptureEngine::stopped, &loop, &QEventLoop::quit);
    WorkerThread thread = startWorkerThread(engine, QStringLiteral("capture"));
    const double cpu0 = processCpuSeconds();
    QElapsedTimer wall;
    wall.start();
    QMetaObject::invokeMethod(engine, &CaptureEngine::start, Qt::QueuedConnection);
    QTimer::singleShot(args.seconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    const double cpu1 = processCpuSeconds();
    result.seconds = double(wall.nsecsElapsed()) / 1e9;
    QMetaObject::invokeMethod(engine, &CaptureEngine::stop, Qt::QueuedConnection);
    thread.reset();
    result.cpuPercent = (cpu1 - cpu0) / result.seconds * 100.0;
    if (frames > 0) {
        result.grabMs = grabSum / frames;
        result.diffMs = diffSum / frames;
        result.totalMs = totalSum / frames;
    }
    result.ok = !failed;
    return result;
}

} // namespace

int runCaptureBenchmark(const Context& context, Reporter& out)
{
    QString error;
    const auto args = parseArgs(context.args, &error);
    if (!args) {
        out.note(error);
        return 2;
    }
    auto opened = platform::createPlatform({context.platform, context.display});
    if (!opened.platform) {
        out.note(opened.error);
        return 3;
    }
    platform::Platform& p = *opened.platform;
    const QSize size = p.screen().size();
    const QString display = p.displayName();

    std::unique_ptr<Animation> animation;
    if (args->animate != QLatin1String("none")) {
        animation = std::make_unique<Animation>();
        if (!animation->start(display, args->animate, size, &error)) {
            out.note(error);
            return 3;
        }
    }
    const QJsonObject info{{QLatin1String("width"), size.width()},
                           {QLatin1String("height"), size.height()},
                           {QLatin1String("backend"), p.backendName()},
                           {QLatin1String("damage"), p.screen().damageSupported()},
                           {QLatin1String("animate"), args->animate}};

    if (args->mode == QLatin1String("all") || args->mode == QLatin1String("frame")) {
        const int iterations = context.iterations > 0 ? context.iterations : 100;
        if (const int code = frameCosts(p, info, iterations, out); code != 0)
            return code;
    }
    // The engine opens its own connection; this one stays open so the server does not reset in between
    // (an X server without -noreset regenerates when its last client leaves).

    QList<bool> modes;
    if (args->idle != QLatin1String("fixed"))
        modes << true;
    if (args->idle != QLatin1String("adaptive"))
        modes << false;
    if (args->mode == QLatin1String("run")) {
        modes = {args->idle != QLatin1String("fixed")};
        const int fps = args->fps.first();
        const RunResult r = engineRun(context, *args, fps, modes.first(), out);
        QJsonObject extra = info;
        extra[QLatin1String("fps")] = fps;
        extra[QLatin1String("adaptive")] = modes.first();
        extra[QLatin1String("seconds")] = r.seconds;
        extra[QLatin1String("ring_seconds")] = args->ringSeconds;
        out.figure(QStringLiteral("cpu_percent"), r.cpuPercent, QStringLiteral("%"), extra);
        out.figure(QStringLiteral("peak_rss"), peakRssMiB(), QStringLiteral("MiB"), extra);
        out.figure(QStringLiteral("ring_peak"), double(r.maxRingBytes) / double(1 << 20),
                   QStringLiteral("MiB"), extra);
        out.figure(QStringLiteral("frames"), double(r.last.frames), QStringLiteral("frames"), extra);
        out.figure(QStringLiteral("late_frames"), double(r.last.lateFrames), QStringLiteral("frames"), extra);
        return r.ok ? 0 : 1;
    }
    if (args->mode == QLatin1String("frame"))
        return 0;

    for (const int fps : args->fps) {
        for (const bool adaptive : modes) {
            const RunResult r = engineRun(context, *args, fps, adaptive, out);
            if (!r.ok)
                return 1;
            QJsonObject extra = info;
            extra[QLatin1String("fps")] = fps;
            extra[QLatin1String("adaptive")] = adaptive;
            extra[QLatin1String("seconds")] = r.seconds;
            out.figure(QStringLiteral("cpu_percent"), r.cpuPercent, QStringLiteral("%"), extra);
            out.figure(QStringLiteral("engine_grab_ms"), r.grabMs, QStringLiteral("ms"), extra);
            out.figure(QStringLiteral("engine_diff_ms"), r.diffMs, QStringLiteral("ms"), extra);
            out.figure(QStringLiteral("engine_total_ms"), r.totalMs, QStringLiteral("ms"), extra);
            extra[QLatin1String("frames")] = double(r.last.frames);
            extra[QLatin1String("full_grabs")] = double(r.last.fullGrabs);
            extra[QLatin1String("damage_grabs")] = double(r.last.damageGrabs);
            extra[QLatin1String("skipped_grabs")] = double(r.last.skippedGrabs);
            out.figure(QStringLiteral("late_frames"), double(r.last.lateFrames), QStringLiteral("frames"),
                       extra);
        }
    }
    out.figure(QStringLiteral("peak_rss"), peakRssMiB(), QStringLiteral("MiB"), info);
    return 0;
}

} // namespace ciu::bench
