#include "core/mcp/toolhost.h"

namespace ciu::mcp {

ToolResult ToolResult::text(const QString& text, const QJsonObject& structured)
{
    ToolResult r;
    r.addText(text);
    r.structured = structured;
    return r;
}

ToolResult ToolResult::error(const QString& text, const QJsonObject& structured)
{
    ToolResult r = ToolResult::text(text, structured);
    r.isError = true;
    return r;
}

ToolResult& ToolResult::addText(const QString& text)
{
    content.append(
        QJsonObject{{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}});
    return *this;
}

ToolResult& ToolResult::addImage(const QByteArray& data, const QString& mimeType)
{
    content.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("image")},
                               {QStringLiteral("data"), QString::fromLatin1(data.toBase64())},
                               {QStringLiteral("mimeType"), mimeType}});
    return *this;
}

QJsonObject ToolResult::toJson() const
{
    QJsonObject o{{QStringLiteral("content"), content}, {QStringLiteral("isError"), isError}};
    if (!structured.isEmpty())
        o.insert(QStringLiteral("structuredContent"), structured);
    return o;
}

} // namespace ciu::mcp
