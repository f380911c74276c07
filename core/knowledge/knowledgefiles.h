#pragma once

// The files every knowledge store keeps under $XDG_DATA_HOME/ciu-agent: where they live, one file per
// program named safely, strict reading of a JSON object, and atomic writing.

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace ciu::knowledgefiles {

// $XDG_DATA_HOME/ciu-agent/<leaf> (Qt's generic data location when the variable is unset).
QString dataDirectory(const QString& leaf);
// The file of a program in `directory`: its name made safe for a file system ("Fixture App" →
// "Fixture_App.json").
QString programFile(const QString& directory, const QString& program);
// The JSON object in `path`; nullopt with *error ("cannot read …", "… is not a JSON object: …").
std::optional<QJsonObject> readObject(const QString& path, QString* error);
// Writes `object` to `path` atomically, creating `directory` first; false with *error.
bool writeObject(const QString& directory, const QString& path, const QJsonObject& object, QString* error);
// The string `key` of every *.json file in `directory` that has one, by file name.
QStringList storedNames(const QString& directory, QLatin1String key);

} // namespace ciu::knowledgefiles
