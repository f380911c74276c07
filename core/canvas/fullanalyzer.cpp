#include "core/canvas/fullanalyzer.h"

#include "core/canvas/canvaslog.h"
#include "core/providers/provider.h"

namespace ciu::canvas {

FullAnalyzer::FullAnalyzer(QObject* parent)
    : QObject(parent)
{
}

FullAnalyzer::~FullAnalyzer()
{
    cancelAll();
}

void FullAnalyzer::setProvider(director::Provider* provider, const QString& model)
{
    if (m_connection)
        disconnect(m_connection);
    cancelAll();
    m_provider = provider;
    m_model = model;
    if (provider)
        m_connection =
            connect(provider, &director::Provider::finished, this, &FullAnalyzer::onProviderFinished);
}

void FullAnalyzer::cancelAll()
{
    if (m_provider) {
        for (const auto& entry : m_pending)
            m_provider->cancel(entry.first);
    }
    m_pending.clear();
}

quint64 FullAnalyzer::analyze(const QImage& image, QPoint origin, const QRect& region, const QString& reason)
{
    if (!m_provider || image.isNull())
        return 0;
    const QRect imageRoot(origin, image.size());
    const QRect want = region.isNull() ? imageRoot : region.intersected(imageRoot);
    if (want.width() < 8 || want.height() < 8)
        return 0;
    const QImage crop = want == imageRoot ? image : image.copy(want.translated(-origin));
    // Scaled like the computer tool's screenshots; the provider sends an image of this size unchanged.
    const director::ScreenshotScaler scaler(crop.size());
    const QImage shown = scaler.scaleImage(crop);

    director::ProviderRequest request;
    request.model = m_model;
    request.purpose = QStringLiteral("tier2");
    request.maxTokens = m_maxTokens;
    request.temperature = 0.0;
    request.keepScreenshots = 1;
    request.system =
        QStringLiteral("You map graphical user interfaces for an automation agent. Answer with JSON only.");
    request.messages = {
        director::Message::user({director::ContentBlock::makeImage(shown),
                                 director::ContentBlock::makeText(inventoryPrompt(shown.size()))})};
    const quint64 id = m_provider->send(request);
    m_pending.emplace(id, Pending{want, shown.size(), reason});
    qCInfo(lcCanvas) << "tier 2 request" << id << "for" << want << "shown as" << shown.size() << reason;
    return id;
}

void FullAnalyzer::onProviderFinished(quint64 requestId, const director::ProviderResponse& response)
{
    const auto it = m_pending.find(requestId);
    if (it == m_pending.end())
        return; // not ours (the provider is shared with the Director) or canceled
    const Pending pending = it->second;
    m_pending.erase(it);

    FullAnalysisResult result;
    result.requestId = requestId;
    result.region = pending.region;
    result.reason = pending.reason;
    result.latencyMs = response.latencyMs;
    result.inputTokens = response.usage.totalInputTokens();
    result.outputTokens = response.usage.outputTokens;
    result.costUsd = response.usage.costUsd;
    if (!response.ok()) {
        result.error =
            QStringLiteral("%1: %2").arg(director::toString(response.error), response.errorMessage);
    } else if (response.stopReason == director::StopReason::Refusal) {
        result.report.refused = true;
        result.error = QStringLiteral("the model refused the inventory");
    } else {
        InventoryParseOptions options;
        options.imageSize = pending.shownSize;
        const director::ScreenshotScaler scaler(pending.region.size());
        const QPoint offset = pending.region.topLeft();
        options.toScreen = [scaler, offset](const QRect& r) { return scaler.toScreen(r).translated(offset); };
        result.report = parseInventory(response.text(), options);
        if (response.stopReason == director::StopReason::MaxTokens && result.report.malformed)
            result.report.error += QStringLiteral(" (the reply was cut at max_tokens)");
        result.error = result.report.error;
        result.ok = result.report.ok();
    }
    if (!result.ok)
        qCWarning(lcCanvas) << "tier 2 request" << requestId << "failed:" << result.error;
    else
        qCInfo(lcCanvas) << "tier 2 request" << requestId << "accepted" << result.report.accepted
                         << "rejected" << result.report.rejected << "in" << result.latencyMs << "ms";
    emit finished(result);
}

} // namespace ciu::canvas
