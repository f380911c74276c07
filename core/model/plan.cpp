#include "core/model/plan.h"

#include <QJsonArray>

#include <array>
#include <utility>

namespace ciu {
namespace {

constexpr std::array<std::pair<PlanStep::Status, const char*>, 5> kStepStatusNames{{
    {PlanStep::Status::Pending, "pending"},
    {PlanStep::Status::Running, "running"},
    {PlanStep::Status::Done, "done"},
    {PlanStep::Status::Failed, "failed"},
    {PlanStep::Status::Skipped, "skipped"},
}};

constexpr std::array<std::pair<PlanStep::Kind, const char*>, 3> kStepKindNames{{
    {PlanStep::Kind::ZoneAction, "zone_action"},
    {PlanStep::Kind::WaitForChange, "wait_for_change"},
    {PlanStep::Kind::Other, "other"},
}};

constexpr std::array<std::pair<Plan::Status, const char*>, 6> kPlanStatusNames{{
    {Plan::Status::Planning, "planning"},
    {Plan::Status::Executing, "executing"},
    {Plan::Status::Paused, "paused"},
    {Plan::Status::Completed, "completed"},
    {Plan::Status::Failed, "failed"},
    {Plan::Status::Stopped, "stopped"},
}};

template<typename E, std::size_t N>
QString nameOf(const std::array<std::pair<E, const char*>, N>& names, E value)
{
    for (const auto& [v, name] : names) {
        if (v == value)
            return QString::fromLatin1(name);
    }
    return {};
}

template<typename E, std::size_t N>
std::optional<E> valueOf(const std::array<std::pair<E, const char*>, N>& names, const QString& name)
{
    for (const auto& [v, n] : names) {
        if (name == QLatin1String(n))
            return v;
    }
    return std::nullopt;
}

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

QString toString(PlanStep::Status status)
{
    return nameOf(kStepStatusNames, status);
}

QString toString(PlanStep::Kind kind)
{
    return nameOf(kStepKindNames, kind);
}

QString toString(Plan::Status status)
{
    return nameOf(kPlanStatusNames, status);
}

std::optional<PlanStep::Status> planStepStatusFromString(const QString& name)
{
    return valueOf(kStepStatusNames, name);
}

std::optional<PlanStep::Kind> planStepKindFromString(const QString& name)
{
    return valueOf(kStepKindNames, name);
}

std::optional<Plan::Status> planStatusFromString(const QString& name)
{
    return valueOf(kPlanStatusNames, name);
}

QString PlanStep::text() const
{
    switch (kind) {
    case Kind::ZoneAction: {
        QString t = QStringLiteral("Navigate to zone \"%1\"").arg(zoneLabel);
        if (zoneType)
            t += QStringLiteral(" (type: %1)").arg(toString(*zoneType));
        if (!verb.isEmpty())
            t += QStringLiteral(" \u2192 ") + verb;
        return t;
    }
    case Kind::WaitForChange:
        if (expectedChange.isEmpty())
            return QStringLiteral("Wait for canvas change");
        return QStringLiteral("Wait for canvas change (%1 expected)").arg(expectedChange);
    case Kind::Other:
        break;
    }
    return description;
}

QJsonObject PlanStep::toJson() const
{
    QJsonObject o;
    o[QLatin1String("kind")] = toString(kind);
    o[QLatin1String("text")] = text();
    if (!description.isEmpty())
        o[QLatin1String("description")] = description;
    if (!zoneLabel.isEmpty())
        o[QLatin1String("zone_label")] = zoneLabel;
    if (!zoneId.isEmpty())
        o[QLatin1String("zone_id")] = zoneId;
    if (zoneType)
        o[QLatin1String("zone_type")] = toString(*zoneType);
    if (!verb.isEmpty())
        o[QLatin1String("verb")] = verb;
    if (!expectedChange.isEmpty())
        o[QLatin1String("expected_change")] = expectedChange;
    o[QLatin1String("status")] = toString(status);
    return o;
}

std::optional<PlanStep> PlanStep::fromJson(const QJsonObject& o, QString* error)
{
    PlanStep s;
    const auto kind = planStepKindFromString(o.value(QLatin1String("kind")).toString());
    if (!kind) {
        fail(error, QStringLiteral("step kind must be zone_action, wait_for_change or other"));
        return std::nullopt;
    }
    s.kind = *kind;
    const auto status = planStepStatusFromString(o.value(QLatin1String("status")).toString());
    if (!status) {
        fail(error, QStringLiteral("step status must be pending, running, done, failed or skipped"));
        return std::nullopt;
    }
    s.status = *status;
    s.description = o.value(QLatin1String("description")).toString();
    s.zoneLabel = o.value(QLatin1String("zone_label")).toString();
    s.zoneId = o.value(QLatin1String("zone_id")).toString();
    if (o.contains(QLatin1String("zone_type"))) {
        s.zoneType = zoneTypeFromString(o.value(QLatin1String("zone_type")).toString());
        if (!s.zoneType) {
            fail(error, QStringLiteral("unknown zone_type \"%1\"")
                            .arg(o.value(QLatin1String("zone_type")).toString()));
            return std::nullopt;
        }
    }
    s.verb = o.value(QLatin1String("verb")).toString();
    s.expectedChange = o.value(QLatin1String("expected_change")).toString();
    return s;
}

QString Plan::toText() const
{
    QString t = QStringLiteral("Task: \"%1\"\n\nPlan:\n").arg(task);
    for (int i = 0; i < steps.size(); ++i)
        t += QStringLiteral("  Step %1: %2\n").arg(i + 1).arg(steps.at(i).text());
    t += QStringLiteral("\nCurrent step: %1\nStatus: %2\n").arg(currentStep).arg(toString(status));
    return t;
}

QJsonObject Plan::toJson() const
{
    QJsonArray stepsJson;
    for (const PlanStep& s : steps)
        stepsJson.append(s.toJson());
    return {{QStringLiteral("task"), task},
            {QStringLiteral("steps"), stepsJson},
            {QStringLiteral("current_step"), currentStep},
            {QStringLiteral("status"), toString(status)}};
}

std::optional<Plan> Plan::fromJson(const QJsonObject& o, QString* error)
{
    Plan p;
    if (!o.value(QLatin1String("task")).isString()) {
        fail(error, QStringLiteral("plan needs a task string"));
        return std::nullopt;
    }
    p.task = o.value(QLatin1String("task")).toString();
    const auto status = planStatusFromString(o.value(QLatin1String("status")).toString());
    if (!status) {
        fail(error,
             QStringLiteral("unknown plan status \"%1\"").arg(o.value(QLatin1String("status")).toString()));
        return std::nullopt;
    }
    p.status = *status;
    p.currentStep = o.value(QLatin1String("current_step")).toInt(0);
    const QJsonArray stepsJson = o.value(QLatin1String("steps")).toArray();
    for (const QJsonValue& v : stepsJson) {
        QString stepError;
        const auto step = PlanStep::fromJson(v.toObject(), &stepError);
        if (!step) {
            fail(error, QStringLiteral("step %1: %2").arg(p.steps.size() + 1).arg(stepError));
            return std::nullopt;
        }
        p.steps.append(*step);
    }
    if (p.currentStep < 0 || p.currentStep > p.steps.size()) {
        fail(error,
             QStringLiteral("current_step %1 is outside 0..%2").arg(p.currentStep).arg(p.steps.size()));
        return std::nullopt;
    }
    return p;
}

int Plan::count(PlanStep::Status s) const
{
    int n = 0;
    for (const PlanStep& step : steps)
        n += step.status == s ? 1 : 0;
    return n;
}

} // namespace ciu
