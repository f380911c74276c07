#include "ui/enginestatus.h"

#include "ui/runstate.h"

#include <QCoreApplication>
#include <QHBoxLayout>

namespace ciu::ui {

QString EngineStatus::fpsText() const
{
    return QCoreApplication::translate("ciu::ui::EngineStatusBar", "%1 fps").arg(fps, 0, 'f', 1);
}

QString EngineStatus::tiersText() const
{
    return QCoreApplication::translate("ciu::ui::EngineStatusBar", "T0 %1 · T1 %2 · T2 %3")
        .arg(tier0)
        .arg(tier1)
        .arg(tier2);
}

QString EngineStatus::modelText() const
{
    return QCoreApplication::translate("ciu::ui::EngineStatusBar", "%n model call(s), %1 tokens", nullptr,
                                       modelCalls)
        .arg(inputTokens + outputTokens);
}

QString EngineStatus::costText() const
{
    if (budgetUsd > 0)
        return QCoreApplication::translate("ciu::ui::EngineStatusBar", "$%1 of $%2")
            .arg(costUsd, 0, 'f', 4)
            .arg(budgetUsd, 0, 'f', 2);
    return QCoreApplication::translate("ciu::ui::EngineStatusBar", "$%1").arg(costUsd, 0, 'f', 4);
}

QString EngineStatus::iterationsText() const
{
    if (maxIterations > 0)
        return QCoreApplication::translate("ciu::ui::EngineStatusBar", "iteration %1 of %2")
            .arg(iterations)
            .arg(maxIterations);
    return QCoreApplication::translate("ciu::ui::EngineStatusBar", "iteration %1").arg(iterations);
}

bool EngineStatus::nearLimit() const
{
    return (budgetUsd > 0 && costUsd >= 0.8 * budgetUsd) ||
           (maxIterations > 0 && iterations >= 0.8 * maxIterations);
}

EngineStatusBar::EngineStatusBar(QWidget* parent)
    : QWidget(parent)
    , m_fps(new QLabel(this))
    , m_tiers(new QLabel(this))
    , m_model(new QLabel(this))
    , m_cost(new QLabel(this))
    , m_iterations(new QLabel(this))
{
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(12);
    m_fps->setToolTip(tr("Frames captured per second"));
    m_tiers->setToolTip(
        tr("Frames handled by Tier 0 (diff only), Tier 1 (local analysis) and Tier 2 (model)"));
    m_model->setToolTip(tr("Calls to the language model and tokens used"));
    m_cost->setToolTip(tr("Cost so far against the budget"));
    m_iterations->setToolTip(tr("Director iterations against the limit"));
    for (QLabel* label : {m_fps, m_tiers, m_model, m_cost, m_iterations})
        layout->addWidget(label);
    setStatus({});
}

void EngineStatusBar::setStatus(const EngineStatus& status)
{
    m_status = status;
    m_fps->setText(status.fpsText());
    m_tiers->setText(status.tiersText());
    m_model->setText(status.modelText());
    m_cost->setText(status.costText());
    m_iterations->setText(status.iterationsText());
    const QString warn =
        status.nearLimit() ? QStringLiteral("color: #c62828; font-weight: bold;") : QString();
    m_cost->setStyleSheet(warn);
    m_iterations->setStyleSheet(warn);
}

AgentIndicator::AgentIndicator(QWidget* parent)
    : QLabel(parent)
    , m_state(AgentState::Idle)
{
    setTextFormat(Qt::RichText);
    setMargin(2);
    setState(AgentState::Idle);
}

void AgentIndicator::setState(AgentState state)
{
    m_state = state;
    QString color;
    QString text;
    switch (state) {
    case AgentState::Starting:
    case AgentState::Running:
        color = QStringLiteral("#e53935");
        text = tr("AGENT ACTIVE");
        break;
    case AgentState::TakenOver:
        color = QStringLiteral("#fb8c00");
        text = tr("You have control");
        break;
    case AgentState::Paused:
        color = QStringLiteral("#fb8c00");
        text = tr("Agent paused");
        break;
    case AgentState::Stopping:
        color = QStringLiteral("#fb8c00");
        text = tr("Agent stopping");
        break;
    case AgentState::Idle:
    case AgentState::Finished:
        color = QStringLiteral("#43a047");
        text = tr("Agent idle");
        break;
    }
    setText(
        QStringLiteral("<span style=\"color:%1\">&#9679;</span> <b>%2</b>").arg(color, text.toHtmlEscaped()));
    setAccessibleName(text);
    setToolTip(state == AgentState::Running || state == AgentState::Starting
                   ? tr("The agent controls mouse and keyboard. Press the emergency stop "
                        "hotkey or Stop to end it.")
                   : QString());
}

} // namespace ciu::ui
