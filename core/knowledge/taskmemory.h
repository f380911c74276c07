#pragma once

// Memory of past tasks (seed 002): a task that completed and was verified is kept with the steps that
// worked and a short narrative, so that a later, similar task can be planned with it as a reference or
// replayed step by step.

#include "core/knowledge/taskembedding.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

namespace ciu {

// One remembered task.
struct PastTask
{
    static constexpr int kFormatVersion = 1;
    QString id;          // "t" + 12 hex digits; the file name
    QString task;        // as the user gave it
    QString application; // window class (WM_CLASS) of the window its steps acted on; empty: unknown
    QString planner;     // who found the steps: "local", "anthropic", "openai", "replay"
    QDateTime recordedAt;
    QStringList stepLines; // one readable line a step: click button "OK"
    QJsonArray steps;      // the steps as the replay planner runs them (the sequence library's step form)
    QString narrative;     // made from the steps: "To …, in Fixture, 3 steps: …"
    // The vector of the (scrubbed) task text, when a provider's embeddings model made one: kept in the file
    // ("embedding") so it is not asked for again. Optional: a file without one, or with one that does not
    // read (taskembedding.h), is a task without a vector, never an unreadable task.
    std::optional<TaskEmbedding> embedding;

    bool operator==(const PastTask&) const = default;
    QJsonObject toJson() const;
    // Strict: nullopt and *error for a wrong or missing field.
    static std::optional<PastTask> fromJson(const QJsonObject& object, QString* error = nullptr);
};

// A remembered task found similar to a new one.
struct SimilarTask
{
    PastTask task;
    double score = 0;         // BM25 score
    double relevance = 0;     // BM25's relevance (bm25.h), or with embeddings the fused one (taskembedding.h)
    double bm25Relevance = 0; // the score as a share of a full match's (bm25.h), in [0, 1]
    std::optional<double> cosine; // with embeddings: the cosine similarity of the two texts' vectors
};

// The remembered tasks: one JSON file a task under $XDG_DATA_HOME/ciu-agent/tasks (CIU_TASKS_DIR overrides
// it; tests give a directory), written atomically. A file that cannot be read or parsed is reported by name
// and left as it is: never overwritten, never deleted (also not by clear()).
//
// Secrets are never written: a task whose steps typed a secret (a step's action is marked "secret", as the
// safety layer marks text typed into a password or credential field) is refused, and every text kept —
// the task, the step lines, the narrative and every string inside the steps — goes through scrubSecrets()
// (API keys, tokens, and the values of the environment's key variables become "[redacted]").
class TaskMemory
{
public:
    // Similar tasks: at most this many, each with at least this relevance (SimilarityOptions' defaults).
    static constexpr int kDefaultLimit = 3;
    static constexpr double kDefaultFloor = 0.4;

    // How similar tasks are looked for (findSimilar).
    struct SimilarityOptions
    {
        int limit = kDefaultLimit;
        double floor = kDefaultFloor;
        TextEmbedder embedder; // no model or no embed function: BM25 alone
    };

    // What a lookup found and how.
    struct SimilarityResult
    {
        QList<SimilarTask> tasks; // best first
        QStringList problems;     // unreadable task files ("FILE: why")
        bool usedEmbeddings = false;
        QString embeddingError; // the embeddings call failed: the ranking is BM25's alone
        int embeddedTexts = 0;  // texts sent for embedding (the new task, remembered ones without a vector)
        QStringList storeProblems; // a recomputed vector that could not be written back
        // The new task's vector (with usedEmbeddings): kept with the task when it is remembered.
        std::optional<TaskEmbedding> taskEmbedding;
    };

    // dir empty: the default location.
    explicit TaskMemory(QString dir = {});

    static QString defaultDirectory();
    QString directory() const { return m_dir; }
    QString pathFor(const QString& id) const;

    // Stores a task. A task with the same text (case and spacing aside) and application replaces the one
    // kept before (its file is rewritten under the old id). Assigns the id and recordedAt when empty.
    // Returns the task as written (scrubbed), or nullopt and *error (a secret was typed, no text, no steps,
    // the folder cannot be written).
    std::optional<PastTask> remember(PastTask task, QString* error = nullptr) const;

    struct Contents
    {
        QList<PastTask> tasks; // newest first
        QStringList problems;  // "FILE: why" for every file that could not be read
    };
    Contents load() const;
    std::optional<PastTask> find(const QString& id, QString* error = nullptr) const;
    // Removes one task's file; false and *error when there is no such task.
    bool forget(const QString& id, QString* error = nullptr) const;
    // Removes every task file that holds a readable task; returns how many. Unreadable files stay and are
    // listed in *problems.
    int clear(QStringList* problems = nullptr) const;

    // The remembered tasks most similar to `task` by BM25 over their texts (bm25.h), best first, at most
    // `limit`, each with relevance >= floor. Unreadable files are listed in *problems.
    QList<SimilarTask> similar(const QString& task, int limit = kDefaultLimit, double floor = kDefaultFloor,
                               QStringList* problems = nullptr) const;
    // The same, fused with the embeddings of options.embedder when it has a model (taskembedding.h): the new
    // task and every remembered task without a vector of that model and dimension are embedded in one call
    // (the new task once; every text scrubbed by scrubSecrets() first, as before it is stored; a remembered
    // task whose stored vector has another dimension than the new task's is embedded in a second call), the
    // new vectors are written to their tasks' files, and the tasks are ranked by fused relevance (ties: BM25
    // score, then newest). With no remembered task nothing is embedded. When the call fails the result is
    // exactly similar()'s, with embeddingError set; nothing is logged here (the caller reports it once).
    SimilarityResult findSimilar(const QString& task, const SimilarityOptions& options) const;

    // A short narrative of a task made from its steps, no model needed.
    static QString narrate(const QString& task, const QString& application, const QStringList& stepLines);
    // The reference section a planner gets for similar tasks (empty list: empty text).
    static QString referenceText(const QList<SimilarTask>& similar);

private:
    // The vectors for the new task (first) and the tasks, or nullopt and *error; writes recomputed ones back.
    std::optional<QList<QList<double>>> embedAll(const QString& task, QList<PastTask>& tasks,
                                                 const TextEmbedder& embedder, SimilarityResult& result,
                                                 QString* error) const;

    QString m_dir;
};

} // namespace ciu

Q_DECLARE_METATYPE(ciu::PastTask)
Q_DECLARE_METATYPE(ciu::SimilarTask)
