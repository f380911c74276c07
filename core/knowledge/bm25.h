#pragma once

// Okapi BM25 ranking of short texts (remembered task texts), offline: no model, no vocabulary file.

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace ciu {

// A small in-memory BM25 index. Documents are tokenised with tokenize(); a query is scored against each
// document as
//
//   score(q, d) = sum over the query's distinct terms t of  idf(t) * tf(t,d) * (k1 + 1)
//                                                          / (tf(t,d) + k1 * (1 - b + b * |d| / avgdl))
//   idf(t)      = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))       (always positive)
//
// with N documents, n(t) of them holding t, |d| the document's length in tokens and avgdl the mean length.
// k1 = 1.2 (how fast a repeated term saturates) and b = 0.75 (how much a long text is penalised), the usual
// values for short texts.
//
// relevance(q, d) = min(1, score(q, d) / sum over the query's distinct terms t of idf(t)): the score as a
// share of what a document of average length holding each query term once reaches (there the fraction
// after idf(t) is exactly 1), in [0, 1]. A query term no document holds counts in the denominator with its
// highest idf, so a query that is mostly new words is not "similar" to anything. It is what a score floor
// is compared against: unlike the raw score it does not grow with the number of documents.
class Bm25Index
{
public:
    struct Parameters
    {
        double k1 = 1.2;
        double b = 0.75;
    };
    struct Hit
    {
        int document = 0; // index in the order of addDocument()
        double score = 0;
        double relevance = 0; // 0..1, see above
    };

    Bm25Index() = default;
    explicit Bm25Index(Parameters parameters)
        : m_parameters(parameters)
    {
    }

    // Lower-case words (letters and digits) of a text; the filler words "a", "an", "the", "and", "then",
    // "please", "to", "of", "in", "into", "on", "for", "with" dropped, and a plural or third-person "s"
    // stripped from words of four letters or more that do not end in "ss" ("files" → "file", "opens" →
    // "open", "class" stays).
    static QStringList tokenize(const QString& text);

    // Adds a document; returns its index.
    int addDocument(const QString& text);
    int size() const { return int(m_lengths.size()); }
    Parameters parameters() const { return m_parameters; }

    // The documents with a positive score, best first (equal scores: lower index first), at most `limit`
    // (negative: all).
    QList<Hit> search(const QString& query, int limit = -1) const;

private:
    double idf(const QString& term) const;

    Parameters m_parameters;
    QList<QHash<QString, int>> m_termFrequencies; // per document
    QList<int> m_lengths;
    QHash<QString, int> m_documentFrequency;
    qint64 m_totalLength = 0;
};

} // namespace ciu
