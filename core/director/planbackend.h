#pragma once

#include "core/director/speedmode.h"
#include "core/model/action.h"
#include "core/model/plan.h"
#include "core/model/spatialevent.h"
#include "core/model/zonemap.h"
#include "platform/types.h"

#include <QImage>
#include <QJsonObject>
#include <QObject>

#include <optional>

namespace ciu {

// What the Director expects to see after an action (for verification and the error table).
struct Expectation
{
    enum class Kind : quint8
    {
        None = 1,     // nothing in particular
        AnyChange,    // some canvas change (typing, opening a dropdown or menu)
        StateChecked, // the target check box ends checked
        StateUnchecked,
        ZoneAppears,     // a zone labelled `text` appears
        TextEquals,      // typing into a field: the field (focusZoneId) reads `text`
        TextEndsWith,    // appending to a field: the field's text ends with `text`
        ShowsText,       // choosing an option: the drop-down (focusZoneId) shows `text` as its value
        Selected,        // the target (a tab, a list item) ends selected
        WindowShowsText, // typing into a window: the window (windowId) shows `text` (each of its lines)
        LengthEquals,    // typing into a password field: the tree says it holds `length` characters
    };
    Kind kind = Kind::None;
    QString text;
    int length = -1;      // LengthEquals (the secret itself is never kept in an expectation)
    quint64 windowId = 0; // WindowShowsText: the window typed into
    // Whether doing the action again is harmless. A button's or link's click is not (it may submit twice):
    // its unseen effect is reported as unverified, never retried.
    bool repeatable = true;
    QString description; // "menu dropdown", "dialog" (the plan's wording)
};

// One action a planner proposes.
struct ProposedAction
{
    Action action;
    QString toolUseId;   // model planners: the tool_use to answer
    QString toolName;    // the tool the model called ("click_zone", "computer")
    int planStep = 0;    // 1-based step of the plan this belongs to (0: none)
    QString focusZoneId; // typing: the zone that should receive the text (wrong-zone detection); a choice:
                         // its drop-down
    // The focus zone as the planner last saw it: read back through it (its accessible object, else its
    // place) when its id is gone (a drop-down hidden under its open list comes back under a new id).
    std::optional<Zone> focusZone;
    Expectation expect;
    bool checkpoint = false; // a verification point the plan names (SPEED-MAX)
    bool undoable = true;    // a wrong-zone recovery may press ctrl+z / Escape
    // The rows here move a moment after the action (a list scrolled smoothly, its program reporting their new
    // places late): the next decision waits for them up to the settle time. None moving is no failure (the
    // list's end). Empty: no such wait.
    QRect awaitChangeIn;
    // A hover that reads the tooltip of this unnamed zone (the canvas names it after it): the next decision
    // waits for its label up to twice the settle time. No tooltip is no failure, and the hover is no step of
    // the plan. Empty: no such wait.
    QString awaitLabelOf;
    // The Director answers it itself instead of sending it to the brush (screenshot, cursor position,
    // wait for text, request re-analysis).
    bool local = false;
};

// What became of a proposed action.
struct ActionOutcome
{
    enum class Status : quint8
    {
        Executed = 1, // the brush executed it (see result.success)
        DryRun,       // not executed: dry run
        Refused,      // not executed: validation or safety refused it (message says why)
        Declined,     // not executed: the person declined the confirmation
        Skipped,      // not executed: an earlier action of the batch reached a verification point or failed
        Failed,       // executed and failed, or the recovery gave up
    };
    Status status = Status::Executed;
    ActionResult result;
    QString message; // for the model's tool_result and the log
    bool verificationFailed = false;
    ZoneMapPtr mapAfter; // the zone map after the action settled
    QImage screenshot;   // when the speed mode sends one to the model
    bool retry = false;  // the Director suggests re-planning this step (zone missing, disabled, wrong zone)
    // The Director ended the batch after this action (a verification point changed the screen, or SPEED-LOW
    // asks the model before the next action): a planner running steps of its own stops here too.
    bool batchCut = false;
    bool isError() const
    {
        if (status == Status::DryRun)
            return false;
        return status != Status::Executed || !result.success;
    }
};

QString toString(ActionOutcome::Status status);

// A planner's answer to "what next?".
struct Decision
{
    enum class Kind : quint8
    {
        Act = 1,    // run `actions` in order
        Complete,   // the task is done (message: summary)
        Impossible, // the task cannot be done here (message: explanation for the user)
        Failed,     // the planner failed (message: error), e.g. a provider error or a parse error
        Reanalyze,  // the planner needs a fresh zone map (message: reason) before deciding again
        Fallback,   // a replay cannot go on (message: why): the Director hands the task to the normal planner
        Unverified, // every step ran, but some effects were not seen (message: which, and what was seen)
    };
    Kind kind = Kind::Act;
    QList<ProposedAction> actions;
    QString message;
};

// What a planner sees when it decides.
struct WorldState
{
    ZoneMapPtr map;
    QList<SpatialEvent> recentEvents; // since the last decision
    QImage screenshot;                // only when the speed mode or the planner needs one
    QSize screenSize;
    SpeedMode speed = SpeedMode::Medium;
    bool dryRun = true;
    // The top-level windows (stacking order, bottom first) as last reported: steps may name a window.
    QList<platform::WindowInfo> windows;
};

// Token usage and cost of one model call, as the Director accounts for it.
struct CallUsage
{
    qint64 inputTokens = 0;          // all input tokens (cached ones included)
    qint64 estimatedInputTokens = 0; // estimated from the request itself (text / 4, images w*h / 750)
    qint64 outputTokens = 0;
    double costUsd = 0;
};

// The part of the Director that decides: the offline local planner, the zone-level model loop, or the
// classic screenshot-per-step loop. Lives on the Director's thread. decide() answers with decided(),
// possibly later (network); report() tells it what became of every proposed action, in order, before
// the next decide().
class PlanBackend : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    virtual QString name() const = 0;
    virtual bool usesModel() const = 0;
    // Prepares for a task. False with *error when the task cannot even be started (parse error, no key).
    virtual bool begin(const QString& task, QString* error) = 0;
    virtual void decide(const WorldState& world) = 0;
    virtual void report(const ProposedAction& action, const ActionOutcome& outcome) = 0;
    // Drops any call in flight (stop/pause); decided() will not follow for it.
    virtual void cancel() {}
    // Remembered tasks similar to this one, as a reference text (before begin(); empty: none). Planners
    // that ask a model show it to the model; the others have no use for it.
    virtual void setReference(const QString& text) { Q_UNUSED(text); }
    // The plan as far as the backend knows it.
    virtual Plan plan() const = 0;
    // Whether the next decide() needs a screenshot in WorldState (classic loop: always).
    virtual bool wantsScreenshot() const { return false; }

signals:
    void decided(const ciu::Decision& decision);
    // One model call finished: the record for director.jsonl (prompt summary, reply, usage; images are
    // referenced, never embedded; never the key) and its usage.
    void modelCalled(const QJsonObject& record, const ciu::CallUsage& usage);
    void planChanged();
    // A model call's progress for the console and the app ("waiting for the model: 20 s, nothing received
    // for 20 s", "retrying in 2 s: ...").
    void progress(const QString& text);
};

} // namespace ciu

Q_DECLARE_METATYPE(ciu::Decision)
Q_DECLARE_METATYPE(ciu::CallUsage)
