#pragma once

// The stdio transport of MCP: newline-delimited JSON-RPC messages on standard input, replies on standard
// output (nothing else is ever written there; logs go to standard error). Ends when standard input closes.

#include "core/mcp/mcpsession.h"

#include <QByteArray>
#include <QObject>
#include <QSocketNotifier>

#include <memory>

namespace ciu::mcp {

class StdioTransport final : public QObject
{
    Q_OBJECT
public:
    // Serves `session` on the file descriptors (defaults: the process's stdin and stdout).
    StdioTransport(McpSession* session, int inFd = 0, int outFd = 1, QObject* parent = nullptr);
    ~StdioTransport() override;

    // Messages longer than this (bytes) are answered with a parse error and dropped.
    static constexpr qsizetype kMaxMessageBytes = 16 * 1024 * 1024;

signals:
    // Standard input reached its end (the client closed it) or failed.
    void closed();

private:
    void onReadable();
    void write(const QJsonObject& message);
    void processLines();

    McpSession* m_session;
    int m_inFd;
    int m_outFd;
    std::unique_ptr<QSocketNotifier> m_notifier;
    QByteArray m_buffer;
    bool m_discarding = false; // inside an over-long line: dropped until its newline
};

} // namespace ciu::mcp
