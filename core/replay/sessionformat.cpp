#include "core/replay/sessionformat.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QStandardPaths>

namespace ciu::replay {

QString sessionFolderName(const QDateTime& localTime)
{
    return QStringLiteral("session_") + localTime.toString(QStringLiteral("yyyyMMdd_HHmmss"));
}

bool isSessionFolderName(const QString& name)
{
    static const QRegularExpression re(QStringLiteral(R"(^session_\d{8}_\d{6}(_\d+)?$)"));
    return re.match(name).hasMatch();
}

QDateTime sessionFolderTime(const QString& name)
{
    if (!isSessionFolderName(name))
        return {};
    return QDateTime::fromString(name.mid(8, 15), QStringLiteral("yyyyMMdd_HHmmss"));
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

} // namespace ciu::replay
