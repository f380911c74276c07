// The local planner's `select OPTION in DROPDOWN`: open the drop-down, then click the option in its open
// list, scrolling the list when the option is not in view. An option that is not there fails the step (the
// list is closed again with Escape): typing the option's name into a list or a drop-down that is not editable
// is never the method (a GTK combo box ignores it, and the step would only look done). An editable drop-down
// takes the name typed. In a list box (a list always open) the option is clicked among its rows and must end
// selected; in a menu, its item is clicked and must have an effect.

#include "core/director/directorlog.h"
#include "core/director/localplanner.h"
#include "core/model/geometry.h"

#include <algorithm>
#include <utility>

namespace ciu {
namespace {

QString quoted(const QString& s)
{
    return QLatin1Char('"') + s + QLatin1Char('"');
}

bool labelsMatch(const QString& a, const QString& b)
{
    return ZoneResolver::normalize(a) == ZoneResolver::normalize(b) && !ZoneResolver::normalize(a).isEmpty();
}

// Choosing `option`: the drop-down then shows it (read from the tree, else from its pixels).
// The drop-down is the action's focus zone.
Expectation showsOption(const QString& option)
{
    Expectation e;
    e.kind = Expectation::Kind::ShowsText;
    e.text = option;
    e.description = QStringLiteral("the drop-down showing \"%1\"").arg(option);
    return e;
}

// A zone the map held before the drop-down was opened: the same label at (nearly) the same place.
bool wasThere(const Zone& zone, const QList<Zone>& before)
{
    return std::any_of(before.cbegin(), before.cend(), [&](const Zone& b) {
        return b.label == zone.label && intersectionOverUnion(b.bounds, zone.bounds) >= 0.8;
    });
}

// Whether `zone` is the drop-down of the step (`dropdown`, as it was when it was opened): its id, or a zone
// of its type in its box (it came back under a new id). A zone that took over its id but is something else
// (the current option's row, lying over the drop-down) is not.
bool isTheDropdown(const Zone& zone, const Zone& dropdown)
{
    return zone.type == dropdown.type &&
           (zone.id == dropdown.id || intersectionOverUnion(zone.bounds, dropdown.bounds) >= 0.8);
}

} // namespace

QList<Zone> LocalPlanner::openListZones(const ZoneMap& map, const StepState& st)
{
    // What opening the drop-down showed: zones with a label that were not there before, in the drop-down's
    // column (a list opens below, above or over its drop-down, at least as wide), the drop-down itself left
    // out. A list box's options are the rows inside it.
    QList<Zone> list;
    if (!st.zone)
        return list;
    const QRect box = st.zone->bounds;
    for (const Zone& z : map.zones()) {
        if (isTheDropdown(z, *st.zone) || z.label.trimmed().isEmpty() || z.bounds.isEmpty())
            continue;
        if (st.listBox) {
            if (box.contains(z.bounds.center()))
                list.append(z);
            continue;
        }
        if (z.bounds.right() < box.left() || z.bounds.left() > box.right())
            continue;
        if (!wasThere(z, st.beforeOpen))
            list.append(z);
    }
    // The list's own box (a menu labelled with its rows' text) is not an option: a zone holding two others.
    const QList<Zone> all = list;
    list.removeIf([&](const Zone& z) {
        return std::count_if(all.cbegin(), all.cend(),
                             [&](const Zone& o) { return o.id != z.id && z.bounds.contains(o.bounds); }) >= 2;
    });
    // Where the tree lists the options, it is exact: vision's pieces of the same rows are left out.
    const bool fromTree = std::any_of(list.cbegin(), list.cend(),
                                      [](const Zone& z) { return z.source == ZoneSource::Accessibility; });
    if (fromTree)
        list.removeIf([](const Zone& z) { return z.source != ZoneSource::Accessibility; });
    std::sort(list.begin(), list.end(), [](const Zone& a, const Zone& b) {
        return a.bounds.top() != b.bounds.top() ? a.bounds.top() < b.bounds.top()
                                                : a.bounds.left() < b.bounds.left();
    });
    return list;
}

std::optional<Decision> LocalPlanner::selectAction(int index, const ZoneMap& map)
{
    const ScriptCommand& c = m_commands[index];
    StepState& st = m_state[index];
    std::optional<Decision> decision;
    ProposedAction p;
    p.undoable = false;

    if (st.phase == 0) {
        const auto z = resolveOrDecide(c.target, map, ZoneResolver::Purpose::Dropdown, &decision);
        if (!z)
            return decision;
        st.zoneId = z->id;
        st.zone = *z;
        st.beforeOpen = map.zones();
        st.listScrolls = 0;
        st.listWaits = 0;
        st.listSeen.clear();
        st.listInView.clear();
        st.listScrollsUp = false;
        st.listClicksDown = 0;
        st.listLastClicksDown = 0;
        st.listBackUp = false;
        st.notAnOption.clear();
        st.listBox = z->type == ZoneType::ScrollArea;
        st.menu = z->type == ZoneType::MenuItem;
        const bool shows = st.listBox ? std::any_of(map.zones().cbegin(), map.zones().cend(),
                                                    [&](const Zone& row) {
                                                        return row.state.testFlag(ZoneStateFlag::Selected) &&
                                                               labelsMatch(row.label, c.text) &&
                                                               z->bounds.contains(row.bounds.center());
                                                    })
                                      : !st.menu && (labelsMatch(z->label, c.text) ||
                                                     (!z->value.isEmpty() && labelsMatch(z->value, c.text)));
        if (shows) {
            const QString why = QStringLiteral("\"%1\" already shows \"%2\"").arg(c.target, c.text);
            qCDebug(lcLocalPlanner) << "step" << index + 1 << "needs no action:" << why;
            m_plan.steps[index].description = why;
            finishStep(index, PlanStep::Status::Skipped);
            return std::nullopt;
        }
        if (st.listBox) {
            st.phase = 1; // a list box is open already: its rows are the options
            st.beforeOpen.clear();
        } else {
            p.action.type = Action::Type::LeftClick;
            p.action.zoneId = z->id;
            p.expect.kind = Expectation::Kind::AnyChange;
            p.expect.description = st.menu ? QStringLiteral("menu dropdown") : QStringLiteral("option list");
            return act(p);
        }
    }
    if (st.phase == 1) {
        // The open list: the option by name, never the drop-down itself (it shows the current value). In a
        // list box or a menu, only among its rows (a button elsewhere may carry the same name).
        QList<Zone> zones;
        if (st.listBox || st.menu) {
            zones = openListZones(map, st);
        } else {
            for (const Zone& z : map.zones()) {
                if (!st.zone || !isTheDropdown(z, *st.zone))
                    zones.append(z);
            }
        }
        const ZoneMap options(map.version(), map.tNs(), map.screenSize(), zones);
        const auto r = ZoneResolver::resolve(c.text, options, ZoneResolver::Purpose::Option);
        // Only an exact label: OCR merges list items into one zone ("Green Blue"), and clicking such a
        // zone picks the wrong item.
        if (r.zone && labelsMatch(r.zone->label, c.text)) {
            st.phase = 3; // clicking the option finishes the step
            if (st.listBox) {
                p.expect.kind = Expectation::Kind::Selected; // the row; from pixels, its change
                p.expect.description = QStringLiteral("the row selected");
            } else if (st.menu) {
                p.expect.kind = Expectation::Kind::AnyChange; // the item's effect: not known here
                p.expect.description = QStringLiteral("the menu item's effect");
                p.expect.repeatable = false;
            } else {
                p.expect = showsOption(c.text);
                p.focusZoneId = st.zoneId;
                p.focusZone = st.zone;
            }
            p.action.type = Action::Type::LeftClick;
            p.action.zoneId = r.zone->id;
            return act(p);
        }
        // An editable drop-down takes the option's name typed (then Return).
        if (st.zone && !st.listBox && !st.menu &&
            (st.zone->state.testFlag(ZoneStateFlag::Editable) || st.zone->type == ZoneType::TextField)) {
            qCDebug(lcLocalPlanner) << "option" << c.text
                                    << "not in the zone map; typing it into the editable" << st.zoneId;
            p.action.type = Action::Type::TypeText;
            p.action.text = c.text;
            return act(p);
        }
        const QList<Zone> list = openListZones(map, st);
        // The option is in view but vision read its row together with others ("Green Blue": no tree, OCR
        // merged the rows), so no zone is the option alone to click: the open list is told the name by the
        // keyboard (a Qt list jumps to it), then Return. The drop-down must show the option afterwards, so a
        // list that ignores typing (GTK's) ends the step unverified, never done.
        const QString wanted = QString(QLatin1Char(' ') + ZoneResolver::normalize(c.text) + QLatin1Char(' '));
        const bool inMergedRow =
            !st.listBox && !st.menu && std::any_of(list.cbegin(), list.cend(), [&](const Zone& z) {
                return z.source != ZoneSource::Accessibility &&
                       QString(QLatin1Char(' ') + ZoneResolver::normalize(z.label) + QLatin1Char(' '))
                           .contains(wanted);
            });
        if (inMergedRow) {
            qCDebug(lcLocalPlanner) << "option" << c.text << "is read only within a merged row of the list of"
                                    << st.zoneId << "; typing it into the open list";
            p.action.type = Action::Type::TypeText;
            p.action.text = c.text;
            return act(p);
        }
        QStringList inView;
        QRect listBox;
        for (const Zone& z : list) {
            if (st.listBox && labelsMatch(z.label, c.target))
                continue; // the list's own caption or column header, not one of its rows
            inView << z.label.trimmed();
            listBox |= z.bounds;
            if (!st.listSeen.contains(z.label.trimmed()))
                st.listSeen << z.label.trimmed();
        }
        // More of the list may be out of view: scroll it down, then up (a list opens at its current option),
        // while scrolling shows other options. Only an open list (two options or more) is scrolled, and never
        // over the drop-down (a wheel there changes its value). A list box is scrolled over itself.
        const QPoint at = st.listBox ? st.zone->bounds.center() : listBox.center();
        // The same rows after a scroll: the list may not have moved on the map yet (it scrolls smoothly, and
        // its program reports the rows' new places a moment later). Looked at again before its end is
        // taken for reached.
        if (list.size() >= 2 && st.listScrolls > 0 && inView == st.listInView && st.listWaits < kListWaits) {
            ++st.listWaits;
            return Decision{Decision::Kind::Reanalyze,
                            {},
                            QStringLiteral("waiting for the list of %1 to move").arg(quoted(c.target))};
        }
        if (inView != st.listInView)
            st.listWaits = 0;
        if (list.size() >= 2 && st.listScrolls > 0 && inView == st.listInView) {
            st.listWaits = 0;
            if (st.listScrollsUp)
                st.listScrolls = kMaxListScrolls; // both ways scrolled to the end
            else
                st.listBackUp = true;
            st.listScrollsUp = true;
        }
        if (list.size() >= 2 && st.listScrolls < kMaxListScrolls &&
            (st.listBox || !st.zone->bounds.contains(at))) {
            qCDebug(lcLocalPlanner) << "option" << c.text << "not in view in the list of" << st.zoneId
                                    << inView << "; scrolling it" << (st.listScrollsUp ? "up" : "down");
            st.listInView = inView;
            p.action.type = Action::Type::Scroll;
            p.action.point = at;
            p.action.scrollDirection =
                st.listScrollsUp ? platform::ScrollDirection::Up : platform::ScrollDirection::Down;
            // Back up over the rows seen on the way down in one scroll: as many clicks as moved the list down
            // (the last scroll down met the end). A few clicks too many, if the end stopped that scroll
            // early, move the list less than a scroll of kListScrollClicks would, so no row is skipped.
            p.action.amount = std::exchange(st.listBackUp, false)
                                  ? std::max(kListScrollClicks, st.listClicksDown - st.listLastClicksDown)
                                  : kListScrollClicks;
            p.expect.kind = Expectation::Kind::None; // what it showed is looked at in the next decisions
            p.awaitChangeIn = st.listBox ? st.zone->bounds : listBox;
            p.expect.description = QStringLiteral("more of the option list");
            return act(p);
        }
        // Not there: close the list, the drop-down as it was, and fail the step.
        st.notAnOption =
            st.listSeen.isEmpty()
                ? (st.listBox ? QStringLiteral("the list %2 shows no option named \"%1\"")
                              : QStringLiteral("no option named \"%1\" showed when %2 was opened"))
                      .arg(c.text, quoted(c.target))
                : QStringLiteral("%1 is not among the options of %2 (seen: %3)")
                      .arg(quoted(c.text), quoted(c.target), st.listSeen.join(QStringLiteral(", ")));
        if (st.listBox) { // nothing was opened: nothing to close (Escape would close a dialog)
            m_failure =
                QStringLiteral("step %1 (%2) failed: %3").arg(index + 1).arg(c.source, st.notAnOption);
            finishStep(index, PlanStep::Status::Failed);
            return std::nullopt;
        }
        qCDebug(lcLocalPlanner) << "step" << index + 1 << st.notAnOption << "; closing the list";
        p.action.type = Action::Type::Key;
        p.action.text = QStringLiteral("Escape");
        p.expect.kind = Expectation::Kind::None;
        p.expect.description = QStringLiteral("the option list closed");
        return act(p);
    }
    // After typing into an editable drop-down: Return takes the name.
    p.action.type = Action::Type::Key;
    p.action.text = QStringLiteral("Return");
    p.expect = showsOption(c.text);
    p.focusZoneId = st.zoneId;
    p.focusZone = st.zone;
    return act(p);
}

bool LocalPlanner::selectReported(int index, const ProposedAction& action)
{
    // The scrolls of an open list and the closing Escape are not phases of the step.
    const ScriptCommand& c = m_commands[index];
    StepState& st = m_state[index];
    if (c.verb != ScriptCommand::Verb::Select || st.phase != 1)
        return false;
    if (action.action.type == Action::Type::Scroll) {
        ++st.listScrolls;
        if (action.action.scrollDirection == platform::ScrollDirection::Down) {
            st.listClicksDown += action.action.amount;
            st.listLastClicksDown = action.action.amount;
        }
        return true;
    }
    if (!st.notAnOption.isEmpty() && action.action.type == Action::Type::Key) {
        m_failure = QStringLiteral("step %1 (%2) failed: %3").arg(index + 1).arg(c.source, st.notAnOption);
        finishStep(index, PlanStep::Status::Failed);
        return true;
    }
    return false;
}

} // namespace ciu
