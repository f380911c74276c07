#include "app/commands.h"
#include "app/commonoptions.h"
#include "bench/bench_vision.h"
#include "bench/benchmark.h"

#include <QDir>

#include <cstdio>

namespace ciu::app {
namespace {

// ciu-agent bench vision --corpus DIR [--set tuning|heldout|all] [--json] [--iou X]
int runBenchVision(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Scores the vision-only analysis on a generated corpus (bench/corpus/generate.sh): recall, "
        "precision, label and type accuracy of interactive zones at IoU >= 0.5 (greedy matching), per "
        "set, program, toolkit, look, state and screen, and ms per frame scaled to 1920x1080."));
    parser.addOptions({
        {QStringLiteral("corpus"), QStringLiteral("The corpus folder (required)."), QStringLiteral("DIR")},
        {QStringLiteral("set"), QStringLiteral("Which programs: tuning, heldout or all (default)."),
         QStringLiteral("tuning|heldout|all"), QStringLiteral("all")},
        {QStringLiteral("json"), QStringLiteral("Print one JSON document instead of tables.")},
        {QStringLiteral("iou"), QStringLiteral("Overlap a detection needs to match (default 0.5)."),
         QStringLiteral("X"), QStringLiteral("0.5")},
        {QStringLiteral("overlay"),
         QStringLiteral(
             "Also write each frame to DIR with its truth and detections drawn: matched truth green, "
             "missed truth red, detections that match nothing blue."),
         QStringLiteral("DIR")},
    });
    parser.addHelpOption();
    if (!parser.parse(arguments)) {
        printError(parser.errorText());
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return ExitOk;
    }
    if (!hasNoPositionals(parser, QStringLiteral("bench vision")))
        return ExitUsage;
    bench::VisionBenchOptions options;
    options.corpusDir = parser.value(QStringLiteral("corpus"));
    if (options.corpusDir.isEmpty()) {
        printError(
            QStringLiteral("bench vision needs --corpus DIR (make one with bench/corpus/generate.sh)"));
        return ExitUsage;
    }
    options.set = parser.value(QStringLiteral("set"));
    if (options.set != QLatin1String("tuning") && options.set != QLatin1String("heldout") &&
        options.set != QLatin1String("all")) {
        printError(QStringLiteral("--set must be tuning, heldout or all, got \"%1\"").arg(options.set));
        return ExitUsage;
    }
    bool ok = false;
    options.minIou = parser.value(QStringLiteral("iou")).toDouble(&ok);
    if (!ok || options.minIou <= 0 || options.minIou > 1) {
        printError(QStringLiteral("--iou must be a number in (0, 1], got \"%1\"")
                       .arg(parser.value(QStringLiteral("iou"))));
        return ExitUsage;
    }
    options.json = parser.isSet(QStringLiteral("json"));
    options.overlayDir = parser.value(QStringLiteral("overlay"));
    if (!options.overlayDir.isEmpty() && !QDir().mkpath(options.overlayDir)) {
        printError(QStringLiteral("--overlay: cannot create the folder %1").arg(options.overlayDir));
        return ExitFailure;
    }
    return bench::runVisionBench(options) == 0 ? ExitOk : ExitFailure;
}

} // namespace

int runBench(const QStringList& arguments)
{
    // `bench vision` has options of its own: its own parser.
    if (arguments.size() > 1 && arguments.at(1) == QLatin1String("vision")) {
        QStringList rest = arguments;
        rest.removeAt(1);
        return runBenchVision(rest);
    }
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
        std::printf("%-10s %s\n", "vision",
                    "recall, precision, label and type accuracy of the vision-only analysis on a generated "
                    "corpus (options: --corpus DIR [--set tuning|heldout|all] [--json] [--iou X])");
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
