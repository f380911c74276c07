#include "bench/benchmark.h"

#include <QFile>
#include <QJsonDocument>

#include <algorithm>
#include <cstdio>
#include <sys/resource.h>

namespace ciu::bench {

Reporter::Reporter(QString bench)
    : m_bench(std::move(bench))
{
}

void Reporter::figure(const QString& metric, double value, const QString& unit, const QJsonObject& extra)
{
    QJsonObject o = extra;
    o[QLatin1String("bench")] = m_bench;
    o[QLatin1String("metric")] = metric;
    o[QLatin1String("value")] = value;
    o[QLatin1String("unit")] = unit;
    std::fputs(QJsonDocument(o).toJson(QJsonDocument::Compact).constData(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

void Reporter::note(const QString& text)
{
    std::fprintf(stderr, "[%s] %s\n", qPrintable(m_bench), qPrintable(text));
}

double median(QList<double> values)
{
    return percentile(std::move(values), 50.0);
}

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const double rank = qBound(0.0, p, 100.0) / 100.0 * double(values.size() - 1);
    const auto lo = qsizetype(rank);
    const auto hi = qMin(lo + 1, values.size() - 1);
    return values.at(lo) + (values.at(hi) - values.at(lo)) * (rank - double(lo));
}

double processCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

double peakRssMiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0.0;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmHWM:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    }
    return 0.0;
}

} // namespace ciu::bench
