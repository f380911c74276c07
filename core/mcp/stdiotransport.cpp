#include "core/mcp/stdiotransport.h"

#include "core/mcp/mcplog.h"

#include <QJsonDocument>

#include <cerrno>
#include <unistd.h>

namespace ciu::mcp {

StdioTransport::StdioTransport(McpSession* session, int inFd, int outFd, QObject* parent)
    : QObject(parent)
    , m_session(session)
    , m_inFd(inFd)
    , m_outFd(outFd)
    , m_notifier(std::make_unique<QSocketNotifier>(inFd, QSocketNotifier::Read))
{
    connect(m_session, &McpSession::outgoing, this, [this](const QJsonObject& message) { write(message); });
    connect(m_notifier.get(), &QSocketNotifier::activated, this, &StdioTransport::onReadable);
}

StdioTransport::~StdioTransport() = default;

void StdioTransport::onReadable()
{
    char chunk[65536];
    const ssize_t n = ::read(m_inFd, chunk, sizeof chunk);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n <= 0) {
        m_notifier->setEnabled(false);
        if (!m_buffer.trimmed().isEmpty()) // a last message without its newline
            m_buffer.append('\n');
        processLines();
        qCInfo(lcMcp) << "standard input closed";
        emit closed();
        return;
    }
    m_buffer.append(chunk, n);
    processLines();
}

void StdioTransport::processLines()
{
    for (;;) {
        const qsizetype newline = m_buffer.indexOf('\n');
        if (newline < 0) {
            if (m_buffer.size() > kMaxMessageBytes) {
                if (!m_discarding)
                    write(jsonrpc::error(
                        QJsonValue::Null, jsonrpc::ParseError,
                        QStringLiteral("Parse error: message longer than %1 bytes").arg(kMaxMessageBytes)));
                m_discarding = true;
                m_buffer.clear();
            }
            return;
        }
        QByteArray line = m_buffer.left(newline);
        m_buffer.remove(0, newline + 1);
        if (m_discarding) {
            m_discarding = false;
            continue;
        }
        line = line.trimmed();
        if (line.isEmpty())
            continue;
        m_session->receive(line);
    }
}

void StdioTransport::write(const QJsonObject& message)
{
    QByteArray bytes = QJsonDocument(message).toJson(QJsonDocument::Compact);
    bytes.append('\n');
    const char* p = bytes.constData();
    qsizetype left = bytes.size();
    while (left > 0) {
        const ssize_t n = ::write(m_outFd, p, size_t(left));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            qCWarning(lcMcp) << "cannot write to standard output:" << qt_error_string(errno);
            return;
        }
        p += n;
        left -= n;
    }
}

} // namespace ciu::mcp
