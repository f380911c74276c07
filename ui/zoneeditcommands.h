#pragma once

#include "core/knowledge/correctionstore.h"

#include <QRect>
#include <QUndoCommand>

namespace ciu::ui {

class ZoneCorrections;

// The undoable edits of the zone inspector, one class per kind. Each keeps the affected application's
// correction set before and after the edit; redo/undo install one or the other. A command whose zone
// does not exist is invalid (isValid() false) and must not be pushed.
class ZoneEditCommand : public QUndoCommand
{
public:
    bool isValid() const { return m_valid; }
    // The zone to select after redo (a replaced zone gets a new id) and after undo.
    QString zoneAfter() const { return m_zoneAfter; }
    QString zoneBefore() const { return m_zoneBefore; }
    void redo() override;
    void undo() override;

protected:
    explicit ZoneEditCommand(ZoneCorrections* document);

    ZoneCorrections* m_document;
    CorrectionSet m_before;
    CorrectionSet m_after;
    QString m_zoneBefore;
    QString m_zoneAfter;
    bool m_valid = false;
};

class AddZoneCommand final : public ZoneEditCommand
{
public:
    // `zone` in root coordinates; gets a new user id unless it has one.
    AddZoneCommand(ZoneCorrections* document, Zone zone);
};

class DeleteZoneCommand final : public ZoneEditCommand
{
public:
    DeleteZoneCommand(ZoneCorrections* document, const QString& zoneId);
};

class SetZoneGeometryCommand final : public ZoneEditCommand
{
public:
    SetZoneGeometryCommand(ZoneCorrections* document, const QString& zoneId, const QRect& bounds);
};

class SetZonePropertiesCommand final : public ZoneEditCommand
{
public:
    SetZonePropertiesCommand(ZoneCorrections* document, const QString& zoneId, const QString& label,
                             ZoneType type, ZoneState state);
};

} // namespace ciu::ui
