// The local planner's `invoke` command: a menu action by its known shortcut when its keys can be trusted
// (verified before, or from a shipped schema or the user; verified by its effect like any step), else (or
// when the keys showed no effect) through its menu path, one click per part. What the menu path showed (a
// label that appeared) is kept: keys read from the tree are then tried first, and verified when they show
// it too. Other keys not yet trusted are tried only when no menu path is known.

#include "core/director/directorlog.h"
#include "core/director/localplanner.h"
#include "core/knowledge/shortcutdiscovery.h"
#include "core/knowledge/shortcutstore.h"

#include <QDateTime>
#include <QHash>

namespace ciu {
namespace {

QStringList menuParts(const QString& path)
{
    QStringList parts;
    for (const QString& part : path.split(QLatin1Char('>'))) {
        if (!part.trimmed().isEmpty())
            parts << part.trimmed();
    }
    return parts;
}

// A menu label as the resolver compares it: mnemonic markers and a trailing ellipsis removed.
QString menuLabel(const QString& part)
{
    QString label = withoutMnemonic(part).trimmed();
    while (label.endsWith(QChar(0x2026)) || label.endsWith(QLatin1Char('.')))
        label.chop(1);
    return label.trimmed();
}

std::optional<AppSchema> storedShortcuts(const QString& application)
{
    QString error;
    auto known = knownShortcuts(ShortcutStore(), application, &error);
    if (!known)
        qCWarning(lcLocalPlanner) << "shortcuts of" << application << "not read:" << error;
    return known;
}

// Keys that had their effect before, or that a person checked (a shipped schema, the user's entry).
bool keysTrusted(const Shortcut& shortcut)
{
    return shortcut.isVerified() || shortcut.source == ShortcutSource::Schema ||
           shortcut.source == ShortcutSource::User;
}

void markVerifiedInStore(const QString& application, const QString& action)
{
    const ShortcutStore store;
    QString error;
    auto learned = store.load(application, &error);
    const auto known = knownShortcuts(store, application, &error);
    const Shortcut* used = known ? known->find(action) : nullptr;
    if (!learned || !used) {
        qCWarning(lcLocalPlanner) << "shortcut of" << action << "not marked verified:" << error;
        return;
    }
    learned->merge(*used); // a shipped one becomes a learned one
    learned->markVerified(action, QDateTime::currentMSecsSinceEpoch());
    if (!store.save(*learned, &error))
        qCWarning(lcLocalPlanner) << "shortcut of" << action << "not marked verified:" << error;
}

void noteEffectInStore(const QString& application, const QString& action, const QString& label)
{
    const ShortcutStore store;
    QString error;
    auto learned = store.load(application, &error);
    const auto known = knownShortcuts(store, application, &error);
    const Shortcut* used = known ? known->find(action) : nullptr;
    if (!learned || !used) {
        qCWarning(lcLocalPlanner) << "effect of" << action << "not kept:" << error;
        return;
    }
    learned->merge(*used);
    if (learned->noteEffect(action, label) && !store.save(*learned, &error))
        qCWarning(lcLocalPlanner) << "effect of" << action << "not kept:" << error;
}

// Keys read from the tree whose effect through the menu is known: tried first, checked against it.
bool keysCheckedByEffect(const Shortcut& shortcut)
{
    return shortcut.source == ShortcutSource::Atspi && !shortcut.effect.isEmpty();
}

// A label that is on `map` already (the effect would prove nothing).
bool labelShown(const ZoneMap& map, const QString& label)
{
    for (const Zone& z : map.zones()) {
        if (ZoneResolver::similarity(label, z.label) >= ZoneResolver::kMinScore)
            return true;
    }
    return false;
}

void learnInStore(const QString& application, const QList<Shortcut>& shortcuts)
{
    const ShortcutStore store;
    QString error;
    auto learned = store.load(application, &error);
    if (!learned) {
        qCWarning(lcLocalPlanner) << "shortcuts read in a menu of" << application << "not kept:" << error;
        return;
    }
    bool changed = false;
    for (const Shortcut& s : shortcuts)
        changed = learned->merge(s) || changed;
    if (changed && !store.save(*learned, &error))
        qCWarning(lcLocalPlanner) << "shortcuts read in a menu of" << application << "not kept:" << error;
}

} // namespace

QString LocalPlanner::frontApplication(const ZoneMap& map)
{
    QHash<QString, int> counts;
    for (const Zone& z : map.zones()) {
        if (z.application.isEmpty())
            continue;
        if (z.state.testFlag(ZoneStateFlag::Focused))
            return z.application;
        ++counts[z.application];
    }
    QString best;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        if (best.isEmpty() || it.value() > counts.value(best) ||
            (it.value() == counts.value(best) && it.key() < best))
            best = it.key();
    }
    return best;
}

std::optional<Decision> LocalPlanner::invokeAction(int index, const ZoneMap& map)
{
    const ScriptCommand& c = m_commands[index];
    StepState& st = m_state[index];
    ProposedAction p;
    if (st.phase == 0) {
        st.keys.clear();
        st.menuPath.clear();
        st.clickedZones.clear();
        st.learnedMenus.clear();
        st.application = frontApplication(map);
        std::optional<AppSchema> known;
        if (!st.application.isEmpty())
            known = m_shortcuts ? m_shortcuts(st.application) : storedShortcuts(st.application);
        const Shortcut* shortcut = known ? known->find(c.target) : nullptr;
        const QStringList named = menuParts(c.target);
        // No program on the map yet (the first analysis is still under way): a fresh map first, as for a
        // zone not found.
        if (st.application.isEmpty() && named.size() <= 1 && ++st.resolveAttempts < m_maxResolveAttempts)
            return Decision{Decision::Kind::Reanalyze,
                            {},
                            QStringLiteral("no program on the map yet for \"%1\"").arg(c.target)};
        if (named.size() > 1)
            st.menuPath = named;
        else if (shortcut && !shortcut->menu.isEmpty())
            st.menuPath = menuParts(shortcut->menu);
        // Keys that can be trusted first, and a retry (the keys showed no effect) through the menus when
        // they are known. Keys read from the tree whose menu path showed its effect before are tried first
        // too, and must show that effect (then they are verified); other keys never seen working (read
        // from the tree or the screen) only when no menu path is known.
        const bool hasKeys = shortcut && !shortcut->keys.isEmpty();
        const bool byEffect = hasKeys && !keysTrusted(*shortcut) && keysCheckedByEffect(*shortcut) &&
                              !labelShown(map, shortcut->effect);
        if (hasKeys && (st.menuPath.isEmpty() || ((keysTrusted(*shortcut) || byEffect) && st.retries == 0))) {
            st.keys = shortcut->keys;
            m_plan.steps[index].description =
                QStringLiteral("Invoke \"%1\" with %2").arg(shortcut->action, shortcut->keys);
            p.action.type = Action::Type::Key;
            p.action.text = shortcut->keys;
            p.expect.kind = Expectation::Kind::AnyChange;
            p.expect.description = QStringLiteral("the effect of \"%1\"").arg(shortcut->action);
            if (byEffect && !st.menuPath.isEmpty()) {
                p.expect.kind = Expectation::Kind::ZoneAppears;
                p.expect.text = shortcut->effect;
                p.expect.description =
                    QStringLiteral("\"%1\" appearing, as it did through the menu").arg(shortcut->effect);
            }
            return act(p);
        }
        if (st.menuPath.isEmpty()) {
            return Decision{
                Decision::Kind::Impossible,
                {},
                QStringLiteral("step %1 (%2): no shortcut or menu path is known for \"%3\" in %4; name "
                               "its menu path (invoke \"File > Save As…\") or let `ciu-agent shortcuts` "
                               "learn the program's menus")
                    .arg(index + 1)
                    .arg(c.source, c.target,
                         st.application.isEmpty() ? QStringLiteral("the front window") : st.application)};
        }
        m_plan.steps[index].description =
            QStringLiteral("Invoke %1").arg(st.menuPath.join(QStringLiteral(" > ")));
    }
    if (st.phase >= st.menuPath.size())
        return std::nullopt;
    if (st.phase > 0)
        learnOpenMenu(st, map);
    // The part of the path: among the zones not clicked before (the menu title stays on screen).
    QList<Zone> zones;
    for (const Zone& z : map.zones()) {
        if (!st.clickedZones.contains(z.id))
            zones.append(z);
    }
    const ZoneMap remaining(map.version(), map.tNs(), map.screenSize(), zones);
    std::optional<Decision> decision;
    const auto zone = resolveOrDecide(
        menuLabel(st.menuPath.at(st.phase)), remaining,
        st.phase == 0 ? ZoneResolver::Purpose::Click : ZoneResolver::Purpose::Option, &decision);
    if (!zone)
        return decision;
    st.clickedZones << zone->id;
    const bool last = st.phase == st.menuPath.size() - 1;
    if (last) {
        st.labelsBeforeLast.clear();
        for (const Zone& z : map.zones())
            st.labelsBeforeLast.insert(z.label.simplified());
    }
    p.action.type = Action::Type::LeftClick;
    p.action.zoneId = zone->id;
    p.expect.kind = Expectation::Kind::AnyChange;
    p.expect.description =
        last ? QStringLiteral("the effect of \"%1\"").arg(menuLabel(st.menuPath.last()))
             : QStringLiteral("the menu \"%1\" open").arg(menuLabel(st.menuPath.at(st.phase)));
    p.undoable = false;
    return act(p);
}

void LocalPlanner::learnOpenMenu(StepState& st, const ZoneMap& map)
{
    QStringList opened;
    for (const QString& part : st.menuPath.mid(0, st.phase))
        opened << withoutMnemonic(part).trimmed();
    const QString menu = opened.join(QStringLiteral(" > "));
    if (st.application.isEmpty() || st.learnedMenus.contains(menu))
        return;
    // The rows vision read: the tree's give their key bindings to `ciu-agent shortcuts` instead.
    QList<Zone> rows;
    for (const Zone& z : map.zones()) {
        if (z.source != ZoneSource::Accessibility && z.labelSource != LabelSource::Tree &&
            !st.clickedZones.contains(z.id))
            rows.append(z);
    }
    const QList<Shortcut> found = shortcutsFromMenuRows(rows, menu);
    if (found.isEmpty())
        return; // the menu may not be on this map yet
    st.learnedMenus << menu;
    qCDebug(lcLocalPlanner) << found.size() << "shortcuts read in the menu" << menu << "of" << st.application;
    if (m_seen)
        m_seen(st.application, found);
    else
        learnInStore(st.application, found);
}

void LocalPlanner::invokeMenuDone(int index, const ZoneMap* after)
{
    const StepState& st = m_state[index];
    if (!after || st.application.isEmpty())
        return;
    // What appeared: the topmost, then leftmost, label of a few letters that was nowhere before (a dialog's
    // title or first field), shown once.
    QHash<QString, int> shown;
    for (const Zone& z : after->zones())
        ++shown[z.label.simplified()];
    const Zone* best = nullptr;
    for (const Zone& z : after->zones()) {
        const QString label = z.label.simplified();
        int letters = 0;
        for (const QChar c : label)
            letters += c.isLetter() ? 1 : 0;
        if (letters < 3 || st.labelsBeforeLast.contains(label) || shown.value(label) != 1 ||
            z.application != st.application)
            continue;
        if (!best || z.bounds.top() < best->bounds.top() ||
            (z.bounds.top() == best->bounds.top() && z.bounds.left() < best->bounds.left()))
            best = &z;
    }
    if (!best)
        return;
    const QString label = best->label.simplified();
    qCDebug(lcLocalPlanner) << "invoke" << m_commands[index].target << "of" << st.application << "showed"
                            << label;
    if (m_effectSeen)
        m_effectSeen(st.application, m_commands[index].target, label);
    else
        noteEffectInStore(st.application, m_commands[index].target, label);
}

void LocalPlanner::invokeDone(int index)
{
    const StepState& st = m_state[index];
    if (st.keys.isEmpty() || st.application.isEmpty())
        return;
    if (m_verified)
        m_verified(st.application, m_commands[index].target);
    else
        markVerifiedInStore(st.application, m_commands[index].target);
}

} // namespace ciu
