#pragma once

#include "core/model/frame.h"
#include "core/model/zonemap.h"

#include <QList>
#include <QRect>
#include <QString>

#include <optional>

namespace ciu::canvas {

// What the canvas does about one Tier 0 result. Pure: the same inputs give the same decisions, so the rules
// are tested table-driven.
struct TierDecision
{
    enum class Action : quint8
    {
        Ignore = 1, // tier 0: nothing to do
        Wait,       // animation: analyse once the screen is stable
        Hover,      // update the hovered zone's state, no analysis
        Local,      // tier 1 on `regions`
        Full,       // tier 2 (the whole screen, or `regions` for a dialog); offline: tier 1 on that area
    };

    Action action = Action::Ignore;
    int tier = 0;         // 0, 1 or 2, as logged
    QString reason;       // cursor_only, below_threshold, animation, hover, hover_end, tooltip, menu_opened,
                          // dialog, zone_changed, local_change, large_change, active_window_changed,
                          // first_frame, animation_settled, requested; the mapper adds small_change_settled
    QList<QRect> regions; // root coordinates, empty for a whole-screen tier 2
    double changedPercent = 0;
    QString zoneId;         // hover: the zone; menu_opened: the menu item it drops from
    bool hoverOn = false;   // hover: entering (true) or leaving (false)
    bool temporary = false; // tooltip: zones found are temporary
    QRect box;              // tooltip: the box that changed (`regions` are it with a margin)
    bool menuPopup = false; // menu_opened: the rows are menu items
};

QString toString(TierDecision::Action action);

class EscalationPolicy
{
public:
    struct Options
    {
        double ignoreBelowPercent = 0.5; // total change below this, outside known zones: nothing
        double fullAbovePercent = 30.0;  // above this: tier 2
        int minChangedPixels = 24;       // a region with fewer changed pixels is noise (caret blink)
        int mergeGap = 8;                // regions closer than this are analysed together
        int regionMargin = 4;            // grown by this before analysis
        int maxRegions = 8;              // more: one region around all of them
        int dialogMinWidth = 120;        // a new rectangle at least this big is a dialog
        int dialogMinHeight = 60;
        int tooltipMaxHeight = 48; // a small new box near the cursor after a hover is a tooltip
        int tooltipMaxWidth = 480;
        int tooltipMinHeight = 16; // a line of text and its box: a thinner strip is a control's edge
        // A tooltip is a new box: it repaints at least this share of its pixels (typed text, a few strokes
        // in a field the pointer rests beside, does not). A tooltip's text changing in place, over the
        // tooltip the map holds, needs no share.
        double tooltipMinPercent = 50;
        // A tooltip over another zone (an editor's page) repaints most pixels of its box; typing does not.
        double tooltipOverZoneMinPercent = 60;
        int tooltipCursorDistance = 64;
        int hoverSlack = 4; // a hover change may spill this far out of the zone
    };

    struct Context
    {
        ZoneMapPtr map; // current zones (may be null before the first analysis)
        QSize screenSize;
        std::optional<QPoint> cursor;     // latest cursor position
        QString hoveredZoneId;            // zone currently marked hovered
        bool activeWindowChanged = false; // since the previous decision
        QList<QRect> newWindows;          // top-level windows that appeared since the previous decision
        bool providerAvailable = false;   // tier 2 can ask a model
    };

    EscalationPolicy();
    explicit EscalationPolicy(Options options);
    const Options& options() const { return m_options; }

    // One or more decisions for a change (e.g. a hover and an unrelated local change). Never empty.
    QList<TierDecision> decide(const FrameDiff& diff, const Context& context) const;

    // Merges nearby rectangles, grows them by the margin and clips them to the screen.
    QList<QRect> mergeRegions(const QList<QRect>& rects, QSize screen) const;

private:
    Options m_options;
};

} // namespace ciu::canvas
