#include "core/replay/sessionretention.h"

#include "core/replay/replaylog.h"
#include "core/replay/sessionformat.h"

#include <QDir>
#include <QDirIterator>
#include <QFileInfo>

#include <algorithm>

namespace ciu::replay {

qint64 folderSizeBytes(const QString& path)
{
    qint64 total = 0;
    QDirIterator it(path, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        total += it.fileInfo().size();
    }
    return total;
}

QStringList applyRetention(const QString& root, const RetentionPolicy& policy, const QString& keep,
                           const QDateTime& now)
{
    struct Candidate
    {
        QString path;
        QString name;
        qint64 bytes = 0;
    };
    QList<Candidate> sessions;
    const QString keepPath = keep.isEmpty() ? QString() : QFileInfo(keep).absoluteFilePath();
    qint64 total = 0;
    int count = 0;
    const QFileInfoList entries =
        QDir(root).entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::NoSymLinks);
    for (const QFileInfo& info : entries) {
        const bool isKept = info.absoluteFilePath() == keepPath;
        if (!isKept && (!isSessionFolderName(info.fileName()) ||
                        !QFileInfo::exists(info.absoluteFilePath() + QLatin1Char('/') + files::metadata)))
            continue;
        const qint64 bytes = folderSizeBytes(info.absoluteFilePath());
        total += bytes;
        ++count;
        if (!isKept)
            sessions << Candidate{info.absoluteFilePath(), info.fileName(), bytes};
    }
    // The name carries the start time: oldest first.
    std::sort(sessions.begin(), sessions.end(),
              [](const Candidate& a, const Candidate& b) { return a.name < b.name; });
    const QDateTime cutoff =
        policy.maxAgeDays > 0
            ? (now.isValid() ? now : QDateTime::currentDateTime()).addDays(-policy.maxAgeDays)
            : QDateTime();
    QStringList removed;
    for (const Candidate& c : std::as_const(sessions)) {
        const bool tooMany = policy.maxSessions > 0 && count > policy.maxSessions;
        const bool tooBig = policy.maxTotalBytes > 0 && total > policy.maxTotalBytes;
        const QDateTime started = sessionFolderTime(c.name);
        const bool tooOld = cutoff.isValid() && started.isValid() && started < cutoff;
        if (!tooMany && !tooBig && !tooOld)
            break; // oldest first: every later session is newer, and the counts only shrink
        if (!QDir(c.path).removeRecursively()) {
            qCWarning(lcRetention) << "cannot delete old session" << c.path;
            continue;
        }
        qCInfo(lcRetention) << "deleted old session" << c.path;
        removed << c.path;
        total -= c.bytes;
        --count;
    }
    return removed;
}

} // namespace ciu::replay
