#pragma once

#include "core/model/plan.h"

#include <QAbstractListModel>
#include <QStringList>

namespace ciu::ui {

// The Director's plan as the task console lists it: each step with its own status (done, failed, skipped,
// the one running now, pending). In a dry run a step that went through is a preview ("would click “OK”"),
// never a done step; once the task has ended no step is shown as running.
class PlanModel final : public QAbstractListModel
{
    Q_OBJECT
public:
    explicit PlanModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    QStringList steps() const;
    PlanStep::Status status(int row) const;
    // The row of the step running now, -1 when none is.
    int currentRow() const;
    bool isDryRun() const { return m_dryRun; }
    // The step's text as listed (without its number).
    QString stepText(int row) const;

public slots:
    void setPlan(const ciu::Plan& plan, bool dryRun);
    // The task ended (or none runs): a step still marked running was interrupted.
    void setFinished(bool finished);
    void clear();

private:
    QList<PlanStep> m_steps;
    bool m_dryRun = false;
    bool m_finished = true;
};

} // namespace ciu::ui
