#include "core/providers/keystore.h"

#include "core/model/secrets.h"
#include "core/providers/anthropicprovider.h"
#include "core/providers/openaiprovider.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QPointer>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QThread>
#include <QTimer>
#include <QWaitCondition>
#include <qt6keychain/keychain.h>

#include <atomic>

namespace ciu::director {

namespace keystore {

namespace {
const QString kService = QStringLiteral("ciu-agent");

QString settingsPrefix(ProviderKind kind)
{
    return QStringLiteral("providers/") + toString(kind) + QLatin1Char('/');
}

QString env(const QString& name)
{
    return qEnvironmentVariable(name.toLatin1().constData()).trimmed();
}
} // namespace

QString environmentKeyName(ProviderKind kind)
{
    return kind == ProviderKind::Anthropic ? QStringLiteral("ANTHROPIC_API_KEY")
                                           : QStringLiteral("OPENAI_API_KEY");
}

QString environmentBaseUrlName(ProviderKind kind)
{
    return kind == ProviderKind::Anthropic ? QStringLiteral("ANTHROPIC_BASE_URL")
                                           : QStringLiteral("OPENAI_BASE_URL");
}

std::optional<QString> keyFromEnvironment(ProviderKind kind)
{
    const QString key = env(environmentKeyName(kind));
    if (key.isEmpty())
        return std::nullopt;
    return key;
}

QString keyFilePath(ProviderKind kind)
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
           QStringLiteral("/ciu-agent/keys/") + toString(kind) + QStringLiteral(".key");
}

bool writeKeyFile(ProviderKind kind, const QString& key, QString* error)
{
    const auto fail = [error](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    const QString trimmed = key.trimmed();
    if (trimmed.isEmpty() || trimmed.contains(QLatin1Char('\n')))
        return fail(QStringLiteral("the key is empty or spans several lines"));
    const QString path = keyFilePath(kind);
    const QString dir = QFileInfo(path).absolutePath();
    if (!QDir().mkpath(dir))
        return fail(QStringLiteral("cannot create %1").arg(dir));
    const auto ownerOnlyDir = QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;
    if (!QFile::setPermissions(dir, ownerOnlyDir))
        return fail(QStringLiteral("cannot make %1 private to its owner").arg(dir));
    // The temporary file is made owner-only before the key is written into it.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return fail(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    if (!file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner))
        return fail(QStringLiteral("cannot make %1 private to its owner").arg(path));
    file.write(trimmed.toUtf8() + '\n');
    if (!file.commit())
        return fail(QStringLiteral("cannot write %1: %2").arg(path, file.errorString()));
    return true;
}

std::optional<QString> keyFromFile(ProviderKind kind, QString* error)
{
    const QString path = keyFilePath(kind);
    const QFileInfo info(path);
    if (!info.exists())
        return std::nullopt;
    const auto others =
        QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther | QFileDevice::WriteOther;
    if (info.permissions() & others) {
        if (error)
            *error = QStringLiteral("the key file %1 is readable or writable by others; it is not used "
                                    "(chmod 600 it, or delete it and enter the key again)")
                         .arg(path);
        return std::nullopt;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = QStringLiteral("cannot read the key file %1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    const QString key = QString::fromUtf8(file.read(4096)).trimmed();
    if (key.isEmpty())
        return std::nullopt;
    registerSecret(key);
    return key;
}

bool removeKeyFile(ProviderKind kind)
{
    return QFile::remove(keyFilePath(kind));
}

std::optional<QUrl> baseUrl(ProviderKind kind, const QSettings* settings, QString* error)
{
    QString text;
    QString source;
    if (settings)
        text = settings->value(settingsPrefix(kind) + QStringLiteral("baseUrl")).toString().trimmed();
    if (!text.isEmpty()) {
        source = QStringLiteral("the settings");
    } else {
        text = env(environmentBaseUrlName(kind));
        source = environmentBaseUrlName(kind);
    }
    if (text.isEmpty())
        text = QString::fromLatin1(kind == ProviderKind::Anthropic ? AnthropicProvider::kDefaultBaseUrl
                                                                   : OpenAiProvider::kDefaultBaseUrl);
    const QUrl url(text, QUrl::StrictMode);
    if (!url.isValid() || url.host().isEmpty() ||
        (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http")) ||
        !url.userInfo().isEmpty()) {
        if (error)
            *error = QStringLiteral("the %1 base URL from %2 is not a valid http(s) URL without user info")
                         .arg(toString(kind), source);
        return std::nullopt;
    }
    return url;
}

QString defaultModel(ProviderKind kind, const QSettings* settings)
{
    if (settings) {
        const QString model =
            settings->value(settingsPrefix(kind) + QStringLiteral("model")).toString().trimmed();
        if (!model.isEmpty())
            return model;
    }
    const QString fromEnv = env(kind == ProviderKind::Anthropic ? QStringLiteral("CIU_ANTHROPIC_MODEL")
                                                                : QStringLiteral("CIU_OPENAI_MODEL"));
    if (!fromEnv.isEmpty())
        return fromEnv;
    return kind == ProviderKind::Anthropic ? QStringLiteral("claude-sonnet-4-5") : QStringLiteral("gpt-4o");
}

QString embeddingModel(ProviderKind kind, const QSettings* settings)
{
    if (kind != ProviderKind::OpenAi)
        return {};
    if (settings) {
        const QString model =
            settings->value(settingsPrefix(kind) + QStringLiteral("embeddingModel")).toString().trimmed();
        if (!model.isEmpty())
            return model;
    }
    return env(QStringLiteral("CIU_OPENAI_EMBEDDING_MODEL"));
}

LocalKey localKey(ProviderKind kind)
{
    LocalKey found;
    if (const auto key = keyFromEnvironment(kind); key && !key->isEmpty()) {
        found.key = *key;
        found.origin = LocalKey::Origin::Environment;
        return found;
    }
    if (const auto key = keyFromFile(kind, &found.error); key && !key->isEmpty() && found.error.isEmpty()) {
        found.key = *key;
        found.origin = LocalKey::Origin::File;
    }
    return found;
}

std::optional<ProviderConfig> configFor(ProviderKind kind, const QSettings* settings, QString* error)
{
    ProviderConfig config;
    const auto url = baseUrl(kind, settings, error);
    if (!url)
        return std::nullopt;
    config.baseUrl = *url;
    config.defaultModel = defaultModel(kind, settings);
    config.embeddingModel = embeddingModel(kind, settings);
    const LocalKey local = localKey(kind);
    if (!local.error.isEmpty()) {
        if (error)
            *error = local.error;
        return std::nullopt;
    }
    config.apiKey = local.key;
    QString pricesFile = env(QStringLiteral("CIU_PRICES_FILE"));
    if (pricesFile.isEmpty() && settings)
        pricesFile = settings->value(QStringLiteral("providers/pricesFile")).toString();
    if (!pricesFile.isEmpty()) {
        const auto prices = PriceTable::fromFile(pricesFile, error);
        if (!prices)
            return std::nullopt;
        config.prices = *prices;
    }
    return config;
}

namespace {
QString describeError(QKeychain::Error code, const QString& text)
{
    QString what;
    switch (code) {
    case QKeychain::NoBackendAvailable:
        what = QStringLiteral(
            "no keychain service is available (no secret service or KWallet on the session bus)");
        break;
    case QKeychain::AccessDenied:
    case QKeychain::AccessDeniedByUser:
        what = QStringLiteral("access denied");
        break;
    case QKeychain::NotImplemented:
        what = QStringLiteral("not supported");
        break;
    default:
        what = QStringLiteral("not available (is a D-Bus secret service running?)");
        break;
    }
    const QString detail = text.trimmed();
    if (detail.isEmpty() || detail == QLatin1String("Unknown error"))
        return QStringLiteral("keychain: %1").arg(what);
    return QStringLiteral("keychain: %1: %2").arg(what, detail);
}

std::atomic<int> g_jobsRunning = 0;

void runJob(QKeychain::Job* job, QObject* context, KeyCallback callback)
{
    job->setAutoDelete(true);
    ++g_jobsRunning;
    // Counted whether or not anybody still waits for the answer.
    QObject::connect(job, &QKeychain::Job::finished, job, [] { --g_jobsRunning; });
    QPointer<QObject> guard(context);
    QObject::connect(job, &QKeychain::Job::finished, context, [guard, callback](QKeychain::Job* finished) {
        if (!guard)
            return;
        QString key;
        QString error;
        if (finished->error() == QKeychain::NoError) {
            if (auto* read = qobject_cast<QKeychain::ReadPasswordJob*>(finished))
                key = read->textData();
        } else if (finished->error() != QKeychain::EntryNotFound) {
            error = describeError(finished->error(), finished->errorString());
        }
        // A key from the keychain is a secret like one from the environment: never written to a session.
        if (!key.isEmpty())
            ciu::registerSecret(key);
        callback(key, error);
    });
    job->start();
}
} // namespace

void readKeychain(ProviderKind kind, QObject* context, KeyCallback callback)
{
    auto* job = new QKeychain::ReadPasswordJob(kService);
    job->setKey(toString(kind));
    runJob(job, context, std::move(callback));
}

void writeKeychain(ProviderKind kind, const QString& key, QObject* context, KeyCallback callback)
{
    ciu::registerSecret(key);
    auto* job = new QKeychain::WritePasswordJob(kService);
    job->setKey(toString(kind));
    job->setTextData(key);
    runJob(job, context, std::move(callback));
}

void deleteKeychain(ProviderKind kind, QObject* context, KeyCallback callback)
{
    auto* job = new QKeychain::DeletePasswordJob(kService);
    job->setKey(toString(kind));
    runJob(job, context, std::move(callback));
}

int keychainJobsRunning()
{
    return g_jobsRunning.load();
}

std::optional<QString> readKeychainBlocking(ProviderKind kind, int timeoutMs, QString* error)
{
    // QtKeychain is not thread-safe (one job executor for the process): its jobs always run on the
    // application's thread. Another thread asks there and waits for the answer, processing no events.
    struct Answer
    {
        QMutex mutex;
        QWaitCondition done;
        bool finished = false;
        QString key;
        QString error;
    };
    auto answer = std::make_shared<Answer>();
    auto store = [answer](const QString& key, const QString& e) {
        QMutexLocker lock(&answer->mutex);
        answer->finished = true;
        answer->key = key;
        answer->error = e;
        answer->done.wakeAll();
    };
    timeoutMs = std::max(0, timeoutMs);
    QCoreApplication* app = QCoreApplication::instance();
    if (!app) {
        if (error)
            *error = QStringLiteral("keychain: no application object");
        return std::nullopt;
    }
    if (QThread::currentThread() == app->thread()) {
        // The command line before its event loop: a local loop, bounded by the timeout.
        QEventLoop loop;
        readKeychain(kind, &loop, [&loop, store](const QString& key, const QString& e) {
            store(key, e);
            loop.quit();
        });
        QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
        bool answered = false;
        {
            QMutexLocker lock(&answer->mutex);
            answered = answer->finished; // answered synchronously
        }
        if (!answered)
            loop.exec(QEventLoop::ExcludeUserInputEvents);
    } else {
        ++g_jobsRunning; // queued: counted until its job has started
        QMetaObject::invokeMethod(
            app,
            [kind, store] {
                readKeychain(kind, QCoreApplication::instance(), store);
                --g_jobsRunning;
            },
            Qt::QueuedConnection);
        QMutexLocker lock(&answer->mutex);
        const QDeadlineTimer deadline(timeoutMs);
        while (!answer->finished && answer->done.wait(&answer->mutex, deadline)) {
        }
    }
    QMutexLocker lock(&answer->mutex);
    if (!answer->finished) {
        if (error)
            *error = QStringLiteral("keychain: no answer within %1 ms").arg(timeoutMs);
        return std::nullopt;
    }
    if (!answer->error.isEmpty()) {
        if (error)
            *error = answer->error;
        return std::nullopt;
    }
    return answer->key;
}

} // namespace keystore

std::unique_ptr<Provider> createProvider(ProviderKind kind, ProviderConfig config, QObject* parent)
{
    switch (kind) {
    case ProviderKind::Anthropic:
        return std::make_unique<AnthropicProvider>(std::move(config), parent);
    case ProviderKind::OpenAi:
        return std::make_unique<OpenAiProvider>(std::move(config), parent);
    }
    return nullptr;
}

} // namespace ciu::director
