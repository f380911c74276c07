#include "app/commands.h"
#include "app/commonoptions.h"
#include "bench/benchmark.h"

#include <cstdio>

namespace ciu::app {

int runBench(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Runs benchmarks; each figure is one JSON line on stdout."));
    parser.addPositionalArgument(QStringLiteral("name"), QStringLiteral("Benchmark to run (default: all)."),
                                 QStringLiteral("[NAME] [ARGS...]"));
    parser.addOption({QStringLiteral("iterations"), QStringLiteral("Repetitions (default: per benchmark)."),
                      QStringLiteral("N")});
    parser.addOption({QStringLiteral("list"), QStringLiteral("List the benchmarks.")});
    addCommonOptions(parser);
    int exitCode = ExitOk;
    const auto common = parseCommonCommandLine(parser, arguments, &exitCode);
    if (!common)
        return exitCode;

    if (parser.isSet(QStringLiteral("list"))) {
        for (const auto& b : bench::benchmarks())
            std::printf("%-10s %s\n", qPrintable(b.name), qPrintable(b.summary));
        return ExitOk;
    }
    bench::Context context;
    context.display = common->display;
    context.platform = common->platform;
    if (parser.isSet(QStringLiteral("iterations"))) {
        bool ok = false;
        context.iterations = parser.value(QStringLiteral("iterations")).toInt(&ok);
        if (!ok || context.iterations < 1) {
            printError(QStringLiteral("--iterations must be a positive whole number"));
            return ExitUsage;
        }
    }
    QStringList positional = parser.positionalArguments();
    const QString name = positional.isEmpty() ? QString() : positional.takeFirst();
    context.args = positional;
    int result = ExitOk;
    bool found = false;
    for (const auto& b : bench::benchmarks()) {
        if (!name.isEmpty() && b.name != name)
            continue;
        found = true;
        bench::Reporter reporter(b.name);
        const int code = b.run(context, reporter);
        if (code != 0)
            result = code;
    }
    if (!found) {
        QStringList names;
        for (const auto& b : bench::benchmarks())
            names << b.name;
        printError(QStringLiteral("unknown benchmark \"%1\"; known: %2")
                       .arg(name, names.join(QStringLiteral(", "))));
        return ExitUsage;
    }
    return result;
}

} // namespace ciu::app
