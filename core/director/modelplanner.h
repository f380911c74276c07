#pragma once

#include "core/director/directortypes.h"
#include "core/director/planbackend.h"
#include "core/director/providers/provider.h"

#include <QHash>

#include <memory>

namespace ciu {

// A planner that asks a model provider (Anthropic Messages API or an OpenAI-compatible server).
//
// Zones loop (seed 000 §3.4): the model sees the zone map as structured, delimited untrusted data and acts
// with zone-level tools — click_zone, type_in_zone, scroll_zone, drag_zone, press_keys, wait_for_change,
// request_reanalysis, update_plan, task_complete, task_impossible — plus the native computer tool for raw
// coordinates. It may batch several tools in one reply; later calls carry tool results and a zone-map delta,
// and a screenshot only when the speed mode's verification asks for one.
//
// Classic loop (seed 002, Anthropic's reference demo): only the computer tool, a screenshot with the task
// and after every action, one model call per action. Kept for comparison (--loop classic).
class ModelPlanner final : public PlanBackend
{
    Q_OBJECT
public:
    ModelPlanner(std::unique_ptr<director::Provider> provider, DirectorOptions::Loop loop, QString model = {},
                 QObject* parent = nullptr);
    ~ModelPlanner() override;

    QString name() const override;
    bool usesModel() const override { return true; }
    bool begin(const QString& task, QString* error) override;
    void decide(const WorldState& world) override;
    void report(const ProposedAction& action, const ActionOutcome& outcome) override;
    void cancel() override;
    Plan plan() const override { return m_plan; }
    bool wantsScreenshot() const override;

    // The compact text form of a zone map the model reads (one zone a line), exposed for tests.
    static QString describeZones(const ZoneMap& map, int maxZones = 250);
    // Lines for the zones added, removed or changed between two maps; empty when nothing changed.
    static QString describeDelta(const ZoneMap& before, const ZoneMap& after);
    // The zone-level tool definitions.
    static QList<director::ToolDefinition> zoneTools();
    // Converts a computer tool input (already mapped to screen coordinates) into an action.
    static std::optional<ProposedAction> computerAction(const QJsonObject& input, QString* error);

private:
    struct ToolCall
    {
        QString id;
        QString name;
        int expected = 0; // actions proposed for it
        QList<ActionOutcome> outcomes;
        std::optional<director::ContentBlock> result; // answered
    };

    void onFinished(quint64 requestId, const director::ProviderResponse& response);
    void send(const WorldState& world);
    Decision interpret(const director::ProviderResponse& response);
    void answer(const QString& toolUseId, const QString& text, bool isError, const QImage& image = {});
    QString systemPrompt(const WorldState& world) const;
    QJsonObject recordFor(const director::ProviderRequest& request,
                          const director::ProviderResponse& response) const;
    static qint64 estimateTokens(const director::ProviderRequest& request);

    std::unique_ptr<director::Provider> m_provider;
    DirectorOptions::Loop m_loop;
    QString m_model;
    QString m_task;
    Plan m_plan;
    QList<director::Message> m_messages;
    QList<ToolCall> m_calls; // of the last reply, in order
    director::ProviderRequest m_lastRequest;
    director::ProviderResponse m_lastResponse;
    quint64 m_requestId = 0;
    bool m_continuePaused = false;
    int m_maxTokensRetries = 0;
    QString m_nudge; // text for the next user message
    ZoneMapPtr m_lastSentMap;
    QSize m_screenSize;
    bool m_first = true;
};

} // namespace ciu
