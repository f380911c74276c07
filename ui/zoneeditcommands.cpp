#include "ui/zoneeditcommands.h"

#include "ui/zonecorrections.h"

#include <QCoreApplication>

#include <algorithm>

namespace ciu::ui {
namespace {
QString trCommand(const char* text)
{
    return QCoreApplication::translate("ciu::ui::ZoneEditCommand", text);
}

bool holdsZone(const CorrectionSet& set, const QString& id)
{
    return std::any_of(set.zones.cbegin(), set.zones.cend(), [&](const Zone& z) { return z.id == id; });
}
} // namespace

ZoneEditCommand::ZoneEditCommand(ZoneCorrections* document)
    : m_document(document)
{
}

void ZoneEditCommand::redo()
{
    if (!m_valid)
        return;
    m_document->setCorrections(m_after);
    m_document->requestSelection(m_zoneAfter);
}

void ZoneEditCommand::undo()
{
    if (!m_valid)
        return;
    m_document->setCorrections(m_before);
    m_document->requestSelection(m_zoneBefore);
}

AddZoneCommand::AddZoneCommand(ZoneCorrections* document, Zone zone)
    : ZoneEditCommand(document)
{
    setText(trCommand(QT_TRANSLATE_NOOP("ciu::ui::ZoneEditCommand", "Add zone")));
    if (zone.bounds.width() <= 0 || zone.bounds.height() <= 0)
        return;
    if (zone.id.isEmpty() || document->zone(zone.id))
        zone.id = newUserZoneId();
    m_before = document->corrections(document->applicationOf(zone));
    m_after = document->withZoneAdded(zone);
    m_zoneAfter = zone.id;
    m_valid = true;
}

DeleteZoneCommand::DeleteZoneCommand(ZoneCorrections* document, const QString& zoneId)
    : ZoneEditCommand(document)
{
    setText(trCommand(QT_TRANSLATE_NOOP("ciu::ui::ZoneEditCommand", "Delete zone")));
    const Zone* zone = document->zone(zoneId);
    if (!zone)
        return;
    m_before = document->corrections(document->applicationOf(*zone));
    m_after = document->withZoneRemoved(*zone);
    m_zoneBefore = zoneId;
    m_valid = true;
}

SetZoneGeometryCommand::SetZoneGeometryCommand(ZoneCorrections* document, const QString& zoneId,
                                               const QRect& bounds)
    : ZoneEditCommand(document)
{
    setText(trCommand(QT_TRANSLATE_NOOP("ciu::ui::ZoneEditCommand", "Move or resize zone")));
    const Zone* zone = document->zone(zoneId);
    if (!zone || bounds.width() <= 0 || bounds.height() <= 0 || bounds == zone->bounds)
        return;
    Zone edited = *zone;
    edited.bounds = bounds;
    const QString newId = newUserZoneId();
    m_before = document->corrections(document->applicationOf(*zone));
    m_after = document->withZoneReplaced(*zone, edited, newId);
    m_zoneBefore = zoneId;
    m_zoneAfter = holdsZone(m_before, zoneId) ? zoneId : newId;
    m_valid = true;
}

SetZonePropertiesCommand::SetZonePropertiesCommand(ZoneCorrections* document, const QString& zoneId,
                                                   const QString& label, ZoneType type, ZoneState state)
    : ZoneEditCommand(document)
{
    setText(trCommand(QT_TRANSLATE_NOOP("ciu::ui::ZoneEditCommand", "Edit zone")));
    const Zone* zone = document->zone(zoneId);
    if (!zone || (zone->label == label && zone->type == type && zone->state == state))
        return;
    Zone edited = *zone;
    if (edited.label != label)
        edited.labelSource =
            LabelSource::User; // typed by the user (an unchanged label keeps where it came from)
    edited.label = label;
    edited.type = type;
    edited.state = state;
    const QString newId = newUserZoneId();
    m_before = document->corrections(document->applicationOf(*zone));
    m_after = document->withZoneReplaced(*zone, edited, newId);
    m_zoneBefore = zoneId;
    m_zoneAfter = holdsZone(m_before, zoneId) ? zoneId : newId;
    m_valid = true;
}

} // namespace ciu::ui
