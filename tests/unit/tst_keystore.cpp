#include "core/director/providers/keystore.h"

#include <QElapsedTimer>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu::director;

class TestKeyStore : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void keyFromEnvironment();
    void baseUrlPrecedence();
    void badBaseUrls_data();
    void badBaseUrls();
    void configAndPrices();
    void createProviderAndKinds();
    void keychainAnswersWithoutCrashing();

private:
    QTemporaryDir m_dir;
};

namespace {
const char* const kVars[] = {"ANTHROPIC_API_KEY", "OPENAI_API_KEY",  "ANTHROPIC_BASE_URL",
                             "OPENAI_BASE_URL",   "CIU_PRICES_FILE", "CIU_ANTHROPIC_MODEL",
                             "CIU_OPENAI_MODEL"};
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
    // Headless machines usually have no keychain service: the callback reports an error or no key, the key
    // store never blocks the caller.
    bool called = false;
    QString key;
    QString error;
    QElapsedTimer clock;
    clock.start();
    keystore::readKeychain(ProviderKind::Anthropic, this, [&](const QString& k, const QString& e) {
        called = true;
        key = k;
        error = e;
    });
    QVERIFY(clock.elapsed() < 5000); // asynchronous: returns at once
    QVERIFY(QTest::qWaitFor([&] { return called; }, 60'000));
    if (!error.isEmpty())
        QVERIFY(error.startsWith(QLatin1String("keychain:")));
}

QTEST_GUILESS_MAIN(TestKeyStore)
#include "tst_keystore.moc"
