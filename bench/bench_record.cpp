// bench record: CPU and disk of recording the display through the real pipeline (CaptureEngine on its
//               "capture" thread -> SessionWriter on its "recorder" thread: damage-driven grabs, H.264,
//               JSONL) at 30 fps.
// bench seek:   time of a random seek in a synthetic 10-minute 1080p session video encoded like the recorder.
//
// Both take the recorder's encoder settings as KEY=VALUE arguments, to measure the disk/CPU/seek trade-off:
//   keyint=MS (key frame interval), crf=N, preset=NAME, tune=NAME|none, fps=N (record only).

#include "bench/benchmark.h"
#include "core/capture/captureengine.h"
#include "core/model/metatypes.h"
#include "core/model/workerthread.h"
#include "core/replay/sessionretention.h"
#include "core/replay/sessionwriter.h"
#include "core/replay/videodecoder.h"
#include "core/replay/videoencoder.h"

#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFileInfo>
#include <QPainter>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <memory>

namespace ciu::bench {
namespace {

struct EncoderArgs
{
    replay::SessionWriterOptions defaults; // the recorder's defaults
    int keyFrameIntervalMs = defaults.keyFrameIntervalMs;
    int crf = defaults.crf;
    QString preset = defaults.preset;
    QString tune = defaults.tune;
    int fps = 30;
    QStringList positional;
    QString error;

    QJsonObject toJson() const
    {
        return {{QLatin1String("keyint_ms"), keyFrameIntervalMs},
                {QLatin1String("crf"), crf},
                {QLatin1String("preset"), preset},
                {QLatin1String("tune"), tune.isEmpty() ? QStringLiteral("none") : tune}};
    }
};

EncoderArgs parseEncoderArgs(const QStringList& args)
{
    EncoderArgs e;
    for (const QString& arg : args) {
        const qsizetype eq = arg.indexOf(QLatin1Char('='));
        if (eq < 0) {
            e.positional << arg;
            continue;
        }
        const QString key = arg.left(eq);
        const QString value = arg.mid(eq + 1);
        bool ok = true;
        if (key == QLatin1String("keyint"))
            e.keyFrameIntervalMs = value.toInt(&ok);
        else if (key == QLatin1String("crf"))
            e.crf = value.toInt(&ok);
        else if (key == QLatin1String("fps"))
            e.fps = value.toInt(&ok);
        else if (key == QLatin1String("preset"))
            e.preset = value;
        else if (key == QLatin1String("tune"))
            e.tune = value == QLatin1String("none") ? QString() : value;
        else
            ok = false;
        if (!ok || e.keyFrameIntervalMs < 100 || e.crf < 0 || e.crf > 51 || e.fps < 15 || e.fps > 30)
            e.error = QStringLiteral("bad argument %1").arg(arg);
    }
    return e;
}

QString seekSpec(const EncoderArgs& e)
{
    return QStringLiteral("k%1_c%2_%3_%4")
        .arg(e.keyFrameIntervalMs)
        .arg(e.crf)
        .arg(e.preset, e.tune.isEmpty() ? QStringLiteral("none") : e.tune);
}

} // namespace

int runRecordBenchmark(const Context& context, Reporter& out)
{
    registerMetaTypes();
    const EncoderArgs enc = parseEncoderArgs(context.args);
    bool ok = true;
    const int seconds = enc.positional.isEmpty() ? 10 : enc.positional.first().toInt(&ok);
    if (!enc.error.isEmpty() || !ok || seconds < 1 || seconds > 3600) {
        out.note(QStringLiteral("usage: bench record [SECONDS] [keyint=MS] [crf=N] [preset=P] [tune=T|none] "
                                "[fps=15..30] (SECONDS 1..3600, default 10)"));
        return 2;
    }
    QTemporaryDir root;
    auto clock = std::make_shared<const SessionClock>();

    // The engine's capture settings at full rate (no idle slowdown: ffmpeg records 30 fps throughout).
    CaptureEngine::Options captureOptions;
    captureOptions.backend = context.platform;
    captureOptions.display = context.display;
    captureOptions.clock = clock;
    captureOptions.settings.fps = enc.fps;
    captureOptions.settings.idleFps = enc.fps;
    auto* capture = new CaptureEngine(captureOptions);

    replay::SessionWriterOptions writerOptions;
    writerOptions.rootDir = root.path();
    writerOptions.clock = *clock;
    writerOptions.task = QStringLiteral("bench record");
    writerOptions.retention = {};
    writerOptions.maxFps = enc.fps;
    writerOptions.keyFrameIntervalMs = enc.keyFrameIntervalMs;
    writerOptions.crf = enc.crf;
    writerOptions.preset = enc.preset;
    writerOptions.tune = enc.tune;
    auto* writer = new replay::SessionWriter(writerOptions);

    QEventLoop loop;
    QString error;
    QRect target;
    CaptureStats captureStats;
    // Wired like Engine::start() wires capture to the recorder.
    QObject::connect(capture, &CaptureEngine::frameCaptured, writer, &replay::SessionWriter::onFrame,
                     Qt::QueuedConnection);
    QObject::connect(capture, &CaptureEngine::cursorSampled, writer, &replay::SessionWriter::onCursor,
                     Qt::QueuedConnection);
    QObject::connect(capture, &CaptureEngine::errorOccurred, &loop, [&](const QString& e) {
        error = e;
        loop.quit();
    });
    QObject::connect(capture, &CaptureEngine::statsUpdated, &loop,
                     [&](const CaptureStats& stats) { captureStats = stats; });
    QObject::connect(writer, &replay::SessionWriter::recordingFailed, &loop, [&](const QString& e) {
        error = e;
        loop.quit();
    });
    QObject::connect(capture, &CaptureEngine::started, &loop, [&](QRect rect) { target = rect; });

    WorkerThread recorderThread = startWorkerThread(writer, QStringLiteral("recorder"));
    QMetaObject::invokeMethod(writer, &replay::SessionWriter::start, Qt::BlockingQueuedConnection);
    const double cpuStart = processCpuSeconds();
    QElapsedTimer wall;
    wall.start();
    WorkerThread captureThread = startWorkerThread(capture, QStringLiteral("capture"));
    QMetaObject::invokeMethod(capture, &CaptureEngine::start, Qt::QueuedConnection);
    QTimer::singleShot(seconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    QMetaObject::invokeMethod(capture, &CaptureEngine::stop, Qt::BlockingQueuedConnection);
    captureThread.reset(); // no frame arrives after this
    QMetaObject::invokeMethod(writer, &replay::SessionWriter::stop, Qt::BlockingQueuedConnection);
    const double cpu = processCpuSeconds() - cpuStart;
    const double wallSeconds = double(wall.nsecsElapsed()) / 1e9;
    if (!error.isEmpty()) {
        out.note(error);
        return error.contains(QStringLiteral("display")) || error.contains(QStringLiteral("X11")) ? 3 : 1;
    }
    const replay::RecordingStats stats = writer->stats();
    const qint64 bytes = replay::folderSizeBytes(writer->sessionPath());
    QJsonObject info = enc.toJson();
    info.insert(QLatin1String("width"), target.width());
    info.insert(QLatin1String("height"), target.height());
    info.insert(QLatin1String("seconds"), wallSeconds);
    info.insert(QLatin1String("frames_captured"), double(captureStats.frames));
    info.insert(QLatin1String("frames_received"), double(stats.framesReceived));
    info.insert(QLatin1String("frames_unchanged"), double(stats.framesUnchanged));
    info.insert(QLatin1String("frames_encoded"), double(stats.framesEncoded));
    info.insert(QLatin1String("frames_dropped"), double(stats.framesDropped));
    info.insert(QLatin1String("frames_late"), double(captureStats.lateFrames));
    out.figure(QStringLiteral("cpu_seconds"), cpu, QStringLiteral("s"), info);
    out.figure(QStringLiteral("cpu_percent"), 100.0 * cpu / wallSeconds, QStringLiteral("%"), info);
    out.figure(QStringLiteral("encoded_fps"), double(stats.framesEncoded) / wallSeconds,
               QStringLiteral("fps"), info);
    out.figure(QStringLiteral("dropped_frames"), double(stats.framesDropped), QStringLiteral("frames"), info);
    out.figure(QStringLiteral("disk_per_minute"), double(bytes) / (1024.0 * 1024.0) * 60.0 / wallSeconds,
               QStringLiteral("MiB/min"), info);
    recorderThread.reset();
    return 0;
}

int runSeekBenchmark(const Context& context, Reporter& out)
{
    const EncoderArgs enc = parseEncoderArgs(context.args);
    bool ok = true;
    const int minutes = enc.positional.isEmpty() ? 10 : enc.positional.first().toInt(&ok);
    if (!enc.error.isEmpty() || !ok || minutes < 1 || minutes > 120) {
        out.note(QStringLiteral("usage: bench seek [MINUTES] [keyint=MS] [crf=N] [preset=P] [tune=T|none] "
                                "(MINUTES 1..120, default 10)"));
        return 2;
    }
    const int seeks = context.iterations > 0 ? context.iterations : 50;
    const QSize size(1920, 1080);
    // The synthetic video takes minutes to encode on a small machine: it is kept in the cache for later runs.
    const QString cacheDir =
        QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/bench");
    QDir().mkpath(cacheDir);
    const QString path = cacheDir + QStringLiteral("/seek_%1min_%2_v2.mp4").arg(minutes).arg(seekSpec(enc));
    const QString partial = path + QStringLiteral(".part");
    const bool cached = QFileInfo::exists(path);
    const int frames = cached ? 0 : minutes * 60 * 30;
    QElapsedTimer encodeTimer;
    encodeTimer.start();
    if (!cached) {
        // A synthetic desktop: a static background with a moving window and a ticking counter, 30 fps,
        // encoded exactly like the recorder does (its encoder settings, fragmented MP4).
        QImage background(size, QImage::Format_RGB32);
        {
            QPainter p(&background);
            QLinearGradient g(0, 0, size.width(), size.height());
            g.setColorAt(0, QColor(30, 50, 80));
            g.setColorAt(1, QColor(180, 190, 210));
            p.fillRect(background.rect(), g);
            p.setPen(Qt::white);
            for (int y = 40; y < size.height(); y += 40)
                p.drawText(20, y, QStringLiteral("The quick brown fox jumps over the lazy dog %1").arg(y));
        }
        replay::VideoEncoder encoder;
        replay::VideoEncoder::Options o;
        o.size = size;
        o.keyFrameIntervalMs = enc.keyFrameIntervalMs;
        o.crf = enc.crf;
        o.preset = enc.preset;
        o.tune = enc.tune;
        if (!encoder.open(partial, o)) {
            out.note(encoder.errorString());
            return 1;
        }
        out.note(
            QStringLiteral("encoding a %1-minute 1080p video (30 fps) into %2...").arg(minutes).arg(path));
        for (int n = 0; n < frames; ++n) {
            QImage frame = background;
            {
                QPainter p(&frame);
                const QRect window(200 + (n * 7) % 1200, 200 + (n * 3) % 500, 480, 320);
                p.fillRect(window, QColor(240, 240, 240));
                p.setPen(Qt::black);
                p.drawText(window.adjusted(10, 10, -10, -10), QStringLiteral("frame %1").arg(n));
            }
            if (!encoder.encode(frame, qint64(n) * 1000 / 30)) {
                out.note(encoder.errorString());
                return 1;
            }
        }
        if (!encoder.finish() || !QFile::rename(partial, path)) {
            out.note(QStringLiteral("cannot write %1").arg(path));
            return 1;
        }
    } else {
        out.note(QStringLiteral("using %1").arg(path));
    }
    const double encodeSeconds = double(encodeTimer.nsecsElapsed()) / 1e9;
    QJsonObject info = enc.toJson();
    info.insert(QLatin1String("minutes"), minutes);
    info.insert(QLatin1String("width"), size.width());
    info.insert(QLatin1String("height"), size.height());
    info.insert(QLatin1String("file_mib"), double(QFileInfo(path).size()) / (1024.0 * 1024.0));
    info.insert(QLatin1String("seeks"), seeks);
    if (!cached)
        out.figure(QStringLiteral("synthetic_encode_fps"), frames / encodeSeconds, QStringLiteral("fps"),
                   info);

    QElapsedTimer timer;
    timer.start();
    replay::VideoDecoder decoder;
    if (!decoder.open(path)) {
        out.note(decoder.errorString());
        return 1;
    }
    out.figure(QStringLiteral("open_ms"), double(timer.nsecsElapsed()) / 1e6, QStringLiteral("ms"), info);
    QRandomGenerator random(42);
    const qint64 durationMs = qint64(minutes) * 60 * 1000;
    QList<double> ms;
    QList<double> cpuMs; // CPU time of each seek (this process): its cost without the machine's other load
    for (int i = 0; i < seeks; ++i) {
        const qint64 t = random.bounded(durationMs);
        const double cpuBefore = processCpuSeconds();
        timer.restart();
        qint64 pts = 0;
        const QImage image = decoder.frameAt(t, &pts);
        ms << double(timer.nsecsElapsed()) / 1e6;
        cpuMs << (processCpuSeconds() - cpuBefore) * 1000.0;
        if (image.isNull() || pts > t) {
            out.note(QStringLiteral("seek to %1 ms failed").arg(t));
            return 1;
        }
    }
    out.figure(QStringLiteral("seek_median"), median(ms), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("seek_p95"), percentile(ms, 95), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("seek_max"), *std::max_element(ms.cbegin(), ms.cend()), QStringLiteral("ms"),
               info);
    out.figure(QStringLiteral("seek_cpu_median"), median(cpuMs), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("seek_cpu_p95"), percentile(cpuMs, 95), QStringLiteral("ms"), info);
    return 0;
}

} // namespace ciu::bench
