#include "core/model/workerthread.h"
#include "core/providers/anthropicprovider.h"
#include "providertestutil.h"
#include "tests/support/fakeapiserver.h"

#include <QBuffer>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

#include <algorithm>
#include <limits>

using namespace ciu::director;
using ciu::test::FakeApiServer;

using namespace ciu::test;

namespace {
const QString kKey = QStringLiteral("sk-ant-test-SECRET-0123456789");

ProviderConfig configFor(const FakeApiServer& server)
{
    return providerConfigFor(server, kKey, QStringLiteral("claude-sonnet-4-5"));
}

QImage screen(QSize size, QColor color = Qt::darkCyan)
{
    return filledScreen(size, color);
}
} // namespace

class TestAnthropicProvider : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void requestHeadersAndBody();
    void onlyRecentScreenshotsAndCacheBreakpoints();
    void toolUseChainRoundTrips();
    void streaming_data();
    void streaming();
    void streamErrorEvent();
    void rateLimitRetriedWithRetryAfter();
    void transientErrorsRetried_data();
    void transientErrorsRetried();
    void threeFailuresGiveCleanError();
    void nonRetryableErrors_data();
    void nonRetryableErrors();
    void timeoutRetriedThenError();
    void stalledStreamIdleTimeout();
    void stalledBodyIdleTimeout();
    void retryBudgetEndsTheCall();
    void hugeReplyIsNotRead();
    void droppedConnectionRetried();
    void malformedJsonIsCleanError();
    void stopReasons_data();
    void stopReasons();
    void pauseTurnContinues();
    void thinkingEchoedUnchanged();
    void usageAndCost();
    void hostileUsageIsClamped();
    void keyNeverInErrors();
    void noKeyNothingSent();
    void redirectToOtherHostRefused();
    void redirectToSameHostRefused();
    void cancel();
    void badRequestInput();
    void workerThread();

private:
    std::unique_ptr<FakeApiServer> m_server;
};

void TestAnthropicProvider::init()
{
    m_server = std::make_unique<FakeApiServer>();
    QVERIFY(m_server->start());
}

void TestAnthropicProvider::requestHeadersAndBody()
{
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("Done.")));
    AnthropicProvider provider(configFor(*m_server));
    ProviderRequest request = simpleRequest();
    request.tools = {
        ToolDefinition::computer(QSize(1920, 1080), ComputerToolVersion::V20250124, 1),
        ToolDefinition::function(
            QStringLiteral("click_zone"), QStringLiteral("Click a zone from the zone map"),
            QJsonObject{{QStringLiteral("type"), QStringLiteral("object")},
                        {QStringLiteral("properties"),
                         QJsonObject{{QStringLiteral("zone_id"),
                                      QJsonObject{{QStringLiteral("type"), QStringLiteral("string")}}}}},
                        {QStringLiteral("required"), QJsonArray{QStringLiteral("zone_id")}}})};
    request.messages = {Message::user({ContentBlock::makeText(QStringLiteral("Look:")),
                                       ContentBlock::makeImage(screen(QSize(1920, 1080)))})};
    const ProviderResponse response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.text(), QStringLiteral("Done."));
    COMPARE_ENUM(response.stopReason, StopReason::EndTurn);
    QVERIFY(response.apiRequestId.startsWith(QLatin1String("req_fake_")));
    QCOMPARE(response.attempts, 1);

    QCOMPARE(m_server->requestCount(), 1);
    const auto& r = m_server->lastRequest();
    QCOMPARE(r.method, QByteArray("POST"));
    QCOMPARE(r.path, QByteArray("/v1/messages"));
    QCOMPARE(r.header("x-api-key"), kKey.toUtf8());
    QCOMPARE(r.header("anthropic-version"), QByteArray("2023-06-01"));
    QCOMPARE(r.header("anthropic-beta"), QByteArray("computer-use-2025-01-24"));
    QVERIFY(r.header("content-type").startsWith("application/json"));
    QVERIFY(r.header("authorization").isEmpty());

    const QJsonObject body = r.json;
    QCOMPARE(body.value(QStringLiteral("model")).toString(), QStringLiteral("claude-sonnet-4-5"));
    QCOMPARE(body.value(QStringLiteral("max_tokens")).toInt(), 4096);
    QVERIFY(!body.contains(QStringLiteral("stream")));
    const QJsonObject system = body.value(QStringLiteral("system")).toArray().at(0).toObject();
    QCOMPARE(system.value(QStringLiteral("text")).toString(), QStringLiteral("You operate a Linux desktop."));
    QCOMPARE(
        system.value(QStringLiteral("cache_control")).toObject().value(QStringLiteral("type")).toString(),
        QStringLiteral("ephemeral"));

    const QJsonArray tools = body.value(QStringLiteral("tools")).toArray();
    QCOMPARE(tools.size(), 2);
    const QJsonObject computer = tools.at(0).toObject();
    QCOMPARE(computer.value(QStringLiteral("type")).toString(), QStringLiteral("computer_20250124"));
    QCOMPARE(computer.value(QStringLiteral("name")).toString(), QStringLiteral("computer"));
    QCOMPARE(computer.value(QStringLiteral("display_width_px")).toInt(), 1366); // FWXGA for 16:9
    QCOMPARE(computer.value(QStringLiteral("display_height_px")).toInt(), 768);
    QCOMPARE(computer.value(QStringLiteral("display_number")).toInt(), 1);
    const QJsonObject clickZone = tools.at(1).toObject();
    QCOMPARE(clickZone.value(QStringLiteral("name")).toString(), QStringLiteral("click_zone"));
    QCOMPARE(clickZone.value(QStringLiteral("input_schema"))
                 .toObject()
                 .value(QStringLiteral("required"))
                 .toArray()
                 .at(0)
                 .toString(),
             QStringLiteral("zone_id"));

    // The screenshot: base64 PNG scaled to the size the tool reports.
    const QJsonArray content = messagesOf(r).at(0).toObject().value(QStringLiteral("content")).toArray();
    QCOMPARE(content.size(), 2);
    const QJsonObject source = content.at(1).toObject().value(QStringLiteral("source")).toObject();
    QCOMPARE(source.value(QStringLiteral("type")).toString(), QStringLiteral("base64"));
    QCOMPARE(source.value(QStringLiteral("media_type")).toString(), QStringLiteral("image/png"));
    const QByteArray png = QByteArray::fromBase64(source.value(QStringLiteral("data")).toString().toLatin1());
    QBuffer buffer;
    buffer.setData(png);
    QImageReader reader(&buffer, "png");
    QCOMPARE(reader.read().size(), QSize(1366, 768));

    // Coordinates the model sends come back through the response's scaler.
    QCOMPARE(response.scaler.targetSize(), QSize(1366, 768));
    QCOMPARE(response.scaler.toScreen(QPoint(683, 384)), QPoint(960, 540));
}

void TestAnthropicProvider::onlyRecentScreenshotsAndCacheBreakpoints()
{
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("ok")));
    AnthropicProvider provider(configFor(*m_server));
    ProviderRequest request = simpleRequest();
    request.keepScreenshots = 3;
    request.tools = {ToolDefinition::computer(QSize(1280, 800))};
    // user, then 5 rounds of (assistant tool_use, user tool_result with a screenshot).
    for (int i = 0; i < 5; ++i) {
        const QString id = QStringLiteral("toolu_%1").arg(i);
        request.messages.append(Message::assistant({ContentBlock::makeToolUse(
            id, QStringLiteral("computer"),
            QJsonObject{{QStringLiteral("action"), QStringLiteral("screenshot")}})}));
        request.messages.append(Message::user({ContentBlock::makeToolResult(
            id, {ContentBlock::makeImage(screen(QSize(1280, 800), QColor::fromHsv(i * 40, 200, 200)))})}));
    }
    const ProviderResponse response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));

    const QJsonArray messages = messagesOf(m_server->lastRequest());
    QCOMPARE(messages.size(), 11);
    int images = 0;
    int placeholders = 0;
    QList<int> cachedMessages;
    for (int m = 0; m < messages.size(); ++m) {
        const QJsonObject message = messages.at(m).toObject();
        const QJsonArray content = message.value(QStringLiteral("content")).toArray();
        for (int b = 0; b < content.size(); ++b) {
            const QJsonObject block = content.at(b).toObject();
            if (block.contains(QStringLiteral("cache_control"))) {
                QCOMPARE(b, content.size() - 1); // only the last block of a turn
                cachedMessages.append(m);
            }
            for (const QJsonValue& inner : block.value(QStringLiteral("content")).toArray()) {
                const QString type = inner.toObject().value(QStringLiteral("type")).toString();
                if (type == QLatin1String("image")) {
                    ++images;
                    QVERIFY(m >= 6); // the 3 most recent: messages 6, 8, 10
                } else if (type == QLatin1String("text")) {
                    ++placeholders;
                    QVERIFY(m < 6);
                }
            }
        }
    }
    QCOMPARE(images, 3);
    QCOMPARE(placeholders, 2);
    QCOMPARE(cachedMessages, (QList<int>{6, 8, 10}));
    // The caller's history is unchanged.
    QVERIFY(!request.messages.at(2).blocks.at(0).content.at(0).image.isNull());
    // 1280×800 is WXGA already: unscaled.
    QCOMPARE(m_server->lastRequest()
                 .json.value(QStringLiteral("tools"))
                 .toArray()
                 .at(0)
                 .toObject()
                 .value(QStringLiteral("display_width_px"))
                 .toInt(),
             1280);
}

void TestAnthropicProvider::toolUseChainRoundTrips()
{
    m_server->enqueue(
        FakeApiServer::toolUseReply(QStringLiteral("computer"),
                                    QJsonObject{{QStringLiteral("action"), QStringLiteral("left_click")},
                                                {QStringLiteral("coordinate"), QJsonArray{640, 412}}},
                                    QStringLiteral("toolu_01A"), QStringLiteral("Clicking Settings.")));
    m_server->enqueue(FakeApiServer::toolUseReply(
        QStringLiteral("click_zone"), QJsonObject{{QStringLiteral("zone_id"), QStringLiteral("z12")}},
        QStringLiteral("toolu_01B")));
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("The task is complete.")));

    AnthropicProvider provider(configFor(*m_server));
    ProviderRequest request = simpleRequest();
    request.tools = {
        ToolDefinition::computer(QSize(1280, 800)),
        ToolDefinition::function(QStringLiteral("click_zone"), QStringLiteral("Click a zone"), {})};

    ProviderResponse response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    COMPARE_ENUM(response.stopReason, StopReason::ToolUse);
    QCOMPARE(response.text(), QStringLiteral("Clicking Settings."));
    QCOMPARE(response.toolUses().size(), 1);
    QCOMPARE(response.toolUses().at(0).id, QStringLiteral("toolu_01A"));
    QCOMPARE(response.toolUses().at(0).input.value(QStringLiteral("coordinate")).toArray(),
             (QJsonArray{640, 412}));

    request.messages.append(response.assistantMessage());
    request.messages.append(Message::user({ContentBlock::makeToolResult(
        QStringLiteral("toolu_01A"), {ContentBlock::makeText(QStringLiteral("clicked")),
                                      ContentBlock::makeImage(screen(QSize(1280, 800)))})}));
    response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.toolUses().at(0).name, QStringLiteral("click_zone"));
    QCOMPARE(response.toolUses().at(0).input.value(QStringLiteral("zone_id")).toString(),
             QStringLiteral("z12"));

    // The second request carries the first tool_use and its tool_result.
    {
        const QJsonArray messages = messagesOf(m_server->requests().at(1));
        QCOMPARE(messages.size(), 3);
        const QJsonObject toolUse =
            messages.at(1).toObject().value(QStringLiteral("content")).toArray().at(1).toObject();
        QCOMPARE(messages.at(1).toObject().value(QStringLiteral("role")).toString(),
                 QStringLiteral("assistant"));
        QCOMPARE(toolUse.value(QStringLiteral("type")).toString(), QStringLiteral("tool_use"));
        QCOMPARE(toolUse.value(QStringLiteral("id")).toString(), QStringLiteral("toolu_01A"));
        const QJsonObject result =
            messages.at(2).toObject().value(QStringLiteral("content")).toArray().at(0).toObject();
        QCOMPARE(result.value(QStringLiteral("type")).toString(), QStringLiteral("tool_result"));
        QCOMPARE(result.value(QStringLiteral("tool_use_id")).toString(), QStringLiteral("toolu_01A"));
        QCOMPARE(result.value(QStringLiteral("content")).toArray().size(), 2);
        QCOMPARE(result.value(QStringLiteral("content"))
                     .toArray()
                     .at(1)
                     .toObject()
                     .value(QStringLiteral("type"))
                     .toString(),
                 QStringLiteral("image"));
    }

    request.messages.append(response.assistantMessage());
    request.messages.append(Message::user({ContentBlock::makeToolResultText(
        QStringLiteral("toolu_01B"), QStringLiteral("zone z12 not found"), true)}));
    response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    COMPARE_ENUM(response.stopReason, StopReason::EndTurn);
    QCOMPARE(response.text(), QStringLiteral("The task is complete."));
    const QJsonObject errorResult = messagesOf(m_server->requests().at(2))
                                        .at(4)
                                        .toObject()
                                        .value(QStringLiteral("content"))
                                        .toArray()
                                        .at(0)
                                        .toObject();
    QCOMPARE(errorResult.value(QStringLiteral("is_error")).toBool(), true);
    QCOMPARE(errorResult.value(QStringLiteral("tool_use_id")).toString(), QStringLiteral("toolu_01B"));

    QCOMPARE(m_server->requestCount(), 3);
    QCOMPARE(m_server->connectionCount(), 1); // keep-alive: one connection for the chain
    QCOMPARE(provider.callCount(), 3);
    QCOMPARE(provider.totalUsage().inputTokens, 300);
}

void TestAnthropicProvider::streaming_data()
{
    QTest::addColumn<int>("jsonPiece");
    QTest::addColumn<int>("chunkBytes");
    QTest::newRow("one event per chunk") << 7 << 0;
    QTest::newRow("events cut every 17 bytes") << 5 << 17;
    QTest::newRow("3-byte pieces") << 3 << 3;
}

void TestAnthropicProvider::streaming()
{
    QFETCH(int, jsonPiece);
    QFETCH(int, chunkBytes);
    const QJsonObject message = FakeApiServer::messageJson(
        QJsonArray{
            FakeApiServer::textBlock(QStringLiteral("Clicking the Settings icon, then — äöü ✓.")),
            FakeApiServer::toolUseBlock(QStringLiteral("toolu_01N"), QStringLiteral("computer"),
                                        QJsonObject{{QStringLiteral("action"), QStringLiteral("left_click")},
                                                    {QStringLiteral("coordinate"), QJsonArray{640, 412}}})},
        QStringLiteral("tool_use"), FakeApiServer::usage(377, 65, 10, 20));
    FakeApiServer::Step step = FakeApiServer::streamedMessage(message, jsonPiece, chunkBytes);
    step.chunkIntervalMs = 0; // separate writes, no pause
    m_server->enqueue(step);

    AnthropicProvider provider(configFor(*m_server));
    QSignalSpy deltas(&provider, &Provider::textDelta);
    ProviderRequest request = simpleRequest();
    request.stream = true;
    const ProviderResponse response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(m_server->lastRequest().json.value(QStringLiteral("stream")).toBool(), true);
    QCOMPARE(m_server->lastRequest().header("accept"), QByteArray("text/event-stream"));

    COMPARE_ENUM(response.stopReason, StopReason::ToolUse);
    QCOMPARE(response.content.size(), 2);
    QCOMPARE(response.text(), QStringLiteral("Clicking the Settings icon, then — äöü ✓."));
    const ContentBlock toolUse = response.toolUses().at(0);
    QCOMPARE(toolUse.id, QStringLiteral("toolu_01N"));
    QCOMPARE(toolUse.input.value(QStringLiteral("action")).toString(), QStringLiteral("left_click"));
    QCOMPARE(toolUse.input.value(QStringLiteral("coordinate")).toArray(), (QJsonArray{640, 412}));
    QVERIFY(toolUse.inputError.isEmpty());
    QCOMPARE(response.usage.inputTokens, 377);
    QCOMPARE(response.usage.outputTokens, 65);
    QCOMPARE(response.usage.cacheCreationInputTokens, 10);
    QCOMPARE(response.usage.cacheReadInputTokens, 20);
    QString streamed;
    for (const auto& args : deltas)
        streamed += args.at(1).toString();
    QCOMPARE(streamed, response.text());
}

void TestAnthropicProvider::streamErrorEvent()
{
    m_server->enqueue(
        FakeApiServer::streamError(QStringLiteral("overloaded_error"), QStringLiteral("Overloaded")));
    AnthropicProvider provider(configFor(*m_server));
    ProviderRequest request = simpleRequest();
    request.stream = true;
    const ProviderResponse response = sendAndWait(provider, request);
    COMPARE_ENUM(response.error, ProviderError::Overloaded);
    QVERIFY(response.errorMessage.contains(QLatin1String("overloaded_error")));
    QVERIFY(response.isTransient());
    QCOMPARE(m_server->requestCount(), 1); // an error event after a 200 is not retried (like the SDK)
}

void TestAnthropicProvider::rateLimitRetriedWithRetryAfter()
{
    m_server->enqueue(FakeApiServer::error(429, QStringLiteral("rate_limit_error"),
                                           QStringLiteral("Too many requests"),
                                           {{QByteArrayLiteral("retry-after"), QByteArrayLiteral("1")}}));
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("ok")));
    ProviderConfig config = configFor(*m_server);
    config.maxRetryDelayMs = 60'000; // honor the server's 1 s
    AnthropicProvider provider(config);
    QSignalSpy retries(&provider, &Provider::retrying);
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(m_server->requestCount(), 2);
    QCOMPARE(response.attempts, 2);
    QCOMPARE(retries.size(), 1);
    QCOMPARE(retries.at(0).at(1).toInt(), 1);
    QCOMPARE(retries.at(0).at(2).toLongLong(), 1000); // retry-after: 1 → 1000 ms
    QVERIFY(retries.at(0).at(3).toString().contains(QLatin1String("rate_limit_error")));
    QCOMPARE(m_server->requests().at(1).header("x-stainless-retry-count"), QByteArray("1"));
}

void TestAnthropicProvider::transientErrorsRetried_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("type");
    QTest::newRow("529 overloaded") << 529 << QStringLiteral("overloaded_error");
    QTest::newRow("500 api_error") << 500 << QStringLiteral("api_error");
    QTest::newRow("504 timeout_error") << 504 << QStringLiteral("timeout_error");
    QTest::newRow("408") << 408 << QStringLiteral("timeout_error");
    QTest::newRow("409") << 409 << QStringLiteral("api_error");
}

void TestAnthropicProvider::transientErrorsRetried()
{
    QFETCH(int, status);
    QFETCH(QString, type);
    m_server->enqueue(FakeApiServer::error(status, type, QStringLiteral("try again")));
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("ok")));
    AnthropicProvider provider(configFor(*m_server));
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.text(), QStringLiteral("ok"));
    QCOMPARE(m_server->requestCount(), 2);
    QCOMPARE(response.attempts, 2);
}

void TestAnthropicProvider::threeFailuresGiveCleanError()
{
    for (int i = 0; i < 3; ++i)
        m_server->enqueue(
            FakeApiServer::error(529, QStringLiteral("overloaded_error"), QStringLiteral("Overloaded"),
                                 {{QByteArrayLiteral("request-id"), QByteArrayLiteral("req_last")}}));
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("never sent")));
    AnthropicProvider provider(configFor(*m_server));
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::Overloaded);
    QCOMPARE(response.httpStatus, 529);
    QCOMPARE(response.attempts, 3);
    QCOMPARE(m_server->requestCount(), 3);
    QCOMPARE(response.apiRequestId, QStringLiteral("req_last"));
    QVERIFY(response.errorMessage.contains(QLatin1String("overloaded_error: Overloaded")));
    QVERIFY(response.errorMessage.contains(QLatin1String("3 attempts")));
    QVERIFY(response.content.isEmpty());
    QCOMPARE(provider.callCount(), 0);
}

void TestAnthropicProvider::nonRetryableErrors_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QString>("type");
    QTest::addColumn<QByteArray>("shouldRetry");
    QTest::addColumn<int>("expectedRequests");
    QTest::addColumn<ProviderError>("expectedError");
    QTest::newRow("400") << 400 << QStringLiteral("invalid_request_error") << QByteArray() << 1
                         << ProviderError::InvalidRequest;
    QTest::newRow("401") << 401 << QStringLiteral("authentication_error") << QByteArray() << 1
                         << ProviderError::Authentication;
    QTest::newRow("403") << 403 << QStringLiteral("permission_error") << QByteArray() << 1
                         << ProviderError::Permission;
    QTest::newRow("413") << 413 << QStringLiteral("request_too_large") << QByteArray() << 1
                         << ProviderError::InvalidRequest;
    QTest::newRow("500 with x-should-retry false")
        << 500 << QStringLiteral("api_error") << QByteArray("false") << 1 << ProviderError::Server;
    QTest::newRow("400 with x-should-retry true") << 400 << QStringLiteral("invalid_request_error")
                                                  << QByteArray("true") << 3 << ProviderError::InvalidRequest;
}

void TestAnthropicProvider::nonRetryableErrors()
{
    QFETCH(int, status);
    QFETCH(QString, type);
    QFETCH(QByteArray, shouldRetry);
    QFETCH(int, expectedRequests);
    QFETCH(ProviderError, expectedError);
    FakeApiServer::Headers headers;
    if (!shouldRetry.isEmpty())
        headers.append({QByteArrayLiteral("x-should-retry"), shouldRetry});
    for (int i = 0; i < 3; ++i)
        m_server->enqueue(FakeApiServer::error(status, type, QStringLiteral("bad"), headers));
    AnthropicProvider provider(configFor(*m_server));
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, expectedError);
    QCOMPARE(response.httpStatus, status);
    QCOMPARE(int(m_server->requestCount()), expectedRequests);
    QVERIFY(response.errorMessage.contains(type));
}

void TestAnthropicProvider::timeoutRetriedThenError()
{
    for (int i = 0; i < 3; ++i)
        m_server->enqueue(FakeApiServer::hang());
    ProviderConfig config = configFor(*m_server);
    config.requestTimeoutMs = 150;
    AnthropicProvider provider(config);
    ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::Timeout);
    QCOMPARE(response.attempts, 3);
    QCOMPARE(m_server->requestCount(), 3);
    QVERIFY(response.errorMessage.contains(QLatin1String("150 ms")));

    // A timeout followed by an answer succeeds.
    m_server->reset();
    m_server->enqueue(FakeApiServer::hang());
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("late but fine")));
    response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.attempts, 2);
}

// A stream that stops sending (the connection stays open) used to print nothing for 600 s and then be
// retried: now no byte for idleTimeoutMs fails the attempt, progress is reported meanwhile, and the retries
// are bounded.
void TestAnthropicProvider::stalledStreamIdleTimeout()
{
    const QJsonObject message = FakeApiServer::messageJson(
        QJsonArray{FakeApiServer::textBlock(QStringLiteral("never finished"))}, QStringLiteral("end_turn"));
    FakeApiServer::Step step = FakeApiServer::stalled(FakeApiServer::streamedMessage(message), 3);
    step.chunkIntervalMs = 0;
    m_server->enqueue(step);
    m_server->enqueue(step);
    ProviderConfig config = configFor(*m_server);
    config.requestTimeoutMs = 600'000; // only the idle timeout can end it
    config.idleTimeoutMs = 400;
    config.progressIntervalMs = 100;
    config.maxAttempts = 2;
    AnthropicProvider provider(config);
    QSignalSpy progress(&provider, &Provider::progress);
    QSignalSpy retrying(&provider, &Provider::retrying);
    ProviderRequest request = simpleRequest();
    request.stream = true;
    const ProviderResponse response = sendAndWait(provider, request);
    COMPARE_ENUM(response.error, ProviderError::Timeout);
    QVERIFY2(response.errorMessage.contains(QStringLiteral("the response stalled: no data for 0.4 s")),
             qPrintable(response.errorMessage));
    QVERIFY2(response.errorMessage.contains(QStringLiteral("after 2 attempts")),
             qPrintable(response.errorMessage));
    QCOMPARE(response.attempts, 2);
    QCOMPARE(m_server->requestCount(), 2);
    QCOMPARE(retrying.size(), 1);
    QVERIFY(retrying.first().at(3).toString().contains(QStringLiteral("stalled")));
    // Progress was reported while it waited: bytes had arrived (the first events), then nothing.
    QVERIFY(!progress.isEmpty());
    QVERIFY(std::any_of(progress.cbegin(), progress.cend(),
                        [](const QList<QVariant>& p) { return p.at(2).toLongLong() > 0; }));
}

// A non-streamed reply whose body stops half-way (the headers and 40 bytes came, then nothing) is a stall
// too; before its headers a non-streamed call may take as long as the model needs (requestTimeoutMs).
void TestAnthropicProvider::stalledBodyIdleTimeout()
{
    const FakeApiServer::Step step =
        FakeApiServer::stalledBody(FakeApiServer::textReply(QStringLiteral("half")), 40);
    m_server->enqueue(step);
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("whole")));
    ProviderConfig config = configFor(*m_server);
    config.requestTimeoutMs = 600'000;
    config.idleTimeoutMs = 300;
    AnthropicProvider provider(config);
    QSignalSpy retrying(&provider, &Provider::retrying);
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.text(), QStringLiteral("whole"));
    QCOMPARE(response.attempts, 2);
    QCOMPARE(retrying.size(), 1);
    QVERIFY2(
        retrying.first().at(3).toString().contains(QStringLiteral("stalled: no data for 0.3 s (40 bytes")),
        qPrintable(retrying.first().at(3).toString()));
}

// The retry policy's budget is time as well as attempts: no attempt starts once the call's total is spent.
void TestAnthropicProvider::retryBudgetEndsTheCall()
{
    for (int i = 0; i < 20; ++i)
        m_server->enqueue(FakeApiServer::hang());
    ProviderConfig config = configFor(*m_server);
    config.maxAttempts = 20;
    config.requestTimeoutMs = 200;
    config.totalTimeoutMs = 700;
    config.maxRetryDelayMs = 1;
    AnthropicProvider provider(config);
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::Timeout);
    QVERIFY2(response.attempts < 20, qPrintable(QString::number(response.attempts)));
    QCOMPARE(m_server->requestCount(), response.attempts);
    QVERIFY(m_server->pendingSteps() > 0);
}

// A 50 MB reply took ~1 GB: the body is not read past maxResponseBytes, and it is not retried.
void TestAnthropicProvider::hugeReplyIsNotRead()
{
    m_server->enqueue(FakeApiServer::hugeTextReply(8 * 1024 * 1024));
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("small")));
    ProviderConfig config = configFor(*m_server);
    config.maxResponseBytes = 1024 * 1024;
    AnthropicProvider provider(config);
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::MalformedResponse);
    QVERIFY2(response.errorMessage.contains(QStringLiteral("larger than 1.0 MiB")),
             qPrintable(response.errorMessage));
    QCOMPARE(response.attempts, 1);
    QCOMPARE(m_server->requestCount(), 1);

    // Within the cap it is read as usual.
    config.maxResponseBytes = 16 * 1024 * 1024;
    m_server->reset();
    m_server->enqueue(FakeApiServer::hugeTextReply(2 * 1024 * 1024));
    AnthropicProvider roomy(config);
    const ProviderResponse read = sendAndWait(roomy, simpleRequest());
    QVERIFY2(read.ok(), qPrintable(read.errorMessage));
    QCOMPARE(read.text().size(), qsizetype(2 * 1024 * 1024) -
                                     qsizetype(FakeApiServer::textReply(QStringLiteral("x")).body.size()) +
                                     1);
}

void TestAnthropicProvider::droppedConnectionRetried()
{
    m_server->enqueue(FakeApiServer::dropConnection());
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("ok")));
    AnthropicProvider provider(configFor(*m_server));
    ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(m_server->requestCount(), 2);

    // Nobody listening: a clean network error after 3 attempts.
    ProviderConfig config = configFor(*m_server);
    const quint16 port = m_server->port();
    m_server.reset();
    config.baseUrl.setPort(port);
    AnthropicProvider orphan(config);
    response = sendAndWait(orphan, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::Network);
    QCOMPARE(response.attempts, 3);
}

void TestAnthropicProvider::malformedJsonIsCleanError()
{
    m_server->enqueue(FakeApiServer::malformedJson());
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("not reached")));
    AnthropicProvider provider(configFor(*m_server));
    ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::MalformedResponse);
    QVERIFY(response.errorMessage.contains(QLatin1String("malformed")));
    QCOMPARE(m_server->requestCount(), 1);

    // Valid JSON that is not a message.
    m_server->reset();
    FakeApiServer::Step step;
    step.body = R"({"type": "message", "content": "not an array"})";
    m_server->enqueue(step);
    response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::MalformedResponse);

    // A streamed tool input that is not JSON.
    m_server->reset();
    FakeApiServer::Step broken;
    broken.kind = FakeApiServer::Step::Kind::Stream;
    broken.contentType = "text/event-stream";
    const QJsonObject start = FakeApiServer::messageJson({}, QString());
    broken.chunks = {
        FakeApiServer::sseEvent("message_start", {{QStringLiteral("type"), QStringLiteral("message_start")},
                                                  {QStringLiteral("message"), start}}),
        FakeApiServer::sseEvent(
            "content_block_start",
            {{QStringLiteral("type"), QStringLiteral("content_block_start")},
             {QStringLiteral("index"), 0},
             {QStringLiteral("content_block"),
              FakeApiServer::toolUseBlock(QStringLiteral("t"), QStringLiteral("computer"), {})}}),
        FakeApiServer::sseEvent(
            "content_block_delta",
            {{QStringLiteral("type"), QStringLiteral("content_block_delta")},
             {QStringLiteral("index"), 0},
             {QStringLiteral("delta"),
              QJsonObject{{QStringLiteral("type"), QStringLiteral("input_json_delta")},
                          {QStringLiteral("partial_json"), QStringLiteral("{\"action\": ")}}}}),
        FakeApiServer::sseEvent(
            "content_block_stop",
            {{QStringLiteral("type"), QStringLiteral("content_block_stop")}, {QStringLiteral("index"), 0}})};
    m_server->enqueue(broken);
    ProviderRequest request = simpleRequest();
    request.stream = true;
    response = sendAndWait(provider, request);
    COMPARE_ENUM(response.error, ProviderError::MalformedResponse);
    QVERIFY(response.errorMessage.contains(QLatin1String("not a JSON object")));

    // A stream that stops before message_stop.
    m_server->reset();
    broken.chunks = broken.chunks.mid(0, 1);
    m_server->enqueue(broken);
    response = sendAndWait(provider, request);
    COMPARE_ENUM(response.error, ProviderError::MalformedResponse);
}

void TestAnthropicProvider::stopReasons_data()
{
    QTest::addColumn<QString>("wire");
    QTest::addColumn<StopReason>("expected");
    QTest::newRow("end_turn") << QStringLiteral("end_turn") << StopReason::EndTurn;
    QTest::newRow("refusal") << QStringLiteral("refusal") << StopReason::Refusal;
    QTest::newRow("max_tokens") << QStringLiteral("max_tokens") << StopReason::MaxTokens;
    QTest::newRow("pause_turn") << QStringLiteral("pause_turn") << StopReason::PauseTurn;
    QTest::newRow("stop_sequence") << QStringLiteral("stop_sequence") << StopReason::StopSequence;
    QTest::newRow("context") << QStringLiteral("model_context_window_exceeded")
                             << StopReason::ContextWindowExceeded;
    QTest::newRow("unknown") << QStringLiteral("something_new") << StopReason::Unknown;
}

void TestAnthropicProvider::stopReasons()
{
    QFETCH(QString, wire);
    QFETCH(StopReason, expected);
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("partial"), wire));
    AnthropicProvider provider(configFor(*m_server));
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    COMPARE_ENUM(response.stopReason, expected);
    QCOMPARE(response.stopReasonText, wire);
    QCOMPARE(toString(response.stopReason) == wire, expected != StopReason::Unknown);
}

void TestAnthropicProvider::pauseTurnContinues()
{
    QJsonArray paused{
        FakeApiServer::textBlock(QStringLiteral("Searching...")),
        QJsonObject{{QStringLiteral("type"), QStringLiteral("server_tool_use")},
                    {QStringLiteral("id"), QStringLiteral("srvtoolu_1")},
                    {QStringLiteral("name"), QStringLiteral("web_search")},
                    {QStringLiteral("input"), QJsonObject{{QStringLiteral("query"), QStringLiteral("x")}}}}};
    m_server->enqueue(
        FakeApiServer::message(FakeApiServer::messageJson(paused, QStringLiteral("pause_turn"))));
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("Finished.")));
    AnthropicProvider provider(configFor(*m_server));
    const ProviderRequest request = simpleRequest();
    ProviderResponse response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    COMPARE_ENUM(response.stopReason, StopReason::PauseTurn);
    QVERIFY(response.content.at(1).type == ContentBlock::Type::Other);

    response = sendAndWait(provider, continueAfterPause(request, response));
    QCOMPARE(response.text(), QStringLiteral("Finished."));
    const QJsonArray messages = messagesOf(m_server->requests().at(1));
    QCOMPARE(messages.size(), 2);
    QCOMPARE(messages.at(1).toObject().value(QStringLiteral("role")).toString(), QStringLiteral("assistant"));
    QCOMPARE(messages.at(1).toObject().value(QStringLiteral("content")).toArray(), paused); // unchanged
}

void TestAnthropicProvider::thinkingEchoedUnchanged()
{
    const QJsonObject thinking{{QStringLiteral("type"), QStringLiteral("thinking")},
                               {QStringLiteral("thinking"), QStringLiteral("The icon is top left.")},
                               {QStringLiteral("signature"),
                                QStringLiteral("EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds")}};
    const QJsonObject redacted{{QStringLiteral("type"), QStringLiteral("redacted_thinking")},
                               {QStringLiteral("data"), QStringLiteral("EmwKAhgBEgy3va3pzix")}};
    const QJsonObject toolUse =
        FakeApiServer::toolUseBlock(QStringLiteral("toolu_T"), QStringLiteral("computer"),
                                    {{QStringLiteral("action"), QStringLiteral("screenshot")}});
    m_server->enqueue(FakeApiServer::streamedMessage(
        FakeApiServer::messageJson(QJsonArray{thinking, redacted, toolUse}, QStringLiteral("tool_use"))));
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("ok")));
    AnthropicProvider provider(configFor(*m_server));
    ProviderRequest request = simpleRequest();
    request.stream = true;
    request.maxTokens = 8000;
    request.thinkingBudgetTokens = 2048;
    ProviderResponse response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QVERIFY(response.content.at(0).type == ContentBlock::Type::Thinking);
    QVERIFY(response.content.at(1).type == ContentBlock::Type::RedactedThinking);
    QCOMPARE(m_server->lastRequest()
                 .json.value(QStringLiteral("thinking"))
                 .toObject()
                 .value(QStringLiteral("budget_tokens"))
                 .toInt(),
             2048);

    request.messages.append(response.assistantMessage());
    request.messages.append(
        Message::user({ContentBlock::makeToolResultText(QStringLiteral("toolu_T"), QStringLiteral("ok"))}));
    request.stream = false;
    response = sendAndWait(provider, request);
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    const QJsonArray echoed =
        messagesOf(m_server->lastRequest()).at(1).toObject().value(QStringLiteral("content")).toArray();
    QCOMPARE(echoed.at(0).toObject(), thinking);
    QCOMPARE(echoed.at(1).toObject(), redacted);
    QCOMPARE(echoed.at(2).toObject(), toolUse);
}

void TestAnthropicProvider::usageAndCost()
{
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("a"), QStringLiteral("end_turn"),
                                               FakeApiServer::usage(1000, 500, 2000, 10000)));
    m_server->enqueue(FakeApiServer::message(FakeApiServer::messageJson(
        QJsonArray{FakeApiServer::textBlock(QStringLiteral("b"))}, QStringLiteral("end_turn"),
        FakeApiServer::usage(1'000'000, 1'000'000), QStringLiteral("claude-haiku-4-5-20251001"))));
    m_server->enqueue(FakeApiServer::message(FakeApiServer::messageJson(
        QJsonArray{FakeApiServer::textBlock(QStringLiteral("c"))}, QStringLiteral("end_turn"),
        FakeApiServer::usage(10, 10), QStringLiteral("some-unknown-model"))));
    AnthropicProvider provider(configFor(*m_server));

    ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.usage.totalInputTokens(), 13000);
    // Sonnet 4.5: (1000·3 + 2000·3.75 + 10000·0.30 + 500·15) / 1e6 = 0.021 USD
    QVERIFY(response.usage.costKnown);
    QVERIFY(qAbs(response.usage.costUsd - 0.021) < 1e-9);

    response = sendAndWait(provider, simpleRequest());
    QVERIFY(qAbs(response.usage.costUsd - 6.0) < 1e-9); // Haiku 4.5: 1 + 5 per MTok

    response = sendAndWait(provider, simpleRequest());
    QVERIFY(!response.usage.costKnown);
    QCOMPARE(response.usage.costUsd, 0.0);

    QCOMPARE(provider.callCount(), 3);
    QCOMPARE(provider.totalUsage().outputTokens, 1'000'510);
    QVERIFY(qAbs(provider.totalUsage().costUsd - 6.021) < 1e-9);
    QVERIFY(!provider.totalUsage().costKnown);

    // A configured table replaces the defaults.
    ProviderConfig config = configFor(*m_server);
    const auto table = PriceTable::fromJson(R"({"models": {"*": {"input": 1, "output": 2}}})");
    QVERIFY(table);
    config.prices = *table;
    AnthropicProvider custom(config);
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("d"), QStringLiteral("end_turn"),
                                               FakeApiServer::usage(1'000'000, 1'000'000)));
    response = sendAndWait(custom, simpleRequest());
    QVERIFY(qAbs(response.usage.costUsd - 3.0) < 1e-9);
}

// Usage is untrusted input: input_tokens -1e8 used to give a cost of -$2400 (switching --max-cost off for the
// rest of the run) and 1e300 showed as -9223372036854775808 tokens.
void TestAnthropicProvider::hostileUsageIsClamped()
{
    const QJsonObject negative{{QStringLiteral("input_tokens"), -1e8}, {QStringLiteral("output_tokens"), 10}};
    const QJsonObject huge{{QStringLiteral("input_tokens"), 1e300},
                           {QStringLiteral("output_tokens"), std::numeric_limits<double>::infinity()},
                           {QStringLiteral("cache_read_input_tokens"), QStringLiteral("12")}};
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("a"), QStringLiteral("end_turn"),
                                               FakeApiServer::usage(1000, 500)));
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("b"), QStringLiteral("end_turn"), negative));
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("c"), QStringLiteral("end_turn"), huge));
    AnthropicProvider provider(configFor(*m_server));

    ProviderResponse response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    const double firstCost = provider.totalUsage().costUsd;
    QVERIFY(firstCost > 0);

    response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.usage.inputTokens, 0);
    QCOMPARE(response.usage.outputTokens, 10);
    QVERIFY(response.usage.costUsd >= 0);
    QVERIFY(provider.totalUsage().costUsd >= firstCost); // the total never moves backwards

    response = sendAndWait(provider, simpleRequest());
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.usage.inputTokens, kMaxReportedTokens);
    QCOMPARE(response.usage.outputTokens, 0);         // JSON has no infinity: the value is not a number
    QCOMPARE(response.usage.cacheReadInputTokens, 0); // a string is not a count
    // Sonnet 4.5 input at $3 per MTok: the clamped count costs $300, which any cost limit stops at.
    QVERIFY(qAbs(response.usage.costUsd - 300.0) < 1e-6);
    QCOMPARE(provider.totalUsage().inputTokens, 1000 + kMaxReportedTokens);
    QVERIFY(provider.totalUsage().costUsd > 300.0);
}

namespace {
QStringList g_log;
void captureLog(QtMsgType, const QMessageLogContext&, const QString& message)
{
    g_log.append(message);
}
} // namespace

void TestAnthropicProvider::keyNeverInErrors()
{
    g_log.clear();
    const QtMessageHandler previous = qInstallMessageHandler(captureLog);
    auto restore = qScopeGuard([previous] { qInstallMessageHandler(previous); });
    m_server->enqueue(FakeApiServer::error(401, QStringLiteral("authentication_error"),
                                           QStringLiteral("invalid x-api-key: ") + kKey));
    AnthropicProvider provider(configFor(*m_server));
    QSignalSpy retries(&provider, &Provider::retrying);
    ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::Authentication);
    QVERIFY(!response.errorMessage.contains(kKey));
    QVERIFY(response.errorMessage.contains(QLatin1String("invalid x-api-key")));

    // The same through retries and a malformed body that echoes the key.
    m_server->reset();
    for (int i = 0; i < 3; ++i) {
        FakeApiServer::Step step;
        step.status = 502;
        step.contentType = "text/html";
        step.body = "<html>bad gateway for key " + kKey.toUtf8() + "</html>";
        m_server->enqueue(step);
    }
    response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::Server);
    QVERIFY(!response.errorMessage.contains(kKey));
    QCOMPARE(retries.size(), 2);
    for (const auto& args : retries)
        QVERIFY(!args.at(3).toString().contains(kKey));
    // Nor in the log.
    QVERIFY(!g_log.isEmpty());
    for (const QString& line : std::as_const(g_log))
        QVERIFY2(!line.contains(kKey), qPrintable(line));
}

void TestAnthropicProvider::noKeyNothingSent()
{
    ProviderConfig config = configFor(*m_server);
    config.apiKey.clear();
    AnthropicProvider provider(config);
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::NoApiKey);
    QVERIFY(response.errorMessage.contains(QLatin1String("ANTHROPIC_API_KEY")));
    QCOMPARE(m_server->requestCount(), 0);
}

void TestAnthropicProvider::redirectToOtherHostRefused()
{
    m_server->enqueue(FakeApiServer::redirect(QUrl(QStringLiteral("http://collector.invalid/v1/messages"))));
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("not reached")));
    AnthropicProvider provider(configFor(*m_server));
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::RedirectRefused);
    QVERIFY(response.errorMessage.contains(QLatin1String("collector.invalid")));
    QVERIFY(!response.errorMessage.contains(kKey));
    QCOMPARE(m_server->requestCount(), 1);
}

void TestAnthropicProvider::redirectToSameHostRefused()
{
    // Redirects are never followed, not even on the same host: a clear error instead.
    QUrl target = m_server->baseUrl();
    target.setPath(QStringLiteral("/v2/messages"));
    m_server->enqueue(FakeApiServer::redirect(target, 307));
    m_server->enqueue(FakeApiServer::textReply(QStringLiteral("not reached")));
    AnthropicProvider provider(configFor(*m_server));
    const ProviderResponse response = sendAndWait(provider, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::RedirectRefused);
    QCOMPARE(response.httpStatus, 307);
    QVERIFY(response.errorMessage.contains(QLatin1String("same host")));
    QCOMPARE(m_server->requestCount(), 1);
}

void TestAnthropicProvider::cancel()
{
    m_server->enqueue(FakeApiServer::hang());
    AnthropicProvider provider(configFor(*m_server));
    QSignalSpy spy(&provider, &Provider::finished);
    const quint64 id = provider.send(simpleRequest());
    QVERIFY(m_server->waitForRequests(1));
    QCOMPARE(provider.pendingCount(), 1);
    provider.cancel(id);
    QVERIFY(spy.wait(5000));
    QCOMPARE(spy.size(), 1);
    COMPARE_ENUM(spy.first().at(1).value<ProviderResponse>().error, ProviderError::Canceled);
    QCOMPARE(provider.pendingCount(), 0);
    provider.cancel(id); // unknown now: ignored, nothing is queued for it
    QCoreApplication::sendPostedEvents();
    QCOMPARE(spy.size(), 1);
}

void TestAnthropicProvider::badRequestInput()
{
    AnthropicProvider provider(configFor(*m_server));
    ProviderRequest request = simpleRequest();
    request.messages = {Message::user({ContentBlock::makeImageData("not an image", QString())})};
    ProviderResponse response = sendAndWait(provider, request);
    COMPARE_ENUM(response.error, ProviderError::InvalidRequest);
    QVERIFY(response.errorMessage.contains(QLatin1String("unknown format")));

    ProviderConfig config = configFor(*m_server);
    config.baseUrl = QUrl(QStringLiteral("ftp://example.invalid"));
    AnthropicProvider ftp(config);
    response = sendAndWait(ftp, simpleRequest());
    COMPARE_ENUM(response.error, ProviderError::InvalidRequest);
    QCOMPARE(m_server->requestCount(), 0);
}

void TestAnthropicProvider::workerThread()
{
    // The provider lives on a worker thread (its network manager is created there); results arrive queued.
    m_server->enqueue(FakeApiServer::streamedMessage(
        FakeApiServer::messageJson(QJsonArray{FakeApiServer::textBlock(QStringLiteral("from the worker"))},
                                   QStringLiteral("end_turn"))));
    QThread thread;
    thread.setObjectName(QStringLiteral("director"));
    auto* provider = new AnthropicProvider(configFor(*m_server));
    ciu::addWorkerToThread(provider, &thread);
    thread.start();
    QSignalSpy spy(provider, &Provider::finished);
    QThread* sentOn = nullptr;
    ProviderRequest request = simpleRequest();
    request.stream = true;
    QMetaObject::invokeMethod(provider, [&, provider] {
        sentOn = QThread::currentThread();
        provider->send(request);
    });
    QVERIFY(spy.wait(10'000));
    QCOMPARE(sentOn, &thread);
    const auto response = spy.first().at(1).value<ProviderResponse>();
    QVERIFY2(response.ok(), qPrintable(response.errorMessage));
    QCOMPARE(response.text(), QStringLiteral("from the worker"));
    thread.quit();
    QVERIFY(thread.wait(5000));
}

QTEST_GUILESS_MAIN(TestAnthropicProvider)
#include "tst_anthropicprovider.moc"
