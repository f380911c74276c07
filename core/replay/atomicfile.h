#pragma once

// Writing a small file so that a reader sees either the previous complete content or the new complete
// content, never a truncated one (metadata.json while the disk fills up, a killed process, a power cut).

#include <QByteArray>
#include <QString>

namespace ciu::replay {

// Writes `data` to a temporary file next to `path`, checks every write, fsyncs it, renames it over `path`
// and fsyncs the folder. On any failure the temporary file is removed, `path` keeps its previous content,
// `error` receives the reason (the system's message, e.g. "No space left on device") and false is returned.
bool writeFileAtomically(const QString& path, const QByteArray& data, QString* error = nullptr);

// True when an error text from a failed write means the file system is full (or the write quota reached).
bool isDiskFullError(const QString& error);

} // namespace ciu::replay
