#pragma once

#include <QMetaType>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QListView;
class QPlainTextEdit;
class QPushButton;

namespace ciu::ui {

class PlanModel;

// What the user asks the agent to do.
struct TaskRequest
{
    QString task;
    QString provider; // "local", "anthropic", "openai"
    QString model;    // empty: the provider's default
    QString speed;    // "max", "high", "medium", "low"
    bool dryRun = true;
    bool startPaused = false; // Step pressed while idle: start, do one action, pause
};

enum class AgentState : quint8
{
    Idle = 1,
    Running,
    Paused,
    Stopping,
    Finished
};
QString toDisplayString(AgentState state);

// The task console: task text, provider, model, speed mode, dry run; Run, Pause, Resume, Step, Stop;
// the Director's plan with the current step.
class TaskConsole final : public QWidget
{
    Q_OBJECT
public:
    explicit TaskConsole(QWidget* parent = nullptr);

    TaskRequest request() const;
    AgentState agentState() const { return m_state; }
    PlanModel* planModel() const { return m_plan; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* pauseButton() const { return m_pause; }
    QPushButton* resumeButton() const { return m_resume; }
    QPushButton* stepButton() const { return m_step; }
    QPushButton* stopButton() const { return m_stop; }

public slots:
    void setTask(const QString& task);
    void setProvider(const QString& provider);
    void setModel(const QString& model);
    void setSpeed(const QString& speed);
    void setDryRun(bool dryRun);
    void setAgentState(ciu::ui::AgentState state);
    void setPlan(const QStringList& steps, int currentStep);
    void setStatusText(const QString& text);
    void run();
    void step();

signals:
    void runRequested(const ciu::ui::TaskRequest& request);
    void pauseRequested();
    void resumeRequested();
    void stepRequested();
    void stopRequested();

private:
    void updateButtons();

    QPlainTextEdit* m_taskEdit;
    QComboBox* m_providerBox;
    QComboBox* m_modelBox;
    QComboBox* m_speedBox;
    QCheckBox* m_dryRunBox;
    QPushButton* m_run;
    QPushButton* m_pause;
    QPushButton* m_resume;
    QPushButton* m_step;
    QPushButton* m_stop;
    QLabel* m_statusLabel;
    QListView* m_planView;
    PlanModel* m_plan;
    AgentState m_state = AgentState::Idle;
};

} // namespace ciu::ui

Q_DECLARE_METATYPE(ciu::ui::TaskRequest)
