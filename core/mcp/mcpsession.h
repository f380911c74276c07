#pragma once

// One MCP client connection's protocol state, independent of the transport: the initialize handshake and
// version negotiation, requests dispatched to a ToolHost (tools/list, tools/call, resources/list,
// resources/read, ping), server-to-client requests (elicitation/create) and their answers, cancellation.
// The transport feeds it messages (receive) and carries what it emits (outgoing) back to the client.

#include "core/mcp/jsonrpc.h"
#include "core/mcp/toolhost.h"

#include <QHash>
#include <QJsonObject>
#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>

namespace ciu::mcp {

class McpSession final : public QObject
{
    Q_OBJECT
public:
    // The versions this server speaks, newest first.
    static QStringList supportedProtocolVersions();
    static QString latestProtocolVersion() { return supportedProtocolVersions().constFirst(); }

    struct ServerInfo
    {
        QString name = QStringLiteral("ciu-agent");
        QString title = QStringLiteral("CIU Agent");
        QString version;
        QString instructions;
    };

    McpSession(ToolHost* host, ServerInfo info, QObject* parent = nullptr);
    ~McpSession() override;

    // One message from the client (a JSON text).
    void receive(const QByteArray& text);
    void receive(const QJsonValue& message);
    // The transport is gone: calls still running are cancelled and their results dropped.
    void close();

    bool initializeReceived() const { return m_initializeReceived; }
    bool initialized() const { return m_initialized; }
    QString protocolVersion() const { return m_protocolVersion; }
    QJsonObject clientCapabilities() const { return m_clientCapabilities; }
    QJsonObject clientInfo() const { return m_clientInfo; }
    bool clientCanElicit() const;
    int callsInFlight() const { return int(m_calls.size()); }

    using ResponseHandler = std::function<void(const jsonrpc::Message& response)>;
    // Sends a request to the client; `handler` gets its response (or an error response).
    void sendRequest(const QString& method, const QJsonObject& params, const QJsonValue& relatedRequestId,
                     ResponseHandler handler);

signals:
    // A message for the client. `relatedRequestId` is the client request it belongs to (the response itself,
    // or an elicitation sent while that request runs); undefined: not tied to a request.
    void outgoing(const QJsonObject& message, const QJsonValue& relatedRequestId);
    // The client cancelled a running tools/call: no response will follow (a transport closes its stream).
    void callCancelled(const QJsonValue& requestId);

private:
    class CallContext;
    void dispatch(const jsonrpc::ParseResult& parsed);
    void onRequest(const jsonrpc::Message& m);
    void onNotification(const jsonrpc::Message& m);
    void onResponse(const jsonrpc::Message& m);
    void initialize(const jsonrpc::Message& m);
    void callTool(const jsonrpc::Message& m);
    void readResource(const jsonrpc::Message& m);
    void reply(const QJsonValue& id, const QJsonObject& result);
    void replyError(const QJsonValue& id, int code, const QString& message, const QJsonValue& data = {});
    static QString idKey(const QJsonValue& id);

    ToolHost* m_host;
    ServerInfo m_info;
    bool m_initializeReceived = false;
    bool m_initialized = false;
    bool m_closed = false;
    QString m_protocolVersion;
    QJsonObject m_clientCapabilities;
    QJsonObject m_clientInfo;
    qint64 m_nextRequestId = 1;
    QHash<QString, ResponseHandler> m_pending;            // our requests to the client, by id
    QHash<QString, std::shared_ptr<CallContext>> m_calls; // tools/call running, by request id
};

} // namespace ciu::mcp
