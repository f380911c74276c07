#include "core/providers/openaiprovider.h"
#include "providertestutil.h"
#include "tests/support/fakeapiserver.h"

#include <QBuffer>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSignalSpy>
#include <QTest>

using namespace ciu::director;
using ciu::test::FakeApiServer;

using namespace ciu::test;

namespace {
const QString kKey = QStringLiteral("sk-openai-test-SECRET-987654321");

ProviderConfig configFor(const FakeApiServer& server)
{
    ProviderConfig config = providerConfigFor(server, kKey, QStringLiteral("gpt-4o"));
    const auto prices =
        PriceTable::fromJson(R"({"models": {"gpt-4o": {"input": 2.5, "cache_read": 1.25, "output": 10}}})");
    config.prices = prices ? *prices : PriceTable{};
    return config;
}

QImage screen(QSize size)
{
    return filledScreen(size, Qt::darkGreen);
}
} // namespace

class TestOpenAiProvider : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void requestShapeAndToolChain();
    void streamingWithToolCall();
    void finishReasons_data();
    void finishReasons();
    void retriesAndErrors();
    void malformedAndBadArguments();
    void usageWithCachedTokens();
    void hostileUsageIsClamped();
    void keylessLocalServerAndV1Base();
    void keyNeverInErrors();
    void embeddingsRequestAndVectors();
    void embeddingsByIndexAndDefaults();
    void embeddingsErrors_data();
    void embeddingsErrors();
    void embeddingsRetryAndRefusals();

private:
    std::unique_ptr<FakeApiServer> m_server;
};

void TestOpenAiProvider::init()
{
    m_server = std::make_unique<FakeApiServer>();
    QVERIFY(m_server->start());
}

void TestOpenAiProvider::requestShapeAndToolChain()
{
    m_server->enqueue(
        FakeApiServer::chatToolCallReply(QStringLiteral("computer"),
                                         QJsonObject{{QStringLiteral("action"), QStringLiteral("left_click")},
                                                     {QStringLiteral("coordinate"), QJsonArray{100, 200}}},
                                         QStringLiteral("call_1")));
    m_server->enqueue(FakeApiServer::chatReply(QStringLiteral("All done.")));
    OpenAiProvider provider(configFor(*m_server));
    ProviderRequest request = simpleRequest();
    request.tools = {
        ToolDefinition::computer(QSize(2560, 1600)),
        ToolDefinition::function(QStringLiteral("task_complete"), QStringLiteral("The task is done"), {})};
    request.toolChoice = ToolChoice{ToolChoice::Mode::Any, {}, true};

    ProviderResponse response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    COMPARE_ENUM(response.stopReason, StopReason::ToolUse);
    QCOMPARE(response.toolUses().size(), 1);
    const ContentBlock call = response.toolUses().at(0);
    QCOMPARE(call.id, QStringLiteral("call_1"));
    QCOMPARE(call.name, QStringLiteral("computer"));
    QCOMPARE(call.input.value(QStringLiteral("coordinate")).toArray(), (QJsonArray{100, 200}));
    // 2560×1600 is 16:10: WXGA, coordinates map back ×2.
    QCOMPARE(response.scaler.toScreen(QPoint(100, 200)), QPoint(200, 400));

    const auto& first = m_server->lastRequest();
    QCOMPARE(first.path, QByteArray("/v1/chat/completions"));
    QCOMPARE(first.header("authorization"), QByteArray("Bearer " + kKey.toUtf8()));
    QVERIFY(first.header("x-api-key").isEmpty());
    QCOMPARE(first.json.value(QStringLiteral("model")).toString(), QStringLiteral("gpt-4o"));
    QCOMPARE(first.json.value(QStringLiteral("tool_choice")).toString(), QStringLiteral("required"));
    QCOMPARE(first.json.value(QStringLiteral("parallel_tool_calls")).toBool(true), false);
    const QJsonArray tools = first.json.value(QStringLiteral("tools")).toArray();
    QCOMPARE(tools.size(), 2);
    const QJsonObject computer = tools.at(0).toObject().value(QStringLiteral("function")).toObject();
    QCOMPARE(tools.at(0).toObject().value(QStringLiteral("type")).toString(), QStringLiteral("function"));
    QCOMPARE(computer.value(QStringLiteral("name")).toString(), QStringLiteral("computer"));
    QVERIFY(computer.value(QStringLiteral("description")).toString().contains(QLatin1String("1280x800")));
    QVERIFY(computer.value(QStringLiteral("parameters"))
                .toObject()
                .value(QStringLiteral("properties"))
                .toObject()
                .contains(QStringLiteral("coordinate")));
    const QJsonArray firstMessages = messagesOf(first);
    QCOMPARE(firstMessages.at(0).toObject().value(QStringLiteral("role")).toString(),
             QStringLiteral("system"));
    QCOMPARE(firstMessages.at(1).toObject().value(QStringLiteral("content")).toString(),
             QStringLiteral("Open the Settings app."));

    // Round trip: the tool call, then its result with a screenshot.
    request.messages.append(response.assistantMessage());
    request.messages.append(Message::user({ContentBlock::makeToolResult(
        QStringLiteral("call_1"), {ContentBlock::makeText(QStringLiteral("clicked")),
                                   ContentBlock::makeImage(screen(QSize(2560, 1600)))})}));
    response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.text(), QStringLiteral("All done."));
    COMPARE_ENUM(response.stopReason, StopReason::EndTurn);

    const QJsonArray messages = messagesOf(m_server->lastRequest());
    QCOMPARE(messages.size(), 5); // system, user, assistant(tool_calls), tool, user(image)
    const QJsonObject assistant = messages.at(2).toObject();
    QCOMPARE(assistant.value(QStringLiteral("role")).toString(), QStringLiteral("assistant"));
    const QJsonObject toolCall = assistant.value(QStringLiteral("tool_calls")).toArray().at(0).toObject();
    QCOMPARE(toolCall.value(QStringLiteral("id")).toString(), QStringLiteral("call_1"));
    const QJsonObject arguments = QJsonDocument::fromJson(toolCall.value(QStringLiteral("function"))
                                                              .toObject()
                                                              .value(QStringLiteral("arguments"))
                                                              .toString()
                                                              .toUtf8())
                                      .object();
    QCOMPARE(arguments.value(QStringLiteral("action")).toString(), QStringLiteral("left_click"));
    const QJsonObject tool = messages.at(3).toObject();
    QCOMPARE(tool.value(QStringLiteral("role")).toString(), QStringLiteral("tool"));
    QCOMPARE(tool.value(QStringLiteral("tool_call_id")).toString(), QStringLiteral("call_1"));
    QVERIFY(tool.value(QStringLiteral("content")).toString().startsWith(QLatin1String("clicked")));
    const QJsonObject user = messages.at(4).toObject();
    QCOMPARE(user.value(QStringLiteral("role")).toString(), QStringLiteral("user"));
    const QJsonArray parts = user.value(QStringLiteral("content")).toArray();
    QCOMPARE(parts.size(), 2);
    const QString url = parts.at(1)
                            .toObject()
                            .value(QStringLiteral("image_url"))
                            .toObject()
                            .value(QStringLiteral("url"))
                            .toString();
    QVERIFY(url.startsWith(QLatin1String("data:image/png;base64,")));
    QBuffer buffer;
    buffer.setData(QByteArray::fromBase64(url.mid(url.indexOf(QLatin1Char(',')) + 1).toLatin1()));
    QImageReader reader(&buffer, "png");
    QCOMPARE(reader.read().size(), QSize(1280, 800));
}

void TestOpenAiProvider::streamingWithToolCall()
{
    m_server->enqueue(
        FakeApiServer::chatStream(QStringLiteral("Let me click that."), QStringLiteral("click_zone"),
                                  QJsonObject{{QStringLiteral("zone_id"), QStringLiteral("z42")},
                                              {QStringLiteral("note"), QStringLiteral("äö ✓")}},
                                  FakeApiServer::chatUsage(500, 40)));
    OpenAiProvider provider(configFor(*m_server));
    QSignalSpy deltas(&provider, &Provider::textDelta);
    ProviderRequest request = simpleRequest();
    request.stream = true;
    const ProviderResponse response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(m_server->lastRequest().json.value(QStringLiteral("stream")).toBool(), true);
    QCOMPARE(m_server->lastRequest()
                 .json.value(QStringLiteral("stream_options"))
                 .toObject()
                 .value(QStringLiteral("include_usage"))
                 .toBool(),
             true);
    QCOMPARE(response.text(), QStringLiteral("Let me click that."));
    COMPARE_ENUM(response.stopReason, StopReason::ToolUse);
    const ContentBlock call = response.toolUses().at(0);
    QCOMPARE(call.id, QStringLiteral("call_stream_1"));
    QCOMPARE(call.name, QStringLiteral("click_zone"));
    QCOMPARE(call.input.value(QStringLiteral("zone_id")).toString(), QStringLiteral("z42"));
    QCOMPARE(call.input.value(QStringLiteral("note")).toString(), QStringLiteral("äö ✓"));
    QCOMPARE(response.usage.inputTokens, 500);
    QCOMPARE(response.usage.outputTokens, 40);
    QString streamed;
    for (const auto& args : deltas)
        streamed += args.at(1).toString();
    QCOMPARE(streamed, QStringLiteral("Let me click that."));
}

void TestOpenAiProvider::finishReasons_data()
{
    QTest::addColumn<QString>("wire");
    QTest::addColumn<StopReason>("expected");
    QTest::newRow("stop") << QStringLiteral("stop") << StopReason::EndTurn;
    QTest::newRow("length") << QStringLiteral("length") << StopReason::MaxTokens;
    QTest::newRow("tool_calls") << QStringLiteral("tool_calls") << StopReason::ToolUse;
    QTest::newRow("content_filter") << QStringLiteral("content_filter") << StopReason::Refusal;
    QTest::newRow("other") << QStringLiteral("whatever") << StopReason::Unknown;
}

void TestOpenAiProvider::finishReasons()
{
    QFETCH(QString, wire);
    QFETCH(StopReason, expected);
    m_server->enqueue(FakeApiServer::chatReply(QStringLiteral("x"), wire));
    OpenAiProvider provider(configFor(*m_server));
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    COMPARE_ENUM(response.stopReason, expected);
    QCOMPARE(response.stopReasonText, wire);
}

void TestOpenAiProvider::retriesAndErrors()
{
    OpenAiProvider provider(configFor(*m_server));
    // 429 with retry-after-ms, then success.
    m_server->enqueue(
        FakeApiServer::chatError(429, QStringLiteral("rate_limit_exceeded"), QStringLiteral("slow down"),
                                 {{QByteArrayLiteral("retry-after-ms"), QByteArrayLiteral("5")}}));
    m_server->enqueue(FakeApiServer::chatReply(QStringLiteral("ok")));
    ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(m_server->requestCount(), 2);

    // 500 three times: a clean error after 3 attempts.
    m_server->reset();
    for (int i = 0; i < 3; ++i)
        m_server->enqueue(
            FakeApiServer::chatError(500, QStringLiteral("server_error"), QStringLiteral("boom")));
    response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::Server);
    QCOMPARE(response.attempts, 3);
    QCOMPARE(m_server->requestCount(), 3);
    QVERIFY(response.errorMessage.contains(QLatin1String("server_error: boom")));

    // 400: not retried.
    m_server->reset();
    m_server->enqueue(
        FakeApiServer::chatError(400, QStringLiteral("invalid_request_error"), QStringLiteral("bad tools")));
    response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::InvalidRequest);
    QCOMPARE(m_server->requestCount(), 1);

    // A dropped connection, then success.
    m_server->reset();
    m_server->enqueue(FakeApiServer::dropConnection());
    m_server->enqueue(FakeApiServer::chatReply(QStringLiteral("ok")));
    response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(m_server->requestCount(), 2);
}

void TestOpenAiProvider::malformedAndBadArguments()
{
    OpenAiProvider provider(configFor(*m_server));
    m_server->enqueue(FakeApiServer::malformedJson());
    ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::MalformedResponse);
    QCOMPARE(m_server->requestCount(), 1);

    // No choices.
    m_server->enqueue(FakeApiServer::message(QJsonObject{{QStringLiteral("id"), QStringLiteral("x")}}));
    response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::MalformedResponse);
    QVERIFY(response.errorMessage.contains(QLatin1String("no choices")));

    // Tool arguments that are not JSON: the call is kept, flagged for an is_error answer.
    const QJsonObject call{{QStringLiteral("id"), QStringLiteral("call_bad")},
                           {QStringLiteral("type"), QStringLiteral("function")},
                           {QStringLiteral("function"),
                            QJsonObject{{QStringLiteral("name"), QStringLiteral("click_zone")},
                                        {QStringLiteral("arguments"), QStringLiteral("{zone: z1")}}}};
    m_server->enqueue(FakeApiServer::message(
        FakeApiServer::chatCompletionJson(QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                                      {QStringLiteral("tool_calls"), QJsonArray{call}}},
                                          QStringLiteral("tool_calls"))));
    response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.toolUses().size(), 1);
    QVERIFY(!response.toolUses().at(0).inputError.isEmpty());
}

void TestOpenAiProvider::usageWithCachedTokens()
{
    m_server->enqueue(FakeApiServer::chatReply(QStringLiteral("x"), QStringLiteral("stop"),
                                               FakeApiServer::chatUsage(1'000'000, 1'000'000, 400'000)));
    OpenAiProvider provider(configFor(*m_server));
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.usage.inputTokens, 600'000);
    QCOMPARE(response.usage.cacheReadInputTokens, 400'000);
    QCOMPARE(response.usage.totalInputTokens(), 1'000'000);
    QCOMPARE(response.usage.outputTokens, 1'000'000);
    // Cost follows the model that answered; for gpt-4o: 0.6·2.5 + 0.4·1.25 + 1·10 = 12 USD.
    QVERIFY(!response.usage.costKnown); // "fake-model" is not in the table
    QCOMPARE(response.model, QStringLiteral("fake-model"));

    PriceTable table = configFor(*m_server).prices;
    Usage usage = response.usage;
    table.applyCost(QStringLiteral("gpt-4o-2024-08-06"), usage);
    QVERIFY(usage.costKnown);
    QVERIFY(qAbs(usage.costUsd - 12.0) < 1e-9);
}

// Usage is untrusted: negative or absurd counts never give a negative cost or a wrapped total.
void TestOpenAiProvider::hostileUsageIsClamped()
{
    m_server->enqueue(
        FakeApiServer::chatReply(QStringLiteral("x"), QStringLiteral("stop"),
                                 QJsonObject{{QStringLiteral("prompt_tokens"), -1e8},
                                             {QStringLiteral("completion_tokens"), 1e300},
                                             {QStringLiteral("prompt_tokens_details"),
                                              QJsonObject{{QStringLiteral("cached_tokens"), -5}}}}));
    OpenAiProvider provider(configFor(*m_server));
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.usage.inputTokens, 0);
    QCOMPARE(response.usage.cacheReadInputTokens, 0);
    QCOMPARE(response.usage.outputTokens, kMaxReportedTokens);
    PriceTable table = configFor(*m_server).prices;
    Usage usage = response.usage;
    table.applyCost(QStringLiteral("gpt-4o-2024-08-06"), usage);
    QVERIFY(qAbs(usage.costUsd - 1000.0) < 1e-6); // 1e8 output tokens at $10 per MTok
}

void TestOpenAiProvider::keylessLocalServerAndV1Base()
{
    ProviderConfig config = configFor(*m_server);
    config.apiKey.clear();
    QUrl base = m_server->baseUrl();
    base.setPath(QStringLiteral("/v1/"));
    config.baseUrl = base; // Ollama style: http://localhost:11434/v1
    m_server->enqueue(FakeApiServer::chatReply(QStringLiteral("local")));
    OpenAiProvider provider(config);
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(m_server->lastRequest().path, QByteArray("/v1/chat/completions"));
    QVERIFY(m_server->lastRequest().header("authorization").isEmpty());
}

void TestOpenAiProvider::keyNeverInErrors()
{
    m_server->enqueue(FakeApiServer::chatError(401, QStringLiteral("invalid_api_key"),
                                               QStringLiteral("Incorrect API key provided: ") + kKey));
    m_server->enqueue(
        FakeApiServer::redirect(QUrl(QStringLiteral("https://elsewhere.invalid/v1/chat/completions"))));
    OpenAiProvider provider(configFor(*m_server));
    ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::Authentication);
    QVERIFY(!response.errorMessage.contains(kKey));
    QVERIFY(response.errorMessage.contains(QLatin1String("Incorrect API key")));
    response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::RedirectRefused);
    QCOMPARE(m_server->requestCount(), 2);
}

namespace {
const QString kEmbeddingModel = QStringLiteral("text-embedding-3-small");

ProviderRequest embeddingRequest(const QStringList& texts)
{
    ProviderRequest request;
    request.embeddingInputs = texts;
    return request;
}

ProviderConfig embeddingConfigFor(const FakeApiServer& server)
{
    ProviderConfig config = configFor(server);
    config.embeddingModel = kEmbeddingModel;
    return config;
}

QByteArray body(const char* json)
{
    return QByteArray(json);
}
} // namespace

void TestOpenAiProvider::embeddingsRequestAndVectors()
{
    m_server->setEmbedding(QStringLiteral("open the file menu"), {0.25, -0.5, 1.0});
    m_server->setEmbedding(QStringLiteral("save the report"), {1.0, 0.0, -0.125});
    OpenAiProvider provider(embeddingConfigFor(*m_server));
    const ProviderResponse response = sendAndWait(
        provider,
        embeddingRequest({QStringLiteral("open the file menu"), QStringLiteral("save the report")}));
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    // The wire: POST /v1/embeddings, the model and the texts in order, the key as a bearer token.
    QCOMPARE(m_server->requestCount(), 1);
    const FakeApiServer::Request& sent = m_server->lastRequest();
    QCOMPARE(sent.method, QByteArray("POST"));
    QCOMPARE(sent.path, QByteArray("/v1/embeddings"));
    QCOMPARE(sent.header("authorization"), QByteArray("Bearer " + kKey.toUtf8()));
    QCOMPARE(sent.header("accept"), QByteArray("application/json"));
    QCOMPARE(sent.body, QByteArray(R"({"input":["open the file menu","save the report"],)"
                                   R"("model":"text-embedding-3-small"})"));
    // The vectors read back, in input order; model and usage from the reply.
    QCOMPARE(response.embeddings.size(), 2);
    QCOMPARE(response.embeddings.at(0), (QList<double>{0.25, -0.5, 1.0}));
    QCOMPARE(response.embeddings.at(1), (QList<double>{1.0, 0.0, -0.125}));
    QCOMPARE(response.model, kEmbeddingModel);
    QCOMPARE(response.usage.inputTokens, 7); // the fake server counts words
    QCOMPARE(response.usage.outputTokens, 0);
    QVERIFY(response.content.isEmpty());
    // An explicit model wins over the configured one.
    ProviderRequest other = embeddingRequest({QStringLiteral("x")});
    other.model = QStringLiteral("nomic-embed-text");
    QVERIFY(sendAndWait(provider, other).ok());
    QCOMPARE(m_server->lastRequest().json.value(QStringLiteral("model")).toString(),
             QStringLiteral("nomic-embed-text"));
    // A chat call of the same provider still goes to chat completions with the chat model.
    m_server->enqueue(FakeApiServer::chatReply(QStringLiteral("ok")));
    QVERIFY(sendAndWait(provider, simpleRequest()).ok());
    QCOMPARE(m_server->lastRequest().path, QByteArray("/v1/chat/completions"));
    QCOMPARE(m_server->lastRequest().json.value(QStringLiteral("model")).toString(),
             QStringLiteral("gpt-4o"));
}

void TestOpenAiProvider::embeddingsByIndexAndDefaults()
{
    OpenAiProvider provider(embeddingConfigFor(*m_server));
    // The data in another order than the inputs: placed by "index".
    FakeApiServer::Step reversed;
    reversed.body = body(R"({"object":"list","model":"m","data":[)"
                         R"({"object":"embedding","index":1,"embedding":[2,3]},)"
                         R"({"object":"embedding","index":0,"embedding":[4,5]}],)"
                         R"("usage":{"prompt_tokens":4,"total_tokens":4}})");
    m_server->enqueueEmbeddings(reversed);
    ProviderResponse response =
        sendAndWait(provider, embeddingRequest({QStringLiteral("a"), QStringLiteral("b")}));
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.embeddings, (QList<QList<double>>{{4, 5}, {2, 3}}));
    // The default vectors: derived from the words, the same for the same text, unit length.
    response = sendAndWait(provider, embeddingRequest({QStringLiteral("Click OK"), QStringLiteral("click ok"),
                                                       QStringLiteral("type Ada")}));
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.embeddings.at(0), FakeApiServer::defaultEmbedding(QStringLiteral("click ok")));
    QCOMPARE(response.embeddings.at(0), response.embeddings.at(1));
    QCOMPARE(response.embeddings.at(0).size(), FakeApiServer::kDefaultEmbeddingDimension);
    double norm = 0;
    for (const double v : response.embeddings.at(2))
        norm += v * v;
    QCOMPARE(norm, 1.0);
}

void TestOpenAiProvider::embeddingsErrors_data()
{
    QTest::addColumn<QByteArray>("reply");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << body(R"({"object":"list","data":[)")
                              << QStringLiteral("malformed response: the body is not a JSON object");
    QTest::newRow("no data") << body(R"({"object":"list"})")
                             << QStringLiteral(
                                    "malformed response: the embeddings reply has no \"data\" list");
    QTest::newRow("wrong count") << body(R"({"data":[{"index":0,"embedding":[1,2]}]})")
                                 << QStringLiteral(
                                        "malformed response: wrong vector count: 1 vectors for 2 texts");
    QTest::newRow("dimension mismatch")
        << body(R"({"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1,2,3]}]})")
        << QStringLiteral("malformed response: dimension mismatch: vector 1 has 3 numbers, vector 0 has 2");
    QTest::newRow("repeated index")
        << body(R"({"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[1,2]}]})")
        << QStringLiteral("malformed response: vector 1 has a wrong or repeated index 0");
    QTest::newRow("base64")
        << body(R"({"data":[{"index":0,"embedding":"AAAA"},{"index":1,"embedding":[1]}]})")
        << QStringLiteral("malformed response: vector 0 is base64 text, not a list of numbers");
    QTest::newRow("not a number")
        << body(R"({"data":[{"index":0,"embedding":[1,"x"]},{"index":1,"embedding":[1,2]}]})")
        << QStringLiteral("malformed response: vector 0 holds something that is not a number");
    QTest::newRow("empty vector")
        << body(R"({"data":[{"index":0,"embedding":[]},{"index":1,"embedding":[1]}]})")
        << QStringLiteral("malformed response: vector 0 is not a list of numbers");
}

void TestOpenAiProvider::embeddingsErrors()
{
    QFETCH(QByteArray, reply);
    QFETCH(QString, message);
    FakeApiServer::Step step;
    step.body = reply;
    m_server->enqueueEmbeddings(step);
    OpenAiProvider provider(embeddingConfigFor(*m_server));
    const ProviderResponse response =
        sendAndWait(provider, embeddingRequest({QStringLiteral("a"), QStringLiteral("b")}));
    COMPARE_ENUM(response.error, ProviderError::MalformedResponse);
    QVERIFY2(response.errorMessage.startsWith(message), qPrintable(response.errorMessage));
    QVERIFY(response.embeddings.isEmpty());
    QCOMPARE(m_server->requestCount(), 1); // a malformed reply is not retried
}

void TestOpenAiProvider::embeddingsRetryAndRefusals()
{
    OpenAiProvider provider(embeddingConfigFor(*m_server));
    // Retried like a chat call: 500, then 429 with retry-after-ms, then the vectors.
    m_server->enqueueEmbeddings(
        FakeApiServer::chatError(500, QStringLiteral("server_error"), QStringLiteral("boom")));
    m_server->enqueueEmbeddings(
        FakeApiServer::chatError(429, QStringLiteral("rate_limit_exceeded"), QStringLiteral("slow down"),
                                 {{QByteArrayLiteral("retry-after-ms"), QByteArrayLiteral("5")}}));
    ProviderResponse response = sendAndWait(provider, embeddingRequest({QStringLiteral("a")}));
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.attempts, 3);
    QCOMPARE(m_server->requestCount(), 3);
    QCOMPARE(m_server->lastRequest().header("x-stainless-retry-count"), QByteArray("2"));
    // An HTTP error that is not retried says what the server said; the key never shows.
    m_server->reset();
    m_server->enqueueEmbeddings(FakeApiServer::chatError(
        401, QStringLiteral("invalid_api_key"), QStringLiteral("Incorrect API key provided: ") + kKey));
    response = sendAndWait(provider, embeddingRequest({QStringLiteral("a")}));
    COMPARE_ENUM(response.error, ProviderError::Authentication);
    QCOMPARE(response.errorMessage,
             QStringLiteral("HTTP 401 invalid_api_key: Incorrect API key provided: [redacted]"));
    QCOMPARE(m_server->requestCount(), 1);
    // Embeddings do not take a chat step's turn: the scripted chat reply is still there afterwards.
    m_server->reset();
    m_server->enqueue(FakeApiServer::chatReply(QStringLiteral("chat")));
    QVERIFY(sendAndWait(provider, embeddingRequest({QStringLiteral("a")})).ok());
    QCOMPARE(m_server->pendingSteps(), 1);
    // No embedding model configured: nothing is sent, no model name is made up.
    m_server->reset();
    OpenAiProvider noModel(configFor(*m_server));
    response = sendAndWait(noModel, embeddingRequest({QStringLiteral("a")}));
    COMPARE_ENUM(response.error, ProviderError::InvalidRequest);
    QCOMPARE(response.errorMessage, QStringLiteral("no embedding model configured"));
    QCOMPARE(m_server->requestCount(), 0);
}

QTEST_GUILESS_MAIN(TestOpenAiProvider)
#include "tst_openaiprovider.moc"
