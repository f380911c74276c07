#pragma once

#include "core/director/commandscript.h"
#include "core/director/planbackend.h"
#include "core/director/zoneresolver.h"
#include "core/knowledge/shortcuts.h"

#include <QSet>

#include <functional>

namespace ciu {

// The offline planner (no model, no key, no network): runs a script of the local command language
// (commandscript.h) step by step, resolving zone names against the current zone map just before each
// action. It re-plans a step when its zone is missing (after a re-analysis), and reports a missing or
// ambiguous name with the candidates it saw.
class LocalPlanner final : public PlanBackend
{
    Q_OBJECT
public:
    using PlanBackend::PlanBackend;

    QString name() const override { return QStringLiteral("local"); }
    bool usesModel() const override { return false; }
    bool begin(const QString& task, QString* error) override;
    void decide(const WorldState& world) override;
    void report(const ProposedAction& action, const ActionOutcome& outcome) override;
    Plan plan() const override { return m_plan; }

    const QList<ScriptCommand>& commands() const { return m_commands; }
    // Begins with commands parsed elsewhere (the model's run_steps tool); `title` is the plan's task.
    void beginCommands(const QList<ScriptCommand>& commands, const QString& title);
    // The next decision on `map`, answered directly instead of through decided() (a planner that runs
    // the commands inside its own loop: ModelPlanner's run_steps).
    Decision nextDecision(const ZoneMap& map) { return next(map); }
    // Attempts to find a zone before the planner gives up on a step (each after a re-analysis).
    static constexpr int kMaxResolveAttempts = 3;
    // Re-analyses a step may wait on top of those while a window of a program whose accessibility tree is on
    // the map shows no zone of its own tree yet: its tree is still being read (a file dialog full of rows
    // takes seconds), and vision alone may not find what the tree will name.
    static constexpr int kMaxTreeWaits = 3;
    void setMaxResolveAttempts(int attempts) { m_maxResolveAttempts = std::max(1, attempts); }
    static constexpr int kMaxStepRetries = 2;
    // Scrolls of a drop-down's open list looking for an option (down and up together).
    static constexpr int kMaxListScrolls = 20;
    // Wheel clicks of one scroll through an open list: fewer rows than a list shows (no row is skipped).
    static constexpr int kListScrollClicks = 3;
    // Looks again, each after a re-analysis, at a list that shows the same rows after a scroll before its end
    // is taken for reached.
    static constexpr int kListWaits = 2;
    // Unnamed icon buttons a step hovers to read their tooltips before it gives up on a name (the largest
    // side an icon button may have).
    static constexpr int kMaxTooltipHovers = 16;
    static constexpr int kMaxIconButtonSide = 96;

    // What `invoke` knows of a program (by WM_CLASS): its shortcuts and menu paths. Default: the shipped app
    // schemas with what the store under XDG data learned (knownShortcuts()).
    using ShortcutLookup = std::function<std::optional<AppSchema>(const QString& application)>;
    void setShortcutLookup(ShortcutLookup lookup) { m_shortcuts = std::move(lookup); }
    // Told when an `invoke` through a shortcut had its verified effect (default: marks it verified in the
    // store).
    using ShortcutVerified = std::function<void(const QString& application, const QString& action)>;
    void setShortcutVerified(ShortcutVerified verified) { m_verified = std::move(verified); }
    // Told of the shortcuts read by vision in the rows of a menu `invoke` opened (an accelerator at a row's
    // right, source Vision; not when the rows come from the accessibility tree). Default: merged into the
    // store under XDG data, as `ciu-agent shortcuts` does with what it discovers.
    using ShortcutsSeen = std::function<void(const QString& application, const QList<Shortcut>& shortcuts)>;
    void setShortcutsSeen(ShortcutsSeen seen) { m_seen = std::move(seen); }
    // Told of the label that appeared when an `invoke` ran through its menu path (Shortcut::effect; a
    // dialog's title or first field). Default: kept in the store under XDG data.
    using ShortcutEffectSeen =
        std::function<void(const QString& application, const QString& action, const QString& label)>;
    void setShortcutEffectSeen(ShortcutEffectSeen seen) { m_effectSeen = std::move(seen); }
    // The top-level windows steps may name (`type "ls" into xterm`); decide() takes them from the world.
    void setWindows(const QList<platform::WindowInfo>& windows) { m_windows = windows; }

    // The program the map shows in front: the focused zone's, else the one with the most zones.
    static QString frontApplication(const ZoneMap& map);

    // The plan step a command shows as (exposed for tests).
    static PlanStep planStepFor(const ScriptCommand& command);

private:
    struct StepState
    {
        int phase = 0;
        int resolveAttempts = 0;
        int treeWaits = 0;            // re-analyses waited for a window's tree (kMaxTreeWaits)
        QSet<QString> tooltipsRead;   // the unnamed zones hovered for their tooltips (kMaxTooltipHovers)
        QSet<QString> beforeTooltips; // the zones on the map before the first of those hovers
        int retries = 0;
        QString zoneId;           // resolved target of an earlier phase
        std::optional<Zone> zone; // that target as it was then
        quint64 windowId = 0;     // the window the step names (windowtargets.h), 0: a zone
        // invoke: the shortcut's keys (a first attempt), or the menu path clicked one part per phase.
        QString keys;
        QString application;
        QStringList menuPath;
        QStringList clickedZones;
        QStringList learnedMenus;       // the open menus whose rows were read ("File")
        QSet<QString> labelsBeforeLast; // the labels on the map before the menu path's last click
        // select (localplannerselect.cpp): the map's zones before the drop-down was opened, the scrolls of
        // its open list so far (down, then up), the options in view before the last scroll and all seen, and
        // why the option cannot be chosen (the list is being closed).
        QList<Zone> beforeOpen;
        int listScrolls = 0;
        bool listScrollsUp = false;
        // Wheel clicks scrolled down, and those of the last scroll down (it met the end: nothing moved). The
        // way back up goes over the rows seen going down in one scroll (listBackUp), then one scroll at a
        // time.
        int listClicksDown = 0;
        int listLastClicksDown = 0;
        bool listBackUp = false;
        QStringList listInView;
        QStringList listSeen;
        int listWaits = 0; // looks again at a list that showed the same rows after a scroll (kListWaits)
        QString notAnOption;
        // What the step chooses in: a list box (its options in view already: nothing is opened or closed,
        // the option ends selected) or a menu (its item is run: no drop-down shows it afterwards); else a
        // drop-down.
        bool listBox = false;
        bool menu = false;
    };

    Decision next(const ZoneMap& map);
    // One action for the current step, or a decision that ends/redirects the loop.
    std::optional<Decision> actionFor(int index, const ZoneMap& map);
    std::optional<Zone> resolveOrDecide(const QString& name, const ZoneMap& map,
                                        ZoneResolver::Purpose purpose, std::optional<Decision>* decision);
    // The next unnamed icon button to hover for its tooltip (top window first, in reading order), or none.
    std::optional<Zone> unreadTooltip(const ZoneMap& map, ZoneResolver::Purpose purpose) const;
    // The window a step's name means rather than a zone (localplannerwindows.cpp); nullopt: a zone (or
    // nothing), or `decision` set when the window may not be acted on (a system window).
    std::optional<platform::WindowInfo> windowFor(const QString& name, const ZoneMap& map,
                                                  ZoneResolver::Purpose purpose,
                                                  std::optional<Decision>* decision);
    Decision activateWindow(const platform::WindowInfo& window);
    // `type "X"` with no target goes to the window the task is about (localplannerwindows.cpp): nullopt when
    // the keys may go where the focus is; else the activation of the window to type into, or a failure
    // when no window has the focus and none can be told from the others.
    std::optional<Decision> focusForText(const ZoneMap& map);
    // The window `zone` is on: its own, else the topmost window its centre is in (0: none known).
    quint64 windowOf(const Zone& zone) const;
    // The window an action acts on: the window it activates, its zone's, else the active one (0: none).
    quint64 windowActedOn(const Action& action, const ZoneMap& map) const;
    // A window (topmost first; never the agent's own) of a program with zones from the accessibility tree
    // on `map` that shows none of its own: its title (or class). Empty when there is none.
    QString windowAwaitingTree(const ZoneMap& map) const;
    void finishStep(int index, PlanStep::Status status);
    Decision act(ProposedAction action);
    std::optional<Decision> invokeAction(int index, const ZoneMap& map);
    void invokeDone(int index); // an invoke through keys had its verified effect
    // An invoke through its menu path had its effect: what appeared on `after` is kept (Shortcut::effect).
    void invokeMenuDone(int index, const ZoneMap* after);
    // The shortcuts vision reads in the rows of the menu the invoke step opened (its path so far) on `map`.
    void learnOpenMenu(StepState& st, const ZoneMap& map);
    std::optional<Decision> selectAction(int index, const ZoneMap& map);
    // Whether the report of `action` was the open list's scroll or its closing (the step's state is updated).
    bool selectReported(int index, const ProposedAction& action);
    // The options the drop-down of a select step showed when opened (top to bottom).
    static QList<Zone> openListZones(const ZoneMap& map, const StepState& st);

    QList<ScriptCommand> m_commands;
    QList<StepState> m_state;
    Plan m_plan;
    int m_current = 0; // 0-based index of the running command
    int m_maxResolveAttempts = kMaxResolveAttempts;
    QString m_failure;        // why the failed step failed
    QStringList m_unverified; // steps that ran but whose effect was not seen, with what was seen
    ShortcutLookup m_shortcuts;
    ShortcutVerified m_verified;
    ShortcutsSeen m_seen;
    ShortcutEffectSeen m_effectSeen;
    QList<platform::WindowInfo> m_windows;
    bool m_dryRun = false; // nothing is acted on: a hover shows no tooltip
    // The window of the last action executed (windowActedOn()) and the windows there when it was decided
    // (a window not among them appeared since: what the action opened).
    quint64 m_proposedWindowId = 0;
    QSet<quint64> m_proposedAmong;
    quint64 m_lastWindowId = 0;
    QSet<quint64> m_windowsAtLastAction;
};

} // namespace ciu
