// bench record: CPU and disk of recording the display (grab + H.264 encode + JSONL) at 30 fps.
// bench seek:   time of a random seek in a synthetic 10-minute 1080p session video.

#include "bench/benchmark.h"
#include "core/model/metatypes.h"
#include "core/replay/grabfeed.h"
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

int runRecordBenchmark(const Context& context, Reporter& out)
{
    registerMetaTypes();
    bool ok = true;
    const int seconds = context.args.isEmpty() ? 10 : context.args.first().toInt(&ok);
    if (!ok || seconds < 1 || seconds > 3600) {
        out.note(QStringLiteral("usage: bench record [SECONDS] (1..3600, default 10)"));
        return 2;
    }
    QTemporaryDir root;
    SessionClock clock;

    replay::GrabFeed::Options feedOptions;
    feedOptions.platform = {context.platform, context.display};
    feedOptions.clock = clock;
    feedOptions.frameIntervalMs = 33;
    auto* feed = new replay::GrabFeed(feedOptions);
    replay::SessionWriterOptions writerOptions;
    writerOptions.rootDir = root.path();
    writerOptions.clock = clock;
    writerOptions.task = QStringLiteral("bench record");
    writerOptions.retention = {};
    auto* writer = new replay::SessionWriter(writerOptions);

    ThreadPtr captureThread = startThread("capture");
    ThreadPtr recorderThread = startThread("recorder");
    feed->moveToThread(captureThread.get());
    writer->moveToThread(recorderThread.get());
    QObject::connect(captureThread.get(), &QThread::finished, feed, &QObject::deleteLater);
    QObject::connect(recorderThread.get(), &QThread::finished, writer, &QObject::deleteLater);
    QObject::connect(feed, &replay::GrabFeed::frameCaptured, writer, &replay::SessionWriter::onFrame);
    QObject::connect(feed, &replay::GrabFeed::cursorSampled, writer, &replay::SessionWriter::onCursor);

    QEventLoop loop;
    QString error;
    QSize screen;
    QObject::connect(feed, &replay::GrabFeed::failed, &loop, [&](const QString& e) {
        error = e;
        loop.quit();
    });
    QObject::connect(writer, &replay::SessionWriter::recordingFailed, &loop, [&](const QString& e) {
        error = e;
        loop.quit();
    });
    QObject::connect(feed, &replay::GrabFeed::started, &loop, [&](QSize size) { screen = size; });

    QMetaObject::invokeMethod(writer, &replay::SessionWriter::start, Qt::BlockingQueuedConnection);
    const double cpuStart = processCpuSeconds();
    QElapsedTimer wall;
    wall.start();
    QMetaObject::invokeMethod(feed, &replay::GrabFeed::start, Qt::QueuedConnection);
    QTimer::singleShot(seconds * 1000, &loop, &QEventLoop::quit);
    loop.exec();
    QMetaObject::invokeMethod(feed, &replay::GrabFeed::stop, Qt::BlockingQueuedConnection);
    QMetaObject::invokeMethod(writer, &replay::SessionWriter::stop, Qt::BlockingQueuedConnection);
    const double cpu = processCpuSeconds() - cpuStart;
    const double wallSeconds = double(wall.nsecsElapsed()) / 1e9;
    if (!error.isEmpty()) {
        out.note(error);
        return error.contains(QStringLiteral("display")) || error.contains(QStringLiteral("X11")) ? 3 : 1;
    }
    const replay::RecordingStats stats = writer->stats();
    const qint64 bytes = replay::folderSizeBytes(writer->sessionPath());
    const QJsonObject info{{QLatin1String("width"), screen.width()},
                           {QLatin1String("height"), screen.height()},
                           {QLatin1String("seconds"), wallSeconds},
                           {QLatin1String("frames_grabbed"), double(feed->framesGrabbed())},
                           {QLatin1String("frames_encoded"), double(stats.framesEncoded)},
                           {QLatin1String("frames_dropped"), double(stats.framesDropped)},
                           {QLatin1String("frames_late"), double(feed->lateFrames())}};
    out.figure(QStringLiteral("cpu_seconds"), cpu, QStringLiteral("s"), info);
    out.figure(QStringLiteral("cpu_percent"), 100.0 * cpu / wallSeconds, QStringLiteral("%"), info);
    out.figure(QStringLiteral("encoded_fps"), double(stats.framesEncoded) / wallSeconds,
               QStringLiteral("fps"), info);
    out.figure(QStringLiteral("dropped_frames"), double(stats.framesDropped), QStringLiteral("frames"), info);
    out.figure(QStringLiteral("disk_per_minute"), double(bytes) / (1024.0 * 1024.0) * 60.0 / wallSeconds,
               QStringLiteral("MiB/min"), info);
    return 0;
}

int runSeekBenchmark(const Context& context, Reporter& out)
{
    bool ok = true;
    const int minutes = context.args.isEmpty() ? 10 : context.args.first().toInt(&ok);
    if (!ok || minutes < 1 || minutes > 120) {
        out.note(QStringLiteral("usage: bench seek [MINUTES] (1..120, default 10)"));
        return 2;
    }
    const int seeks = context.iterations > 0 ? context.iterations : 50;
    const QSize size(1920, 1080);
    // The synthetic video takes minutes to encode on a small machine: it is kept in the cache for later runs.
    const QString cacheDir =
        QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/bench");
    QDir().mkpath(cacheDir);
    const QString path = cacheDir + QStringLiteral("/seek_%1min_v1.mp4").arg(minutes);
    const QString partial = path + QStringLiteral(".part");
    const bool cached = QFileInfo::exists(path);
    const int frames = cached ? 0 : minutes * 60 * 30;
    QElapsedTimer encodeTimer;
    encodeTimer.start();
    if (!cached) {
        // A synthetic desktop: a static background with a moving window and a ticking counter, 30 fps,
        // encoded exactly like the recorder does (ultrafast, zerolatency, key frame every second, fragmented
        // MP4).
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
    const QJsonObject info{{QLatin1String("minutes"), minutes},
                           {QLatin1String("width"), size.width()},
                           {QLatin1String("height"), size.height()},
                           {QLatin1String("file_mib"), double(QFileInfo(path).size()) / (1024.0 * 1024.0)},
                           {QLatin1String("seeks"), seeks}};
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
