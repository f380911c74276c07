#pragma once

// JSON-RPC 2.0 messages as MCP uses them (one message per JSON text; batches are not part of MCP since
// 2025-06-18): parsing with the error a malformed message deserves, and building replies.

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>

namespace ciu::mcp::jsonrpc {

enum ErrorCode : int
{
    ParseError = -32700,     // not JSON
    InvalidRequest = -32600, // JSON, but not a valid JSON-RPC message
    MethodNotFound = -32601,
    InvalidParams = -32602,
    InternalError = -32603,
    ResourceNotFound = -32002, // MCP: resources/read of an unknown URI
};

struct Message
{
    enum class Kind : quint8
    {
        Request = 1,  // method + id
        Notification, // method, no id
        Response,     // id + result
        ErrorResponse // id + error
    };
    Kind kind = Kind::Request;
    QJsonValue id; // string or integer (Request, Response, ErrorResponse)
    QString method;
    QJsonObject params;
    QJsonValue result;
    QJsonObject error;

    bool isRequest() const { return kind == Kind::Request; }
};

struct ParseResult
{
    std::optional<Message> message;
    // Set when the text is not a valid message: the error reply to send (id null when unknown).
    std::optional<QJsonObject> errorReply;
};

// Parses one JSON-RPC message.
ParseResult parse(const QByteArray& text);
// The same for an already decoded JSON value.
ParseResult parse(const QJsonValue& value);

QJsonObject result(const QJsonValue& id, const QJsonObject& result);
QJsonObject error(const QJsonValue& id, int code, const QString& message, const QJsonValue& data = {});
QJsonObject request(const QJsonValue& id, const QString& method, const QJsonObject& params);
QJsonObject notification(const QString& method, const QJsonObject& params = {});

} // namespace ciu::mcp::jsonrpc
