#include "core/model/metatypes.h"

#include "core/model/action.h"
#include "core/model/frame.h"
#include "core/model/spatialevent.h"
#include "core/model/zonemap.h"

namespace ciu {

void registerMetaTypes()
{
    qRegisterMetaType<Frame>();
    qRegisterMetaType<CursorSample>();
    qRegisterMetaType<FrameDiff>();
    qRegisterMetaType<Zone>();
    qRegisterMetaType<ZoneMapPtr>();
    qRegisterMetaType<SpatialEvent>();
    qRegisterMetaType<Action>();
    qRegisterMetaType<ActionResult>();
}

} // namespace ciu
