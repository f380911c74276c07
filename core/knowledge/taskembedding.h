#pragma once

// Vectors of task texts from a provider's embeddings model, and how their cosine similarity is fused with
// BM25 (bm25.h) to rank remembered tasks (taskmemory.h). No network here: the vectors come from a
// TextEmbedder the caller gives (core/director/pasttaskembedder.h makes one from the OpenAI-compatible
// provider).

#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace ciu {

// A task text's vector, as kept with a remembered task: {"model": M, "dimension": n, "vector": [n numbers]}.
// A vector is only ever compared with one of the same model and dimension.
struct TaskEmbedding
{
    QString model;
    QList<double> vector;

    bool operator==(const TaskEmbedding&) const = default;
    QJsonObject toJson() const;
    // nullopt and *error when the object is not such a vector (no model, no numbers, a non-finite number, a
    // "dimension" that is not the vector's length).
    static std::optional<TaskEmbedding> fromJson(const QJsonValue& value, QString* error = nullptr);
};

// Texts to vectors with one model: `embed` returns one vector a text, in order, all of one dimension, or
// nullopt and *error when it cannot (the call failed). It may block (one network call a lookup).
struct TextEmbedder
{
    QString model;
    std::function<std::optional<QList<QList<double>>>(const QStringList& texts, QString* error)> embed;
};

// The cosine of the angle between two vectors, in [-1, 1]; 0 when either is empty or all zero, or their
// dimensions differ.
double cosineSimilarity(const QList<double>& a, const QList<double>& b);

// The fused relevance of a remembered task, in [0, 1], compared against the same floor as BM25's relevance:
//
//   fused = kEmbeddingWeight * e + (1 - kEmbeddingWeight) * r      e = max(0, (cos - kCosineFloor)
//                                                                              / (1 - kCosineFloor))
//
// r is BM25's relevance (bm25.h) and cos the cosine similarity of the two texts' vectors. A weighted sum
// rather than reciprocal-rank fusion: ranks have no scale, and the planner is given a task only when it is
// similar enough (TaskMemory::kDefaultFloor), which needs one. Embedding models put unrelated texts at a
// cosine of about 0.0-0.3, so cosines up to kCosineFloor count as nothing; the meaning weighs more than
// shared words (0.6): a paraphrase that shares no word (r = 0) reaches the floor of 0.4 at cos >= 0.73,
// while a text with all the same words (r = 1) in an unrelated sense (cos <= 0.2) gets 0.4, just the floor.
namespace fusion {
inline constexpr double kEmbeddingWeight = 0.6;
inline constexpr double kCosineFloor = 0.2;
double embeddingRelevance(double cosine);
double fusedRelevance(double bm25Relevance, double cosine);
} // namespace fusion

} // namespace ciu
