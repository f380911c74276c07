#include "core/replay/atomicfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ciu::replay {
namespace {

QString systemError(int errnum)
{
    return QString::fromLocal8Bit(std::strerror(errnum));
}

} // namespace

bool writeFileAtomically(const QString& path, const QByteArray& data, QString* error)
{
    auto fail = [&](const QString& what, int errnum) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(what, systemError(errnum));
        return false;
    };
    const QFileInfo target(path);
    const QByteArray finalName = QFile::encodeName(target.absoluteFilePath());
    QByteArray tempName = QFile::encodeName(target.absolutePath()) + '/' + '.' +
                          QFile::encodeName(target.fileName()) + ".XXXXXX";
    const int fd = ::mkostemp(tempName.data(), O_CLOEXEC);
    if (fd < 0)
        return fail(QStringLiteral("cannot create a temporary file next to %1").arg(path), errno);
    auto abandon = [&](const QString& what) {
        const int errnum = errno;
        ::close(fd);
        ::unlink(tempName.constData());
        return fail(what, errnum);
    };
    const char* p = data.constData();
    qsizetype left = data.size();
    while (left > 0) {
        const ssize_t n = ::write(fd, p, size_t(left));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            return abandon(QStringLiteral("cannot write %1").arg(path));
        }
        p += n;
        left -= n;
    }
    if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0)
        return abandon(QStringLiteral("cannot write %1").arg(path));
    if (::close(fd) != 0) {
        const int errnum = errno;
        ::unlink(tempName.constData());
        return fail(QStringLiteral("cannot write %1").arg(path), errnum);
    }
    if (::rename(tempName.constData(), finalName.constData()) != 0) {
        const int errnum = errno;
        ::unlink(tempName.constData());
        return fail(QStringLiteral("cannot replace %1").arg(path), errnum);
    }
    // The rename itself is durable only once the folder is synced.
    const int dir =
        ::open(QFile::encodeName(target.absolutePath()).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
    return true;
}

bool isDiskFullError(const QString& error)
{
    return error.contains(systemError(ENOSPC)) || error.contains(systemError(EDQUOT));
}

} // namespace ciu::replay
