#include "core/providers/retrypolicy.h"
#include "core/providers/sseparser.h"

#include <QTest>
#include <QTimeZone>

using namespace ciu::director;

// The retry policy and the event-stream parser the providers are built on.
class TestRetryPolicy : public QObject
{
    Q_OBJECT
private slots:
    void shouldRetry_data();
    void shouldRetry();
    void retryAfter_data();
    void retryAfter();
    void backoff_data();
    void backoff();
    void sseParser();
    void sseParserLongLineInSmallReads();
};

void TestRetryPolicy::shouldRetry_data()
{
    QTest::addColumn<int>("status");
    QTest::addColumn<QByteArray>("header");
    QTest::addColumn<bool>("expected");
    QTest::newRow("connection error") << 0 << QByteArray() << true;
    QTest::newRow("400") << 400 << QByteArray() << false;
    QTest::newRow("401") << 401 << QByteArray() << false;
    QTest::newRow("404") << 404 << QByteArray() << false;
    QTest::newRow("408") << 408 << QByteArray() << true;
    QTest::newRow("409") << 409 << QByteArray() << true;
    QTest::newRow("429") << 429 << QByteArray() << true;
    QTest::newRow("500") << 500 << QByteArray() << true;
    QTest::newRow("529") << 529 << QByteArray() << true;
    QTest::newRow("500 x-should-retry false") << 500 << QByteArray("false") << false;
    QTest::newRow("400 x-should-retry true") << 400 << QByteArray("true") << true;
    QTest::newRow("400 x-should-retry junk") << 400 << QByteArray("maybe") << false;
}

void TestRetryPolicy::shouldRetry()
{
    QFETCH(int, status);
    QFETCH(QByteArray, header);
    QFETCH(bool, expected);
    HttpHeaders headers;
    if (!header.isEmpty())
        headers.append({QByteArrayLiteral("X-Should-Retry"), header});
    QCOMPARE(retry::shouldRetry(status, headers), expected);
}

void TestRetryPolicy::retryAfter_data()
{
    QTest::addColumn<QByteArray>("name");
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<qint64>("expectedMs"); // -1: not used (backoff)
    QTest::newRow("retry-after-ms") << QByteArray("retry-after-ms") << QByteArray("1500") << qint64(1500);
    QTest::newRow("retry-after seconds") << QByteArray("retry-after") << QByteArray("2") << qint64(2000);
    QTest::newRow("retry-after fraction") << QByteArray("Retry-After") << QByteArray("0.25") << qint64(250);
    QTest::newRow("retry-after date")
        << QByteArray("retry-after") << QByteArray("Wed, 21 Oct 2015 07:28:30 GMT") << qint64(30'000);
    QTest::newRow("date in the past")
        << QByteArray("retry-after") << QByteArray("Wed, 21 Oct 2015 07:27:00 GMT") << qint64(-1);
    QTest::newRow("over 60 s") << QByteArray("retry-after") << QByteArray("61") << qint64(-1);
    QTest::newRow("zero") << QByteArray("retry-after") << QByteArray("0") << qint64(-1);
    QTest::newRow("garbage") << QByteArray("retry-after") << QByteArray("soon") << qint64(-1);
}

void TestRetryPolicy::retryAfter()
{
    QFETCH(QByteArray, name);
    QFETCH(QByteArray, value);
    QFETCH(qint64, expectedMs);
    const QDateTime now(QDate(2015, 10, 21), QTime(7, 28, 0), QTimeZone::utc());
    const auto ms = retry::retryAfterMs({{name, value}}, now);
    QCOMPARE(ms.value_or(-1), expectedMs);
    if (expectedMs > 0)
        QCOMPARE(retry::delayMs(3, {{name, value}}, 0.9, now), expectedMs);
}

void TestRetryPolicy::backoff_data()
{
    QTest::addColumn<int>("retries");
    QTest::addColumn<double>("random");
    QTest::addColumn<qint64>("expectedMs");
    // min(0.5 · 2^n, 8) s × (1 − 0.25 · rand)
    QTest::newRow("n0 r0") << 0 << 0.0 << qint64(500);
    QTest::newRow("n0 r1") << 0 << 1.0 << qint64(375);
    QTest::newRow("n1 r0") << 1 << 0.0 << qint64(1000);
    QTest::newRow("n2 r0.5") << 2 << 0.5 << qint64(1750);
    QTest::newRow("n4 r0") << 4 << 0.0 << qint64(8000);
    QTest::newRow("n10 capped") << 10 << 0.0 << qint64(8000);
}

void TestRetryPolicy::backoff()
{
    QFETCH(int, retries);
    QFETCH(double, random);
    QFETCH(qint64, expectedMs);
    QCOMPARE(retry::delayMs(retries, {}, random, QDateTime::currentDateTimeUtc()), expectedMs);
}

void TestRetryPolicy::sseParser()
{
    SseParser parser;
    const QByteArray stream = "event: message_start\r\ndata: {\"a\":1}\r\n\r\n"
                              ": keep-alive comment\n\n"
                              "event: ping\ndata: {}\n\n"
                              "data: line one\ndata: line two\n\n"
                              "data: [DONE]\n\n"
                              "event: tail\ndata: x";
    QList<SseParser::Event> events;
    for (char c : stream) // byte by byte: events split across reads
        events += parser.feed(QByteArray(1, c));
    QCOMPARE(events.size(), 4);
    QCOMPARE(events[0].event, QByteArray("message_start"));
    QCOMPARE(events[0].data, QByteArray("{\"a\":1}"));
    QCOMPARE(events[1].event, QByteArray("ping"));
    QCOMPARE(events[2].event, QByteArray());
    QCOMPARE(events[2].data, QByteArray("line one\nline two"));
    QCOMPARE(events[3].data, QByteArray("[DONE]"));
    QVERIFY(parser.hasPartialData());
    const auto rest = parser.flush();
    QCOMPARE(rest.size(), 1);
    QCOMPARE(rest[0].event, QByteArray("tail"));
    QCOMPARE(rest[0].data, QByteArray("x"));
    QVERIFY(!parser.hasPartialData());
}

void TestRetryPolicy::sseParserLongLineInSmallReads()
{
    // An 8 MB data line arriving a byte at a time (a slow or hostile server): each read searches only the new
    // byte for a line end. Searching the whole pending line at each read (3 * 10^13 byte comparisons) made
    // this test run for about 6 minutes, over ctest's limit; 2 MB took 23 s then and 0.25 s now.
    SseParser parser;
    const QByteArray payload(8 * 1024 * 1024, 'x');
    const QByteArray stream = "data: " + payload + "\n\n";
    QList<SseParser::Event> events;
    for (char c : stream)
        events += parser.feed(QByteArray(1, c));
    QCOMPARE(events.size(), 1);
    QCOMPARE(events[0].data.size(), payload.size());
    QVERIFY(events[0].data == payload);
    QVERIFY(!parser.hasPartialData());
    // The same parser goes on with ordinary events.
    events = parser.feed("event: ping\ndata: {}\n\n");
    QCOMPARE(events.size(), 1);
    QCOMPARE(events[0].event, QByteArray("ping"));
}

QTEST_GUILESS_MAIN(TestRetryPolicy)
#include "tst_retrypolicy.moc"
