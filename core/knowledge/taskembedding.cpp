#include "core/knowledge/taskembedding.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace ciu {
namespace {
const QString kModel = QStringLiteral("model");
const QString kDimension = QStringLiteral("dimension");
const QString kVector = QStringLiteral("vector");

std::optional<TaskEmbedding> invalid(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return std::nullopt;
}
} // namespace

QJsonObject TaskEmbedding::toJson() const
{
    QJsonArray numbers;
    for (const double v : vector)
        numbers.append(v);
    return {{kModel, model}, {kDimension, int(vector.size())}, {kVector, numbers}};
}

std::optional<TaskEmbedding> TaskEmbedding::fromJson(const QJsonValue& value, QString* error)
{
    const QJsonObject object = value.toObject();
    if (!value.isObject())
        return invalid(error, QStringLiteral("the embedding is not an object"));
    TaskEmbedding e;
    e.model = object.value(kModel).toString();
    if (e.model.isEmpty())
        return invalid(error, QStringLiteral("the embedding has no model"));
    const QJsonArray numbers = object.value(kVector).toArray();
    if (numbers.isEmpty())
        return invalid(error, QStringLiteral("the embedding has no vector"));
    if (object.value(kDimension).toInteger(-1) != numbers.size())
        return invalid(error, QStringLiteral("the embedding's dimension is not its vector's length"));
    e.vector.reserve(numbers.size());
    for (const QJsonValue& number : numbers) {
        if (!number.isDouble() || !std::isfinite(number.toDouble()))
            return invalid(error,
                           QStringLiteral("the embedding's vector holds something that is not a number"));
        e.vector.append(number.toDouble());
    }
    return e;
}

double cosineSimilarity(const QList<double>& a, const QList<double>& b)
{
    if (a.isEmpty() || a.size() != b.size())
        return 0;
    double dot = 0;
    double normA = 0;
    double normB = 0;
    for (qsizetype i = 0; i < a.size(); ++i) {
        dot += a.at(i) * b.at(i);
        normA += a.at(i) * a.at(i);
        normB += b.at(i) * b.at(i);
    }
    if (normA <= 0 || normB <= 0)
        return 0;
    return std::clamp(dot / (std::sqrt(normA) * std::sqrt(normB)), -1.0, 1.0);
}

namespace fusion {

double embeddingRelevance(double cosine)
{
    return std::clamp((cosine - kCosineFloor) / (1.0 - kCosineFloor), 0.0, 1.0);
}

double fusedRelevance(double bm25Relevance, double cosine)
{
    return kEmbeddingWeight * embeddingRelevance(cosine) +
           (1.0 - kEmbeddingWeight) * std::clamp(bm25Relevance, 0.0, 1.0);
}

} // namespace fusion
} // namespace ciu
