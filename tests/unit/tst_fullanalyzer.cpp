// Tier 2: strict validation of a model's zone inventory (canned replies), then the FullAnalyzer through
// a real provider against the fake API server (good inventory, out-of-screen boxes, malformed JSON,
// unknown types, a refusal, an HTTP error).

#include "core/canvas/fullanalyzer.h"
#include "core/canvas/inventoryparser.h"
#include "core/providers/anthropicprovider.h"
#include "tests/support/fakeapiserver.h"

#include <QBuffer>
#include <QImageReader>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace ciu;
using canvas::FullAnalysisResult;
using canvas::InventoryParseOptions;
using canvas::InventoryReport;
using ciu::test::FakeApiServer;

namespace {

InventoryParseOptions identity(QSize size)
{
    InventoryParseOptions o;
    o.imageSize = size;
    return o;
}

const char* kGood = R"([
  {"x": 10, "y": 20, "width": 80, "height": 24, "type": "button", "label": "OK", "state": ["enabled", "focused"], "parent": 2},
  {"x": 100, "y": 20, "width": 200, "height": 24, "type": "text_field", "label": "Name", "state": "enabled", "parent": 2},
  {"x": 0, "y": 0, "width": 400, "height": 100, "type": "static", "label": "Form", "state": [], "parent": null}
])";

} // namespace

class TestFullAnalyzer : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void promptFollowsTheSeed();
    void parse_data();
    void parse();
    void parentsAndStates();
    void coordinatesAreMappedBack();
    void labelsAreSanitised();
    void goodInventoryThroughTheProvider();
    void badRepliesThroughTheProvider_data();
    void badRepliesThroughTheProvider();
    void providerErrorIsReported();
    void noProviderDoesNothing();

private:
    FullAnalysisResult runThroughServer(const FakeApiServer::Step& step, const QImage& image,
                                        const QRect& region = {});
    std::unique_ptr<FakeApiServer> m_server;
};

void TestFullAnalyzer::initTestCase()
{
    m_server = std::make_unique<FakeApiServer>();
    QVERIFY(m_server->start());
}

void TestFullAnalyzer::promptFollowsTheSeed()
{
    const QString prompt = canvas::inventoryPrompt(QSize(1280, 800));
    QVERIFY(
        prompt.startsWith(QLatin1String("Analyze this screenshot and identify all interactive elements.")));
    QVERIFY(prompt.contains(QLatin1String("Screenshot dimensions: 1280 x 800")));
    QVERIFY(prompt.contains(QLatin1String("JSON array")));
    for (const char* field : {"x", "y", "width", "height", "type", "label", "state", "parent"})
        QVERIFY(prompt.contains(QString(QLatin1Char('"') + QLatin1String(field) + QLatin1Char('"'))));
}

void TestFullAnalyzer::parse_data()
{
    QTest::addColumn<QString>("reply");
    QTest::addColumn<int>("accepted");
    QTest::addColumn<int>("rejected");
    QTest::addColumn<QString>("rejectedReason");
    QTest::addColumn<bool>("malformed");
    QTest::addColumn<bool>("refused");

    QTest::newRow("good inventory") << QString::fromUtf8(kGood) << 3 << 0 << QString() << false << false;
    QTest::newRow("fenced with prose") << QString(QStringLiteral("Here are the elements:\n```json\n") +
                                                  QString::fromUtf8(kGood) + QStringLiteral("\n```\nDone."))
                                       << 3 << 0 << QString() << false << false;
    QTest::newRow("object with elements")
        << QStringLiteral(
               R"({"elements": [{"x": 1, "y": 1, "width": 30, "height": 20, "type": "checkbox", "label": "A"}]})")
        << 1 << 0 << QString() << false << false;
    QTest::newRow("out of screen")
        << QStringLiteral(
               R"([{"x": 10, "y": 10, "width": 50, "height": 20, "type": "button", "label": "in"},
            {"x": 620, "y": 10, "width": 50, "height": 20, "type": "button", "label": "right"},
            {"x": -40, "y": 10, "width": 30, "height": 20, "type": "button", "label": "left"},
            {"x": 10, "y": 470, "width": 50, "height": 20, "type": "button", "label": "below"}])")
        << 1 << 3 << "out_of_bounds" << false << false;
    QTest::newRow("slight overflow is clipped")
        << QStringLiteral(
               R"([{"x": 600, "y": 460, "width": 42, "height": 22, "type": "button", "label": "edge"}])")
        << 1 << 0 << QString() << false << false;
    QTest::newRow("unknown types")
        << QStringLiteral(
               R"([{"x": 10, "y": 10, "width": 50, "height": 20, "type": "hologram", "label": "?"},
            {"x": 10, "y": 40, "width": 50, "height": 20, "type": "combobox", "label": "synonym ok"}])")
        << 1 << 1 << "unknown_type" << false << false;
    QTest::newRow("bad boxes") << QStringLiteral(
                                      R"([{"x": "10", "y": 10, "width": 50, "height": 20, "type": "button"},
            {"x": 10, "y": 10, "width": 0, "height": 20, "type": "button"},
            {"x": 10, "y": 10, "height": 20, "type": "button"},
            {"x": 10, "y": 10, "width": 2, "height": 2, "type": "button"},
            {"x": 0, "y": 0, "width": 640, "height": 480, "type": "static"},
            "not an object"])") << 0
                               << 6 << "bad_box" << false << false;
    QTest::newRow("malformed JSON") << QStringLiteral(R"([{"x": 10, "y": 10, "width": 50,)") << 0 << 0
                                    << QString() << true << false;
    QTest::newRow("prose only") << QStringLiteral("The screenshot shows a form with two fields.") << 0 << 0
                                << QString() << true << false;
    QTest::newRow("empty") << QString() << 0 << 0 << QString() << true << false;
    QTest::newRow("refusal") << QStringLiteral(
                                    "I'm sorry, but I can't help with identifying elements in this image.")
                             << 0 << 0 << QString() << false << true;
    QTest::newRow("empty array") << QStringLiteral("[]") << 0 << 0 << QString() << false << false;
}

void TestFullAnalyzer::parse()
{
    QFETCH(QString, reply);
    QFETCH(int, accepted);
    QFETCH(int, rejected);
    QFETCH(QString, rejectedReason);
    QFETCH(bool, malformed);
    QFETCH(bool, refused);
    const InventoryReport report = canvas::parseInventory(reply, identity(QSize(640, 480)));
    QCOMPARE(report.accepted, accepted);
    QCOMPARE(report.zones.size(), accepted);
    QCOMPARE(report.rejected, rejected);
    QCOMPARE(report.malformed, malformed);
    QCOMPARE(report.refused, refused);
    QCOMPARE(report.ok(), !malformed && !refused);
    QCOMPARE(report.error.isEmpty(), report.ok());
    if (!rejectedReason.isEmpty())
        QVERIFY2(report.rejectedBy.value(rejectedReason) > 0,
                 qPrintable(report.problems.join(QLatin1Char('\n'))));
    int sum = 0;
    for (const int n : report.rejectedBy)
        sum += n;
    QCOMPARE(sum, rejected);
    for (const Zone& z : report.zones) {
        QVERIFY(QRect(0, 0, 640, 480).contains(z.bounds));
        QCOMPARE(int(z.source), int(ZoneSource::Model));
    }
}

void TestFullAnalyzer::parentsAndStates()
{
    const InventoryReport report =
        canvas::parseInventory(QString::fromUtf8(kGood), identity(QSize(640, 480)));
    QCOMPARE(report.zones.size(), 3);
    QCOMPARE(int(report.zones.at(0).type), int(ZoneType::Button));
    QCOMPARE(report.zones.at(0).label, QStringLiteral("OK"));
    QVERIFY(report.zones.at(0).state.testFlag(ZoneStateFlag::Focused));
    QCOMPARE(report.zones.at(0).parentId, report.zones.at(2).id);
    QCOMPARE(report.zones.at(1).parentId, report.zones.at(2).id);
    QVERIFY(report.zones.at(2).parentId.isEmpty());
    QVERIFY(report.zones.at(1).state.testFlag(ZoneStateFlag::Enabled));
    QVERIFY(report.zones.at(0).id.startsWith(QLatin1String("tmp:")));
}

void TestFullAnalyzer::coordinatesAreMappedBack()
{
    InventoryParseOptions o;
    o.imageSize = QSize(640, 400); // the model saw half the size of a region at (100, 50)
    o.toScreen = [](const QRect& r) {
        return QRect(r.x() * 2 + 100, r.y() * 2 + 50, r.width() * 2, r.height() * 2);
    };
    const InventoryReport report = canvas::parseInventory(
        QStringLiteral(R"([{"x": 10, "y": 20, "width": 30, "height": 12, "type": "button", "label": "OK"}])"),
        o);
    QCOMPARE(report.zones.size(), 1);
    QCOMPARE(report.zones.first().bounds, QRect(120, 90, 60, 24));
}

void TestFullAnalyzer::labelsAreSanitised()
{
    const InventoryReport report = canvas::parseInventory(
        QStringLiteral(
            R"([{"x": 10, "y": 20, "width": 30, "height": 12, "type": "link", "label": "a\u0000b\u202Ec\n d"},
                          {"x": 10, "y": 40, "width": 30, "height": 12, "type": "link", "label": 42}])"),
        identity(QSize(640, 480)));
    QCOMPARE(report.zones.size(), 1);
    QCOMPARE(report.zones.first().label, QStringLiteral("a b c d"));
    QCOMPARE(report.rejectedBy.value(QStringLiteral("bad_label")), 1);
}

FullAnalysisResult TestFullAnalyzer::runThroughServer(const FakeApiServer::Step& step, const QImage& image,
                                                      const QRect& region)
{
    m_server->reset();
    m_server->enqueue(step);
    director::ProviderConfig config;
    config.baseUrl = m_server->baseUrl();
    config.apiKey = QStringLiteral("sk-ant-test-key");
    config.defaultModel = QStringLiteral("claude-sonnet-4-5");
    config.maxAttempts = 1;
    config.requestTimeoutMs = 5000;
    director::AnthropicProvider provider(config);
    canvas::FullAnalyzer analyzer;
    analyzer.setProvider(&provider);
    QSignalSpy spy(&analyzer, &canvas::FullAnalyzer::finished);
    const quint64 id = analyzer.analyze(image, QPoint(0, 0), region, QStringLiteral("test"));
    if (id == 0 || !QTest::qWaitFor([&] { return spy.size() > 0; }, 15000))
        return {};
    return spy.first().first().value<FullAnalysisResult>();
}

void TestFullAnalyzer::goodInventoryThroughTheProvider()
{
    QImage screen(1920, 1080, QImage::Format_RGB32); // scaled to 1280×720 for the model? (no preset: 16:9)
    screen.fill(Qt::white);
    const FullAnalysisResult result =
        runThroughServer(FakeApiServer::textReply(QString::fromUtf8(kGood)), screen);
    QVERIFY2(result.ok, qPrintable(result.error));
    QCOMPARE(result.requestId > 0, true);
    QCOMPARE(result.report.accepted, 3);
    QCOMPARE(result.inputTokens, 100);
    QCOMPARE(result.reason, QStringLiteral("test"));
    // The request: the seed's prompt and one image, no more than the service accepts.
    QCOMPARE(m_server->requestCount(), 1);
    const QJsonObject body = m_server->lastRequest().json;
    const QJsonArray content = body.value(QLatin1String("messages"))
                                   .toArray()
                                   .first()
                                   .toObject()
                                   .value(QLatin1String("content"))
                                   .toArray();
    QCOMPARE(content.size(), 2);
    QCOMPARE(content.at(0).toObject().value(QLatin1String("type")).toString(), QStringLiteral("image"));
    const QByteArray png = QByteArray::fromBase64(content.at(0)
                                                      .toObject()
                                                      .value(QLatin1String("source"))
                                                      .toObject()
                                                      .value(QLatin1String("data"))
                                                      .toString()
                                                      .toLatin1());
    QBuffer buffer;
    buffer.setData(png);
    const QSize shown = QImageReader(&buffer).size();
    QVERIFY(shown.isValid());
    QVERIFY(shown.width() <= 1568 && shown.width() * shown.height() <= 1'150'000);
    QVERIFY(content.at(1)
                .toObject()
                .value(QLatin1String("text"))
                .toString()
                .contains(
                    QStringLiteral("Screenshot dimensions: %1 x %2").arg(shown.width()).arg(shown.height())));
    // Coordinates come back in screen pixels.
    const double sx = 1920.0 / shown.width();
    const QRect ok = result.report.zones.first().bounds;
    QVERIFY2(
        std::abs(ok.x() - qRound(10 * sx)) <= 1 && std::abs(ok.width() - qRound(80 * sx)) <= 2,
        qPrintable(QStringLiteral("%1,%2 %3x%4").arg(ok.x()).arg(ok.y()).arg(ok.width()).arg(ok.height())));
}

void TestFullAnalyzer::badRepliesThroughTheProvider_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("accepted");
    QTest::addColumn<int>("rejected");
    QTest::addColumn<bool>("ok");
    QTest::newRow("out-of-screen boxes") << 1 << 1 << 2 << true;
    QTest::newRow("malformed JSON") << 2 << 0 << 0 << false;
    QTest::newRow("refusal text") << 3 << 0 << 0 << false;
    QTest::newRow("refusal stop reason") << 4 << 0 << 0 << false;
    QTest::newRow("unknown types") << 5 << 1 << 1 << true;
}

void TestFullAnalyzer::badRepliesThroughTheProvider()
{
    QFETCH(int, kind);
    QFETCH(int, accepted);
    QFETCH(int, rejected);
    QFETCH(bool, ok);
    QImage screen(1024, 768, QImage::Format_RGB32); // sent unscaled
    screen.fill(Qt::lightGray);
    FakeApiServer::Step step;
    switch (kind) {
    case 1:
        step = FakeApiServer::textReply(QStringLiteral(
            R"([{"x": 10, "y": 10, "width": 50, "height": 20, "type": "button", "label": "in"},
                {"x": 2000, "y": 10, "width": 50, "height": 20, "type": "button", "label": "far right"},
                {"x": 10, "y": 760, "width": 50, "height": 40, "type": "button", "label": "below"}])"));
        break;
    case 2:
        step = FakeApiServer::textReply(QStringLiteral("[{\"x\": 10, \"y\": "));
        break;
    case 3:
        step = FakeApiServer::textReply(QStringLiteral("I can't help with that request."));
        break;
    case 4:
        step = FakeApiServer::textReply(QString(), QStringLiteral("refusal"));
        break;
    default:
        step = FakeApiServer::textReply(QStringLiteral(
            R"([{"x": 10, "y": 10, "width": 50, "height": 20, "type": "button", "label": "in"},
                {"x": 10, "y": 40, "width": 50, "height": 20, "type": "spaceship", "label": "?"}])"));
        break;
    }
    const FullAnalysisResult result = runThroughServer(step, screen);
    QVERIFY(result.requestId > 0);
    QCOMPARE(result.ok, ok);
    QCOMPARE(result.report.accepted, accepted);
    QCOMPARE(result.report.rejected, rejected);
    QCOMPARE(result.error.isEmpty(), ok);
    if (kind == 3 || kind == 4)
        QVERIFY(result.report.refused);
}

void TestFullAnalyzer::providerErrorIsReported()
{
    QImage screen(640, 480, QImage::Format_RGB32);
    screen.fill(Qt::white);
    const FullAnalysisResult result = runThroughServer(
        FakeApiServer::error(400, QStringLiteral("invalid_request_error"), QStringLiteral("bad image")),
        screen, QRect(100, 100, 200, 100));
    QVERIFY(result.requestId > 0);
    QVERIFY(!result.ok);
    QVERIFY(!result.error.isEmpty());
    QVERIFY(!result.error.contains(QLatin1String("sk-ant-test-key")));
    QCOMPARE(result.region, QRect(100, 100, 200, 100));
}

void TestFullAnalyzer::noProviderDoesNothing()
{
    canvas::FullAnalyzer analyzer;
    QVERIFY(!analyzer.hasProvider());
    QImage screen(64, 64, QImage::Format_RGB32);
    QCOMPARE(analyzer.analyze(screen, QPoint(0, 0), {}, QStringLiteral("test")), quint64(0));
}

QTEST_MAIN(TestFullAnalyzer)
#include "tst_fullanalyzer.moc"
