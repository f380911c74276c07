#pragma once

// The learned app schema of each program (shortcuts, named zones, notes) as one JSON file per WM_CLASS under
// $XDG_DATA_HOME/ciu-agent/shortcuts, or a directory of the caller's choice (tests).

#include "core/knowledge/shortcuts.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace ciu {

class ShortcutStore
{
public:
    ShortcutStore();
    explicit ShortcutStore(QString directory);

    static QString defaultDirectory();
    QString directory() const { return m_directory; }
    // The file of a program: its class made safe for a file system ("Fixture App" → "Fixture_App.json").
    QString filePath(const QString& application) const;

    // An empty schema when nothing is stored; nullopt with `error` when the file is unreadable or corrupt (a
    // corrupt file is left as it is: save() refuses to replace it, see below).
    std::optional<AppSchema> load(const QString& application, QString* error = nullptr) const;
    // Writes atomically. Refuses (false, `error`) to overwrite a file that does not load: what the user may
    // have edited by hand is never lost silently.
    bool save(const AppSchema& schema, QString* error = nullptr) const;
    // Programs with a stored file.
    QStringList applications() const;

private:
    QString m_directory;
};

// The shortcuts known for a program: its shipped schema, then the stored (learned) ones merged over it; a
// learned one with the keys of the shipped one stays of source Schema; a learned named zone replaces the
// shipped one of its name. nullopt with `error` when the stored file is corrupt.
std::optional<AppSchema> knownShortcuts(const ShortcutStore& store, const QString& application,
                                        QString* error = nullptr);

} // namespace ciu
