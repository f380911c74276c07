#pragma once

#include "core/canvas/inventoryparser.h"

#include <QImage>
#include <QMetaType>
#include <QObject>
#include <QPointer>
#include <QRect>

#include <unordered_map>

namespace ciu::director {
class Provider;
struct ProviderResponse;
} // namespace ciu::director

namespace ciu::canvas {

struct FullAnalysisResult
{
    quint64 requestId = 0;
    QRect region;           // root coordinates that were sent
    QString reason;         // why tier 2 ran
    InventoryReport report; // zones in root coordinates
    bool ok = false;
    QString error; // provider error or the report's error
    qint64 latencyMs = 0;
    qint64 inputTokens = 0;
    qint64 outputTokens = 0;
    double costUsd = 0;
};

// Tier 2: sends a frame (or a region of it, scaled for the model) with the seed's prompt to a provider
// and validates the zone inventory it returns. Lives on the canvas thread, like its provider.
class FullAnalyzer final : public QObject
{
    Q_OBJECT
public:
    explicit FullAnalyzer(QObject* parent = nullptr);
    ~FullAnalyzer() override;

    // Not owned; must live on this thread. Null: offline (the mapper runs a full-screen Tier 1 instead).
    void setProvider(director::Provider* provider, const QString& model = {});
    bool hasProvider() const { return !m_provider.isNull(); }
    void setMaxTokens(int maxTokens) { m_maxTokens = maxTokens; }

    // Starts an analysis of `region` (root coordinates, null: the whole image) of `image`, whose top-left
    // pixel is root point `origin`. Returns the request id, 0 when there is no provider or nothing to send.
    quint64 analyze(const QImage& image, QPoint origin, const QRect& region, const QString& reason);
    void cancelAll();
    int pendingCount() const { return int(m_pending.size()); }

signals:
    void finished(const ciu::canvas::FullAnalysisResult& result);

private:
    struct Pending
    {
        QRect region;
        QSize shownSize;
        QString reason;
    };
    void onProviderFinished(quint64 requestId, const director::ProviderResponse& response);

    QPointer<director::Provider> m_provider;
    QString m_model;
    int m_maxTokens = 8192;
    std::unordered_map<quint64, Pending> m_pending;
    QMetaObject::Connection m_connection;
};

} // namespace ciu::canvas

Q_DECLARE_METATYPE(ciu::canvas::FullAnalysisResult)
