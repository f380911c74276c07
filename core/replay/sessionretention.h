#pragma once

#include <QDateTime>
#include <QString>
#include <QStringList>

namespace ciu::replay {

// How many recordings to keep under a session root. Only folders named like sessions
// (session_YYYYMMDD_HHMMSS) that contain a metadata.json are ever deleted.
struct RetentionPolicy
{
    int maxSessions = 100;                            // 0: no limit
    qint64 maxTotalBytes = 20LL * 1024 * 1024 * 1024; // 0: no limit
    int maxAgeDays = 90;                              // sessions started longer ago are deleted; 0: no limit
};

// Deletes sessions under `root` older than maxAgeDays, then the oldest ones until the count and size limits
// hold, never touching `keep` (the session being recorded). The age comes from the folder name (the local
// start time). `now` is for tests (invalid: the current time). Returns the removed folder paths.
QStringList applyRetention(const QString& root, const RetentionPolicy& policy, const QString& keep = {},
                           const QDateTime& now = {});

// Total size of the files under a folder, in bytes.
qint64 folderSizeBytes(const QString& path);

} // namespace ciu::replay
