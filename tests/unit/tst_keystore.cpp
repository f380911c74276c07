#include "core/engine/backends.h"
#include "core/model/secrets.h"
#include "core/providers/keystore.h"
#include "core/replay/sessionformat.h"
#include "tests/support/fakeapiserver.h"

#include <QFile>
#include <QFileInfo>
#include <QMutex>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <sys/stat.h>

using namespace ciu::director;

class TestKeyStore : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void keyFromEnvironment();
    void baseUrlPrecedence();
    void badBaseUrls_data();
    void badBaseUrls();
    void configAndPrices();
    void createProviderAndKinds();
    void keychainAnswersWithoutCrashing();
    void keyForTheKeychainIsNeverRecorded();
    void blockingReadWithoutSecretService();
    void blockingReadFromWorkerThread();
    void noKeyGivesClearError();
    void environmentWinsOverKeychain();
    void keychainKeyOnlyToConfiguredHost();
    void openAiWithoutKeyStillPlans();
    void keychainRoundTrip();
    void keyFileIsPrivateAndReadBack();
    void keyFileReadableByOthersIsRefused();

private:
    // The tests of a machine without a secret service need the bus we take away in initTestCase.
    bool noBus() const { return m_keychainBus.isEmpty(); }

    QTemporaryDir m_dir;
    QByteArray m_keychainBus; // CIU_TEST_KEYCHAIN_BUS: a session bus with a secret service to write into
};

namespace {
const char* const kVars[] = {"ANTHROPIC_API_KEY", "OPENAI_API_KEY",  "ANTHROPIC_BASE_URL",
                             "OPENAI_BASE_URL",   "CIU_PRICES_FILE", "CIU_ANTHROPIC_MODEL",
                             "CIU_OPENAI_MODEL"};
}

namespace {
// What every keychain operation reports when there is no session bus at all.
bool isNoServiceError(const QString& error)
{
    return error.startsWith(QLatin1String("keychain: no keychain service is available")) ||
           error.startsWith(QLatin1String("keychain: not available (is a D-Bus secret service running?)"));
}
} // namespace

void TestKeyStore::initTestCase()
{
    m_keychainBus = qgetenv("CIU_TEST_KEYCHAIN_BUS");
    QVERIFY(m_dir.isValid());
    if (!m_keychainBus.isEmpty()) {
        // A throw-away session bus with a secret service (e.g. from dbus-run-session with
        // gnome-keyring-daemon): the round trip writes there; the no-bus tests skip.
        qputenv("DBUS_SESSION_BUS_ADDRESS", m_keychainBus);
        return;
    }
    // Key files go to a private configuration folder, never the user's real one.
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_dir.filePath(QStringLiteral("config"))));
    // A machine without a secret service: the session bus is not there (as on a headless server).
    qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/ciu-test-no-bus");
}

void TestKeyStore::init()
{
    for (const char* name : kVars)
        qunsetenv(name);
}

void TestKeyStore::cleanup()
{
    init();
}

void TestKeyStore::keyFromEnvironment()
{
    QVERIFY(!keystore::keyFromEnvironment(ProviderKind::Anthropic));
    qputenv("ANTHROPIC_API_KEY", "  sk-ant-xyz \n");
    QCOMPARE(keystore::keyFromEnvironment(ProviderKind::Anthropic).value_or(QString()),
             QStringLiteral("sk-ant-xyz"));
    QVERIFY(!keystore::keyFromEnvironment(ProviderKind::OpenAi));
    qputenv("OPENAI_API_KEY", "sk-oa");
    QCOMPARE(keystore::keyFromEnvironment(ProviderKind::OpenAi).value_or(QString()), QStringLiteral("sk-oa"));
    QCOMPARE(keystore::environmentKeyName(ProviderKind::OpenAi), QStringLiteral("OPENAI_API_KEY"));
}

void TestKeyStore::baseUrlPrecedence()
{
    QString error;
    QCOMPARE(keystore::baseUrl(ProviderKind::Anthropic, nullptr, &error).value_or(QUrl()),
             QUrl(QStringLiteral("https://api.anthropic.com")));
    QCOMPARE(keystore::baseUrl(ProviderKind::OpenAi, nullptr, &error).value_or(QUrl()),
             QUrl(QStringLiteral("https://api.openai.com")));
    qputenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:8080");
    QCOMPARE(keystore::baseUrl(ProviderKind::Anthropic, nullptr, &error).value_or(QUrl()),
             QUrl(QStringLiteral("http://127.0.0.1:8080")));
    QSettings settings(m_dir.filePath(QStringLiteral("a.ini")), QSettings::IniFormat);
    settings.setValue(QStringLiteral("providers/anthropic/baseUrl"),
                      QStringLiteral("https://proxy.example.com/claude"));
    QCOMPARE(keystore::baseUrl(ProviderKind::Anthropic, &settings, &error).value_or(QUrl()),
             QUrl(QStringLiteral("https://proxy.example.com/claude"))); // the settings win
}

void TestKeyStore::badBaseUrls_data()
{
    QTest::addColumn<QByteArray>("url");
    QTest::newRow("ftp") << QByteArray("ftp://example.com");
    QTest::newRow("no host") << QByteArray("http://");
    QTest::newRow("not a url") << QByteArray("just words");
    QTest::newRow("user info") << QByteArray("https://user:pw@example.com");
}

void TestKeyStore::badBaseUrls()
{
    QFETCH(QByteArray, url);
    qputenv("OPENAI_BASE_URL", url);
    QString error;
    QVERIFY(!keystore::baseUrl(ProviderKind::OpenAi, nullptr, &error));
    QVERIFY(error.contains(QLatin1String("OPENAI_BASE_URL")));
    QVERIFY(!keystore::configFor(ProviderKind::OpenAi, nullptr, &error));
}

void TestKeyStore::configAndPrices()
{
    qputenv("ANTHROPIC_API_KEY", "sk-ant-1");
    QString error;
    auto config = keystore::configFor(ProviderKind::Anthropic, nullptr, &error);
    QVERIFY2(config, qPrintable(error));
    QCOMPARE(config->apiKey, QStringLiteral("sk-ant-1"));
    QCOMPARE(config->defaultModel, QStringLiteral("claude-sonnet-4-5"));
    QVERIFY(config->prices.find(QStringLiteral("claude-sonnet-4-5-20250929"))); // the built-in table
    QCOMPARE(config->prices.find(QStringLiteral("claude-sonnet-4-5"))->outputPerMTok, 15.0);

    qputenv("CIU_ANTHROPIC_MODEL", "claude-haiku-4-5");
    QCOMPARE(keystore::configFor(ProviderKind::Anthropic, nullptr, &error)->defaultModel,
             QStringLiteral("claude-haiku-4-5"));

    const QString path = m_dir.filePath(QStringLiteral("prices.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"models": {"claude-haiku-4-5": {"input": 9, "output": 99}}})");
    file.close();
    qputenv("CIU_PRICES_FILE", path.toLocal8Bit());
    config = keystore::configFor(ProviderKind::Anthropic, nullptr, &error);
    QVERIFY2(config, qPrintable(error));
    QCOMPARE(config->prices.find(QStringLiteral("claude-haiku-4-5"))->outputPerMTok, 99.0);
    QVERIFY(!config->prices.find(QStringLiteral("claude-sonnet-4-5")));

    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(R"({"models": {"x": {"input": -1}}})");
    file.close();
    QVERIFY(!keystore::configFor(ProviderKind::Anthropic, nullptr, &error));
    QVERIFY(error.contains(QLatin1String("\"x\"")));
    qputenv("CIU_PRICES_FILE", m_dir.filePath(QStringLiteral("missing.json")).toLocal8Bit());
    QVERIFY(!keystore::configFor(ProviderKind::Anthropic, nullptr, &error));
    QVERIFY(error.contains(QLatin1String("missing.json")));
    QVERIFY(!PriceTable::fromJson("{nope", &error));
    QVERIFY(!PriceTable::fromJson("{}", &error));
}

void TestKeyStore::createProviderAndKinds()
{
    auto anthropic = createProvider(ProviderKind::Anthropic, ProviderConfig{});
    QVERIFY(anthropic);
    QVERIFY(anthropic->kind() == ProviderKind::Anthropic);
    auto openai = createProvider(ProviderKind::OpenAi, ProviderConfig{});
    QVERIFY(openai->kind() == ProviderKind::OpenAi);
    QVERIFY(providerKindFromString(QStringLiteral("Anthropic")) == ProviderKind::Anthropic);
    QVERIFY(providerKindFromString(QStringLiteral("openai")) == ProviderKind::OpenAi);
    QVERIFY(!providerKindFromString(QStringLiteral("local")));
}

void TestKeyStore::keychainAnswersWithoutCrashing()
{
    if (!noBus())
        QSKIP("CIU_TEST_KEYCHAIN_BUS is set: this machine has a secret service");
    // Headless machines have no keychain service: the callback reports why, the key store never blocks
    // the caller.
    bool called = false;
    QString key;
    QString error;
    keystore::readKeychain(ProviderKind::Anthropic, this, [&](const QString& k, const QString& e) {
        called = true;
        key = k;
        error = e;
    });
    QVERIFY(!called); // asynchronous: the answer comes from the event loop, after the call returned
    QVERIFY(QTest::qWaitFor([&] { return called; }, 60'000));
    QVERIFY(key.isEmpty());
    QVERIFY2(isNoServiceError(error), qPrintable(error));
}

void TestKeyStore::keyForTheKeychainIsNeverRecorded()
{
    // A key the user types in the settings is a secret for the recorder from then on, whether or not a
    // keychain service stores it.
    QString readError;
    bool read = false;
    keystore::readKeychain(ProviderKind::OpenAi, this, [&](const QString&, const QString& e) {
        readError = e;
        read = true;
    });
    QVERIFY(QTest::qWaitFor([&] { return read; }, 60'000));
    if (!noBus())
        QSKIP("CIU_TEST_KEYCHAIN_BUS is set: keychainRoundTrip covers the keychain that stores the key");
    QVERIFY2(isNoServiceError(readError), qPrintable(readError));
    const QString key = QStringLiteral("kc-9f8e7d6c5b4a39281706");
    QCOMPARE(ciu::scrubSecrets(QStringLiteral("typed %1 here").arg(key)),
             QStringLiteral("typed %1 here").arg(key));
    bool called = false;
    QString writeError;
    keystore::writeKeychain(ProviderKind::OpenAi, key, this, [&](const QString&, const QString& e) {
        writeError = e;
        called = true;
    });
    QVERIFY(QTest::qWaitFor([&] { return called; }, 60'000));
    QVERIFY2(isNoServiceError(writeError), qPrintable(writeError)); // not stored, and still a secret
    QCOMPARE(ciu::scrubSecrets(QStringLiteral("typed %1 here").arg(key)),
             QStringLiteral("typed [redacted] here"));
}

namespace {

// Every log line of the process while it lives (to prove the key never reaches the log).
class LogCapture
{
public:
    LogCapture() { s_previous = qInstallMessageHandler(&LogCapture::handler); }
    ~LogCapture() { qInstallMessageHandler(s_previous); }
    static QString text()
    {
        QMutexLocker lock(&s_mutex);
        return s_text;
    }

private:
    static void handler(QtMsgType type, const QMessageLogContext& context, const QString& message)
    {
        {
            QMutexLocker lock(&s_mutex);
            s_text += message + QLatin1Char('\n');
        }
        if (s_previous)
            s_previous(type, context, message);
    }
    static inline QtMessageHandler s_previous = nullptr;
    static inline QMutex s_mutex;
    static inline QString s_text;
};

ciu::DirectorOptions optionsFor(const QString& provider)
{
    ciu::DirectorOptions options;
    options.provider = provider;
    return options;
}

} // namespace

void TestKeyStore::blockingReadWithoutSecretService()
{
    if (!noBus())
        QSKIP("CIU_TEST_KEYCHAIN_BUS is set: this machine has a secret service");
    QString error;
    const auto key = keystore::readKeychainBlocking(ProviderKind::Anthropic, 3'000, &error);
    // No bus, no secret service: that error, never a hang (the read is bounded by its timeout).
    QVERIFY(!key);
    QVERIFY2(isNoServiceError(error), qPrintable(error));
}

void TestKeyStore::blockingReadFromWorkerThread()
{
    if (!noBus())
        QSKIP("CIU_TEST_KEYCHAIN_BUS is set: this machine has a secret service");
    // The Director's case: a worker thread asks, the job runs on the application's thread.
    std::optional<QString> key;
    QString error;
    std::unique_ptr<QThread> worker(
        QThread::create([&] { key = keystore::readKeychainBlocking(ProviderKind::OpenAi, 3'000, &error); }));
    worker->start();
    QVERIFY(QTest::qWaitFor([&] { return worker->isFinished(); }, 30'000));
    QTRY_COMPARE_WITH_TIMEOUT(keystore::keychainJobsRunning(), 0, 30'000);
    QVERIFY(!key);
    QVERIFY2(isNoServiceError(error), qPrintable(error));

    // The application's thread does not answer (blocked): the worker still returns, after its timeout.
    error.clear();
    worker.reset(
        QThread::create([&] { key = keystore::readKeychainBlocking(ProviderKind::OpenAi, 200, &error); }));
    worker->start();
    QVERIFY(worker->wait(30'000));                // no event processing here meanwhile
    QCOMPARE(keystore::keychainJobsRunning(), 1); // its job is queued here, not run
    QVERIFY(!key);
    QVERIFY2(error.contains(QLatin1String("no answer within 200 ms")), qPrintable(error));
    // The late job still runs on this thread, and finishes; its answer goes nowhere.
    QTRY_COMPARE_WITH_TIMEOUT(keystore::keychainJobsRunning(), 0, 30'000);
    QVERIFY(!key);
}

void TestKeyStore::noKeyGivesClearError()
{
    if (!noBus())
        QSKIP("CIU_TEST_KEYCHAIN_BUS is set: this machine has a secret service");
    QString error;
    QVERIFY(!ciu::createPlanBackend(optionsFor(QStringLiteral("anthropic")), &error));
    QVERIFY2(error.startsWith(QLatin1String(
                 "no API key for anthropic: set ANTHROPIC_API_KEY or store one in the keychain")),
             qPrintable(error));
    // Why the keychain did not help: no service.
    QVERIFY2(error.contains(QLatin1String("keychain: no keychain service is available")) ||
                 error.contains(QLatin1String("keychain: not available")),
             qPrintable(error));
    QVERIFY(error.contains(QLatin1String("nothing was sent")));
    // A keychain that answers "no key" says so.
    error.clear();
    QVERIFY(!ciu::createPlanBackendWith(
        optionsFor(QStringLiteral("anthropic")), &error,
        [](ProviderKind, QString*) { return std::optional<QString>(QString()); }));
    QVERIFY2(error.contains(QLatin1String("the keychain holds none")), qPrintable(error));
}

void TestKeyStore::environmentWinsOverKeychain()
{
    qputenv("ANTHROPIC_API_KEY", "sk-ant-from-env");
    int asked = 0;
    QString error;
    auto backend = ciu::createPlanBackendWith(
        optionsFor(QStringLiteral("anthropic")), &error, [&asked](ProviderKind, QString*) {
            ++asked;
            return std::optional<QString>(QStringLiteral("sk-ant-keychain"));
        });
    QVERIFY2(backend, qPrintable(error));
    QCOMPARE(asked, 0); // the keychain is not even read
    QVERIFY(backend->usesModel());
}

void TestKeyStore::keychainKeyOnlyToConfiguredHost()
{
    const QString secret = QStringLiteral("sk-ant-from-keychain-SECRET-42");
    ciu::test::FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(ciu::test::FakeApiServer::textReply(QStringLiteral("Nothing to do.")));
    qputenv("ANTHROPIC_BASE_URL", server.baseUrl().toString().toLatin1());
    LogCapture log;
    QString error;
    QList<ProviderKind> asked;
    auto backend = ciu::createPlanBackendWith(optionsFor(QStringLiteral("anthropic")), &error,
                                              [&](ProviderKind kind, QString*) {
                                                  asked.append(kind);
                                                  return std::optional<QString>(secret);
                                              });
    QVERIFY2(backend, qPrintable(error));
    QCOMPARE(asked.size(), 1);
    QVERIFY(asked.first() == ProviderKind::Anthropic);
    QVERIFY2(backend->begin(QStringLiteral("Click OK."), &error), qPrintable(error));
    ciu::Zone ok;
    ok.id = QStringLiteral("z1");
    ok.type = ciu::ZoneType::Button;
    ok.label = QStringLiteral("OK");
    ok.bounds = QRect(10, 10, 80, 30);
    ok.confidence = 0.9;
    ciu::WorldState world;
    world.map = std::make_shared<const ciu::ZoneMap>(1, 0, QSize(1280, 800), QList<ciu::Zone>{ok});
    world.screenSize = QSize(1280, 800);
    QSignalSpy decided(backend.get(), &ciu::PlanBackend::decided);
    backend->decide(world);
    QVERIFY(decided.wait(10'000));
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(server.lastRequest().header("x-api-key"),
             secret.toUtf8()); // to the configured host, and only there
    QVERIFY(!log.text().contains(secret));
    QVERIFY(log.text().contains(QLatin1String("comes from the keychain")));
}

void TestKeyStore::openAiWithoutKeyStillPlans()
{
    // Local OpenAI-compatible servers need no key: a missing keychain is not an error for them.
    qputenv("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1"); // the official host requires one
    QString error;
    auto backend = ciu::createPlanBackendWith(optionsFor(QStringLiteral("openai")), &error,
                                              [](ProviderKind, QString* e) {
                                                  *e = QStringLiteral("keychain: not available");
                                                  return std::optional<QString>();
                                              });
    QVERIFY2(backend, qPrintable(error));
    QCOMPARE(backend->name(), QStringLiteral("openai"));
}

void TestKeyStore::keychainRoundTrip()
{
    if (noBus())
        QSKIP("needs a secret service: set CIU_TEST_KEYCHAIN_BUS to a throw-away session bus running one "
              "(this test writes into it)");
    const QString key = QStringLiteral("kc-roundtrip-5a4b3c2d1e0f");
    bool called = false;
    QString error;
    keystore::writeKeychain(ProviderKind::OpenAi, key, this, [&](const QString&, const QString& e) {
        error = e;
        called = true;
    });
    QVERIFY(QTest::qWaitFor([&] { return called; }, 60'000));
    QVERIFY2(error.isEmpty(), qPrintable(error));

    QCOMPARE(keystore::readKeychainBlocking(ProviderKind::OpenAi, 30'000, &error),
             std::optional<QString>(key));

    called = false;
    keystore::deleteKeychain(ProviderKind::OpenAi, this, [&](const QString&, const QString& e) {
        error = e;
        called = true;
    });
    QVERIFY(QTest::qWaitFor([&] { return called; }, 60'000));
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(keystore::readKeychainBlocking(ProviderKind::OpenAi, 30'000, &error),
             std::optional<QString>(QString())); // gone: no key, no error
}

QTEST_GUILESS_MAIN(TestKeyStore)
namespace {
int modeOf(const QString& path)
{
    struct stat st = {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}
} // namespace

void TestKeyStore::keyFileIsPrivateAndReadBack()
{
    keystore::removeKeyFile(ProviderKind::Anthropic);
    QVERIFY(!keystore::keyFromFile(ProviderKind::Anthropic)); // none yet, and no error
    const QString path = keystore::keyFilePath(ProviderKind::Anthropic);
    QCOMPARE(path, m_dir.filePath(QStringLiteral("config/ciu-agent/keys/anthropic.key")));
    QString error;
    QVERIFY2(keystore::writeKeyFile(ProviderKind::Anthropic, QStringLiteral("sk-file-123"), &error),
             qPrintable(error));
    QCOMPARE(modeOf(path), 0600);
    QCOMPARE(modeOf(QFileInfo(path).absolutePath()), 0700);
    QCOMPARE(keystore::keyFromFile(ProviderKind::Anthropic, &error).value_or(QString()),
             QStringLiteral("sk-file-123"));
    QVERIFY(error.isEmpty());
    // Replaced: still owner-only, the new key read back.
    QVERIFY(keystore::writeKeyFile(ProviderKind::Anthropic, QStringLiteral("  sk-file-456\n"), &error));
    QCOMPARE(modeOf(path), 0600);
    QCOMPARE(keystore::keyFromFile(ProviderKind::Anthropic).value_or(QString()),
             QStringLiteral("sk-file-456"));
    // The providers' configuration takes it; the environment still wins.
    const auto config = keystore::configFor(ProviderKind::Anthropic, nullptr, &error);
    QVERIFY(config);
    QCOMPARE(config->apiKey, QStringLiteral("sk-file-456"));
    QVERIFY(!keystore::keyFromFile(ProviderKind::OpenAi)); // one file per provider
    keystore::LocalKey local = keystore::localKey(ProviderKind::Anthropic);
    QCOMPARE(local.key, QStringLiteral("sk-file-456"));
    QCOMPARE(int(local.origin), int(keystore::LocalKey::Origin::File));
    QCOMPARE(int(keystore::localKey(ProviderKind::OpenAi).origin), int(keystore::LocalKey::Origin::None));
    qputenv("ANTHROPIC_API_KEY", "sk-from-env");
    QCOMPARE(keystore::configFor(ProviderKind::Anthropic, nullptr)->apiKey, QStringLiteral("sk-from-env"));
    local = keystore::localKey(ProviderKind::Anthropic);
    QCOMPARE(local.key, QStringLiteral("sk-from-env"));
    QCOMPARE(int(local.origin), int(keystore::LocalKey::Origin::Environment));
    // Bad input: nothing written, the old key kept.
    error.clear();
    QVERIFY(!keystore::writeKeyFile(ProviderKind::Anthropic, QStringLiteral("   "), &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!keystore::writeKeyFile(ProviderKind::Anthropic, QStringLiteral("sk-a\nsk-b"), &error));
    QVERIFY(!error.contains(QLatin1String("sk-a")));
    QCOMPARE(keystore::keyFromFile(ProviderKind::Anthropic).value_or(QString()),
             QStringLiteral("sk-file-456"));
    QVERIFY(keystore::removeKeyFile(ProviderKind::Anthropic));
    QVERIFY(!QFileInfo::exists(path));
}

void TestKeyStore::keyFileReadableByOthersIsRefused()
{
    QString error;
    QVERIFY(keystore::writeKeyFile(ProviderKind::OpenAi, QStringLiteral("sk-open-789"), &error));
    const QString path = keystore::keyFilePath(ProviderKind::OpenAi);
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0644) == 0);
    QVERIFY(!keystore::keyFromFile(ProviderKind::OpenAi, &error));
    QVERIFY2(error.contains(QLatin1String("readable or writable by others")), qPrintable(error));
    QVERIFY(error.contains(path));
    QVERIFY(!error.contains(QLatin1String("sk-open-789")));
    // Nothing silently falls back: the configuration says why.
    error.clear();
    QVERIFY(!keystore::configFor(ProviderKind::OpenAi, nullptr, &error));
    QVERIFY2(error.contains(QLatin1String("chmod 600")), qPrintable(error));
    const keystore::LocalKey local = keystore::localKey(ProviderKind::OpenAi);
    QVERIFY(local.key.isEmpty());
    QCOMPARE(int(local.origin), int(keystore::LocalKey::Origin::None));
    QCOMPARE(local.error, error);
    // The environment's key wins without the file being read.
    qputenv("OPENAI_API_KEY", "sk-env-1");
    QCOMPARE(int(keystore::localKey(ProviderKind::OpenAi).origin),
             int(keystore::LocalKey::Origin::Environment));
    QVERIFY(keystore::localKey(ProviderKind::OpenAi).error.isEmpty());
    QVERIFY(keystore::removeKeyFile(ProviderKind::OpenAi));
}

#include "tst_keystore.moc"
