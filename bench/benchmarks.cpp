#include "bench/benchmark.h"

namespace ciu::bench {

// One declaration per benchmark file.
int runGrabBenchmark(const Context& context, Reporter& out);

const QList<Benchmark>& benchmarks()
{
    static const QList<Benchmark> list = {
        {QStringLiteral("grab"), QStringLiteral("ms per full-screen grab and per 300x40 region grab"),
         &runGrabBenchmark},
    };
    return list;
}

}  // namespace ciu::bench
