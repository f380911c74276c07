#include "core/knowledge/bm25.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace ciu {
namespace {

const QSet<QString>& stopWords()
{
    static const QSet<QString> words{QStringLiteral("a"),    QStringLiteral("an"),   QStringLiteral("the"),
                                     QStringLiteral("and"),  QStringLiteral("then"), QStringLiteral("please"),
                                     QStringLiteral("to"),   QStringLiteral("of"),   QStringLiteral("in"),
                                     QStringLiteral("into"), QStringLiteral("on"),   QStringLiteral("for"),
                                     QStringLiteral("with")};
    return words;
}

QString stem(QString word)
{
    if (word.size() >= 4 && word.endsWith(QLatin1Char('s')) && !word.endsWith(QStringLiteral("ss")))
        word.chop(1);
    return word;
}

} // namespace

QStringList Bm25Index::tokenize(const QString& text)
{
    QStringList tokens;
    QString current;
    const auto flush = [&] {
        if (!current.isEmpty() && !stopWords().contains(current))
            tokens.append(stem(current));
        current.clear();
    };
    for (const QChar c : text) {
        if (c.isLetterOrNumber())
            current.append(c.toLower());
        else
            flush();
    }
    flush();
    return tokens;
}

int Bm25Index::addDocument(const QString& text)
{
    const QStringList tokens = tokenize(text);
    QHash<QString, int> frequencies;
    for (const QString& token : tokens)
        ++frequencies[token];
    for (auto it = frequencies.cbegin(); it != frequencies.cend(); ++it)
        ++m_documentFrequency[it.key()];
    m_termFrequencies.append(frequencies);
    m_lengths.append(int(tokens.size()));
    m_totalLength += tokens.size();
    return int(m_lengths.size()) - 1;
}

double Bm25Index::idf(const QString& term) const
{
    const double n = m_documentFrequency.value(term);
    const double count = m_lengths.size();
    return std::log(1.0 + (count - n + 0.5) / (n + 0.5));
}

QList<Bm25Index::Hit> Bm25Index::search(const QString& query, int limit) const
{
    QList<Hit> hits;
    if (m_lengths.isEmpty())
        return hits;
    QStringList terms = tokenize(query);
    terms.removeDuplicates();
    if (terms.isEmpty())
        return hits;
    const double k1 = m_parameters.k1;
    const double b = m_parameters.b;
    const double averageLength = std::max(1.0, double(m_totalLength) / double(m_lengths.size()));
    double bound = 0;
    for (const QString& term : std::as_const(terms))
        bound += idf(term);
    for (int d = 0; d < int(m_lengths.size()); ++d) {
        const QHash<QString, int>& frequencies = m_termFrequencies.at(d);
        const double lengthNorm = 1.0 - b + b * double(m_lengths.at(d)) / averageLength;
        double score = 0;
        for (const QString& term : std::as_const(terms)) {
            const double tf = frequencies.value(term);
            if (tf > 0)
                score += idf(term) * tf * (k1 + 1.0) / (tf + k1 * lengthNorm);
        }
        if (score > 0)
            hits.append({d, score, bound > 0 ? std::min(1.0, score / bound) : 0.0});
    }
    std::stable_sort(hits.begin(), hits.end(), [](const Hit& l, const Hit& r) { return l.score > r.score; });
    if (limit >= 0 && hits.size() > limit)
        hits.resize(limit);
    return hits;
}

} // namespace ciu
