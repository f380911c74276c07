#pragma once

// Shared by the provider tests (tst_anthropicprovider, tst_openaiprovider): a provider config aimed at the
// fake server, a blocking send, test images and requests.

#include "core/providers/provider.h"
#include "tests/support/fakeapiserver.h"

#include <QColor>
#include <QImage>
#include <QJsonArray>
#include <QSignalSpy>

// ciu::director::toString(enum) returns QString, which QCOMPARE's ADL lookup would pick: compare names.
#define COMPARE_ENUM(actual, expected) QCOMPARE(toString(actual), toString(expected))

namespace ciu::test {

// A config for `server` with fast retries (the policy's delays are tested in tst_retrypolicy).
inline director::ProviderConfig providerConfigFor(const FakeApiServer& server, const QString& key,
                                                  const QString& model)
{
    director::ProviderConfig config;
    config.baseUrl = server.baseUrl();
    config.apiKey = key;
    config.defaultModel = model;
    config.maxRetryDelayMs = 10;
    config.requestTimeoutMs = 5'000;
    return config;
}

// Sends and waits for the one finished() of this request (errorMessage says so when it did not come or
// answered another request).
inline director::ProviderResponse
sendAndWait(director::Provider& provider, const director::ProviderRequest& request, int timeoutMs = 15'000)
{
    QSignalSpy spy(&provider, &director::Provider::finished);
    const quint64 id = provider.send(request);
    // QSignalSpy::wait runs a real event loop (QTest::qWaitFor sleeps 10 ms between rounds).
    if (!spy.wait(timeoutMs)) {
        director::ProviderResponse none;
        none.error = director::ProviderError::Canceled;
        none.errorMessage = QStringLiteral("test: no finished() signal in time");
        return none;
    }
    auto response = spy.first().at(1).value<director::ProviderResponse>();
    if (spy.first().at(0).toULongLong() != id || response.requestId != id) {
        response = director::ProviderResponse{};
        response.errorMessage = QStringLiteral("test: wrong request id");
    }
    return response;
}

inline QImage filledScreen(QSize size, QColor color)
{
    QImage image(size, QImage::Format_RGB32);
    image.fill(color);
    return image;
}

inline director::ProviderRequest simpleRequest(const QString& text = QStringLiteral("Open the Settings app."))
{
    director::ProviderRequest request;
    request.system = QStringLiteral("You operate a Linux desktop.");
    request.messages = {director::Message::user(text)};
    return request;
}

inline QJsonArray messagesOf(const FakeApiServer::Request& request)
{
    return request.json.value(QStringLiteral("messages")).toArray();
}

} // namespace ciu::test
