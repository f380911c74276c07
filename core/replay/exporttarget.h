#pragma once

// Guards for the files an export writes: never inside the session it reads (an export of S to
// S/session.mp4 truncated the very video it was reading), never a stub left behind when it fails.

#include <QString>

namespace ciu::replay {

class SessionReader;

// Why `file` must not receive an export of the session `reader` has open, or empty when it may: it lies
// inside the session folder (or is one of its files through a link), is a folder, or exists as something
// other than a regular file (a pipe or a device).
QString exportTargetProblem(const SessionReader& reader, const QString& file);

// Writes to a temporary file next to the target; commit() renames it over the target. Destroyed without
// commit() (an error, a cancel), it removes the temporary file: the target keeps what it had before.
class ExportFile final
{
public:
    explicit ExportFile(const QString& target);
    ~ExportFile();
    ExportFile(const ExportFile&) = delete;
    ExportFile& operator=(const ExportFile&) = delete;

    QString path() const { return m_temp; } // where to write
    bool commit(QString* error);

private:
    QString m_target;
    QString m_temp;
    bool m_committed = false;
};

} // namespace ciu::replay
