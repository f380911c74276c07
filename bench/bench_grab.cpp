// bench grab: ms per full-screen grab and per 300x40 region grab through the platform layer.

#include "bench/benchmark.h"
#include "platform/platformfactory.h"

#include <QElapsedTimer>

namespace ciu::bench {

int runGrabBenchmark(const Context& context, Reporter& out)
{
    auto opened = platform::createPlatform({context.platform, context.display});
    if (!opened.platform) {
        out.note(opened.error);
        return 3;
    }
    platform::Platform& p = *opened.platform;
    const QSize size = p.screen().size();
    const int iterations = context.iterations > 0 ? context.iterations : 200;
    const QJsonObject info{
        {QLatin1String("width"), size.width()},
        {QLatin1String("height"), size.height()},
        {QLatin1String("backend"), p.backendName()},
        {QLatin1String("shm"), bool(p.capabilities() & platform::Capability::SharedMemoryGrab)},
        {QLatin1String("iterations"), iterations}};

    auto measure = [&](const QRect& region, bool into) {
        QList<double> ms;
        QImage target(size, QImage::Format_RGB32);
        for (int i = 0; i < iterations + 5; ++i) {
            QElapsedTimer timer;
            timer.start();
            const bool ok = into ? p.screen().grabInto(target, QPoint(0, 0),
                                                       region.isNull() ? QRect(QPoint(0, 0), size) : region)
                                 : !p.screen().grab(region).isNull();
            const double elapsed = double(timer.nsecsElapsed()) / 1e6;
            if (!ok) {
                out.note(QStringLiteral("grab failed: %1").arg(p.screen().errorString()));
                return QList<double>{};
            }
            if (i >= 5) // warm-up
                ms << elapsed;
        }
        return ms;
    };

    const QList<double> full = measure({}, false);
    const QList<double> fullInto = measure({}, true);
    const QRect region(size.width() / 3, size.height() / 3, 300, 40);
    const QList<double> small = measure(region, false);
    if (full.isEmpty() || fullInto.isEmpty() || small.isEmpty())
        return 1;
    out.figure(QStringLiteral("full_grab_median"), median(full), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("full_grab_p95"), percentile(full, 95), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("full_grab_into_median"), median(fullInto), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("region_300x40_grab_median"), median(small), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("region_300x40_grab_p95"), percentile(small, 95), QStringLiteral("ms"), info);
    return 0;
}

} // namespace ciu::bench
