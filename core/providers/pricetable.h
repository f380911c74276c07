#pragma once

#include "core/providers/providertypes.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <optional>

namespace ciu::director {

// USD per million tokens for a model. Kept in configuration: the defaults come from the
// JSON resource :/ciu/providers/prices.json, a file can replace them (CIU_PRICES_FILE or the settings).
struct ModelPrice
{
    double inputPerMTok = 0.0;
    double cacheWritePerMTok = 0.0;
    double cacheReadPerMTok = 0.0;
    double outputPerMTok = 0.0;
};

class PriceTable
{
public:
    PriceTable() = default;

    // The built-in defaults (the JSON resource).
    static PriceTable defaults();
    // {"models": {"claude-sonnet-4-5": {"input": 3, "cache_write": 3.75, "cache_read": 0.3, "output": 15},
    // ...}}
    static std::optional<PriceTable> fromJson(const QByteArray& json, QString* error = nullptr);
    static std::optional<PriceTable> fromFile(const QString& path, QString* error = nullptr);

    void set(const QString& model, const ModelPrice& price) { m_prices.insert(model, price); }
    bool isEmpty() const { return m_prices.isEmpty(); }
    // Exact name first, else the longest configured name that prefixes it ("claude-sonnet-4-5-20250929"
    // → "claude-sonnet-4-5"), else a "*" entry if configured.
    std::optional<ModelPrice> find(const QString& model) const;

    // Fills usage.costUsd and usage.costKnown for a call of `model`.
    void applyCost(const QString& model, Usage& usage) const;

private:
    QHash<QString, ModelPrice> m_prices;
};

} // namespace ciu::director
