// CanvasMapper and tooltips: an icon button that neither its pixels (no text) nor the icon themes name gets
// the text of its tooltip as its label (LabelSource::Tooltip). The escalation policy analyses a small box
// that shows beside a resting cursor on a control as a tooltip (temporary zones). Its text names each
// unnamed control under the cursor, but only once a frame taken Options::tooltipRestMs after the cursor came
// to rest shows it: a program answers a move a little later, so a tooltip seen sooner may still be the last
// control's (and a tooltip already up changes its text at once when the pointer moves on). Until then the
// text waits; a change of the tooltip's pixels or a move of the cursor drops it. The registry keeps a
// tooltip's name over later analyses that read none (ZoneRegistry).

#include "core/canvas/canvaslog.h"
#include "core/canvas/canvasmapper.h"

#include <algorithm>

namespace ciu::canvas {

namespace {

constexpr int kMaxTooltipLabel = 120; // a longer tooltip is a description: its first part names the zone

} // namespace

void CanvasMapper::noteTooltip(const QRect& region, const QList<Zone>& zones)
{
    QList<const Zone*> lines;
    for (const Zone& z : zones) {
        if (!z.label.trimmed().isEmpty() && region.contains(z.bounds.center()))
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
    QRect text; // the tooltip's text: the analysed region is padded, and may reach the control's edge
    for (const Zone* z : std::as_const(lines)) {
        words << z->label.simplified();
        text |= z->bounds.intersected(region);
    }
    const QString label = words.join(QLatin1Char(' ')).left(kMaxTooltipLabel).trimmed();
    if (label.isEmpty() || text.isEmpty() || !m_cursor) {
        m_tooltip.reset();
        return;
    }
    m_tooltip = PendingTooltip{label, text, *m_cursor};
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
    // a row into it); one mostly under the tooltip is not what the pointer rests on.
    QStringList named;
    for (const Zone& z : m_registry.zones()) {
        const QRect under = z.bounds.intersected(tooltip.region);
        if (z.temporary || !z.bounds.contains(tooltip.cursor) ||
            4 * qint64(under.width()) * under.height() > qint64(z.bounds.width()) * z.bounds.height() ||
            !isNamedControl(z.type) || !z.label.trimmed().isEmpty() || z.source == ZoneSource::User ||
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

} // namespace ciu::canvas
