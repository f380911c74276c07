#include "bench/benchmark.h"

namespace ciu::bench {

// One declaration per benchmark file.
int runGrabBenchmark(const Context& context, Reporter& out);
int runCaptureBenchmark(const Context& context, Reporter& out);
int runRecordBenchmark(const Context& context, Reporter& out);
int runSeekBenchmark(const Context& context, Reporter& out);
int runBrushBenchmark(const Context& context, Reporter& out);
int runCanvasBenchmark(const Context& context, Reporter& out);
int runA11yBenchmark(const Context& context, Reporter& out);
int runZoneMemoryBenchmark(const Context& context, Reporter& out);

const QList<Benchmark>& benchmarks()
{
    static const QList<Benchmark> list = {
        {QStringLiteral("grab"), QStringLiteral("ms per full-screen grab and per 300x40 region grab"),
         &runGrabBenchmark},
        {QStringLiteral("capture"),
         QStringLiteral("capture + Tier 0 per-frame cost and CPU % at 20/30 fps (args: mode= seconds= fps= "
                        "idle= animate=)"),
         &runCaptureBenchmark},
        {QStringLiteral("brush"),
         QStringLiteral(
             "hit test with 1,000 zones, cursor to zone_enter latency, local click on the fixture app"),
         &runBrushBenchmark},
        {QStringLiteral("canvas"),
         QStringLiteral("cold full local analysis vs the tesseract CLI, Tier 1 update of a button and of an "
                        "800x600 dialog (args: [SCREENSHOT.png])"),
         &runCanvasBenchmark},
        {QStringLiteral("a11y"),
         QStringLiteral(
             "accessibility tree: full map of a program's window, event to zone map latency, the same "
             "window re-walked by pyatspi, cache memory (args: program=CMD rounds=N; needs the "
             "AT-SPI bus)"),
         &runA11yBenchmark},
        {QStringLiteral("zonememory"),
         QStringLiteral(
             "time to a usable zone map of a window: new (full analysis) vs remembered (zone memory)"),
         &runZoneMemoryBenchmark},
        {QStringLiteral("record"),
         QStringLiteral("CPU and disk of recording the display at 30 fps (args: SECONDS, default 10; "
                        "encoder KEY=VALUE: keyint=MS crf=N preset=NAME tune=NAME|none fps=N)"),
         &runRecordBenchmark},
        {QStringLiteral("seek"),
         QStringLiteral("random seek time in a synthetic 1080p session video (args: MINUTES, default 10; "
                        "encoder KEY=VALUE: keyint=MS crf=N preset=NAME tune=NAME|none)"),
         &runSeekBenchmark},
    };
    return list;
}

} // namespace ciu::bench
