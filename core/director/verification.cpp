#include "core/director/verification.h"

#include "core/director/directorlog.h"
#include "core/director/zoneresolver.h"
#include "core/model/geometry.h"

#include <QRegion>
#include <QRegularExpression>

#include <algorithm>
#include <vector>

namespace ciu {

namespace {

bool hasCheckState(const Zone& z)
{
    return z.state.testFlag(ZoneStateFlag::Checked) || z.state.testFlag(ZoneStateFlag::Unchecked);
}

} // namespace

bool ActionVerifier::brushLost(const ActionResult& result, const QList<SpatialEvent>& eventsSinceDispatch)
{
    bool lost = result.error.contains(QLatin1String("brush lost"), Qt::CaseInsensitive) ||
                result.error.contains(QLatin1String("brush_lost"), Qt::CaseInsensitive);
    for (const SpatialEvent& e : eventsSinceDispatch)
        lost = lost || e.kind == SpatialEvent::Kind::BrushLost;
    return lost;
}

QString ActionVerifier::wrongZone(const ActionFlight& flight, const ActionResult& result,
                                  const QList<SpatialEvent>& eventsSinceDispatch)
{
    QString wrong;
    if (flight.target && flight.sent.isClick()) {
        for (const SpatialEvent& e : eventsSinceDispatch) {
            if (e.kind == SpatialEvent::Kind::ZoneClick && !e.zoneId.isEmpty() &&
                e.zoneId != flight.target->id && !flight.target->bounds.contains(e.point)) {
                // A click inside a child of the target (its caption) is still the target.
                const Zone* z = flight.mapBefore ? flight.mapBefore->find(e.zoneId) : nullptr;
                if (!z || !flight.target->bounds.contains(z->bounds))
                    wrong = e.zoneId;
            }
        }
        if (wrong.isEmpty() && !result.pointUsed.isNull() &&
            !flight.target->bounds.adjusted(-3, -3, 3, 3).contains(result.pointUsed)) {
            const Zone* z = flight.mapBefore ? flight.mapBefore->zoneAt(result.pointUsed) : nullptr;
            wrong =
                z ? z->id : QStringLiteral("(%1, %2)").arg(result.pointUsed.x()).arg(result.pointUsed.y());
        }
    }
    // Typing into a field that is read back afterwards: the reading decides. The canvas' attribution of the
    // typing to another zone is often that field's focus ring going away, not the text.
    const Expectation::Kind kind = flight.proposed.expect.kind;
    const bool readBack = kind == Expectation::Kind::TextEquals || kind == Expectation::Kind::TextEndsWith;
    if (flight.sent.type == Action::Type::TypeText && !flight.proposed.focusZoneId.isEmpty() && !readBack) {
        for (const SpatialEvent& e : eventsSinceDispatch) {
            if (e.kind == SpatialEvent::Kind::ZoneType && !e.zoneId.isEmpty() &&
                e.zoneId != flight.proposed.focusZoneId)
                wrong = e.zoneId;
        }
    }
    return wrong;
}

bool ActionVerifier::opensMenuOrList(const ActionFlight& flight)
{
    return flight.target &&
           (flight.target->type == ZoneType::MenuItem || flight.target->type == ZoneType::Dropdown ||
            flight.sent.type == Action::Type::RightClick);
}

namespace {

// Spaces collapsed and trimmed; case and punctuation kept (a field's text is compared as typed).
QString collapsed(const QString& text)
{
    return text.simplified();
}

// 1 - edit distance / longer length.
double closeness(const QString& a, const QString& b)
{
    const qsizetype longer = std::max(a.size(), b.size());
    if (longer == 0)
        return 1;
    return 1.0 - double(ZoneResolver::editDistance(a, b)) / double(longer);
}

constexpr double kReadingTolerance = 5.0 / 6.0;

} // namespace

bool ActionVerifier::fieldTextMatches(const Expectation& e, const QString& zoneId, const QString& seen,
                                      QString* why)
{
    const QString want = collapsed(e.text);
    const QString got = collapsed(seen);
    bool ok = false;
    if (e.kind == Expectation::Kind::TextEndsWith) {
        const QString tail = got.right(want.size());
        ok = closeness(want, tail) >= kReadingTolerance;
    } else {
        ok = closeness(want, got) >= kReadingTolerance;
    }
    if (!ok) {
        *why =
            got.isEmpty()
                ? QStringLiteral("the typed text did not appear in %1; the field reads nothing").arg(zoneId)
                : QStringLiteral("the typed text did not appear in %1; the field reads \"%2\"")
                      .arg(zoneId, got.left(80));
    }
    return ok;
}

namespace {

// The fewest edits that turn `pattern` into some substring of `text` (Sellers' approximate matching).
int substringDistance(const QString& pattern, const QString& text)
{
    const qsizetype m = pattern.size();
    std::vector<int> previous(size_t(m + 1));
    std::vector<int> current(size_t(m + 1));
    for (qsizetype i = 0; i <= m; ++i)
        previous[size_t(i)] = int(i);
    int best = int(m);
    for (const QChar c : text) {
        current[0] = 0; // a match may start anywhere in the text
        for (qsizetype i = 1; i <= m; ++i) {
            const int cost = pattern.at(i - 1) == c ? 0 : 1;
            current[size_t(i)] = std::min(
                {previous[size_t(i)] + 1, current[size_t(i - 1)] + 1, previous[size_t(i - 1)] + cost});
        }
        best = std::min(best, current[size_t(m)]);
        std::swap(previous, current);
    }
    return best;
}

} // namespace

QRect ActionVerifier::readingBox(const Zone& field, const ZoneMap* map)
{
    QRect box = field.bounds;
    if (!map || field.bounds.isEmpty())
        return box;
    constexpr int kTouching = 6; // px between the field and its split-off text
    const QRect f = field.bounds;
    for (const Zone& z : map->zones()) {
        // Text split off (static text), or a blob without a name vision took for something else (the part of
        // a Tk entry holding text, seen as a slider); never a named control beside the field (its button).
        const bool splitOff =
            z.type == ZoneType::Static ||
            (z.label.trimmed().isEmpty() && z.type != ZoneType::TextField && z.type != ZoneType::Dropdown);
        if (!splitOff || z.id == field.id || z.bounds.height() > 2 * f.height())
            continue;
        const QRect t = z.bounds;
        const int overlap = std::min(t.bottom(), f.bottom()) - std::max(t.top(), f.top()) + 1;
        if (overlap < 0.6 * std::min(t.height(), f.height()))
            continue; // not on the field's row
        const int gap = t.left() > f.right()   ? t.left() - f.right() - 1
                        : f.left() > t.right() ? f.left() - t.right() - 1
                                               : 0;
        if (gap <= kTouching)
            box = box.united(t);
    }
    return box;
}

bool ActionVerifier::windowShowsText(const Expectation& e, const QString& seen, QString* why)
{
    // Each line typed must show somewhere in the window (a terminal echoes a command on its prompt line),
    // allowing for a reading slip (1 character in 6). Spaces are not compared: OCR loses and adds them.
    auto squeezed = [](const QString& s) {
        QString out = s;
        out.remove(QRegularExpression(QStringLiteral("\\s")));
        return out;
    };
    const QString text = squeezed(seen);
    QStringList missing;
    for (const QString& line : e.text.split(QLatin1Char('\n'))) {
        const QString want = squeezed(line);
        if (want.isEmpty())
            continue;
        const int allowed = int(want.size() / 6);
        if (substringDistance(want, text) > allowed)
            missing << line.trimmed();
    }
    if (missing.isEmpty())
        return true;
    const QString shown = seen.simplified();
    *why =
        QStringLiteral("the typed text did not appear in window 0x%1: \"%2\" is not there; it shows \"%3\"")
            .arg(e.windowId, 0, 16)
            .arg(missing.first().left(80), shown.isEmpty() ? QString() : shown.right(120));
    return false;
}

const Zone* ActionVerifier::sameZone(const ZoneMap* after, const Zone& was)
{
    if (!after)
        return nullptr;
    if (const Zone* z = after->find(was.id))
        return z;
    if (was.accessibleRef.isEmpty())
        return nullptr;
    for (const Zone& z : after->zones()) {
        if (z.accessibleRef == was.accessibleRef)
            return &z;
    }
    return nullptr;
}

bool ActionVerifier::isOutlineOfOtherZone(const ChangeRegion& region, const ZoneMap& map,
                                          const QString& targetId)
{
    // A ring is a few pixels wide: of the box around a zone, only a small share changes.
    constexpr double kMaxRingPercent = 40;
    constexpr int kRingReach = 6; // how far a focus ring or shadow reaches outside the zone's box
    if (region.changedPercent >= kMaxRingPercent)
        return false;
    const Zone* target = targetId.isEmpty() ? nullptr : map.find(targetId);
    for (const Zone* z : map.zonesIntersecting(region.rect)) {
        if (z->id == targetId || !z->isInteractive())
            continue;
        if (target && (z->bounds.contains(target->bounds) || target->bounds.contains(z->bounds)))
            continue; // the target's parent or child: a change there may be the target's own
        const QRect reach = z->bounds.adjusted(-kRingReach, -kRingReach, kRingReach, kRingReach);
        if (reach.contains(region.rect) && region.rect.width() * 5 >= z->bounds.width() * 4 &&
            region.rect.height() * 5 >= z->bounds.height() * 4)
            return true;
    }
    return false;
}

bool ActionVerifier::insideOtherTextField(const QRect& region, const ZoneMap& map, const QString& targetId,
                                          const QRect& ownLook)
{
    constexpr int kRingReach = 6; // as for outlines: a field's focus ring reaches a little outside its box
    const Zone* target = targetId.isEmpty() ? nullptr : map.find(targetId);
    QRegion rest = QRegion(region).subtracted(QRegion(ownLook));
    bool field = false;
    for (const Zone* z : map.zonesIntersecting(region)) {
        if (z->id == targetId || z->type != ZoneType::TextField)
            continue;
        if (target && (z->bounds.contains(target->bounds) || target->bounds.contains(z->bounds)))
            continue; // the target's parent or child
        rest -= QRegion(z->bounds.adjusted(-kRingReach, -kRingReach, kRingReach, kRingReach));
        field = true;
    }
    return field && rest.isEmpty();
}

QRect ActionVerifier::openMenuRegion(const ZoneMap& map)
{
    constexpr int kRowGap = 8;      // rows of one menu touch, or nearly
    constexpr int kTitleReach = 30; // the title a menu hangs from lies this close above its first row
    QList<const Zone*> items;
    for (const Zone& z : map.zones()) {
        if (z.type == ZoneType::MenuItem && !z.bounds.isEmpty())
            items << &z;
    }
    // Rows of a column: a menu item with another directly below it, their columns overlapping.
    QRect column;
    for (const Zone* a : std::as_const(items)) {
        for (const Zone* b : std::as_const(items)) {
            if (a == b)
                continue;
            const bool overlapX =
                a->bounds.left() < b->bounds.right() && b->bounds.left() < a->bounds.right();
            const int gap = b->bounds.top() - a->bounds.bottom();
            if (overlapX && gap >= -2 && gap <= kRowGap)
                column |= a->bounds | b->bounds;
        }
    }
    if (column.isEmpty())
        return {};
    const QRect titleBand(column.left(), column.top() - kTitleReach, column.width(), kTitleReach);
    for (const Zone* z : std::as_const(items)) {
        if (z->bounds.intersects(titleBand) && !column.contains(z->bounds))
            column |= z->bounds;
    }
    return column;
}

QString ActionVerifier::changeEvidence(const ProposedAction& p, const ActionResult& result,
                                       const ZoneMapPtr& before, const ZoneMapPtr& after)
{
    const QString targetId = p.action.zoneId.isEmpty() ? p.focusZoneId : p.action.zoneId;
    const Zone* target = before && !targetId.isEmpty() ? before->find(targetId) : nullptr;
    const ZoneMap* outlines = before ? before.get() : after.get();
    // A button's or link's effect is elsewhere: its own hover, pressed or focus look, drawn inside its box
    // (or a few pixels around it), is no effect, or every click that misses would count as done.
    const bool ownLookIsNoEffect = target && (!p.expect.repeatable || target->type == ZoneType::Button ||
                                              target->type == ZoneType::Link);
    const QRect ownLook = target ? target->bounds.adjusted(-6, -6, 6, 6) : QRect();
    // A text field's own text moving is looked for below (the tree's value, vision's reading).
    auto focusOnly = [&](const QRect& rect) {
        return ownLookIsNoEffect && outlines && insideOtherTextField(rect, *outlines, targetId, ownLook);
    };
    // A click outside an open menu closes it and goes no further: the menu going away is no effect.
    QRect closedMenu;
    if (p.action.isClick() && before && !result.pointUsed.isNull()) {
        closedMenu = openMenuRegion(*before).adjusted(-8, -8, 8, 8);
        if (closedMenu.contains(result.pointUsed))
            closedMenu = QRect();
    }
    auto menuClosing = [&closedMenu](const QRect& rect) {
        return !closedMenu.isNull() && closedMenu.contains(rect);
    };
    for (const ChangeRegion& r : result.changes) {
        if (ownLookIsNoEffect && ownLook.contains(r.rect))
            continue;
        if (focusOnly(r.rect) || menuClosing(r.rect))
            continue;
        if (target && r.rect.intersects(target->bounds.adjusted(-3, -3, 3, 3)))
            return QStringLiteral("a change in %1").arg(targetId);
    }
    for (const ChangeRegion& r : result.changes) {
        if (r.animating || r.rect.isEmpty())
            continue;
        if ((ownLookIsNoEffect && ownLook.contains(r.rect)) || focusOnly(r.rect) || menuClosing(r.rect))
            continue;
        if (outlines && isOutlineOfOtherZone(r, *outlines, targetId))
            continue;
        if (outlines && p.action.isClick() && insideOtherTextField(r.rect, *outlines, targetId))
            continue; // its text moving is looked for below
        return QStringLiteral("a change at (%1, %2) %3x%4")
            .arg(r.rect.x())
            .arg(r.rect.y())
            .arg(r.rect.width())
            .arg(r.rect.height());
    }
    if (!before && after && !after->isEmpty())
        return QStringLiteral("the first zone map");
    if (!before || !after || before->version() == after->version())
        return {};
    if (target) {
        if (const Zone* now = sameZone(after.get(), *target)) {
            // Focus and hover move with the pointer and the keyboard: not an effect of their own. Nor is a
            // button's pressed look.
            ZoneState transient = ZoneStateFlag::Focused | ZoneStateFlag::Hovered;
            if (ownLookIsNoEffect)
                transient |= ZoneStateFlag::Pressed;
            // A button's label read by OCR under its hover look may gain noise ("enue] Save"): a reading that
            // still holds the old label (or is held by it) is the same label. The tree's label is the
            // program's own.
            const bool reread = ownLookIsNoEffect && now->source != ZoneSource::Accessibility &&
                                !now->label.isEmpty() && !target->label.isEmpty() &&
                                (now->label.contains(target->label) || target->label.contains(now->label));
            const bool labelMoved = now->label != target->label && !reread;
            if ((now->state & ~transient) != (target->state & ~transient) || labelMoved ||
                now->value != target->value)
                return QStringLiteral("%1 changed").arg(targetId);
        }
    }
    // A field whose text moved (the tree's text content; vision's reading of a field is its label, compared
    // below): a button that fills or clears a field.
    for (const Zone& z : before->zones()) {
        if (z.type != ZoneType::TextField || z.id == targetId || z.isPassword)
            continue;
        if (const Zone* now = sameZone(after.get(), z); now && now->value != z.value)
            return QStringLiteral("the text of %1 changed").arg(z.id);
    }
    // Zones that appeared or went away: a menu, a dialog, a page. A zone re-detected at its old place with
    // its old label is the same zone.
    auto findLike = [](const ZoneMap& map, const Zone& z) {
        if (map.find(z.id))
            return true;
        for (const Zone* other : map.zonesIntersecting(z.bounds)) {
            if (other->label == z.label && other->type == z.type &&
                intersectionOverUnion(other->bounds, z.bounds) > 0.8)
                return true;
        }
        return false;
    };
    // What the closed menu covered: its rows going, the zones it hid (in part) coming back.
    auto underMenu = [&closedMenu](const QRect& rect) {
        return !closedMenu.isNull() && closedMenu.intersects(rect);
    };
    // A tooltip coming or going is the resting pointer's doing, not the action's.
    for (const Zone& z : after->zones()) {
        if (!z.temporary && !findLike(*before, z) && !underMenu(z.bounds))
            return QStringLiteral("%1 appeared").arg(z.id);
    }
    for (const Zone& z : before->zones()) {
        if (!z.temporary && !findLike(*after, z) && !underMenu(z.bounds))
            return QStringLiteral("%1 went away").arg(z.id);
    }
    return {};
}

bool ActionVerifier::showsText(const Expectation& e, const QString& zoneId, const QString& seen, QString* why)
{
    const QString want = collapsed(e.text);
    const QString got = collapsed(seen);
    // The best window of the reading as long as the option (a drop-down also draws an arrow, read as "v").
    double best = closeness(want, got);
    for (qsizetype length = std::max<qsizetype>(1, want.size() - 1); length <= want.size() + 1; ++length) {
        for (qsizetype start = 0; start + length <= got.size(); ++start)
            best = std::max(best, closeness(want, got.mid(start, length)));
    }
    if (best >= kReadingTolerance)
        return true;
    *why = got.isEmpty()
               ? QStringLiteral("%1 does not show \"%2\"; it reads nothing").arg(zoneId, e.text)
               : QStringLiteral("%1 does not show \"%2\"; it reads \"%3\"").arg(zoneId, e.text, got.left(80));
    return false;
}

bool ActionVerifier::expectationMet(const ProposedAction& p, const ActionResult& result,
                                    const ZoneMapPtr& before, const ZoneMapPtr& after, QString* why,
                                    const std::optional<QString>& fieldText)
{
    const QString subjectId = p.action.zoneId.isEmpty() ? p.focusZoneId : p.action.zoneId;
    const bool textKind =
        p.expect.kind == Expectation::Kind::TextEquals || p.expect.kind == Expectation::Kind::TextEndsWith;
    if (textKind && fieldText)
        return fieldTextMatches(p.expect, p.focusZoneId.isEmpty() ? p.action.zoneId : p.focusZoneId,
                                *fieldText, why);
    if (p.expect.kind == Expectation::Kind::ShowsText && fieldText)
        return showsText(p.expect, p.focusZoneId, *fieldText, why);
    if (p.expect.kind == Expectation::Kind::WindowShowsText && fieldText)
        return windowShowsText(p.expect, *fieldText, why);

    // The target as it is now. A zone from the accessibility tree carries the program's own state.
    const Zone* was = before && !subjectId.isEmpty() ? before->find(subjectId) : nullptr;
    const Zone* now = was ? sameZone(after.get(), *was) : after ? after->find(subjectId) : nullptr;
    const bool fromTree = now && now->source == ZoneSource::Accessibility;

    const QString evidence = changeEvidence(p, result, before, after);
    const bool changed = !evidence.isEmpty();
    if (changed)
        qCDebug(lcDirector) << p.action.describe() << "had an effect:" << evidence;
    const QString expected =
        p.expect.description.isEmpty() ? QStringLiteral("a change") : p.expect.description;
    auto noChange = [&] {
        *why = QStringLiteral("nothing changed that %1 explains (%2 expected)")
                   .arg(subjectId.isEmpty() ? p.action.describe() : subjectId, expected);
        return false;
    };
    switch (p.expect.kind) {
    case Expectation::Kind::None:
        return true;
    case Expectation::Kind::LengthEquals:
        // A password field: the tree's count of its characters (kept current by its text-changed events);
        // without a tree, a change is all there is.
        if (fromTree && now->textLength >= 0) {
            if (now->textLength == p.expect.length)
                return true;
            // How many is not said: a secret's length is not logged either (Action::maskedText()).
            *why = QStringLiteral("the password field %1 holds %2 characters than were typed")
                       .arg(now->id, now->textLength > p.expect.length ? QStringLiteral("more")
                                                                       : QStringLiteral("fewer"));
            return false;
        }
        return changed || noChange();
    case Expectation::Kind::TextEquals: // the field could not be read (a password): a change is all there is
    case Expectation::Kind::TextEndsWith:
    case Expectation::Kind::ShowsText:
    case Expectation::Kind::WindowShowsText: // the window could not be read
        return changed || noChange();
    case Expectation::Kind::AnyChange:
        // A menu or drop-down from the tree says itself that it opened.
        if (fromTree && now->state.testFlag(ZoneStateFlag::Expanded) && was &&
            !was->state.testFlag(ZoneStateFlag::Expanded))
            return true;
        return changed || noChange();
    case Expectation::Kind::Selected:
        if (fromTree) {
            if (now->state.testFlag(ZoneStateFlag::Selected))
                return true;
            *why = QStringLiteral("%1 is not selected").arg(now->id);
            return false;
        }
        return changed || noChange();
    case Expectation::Kind::StateChecked:
    case Expectation::Kind::StateUnchecked: {
        const bool wantChecked = p.expect.kind == Expectation::Kind::StateChecked;
        // The canvas' check state is trusted only when it moved: a state that did not follow a visible
        // change of the box is more likely a detection miss than a missed click. The tree's is always
        // trusted.
        const bool stateMoved =
            now && was && hasCheckState(*now) && hasCheckState(*was) && now->state != was->state;
        if (now && hasCheckState(*now) && (fromTree || stateMoved || !changed)) {
            if (now->state.testFlag(ZoneStateFlag::Checked) != wantChecked) {
                *why =
                    QStringLiteral("zone %1 is still %2")
                        .arg(now->id, wantChecked ? QStringLiteral("unchecked") : QStringLiteral("checked"));
                return false;
            }
            return true;
        }
        return changed || noChange();
    }
    case Expectation::Kind::ZoneAppears:
        if (after) {
            for (const Zone& z : after->zones()) {
                if (ZoneResolver::similarity(p.expect.text, z.label) >= ZoneResolver::kMinScore)
                    return true;
            }
        }
        *why = QStringLiteral("\"%1\" did not appear").arg(p.expect.text);
        return false;
    }
    return true;
}

} // namespace ciu
