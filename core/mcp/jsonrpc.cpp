#include "core/mcp/jsonrpc.h"

#include <QJsonDocument>
#include <QJsonParseError>

#include <cmath>

namespace ciu::mcp::jsonrpc {
namespace {

const QLatin1String kJsonRpc("jsonrpc");
const QLatin1String kId("id");
const QLatin1String kMethod("method");
const QLatin1String kParams("params");
const QLatin1String kResult("result");
const QLatin1String kError("error");

ParseResult failed(const QJsonValue& id, int code, const QString& message)
{
    ParseResult r;
    r.errorReply = error(id, code, message);
    return r;
}

// MCP ids are strings or integers (never null).
bool validId(const QJsonValue& id)
{
    if (id.isString())
        return true;
    if (!id.isDouble())
        return false;
    const double d = id.toDouble();
    return std::isfinite(d) && d == std::floor(d);
}

} // namespace

ParseResult parse(const QByteArray& text)
{
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &e);
    if (e.error != QJsonParseError::NoError)
        return failed(QJsonValue::Null, ParseError,
                      QStringLiteral("Parse error: %1 at offset %2").arg(e.errorString()).arg(e.offset));
    if (doc.isArray())
        return failed(QJsonValue::Null, InvalidRequest,
                      QStringLiteral("Invalid Request: batches are not supported; send one message"));
    return parse(QJsonValue(doc.object()));
}

ParseResult parse(const QJsonValue& value)
{
    if (!value.isObject())
        return failed(QJsonValue::Null, InvalidRequest,
                      QStringLiteral("Invalid Request: a message is a JSON object"));
    const QJsonObject o = value.toObject();
    const QJsonValue id = o.value(kId);
    const bool hasId = o.contains(kId);
    // Echo the id back when it is usable, else null.
    const QJsonValue replyId = hasId && validId(id) ? id : QJsonValue(QJsonValue::Null);
    if (o.value(kJsonRpc).toString() != QLatin1String("2.0"))
        return failed(replyId, InvalidRequest,
                      QStringLiteral("Invalid Request: \"jsonrpc\" must be \"2.0\""));
    if (hasId && !validId(id))
        return failed(QJsonValue::Null, InvalidRequest,
                      QStringLiteral("Invalid Request: \"id\" must be a string or an integer"));

    Message m;
    if (o.contains(kMethod)) {
        if (!o.value(kMethod).isString() || o.value(kMethod).toString().isEmpty())
            return failed(replyId, InvalidRequest,
                          QStringLiteral("Invalid Request: \"method\" must be a non-empty string"));
        if (o.contains(kParams) && !o.value(kParams).isObject())
            return failed(replyId, InvalidRequest,
                          QStringLiteral("Invalid Request: \"params\" must be an object"));
        m.kind = hasId ? Message::Kind::Request : Message::Kind::Notification;
        m.id = id;
        m.method = o.value(kMethod).toString();
        m.params = o.value(kParams).toObject();
        ParseResult r;
        r.message = m;
        return r;
    }
    if (!hasId)
        return failed(QJsonValue::Null, InvalidRequest,
                      QStringLiteral("Invalid Request: neither a request (method) nor a response (id)"));
    const bool hasResult = o.contains(kResult);
    const bool hasError = o.contains(kError);
    if (hasResult == hasError)
        return failed(
            replyId, InvalidRequest,
            QStringLiteral("Invalid Request: a response has exactly one of \"result\" and \"error\""));
    m.id = id;
    if (hasResult) {
        m.kind = Message::Kind::Response;
        m.result = o.value(kResult);
    } else {
        if (!o.value(kError).isObject())
            return failed(replyId, InvalidRequest,
                          QStringLiteral("Invalid Request: \"error\" must be an object"));
        m.kind = Message::Kind::ErrorResponse;
        m.error = o.value(kError).toObject();
    }
    ParseResult r;
    r.message = m;
    return r;
}

QJsonObject result(const QJsonValue& id, const QJsonObject& result)
{
    return {{kJsonRpc, QStringLiteral("2.0")}, {kId, id}, {kResult, result}};
}

QJsonObject error(const QJsonValue& id, int code, const QString& message, const QJsonValue& data)
{
    QJsonObject e{{QStringLiteral("code"), code}, {QStringLiteral("message"), message}};
    if (!data.isUndefined() && !data.isNull())
        e.insert(QStringLiteral("data"), data);
    return {{kJsonRpc, QStringLiteral("2.0")}, {kId, id.isUndefined() ? QJsonValue() : id}, {kError, e}};
}

QJsonObject request(const QJsonValue& id, const QString& method, const QJsonObject& params)
{
    return {{kJsonRpc, QStringLiteral("2.0")}, {kId, id}, {kMethod, method}, {kParams, params}};
}

QJsonObject notification(const QString& method, const QJsonObject& params)
{
    QJsonObject o{{kJsonRpc, QStringLiteral("2.0")}, {kMethod, method}};
    if (!params.isEmpty())
        o.insert(kParams, params);
    return o;
}

} // namespace ciu::mcp::jsonrpc
