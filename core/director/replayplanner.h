#pragma once

#include "core/director/planbackend.h"
#include "core/director/sequencelibrary.h"

namespace ciu {

// The MAX speed mode's replay of a recorded sequence (sequencelibrary.h): no model calls. Each step's zone
// is resolved against the current zone map just before it runs (label and type, or the caption of an
// unlabelled field); only the last action is a verification point. A zone that cannot be found after a
// few re-analyses, a failed action or a failed final verification ends the replay with a Fallback
// decision: the Director then hands the task to the normal planner and logs the transition.
class ReplayPlanner final : public PlanBackend
{
    Q_OBJECT
public:
    explicit ReplayPlanner(RecordedSequence sequence, QObject* parent = nullptr);

    QString name() const override { return QStringLiteral("replay"); }
    bool usesModel() const override { return false; }
    bool begin(const QString& task, QString* error) override;
    void decide(const WorldState& world) override;
    void report(const ProposedAction& action, const ActionOutcome& outcome) override;
    Plan plan() const override { return m_plan; }

    // Re-analyses to wait for before a missing zone ends the replay (a menu opening is analysed late).
    static constexpr int kMaxResolveAttempts = 3;

private:
    Decision fallback(const QString& why);
    void emitDecision(Decision decision);

    RecordedSequence m_sequence;
    Plan m_plan;
    int m_next = 0; // index of the next step
    int m_resolveAttempts = 0;
    QString m_failure; // set by report(): the replay cannot go on
};

} // namespace ciu
