#include "app/displaylock.h"

#include <QCoreApplication>
#include <QDir>
#include <QRegularExpression>

namespace ciu::app {

QString DisplayLock::normalizedDisplay(const QString& display)
{
    QString name = display.isEmpty() ? qEnvironmentVariable("DISPLAY") : display;
    name = name.trimmed();
    // ":1.0" -> ":1" (the screen number names a screen of the same display).
    static const QRegularExpression screen(QStringLiteral("^(.*:\\d+)\\.\\d+$"));
    const auto m = screen.match(name);
    if (m.hasMatch())
        name = m.captured(1);
    if (name.startsWith(QLatin1String("unix:")))
        name = name.mid(4);
    return name;
}

DisplayLock::DisplayLock(const QString& display)
    : m_display(normalizedDisplay(display))
{
    QString safe = m_display;
    safe.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9.]")), QStringLiteral("_"));
    m_path = QDir(QDir::tempPath()).filePath(QStringLiteral("ciu-agent-display%1.lock").arg(safe));
    m_lock = std::make_unique<QLockFile>(m_path);
    m_lock->setStaleLockTime(0); // stale only when the holder is gone, however long it has held it
}

DisplayLock::~DisplayLock() = default;

bool DisplayLock::isLocked() const
{
    return m_lock->isLocked();
}

void DisplayLock::release()
{
    m_lock->unlock();
}

bool DisplayLock::acquire(int waitMs, QString* error)
{
    if (m_display.isEmpty()) {
        *error = QStringLiteral("no display given and $DISPLAY is not set");
        return false;
    }
    if (m_lock->tryLock(waitMs))
        return true;
    switch (m_lock->error()) {
    case QLockFile::LockFailedError: {
        qint64 pid = 0;
        QString host, app;
        if (m_lock->getLockInfo(&pid, &host, &app)) {
            *error =
                QStringLiteral("display %1 is in use by another CIU Agent (pid %2 on %3, %4); wait for it "
                               "with --wait-for-display, or stop it")
                    .arg(m_display)
                    .arg(pid)
                    .arg(host, app.isEmpty() ? QStringLiteral("ciu-agent") : app);
        } else {
            *error = QStringLiteral("display %1 is in use by another CIU Agent (%2)").arg(m_display, m_path);
        }
        return false;
    }
    case QLockFile::PermissionError:
        *error = QStringLiteral("cannot create the display lock %1: permission denied").arg(m_path);
        return false;
    default:
        *error = QStringLiteral("cannot take the display lock %1").arg(m_path);
        return false;
    }
}

} // namespace ciu::app
