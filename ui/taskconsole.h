#pragma once

#include "ui/runstate.h"

#include <QMetaType>
#include <QWidget>

class QCheckBox;
class QFrame;
class QComboBox;
class QLabel;
class QListView;
class QPlainTextEdit;
class QPushButton;
class QTimer;

namespace ciu::ui {

class PlanModel;

// What the user asks the agent to do.
struct TaskRequest
{
    QString task;
    QString provider;       // "local", "anthropic", "openai"
    QString model;          // empty: the provider's default
    QString embeddingModel; // openai: past-task retrieval with its embeddings; empty: BM25 alone
    QString speed;          // "max", "high", "medium", "low"
    bool dryRun = true;
    bool startPaused = false; // Step pressed while idle: start, do one action, pause
    QString replayTaskId;     // replay this remembered task's steps (core/knowledge/taskmemory.h)
};

// The task console: task text, provider, model, speed mode, dry run; Run, Pause, Resume, Step, Stop;
// the Director's plan with each step's status. Its buttons and its status line follow `runState`.
class TaskConsole final : public QWidget
{
    Q_OBJECT
public:
    explicit TaskConsole(RunState* runState, QWidget* parent = nullptr);

    TaskRequest request() const;
    AgentState agentState() const { return m_runState->state(); }
    QString statusText() const;
    // The hint above the buttons (first run, a task the offline planner cannot read); empty when hidden.
    QString hintText() const;
    QPushButton* hintButton() const { return m_hintButton; }
    PlanModel* planModel() const { return m_plan; }
    QPushButton* runButton() const { return m_run; }
    QPushButton* pauseButton() const { return m_pause; }
    QPushButton* resumeButton() const { return m_resume; }
    QPushButton* stepButton() const { return m_step; }
    QPushButton* stopButton() const { return m_stop; }
    // "Similar to: …" under the task: the remembered task most like the one typed (empty: none), and the
    // button that replays its steps.
    QString similarText() const;
    QString similarTaskId() const { return m_similarId; }
    QPushButton* replayButton() const { return m_replay; }
    // Where remembered tasks are looked up (empty: the default location).
    void setTaskMemoryDirectory(const QString& directory);

public slots:
    void setTask(const QString& task);
    void setProvider(const QString& provider);
    void setModel(const QString& model);
    void setSpeed(const QString& speed);
    void setDryRun(bool dryRun);
    void setPlan(const ciu::Plan& plan, bool dryRun);
    void run();
    void step();
    // A hint with an optional action button (`buttonText` empty: only a close button).
    void showHint(const QString& text, const QString& buttonText = {});
    void hideHint();
    // Looks up the remembered task most like the one typed (after a pause in typing, or at once).
    void updateSimilar();
    void replaySimilar();

signals:
    void runRequested(const ciu::ui::TaskRequest& request);
    void pauseRequested();
    void resumeRequested();
    void stepRequested();
    void stopRequested();
    // The hint's button: set up a provider in the settings.
    void settingsRequested();
    void hintClosed();

private:
    void updateFromState();
    // True when the request can go to its planner; else shows why in the hint.
    bool checkPlannable(const TaskRequest& request);

    RunState* m_runState;

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
    QWidget* m_hint;
    QLabel* m_hintLabel;
    QPushButton* m_hintButton;
    QListView* m_planView;
    PlanModel* m_plan;
    QWidget* m_similar;
    QLabel* m_similarLabel;
    QPushButton* m_replay;
    QTimer* m_similarTimer;
    QString m_similarId;
    QString m_similarTask;
    QString m_taskMemoryDir;
};

} // namespace ciu::ui

Q_DECLARE_METATYPE(ciu::ui::TaskRequest)
