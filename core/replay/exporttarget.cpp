#include "core/replay/exporttarget.h"

#include "core/replay/sessionreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace ciu::replay {
namespace {

// The absolute, link-free form of a path that may not exist yet (its folder must).
QString resolved(const QString& path)
{
    const QFileInfo info(path);
    if (info.exists())
        return info.canonicalFilePath();
    const QString folder = QFileInfo(info.absolutePath()).canonicalFilePath();
    return folder.isEmpty() ? info.absoluteFilePath() : folder + QLatin1Char('/') + info.fileName();
}

bool isInside(const QString& path, const QString& folder)
{
    return !folder.isEmpty() && (path == folder || path.startsWith(folder + QLatin1Char('/')));
}

} // namespace

QString exportTargetProblem(const SessionReader& reader, const QString& file)
{
    if (file.isEmpty())
        return QStringLiteral("no output file given");
    const QFileInfo info(file);
    if (info.exists() && info.isDir())
        return QStringLiteral("the output %1 is a folder; give a file name").arg(file);
    if (info.exists() && !info.isFile())
        return QStringLiteral("the output %1 is not a regular file (a pipe or a device)").arg(file);
    const QString target = resolved(file);
    const QString session = QFileInfo(reader.path()).canonicalFilePath();
    if (isInside(target, session))
        return QStringLiteral("refusing to write the export %1 inside the session it reads (%2): it could "
                              "overwrite the recording; choose a file outside it")
            .arg(file, reader.path());
    // An input reached through a link from the session folder (e.g. session.mp4 -> elsewhere).
    const QDir dir(reader.path());
    for (const QString& name : dir.entryList(QDir::Files | QDir::Hidden | QDir::System)) {
        if (resolved(dir.filePath(name)) == target)
            return QStringLiteral("refusing to write the export %1 over %2, which the session reads")
                .arg(file, dir.filePath(name));
    }
    return {};
}

ExportFile::ExportFile(const QString& target)
    : m_target(target)
{
    const QFileInfo info(target);
    m_temp = info.absolutePath() + QStringLiteral("/.") + info.fileName() + QStringLiteral(".partial");
}

ExportFile::~ExportFile()
{
    if (!m_committed)
        QFile::remove(m_temp);
}

bool ExportFile::commit(QString* error)
{
    if (std::rename(QFile::encodeName(m_temp).constData(), QFile::encodeName(m_target).constData()) != 0) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2")
                         .arg(m_target, QString::fromLocal8Bit(std::strerror(errno)));
        return false;
    }
    m_committed = true;
    return true;
}

} // namespace ciu::replay
