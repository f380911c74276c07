#include "core/providers/sseparser.h"

#include <algorithm>

namespace ciu::director {

QList<SseParser::Event> SseParser::feed(const QByteArray& bytes)
{
    QList<Event> out;
    m_buffer.append(bytes);
    qsizetype start = 0;
    while (true) {
        // A line arriving in many small reads is searched once: from where the last search ended, not
        // from its start (an 8 MB line in 1-byte reads would otherwise compare 3 * 10^13 bytes).
        const qsizetype nl = m_buffer.indexOf('\n', std::max(start, m_searched));
        if (nl < 0) {
            m_searched = m_buffer.size();
            break;
        }
        QByteArray line = m_buffer.mid(start, nl - start);
        if (line.endsWith('\r'))
            line.chop(1);
        processLine(std::move(line), out);
        start = nl + 1;
    }
    m_buffer.remove(0, start);
    m_searched = std::max<qsizetype>(0, m_searched - start);
    return out;
}

QList<SseParser::Event> SseParser::flush()
{
    QList<Event> out;
    if (!m_buffer.isEmpty()) {
        QByteArray line = m_buffer;
        m_buffer.clear();
        m_searched = 0;
        if (line.endsWith('\r'))
            line.chop(1);
        processLine(std::move(line), out);
    }
    processLine({}, out);
    return out;
}

void SseParser::processLine(QByteArray line, QList<Event>& out)
{
    if (line.isEmpty()) {
        if (m_hasData)
            out.append(Event{m_event, m_data});
        m_event.clear();
        m_data.clear();
        m_hasData = false;
        return;
    }
    if (line.startsWith(':'))
        return; // comment
    const qsizetype colon = line.indexOf(':');
    QByteArray field = colon < 0 ? line : line.left(colon);
    QByteArray value = colon < 0 ? QByteArray() : line.mid(colon + 1);
    if (value.startsWith(' '))
        value.remove(0, 1);
    if (field == "event") {
        m_event = value;
    } else if (field == "data") {
        if (m_hasData)
            m_data.append('\n');
        m_data.append(value);
        m_hasData = true;
    }
    // "id" and "retry" are not used by these APIs.
}

} // namespace ciu::director
