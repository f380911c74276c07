#pragma once

// What an MCP session serves: tools (with JSON schemas) and resources. The session (mcpsession.h) speaks
// the protocol; a ToolHost does the work. Tool calls are asynchronous: the host answers through `done`,
// and may ask the client a question first (elicitation) when the client declared it can answer.

#include <QJsonArray>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace ciu::mcp {

// The result of tools/call: content blocks, structured content beside them, and whether it is an error
// (a tool error is a result the model reads, never a protocol error).
struct ToolResult
{
    QJsonArray content;
    QJsonObject structured; // empty: not sent
    bool isError = false;

    static ToolResult text(const QString& text, const QJsonObject& structured = {});
    static ToolResult error(const QString& text, const QJsonObject& structured = {});
    ToolResult& addText(const QString& text);
    ToolResult& addImage(const QByteArray& data, const QString& mimeType);
    QJsonObject toJson() const;
};

// The client's answer to an elicitation: accepted with content, declined, or cancelled.
struct ElicitationAnswer
{
    enum class Action : quint8
    {
        Accept = 1,
        Decline,
        Cancel,
    };
    Action action = Action::Cancel;
    QJsonObject content;
    QString error; // set when the client answered with an error or could not be asked
};

// Per call: what the session lets the host do while the call runs.
class ToolCallContext
{
public:
    virtual ~ToolCallContext() = default;
    // True when the client declared the elicitation capability (form mode).
    virtual bool canElicit() const = 0;
    // Sends elicitation/create; `answered` runs once with the client's answer.
    virtual void elicit(const QString& message, const QJsonObject& requestedSchema,
                        std::function<void(const ElicitationAnswer&)> answered) = 0;
    // True once the client cancelled the call (notifications/cancelled) or went away.
    virtual bool isCancelled() const = 0;
    // `handler` runs once when the call is cancelled (at once if it already is): the host stops the work.
    virtual void onCancelled(std::function<void()> handler) = 0;
    // True when the client asked for progress (a progressToken in the request's _meta).
    virtual bool wantsProgress() const = 0;
    // Sends notifications/progress when the client asked for it; `progress` must increase from one call to
    // the next (a value not above the last one is not sent). `total` <= 0: unknown.
    virtual void progress(double progress, double total, const QString& message) = 0;
};

class ToolHost
{
public:
    using Done = std::function<void(const ToolResult&)>;
    virtual ~ToolHost() = default;
    // The tools/list entries: {name, title, description, inputSchema}.
    virtual QJsonArray tools() const = 0;
    // Runs a tool; `done` runs exactly once. An unknown name is answered by the session, never here.
    virtual void call(const QString& name, const QJsonObject& arguments,
                      std::shared_ptr<ToolCallContext> context, Done done) = 0;
    // The resources/list entries: {uri, name, mimeType, description}.
    virtual QJsonArray resources() const = 0;
    // resources/read: the `contents` array, or nullopt (an unknown URI) with `error` set.
    virtual std::optional<QJsonArray> readResource(const QString& uri, QString* error) const = 0;
};

} // namespace ciu::mcp
