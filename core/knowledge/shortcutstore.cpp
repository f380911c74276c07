#include "core/knowledge/shortcutstore.h"

#include "core/knowledge/knowledgelog.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>
#include <QStandardPaths>

namespace ciu {
namespace {

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    return false;
}

} // namespace

ShortcutStore::ShortcutStore()
    : ShortcutStore(defaultDirectory())
{
}

ShortcutStore::ShortcutStore(QString directory)
    : m_directory(std::move(directory))
{
}

QString ShortcutStore::defaultDirectory()
{
    QString base = qEnvironmentVariable("XDG_DATA_HOME");
    if (base.isEmpty())
        base = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    return base + QStringLiteral("/ciu-agent/shortcuts");
}

QString ShortcutStore::filePath(const QString& application) const
{
    QString safe;
    safe.reserve(application.size());
    for (const QChar c : application)
        safe.append(
            c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('.') ? c : QLatin1Char('_'));
    if (safe.isEmpty() || safe.startsWith(QLatin1Char('.')))
        safe.prepend(QLatin1Char('_'));
    return m_directory + QLatin1Char('/') + safe + QStringLiteral(".json");
}

std::optional<AppSchema> ShortcutStore::load(const QString& application, QString* error) const
{
    if (application.isEmpty()) {
        fail(error, QStringLiteral("no application name"));
        return std::nullopt;
    }
    QFile file(filePath(application));
    if (!file.exists())
        return AppSchema{application, {}, {}, {}};
    if (!file.open(QIODevice::ReadOnly)) {
        fail(error, QStringLiteral("cannot read %1: %2").arg(file.fileName(), file.errorString()));
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        fail(error,
             QStringLiteral("%1 is not a JSON object: %2").arg(file.fileName(), parseError.errorString()));
        return std::nullopt;
    }
    QString schemaError;
    auto schema = AppSchema::fromJson(document.object(), &schemaError);
    if (!schema) {
        fail(error, QStringLiteral("%1: %2").arg(file.fileName(), schemaError));
        return std::nullopt;
    }
    if (schema->application != application) {
        fail(error, QStringLiteral("%1 holds the shortcuts of \"%2\", not \"%3\"")
                        .arg(file.fileName(), schema->application, application));
        return std::nullopt;
    }
    qCDebug(lcShortcuts) << "loaded" << schema->shortcuts.size() << "shortcuts of" << application;
    return schema;
}

bool ShortcutStore::save(const AppSchema& schema, QString* error) const
{
    if (schema.application.isEmpty())
        return fail(error, QStringLiteral("shortcuts without an application"));
    const QString path = filePath(schema.application);
    QString loadError;
    if (QFile::exists(path) && !load(schema.application, &loadError))
        return fail(error, QStringLiteral("not replacing a file that does not load (%1); move it away first")
                               .arg(loadError));
    if (!QDir().mkpath(m_directory))
        return fail(error, QStringLiteral("cannot create %1").arg(m_directory));
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    file.write(QJsonDocument(schema.toJson()).toJson(QJsonDocument::Indented));
    if (!file.commit())
        return fail(error, QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

QStringList ShortcutStore::applications() const
{
    QStringList result;
    const QDir dir(m_directory);
    for (const QString& name : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name)) {
        QFile file(dir.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            continue;
        const QString application =
            QJsonDocument::fromJson(file.readAll()).object().value(QLatin1String("application")).toString();
        if (!application.isEmpty())
            result.append(application);
    }
    return result;
}

std::optional<AppSchema> knownShortcuts(const ShortcutStore& store, const QString& application,
                                        QString* error)
{
    auto stored = store.load(application, error);
    if (!stored)
        return std::nullopt;
    QString shippedError;
    AppSchema result = shippedSchema(application, &shippedError).value_or(AppSchema{application, {}, {}, {}});
    if (!shippedError.isEmpty())
        qCWarning(lcShortcuts) << "shipped schema:" << shippedError;
    result.application = application;
    for (const Shortcut& s : stored->shortcuts)
        result.merge(s);
    result.zones.append(stored->zones);
    if (!stored->notes.isEmpty())
        result.notes = stored->notes;
    return result;
}

} // namespace ciu
