#include "core/canvas/escalationpolicy.h"

#include "core/model/geometry.h"

#include <algorithm>

namespace ciu::canvas {
namespace {

int distance(const QRect& r, QPoint p)
{
    const int dx = std::max({r.left() - p.x(), 0, p.x() - r.right()});
    const int dy = std::max({r.top() - p.y(), 0, p.y() - r.bottom()});
    return std::max(dx, dy);
}

// The smallest interactive zone containing `r` (with slack), or null.
const Zone* zoneAround(const ZoneMap* map, const QRect& r, int slack)
{
    if (!map)
        return nullptr;
    const Zone* best = nullptr;
    for (const Zone* z : map->zonesIntersecting(r)) {
        if (!z->isInteractive() || !z->bounds.adjusted(-slack, -slack, slack, slack).contains(r))
            continue;
        if (z->type == ZoneType::ScrollArea && area(r) * 4 > area(z->bounds))
            continue; // a list scrolled: its content changed, not a hover
        if (!best || area(z->bounds) < area(best->bounds))
            best = z;
    }
    return best;
}

// A menu title or drop-down that `r` hangs from (below it, or to the right of a menu item).
const Zone* menuOrigin(const ZoneMap* map, const QRect& r)
{
    if (!map)
        return nullptr;
    for (const Zone& z : map->zones()) {
        if (z.type != ZoneType::MenuItem && z.type != ZoneType::Dropdown)
            continue;
        const QRect& m = z.bounds;
        // The change may include the title itself (highlighted while its menu is open).
        const bool below = r.top() >= m.top() - 8 && r.top() <= m.bottom() + 14 &&
                           r.left() >= m.left() - 24 && r.left() <= m.right() &&
                           r.bottom() >= m.bottom() + 2 * m.height();
        const bool beside = z.type == ZoneType::MenuItem && r.left() >= m.right() - 8 &&
                            r.left() <= m.right() + 12 && r.top() >= m.top() - 12 && r.top() <= m.bottom() &&
                            r.height() >= 2 * m.height();
        if (below || beside)
            return &z;
    }
    return nullptr;
}

} // namespace

QString toString(TierDecision::Action action)
{
    switch (action) {
    case TierDecision::Action::Ignore:
        return QStringLiteral("ignore");
    case TierDecision::Action::Wait:
        return QStringLiteral("wait");
    case TierDecision::Action::Hover:
        return QStringLiteral("hover");
    case TierDecision::Action::Local:
        return QStringLiteral("local");
    case TierDecision::Action::Full:
        return QStringLiteral("full");
    }
    return QStringLiteral("ignore");
}

EscalationPolicy::EscalationPolicy()
    : EscalationPolicy(Options{})
{
}

EscalationPolicy::EscalationPolicy(Options options)
    : m_options(options)
{
}

QList<QRect> EscalationPolicy::mergeRegions(const QList<QRect>& rects, QSize screen) const
{
    QList<QRect> merged;
    for (const QRect& r : rects) {
        if (r.isEmpty())
            continue;
        merged << r;
    }
    const int g = m_options.mergeGap;
    bool again = true;
    while (again) {
        again = false;
        for (int i = 0; i < merged.size() && !again; ++i) {
            for (int j = i + 1; j < merged.size(); ++j) {
                if (merged.at(i).adjusted(-g, -g, g, g).intersects(merged.at(j))) {
                    merged[i] = merged.at(i).united(merged.at(j));
                    merged.removeAt(j);
                    again = true;
                    break;
                }
            }
        }
    }
    if (merged.size() > m_options.maxRegions) {
        QRect all;
        for (const QRect& r : std::as_const(merged))
            all = all.united(r);
        merged = {all};
    }
    const QRect bounds(QPoint(0, 0), screen);
    const int m = m_options.regionMargin;
    for (QRect& r : merged) {
        r = r.adjusted(-m, -m, m, m);
        if (!screen.isEmpty())
            r = r.intersected(bounds);
    }
    merged.removeIf([](const QRect& r) { return r.isEmpty(); });
    return merged;
}

QList<TierDecision> EscalationPolicy::decide(const FrameDiff& diff, const Context& ctx) const
{
    const ZoneMap* map = ctx.map.get();
    auto single = [&](TierDecision::Action action, int tier, const QString& reason,
                      QList<QRect> regions = {}) {
        TierDecision d;
        d.action = action;
        d.tier = tier;
        d.reason = reason;
        d.regions = std::move(regions);
        d.changedPercent = diff.totalPercent;
        return QList<TierDecision>{d};
    };
    QList<QRect> raw;
    for (const ChangeRegion& c : diff.regions)
        raw << c.rect;

    if (ctx.activeWindowChanged)
        return single(TierDecision::Action::Full, 2, QStringLiteral("active_window_changed"));
    if (diff.cursorOnly)
        return single(TierDecision::Action::Ignore, 0, QStringLiteral("cursor_only"));
    if (diff.animating)
        return single(TierDecision::Action::Wait, 0, QStringLiteral("animation"), raw);
    if (diff.totalPercent > m_options.fullAbovePercent)
        return single(TierDecision::Action::Full, 2, QStringLiteral("large_change"));

    QList<TierDecision> decisions;
    QList<ChangeRegion> regions;
    for (const ChangeRegion& c : diff.regions) {
        if (double(area(c.rect)) * c.changedPercent / 100.0 >= m_options.minChangedPixels)
            regions << c;
    }

    // A new top-level window: analyse the window.
    for (const QRect& w : ctx.newWindows) {
        TierDecision d;
        d.action = TierDecision::Action::Full;
        d.tier = 2;
        d.reason = QStringLiteral("dialog");
        d.regions = mergeRegions({w}, ctx.screenSize);
        d.changedPercent = diff.totalPercent;
        decisions << d;
        regions.removeIf([&](const ChangeRegion& c) { return w.adjusted(-8, -8, 8, 8).contains(c.rect); });
    }

    QList<QRect> local;
    QList<QRect> below;
    // The zone under the pointer as this diff leaves it (a tooltip may show in the frame that lights it).
    QString hovered = ctx.hoveredZoneId;
    for (const ChangeRegion& c : std::as_const(regions)) {
        const Zone* z = zoneAround(map, c.rect, m_options.hoverSlack);
        if (z && ctx.cursor && z->bounds.contains(*ctx.cursor))
            hovered = z->id;
    }
    // A control whose highlight is larger than the zone found of it (an icon's ink) lights up no zone: the
    // pointer is on it all the same.
    if (hovered.isEmpty() && map && ctx.cursor) {
        if (const Zone* z = map->zoneAt(*ctx.cursor); z && z->isInteractive() && !z->temporary)
            hovered = z->id;
    }
    // A small box near the resting pointer on a control: its tooltip (nullopt: no tooltip).
    const Zone* under = map && !hovered.isEmpty() ? map->find(hovered) : nullptr;
    auto tooltipOf = [&](const ChangeRegion& c) -> std::optional<TierDecision> {
        // A tooltip shows beside the pointer, never under it. A change under it is the control lighting up;
        // one that also reaches below (or above) the control is its highlight and a tooltip in one frame:
        // the tooltip is the part beyond the control.
        const QRect& r = c.rect;
        QRect tip = r;
        if (ctx.cursor && r.contains(*ctx.cursor)) {
            tip = QRect();
            if (under && r.bottom() > under->bounds.bottom())
                tip = QRect(QPoint(r.left(), under->bounds.bottom() + 1), r.bottomRight());
            else if (under && r.top() < under->bounds.top())
                tip = QRect(r.topLeft(), QPoint(r.right(), under->bounds.top() - 1));
            if (tip.height() < m_options.tooltipMinHeight || tip.contains(*ctx.cursor))
                tip = QRect();
        }
        if (hovered.isEmpty() || !ctx.cursor || tip.isEmpty() || tip.height() > m_options.tooltipMaxHeight ||
            tip.width() > m_options.tooltipMaxWidth ||
            distance(tip, *ctx.cursor) > m_options.tooltipCursorDistance)
            return std::nullopt;
        // It shows below (or above) the control, never in the control's own row: a change there, beside
        // the pointer, is the control's content (text typed into a field found shorter than it is).
        if (under && tip.top() < under->bounds.center().y() && tip.bottom() > under->bounds.center().y())
            return std::nullopt;
        // A box where another control is, is that control repainted (its focus ring going as the click
        // moved the focus), not a tooltip over it. One over the tooltip the map holds is its text changing.
        bool overTooltip = false;
        if (map) {
            const int slack = m_options.hoverSlack;
            for (const Zone* z : map->zonesIntersecting(tip)) {
                if (z->temporary) {
                    overTooltip =
                        overTooltip || z->bounds.adjusted(-slack, -slack, slack, slack).contains(tip);
                } else if (z->id != hovered && z->isInteractive() &&
                           intersectionOverUnion(z->bounds, tip) >= 0.5) {
                    return std::nullopt;
                }
            }
        }
        if (c.changedPercent < m_options.tooltipMinPercent && !overTooltip && tip == r)
            return std::nullopt;
        TierDecision d;
        d.action = TierDecision::Action::Local;
        d.tier = 1;
        d.reason = QStringLiteral("tooltip");
        d.regions = mergeRegions({tip}, ctx.screenSize);
        d.temporary = true;
        d.box = tip;
        d.changedPercent = diff.totalPercent;
        return d;
    };
    for (const ChangeRegion& c : std::as_const(regions)) {
        const QRect& r = c.rect;
        if (const Zone* origin = menuOrigin(map, r)) {
            // A control under the resting pointer lit up with its tooltip below it, just under a menu bar:
            // a menu opens from the title the pointer is on, not from one beside the change.
            if (ctx.cursor && r.contains(*ctx.cursor) && hovered != origin->id) {
                if (const auto tooltip = tooltipOf(c)) {
                    decisions << *tooltip;
                    continue;
                }
            }
            TierDecision d;
            d.action = TierDecision::Action::Local;
            d.tier = 1;
            d.reason = QStringLiteral("menu_opened");
            d.regions = mergeRegions({r}, ctx.screenSize);
            d.zoneId = origin->id;
            d.menuPopup = true;
            d.changedPercent = diff.totalPercent;
            decisions << d;
            continue;
        }
        bool known = false;
        if (map) {
            for (const Zone* z : map->zonesIntersecting(r))
                known = known || intersectionOverUnion(z->bounds, r) >= 0.5;
        }
        if (r.width() >= m_options.dialogMinWidth && r.height() >= m_options.dialogMinHeight && !known &&
            c.changedPercent >= 50 && !zoneAround(map, r, 0)) {
            TierDecision d;
            d.action = TierDecision::Action::Full; // offline: tier 1 on the dialog's region
            d.tier = 2;
            d.reason = QStringLiteral("dialog");
            d.regions = mergeRegions({r}, ctx.screenSize);
            d.changedPercent = diff.totalPercent;
            decisions << d;
            continue;
        }
        if (const Zone* z = zoneAround(map, r, m_options.hoverSlack)) {
            const bool cursorIn = ctx.cursor && z->bounds.contains(*ctx.cursor);
            if (cursorIn && ctx.hoveredZoneId != z->id) {
                TierDecision d;
                d.action = TierDecision::Action::Hover;
                d.tier = 1;
                d.reason = QStringLiteral("hover");
                d.regions = {r};
                d.zoneId = z->id;
                d.hoverOn = true;
                d.changedPercent = diff.totalPercent;
                decisions << d;
                continue;
            }
            if (!cursorIn && ctx.hoveredZoneId == z->id) {
                TierDecision d;
                d.action = TierDecision::Action::Hover;
                d.tier = 1;
                d.reason = QStringLiteral("hover_end");
                d.regions = {r};
                d.zoneId = z->id;
                d.hoverOn = false;
                d.changedPercent = diff.totalPercent;
                decisions << d;
                continue;
            }
            // A tooltip over a zone the pointer is not on: a box painted over most of its pixels, far
            // smaller than the zone (an editor's page: typed text changes a few of its pixels, in a line), or
            // over part of a control beside the one the pointer rests on (a dock's tab under a tool bar
            // button's tooltip; tooltipOf takes a box over most of the control for its own change). A field's
            // change (typing) is read again whatever the pointer does.
            const bool painted = !cursorIn && c.changedPercent >= m_options.tooltipOverZoneMinPercent;
            const bool overPage = painted && z->bounds.height() >= 3 * r.height();
            const bool overControl =
                painted && !hovered.isEmpty() && hovered != z->id && z->type != ZoneType::TextField;
            if (const auto tooltip = overPage || overControl ? tooltipOf(c) : std::nullopt) {
                decisions << *tooltip;
                continue;
            }
            // Typing, a toggle, a new value: read the zone again.
            TierDecision d;
            d.action = TierDecision::Action::Local;
            d.tier = 1;
            d.reason = QStringLiteral("zone_changed");
            d.regions = mergeRegions({z->bounds}, ctx.screenSize);
            d.zoneId = z->id;
            d.changedPercent = diff.totalPercent;
            decisions << d;
            continue;
        }
        if (const auto tooltip = tooltipOf(c)) {
            decisions << *tooltip;
            continue;
        }
        if (diff.totalPercent < m_options.ignoreBelowPercent) {
            below << r;
            continue;
        }
        // Grow the region over zones it cuts, so they are analysed whole.
        QRect grown = r;
        if (map) {
            for (const Zone* z : map->zonesIntersecting(r)) {
                if (!z->bounds.contains(r) && area(z->bounds) <= 4 * std::max<qint64>(area(r), 2500))
                    grown = grown.united(z->bounds);
            }
        }
        local << grown;
    }
    if (!local.isEmpty()) {
        TierDecision d;
        d.action = TierDecision::Action::Local;
        d.tier = 1;
        d.reason = QStringLiteral("local_change");
        d.regions = mergeRegions(local, ctx.screenSize);
        d.changedPercent = diff.totalPercent;
        decisions << d;
    }
    if (decisions.isEmpty()) {
        const bool noise = below.isEmpty() && !diff.regions.isEmpty();
        return single(TierDecision::Action::Ignore, 0,
                      diff.regions.isEmpty() ? QStringLiteral("no_change")
                      : noise                ? QStringLiteral("noise")
                                             : QStringLiteral("below_threshold"),
                      below);
    }
    return decisions;
}

} // namespace ciu::canvas
