#pragma once

#include "core/director/actionflight.h"
#include "core/model/spatialevent.h"

#include <QList>
#include <QString>

#include <optional>

namespace ciu {

// What the Director checks after an action, as pure functions of the action, its result, the zone maps
// before and after and the spatial events since it was sent: whether the brush was lost, whether the click or
// the text landed in another zone, whether the action opens a menu or list (whose items are waited for), and
// whether the planner's expected change shows. The waiting (for the canvas to settle) stays in the Director.
class ActionVerifier final
{
public:
    // The brush reported itself lost (in its error or as a BrushLost event).
    static bool brushLost(const ActionResult& result, const QList<SpatialEvent>& eventsSinceDispatch);

    // The zone (or the point "(x, y)") a click or a text of `flight` landed in instead of its target; empty
    // when it landed where it should (a click inside a child of the target still counts as the target).
    static QString wrongZone(const ActionFlight& flight, const ActionResult& result,
                             const QList<SpatialEvent>& eventsSinceDispatch);

    // The action opens a menu or list: a menu item, a drop-down or a right-click.
    static bool opensMenuOrList(const ActionFlight& flight);

    // Whether the expected change of `proposed` shows between `before` and `after`; `why` says what is
    // missing. `fieldText` is what the target field reads now (for the text expectations), when it could be
    // read; without it a text expectation asks for a change.
    static bool expectationMet(const ProposedAction& proposed, const ActionResult& result,
                               const ZoneMapPtr& before, const ZoneMapPtr& after, QString* why,
                               const std::optional<QString>& fieldText = std::nullopt);

    // What shows that the action had an effect of its own, in words ("a change in z3", "z7 appeared"); empty
    // when nothing does. Counted: a changed region in the target, or anywhere that is not the focus ring or
    // hover highlight of another zone and not an animation; a zone that appeared or went away; the target's
    // own state, label or value moving; another text field's text moving. Not counted: a new map version
    // alone (a focus ring moving re-maps), pixels changing inside another text field (its caret).
    static QString changeEvidence(const ProposedAction& proposed, const ActionResult& result,
                                  const ZoneMapPtr& before, const ZoneMapPtr& after);

    // Whether the changed region is the outline of a zone other than `targetId` (a focus ring leaving it or a
    // hover highlight): it covers that zone's box, reaches only a little past it, and only a small share of
    // its pixels changed.
    static bool isOutlineOfOtherZone(const ChangeRegion& region, const ZoneMap& map, const QString& targetId);

    // Whether the changed region lies within text fields other than `targetId` (their boxes and focus
    // rings), apart from `ownLook` (the target's own box and ring, when its own look is no effect): a caret
    // blinking, a border fading with focus, the focus leaving a field for a clicked button (the field's ring
    // and caret and the button's ring merged into one change). A click's effect there is a field's text
    // moving, not its pixels.
    static bool insideOtherTextField(const QRect& region, const ZoneMap& map, const QString& targetId,
                                     const QRect& ownLook = QRect());

    // The open menu on `map` (menu items stacked in a column, with the title they hang from), or an empty
    // rectangle when none is open. A click outside it only closes it (the toolkits' popups take the click),
    // so its closing is no effect of what was clicked.
    static QRect openMenuRegion(const ZoneMap& map);

    // The zone `was` as it is in `after`: by id, else by its accessible (a tree zone re-identified).
    static const Zone* sameZone(const ZoneMap* after, const Zone& was);

    // Whether a drop-down that reads `seen` shows the option `expectation.text` (its words in order, allowing
    // for a reading slip and an arrow read as a letter); `why` tells what it shows.
    static bool showsText(const Expectation& expectation, const QString& zoneId, const QString& seen,
                          QString* why);

    // The box to read a field's text from: the field's own, widened by what vision split off from it
    // (static text or an unnamed zone touching the field on its row: the part of an entry that holds text).
    // Not chained: a label beside that text stays out; a named control beside the field too.
    static QRect readingBox(const Zone& field, const ZoneMap* map);

    // Whether a window that reads `seen` shows every line of the text typed into it (WindowShowsText),
    // allowing for a reading slip (1 character in 6, spaces ignored); `why` tells what is missing.
    static bool windowShowsText(const Expectation& expectation, const QString& seen, QString* why);

    // Whether a field that reads `seen` holds the typed text of `expectation` (TextEquals: the whole text,
    // TextEndsWith: its end), allowing for a reading slip (1 character in 6); `why` tells what it shows.
    static bool fieldTextMatches(const Expectation& expectation, const QString& zoneId, const QString& seen,
                                 QString* why);
};

} // namespace ciu
