#pragma once

// A small ToolHost for the protocol tests (tst_mcpsession, tst_mcphttp): "echo" answers at once, "ask"
// asks the client through elicitation and answers with what it said, "hold" answers when the test
// releases it (and counts its cancellations), "count" reports progress 1, 1 again, 2, 3 of 3 and answers.
// One resource, ciu://test/readme.

#include "core/mcp/toolhost.h"

#include <QJsonArray>

#include <functional>

namespace ciu::mcp::test {

class TestHost final : public ToolHost
{
public:
    QJsonArray tools() const override
    {
        const QJsonObject schema{{QStringLiteral("type"), QStringLiteral("object")}};
        return {QJsonObject{{QStringLiteral("name"), QStringLiteral("echo")},
                            {QStringLiteral("inputSchema"), schema}},
                QJsonObject{{QStringLiteral("name"), QStringLiteral("ask")},
                            {QStringLiteral("inputSchema"), schema}},
                QJsonObject{{QStringLiteral("name"), QStringLiteral("hold")},
                            {QStringLiteral("inputSchema"), schema}},
                QJsonObject{{QStringLiteral("name"), QStringLiteral("count")},
                            {QStringLiteral("inputSchema"), schema}}};
    }
    void call(const QString& name, const QJsonObject& arguments, std::shared_ptr<ToolCallContext> context,
              Done done) override
    {
        if (name == QLatin1String("echo")) {
            done(ToolResult::text(arguments.value(QStringLiteral("text")).toString(), arguments));
        } else if (name == QLatin1String("ask")) {
            if (!context->canElicit()) {
                done(ToolResult::error(QStringLiteral("refused: the client cannot be asked")));
                return;
            }
            const QJsonObject schema{
                {QStringLiteral("type"), QStringLiteral("object")},
                {QStringLiteral("properties"),
                 QJsonObject{{QStringLiteral("approve"),
                              QJsonObject{{QStringLiteral("type"), QStringLiteral("boolean")}}}}}};
            context->elicit(QStringLiteral("Allow?"), schema, [done](const ElicitationAnswer& a) {
                const bool yes = a.action == ElicitationAnswer::Action::Accept &&
                                 a.content.value(QStringLiteral("approve")).toBool();
                done(yes ? ToolResult::text(QStringLiteral("approved"))
                         : ToolResult::error(QStringLiteral("declined")));
            });
        } else if (name == QLatin1String("count")) {
            wantedProgress = context->wantsProgress();
            context->progress(1, 3, QStringLiteral("one"));
            context->progress(1, 3, QStringLiteral("one again")); // not above the last: not sent
            context->progress(2, 3, QStringLiteral("two"));
            context->progress(3, 0, QString());
            done(ToolResult::text(QStringLiteral("counted")));
        } else {
            held = done;
            heldContext = context;
            context->onCancelled([this] { ++cancellations; });
        }
    }
    QJsonArray resources() const override
    {
        return {QJsonObject{{QStringLiteral("uri"), QStringLiteral("ciu://test/readme")},
                            {QStringLiteral("name"), QStringLiteral("readme")}}};
    }
    std::optional<QJsonArray> readResource(const QString& uri, QString* error) const override
    {
        if (uri != QLatin1String("ciu://test/readme")) {
            *error = QStringLiteral("Resource not found: %1").arg(uri);
            return std::nullopt;
        }
        return QJsonArray{
            QJsonObject{{QStringLiteral("uri"), uri}, {QStringLiteral("text"), QStringLiteral("hello")}}};
    }

    Done held;
    std::shared_ptr<ToolCallContext> heldContext;
    int cancellations = 0;
    bool wantedProgress = false;
};

} // namespace ciu::mcp::test
