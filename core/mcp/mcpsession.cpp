#include "core/mcp/mcpsession.h"

#include "core/mcp/mcplog.h"

#include <QJsonArray>
#include <QPointer>

#include <utility>

namespace ciu::mcp {

using jsonrpc::Message;

class McpSession::CallContext final : public ToolCallContext
{
public:
    CallContext(McpSession* session, QJsonValue requestId, QJsonValue progressToken)
        : m_session(session)
        , m_requestId(std::move(requestId))
        , m_progressToken(std::move(progressToken))
    {
    }
    bool canElicit() const override { return m_session && m_session->clientCanElicit(); }
    void elicit(const QString& message, const QJsonObject& requestedSchema,
                std::function<void(const ElicitationAnswer&)> answered) override
    {
        if (!m_session || m_cancelled) {
            ElicitationAnswer a;
            a.error = QStringLiteral("the client went away");
            answered(a);
            return;
        }
        const QJsonObject params{{QStringLiteral("message"), message},
                                 {QStringLiteral("requestedSchema"), requestedSchema}};
        m_session->sendRequest(QStringLiteral("elicitation/create"), params, m_requestId,
                               [answered = std::move(answered)](const Message& r) {
                                   ElicitationAnswer a;
                                   if (r.kind == Message::Kind::ErrorResponse) {
                                       a.error = r.error.value(QStringLiteral("message")).toString();
                                   } else {
                                       const QJsonObject o = r.result.toObject();
                                       const QString action = o.value(QStringLiteral("action")).toString();
                                       if (action == QLatin1String("accept"))
                                           a.action = ElicitationAnswer::Action::Accept;
                                       else if (action == QLatin1String("decline"))
                                           a.action = ElicitationAnswer::Action::Decline;
                                       a.content = o.value(QStringLiteral("content")).toObject();
                                   }
                                   answered(a);
                               });
    }
    bool isCancelled() const override { return m_cancelled || !m_session; }
    void onCancelled(std::function<void()> handler) override
    {
        if (isCancelled()) {
            handler();
            return;
        }
        m_onCancelled = std::move(handler);
    }
    bool wantsProgress() const override { return m_progressToken.isString() || m_progressToken.isDouble(); }
    void progress(double progress, double total, const QString& message) override
    {
        if (!wantsProgress() || isCancelled() || m_session->m_closed || progress <= m_lastProgress)
            return;
        m_lastProgress = progress;
        QJsonObject params{{QStringLiteral("progressToken"), m_progressToken},
                           {QStringLiteral("progress"), progress}};
        if (total > 0)
            params.insert(QStringLiteral("total"), total);
        if (!message.isEmpty())
            params.insert(QStringLiteral("message"), message);
        emit m_session->outgoing(jsonrpc::notification(QStringLiteral("notifications/progress"), params),
                                 m_requestId);
    }
    void cancel()
    {
        if (m_cancelled)
            return;
        m_cancelled = true;
        if (auto handler = std::exchange(m_onCancelled, nullptr))
            handler();
    }

private:
    QPointer<McpSession> m_session;
    QJsonValue m_requestId;
    QJsonValue m_progressToken; // undefined: the client asked for no progress
    double m_lastProgress = -1;
    bool m_cancelled = false;
    std::function<void()> m_onCancelled;
};

QStringList McpSession::supportedProtocolVersions()
{
    return {QStringLiteral("2025-11-25"), QStringLiteral("2025-06-18")};
}

McpSession::McpSession(ToolHost* host, ServerInfo info, QObject* parent)
    : QObject(parent)
    , m_host(host)
    , m_info(std::move(info))
{
}

McpSession::~McpSession()
{
    close();
}

void McpSession::close()
{
    m_closed = true;
    for (const auto& call : std::as_const(m_calls))
        call->cancel();
    m_calls.clear();
    m_pending.clear();
}

bool McpSession::clientCanElicit() const
{
    const QJsonValue e = m_clientCapabilities.value(QStringLiteral("elicitation"));
    if (!e.isObject())
        return false;
    const QJsonObject o = e.toObject();
    // 2025-11-25: {} means form mode; {"url": {}} alone means URL mode only.
    return o.contains(QStringLiteral("form")) || !o.contains(QStringLiteral("url"));
}

QString McpSession::idKey(const QJsonValue& id)
{
    return id.isString() ? QStringLiteral("s:") + id.toString()
                         : QStringLiteral("n:") + QString::number(id.toInteger());
}

void McpSession::receive(const QByteArray& text)
{
    dispatch(jsonrpc::parse(text));
}

void McpSession::receive(const QJsonValue& message)
{
    dispatch(jsonrpc::parse(message));
}

void McpSession::dispatch(const jsonrpc::ParseResult& parsed)
{
    if (parsed.errorReply) {
        qCInfo(lcMcp) << "malformed message:"
                      << parsed.errorReply->value(QStringLiteral("error"))
                             .toObject()
                             .value(QStringLiteral("message"))
                             .toString();
        if (!m_closed)
            emit outgoing(*parsed.errorReply, parsed.errorReply->value(QStringLiteral("id")));
        return;
    }
    const Message& m = *parsed.message;
    switch (m.kind) {
    case Message::Kind::Request:
        onRequest(m);
        break;
    case Message::Kind::Notification:
        onNotification(m);
        break;
    case Message::Kind::Response:
    case Message::Kind::ErrorResponse:
        onResponse(m);
        break;
    }
}

void McpSession::reply(const QJsonValue& id, const QJsonObject& result)
{
    if (!m_closed)
        emit outgoing(jsonrpc::result(id, result), id);
}

void McpSession::replyError(const QJsonValue& id, int code, const QString& message, const QJsonValue& data)
{
    if (!m_closed)
        emit outgoing(jsonrpc::error(id, code, message, data), id);
}

void McpSession::onRequest(const Message& m)
{
    qCDebug(lcMcp) << "request" << m.method;
    if (m.method == QLatin1String("initialize")) {
        initialize(m);
        return;
    }
    if (m.method == QLatin1String("ping")) {
        reply(m.id, {});
        return;
    }
    if (!m_initializeReceived) {
        replyError(
            m.id, jsonrpc::InvalidRequest,
            QStringLiteral("Invalid Request: the session is not initialized; send \"initialize\" first"));
        return;
    }
    if (m.method == QLatin1String("tools/list")) {
        reply(m.id, {{QStringLiteral("tools"), m_host->tools()}});
    } else if (m.method == QLatin1String("tools/call")) {
        callTool(m);
    } else if (m.method == QLatin1String("resources/list")) {
        reply(m.id, {{QStringLiteral("resources"), m_host->resources()}});
    } else if (m.method == QLatin1String("resources/templates/list")) {
        reply(m.id, {{QStringLiteral("resourceTemplates"), QJsonArray()}});
    } else if (m.method == QLatin1String("resources/read")) {
        readResource(m);
    } else {
        replyError(m.id, jsonrpc::MethodNotFound, QStringLiteral("Method not found: %1").arg(m.method));
    }
}

void McpSession::initialize(const Message& m)
{
    const QJsonValue requested = m.params.value(QStringLiteral("protocolVersion"));
    if (!requested.isString() || requested.toString().isEmpty()) {
        replyError(m.id, jsonrpc::InvalidParams,
                   QStringLiteral("Invalid params: initialize needs \"protocolVersion\" (a string)"),
                   QJsonObject{{QStringLiteral("supported"),
                                QJsonArray::fromStringList(supportedProtocolVersions())}});
        return;
    }
    if (m_initializeReceived) {
        replyError(m.id, jsonrpc::InvalidRequest, QStringLiteral("Invalid Request: already initialized"));
        return;
    }
    // The client's version when we speak it, else our latest (the client then decides whether to go on).
    m_protocolVersion = supportedProtocolVersions().contains(requested.toString()) ? requested.toString()
                                                                                   : latestProtocolVersion();
    m_clientCapabilities = m.params.value(QStringLiteral("capabilities")).toObject();
    m_clientInfo = m.params.value(QStringLiteral("clientInfo")).toObject();
    m_initializeReceived = true;
    qCInfo(lcMcp) << "initialize from" << m_clientInfo.value(QStringLiteral("name")).toString() << "asked"
                  << requested.toString() << "speaking" << m_protocolVersion << "elicitation"
                  << clientCanElicit();
    QJsonObject serverInfo{{QStringLiteral("name"), m_info.name},
                           {QStringLiteral("version"), m_info.version}};
    if (!m_info.title.isEmpty())
        serverInfo.insert(QStringLiteral("title"), m_info.title);
    QJsonObject result{
        {QStringLiteral("protocolVersion"), m_protocolVersion},
        {QStringLiteral("capabilities"),
         QJsonObject{{QStringLiteral("tools"), QJsonObject{{QStringLiteral("listChanged"), false}}},
                     {QStringLiteral("resources"), QJsonObject{{QStringLiteral("listChanged"), false},
                                                               {QStringLiteral("subscribe"), false}}}}},
        {QStringLiteral("serverInfo"), serverInfo},
    };
    if (!m_info.instructions.isEmpty())
        result.insert(QStringLiteral("instructions"), m_info.instructions);
    reply(m.id, result);
}

void McpSession::callTool(const Message& m)
{
    const QJsonValue name = m.params.value(QStringLiteral("name"));
    if (!name.isString() || name.toString().isEmpty()) {
        replyError(m.id, jsonrpc::InvalidParams, QStringLiteral("Invalid params: tools/call needs \"name\""));
        return;
    }
    const QJsonValue args = m.params.value(QStringLiteral("arguments"));
    if (!args.isUndefined() && !args.isNull() && !args.isObject()) {
        replyError(m.id, jsonrpc::InvalidParams,
                   QStringLiteral("Invalid params: \"arguments\" must be an object"));
        return;
    }
    bool known = false;
    QStringList names;
    for (const QJsonValue& t : m_host->tools()) {
        const QString n = t.toObject().value(QStringLiteral("name")).toString();
        names << n;
        known = known || n == name.toString();
    }
    if (!known) {
        replyError(m.id, jsonrpc::InvalidParams, QStringLiteral("Unknown tool: %1").arg(name.toString()),
                   QJsonObject{{QStringLiteral("tools"), QJsonArray::fromStringList(names)}});
        return;
    }
    const QString key = idKey(m.id);
    if (m_calls.contains(key)) {
        replyError(m.id, jsonrpc::InvalidRequest,
                   QStringLiteral("Invalid Request: request id %1 is already in use").arg(key.mid(2)));
        return;
    }
    const QJsonValue progressToken =
        m.params.value(QStringLiteral("_meta")).toObject().value(QStringLiteral("progressToken"));
    auto context = std::make_shared<CallContext>(this, m.id, progressToken);
    m_calls.insert(key, context);
    QPointer<McpSession> self(this);
    const QJsonValue id = m.id;
    m_host->call(name.toString(), args.toObject(), context, [self, context, id, key](const ToolResult& r) {
        if (!self || context->isCancelled())
            return; // cancelled or gone: no response (MCP cancellation)
        self->m_calls.remove(key);
        self->reply(id, r.toJson());
    });
}

void McpSession::readResource(const Message& m)
{
    const QJsonValue uri = m.params.value(QStringLiteral("uri"));
    if (!uri.isString() || uri.toString().isEmpty()) {
        replyError(m.id, jsonrpc::InvalidParams,
                   QStringLiteral("Invalid params: resources/read needs \"uri\""));
        return;
    }
    QString error;
    const auto contents = m_host->readResource(uri.toString(), &error);
    if (!contents) {
        replyError(m.id, jsonrpc::ResourceNotFound,
                   error.isEmpty() ? QStringLiteral("Resource not found") : error,
                   QJsonObject{{QStringLiteral("uri"), uri}});
        return;
    }
    reply(m.id, {{QStringLiteral("contents"), *contents}});
}

void McpSession::onNotification(const Message& m)
{
    if (m.method == QLatin1String("notifications/initialized")) {
        m_initialized = true;
    } else if (m.method == QLatin1String("notifications/cancelled")) {
        const QJsonValue id = m.params.value(QStringLiteral("requestId"));
        if (const auto call = m_calls.take(idKey(id))) {
            qCInfo(lcMcp) << "client cancelled request" << id.toVariant().toString();
            call->cancel();
            emit callCancelled(id);
        }
    }
    // Other notifications (progress, roots changed, ...) need nothing from this server.
}

void McpSession::onResponse(const Message& m)
{
    const ResponseHandler handler = m_pending.take(idKey(m.id));
    if (!handler) {
        qCInfo(lcMcp) << "response to an unknown request id ignored";
        return;
    }
    handler(m);
}

void McpSession::sendRequest(const QString& method, const QJsonObject& params,
                             const QJsonValue& relatedRequestId, ResponseHandler handler)
{
    const QString id = QStringLiteral("ciu-%1").arg(m_nextRequestId++);
    m_pending.insert(idKey(QJsonValue(id)), std::move(handler));
    emit outgoing(jsonrpc::request(id, method, params), relatedRequestId);
}

} // namespace ciu::mcp
