#include "ui/planmodel.h"

#include <QApplication>
#include <QFont>
#include <QStyle>

namespace ciu::ui {

PlanModel::PlanModel(QObject* parent)
    : QAbstractListModel(parent)
{
}

int PlanModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_steps.size());
}

QVariant PlanModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_steps.size())
        return {};
    const int row = index.row();
    switch (role) {
    case Qt::DisplayRole:
        return QStringLiteral("%1. %2").arg(row + 1).arg(m_steps.at(row));
    case Qt::ToolTipRole:
        return m_steps.at(row);
    case Qt::FontRole:
        if (row == m_current) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::DecorationRole:
        if (row < m_current)
            return QApplication::style()->standardIcon(QStyle::SP_DialogApplyButton);
        if (row == m_current)
            return QApplication::style()->standardIcon(QStyle::SP_MediaPlay);
        return {};
    case Qt::AccessibleDescriptionRole:
        return row < m_current ? tr("done") : row == m_current ? tr("current step") : tr("pending");
    default:
        return {};
    }
}

void PlanModel::setPlan(const QStringList& steps, int currentStep)
{
    beginResetModel();
    m_steps = steps;
    m_current = currentStep;
    endResetModel();
}

void PlanModel::setCurrentStep(int currentStep)
{
    if (currentStep == m_current)
        return;
    m_current = currentStep;
    if (!m_steps.isEmpty())
        emit dataChanged(index(0), index(int(m_steps.size()) - 1));
}

void PlanModel::clear()
{
    setPlan({}, -1);
}

} // namespace ciu::ui
