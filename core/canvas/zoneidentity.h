#pragma once

// Stable zone ids: a zone's id is derived from what identifies its element in its program, so the same
// element of the same program gets the same id in every process and session (the Director's plans, the
// replay, the corrections and the zone memory can refer to it). Tree zones: the program (WM_CLASS) + the
// node's role + its path of role/name pairs from the window. Vision zones: the program + type + label + the
// position in the window, quantised. Ids are "z" + 8 hex digits; user zones keep their own ("u…").

#include "core/model/zone.h"

#include <QHash>
#include <QList>
#include <QPoint>
#include <QSet>
#include <QString>

#include <utility>

namespace ciu::canvas {

inline constexpr int kIdPositionQuantum = 16; // px: vision zones within one cell of the window share a key

// "z" + the first 8 hex digits of the SHA-1 of `key`.
QString zoneIdForKey(const QString& key);

// The identity of an accessible node: program, role and the role/name pairs of its ancestors from its window
// (window first, the window's own title left out: it changes with the document), then its own name.
QString treeZoneKey(const QString& program, const QString& role,
                    const QList<std::pair<QString, QString>>& ancestors, const QString& name);

// The identity of a zone found in pixels: program, type, label (case and spacing ignored) and its top-left
// relative to its window's (the screen's when it has none), quantised to kIdPositionQuantum.
QString visionZoneKey(const Zone& zone, QPoint windowOrigin);

// Gives out ids for keys: the same key gets the same id; a key whose id is taken (a second element with the
// same identity, or a hash collision) gets the id of key + "#2", "#3", ... in the order asked, so the
// result is deterministic for the same sequence of keys.
class ZoneIdAllocator
{
public:
    explicit ZoneIdAllocator(QSet<QString> taken = {});
    QString allocate(const QString& key);
    void reserve(const QString& id) { m_taken.insert(id); }

private:
    QSet<QString> m_taken;
};

} // namespace ciu::canvas
