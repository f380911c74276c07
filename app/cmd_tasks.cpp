// ciu-agent tasks: lists the remembered past tasks (core/knowledge/taskmemory.h), finds those similar to a
// text (as a run would: BM25, fused with the provider's embeddings when configured), or forgets one or all.

#include "app/commands.h"
#include "app/commonoptions.h"
#include "core/director/pasttaskembedder.h"
#include "core/engine/backends.h"
#include "core/knowledge/taskmemory.h"
#include "core/model/secrets.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace ciu::app {
namespace {

void printJsonLine(const QJsonObject& object)
{
    std::printf("%s\n", scrubSecrets(QJsonDocument(object).toJson(QJsonDocument::Compact)).constData());
    std::fflush(stdout);
}

int printSimilar(const TaskMemory& memory, const QCommandLineParser& parser, bool json)
{
    const QString text = parser.value(QStringLiteral("similar")).trimmed();
    if (text.isEmpty()) {
        printError(QStringLiteral("--similar needs a task text"));
        return ExitUsage;
    }
    const QString provider = parser.isSet(QStringLiteral("provider"))
                                 ? parser.value(QStringLiteral("provider")).trimmed().toLower()
                                 : defaultProviderName();
    if (provider != QLatin1String("local") && provider != QLatin1String("anthropic") &&
        provider != QLatin1String("openai")) {
        printError(QStringLiteral("--provider must be local, anthropic or openai, got \"%1\"").arg(provider));
        return ExitUsage;
    }
    TaskMemory::SimilarityOptions options;
    if (parser.isSet(QStringLiteral("min-relevance"))) {
        bool ok = false;
        options.floor = parser.value(QStringLiteral("min-relevance")).toDouble(&ok);
        if (!ok || !(options.floor >= 0 && options.floor <= 1)) {
            printError(QStringLiteral("--min-relevance must be a number from 0 to 1, got \"%1\"")
                           .arg(parser.value(QStringLiteral("min-relevance"))));
            return ExitUsage;
        }
    }
    options.embedder = pastTaskEmbedder(provider, parser.value(QStringLiteral("embedding-model")));
    const TaskMemory::SimilarityResult found = memory.findSimilar(text, options);
    for (const QString& problem : found.problems)
        printError(QStringLiteral("unreadable, left as it is: %1").arg(problem));
    for (const QString& problem : found.storeProblems)
        printError(QStringLiteral("vector not stored: %1").arg(problem));
    if (!found.embeddingError.isEmpty())
        printError(QStringLiteral("past tasks ranked by BM25 alone: the %1 embeddings call failed: %2")
                       .arg(options.embedder.model, found.embeddingError));
    const QString method = found.usedEmbeddings ? QStringLiteral("bm25+embeddings") : QStringLiteral("bm25");
    if (json) {
        QJsonArray tasks;
        for (const SimilarTask& s : found.tasks) {
            QJsonObject entry{{QStringLiteral("id"), s.task.id},
                              {QStringLiteral("task"), s.task.task},
                              {QStringLiteral("relevance"), s.relevance},
                              {QStringLiteral("bm25_relevance"), s.bm25Relevance},
                              {QStringLiteral("score"), s.score}};
            if (s.cosine)
                entry.insert(QStringLiteral("cosine"), *s.cosine);
            tasks.append(entry);
        }
        QJsonObject out{{QStringLiteral("method"), method},
                        {QStringLiteral("similar"), tasks},
                        {QStringLiteral("embedded_texts"), found.embeddedTexts}};
        if (found.usedEmbeddings)
            out.insert(QStringLiteral("embedding_model"), options.embedder.model);
        if (!found.embeddingError.isEmpty())
            out.insert(QStringLiteral("embedding_error"), found.embeddingError);
        printJsonLine(out);
        return ExitOk;
    }
    const QString ranking =
        found.usedEmbeddings ? QStringLiteral("%1 (%2)").arg(method, options.embedder.model) : method;
    std::printf("ranked by %s\n", qPrintable(terminalText(ranking, true)));
    if (found.tasks.isEmpty())
        std::printf("no remembered task is similar enough (relevance >= %.2f)\n", options.floor);
    for (const SimilarTask& s : found.tasks) {
        const QString detail = s.cosine ? QStringLiteral("relevance %1: bm25 %2, cosine %3")
                                              .arg(s.relevance, 0, 'f', 2)
                                              .arg(s.bm25Relevance, 0, 'f', 2)
                                              .arg(*s.cosine, 0, 'f', 2)
                                        : QStringLiteral("relevance %1").arg(s.relevance, 0, 'f', 2);
        std::printf("%s  %s  %s\n", qPrintable(s.task.id), qPrintable(detail),
                    qPrintable(terminalText(s.task.task, true)));
    }
    std::fflush(stdout);
    return ExitOk;
}

} // namespace

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
    parser.addOption({QStringLiteral("similar"),
                      QStringLiteral("List the remembered tasks similar to TEXT, best first, as a run with "
                                     "--provider would be given them."),
                      QStringLiteral("TEXT")});
    parser.addOption({QStringLiteral("provider"),
                      QStringLiteral("With --similar: the provider of the run (local, anthropic or openai; "
                                     "default: local unless a key is set). openai with an embedding model "
                                     "ranks with its embeddings too."),
                      QStringLiteral("name")});
    parser.addOption(
        {QStringLiteral("min-relevance"),
         QStringLiteral("With --similar: the relevance a task needs, 0 to 1 (default: 0.4, what a "
                        "run uses)."),
         QStringLiteral("R")});
    parser.addOption({QStringLiteral("embedding-model"),
                      QStringLiteral("With --similar and --provider openai: the embeddings model (default: "
                                     "$CIU_OPENAI_EMBEDDING_MODEL; none: BM25 alone)."),
                      QStringLiteral("name")});
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
    const bool similar = parser.isSet(QStringLiteral("similar"));
    if (int(forget) + int(clear) + int(similar) > 1) {
        printError(QStringLiteral("--forget, --clear and --similar exclude each other"));
        return ExitUsage;
    }
    if (!similar &&
        (parser.isSet(QStringLiteral("provider")) || parser.isSet(QStringLiteral("embedding-model")))) {
        printError(QStringLiteral("--provider and --embedding-model go with --similar"));
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

    if (similar)
        return printSimilar(memory, parser, json);

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
