#include "core/knowledge/shortcutstore.h"

#include "core/knowledge/knowledgefiles.h"
#include "core/knowledge/knowledgelog.h"

#include <QFile>

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
    return knowledgefiles::dataDirectory(QStringLiteral("shortcuts"));
}

QString ShortcutStore::filePath(const QString& application) const
{
    return knowledgefiles::programFile(m_directory, application);
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
    const std::optional<QJsonObject> object = knowledgefiles::readObject(file.fileName(), error);
    if (!object)
        return std::nullopt;
    QString schemaError;
    auto schema = AppSchema::fromJson(*object, &schemaError);
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
    return knowledgefiles::writeObject(m_directory, path, schema.toJson(), error);
}

QStringList ShortcutStore::applications() const
{
    return knowledgefiles::storedNames(m_directory, QLatin1String("application"));
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
    const AppSchema shipped = result;
    for (Shortcut s : stored->shortcuts) {
        // A discovery that only confirms the keys of a shipped shortcut keeps it a schema one: its keys were
        // checked by a person (what `invoke` trusts).
        const Shortcut* same = shipped.find(s.menu.isEmpty() ? s.action : s.menu);
        if (same && same->keys == s.keys && same->matchKey() == s.matchKey() &&
            (s.source == ShortcutSource::Atspi || s.source == ShortcutSource::Vision))
            s.source = ShortcutSource::Schema;
        result.merge(s);
    }
    for (const NamedZone& zone : stored->zones) {
        // A learned zone of a shipped zone's name replaces it.
        result.zones.removeIf([&zone](const NamedZone& z) { return z.name == zone.name; });
        result.zones.append(zone);
    }
    if (!stored->notes.isEmpty())
        result.notes = stored->notes;
    return result;
}

} // namespace ciu
