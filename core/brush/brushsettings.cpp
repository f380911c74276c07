#include "core/brush/brushsettings.h"

namespace ciu {

std::optional<double> BrushSettings::speedForMode(const QString& mode)
{
    const QString m = mode.trimmed().toLower();
    if (m == QLatin1String("max"))
        return 0.0;
    if (m == QLatin1String("high"))
        return 4000.0;
    if (m == QLatin1String("medium"))
        return 1500.0;
    if (m == QLatin1String("low"))
        return 600.0;
    return std::nullopt;
}

} // namespace ciu
