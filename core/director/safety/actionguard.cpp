#include "core/director/safety/actionguard.h"

#include <algorithm>

namespace ciu::safety {

GuardVerdict checkAction(const Action& action, const ZoneMap* map, const GuardOptions& options,
                         const QString& windowTitle, const QString& windowClass)
{
    GuardVerdict v;
    ActionLimits limits = options.limits;
    if (limits.screenSize.isEmpty() && map)
        limits.screenSize = map->screenSize();
    if (const QString invalid = validate(action, limits); !invalid.isEmpty()) {
        v.kind = GuardVerdict::Kind::Invalid;
        v.reason = invalid;
        return v;
    }
    RiskContext context;
    context.windowTitle = windowTitle;
    context.windowClass = windowClass;
    for (const QString* id : {&action.zoneId, &action.endZoneId}) {
        if (id->isEmpty())
            continue;
        const Zone* z = map ? map->find(*id) : nullptr;
        if (!z) {
            v.kind = GuardVerdict::Kind::ZoneMissing;
            v.reason = QStringLiteral("zone \"%1\" does not exist in the current zone map").arg(*id);
            return v;
        }
        if (z->confidence < options.minConfidence) {
            v.kind = GuardVerdict::Kind::LowConfidence;
            v.reason = QStringLiteral("zone \"%1\" has confidence %2, below the minimum %3")
                           .arg(*id)
                           .arg(z->confidence, 0, 'f', 2)
                           .arg(options.minConfidence, 0, 'f', 2);
            return v;
        }
        if (action.point && id == &action.zoneId &&
            !QRect(QPoint(0, 0), z->bounds.size()).contains(*action.point)) {
            v.kind = GuardVerdict::Kind::Invalid;
            v.reason = QStringLiteral("offset (%1, %2) lies outside zone \"%3\"")
                           .arg(action.point->x())
                           .arg(action.point->y())
                           .arg(*id);
            return v;
        }
        (id == &action.zoneId ? context.target : context.target2) = z;
    }
    // Raw coordinates: judge the zone under the point.
    if (!context.target && action.point && map)
        context.target = map->zoneAt(*action.point);
    // Typing without a zone goes to the focused field: judge that field (a password field asks first).
    if (!context.target && map &&
        (action.type == Action::Type::TypeText || action.type == Action::Type::Paste)) {
        context.target = options.focusedZoneId.isEmpty() ? nullptr : map->find(options.focusedZoneId);
        if (!context.target) {
            const auto& zones = map->zones();
            const auto focused = std::find_if(zones.cbegin(), zones.cend(), [](const Zone& z) {
                return z.type == ZoneType::TextField && z.state.testFlag(ZoneStateFlag::Focused);
            });
            context.target = focused == zones.cend() ? nullptr : &*focused;
        }
    }
    v.risk = RiskAssessor::assess(action, context);
    v.secretText = !action.text.isEmpty() &&
                   std::any_of(v.risk.findings.cbegin(), v.risk.findings.cend(), [](const Risk::Finding& f) {
                       return f.category == Risk::Category::Credential;
                   });
    if (v.risk.isHigh()) {
        v.kind = GuardVerdict::Kind::NeedsConfirmation;
        v.reason = v.risk.summary();
    }
    return v;
}

} // namespace ciu::safety
