// CanvasMapper and tooltips: an icon button that neither its pixels (no text) nor the icon themes name gets
// the text of its tooltip as its label (LabelSource::Tooltip). The escalation policy analyses a small box
// that shows beside a resting cursor on a control as a tooltip (temporary zones). Its text names each
// unnamed control under the cursor, but only once a frame taken Options::tooltipRestMs after the cursor came
// to rest shows it: a program answers a move a little later, so a tooltip seen sooner may still be the last
// control's (and a tooltip already up changes its text at once when the pointer moves on). Until then the
// text waits; a change of the tooltip's pixels or a move of the cursor drops it. The registry keeps a
// tooltip's name over later analyses that read none (ZoneRegistry). While a tooltip shows, analyses of what
// is under it leave the zones it covers as they were (its text is no part of the page or the tab bar).

#include "core/canvas/canvaslog.h"
#include "core/canvas/canvasmapper.h"

#include <algorithm>

namespace ciu::canvas {

namespace {

constexpr int kMaxTooltipLabel = 120;      // a longer tooltip is a description: its first part names the zone
constexpr int kTooltipBoxSlack = 2;        // px a line's box may reach past the changed box (antialiasing)
constexpr double kTooltipLineInside = 0.9; // share of a tooltip's line inside its box

} // namespace

void CanvasMapper::noteTooltip(const QRect& box, const QList<Zone>& zones)
{
    // The tooltip's lines are inside the box that changed: a word beside it (the page's text it half
    // covers) is not one, nor a line it joined (only a sliver of such a line may stick out). A line the map
    // had at that place already, under the same label, is what a tooltip going away showed again (a tab's
    // title), not a tooltip's.
    const QRect inside =
        box.adjusted(-kTooltipBoxSlack, -kTooltipBoxSlack, kTooltipBoxSlack, kTooltipBoxSlack);
    auto shownBefore = [this](const Zone& line) {
        const QList<Zone>& onMap = m_registry.zones();
        return std::any_of(onMap.cbegin(), onMap.cend(), [&line](const Zone& z) {
            return !z.temporary && z.bounds.intersects(line.bounds) &&
                   z.label.simplified().compare(line.label.simplified(), Qt::CaseInsensitive) == 0;
        });
    };
    QList<const Zone*> lines;
    for (const Zone& z : zones) {
        const QRect in = z.bounds.intersected(inside);
        const bool within = qint64(in.width()) * in.height() >=
                            kTooltipLineInside * double(z.bounds.width()) * z.bounds.height();
        if (!z.label.trimmed().isEmpty() && within && !shownBefore(z))
            lines << &z;
    }
    // Reading order: line by line (a zone whose middle is below another's bottom is on a later line).
    std::sort(lines.begin(), lines.end(), [](const Zone* a, const Zone* b) {
        if (a->bounds.center().y() > b->bounds.bottom())
            return false;
        if (b->bounds.center().y() > a->bounds.bottom())
            return true;
        return a->bounds.left() < b->bounds.left();
    });
    QStringList words;
    QRect text; // the tooltip's text
    for (const Zone* z : std::as_const(lines)) {
        words << z->label.simplified();
        text |= z->bounds;
    }
    const QString label = words.join(QLatin1Char(' ')).left(kMaxTooltipLabel).trimmed();
    if (label.isEmpty() || text.isEmpty() || !m_cursor) {
        m_tooltip.reset();
        return;
    }
    QStringList unnamed;
    for (const Zone& z : m_registry.zones()) {
        if (!z.temporary && z.label.trimmed().isEmpty() && z.bounds.contains(*m_cursor))
            unnamed << z.id;
    }
    m_tooltip = PendingTooltip{label, text, *m_cursor, unnamed};
    qCDebug(lcCanvas) << "tooltip" << label << "at" << text << "; cursor at" << *m_cursor;
}

bool CanvasMapper::nameFromTooltip(qint64 frameNs)
{
    if (!m_tooltip)
        return false;
    if (!m_cursor || *m_cursor != m_tooltip->cursor) {
        m_tooltip.reset(); // the pointer moved on: whose tooltip it was is no longer clear
        return false;
    }
    if (frameNs - m_cursorStillSinceNs < qint64(m_options.tooltipRestMs) * 1'000'000)
        return false; // not yet: the frame may show the last zone's tooltip
    // Changes under the tooltip not analysed yet: it may be another one by now.
    for (const QList<QRect>* pending : {&m_waitRegions, &m_deferred}) {
        for (const QRect& r : *pending) {
            if (r.intersects(m_tooltip->region))
                return false;
        }
    }
    const PendingTooltip tooltip = *std::exchange(m_tooltip, std::nullopt);
    // Every unnamed control under the pointer: the pieces of one control vision found apart (an icon's
    // head and its stem) are all of it. A control's box may touch the tooltip's (a tool bar cell reaching
    // a row into it); one mostly under the tooltip is not what the pointer rests on. A label of one
    // character given to a control that was unnamed when the tooltip showed is its icon read as a letter
    // since (a magnifier as "Q"), no name.
    QStringList named;
    for (const Zone& z : m_registry.zones()) {
        const QRect under = z.bounds.intersected(tooltip.region);
        const QString label = z.label.simplified();
        const bool unnamed = label.isEmpty() || (label.size() == 1 && tooltip.unnamed.contains(z.id));
        if (z.temporary || !z.bounds.contains(tooltip.cursor) ||
            4 * qint64(under.width()) * under.height() > qint64(z.bounds.width()) * z.bounds.height() ||
            !isNamedControl(z.type) || !unnamed || z.source == ZoneSource::User ||
            z.source == ZoneSource::Accessibility)
            continue;
        named << z.id;
    }
    for (const QString& id : std::as_const(named)) {
        m_registry.update(id, [&tooltip](Zone& z) {
            z.label = tooltip.text;
            z.labelSource = LabelSource::Tooltip;
        });
    }
    if (named.isEmpty())
        return false;
    qCInfo(lcCanvas) << named << "named" << tooltip.text << "by the tooltip";
    return true;
}

void CanvasMapper::keepUnderTooltips(const QRect& region, QList<Zone>& zones) const
{
    QList<QRect> tips;
    for (const Zone& z : m_registry.zones()) {
        if (z.temporary)
            tips << z.bounds;
    }
    if (tips.isEmpty())
        return;
    auto covered = [&tips](const QRect& r) {
        return std::any_of(tips.cbegin(), tips.cend(), [&r](const QRect& t) { return t.intersects(r); });
    };
    zones.removeIf([&covered](const Zone& z) { return !z.temporary && covered(z.bounds); });
    for (const Zone& z : m_registry.zones()) {
        if (!z.temporary && covered(z.bounds) && region.contains(z.bounds.center()))
            zones << z;
    }
}

} // namespace ciu::canvas
