// director::configuredProvider, the one way the planner backends and the command line create a model
// provider: the key from the environment before the keychain, one rule for when a key is required, the
// errors a user sees, and the options. Requests go to a local fake API server only.

#include "core/providers/providerfactory.h"
#include "tests/support/fakeapiserver.h"

#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace ciu::director;

class TestProviderFactory : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void keyRule_data();
    void keyRule();
    void unknownProviderAndBadConfig();
    void anthropicWithoutKeyIsRefused();
    void officialOpenAiHostWithoutKeyIsRefused();
    void localOpenAiServerWithoutKey();
    void environmentWinsOverKeychain();
    void keychainKeyOnlyToConfiguredHost();
    void options();
};

namespace {

const char* const kVars[] = {"ANTHROPIC_API_KEY", "OPENAI_API_KEY",  "ANTHROPIC_BASE_URL",
                             "OPENAI_BASE_URL",   "CIU_PRICES_FILE", "CIU_ANTHROPIC_MODEL",
                             "CIU_OPENAI_MODEL"};

KeychainReader keychainAnswering(std::optional<QString> key, const QString& error = {}, int* asked = nullptr)
{
    return [key, error, asked](ProviderKind, QString* e) {
        if (asked)
            ++*asked;
        if (!key)
            *e = error;
        return key;
    };
}

// Sends one short request and waits for its answer.
ProviderResponse roundTrip(Provider& provider)
{
    ProviderRequest request;
    request.messages << Message::user(QStringLiteral("Hello"));
    request.maxTokens = 16;
    QSignalSpy finished(&provider, &Provider::finished);
    provider.send(request);
    if (!finished.wait(10'000))
        return {};
    return finished.first().at(1).value<ProviderResponse>();
}

} // namespace

void TestProviderFactory::init()
{
    for (const char* name : kVars)
        qunsetenv(name);
}

void TestProviderFactory::cleanup()
{
    init();
}

void TestProviderFactory::keyRule_data()
{
    QTest::addColumn<bool>("anthropic");
    QTest::addColumn<QString>("url");
    QTest::addColumn<bool>("required");
    QTest::newRow("anthropic official") << true << QStringLiteral("https://api.anthropic.com") << true;
    QTest::newRow("anthropic local") << true << QStringLiteral("http://127.0.0.1:8080") << true;
    QTest::newRow("openai official") << false << QStringLiteral("https://api.openai.com") << true;
    QTest::newRow("openai bare domain") << false << QStringLiteral("https://openai.com/v1") << true;
    QTest::newRow("openai-compatible at anthropic")
        << false << QStringLiteral("https://api.anthropic.com/v1") << true;
    QTest::newRow("openai local") << false << QStringLiteral("http://127.0.0.1:8080") << false;
    QTest::newRow("openai localhost") << false << QStringLiteral("http://localhost:11434") << false;
    QTest::newRow("lookalike host") << false << QStringLiteral("https://notopenai.com") << false;
}

void TestProviderFactory::keyRule()
{
    QFETCH(bool, anthropic);
    QFETCH(QString, url);
    QFETCH(bool, required);
    QCOMPARE(requiresApiKey(anthropic ? ProviderKind::Anthropic : ProviderKind::OpenAi, QUrl(url)), required);
}

void TestProviderFactory::unknownProviderAndBadConfig()
{
    QString error;
    QVERIFY(!configuredProvider(QStringLiteral("gemini"), {}, &error));
    QCOMPARE(error, QStringLiteral("unknown provider \"gemini\""));

    error.clear();
    qputenv("OPENAI_API_KEY", "sk-oa");
    qputenv("OPENAI_BASE_URL", "ftp://example.org");
    QVERIFY(!configuredProvider(QStringLiteral("openai"), {}, &error));
    QCOMPARE(error,
             QStringLiteral("the openai base URL from OPENAI_BASE_URL is not a valid http(s) URL without "
                            "user info"));
}

void TestProviderFactory::anthropicWithoutKeyIsRefused()
{
    // No keychain at all.
    QString error;
    QVERIFY(!configuredProvider(QStringLiteral("anthropic"), {}, &error));
    QCOMPARE(error, QStringLiteral("no API key for anthropic: set ANTHROPIC_API_KEY or store one in the "
                                   "keychain; nothing was sent"));
    // A keychain that is not available says why.
    error.clear();
    QVERIFY(!configuredProvider(QStringLiteral("anthropic"),
                                keychainAnswering(std::nullopt, QStringLiteral("keychain: not available")),
                                &error));
    QCOMPARE(error, QStringLiteral("no API key for anthropic: set ANTHROPIC_API_KEY or store one in the "
                                   "keychain (keychain: not available); nothing was sent"));
    // A keychain without a key (or a blank one) says so.
    for (const QString& stored : {QString(), QStringLiteral("  \n")}) {
        error.clear();
        QVERIFY(!configuredProvider(QStringLiteral("anthropic"), keychainAnswering(stored), &error));
        QCOMPARE(error, QStringLiteral("no API key for anthropic: set ANTHROPIC_API_KEY or store one in the "
                                       "keychain (the keychain holds none); nothing was sent"));
    }
}

void TestProviderFactory::officialOpenAiHostWithoutKeyIsRefused()
{
    // The default base URL is the official API, which refuses requests without a key.
    QString error;
    QVERIFY(!configuredProvider(QStringLiteral("openai"), keychainAnswering(QString()), &error));
    QCOMPARE(error, QStringLiteral("no API key for openai: set OPENAI_API_KEY or store one in the keychain "
                                   "(the keychain holds none); nothing was sent"));
}

void TestProviderFactory::localOpenAiServerWithoutKey()
{
    // Local OpenAI-compatible servers (llama.cpp, Ollama) take no key: an unavailable keychain is no error.
    ciu::test::FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(ciu::test::FakeApiServer::chatReply(QStringLiteral("Hi.")));
    qputenv("OPENAI_BASE_URL", server.baseUrl().toString().toLatin1());
    int asked = 0;
    QString error;
    auto provider = configuredProvider(
        QStringLiteral("openai-compatible"),
        keychainAnswering(std::nullopt, QStringLiteral("keychain: not available"), &asked), &error);
    QVERIFY2(provider, qPrintable(error));
    QCOMPARE(asked, 1);
    QVERIFY(provider->kind() == ProviderKind::OpenAi);
    QVERIFY(provider->config().apiKey.isEmpty());
    const ProviderResponse response = roundTrip(*provider);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.text(), QStringLiteral("Hi."));
    QCOMPARE(server.requestCount(), 1);
    QVERIFY(server.lastRequest().header("authorization").isEmpty());
}

void TestProviderFactory::environmentWinsOverKeychain()
{
    qputenv("ANTHROPIC_API_KEY", "sk-ant-from-env");
    int asked = 0;
    QString error;
    auto provider =
        configuredProvider(QStringLiteral("anthropic"),
                           keychainAnswering(QStringLiteral("sk-ant-keychain"), {}, &asked), &error);
    QVERIFY2(provider, qPrintable(error));
    QCOMPARE(asked, 0); // the keychain is not even read
    QVERIFY(provider->kind() == ProviderKind::Anthropic);
    QCOMPARE(provider->config().apiKey, QStringLiteral("sk-ant-from-env"));
}

void TestProviderFactory::keychainKeyOnlyToConfiguredHost()
{
    const QString secret = QStringLiteral("sk-ant-from-keychain-SECRET-7");
    ciu::test::FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(ciu::test::FakeApiServer::textReply(QStringLiteral("Hello back.")));
    qputenv("ANTHROPIC_BASE_URL", server.baseUrl().toString().toLatin1());
    QString error;
    auto provider =
        configuredProvider(QStringLiteral("anthropic"),
                           keychainAnswering(QStringLiteral("  ") + secret + QStringLiteral("\n")), &error);
    QVERIFY2(provider, qPrintable(error));
    QCOMPARE(provider->config().apiKey, secret); // trimmed
    QCOMPARE(provider->config().baseUrl, server.baseUrl());
    const ProviderResponse response = roundTrip(*provider);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.text(), QStringLiteral("Hello back."));
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(server.lastRequest().header("x-api-key"), secret.toUtf8());
}

void TestProviderFactory::options()
{
    qputenv("OPENAI_API_KEY", "sk-oa");
    QString error;
    auto plain = configuredProvider(QStringLiteral("openai"), {}, &error);
    QVERIFY2(plain, qPrintable(error));
    QCOMPARE(plain->config().maxRetryDelayMs, ProviderConfig().maxRetryDelayMs);
    QCOMPARE(plain->config().baseUrl, QUrl(QStringLiteral("https://api.openai.com")));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QSettings settings(dir.filePath(QStringLiteral("ciu.ini")), QSettings::IniFormat);
    settings.setValue(QStringLiteral("providers/openai/baseUrl"), QStringLiteral("http://127.0.0.1:9/v1"));
    ProviderFactoryOptions options;
    options.settings = &settings;
    options.maxRetryDelayMs = 10'000;
    auto tuned = configuredProvider(QStringLiteral("openai"), {}, &error, options);
    QVERIFY2(tuned, qPrintable(error));
    QCOMPARE(tuned->config().maxRetryDelayMs, 10'000);
    QCOMPARE(tuned->config().baseUrl, QUrl(QStringLiteral("http://127.0.0.1:9/v1")));
    QCOMPARE(tuned->config().apiKey, QStringLiteral("sk-oa"));
}

QTEST_GUILESS_MAIN(TestProviderFactory)
#include "tst_providerfactory.moc"
