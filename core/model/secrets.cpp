#include "core/model/secrets.h"

#include <QMutex>
#include <QProcessEnvironment>
#include <QRegularExpression>

#include <algorithm>

namespace ciu {
namespace {

const QRegularExpression& secretPattern()
{
    // Anthropic (sk-ant-...), OpenAI-style (sk-..., sk-proj-...) keys and bearer tokens.
    static const QRegularExpression re(QStringLiteral(
        R"((sk-ant-[A-Za-z0-9_\-]{6,}|sk-[A-Za-z0-9_\-]{16,}|(?<=Bearer )[A-Za-z0-9_\-\.=]{16,}))"));
    return re;
}

constexpr qsizetype kMinSecretLength = 8;

struct SecretStore
{
    QMutex mutex;
    QStringList environment;
    QStringList registered;
    QList<QByteArray> utf8; // both, as UTF-8, longest first
    bool loaded = false;

    void rebuild()
    {
        QStringList all = environment + registered;
        all.removeDuplicates();
        std::sort(all.begin(), all.end(),
                  [](const QString& a, const QString& b) { return a.size() > b.size(); });
        utf8.clear();
        for (const QString& s : std::as_const(all))
            utf8 << s.toUtf8();
    }
    void loadEnvironment()
    {
        static const QRegularExpression name(
            QStringLiteral(R"((^|_)(API_KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD)$)"),
            QRegularExpression::CaseInsensitiveOption);
        environment.clear();
        const QStringList entries = QProcessEnvironment::systemEnvironment().toStringList();
        for (const QString& entry : entries) {
            const qsizetype eq = entry.indexOf(QLatin1Char('='));
            if (eq <= 0)
                continue;
            const QString value = entry.mid(eq + 1).trimmed();
            if (value.size() >= kMinSecretLength && name.match(entry.left(eq)).hasMatch())
                environment << value;
        }
        loaded = true;
        rebuild();
    }
};

SecretStore& secretStore()
{
    static SecretStore store;
    return store;
}

// The known secret values as UTF-8 (loads the environment's on first use).
QList<QByteArray> secretValues()
{
    SecretStore& store = secretStore();
    QMutexLocker lock(&store.mutex);
    if (!store.loaded)
        store.loadEnvironment();
    return store.utf8;
}

} // namespace

QStringList knownSecrets()
{
    QStringList out;
    for (const QByteArray& s : secretValues())
        out << QString::fromUtf8(s);
    return out;
}

void refreshEnvironmentSecrets()
{
    SecretStore& store = secretStore();
    QMutexLocker lock(&store.mutex);
    store.loadEnvironment();
}

void registerSecret(const QString& value)
{
    const QString v = value.trimmed();
    if (v.size() < kMinSecretLength)
        return;
    SecretStore& store = secretStore();
    QMutexLocker lock(&store.mutex);
    if (!store.loaded)
        store.loadEnvironment();
    if (!store.registered.contains(v)) {
        store.registered << v;
        store.rebuild();
    }
}

bool looksLikeSecret(const QString& text)
{
    return secretPattern().match(text).hasMatch();
}

QString scrubSecrets(const QString& text)
{
    QString out = text;
    for (const QByteArray& secret : secretValues())
        out.replace(QString::fromUtf8(secret), QStringLiteral("[redacted]"));
    if (out.contains(QLatin1String("sk-")) || out.contains(QLatin1String("Bearer ")))
        out.replace(secretPattern(), QStringLiteral("[redacted]"));
    return out;
}

QByteArray scrubSecrets(const QByteArray& utf8)
{
    bool found = utf8.contains("sk-") || utf8.contains("Bearer ");
    if (!found) {
        for (const QByteArray& secret : secretValues()) {
            if (utf8.contains(secret)) {
                found = true;
                break;
            }
        }
    }
    if (!found)
        return utf8;
    return scrubSecrets(QString::fromUtf8(utf8)).toUtf8();
}

} // namespace ciu
