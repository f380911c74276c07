// The local planner's steps that name a window instead of a zone: `click xterm` activates the window,
// `type "ls" into xterm` activates it and types there (the rule between a window and a zone of the same
// name: windowtargets.h).

#include "core/director/directorlog.h"
#include "core/director/localplanner.h"
#include "core/director/safety/riskassessor.h"
#include "core/director/windowtargets.h"

#include <QCoreApplication>
#include <QRegion>
#include <QSet>

#include <algorithm>

namespace ciu {

std::optional<platform::WindowInfo> LocalPlanner::windowFor(const QString& name, const ZoneMap& map,
                                                            ZoneResolver::Purpose purpose,
                                                            std::optional<Decision>* decision)
{
    if (m_windows.isEmpty() || name.trimmed().startsWith(QLatin1Char('#')))
        return std::nullopt;
    const WindowTargets::Result window =
        WindowTargets::resolve(name, m_windows, QCoreApplication::applicationPid());
    if (!window.match)
        return std::nullopt;
    const ZoneResolver::Result zone = ZoneResolver::resolve(name, map, purpose, m_windows);
    if (!WindowTargets::prefersWindow(zone, *window.match))
        return std::nullopt;
    const platform::WindowInfo& w = window.match->window;
    const QString system = safety::RiskAssessor::systemWindow(w.title + QLatin1Char(' ') + w.windowClass);
    if (!system.isEmpty()) {
        *decision =
            Decision{Decision::Kind::Impossible,
                     {},
                     QStringLiteral("step %1 (%2): refused: window %3 looks like a system window (%4)")
                         .arg(m_current + 1)
                         .arg(m_commands[m_current].source, WindowTargets::describe(w), system)};
        return std::nullopt;
    }
    qCDebug(lcLocalPlanner) << "step" << m_current + 1 << "names the window" << WindowTargets::describe(w)
                            << "by its" << window.match->matchedName;
    return w;
}

QString LocalPlanner::windowAwaitingTree(const ZoneMap& map) const
{
    QSet<QString> withTree; // programs (window classes) whose tree is on the map
    for (const Zone& z : map.zones()) {
        if (z.source == ZoneSource::Accessibility && !z.application.isEmpty())
            withTree.insert(z.application);
    }
    if (withTree.isEmpty())
        return {};
    const qint64 self = QCoreApplication::applicationPid();
    QRegion above; // the windows above the one looked at
    for (auto w = m_windows.crbegin(); w != m_windows.crend(); above += w->geometry, ++w) { // bottom first
        if (w->pid == self || w->geometry.isEmpty() || !withTree.contains(w->windowClass))
            continue;
        if (QRegion(w->geometry).subtracted(above).isEmpty())
            continue; // hidden by windows above: nothing of it can be on the map
        // A zone of an unknown window (no window id) is taken for the one it is centred in.
        const QList<const Zone*> inside = map.zonesIntersecting(w->geometry);
        const bool hasTree = std::any_of(inside.cbegin(), inside.cend(), [&w](const Zone* z) {
            return z->source == ZoneSource::Accessibility &&
                   (z->windowId == w->id || (z->windowId == 0 && w->geometry.contains(z->bounds.center())));
        });
        if (!hasTree)
            return w->title.isEmpty() ? w->windowClass : w->title;
    }
    return {};
}

Decision LocalPlanner::activateWindow(const platform::WindowInfo& window)
{
    ProposedAction p;
    p.action.type = Action::Type::ActivateWindow;
    p.action.windowId = window.id;
    p.expect.description = QStringLiteral("window %1 active").arg(WindowTargets::describe(window));
    p.undoable = false;
    PlanStep& step = m_plan.steps[m_current];
    step.zoneId.clear();
    m_state[m_current].windowId = window.id;
    return act(p);
}

quint64 LocalPlanner::windowOf(const Zone& zone) const
{
    const auto own = std::find_if(m_windows.cbegin(), m_windows.cend(),
                                  [&zone](const platform::WindowInfo& w) { return w.id == zone.windowId; });
    if (zone.windowId != 0 && own != m_windows.cend())
        return zone.windowId;
    for (auto w = m_windows.crbegin(); w != m_windows.crend(); ++w) { // topmost first
        if (w->geometry.contains(zone.bounds.center()))
            return w->id;
    }
    return 0;
}

quint64 LocalPlanner::windowActedOn(const Action& action, const ZoneMap& map) const
{
    if (action.type == Action::Type::ActivateWindow)
        return action.windowId;
    if (!action.zoneId.isEmpty()) {
        if (const Zone* z = map.find(action.zoneId))
            return windowOf(*z);
    }
    for (const platform::WindowInfo& w : m_windows) {
        if (w.active)
            return w.id;
    }
    return 0;
}

std::optional<Decision> LocalPlanner::focusForText(const ZoneMap& map)
{
    // The programs' windows: never the agent's own, nor one with no area (a withdrawn Tk root, say).
    const qint64 self = QCoreApplication::applicationPid();
    QList<const platform::WindowInfo*> candidates;
    const platform::WindowInfo* active = nullptr;
    const platform::WindowInfo* last = nullptr;
    for (const platform::WindowInfo& w : m_windows) {
        if (w.pid == self || w.geometry.isEmpty())
            continue;
        candidates << &w;
        if (w.active)
            active = &w;
        if (w.id == m_lastWindowId)
            last = &w;
    }
    if (candidates.isEmpty())
        return std::nullopt; // no window list (no window manager): the keys go where the focus is
    if (active) {
        // The active window takes the keys when the task has not acted elsewhere, when it is the window
        // acted on last, or when it appeared since (what that action opened: a dialog). A field focused in
        // it is what the person sees the text go into, too.
        if (!last || active == last || !m_windowsAtLastAction.contains(active->id))
            return std::nullopt;
        const bool focusedField = std::any_of(map.zones().cbegin(), map.zones().cend(), [&](const Zone& z) {
            return z.state.testFlag(ZoneStateFlag::Focused) && z.type == ZoneType::TextField &&
                   windowOf(z) == active->id;
        });
        if (focusedField)
            return std::nullopt;
        qCDebug(lcLocalPlanner) << "step" << m_current + 1 << "types into the window acted on last,"
                                << WindowTargets::describe(*last) << "rather than the active"
                                << WindowTargets::describe(*active);
        return activateWindow(*last);
    }
    // No window has the focus (the desktop was clicked): the keys would go nowhere.
    if (last)
        return activateWindow(*last);
    if (candidates.size() == 1)
        return activateWindow(*candidates.first());
    QStringList names;
    for (auto w = candidates.crbegin(); w != candidates.crend(); ++w) // topmost first
        names << WindowTargets::describe(**w);
    const ScriptCommand& c = m_commands[m_current];
    return Decision{
        Decision::Kind::Impossible,
        {},
        QStringLiteral("step %1 (%2): no window has the keyboard focus and the task has not acted "
                       "on one: name the window to type into (type \"...\" into WINDOW); windows: %3")
            .arg(m_current + 1)
            .arg(c.source, names.join(QStringLiteral(", ")))};
}

} // namespace ciu
