#pragma once

// The zone inspector's corrections as stored (CorrectionStore), for the canvas mapper: what it applies to
// every published map when no app pushes them (CanvasMapper::setCorrectionStore()). Internal to core/canvas.

#include "core/knowledge/correctionstore.h"
#include "platform/types.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QHash>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

namespace ciu::canvas {

// Each program's file is read once, when a window of the program is first listed, and read again when it
// changed on disk (it appeared, went, or its size or time changed), looked at no more than once per
// `checkIntervalMs` (0: on every call). A file that does not load is reported once per state of the file and
// leaves the program without corrections.
class StoredCorrections
{
public:
    StoredCorrections(std::unique_ptr<CorrectionStore> store, int checkIntervalMs);
    ~StoredCorrections();
    StoredCorrections(const StoredCorrections&) = delete;
    StoredCorrections& operator=(const StoredCorrections&) = delete;

    // Looks at the files read so far (unless it did less than the interval ago); true when one changed and
    // was read again (at `tNs`).
    bool refresh(qint64 tNs);
    // `zones` (root coordinates) with every program's corrections applied to the window that carries them,
    // as the zone inspector shows them: of the listed windows (`windows`: stacking order, bottom first) of
    // the program whose title matches the corrections' pattern, the active one, else the topmost. User zones
    // keep their stored ids and take the window's id. The corrections of "desktop" (zones of no window)
    // apply at the screen's origin. `tNs`: the time a program's file is read (its user zones' times).
    // nullopt when nothing changes.
    std::optional<QList<Zone>> apply(const QList<Zone>& zones, const QList<platform::WindowInfo>& windows,
                                     qint64 tNs);

    struct Error
    {
        QString program;
        QString message;
    };
    // The files that did not load since the last call.
    QList<Error> takeErrors();

private:
    struct FileState
    {
        bool exists = false;
        qint64 size = 0;
        QDateTime modified;
        bool operator==(const FileState&) const = default;
    };
    struct Entry
    {
        FileState state;
        std::optional<CorrectionSet> set; // nullopt: none stored, or the file does not load
        qint64 readTNs = 0;
    };
    FileState stateOf(const QString& program) const;
    void read(const QString& program, Entry& entry, qint64 tNs);
    const CorrectionSet* corrections(const QString& program, qint64 tNs); // read on first use

    std::unique_ptr<CorrectionStore> m_store;
    int m_checkIntervalMs = 0;
    QElapsedTimer m_sinceCheck;
    QHash<QString, Entry> m_entries;
    QList<Error> m_errors;
};

} // namespace ciu::canvas
