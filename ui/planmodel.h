#pragma once

#include <QAbstractListModel>
#include <QStringList>

namespace ciu::ui {

// The Director's plan: its steps, the current one in bold, done ones checked.
class PlanModel final : public QAbstractListModel
{
    Q_OBJECT
public:
    explicit PlanModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;

    QStringList steps() const { return m_steps; }
    int currentStep() const { return m_current; }

public slots:
    // `currentStep` -1: none (not started); == steps.size(): all done.
    void setPlan(const QStringList& steps, int currentStep);
    void setCurrentStep(int currentStep);
    void clear();

private:
    QStringList m_steps;
    int m_current = -1;
};

} // namespace ciu::ui
