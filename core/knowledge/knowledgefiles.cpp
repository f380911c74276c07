// The knowledge stores' shared file handling (see the header).

#include "core/knowledge/knowledgefiles.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

namespace ciu::knowledgefiles {
namespace {

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

QString dataDirectory(const QString& leaf)
{
    QString base = qEnvironmentVariable("XDG_DATA_HOME");
    if (base.isEmpty())
        base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return base + QStringLiteral("/ciu-agent/") + leaf;
}

QString programFile(const QString& directory, const QString& program)
{
    QString safe;
    safe.reserve(program.size());
    for (const QChar c : program)
        safe.append(
            c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('.') ? c : QLatin1Char('_'));
    if (safe.isEmpty() || safe.startsWith(QLatin1Char('.')))
        safe.prepend(QLatin1Char('_'));
    return directory + QLatin1Char('/') + safe + QStringLiteral(".json");
}

std::optional<QJsonObject> readObject(const QString& path, QString* error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        fail(error, QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        fail(error, QStringLiteral("%1 is not a JSON object: %2").arg(path, parseError.errorString()));
        return std::nullopt;
    }
    return document.object();
}

bool writeObject(const QString& directory, const QString& path, const QJsonObject& object, QString* error)
{
    if (!QDir().mkpath(directory))
        return fail(error, QStringLiteral("cannot create %1").arg(directory));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    file.write(QJsonDocument(object).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

QStringList storedNames(const QString& directory, QLatin1String key)
{
    QStringList result;
    const QDir dir(directory);
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QString value = QJsonDocument::fromJson(file.readAll()).object().value(key).toString();
        if (!value.isEmpty())
            result.append(value);
    }
    return result;
}

} // namespace ciu::knowledgefiles
