// ciu-agent run "TASK": one task through the whole pipeline, headless; exit 0 only if it completed.

#include "app/commands.h"
#include "app/commonoptions.h"
#include "app/displaylock.h"
#include "app/runsupport.h"
#include "core/director/commandscript.h"
#include "core/engine/backends.h"
#include "platform/platformfactory.h"

#include <cstdio>

namespace ciu::app {

int runRun(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Runs one task on the target display: capture, zone map, brush, director and recorder.\n"
        "Without a model key the local planner runs the task as commands, e.g.\n"
        "  ciu-agent run 'type \"Ada\" into Name; check Subscribe; select Blue in Color; click Submit' "
        "--execute\n"
        "A new session is a dry run unless --execute is given (on a terminal you are asked afterwards).\n"
        "High-risk actions need a confirmation on the terminal; without one they are refused."));
    parser.addPositionalArgument(QStringLiteral("task"),
                                 QStringLiteral("The task (local planner: commands)."),
                                 QStringLiteral("\"TASK\""));
    parser.addOptions({
        {QStringLiteral("loop"),
         QStringLiteral("zones (default) or classic (a screenshot and a model call per action)."),
         QStringLiteral("name")},
        {QStringLiteral("model"), QStringLiteral("Model name (default: the provider's)."),
         QStringLiteral("name")},
        {QStringLiteral("embedding-model"),
         QStringLiteral("With --provider openai: the embeddings model that finds similar past tasks "
                        "(default: $CIU_OPENAI_EMBEDDING_MODEL; none: BM25 alone)."),
         QStringLiteral("name")},
        {QStringLiteral("json"), QStringLiteral("Print the summary as one JSON object.")},
        {QStringLiteral("no-record"), QStringLiteral("Do not record the session.")},
        {QStringLiteral("wait-for-display"),
         QStringLiteral(
             "When another CIU Agent works on the display, wait until it is done (default: exit).")},
    });
    addCommonOptions(parser);
    int exitCode = ExitOk;
    const auto common = parseCommonCommandLine(parser, arguments, &exitCode);
    if (!common)
        return exitCode;
    const QString task = parser.positionalArguments().join(QLatin1Char(' ')).trimmed();
    if (task.isEmpty()) {
        printError(QStringLiteral("run needs a task, e.g. ciu-agent run 'click OK' (see --help)"));
        return ExitUsage;
    }

    TaskRun run;
    run.task = task;
    run.json = parser.isSet(QStringLiteral("json"));
    DirectorOptions& d = run.director;
    d.provider = common->provider.isEmpty() ? defaultProviderName() : common->provider;
    d.model = parser.value(QStringLiteral("model"));
    d.embeddingModel = parser.value(QStringLiteral("embedding-model")).trimmed();
    const QString loop = parser.value(QStringLiteral("loop")).toLower();
    if (!loop.isEmpty() && loop != QLatin1String("zones") && loop != QLatin1String("classic")) {
        printError(QStringLiteral("--loop must be zones or classic, got \"%1\"").arg(loop));
        return ExitUsage;
    }
    d.loop = loop == QLatin1String("classic") ? DirectorOptions::Loop::Classic : DirectorOptions::Loop::Zones;
    if (!common->speed.isEmpty())
        d.speed = *speedModeFromString(common->speed);
    d.dryRun = common->dryRun.value_or(true);
    run.offerExecuteAfterDryRun = !common->dryRun.has_value();
    d.maxIterations = common->maxIterations;
    d.maxCostUsd = common->maxCostUsd;
    d.confirmation = stdinIsTerminal() ? safety::ConfirmationMode::Ask : safety::ConfirmationMode::Refuse;

    // Errors we can report before touching the display.
    if (d.provider == QLatin1String("local")) {
        if (d.loop == DirectorOptions::Loop::Classic) {
            printError(
                QStringLiteral("--loop classic needs a model provider (--provider anthropic or openai)"));
            return ExitUsage;
        }
        const ScriptParseResult parsed = parseScript(task);
        if (!parsed.ok()) {
            printError(
                QStringLiteral("the local planner cannot read the task: %1\n  %2\n  %3^")
                    .arg(parsed.error->toString(),
                         task.section(QLatin1Char('\n'), parsed.error->line - 1, parsed.error->line - 1),
                         QString(parsed.error->column - 1, QLatin1Char(' '))));
            return ExitUsage;
        }
    } else {
        QString backendError;
        if (!createPlanBackend(d, &backendError)) {
            printError(backendError);
            return ExitUsage;
        }
    }
    {
        auto opened = platform::createPlatform({common->platform, common->display});
        if (!opened.platform) {
            printError(opened.error);
            return ExitNoDisplay;
        }
    }

    // One agent per display: a second one would interleave its input with the first's.
    DisplayLock displayLock(common->display);
    const QString backend =
        common->platform.isEmpty() ? qEnvironmentVariable("CIU_PLATFORM") : common->platform;
    if (backend != QLatin1String("synthetic")) { // an in-process desktop nobody else can reach
        QString lockError;
        if (!displayLock.acquire(0, &lockError)) {
            if (!parser.isSet(QStringLiteral("wait-for-display"))) {
                printError(lockError);
                return ExitFailure;
            }
            std::fprintf(stderr, "ciu-agent: %s; waiting until it is free\n",
                         qPrintable(terminalText(lockError.section(QLatin1Char(';'), 0, 0))));
            std::fflush(stderr);
            if (!displayLock.acquire(-1, &lockError)) {
                printError(lockError);
                return ExitFailure;
            }
        }
    }

    run.engine.platform = common->platform;
    run.engine.display = common->display;
    run.engine.record = !parser.isSet(QStringLiteral("no-record"));
    run.engine.sessionRoot = common->sessionDir;
    run.engine.config = d.toJson();
    if (!d.dryRun)
        std::fprintf(
            stderr,
            "ciu-agent: executing on %s; move the mouse to the top-left corner or press Ctrl+C to stop\n",
            qPrintable(
                terminalText(common->display.isEmpty() ? qEnvironmentVariable("DISPLAY") : common->display)));
    const TaskRunResult r = runTask(run);
    if (!r.started) {
        printError(r.error.isEmpty() ? QStringLiteral("the pipeline did not start") : r.error);
        return ExitFailure;
    }
    printSummary(r.outcome, r.sessionPath, run.json);
    return r.outcome.success() ? ExitOk : ExitFailure;
}

} // namespace ciu::app
