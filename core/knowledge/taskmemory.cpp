#include "core/knowledge/taskmemory.h"

#include "core/knowledge/bm25.h"
#include "core/knowledge/knowledgefiles.h"
#include "core/knowledge/knowledgelog.h"
#include "core/model/secrets.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QUuid>

#include <algorithm>

namespace ciu {
namespace {

const QString kFormat = QStringLiteral("format");
const QString kId = QStringLiteral("id");
const QString kTask = QStringLiteral("task");
const QString kApplication = QStringLiteral("application");
const QString kPlanner = QStringLiteral("planner");
const QString kRecordedAt = QStringLiteral("recorded_at");
const QString kStepLines = QStringLiteral("step_lines");
const QString kSteps = QStringLiteral("steps");
const QString kNarrative = QStringLiteral("narrative");
const QString kEmbedding = QStringLiteral("embedding");

template<typename T> std::optional<T> failed(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return std::nullopt;
}

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

bool isValidId(const QString& id)
{
    static const QRegularExpression pattern(QStringLiteral("^t[0-9a-f]{12}$"));
    return pattern.match(id).hasMatch();
}

QString newId()
{
    return QStringLiteral("t") + QUuid::createUuid().toString(QUuid::Id128).left(12);
}

QString sameTaskKey(const PastTask& task)
{
    return task.task.simplified().toCaseFolded() + QLatin1Char('\n') + task.application;
}

// Whether a step (or anything inside it) carries the safety layer's secret mark.
bool holdsSecret(const QJsonValue& value)
{
    if (value.isObject()) {
        const QJsonObject o = value.toObject();
        if (o.value(QLatin1String("secret")).toBool())
            return true;
        return std::any_of(o.constBegin(), o.constEnd(), [](const QJsonValue& v) { return holdsSecret(v); });
    }
    if (value.isArray()) {
        const QJsonArray a = value.toArray();
        return std::any_of(a.constBegin(), a.constEnd(), [](const QJsonValue& v) { return holdsSecret(v); });
    }
    return false;
}

QJsonValue scrubbed(const QJsonValue& value)
{
    if (value.isString())
        return scrubSecrets(value.toString());
    if (value.isObject()) {
        QJsonObject o = value.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            it.value() = scrubbed(it.value());
        return o;
    }
    if (value.isArray()) {
        QJsonArray a = value.toArray();
        for (qsizetype i = 0; i < a.size(); ++i)
            a.replace(i, scrubbed(a.at(i)));
        return a;
    }
    return value;
}

std::optional<PastTask> readFile(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return failed<PastTask>(error, QStringLiteral("cannot read: %1").arg(file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject())
        return failed<PastTask>(error, QStringLiteral("not a JSON object: %1").arg(parseError.errorString()));
    return PastTask::fromJson(document.object(), error);
}

} // namespace

QJsonObject PastTask::toJson() const
{
    QJsonObject object{{kFormat, kFormatVersion},
                       {kId, id},
                       {kTask, task},
                       {kApplication, application},
                       {kPlanner, planner},
                       {kRecordedAt, recordedAt.toUTC().toString(Qt::ISODateWithMs)},
                       {kStepLines, QJsonArray::fromStringList(stepLines)},
                       {kSteps, steps},
                       {kNarrative, narrative}};
    if (embedding)
        object.insert(kEmbedding, embedding->toJson());
    return object;
}

std::optional<PastTask> PastTask::fromJson(const QJsonObject& object, QString* error)
{
    if (object.value(kFormat).toInt() != kFormatVersion)
        return failed<PastTask>(error,
                                QStringLiteral("unsupported task format (expected %1)").arg(kFormatVersion));
    for (const QString& key : {kId, kTask, kApplication, kPlanner, kRecordedAt, kNarrative}) {
        if (!object.value(key).isString())
            return failed<PastTask>(error, QStringLiteral("\"%1\" must be a string").arg(key));
    }
    if (!object.value(kStepLines).isArray() || !object.value(kSteps).isArray())
        return failed<PastTask>(error, QStringLiteral("\"step_lines\" and \"steps\" must be arrays"));
    PastTask t;
    t.id = object.value(kId).toString();
    if (!isValidId(t.id))
        return failed<PastTask>(error, QStringLiteral("invalid id \"%1\"").arg(t.id));
    t.task = object.value(kTask).toString();
    if (t.task.trimmed().isEmpty())
        return failed<PastTask>(error, QStringLiteral("empty task text"));
    t.application = object.value(kApplication).toString();
    t.planner = object.value(kPlanner).toString();
    t.recordedAt = QDateTime::fromString(object.value(kRecordedAt).toString(), Qt::ISODateWithMs);
    if (!t.recordedAt.isValid())
        return failed<PastTask>(error, QStringLiteral("invalid \"recorded_at\""));
    for (const QJsonValue& line : object.value(kStepLines).toArray()) {
        if (!line.isString())
            return failed<PastTask>(error, QStringLiteral("\"step_lines\" must hold strings"));
        t.stepLines.append(line.toString());
    }
    t.steps = object.value(kSteps).toArray();
    for (const QJsonValue& step : std::as_const(t.steps)) {
        if (!step.isObject())
            return failed<PastTask>(error, QStringLiteral("\"steps\" must hold objects"));
    }
    t.narrative = object.value(kNarrative).toString();
    if (object.contains(kEmbedding)) {
        // A cache of the provider's answer: one that does not read is recomputed, the task stays readable.
        QString embeddingError;
        t.embedding = TaskEmbedding::fromJson(object.value(kEmbedding), &embeddingError);
        if (!t.embedding)
            qCInfo(lcTaskMemory).noquote() << "task" << t.id << "ignored embedding:" << embeddingError;
    }
    return t;
}

TaskMemory::TaskMemory(QString dir)
    : m_dir(dir.isEmpty() ? defaultDirectory() : std::move(dir))
{
}

QString TaskMemory::defaultDirectory()
{
    const QString overridden = qEnvironmentVariable("CIU_TASKS_DIR");
    if (!overridden.isEmpty())
        return overridden;
    return knowledgefiles::dataDirectory(QStringLiteral("tasks"));
}

QString TaskMemory::pathFor(const QString& id) const
{
    return m_dir + QLatin1Char('/') + id + QStringLiteral(".json");
}

std::optional<PastTask> TaskMemory::remember(PastTask task, QString* error) const
{
    if (task.task.trimmed().isEmpty())
        return failed<PastTask>(error, QStringLiteral("a task without text is not remembered"));
    if (task.steps.isEmpty())
        return failed<PastTask>(error, QStringLiteral("a task without steps is not remembered"));
    if (holdsSecret(task.steps))
        return failed<PastTask>(error, QStringLiteral("not remembered: a step typed a secret"));
    task.task = scrubSecrets(task.task);
    task.application = scrubSecrets(task.application);
    task.narrative = scrubSecrets(task.narrative);
    for (QString& line : task.stepLines)
        line = scrubSecrets(line);
    task.steps = scrubbed(task.steps).toArray();
    if (!task.recordedAt.isValid())
        task.recordedAt = QDateTime::currentDateTimeUtc();
    if (!task.id.isEmpty() && !isValidId(task.id))
        return failed<PastTask>(error, QStringLiteral("invalid id \"%1\"").arg(task.id));
    if (task.id.isEmpty()) {
        const QString key = sameTaskKey(task);
        const Contents contents = load();
        const auto same = std::find_if(contents.tasks.cbegin(), contents.tasks.cend(),
                                       [&](const PastTask& t) { return sameTaskKey(t) == key; });
        task.id = same != contents.tasks.cend() ? same->id : newId();
    }
    const QString path = pathFor(task.id);
    if (QFile::exists(path)) {
        // Only a readable task of ours is replaced; anything else in its place is left for the user.
        QString readError;
        if (!readFile(path, &readError))
            return failed<PastTask>(
                error,
                QStringLiteral("%1 is not a readable task (%2); not overwritten").arg(path, readError));
    }
    QString writeError;
    if (!knowledgefiles::writeObject(m_dir, path, task.toJson(), &writeError))
        return failed<PastTask>(error, writeError);
    qCInfo(lcTaskMemory) << "remembered task" << task.id << "with" << task.steps.size() << "steps";
    return task;
}

TaskMemory::Contents TaskMemory::load() const
{
    Contents contents;
    const QDir dir(m_dir);
    if (!dir.exists())
        return contents;
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QString error;
        auto task = readFile(dir.filePath(name), &error);
        if (!task) {
            contents.problems.append(QStringLiteral("%1: %2").arg(dir.filePath(name), error));
            continue;
        }
        if (name != task->id + QStringLiteral(".json")) {
            contents.problems.append(
                QStringLiteral("%1: holds task %2 under another name").arg(dir.filePath(name), task->id));
            continue;
        }
        contents.tasks.append(*task);
    }
    std::stable_sort(contents.tasks.begin(), contents.tasks.end(),
                     [](const PastTask& l, const PastTask& r) { return l.recordedAt > r.recordedAt; });
    for (const QString& problem : std::as_const(contents.problems))
        qCWarning(lcTaskMemory).noquote() << "ignored:" << problem;
    return contents;
}

std::optional<PastTask> TaskMemory::find(const QString& id, QString* error) const
{
    if (!isValidId(id))
        return failed<PastTask>(error, QStringLiteral("\"%1\" is not a task id").arg(id));
    const QString path = pathFor(id);
    if (!QFile::exists(path))
        return failed<PastTask>(error, QStringLiteral("no remembered task %1").arg(id));
    QString readError;
    auto task = readFile(path, &readError);
    if (!task)
        return failed<PastTask>(error, QStringLiteral("%1: %2").arg(path, readError));
    return task;
}

bool TaskMemory::forget(const QString& id, QString* error) const
{
    if (!find(id, error))
        return false;
    if (!QFile::remove(pathFor(id)))
        return fail(error, QStringLiteral("cannot remove %1").arg(pathFor(id)));
    qCInfo(lcTaskMemory) << "forgot task" << id;
    return true;
}

int TaskMemory::clear(QStringList* problems) const
{
    const Contents contents = load();
    QStringList left = contents.problems;
    int removed = 0;
    for (const PastTask& task : contents.tasks) {
        if (QFile::remove(pathFor(task.id)))
            ++removed;
        else
            left.append(QStringLiteral("%1: cannot remove").arg(pathFor(task.id)));
    }
    if (problems)
        *problems = left;
    qCInfo(lcTaskMemory) << "forgot" << removed << "tasks";
    return removed;
}

QList<SimilarTask> TaskMemory::similar(const QString& task, int limit, double floor,
                                       QStringList* problems) const
{
    SimilarityOptions options;
    options.limit = limit;
    options.floor = floor;
    SimilarityResult result = findSimilar(task, options);
    if (problems)
        *problems = result.problems;
    return result.tasks;
}

TaskMemory::SimilarityResult TaskMemory::findSimilar(const QString& task,
                                                     const SimilarityOptions& options) const
{
    SimilarityResult result;
    Contents contents = load();
    result.problems = contents.problems;
    Bm25Index index;
    for (const PastTask& t : std::as_const(contents.tasks))
        index.addDocument(t.task);
    const QList<Bm25Index::Hit> hits = index.search(task);
    auto bm25Only = [&] {
        for (const Bm25Index::Hit& hit : hits) {
            if (hit.relevance < options.floor || int(result.tasks.size()) >= options.limit)
                continue;
            result.tasks.append(
                {contents.tasks.at(hit.document), hit.score, hit.relevance, hit.relevance, std::nullopt});
        }
        return result;
    };
    if (options.embedder.model.isEmpty() || !options.embedder.embed || contents.tasks.isEmpty())
        return bm25Only();
    QString error;
    const auto vectors = embedAll(task, contents.tasks, options.embedder, result, &error);
    if (!vectors) {
        result.embeddingError = error;
        return bm25Only();
    }
    result.usedEmbeddings = true;
    result.taskEmbedding = TaskEmbedding{options.embedder.model, vectors->first()};
    QList<SimilarTask> ranked;
    for (qsizetype i = 0; i < contents.tasks.size(); ++i) {
        SimilarTask s;
        s.task = contents.tasks.at(i);
        for (const Bm25Index::Hit& hit : hits) {
            if (hit.document == int(i)) {
                s.score = hit.score;
                s.bm25Relevance = hit.relevance;
            }
        }
        s.cosine = cosineSimilarity(vectors->first(), vectors->at(i + 1));
        s.relevance = fusion::fusedRelevance(s.bm25Relevance, *s.cosine);
        ranked.append(s);
    }
    // Stable: equal relevance and score keep the newest first (load()'s order).
    std::stable_sort(ranked.begin(), ranked.end(), [](const SimilarTask& l, const SimilarTask& r) {
        return l.relevance != r.relevance ? l.relevance > r.relevance : l.score > r.score;
    });
    for (const SimilarTask& s : std::as_const(ranked)) {
        if (s.relevance >= options.floor && int(result.tasks.size()) < options.limit)
            result.tasks.append(s);
    }
    return result;
}

std::optional<QList<QList<double>>> TaskMemory::embedAll(const QString& task, QList<PastTask>& tasks,
                                                         const TextEmbedder& embedder,
                                                         SimilarityResult& result, QString* error) const
{
    // One call: the new task and the tasks without a vector of this model.
    QStringList texts{scrubSecrets(task)};
    QList<qsizetype> missing;
    for (qsizetype i = 0; i < tasks.size(); ++i) {
        const std::optional<TaskEmbedding>& e = tasks.at(i).embedding;
        if (!e || e->model != embedder.model || e->vector.isEmpty()) {
            missing.append(i);
            texts.append(scrubSecrets(tasks.at(i).task));
        }
    }
    auto call = [&](const QStringList& batch) -> std::optional<QList<QList<double>>> {
        result.embeddedTexts += int(batch.size());
        auto answer = embedder.embed(batch, error);
        if (!answer)
            return std::nullopt;
        if (answer->size() != batch.size()) {
            *error = QStringLiteral("wrong vector count: %1 vectors for %2 texts")
                         .arg(answer->size())
                         .arg(batch.size());
            return std::nullopt;
        }
        for (const QList<double>& v : std::as_const(*answer)) {
            if (v.isEmpty() || v.size() != answer->first().size()) {
                *error = QStringLiteral("dimension mismatch: vectors of %1 and %2 numbers in one reply")
                             .arg(answer->first().size())
                             .arg(v.size());
                return std::nullopt;
            }
        }
        return answer;
    };
    const auto first = call(texts);
    if (!first)
        return std::nullopt;
    const QList<double> query = first->first();
    QList<qsizetype> recomputed;
    for (qsizetype k = 0; k < missing.size(); ++k) {
        tasks[missing.at(k)].embedding = TaskEmbedding{embedder.model, first->at(k + 1)};
        recomputed.append(missing.at(k));
    }
    // A stored vector of the same model name but another dimension (the server's model changed): again.
    QStringList again;
    QList<qsizetype> againIndex;
    for (qsizetype i = 0; i < tasks.size(); ++i) {
        if (tasks.at(i).embedding->vector.size() != query.size()) {
            againIndex.append(i);
            again.append(scrubSecrets(tasks.at(i).task));
        }
    }
    if (!again.isEmpty()) {
        const auto second = call(again);
        if (!second)
            return std::nullopt;
        if (second->first().size() != query.size()) {
            *error = QStringLiteral("dimension mismatch: the task's vector has %1 numbers, the others %2")
                         .arg(query.size())
                         .arg(second->first().size());
            return std::nullopt;
        }
        for (qsizetype k = 0; k < againIndex.size(); ++k) {
            tasks[againIndex.at(k)].embedding = TaskEmbedding{embedder.model, second->at(k)};
            if (!recomputed.contains(againIndex.at(k)))
                recomputed.append(againIndex.at(k));
        }
    }
    for (const qsizetype i : std::as_const(recomputed)) {
        const PastTask& t = tasks.at(i);
        QString writeError;
        if (!knowledgefiles::writeObject(m_dir, pathFor(t.id), t.toJson(), &writeError))
            result.storeProblems.append(QStringLiteral("%1: %2").arg(pathFor(t.id), writeError));
    }
    qCInfo(lcTaskMemory) << "embedded" << result.embeddedTexts << "texts with" << embedder.model << "("
                         << recomputed.size() << "vectors stored)";
    QList<QList<double>> vectors{query};
    for (const PastTask& t : std::as_const(tasks))
        vectors.append(t.embedding->vector);
    return vectors;
}

QString TaskMemory::narrate(const QString& task, const QString& application, const QStringList& stepLines)
{
    QString text = QStringLiteral("To \"%1\"").arg(task.simplified());
    if (!application.isEmpty())
        text += QStringLiteral(" in %1").arg(application);
    text += stepLines.size() == 1 ? QStringLiteral(", one step worked: ")
                                  : QStringLiteral(", %1 steps worked: ").arg(stepLines.size());
    QStringList numbered;
    for (qsizetype i = 0; i < stepLines.size(); ++i)
        numbered.append(QStringLiteral("%1. %2").arg(i + 1).arg(stepLines.at(i)));
    text += numbered.join(QStringLiteral("; "));
    text += QStringLiteral(". The result was verified.");
    return text;
}

QString TaskMemory::referenceText(const QList<SimilarTask>& similar)
{
    if (similar.isEmpty())
        return {};
    QStringList lines;
    lines.append(QStringLiteral(
        "Similar tasks done before on this computer (a reference for how they were done; the screen may "
        "differ, so check every step against the zone map):"));
    for (const SimilarTask& s : similar)
        lines.append(QStringLiteral("- %1 (relevance %2)").arg(s.task.narrative).arg(s.relevance, 0, 'f', 2));
    return lines.join(QLatin1Char('\n'));
}

} // namespace ciu
