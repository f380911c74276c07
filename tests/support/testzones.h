#pragma once

// Zones for unit tests: what a planner, the director or the verifier is given as seen on a screen.

#include "core/model/zone.h"

#include <QList>
#include <QStringList>

namespace ciu::test {

inline Zone zone(const QString& id, ZoneType type, const QString& label, QRect bounds,
                 ZoneState state = ZoneStateFlag::Enabled)
{
    Zone z;
    z.id = id;
    z.type = type;
    z.label = label;
    z.bounds = bounds;
    z.state = state;
    z.confidence = 0.9;
    return z;
}

// A list box captioned "Fruit" (id l1, at 500,60 200x80) and its rows in view, top to bottom (ids "r" + the
// row's name, 24 px apart); `selected` names the selected row.
inline QList<Zone> listBoxZones(const QStringList& rows, const QString& selected = {})
{
    QList<Zone> zones{
        zone(QStringLiteral("l1"), ZoneType::ScrollArea, QStringLiteral("Fruit"), QRect(500, 60, 200, 80))};
    for (int i = 0; i < rows.size(); ++i) {
        Zone row = zone(QStringLiteral("r%1").arg(rows[i]), ZoneType::Button, rows[i],
                        QRect(502, 62 + 24 * i, 196, 22));
        if (rows[i] == selected)
            row.state |= ZoneStateFlag::Selected;
        zones << row;
    }
    return zones;
}

} // namespace ciu::test
