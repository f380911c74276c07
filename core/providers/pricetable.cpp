#include "core/providers/pricetable.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

// Q_INIT_RESOURCE must be used outside a namespace; needed because ciu_core is a static library.
static void initProviderResources()
{
    Q_INIT_RESOURCE(ciu_providers);
}

namespace ciu::director {

namespace {
bool readPrice(const QJsonValue& value, double& out)
{
    if (value.isUndefined() || value.isNull()) {
        out = 0.0;
        return true;
    }
    if (!value.isDouble() || value.toDouble() < 0.0)
        return false;
    out = value.toDouble();
    return true;
}
} // namespace

std::optional<PriceTable> PriceTable::fromJson(const QByteArray& json, QString* error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    auto fail = [&](const QString& message) -> std::optional<PriceTable> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (parseError.error != QJsonParseError::NoError)
        return fail(QStringLiteral("price table is not valid JSON: %1").arg(parseError.errorString()));
    const QJsonValue models = doc.object().value(QStringLiteral("models"));
    if (!models.isObject())
        return fail(QStringLiteral("price table has no \"models\" object"));
    PriceTable table;
    const QJsonObject object = models.toObject();
    for (auto it = object.begin(); it != object.end(); ++it) {
        const QJsonObject entry = it.value().toObject();
        ModelPrice price;
        if (!it.value().isObject() || !readPrice(entry.value(QStringLiteral("input")), price.inputPerMTok) ||
            !readPrice(entry.value(QStringLiteral("cache_write")), price.cacheWritePerMTok) ||
            !readPrice(entry.value(QStringLiteral("cache_read")), price.cacheReadPerMTok) ||
            !readPrice(entry.value(QStringLiteral("output")), price.outputPerMTok))
            return fail(QStringLiteral("price table: bad entry for model \"%1\" (numbers ≥ 0 expected)")
                            .arg(it.key()));
        table.set(it.key(), price);
    }
    return table;
}

std::optional<PriceTable> PriceTable::fromFile(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read price table %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    return fromJson(file.readAll(), error);
}

PriceTable PriceTable::defaults()
{
    static const PriceTable table = [] {
        initProviderResources();
        QString error;
        auto loaded = fromFile(QStringLiteral(":/ciu/providers/prices.json"), &error);
        return loaded ? *loaded : PriceTable{};
    }();
    return table;
}

std::optional<ModelPrice> PriceTable::find(const QString& model) const
{
    if (const auto it = m_prices.constFind(model); it != m_prices.constEnd())
        return *it;
    qsizetype bestLength = -1;
    std::optional<ModelPrice> best;
    for (auto it = m_prices.constBegin(); it != m_prices.constEnd(); ++it) {
        if (it.key() != QLatin1String("*") && model.startsWith(it.key()) && it.key().size() > bestLength) {
            bestLength = it.key().size();
            best = *it;
        }
    }
    if (!best) {
        if (const auto it = m_prices.constFind(QStringLiteral("*")); it != m_prices.constEnd())
            best = *it;
    }
    return best;
}

void PriceTable::applyCost(const QString& model, Usage& usage) const
{
    const auto price = find(model);
    usage.costKnown = price.has_value();
    if (!price) {
        usage.costUsd = 0.0;
        return;
    }
    auto part = [](qint64 tokens, double perMTok) {
        return tokens > 0 && perMTok > 0 ? double(tokens) * perMTok : 0.0;
    };
    const double cost = (part(usage.inputTokens, price->inputPerMTok) +
                         part(usage.cacheCreationInputTokens, price->cacheWritePerMTok) +
                         part(usage.cacheReadInputTokens, price->cacheReadPerMTok) +
                         part(usage.outputTokens, price->outputPerMTok)) /
                        1'000'000.0;
    usage.costUsd = std::isfinite(cost) ? cost : 0.0; // never negative, never NaN
}

} // namespace ciu::director
