#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace ciu::director {

// Incremental parser of a server-sent event stream (text/event-stream): bytes in, complete events out.
// Handles CRLF/LF line ends, multi-line data, comments (": ping") and events split across reads.
class SseParser
{
public:
    struct Event
    {
        QByteArray event; // empty when the stream did not name it
        QByteArray data;  // data lines joined by "\n"
    };

    // Appends bytes and returns the events completed by them.
    QList<Event> feed(const QByteArray& bytes);
    // At the end of the stream: the last event if it was not terminated by a blank line.
    QList<Event> flush();
    bool hasPartialData() const { return !m_buffer.isEmpty() || m_hasData || !m_event.isEmpty(); }

private:
    void processLine(QByteArray line, QList<Event>& out);

    QByteArray m_buffer;
    qsizetype m_searched = 0; // m_buffer before this holds no line end
    QByteArray m_event;
    QByteArray m_data;
    bool m_hasData = false;
};

} // namespace ciu::director
