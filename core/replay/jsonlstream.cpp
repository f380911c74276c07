#include "core/replay/jsonlstream.h"

#include "core/model/secrets.h"
#include "core/replay/sessionformat.h"

namespace ciu::replay {

bool JsonlStream::open(const QString& path)
{
    close();
    m_error.clear();
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::WriteOnly | QIODevice::Append)) {
        m_error = QStringLiteral("cannot open %1: %2").arg(path, m_file.errorString());
        return false;
    }
    return true;
}

void JsonlStream::close()
{
    if (m_file.isOpen())
        m_file.close();
}

bool JsonlStream::append(qint64 tNs, const QJsonObject& object)
{
    if (!m_file.isOpen() || failed())
        return false;
    const QByteArray line = scrubSecrets(jsonLine(tNs, object));
    // QFile buffers; flush() hands the line to the kernel, which keeps it even if we are killed.
    if (m_file.write(line) != line.size() || !m_file.flush()) {
        m_error = QStringLiteral("cannot write %1: %2").arg(m_file.fileName(), m_file.errorString());
        return false;
    }
    m_bytes += line.size();
    ++m_lines;
    return true;
}

} // namespace ciu::replay
