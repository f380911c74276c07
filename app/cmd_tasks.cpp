// ciu-agent tasks: lists the remembered past tasks (core/knowledge/taskmemory.h), or forgets one or all.

#include "app/commands.h"
#include "app/commonoptions.h"
#include "core/knowledge/taskmemory.h"
#include "core/model/secrets.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace ciu::app {

int runTasks(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Lists the tasks the agent remembers (completed and verified, with the steps that worked), newest "
        "first, or forgets them. Stored under $XDG_DATA_HOME/ciu-agent/tasks."));
    parser.addOption({QStringLiteral("json"), QStringLiteral("Print one JSON object.")});
    parser.addOption(
        {QStringLiteral("forget"), QStringLiteral("Forget the task with this id."), QStringLiteral("ID")});
    parser.addOption({QStringLiteral("clear"), QStringLiteral("Forget every remembered task.")});
    int exitCode = ExitOk;
    if (!parseCommandLine(parser, arguments, &exitCode))
        return exitCode;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("tasks takes no arguments (got \"%1\")")
                       .arg(parser.positionalArguments().first()));
        return ExitUsage;
    }
    const bool forget = parser.isSet(QStringLiteral("forget"));
    const bool clear = parser.isSet(QStringLiteral("clear"));
    if (forget && clear) {
        printError(QStringLiteral("--forget and --clear exclude each other"));
        return ExitUsage;
    }
    const bool json = parser.isSet(QStringLiteral("json"));
    const TaskMemory memory;
    auto printJson = [](const QJsonObject& object) {
        std::printf("%s\n", scrubSecrets(QJsonDocument(object).toJson(QJsonDocument::Compact)).constData());
    };

    if (forget) {
        const QString id = parser.value(QStringLiteral("forget"));
        QString error;
        if (!memory.forget(id, &error)) {
            printError(error);
            return ExitFailure;
        }
        if (json)
            printJson({{QStringLiteral("forgotten"), QJsonArray{id}}});
        else
            std::printf("forgot %s\n", qPrintable(id));
        return ExitOk;
    }
    if (clear) {
        QStringList problems;
        const int removed = memory.clear(&problems);
        for (const QString& problem : std::as_const(problems))
            printError(QStringLiteral("kept %1").arg(problem));
        if (json)
            printJson({{QStringLiteral("forgotten_count"), removed},
                       {QStringLiteral("problems"), QJsonArray::fromStringList(problems)}});
        else
            std::printf("forgot %d tasks\n", removed);
        return problems.isEmpty() ? ExitOk : ExitFailure;
    }

    const TaskMemory::Contents contents = memory.load();
    for (const QString& problem : contents.problems)
        printError(QStringLiteral("unreadable, left as it is: %1").arg(problem));
    if (json) {
        QJsonArray tasks;
        for (const PastTask& t : contents.tasks)
            tasks.append(t.toJson());
        printJson({{QStringLiteral("directory"), memory.directory()},
                   {QStringLiteral("tasks"), tasks},
                   {QStringLiteral("problems"), QJsonArray::fromStringList(contents.problems)}});
        return ExitOk;
    }
    if (contents.tasks.isEmpty())
        std::printf("no remembered tasks in %s\n", qPrintable(terminalText(memory.directory(), true)));
    for (const PastTask& t : contents.tasks) {
        std::printf("%s  %s  %s\n", qPrintable(t.id), qPrintable(t.recordedAt.toString(Qt::ISODate)),
                    qPrintable(terminalText(t.task, true)));
        std::printf("    %s\n", qPrintable(terminalText(t.narrative, true)));
    }
    std::fflush(stdout);
    return ExitOk;
}

} // namespace ciu::app
