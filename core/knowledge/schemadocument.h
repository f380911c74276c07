#pragma once

// One program's schema as a user reads, exports and imports it: its shortcuts, named zones and notes (the
// shipped schema with what was learned, ShortcutStore) and the zone inspector's hand corrections
// (CorrectionStore) in one document. Composed when read, not migrated: the corrections keep their own files
// (the inspector edits them; files written before the document existed load unchanged), and each user zone
// shows in the document as a named zone of source User, with the regions the user removed and the title
// pattern beside them. Importing splits a document back into the two stores.

#include "core/knowledge/correctionstore.h"
#include "core/knowledge/shortcuts.h"
#include "core/knowledge/shortcutstore.h"

#include <QJsonObject>
#include <QList>
#include <QRect>
#include <QString>

#include <optional>

namespace ciu {

struct SchemaDocument
{
    AppSchema schema;        // zones: the schema's (shipped, learned), then the user's (source User)
    QList<QRect> suppressed; // the corrections' window-relative regions of removed detections
    QString titlePattern;    // the corrections' title pattern (empty: any window of the program)

    bool operator==(const SchemaDocument&) const = default;

    // AppSchema's format, with "suppressed" ([{x, y, w, h}]) and "title_pattern" when there are any.
    QJsonObject toJson() const;
    // Strict: nullopt with `error` for a wrong or missing field.
    static std::optional<SchemaDocument> fromJson(const QJsonObject& object, QString* error = nullptr);

    // The hand corrections it holds: each User named zone as a user zone (`ids` for their ids, in order;
    // fresh ones beyond), the suppressed regions, the title pattern.
    CorrectionSet corrections(const QStringList& ids = {}) const;
};

// The program's document: knownShortcuts() (shipped and learned) and its stored corrections. nullopt with
// `error` when either file is unreadable or corrupt.
std::optional<SchemaDocument> readSchemaDocument(const ShortcutStore& shortcuts,
                                                 const CorrectionStore& corrections,
                                                 const QString& application, QString* error = nullptr);

// Takes a document (exported here or elsewhere) into the stores of its program. Its shortcuts, named zones
// and notes are merged into the learned schema (AppSchema::merge(); a named zone replaces the learned one of
// its name; what equals the shipped schema is not copied). Its corrections are added to the program's: a user
// zone at the place of one already there (isSameZone()) replaces it, suppressed regions are added once, a
// title pattern is taken when the program has none. Nothing is written when a file of the program is corrupt
// (false with `error`). Importing the same document twice changes nothing the second time.
bool importSchemaDocument(const SchemaDocument& document, const ShortcutStore& shortcuts,
                          const CorrectionStore& corrections, QString* error = nullptr);

} // namespace ciu
