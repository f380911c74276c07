#pragma once

#include <QJsonObject>
#include <QMetaType>
#include <QPoint>
#include <QString>
#include <QVariantMap>

namespace ciu {

// Everything that happens in a session and is shown in the event log and the replay timeline:
// the brush's spatial events and the other components' notable moments.
struct SpatialEvent
{
    enum class Kind : quint8
    {
        ZoneEnter = 1,
        ZoneExit,
        ZoneHover,
        ZoneClick,
        ZoneType,
        BrushLost,
        Takeover,
        TierDecision, // the canvas chose a tier, with its reason
        Analysis,     // a tier 1/2 analysis finished
        ModelCall,
        Action,
        Error,
        Info,
    };

    Kind kind = Kind::Info;
    qint64 tNs = 0;
    QString zoneId;
    QPoint point;
    QVariantMap data; // kind-specific: button, text (masked for passwords), duration_ms, tier, reason ...

    QJsonObject toJson() const;
    static std::optional<SpatialEvent> fromJson(const QJsonObject& object);
};

QString toString(SpatialEvent::Kind kind);
std::optional<SpatialEvent::Kind> spatialEventKindFromString(const QString& name);

} // namespace ciu

Q_DECLARE_METATYPE(ciu::SpatialEvent)
