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

    // Whether a field that reads `seen` holds the typed text of `expectation` (TextEquals: the whole text,
    // TextEndsWith: its end), allowing for a reading slip (1 character in 6); `why` tells what it shows.
    static bool fieldTextMatches(const Expectation& expectation, const QString& zoneId, const QString& seen,
                                 QString* why);
};

} // namespace ciu
