// HttpRequestParser: the small HTTP/1.1 request reader of the Streamable HTTP transport (Content-Length
// bodies only; a chunked request body is refused with 411).

#include "core/mcp/httptransport.h"

namespace ciu::mcp {

HttpRequestParser::State HttpRequestParser::fail(int status, const QString& message)
{
    m_errorStatus = status;
    m_error = message;
    return State::Failed;
}

HttpRequestParser::State HttpRequestParser::feed(const QByteArray& bytes)
{
    m_buffer.append(bytes);
    if (!m_haveHeaders) {
        const qsizetype end = m_buffer.indexOf("\r\n\r\n");
        if (end < 0) {
            if (m_buffer.size() > kMaxHeaderBytes)
                return fail(431, QStringLiteral("request headers too large"));
            return State::NeedMore;
        }
        const QList<QByteArray> lines = m_buffer.left(end).split('\n');
        m_buffer.remove(0, end + 4);
        const QList<QByteArray> start = lines.value(0).trimmed().split(' ');
        if (start.size() != 3 || !start[2].startsWith("HTTP/1."))
            return fail(400, QStringLiteral("malformed request line"));
        m_request.method = start[0];
        const QByteArray target = start[1];
        const qsizetype q = target.indexOf('?');
        m_request.path = q < 0 ? target : target.left(q);
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QByteArray line = lines[i].trimmed();
            if (line.isEmpty())
                continue;
            const qsizetype colon = line.indexOf(':');
            if (colon <= 0)
                return fail(400, QStringLiteral("malformed header line"));
            m_request.headers.insert(line.left(colon).trimmed().toLower(), line.mid(colon + 1).trimmed());
        }
        if (!m_request.header("transfer-encoding").isEmpty())
            return fail(411, QStringLiteral("send the body with Content-Length"));
        const QByteArray length = m_request.header("content-length");
        bool ok = true;
        m_contentLength = length.isEmpty() ? 0 : length.toLongLong(&ok);
        if (!ok || m_contentLength < 0)
            return fail(400, QStringLiteral("bad Content-Length"));
        if (m_contentLength > kMaxBodyBytes)
            return fail(413, QStringLiteral("request body larger than %1 bytes").arg(kMaxBodyBytes));
        m_haveHeaders = true;
    }
    if (m_buffer.size() < m_contentLength)
        return State::NeedMore;
    m_request.body = m_buffer.left(m_contentLength);
    return State::Complete;
}

} // namespace ciu::mcp
