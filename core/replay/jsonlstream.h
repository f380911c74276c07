#pragma once

#include <QFile>
#include <QJsonObject>
#include <QString>

namespace ciu::replay {

// An append-only JSONL file, flushed after every line so a killed process leaves every complete line on
// disk. Secrets are scrubbed from each line. After a failed write the stream stays failed.
class JsonlStream
{
public:
    JsonlStream() = default;
    JsonlStream(const JsonlStream&) = delete;
    JsonlStream& operator=(const JsonlStream&) = delete;

    bool open(const QString& path);
    void close();
    bool isOpen() const { return m_file.isOpen(); }
    bool failed() const { return !m_error.isEmpty(); }
    QString errorString() const { return m_error; }
    QString fileName() const { return m_file.fileName(); }

    bool append(qint64 tNs, const QJsonObject& object);
    qint64 bytesWritten() const { return m_bytes; }
    qint64 lines() const { return m_lines; }

private:
    QFile m_file;
    QString m_error;
    qint64 m_bytes = 0;
    qint64 m_lines = 0;
};

} // namespace ciu::replay
