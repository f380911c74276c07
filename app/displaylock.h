#pragma once

// One agent per display: two agents on one display both reported success while their keystrokes
// interleaved. A lock file per display (in the temporary folder, shared by every user of the machine's
// X displays) tells the second who holds it; a holder that died leaves a stale lock that is taken over.

#include <QLockFile>
#include <QString>

#include <memory>

namespace ciu::app {

class DisplayLock final
{
public:
    // `display` as given (":1", ":1.0", "localhost:1"); empty means $DISPLAY.
    explicit DisplayLock(const QString& display);
    ~DisplayLock();
    DisplayLock(const DisplayLock&) = delete;
    DisplayLock& operator=(const DisplayLock&) = delete;

    // Takes the lock; waits up to waitMs for the holder to finish (-1: as long as it takes, 0: not at
    // all). False with a message naming the holder ("display :1 is in use by another ciu-agent (pid 4242
    // on host, ciu-agent run); wait with --wait-for-display") or the failure.
    bool acquire(int waitMs, QString* error);
    bool isLocked() const;
    void release();
    QString filePath() const { return m_path; }
    QString display() const { return m_display; }

    // The display name as locked: ":1.0" and ":1" are the same display.
    static QString normalizedDisplay(const QString& display);

private:
    QString m_display;
    QString m_path;
    std::unique_ptr<QLockFile> m_lock;
};

} // namespace ciu::app
