#pragma once

// `ciu-agent bench [NAME]`: each benchmark prints one JSON object per figure on stdout
// ({"bench": ..., "metric": ..., "value": ..., "unit": ..., ...}), so scripts can compare runs.

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace ciu::bench {

struct Context
{
    QString display;    // target display, empty: $DISPLAY
    QString platform;   // backend override, empty: default
    QStringList args;   // extra arguments after the benchmark name
    int iterations = 0; // 0: the benchmark's default
};

class Reporter
{
public:
    explicit Reporter(QString bench);
    // Prints {"bench","metric","value","unit"} plus `extra` as one line.
    void figure(const QString& metric, double value, const QString& unit, const QJsonObject& extra = {});
    void note(const QString& text); // human-readable, on stderr

private:
    QString m_bench;
};

struct Benchmark
{
    QString name;
    QString summary;
    std::function<int(const Context&, Reporter&)> run; // returns an exit code
};

// Every benchmark of this build (bench/benchmarks.cpp).
const QList<Benchmark>& benchmarks();

// Statistics helpers.
double median(QList<double> values);
double percentile(QList<double> values, double p);

// CPU time (user + system) of this process in seconds.
double processCpuSeconds();
// Peak resident set size of this process in MiB (VmHWM).
double peakRssMiB();

} // namespace ciu::bench
