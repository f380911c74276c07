#include "core/model/spatialevent.h"

#include <array>
#include <utility>

namespace ciu {
namespace {
constexpr std::array<std::pair<SpatialEvent::Kind, const char*>, 13> kNames{{
    {SpatialEvent::Kind::ZoneEnter, "zone_enter"},
    {SpatialEvent::Kind::ZoneExit, "zone_exit"},
    {SpatialEvent::Kind::ZoneHover, "zone_hover"},
    {SpatialEvent::Kind::ZoneClick, "zone_click"},
    {SpatialEvent::Kind::ZoneType, "zone_type"},
    {SpatialEvent::Kind::BrushLost, "brush_lost"},
    {SpatialEvent::Kind::Takeover, "takeover"},
    {SpatialEvent::Kind::TierDecision, "tier_decision"},
    {SpatialEvent::Kind::Analysis, "analysis"},
    {SpatialEvent::Kind::ModelCall, "model_call"},
    {SpatialEvent::Kind::Action, "action"},
    {SpatialEvent::Kind::Error, "error"},
    {SpatialEvent::Kind::Info, "info"},
}};
} // namespace

QString toString(SpatialEvent::Kind kind)
{
    for (const auto& [k, name] : kNames) {
        if (k == kind)
            return QString::fromLatin1(name);
    }
    return QStringLiteral("info");
}

std::optional<SpatialEvent::Kind> spatialEventKindFromString(const QString& name)
{
    for (const auto& [k, kindName] : kNames) {
        if (name == QLatin1String(kindName))
            return k;
    }
    return std::nullopt;
}

QJsonObject SpatialEvent::toJson() const
{
    QJsonObject o;
    o[QLatin1String("t_ns")] = double(tNs);
    o[QLatin1String("kind")] = toString(kind);
    if (!zoneId.isEmpty())
        o[QLatin1String("zone_id")] = zoneId;
    o[QLatin1String("x")] = point.x();
    o[QLatin1String("y")] = point.y();
    if (!data.isEmpty())
        o[QLatin1String("data")] = QJsonObject::fromVariantMap(data);
    return o;
}

std::optional<SpatialEvent> SpatialEvent::fromJson(const QJsonObject& o)
{
    const auto kind = spatialEventKindFromString(o.value(QLatin1String("kind")).toString());
    // A time outside a qint64 (a corrupt or hostile file) is refused: converting it would be undefined.
    const double t = o.value(QLatin1String("t_ns")).toDouble();
    if (!kind || !o.value(QLatin1String("t_ns")).isDouble() || !(t >= -9.2e18 && t <= 9.2e18))
        return std::nullopt;
    SpatialEvent e;
    e.kind = *kind;
    e.tNs = qint64(t);
    e.zoneId = o.value(QLatin1String("zone_id")).toString();
    e.point = QPoint(o.value(QLatin1String("x")).toInt(), o.value(QLatin1String("y")).toInt());
    e.data = o.value(QLatin1String("data")).toObject().toVariantMap();
    return e;
}

} // namespace ciu
