// bench zonememory: time to a usable zone map of the display's windows for a window the agent has never seen
// (the first frame's full analysis) and for a remembered one (zone memory: the remembered zones,
// pixel-checked, published at once; a recall confirmed well spares the window the full analysis, only the
// rest of the screen and what differs are analysed). A "usable" map is the first one the canvas mapper
// publishes with interactive zones in the target window; "full_analysis" is the time until the first frame
// is done (whatever analysis it took). Run it on the fixture app under Xvfb:
//   bench/bench_zonememory.sh BUILD_DIR
// (or `ciu-agent bench zonememory --display :N` on a display of your own).

#include "bench/benchmark.h"
#include "core/canvas/canvasmapper.h"
#include "core/canvas/ocrengine.h"
#include "core/knowledge/zonememory.h"
#include "platform/platformfactory.h"

#include <QElapsedTimer>
#include <QTemporaryDir>

namespace ciu::bench {
namespace {

struct Timing
{
    double usableMs = -1; // first published map with interactive zones in the window
    double fullMs = 0;    // onFrame returned: the full analysis done
    int usableZones = 0;
    int recalled = 0;
    int spared = 0; // windows whose full analysis the memory spared
};

Timing mapOnce(const Context& context, const QString& memoryDir, const Frame& frame, const QRect& window)
{
    Timing t;
    canvas::CanvasMapper mapper;
    auto own = platform::createPlatform({context.platform, context.display});
    if (!own.platform)
        return t;
    mapper.setPlatform(std::move(own.platform));
    mapper.setZoneMemory(std::make_unique<ZoneMemory>(memoryDir));
    QElapsedTimer timer;
    QObject::connect(&mapper, &canvas::CanvasMapper::zoneMapUpdated, &mapper, [&](const ZoneMapPtr& map) {
        if (t.usableMs >= 0)
            return;
        int n = 0;
        for (const Zone& z : map->zones())
            n += z.isInteractive() && window.contains(z.bounds.center()) ? 1 : 0;
        if (n > 0) {
            t.usableMs = double(timer.nsecsElapsed()) / 1e6;
            t.usableZones = n;
        }
    });
    timer.start();
    mapper.onFrame(frame);
    t.fullMs = double(timer.nsecsElapsed()) / 1e6;
    t.recalled = mapper.memoryStats().zonesRecalled;
    t.spared = mapper.memoryStats().spared;
    return t;
}

} // namespace

int runZoneMemoryBenchmark(const Context& context, Reporter& out)
{
    auto opened = platform::createPlatform({context.platform, context.display});
    if (!opened.platform) {
        out.note(opened.error);
        return 3;
    }
    // The largest managed window with a class: the program being mapped.
    QRect window;
    QString program;
    for (const platform::WindowInfo& w : opened.platform->windows().topLevelWindows()) {
        if (!w.windowClass.isEmpty() &&
            qint64(w.geometry.width()) * w.geometry.height() > qint64(window.width()) * window.height()) {
            window = w.geometry;
            program = w.windowClass;
        }
    }
    if (window.isEmpty()) {
        out.note(
            QStringLiteral("no managed window with a WM_CLASS on %1").arg(opened.platform->displayName()));
        return 1;
    }
    Frame frame;
    frame.index = 1;
    frame.tNs = 1;
    frame.image = opened.platform->screen().grab();
    if (frame.image.isNull()) {
        out.note(QStringLiteral("grab failed: %1").arg(opened.platform->screen().errorString()));
        return 1;
    }
    canvas::OcrEngine::limitThreads();
    const int iterations = context.iterations > 0 ? context.iterations : 3;
    QList<double> newUsable, newFull, knownUsable, knownFull;
    int zonesNew = 0;
    int zonesKnown = 0;
    int recalled = 0;
    int spared = 0;
    for (int i = 0; i < iterations; ++i) {
        QTemporaryDir dir;
        const Timing fresh = mapOnce(context, dir.path(), frame, window); // also remembers the window
        const Timing known = mapOnce(context, dir.path(), frame, window);
        if (fresh.usableMs < 0 || known.usableMs < 0 || known.recalled == 0) {
            out.note(QStringLiteral("no usable map (new %1 ms, remembered %2 ms, %3 recalled)")
                         .arg(fresh.usableMs)
                         .arg(known.usableMs)
                         .arg(known.recalled));
            return 1;
        }
        newUsable << fresh.usableMs;
        newFull << fresh.fullMs;
        knownUsable << known.usableMs;
        knownFull << known.fullMs;
        zonesNew = fresh.usableZones;
        zonesKnown = known.usableZones;
        recalled = known.recalled;
        spared = known.spared;
    }
    const QJsonObject info{{QLatin1String("program"), program},
                           {QLatin1String("window_width"), window.width()},
                           {QLatin1String("window_height"), window.height()},
                           {QLatin1String("iterations"), iterations}};
    QJsonObject a = info;
    a.insert(QLatin1String("zones"), zonesNew);
    out.figure(QStringLiteral("new_window_usable_map"), median(newUsable), QStringLiteral("ms"), a);
    out.figure(QStringLiteral("new_window_full_analysis"), median(newFull), QStringLiteral("ms"), a);
    QJsonObject b = info;
    b.insert(QLatin1String("zones"), zonesKnown);
    b.insert(QLatin1String("recalled"), recalled);
    out.figure(QStringLiteral("remembered_window_usable_map"), median(knownUsable), QStringLiteral("ms"), b);
    b.insert(QLatin1String("spared"), spared);
    out.figure(QStringLiteral("remembered_window_full_analysis"), median(knownFull), QStringLiteral("ms"), b);
    out.figure(QStringLiteral("analysis_saved"), median(newFull) - median(knownFull), QStringLiteral("ms"),
               b);
    return 0;
}

} // namespace ciu::bench
