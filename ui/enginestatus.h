#pragma once

#include <QLabel>
#include <QWidget>

namespace ciu::ui {

enum class AgentState : quint8;

// The figures of the status bar. Fields a component has not reported yet stay at their defaults.
struct EngineStatus
{
    double fps = 0;
    int tier0 = 0; // frames decided per tier
    int tier1 = 0;
    int tier2 = 0;
    int modelCalls = 0;
    qint64 inputTokens = 0;
    qint64 outputTokens = 0;
    double costUsd = 0;
    double budgetUsd = 0; // 0: no limit
    int iterations = 0;
    int maxIterations = 0; // 0: no limit

    // The texts of the status bar fields (pure, tested).
    QString fpsText() const;
    QString tiersText() const;
    QString modelText() const;
    QString costText() const;
    QString iterationsText() const;
    // True when cost or iterations reached 80 % of their limit.
    bool nearLimit() const;
};

// Permanent status bar fields showing an EngineStatus.
class EngineStatusBar final : public QWidget
{
    Q_OBJECT
public:
    explicit EngineStatusBar(QWidget* parent = nullptr);
    const EngineStatus& status() const { return m_status; }

public slots:
    void setStatus(const ciu::ui::EngineStatus& status);

private:
    EngineStatus m_status;
    QLabel* m_fps;
    QLabel* m_tiers;
    QLabel* m_model;
    QLabel* m_cost;
    QLabel* m_iterations;
};

// A visible "agent active" indicator: a coloured dot and the agent's state.
class AgentIndicator final : public QLabel
{
    Q_OBJECT
public:
    explicit AgentIndicator(QWidget* parent = nullptr);
    AgentState state() const { return m_state; }

public slots:
    void setState(ciu::ui::AgentState state);

private:
    AgentState m_state;
};

} // namespace ciu::ui

Q_DECLARE_METATYPE(ciu::ui::EngineStatus)
