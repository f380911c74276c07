#include "ui/planmodel.h"

#include <QApplication>
#include <QFont>
#include <QPalette>
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

QStringList PlanModel::steps() const
{
    QStringList texts;
    for (const PlanStep& step : m_steps)
        texts << step.text();
    return texts;
}

PlanStep::Status PlanModel::status(int row) const
{
    return row >= 0 && row < m_steps.size() ? m_steps.at(row).status : PlanStep::Status::Pending;
}

int PlanModel::currentRow() const
{
    if (m_finished)
        return -1;
    for (int row = 0; row < m_steps.size(); ++row) {
        if (m_steps.at(row).status == PlanStep::Status::Running)
            return row;
    }
    return -1;
}

QString PlanModel::stepText(int row) const
{
    if (row < 0 || row >= m_steps.size())
        return {};
    const PlanStep& step = m_steps.at(row);
    if (!m_dryRun || step.status != PlanStep::Status::Done)
        return step.text();
    if (step.kind == PlanStep::Kind::ZoneAction && !step.verb.isEmpty() && !step.zoneLabel.isEmpty()) {
        QString verb = step.verb;
        verb.replace(QLatin1Char('_'), QLatin1Char('-'));
        return tr("would %1 “%2”").arg(verb, step.zoneLabel);
    }
    return tr("would: %1").arg(step.text());
}

QVariant PlanModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_steps.size())
        return {};
    const int row = index.row();
    const PlanStep::Status st = m_steps.at(row).status;
    const bool running = st == PlanStep::Status::Running && !m_finished;
    const bool interrupted = st == PlanStep::Status::Running && m_finished;
    const QStyle* style = QApplication::style();
    switch (role) {
    case Qt::DisplayRole:
        return QStringLiteral("%1. %2").arg(row + 1).arg(stepText(row));
    case Qt::ToolTipRole:
        return m_steps.at(row).text();
    case Qt::FontRole:
        if (running) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return {};
    case Qt::ForegroundRole:
        if (st == PlanStep::Status::Skipped || interrupted)
            return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::DecorationRole:
        switch (st) {
        case PlanStep::Status::Done:
            return style->standardIcon(m_dryRun ? QStyle::SP_FileDialogContentsView
                                                : QStyle::SP_DialogApplyButton);
        case PlanStep::Status::Failed:
            return style->standardIcon(QStyle::SP_MessageBoxCritical);
        case PlanStep::Status::Running:
            return style->standardIcon(running ? QStyle::SP_MediaPlay : QStyle::SP_MediaStop);
        case PlanStep::Status::Skipped:
        case PlanStep::Status::Pending:
            return {};
        }
        return {};
    case Qt::AccessibleDescriptionRole:
        switch (st) {
        case PlanStep::Status::Done:
            return m_dryRun ? tr("preview, not executed") : tr("done");
        case PlanStep::Status::Failed:
            return tr("failed");
        case PlanStep::Status::Skipped:
            return tr("skipped");
        case PlanStep::Status::Running:
            return running ? tr("current step") : tr("interrupted");
        case PlanStep::Status::Pending:
            return tr("pending");
        }
        return {};
    default:
        return {};
    }
}

void PlanModel::setPlan(const Plan& plan, bool dryRun)
{
    beginResetModel();
    m_steps = plan.steps;
    m_dryRun = dryRun;
    endResetModel();
}

void PlanModel::setFinished(bool finished)
{
    if (finished == m_finished)
        return;
    m_finished = finished;
    if (!m_steps.isEmpty())
        emit dataChanged(index(0), index(int(m_steps.size()) - 1));
}

void PlanModel::clear()
{
    if (m_steps.isEmpty())
        return;
    beginResetModel();
    m_steps.clear();
    endResetModel();
}

} // namespace ciu::ui
