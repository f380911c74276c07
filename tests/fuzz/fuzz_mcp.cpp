// libFuzzer target: the MCP server's JSON-RPC layer and protocol session (core/mcp/jsonrpc.h,
// core/mcp/mcpsession.h). Each line of the input is one message from a client, as the stdio transport reads
// them; the session answers through a small tool host that answers at once, asks the client first
// (elicitation), or holds the call until the client goes away.

#include "core/mcp/jsonrpc.h"
#include "core/mcp/mcpsession.h"
#include "tests/fuzz/fuzzsupport.h"

#include <QJsonArray>

namespace {

using namespace ciu::mcp;

class FuzzHost final : public ToolHost
{
public:
    QJsonArray tools() const override
    {
        const QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")}};
        QJsonArray list;
        for (const char* name : {"echo", "ask", "hold"})
            list.append(QJsonObject{{QStringLiteral("name"), QLatin1String(name)},
                                    {QStringLiteral("inputSchema"), schema}});
        return list;
    }
    void call(const QString& name, const QJsonObject& arguments, std::shared_ptr<ToolCallContext> context,
              Done done) override
    {
        if (name == QLatin1String("echo")) {
            done(ToolResult::text(arguments.value(QStringLiteral("text")).toString(), arguments));
        } else if (name == QLatin1String("ask") && context->canElicit()) {
            const QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")}};
            context->elicit(QStringLiteral("Allow?"), schema, [done](const ElicitationAnswer& answer) {
                done(answer.action == ElicitationAnswer::Action::Accept
                         ? ToolResult::text(QStringLiteral("approved"), answer.content)
                         : ToolResult::error(QStringLiteral("declined")));
            });
        } else if (name == QLatin1String("hold")) {
            m_held.append(std::move(done)); // answered after the session closed: must be dropped
        } else {
            done(ToolResult::error(QStringLiteral("refused")));
        }
    }
    QJsonArray resources() const override
    {
        return {QJsonObject{{QStringLiteral("uri"), QStringLiteral("ciu://fuzz/readme")},
                            {QStringLiteral("name"), QStringLiteral("readme")}}};
    }
    std::optional<QJsonArray> readResource(const QString& uri, QString* error) const override
    {
        if (uri != QLatin1String("ciu://fuzz/readme")) {
            *error = QStringLiteral("Resource not found: %1").arg(uri);
            return std::nullopt;
        }
        return QJsonArray{QJsonObject{{QStringLiteral("uri"), uri}, {QStringLiteral("text"), uri}}};
    }
    void releaseHeld()
    {
        const QList<Done> held = std::exchange(m_held, {});
        for (const Done& done : held)
            done(ToolResult::text(QStringLiteral("late")));
    }

private:
    QList<Done> m_held;
};

} // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv)
{
    ciu::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QList<QByteArray> lines = ciu::fuzz::bytes(data, size).split('\n');
    FuzzHost host;
    {
        McpSession session(&host, McpSession::ServerInfo{});
        QObject::connect(&session, &McpSession::outgoing, [](const QJsonObject& message, const QJsonValue&) {
            if (message.value(QStringLiteral("jsonrpc")).toString() != QLatin1String("2.0"))
                abort(); // everything the server sends is JSON-RPC 2.0
        });
        for (const QByteArray& line : lines) {
            const jsonrpc::ParseResult parsed = jsonrpc::parse(line);
            if (parsed.message.has_value() == parsed.errorReply.has_value())
                abort(); // a message or the error it deserves, never both or neither
            session.receive(line);
        }
        session.close();
        host.releaseHeld();
    }
    host.releaseHeld();
    return 0;
}
