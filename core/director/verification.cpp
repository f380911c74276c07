#include "core/director/verification.h"

#include "core/director/directorlog.h"
#include "core/director/zoneresolver.h"

#include <algorithm>

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
    if (flight.sent.type == Action::Type::TypeText && !flight.proposed.focusZoneId.isEmpty()) {
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

bool ActionVerifier::expectationMet(const ProposedAction& p, const ActionResult& result,
                                    const ZoneMapPtr& before, const ZoneMapPtr& after, QString* why,
                                    const std::optional<QString>& fieldText)
{
    const bool textKind =
        p.expect.kind == Expectation::Kind::TextEquals || p.expect.kind == Expectation::Kind::TextEndsWith;
    if (textKind && fieldText)
        return fieldTextMatches(p.expect, p.focusZoneId.isEmpty() ? p.action.zoneId : p.focusZoneId,
                                *fieldText, why);
    const bool changed = result.changeObserved || !result.changes.isEmpty() ||
                         (before && after && before->version() != after->version()) || (!before && after);
    const QString expected =
        p.expect.description.isEmpty() ? QStringLiteral("a change") : p.expect.description;
    // Tier 0 reports nothing below its threshold (0.5 % of the screen by default): a change confined to a
    // small zone (a check mark, a few typed letters) cannot be seen, so its absence proves nothing.
    if (!changed && p.expect.kind != Expectation::Kind::ZoneAppears) {
        const QString id = p.action.zoneId.isEmpty() ? p.focusZoneId : p.action.zoneId;
        const ZoneMap* map = after ? after.get() : before.get();
        const Zone* z = map && !id.isEmpty() ? map->find(id) : nullptr;
        const QSize screen = map ? map->screenSize() : QSize();
        const qint64 screenArea = qint64(screen.width()) * screen.height();
        const bool small =
            !z || screenArea <= 0 || qint64(z->bounds.width()) * z->bounds.height() * 200 < screenArea;
        const bool opensSomething =
            z && (z->type == ZoneType::Dropdown || z->type == ZoneType::MenuItem || z->type == ZoneType::Tab);
        const bool partial = p.action.type == Action::Type::TypeText || p.action.type == Action::Type::Key ||
                             (z && (z->type == ZoneType::CheckBox || z->type == ZoneType::TextField));
        if ((small || partial) && !opensSomething) {
            qCDebug(lcDirector) << "no change seen after" << p.action.describe()
                                << "but the zone is too small to tell";
            return true;
        }
    }
    switch (p.expect.kind) {
    case Expectation::Kind::None:
        return true;
    case Expectation::Kind::TextEquals: // the field could not be read (a password): a change is all there is
    case Expectation::Kind::TextEndsWith:
    case Expectation::Kind::AnyChange:
        if (!changed)
            *why = QStringLiteral("no canvas change (%1 expected)").arg(expected);
        return changed;
    case Expectation::Kind::StateChecked:
    case Expectation::Kind::StateUnchecked: {
        const Zone* z = after ? after->find(p.action.zoneId) : nullptr;
        const Zone* was = before ? before->find(p.action.zoneId) : nullptr;
        // The canvas' check state is trusted only when it moved: a state that did not follow a visible
        // change of the box is more likely a detection miss than a missed click.
        const bool stateMoved =
            z && was && hasCheckState(*z) && hasCheckState(*was) && z->state != was->state;
        if (z && hasCheckState(*z) && (stateMoved || !changed)) {
            const bool wantChecked = p.expect.kind == Expectation::Kind::StateChecked;
            if (z->state.testFlag(ZoneStateFlag::Checked) != wantChecked) {
                *why = QStringLiteral("zone %1 is still %2")
                           .arg(z->id, wantChecked ? QStringLiteral("unchecked") : QStringLiteral("checked"));
                return false;
            }
            return true;
        }
        if (!changed)
            *why = QStringLiteral("no canvas change (%1 expected)").arg(expected);
        return changed;
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
