#include "core/replay/sessionformat.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

namespace ciu::replay {
namespace {

const QRegularExpression& secretPattern()
{
    // Anthropic (sk-ant-...), OpenAI-style (sk-..., sk-proj-...) keys and bearer tokens.
    static const QRegularExpression re(QStringLiteral(
        R"((sk-ant-[A-Za-z0-9_\-]{6,}|sk-[A-Za-z0-9_\-]{16,}|(?<=Bearer )[A-Za-z0-9_\-\.=]{16,}))"));
    return re;
}

} // namespace

QString sessionFolderName(const QDateTime& localTime)
{
    return QStringLiteral("session_") + localTime.toString(QStringLiteral("yyyyMMdd_HHmmss"));
}

bool isSessionFolderName(const QString& name)
{
    static const QRegularExpression re(QStringLiteral(R"(^session_\d{8}_\d{6}(_\d+)?$)"));
    return re.match(name).hasMatch();
}

QString defaultSessionRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sessions");
}

QString keyFrameFile(quint64 frameIndex)
{
    return QStringLiteral("frames/frame_%1.png").arg(frameIndex, 6, 10, QLatin1Char('0'));
}

QByteArray jsonLine(qint64 tNs, const QJsonObject& rest)
{
    QJsonObject object = rest;
    object.remove(QLatin1String("t_ns"));
    QByteArray line = "{\"t_ns\":" + QByteArray::number(tNs);
    if (!object.isEmpty()) {
        const QByteArray body = QJsonDocument(object).toJson(QJsonDocument::Compact);
        line += ',';
        line += body.mid(1); // without the opening brace
    } else {
        line += '}';
    }
    line += '\n';
    return line;
}

bool looksLikeSecret(const QString& text)
{
    return secretPattern().match(text).hasMatch();
}

QString scrubSecrets(const QString& text)
{
    if (!text.contains(QLatin1String("sk-")) && !text.contains(QLatin1String("Bearer ")))
        return text;
    QString out = text;
    out.replace(secretPattern(), QStringLiteral("[redacted]"));
    return out;
}

QByteArray scrubSecrets(const QByteArray& utf8)
{
    if (!utf8.contains("sk-") && !utf8.contains("Bearer "))
        return utf8;
    return scrubSecrets(QString::fromUtf8(utf8)).toUtf8();
}

} // namespace ciu::replay
