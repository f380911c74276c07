#pragma once

#include "core/model/zone.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace ciu {

// One step of a Director plan.
struct PlanStep
{
    enum class Status : quint8
    {
        Pending = 1,
        Running,
        Done,
        Failed,
        Skipped
    };

    // A zone step renders as `Navigate to zone "LABEL" (type: TYPE) → VERB`; a wait step as
    // `Wait for canvas change (EXPECTED expected)`; anything else as its description.
    enum class Kind : quint8
    {
        ZoneAction = 1,
        WaitForChange,
        Other
    };

    Kind kind = Kind::Other;
    QString description; // free text (Other), or an optional note for the other kinds
    QString zoneLabel;   // target zone label as the planner named it
    QString zoneId;      // resolved zone id, empty until resolved
    std::optional<ZoneType> zoneType;
    QString verb;           // click, double_click, type, scroll, drag, check, select ...
    QString expectedChange; // "menu dropdown", "dialog"; empty: none expected
    Status status = Status::Pending;

    // The one-line text of the step as the seed shows it.
    QString text() const;
    QJsonObject toJson() const;
    static std::optional<PlanStep> fromJson(const QJsonObject& object, QString* error = nullptr);
};

// A task, its steps, the current step and the plan's status. Value type: copied into signals.
struct Plan
{
    enum class Status : quint8
    {
        Planning = 1,
        Executing,
        Paused,
        Completed,
        Failed,
        Stopped
    };

    QString task;
    QList<PlanStep> steps;
    int currentStep = 0; // 1-based; 0 before the first step
    Status status = Status::Planning;

    // Text exactly in the seed's format:
    //   Task: "…"
    //
    //   Plan:
    //     Step 1: …
    //
    //   Current step: 1
    //   Status: executing
    QString toText() const;
    QJsonObject toJson() const;
    static std::optional<Plan> fromJson(const QJsonObject& object, QString* error = nullptr);

    // Counts of steps by status (for summaries).
    int count(PlanStep::Status status) const;
};

QString toString(PlanStep::Status status);
QString toString(PlanStep::Kind kind);
QString toString(Plan::Status status);
std::optional<PlanStep::Status> planStepStatusFromString(const QString& name);
std::optional<PlanStep::Kind> planStepKindFromString(const QString& name);
std::optional<Plan::Status> planStatusFromString(const QString& name);

} // namespace ciu

Q_DECLARE_METATYPE(ciu::Plan)
