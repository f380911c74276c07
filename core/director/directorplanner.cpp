#include "core/director/director.h"
#include "core/director/directorinternal.h"
#include "core/director/localplanner.h"

// The planner the Director asks: which one a task gets (the factory's, else the local one) and how it is
// installed (its decisions, plan changes and model calls wired to the Director, the usage accounted), and
// the normal planner taking over from a replay that cannot go on.

namespace ciu {

std::unique_ptr<PlanBackend> Director::defaultBackend(const DirectorOptions& options, QString* error) const
{
    if (options.loop == DirectorOptions::Loop::Classic) {
        *error = QStringLiteral("the classic loop needs a model provider (--provider anthropic or openai)");
        return nullptr;
    }
    if (options.provider.isEmpty() || options.provider == QLatin1String("local"))
        return std::make_unique<LocalPlanner>();
    *error = QStringLiteral("no planner for provider \"%1\" in this build").arg(options.provider);
    return nullptr;
}

std::unique_ptr<PlanBackend> Director::createBackend(QString* error) const
{
    return m_factory ? m_factory(m_options, error) : defaultBackend(m_options, error);
}

bool Director::installBackend(std::unique_ptr<PlanBackend> backend)
{
    m_backend = std::move(backend);
    connect(m_backend.get(), &PlanBackend::decided, this, &Director::onDecided, Qt::QueuedConnection);
    connect(m_backend.get(), &PlanBackend::planChanged, this, &Director::emitPlan);
    connect(m_backend.get(), &PlanBackend::progress, this,
            [this](const QString& text) { emitInfo(QStringLiteral("model"), text); });
    connect(m_backend.get(), &PlanBackend::modelCalled, this,
            [this](const QJsonObject& call, const CallUsage& u) {
                ++m_usage.modelCalls;
                m_usage.inputTokens += u.inputTokens;
                m_usage.estimatedInputTokens += u.estimatedInputTokens;
                m_usage.screenshotsSent +=
                    call.value(QStringLiteral("images_in_prompt")).toInt(); // actually sent
                m_usage.outputTokens += u.outputTokens;
                m_usage.costUsd += u.costUsd;
                m_cost.add(u.costUsd);
                record(QStringLiteral("model_call"), call);
                emitEvent(
                    SpatialEvent::Kind::ModelCall,
                    {{QStringLiteral("input_tokens"), u.inputTokens},
                     {QStringLiteral("output_tokens"), u.outputTokens},
                     {QStringLiteral("cost_usd"), u.costUsd},
                     {QStringLiteral("stop_reason"), call.value(QStringLiteral("stop_reason")).toString()},
                     {QStringLiteral("calls"), m_usage.modelCalls}});
                if (m_cost.takeWarning())
                    emitInfo(QStringLiteral("cost_warning"),
                             QStringLiteral("80 % of the cost limit used ($%1 of $%2)")
                                 .arg(m_cost.spentUsd(), 0, 'f', 4)
                                 .arg(m_cost.limitUsd(), 0, 'f', 2));
                emit usageUpdated(m_usage);
            });
    m_backend->setReference(m_learning.pastTaskReference());
    QString error;
    if (!m_backend->begin(m_task, &error)) {
        finish(TaskOutcome::Result::Failed, error);
        return false;
    }
    return true;
}

void Director::fallBackFromReplay(const QString& why)
{
    const QString message = QStringLiteral("replay → normal planning: %1")
                                .arg(why.isEmpty() ? QStringLiteral("replay failed") : why);
    emitError(QStringLiteral("replay_escalated"), message);
    record(QStringLiteral("replay_escalated"), {{QStringLiteral("reason"), why}});
    escalate(QStringLiteral("the recorded sequence did not fit the screen"));
    m_learning
        .replayEnded(); // the replayed actions that worked stay: the planner's follow them in the record
    QString error;
    std::unique_ptr<PlanBackend> backend = createBackend(&error);
    if (!backend) {
        finish(TaskOutcome::Result::Failed,
               QStringLiteral("%1; no planner to take over: %2")
                   .arg(message, error.isEmpty() ? QStringLiteral("none") : error));
        return;
    }
    // The replay planner sent this decision: it may only go once the signal has been delivered.
    m_backend->disconnect(this);
    m_backend.release()->deleteLater();
    if (!installBackend(std::move(backend)))
        return;
    emitPlan();
    emitInfo(
        QStringLiteral("planner_changed"),
        QStringLiteral("%1 planner takes over, speed %2").arg(m_backend->name(), toString(m_speed.mode())));
    scheduleProceed();
}

} // namespace ciu
