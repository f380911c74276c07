#include "core/providers/screenshotscaler.h"

#include <QJsonArray>
#include <QTest>

using ciu::director::ScreenshotScaler;

class TestScreenshotScaler : public QObject
{
    Q_OBJECT
private slots:
    void targets_data();
    void targets();
    void roundTrip_data();
    void roundTrip();
    void mapInput();
    void scaleImage();
};

void TestScreenshotScaler::targets_data()
{
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<QSize>("target");
    QTest::newRow("1920x1080 → FWXGA") << QSize(1920, 1080) << QSize(1366, 768);
    QTest::newRow("2560x1440 → FWXGA") << QSize(2560, 1440) << QSize(1366, 768);
    QTest::newRow("2560x1600 → WXGA") << QSize(2560, 1600) << QSize(1280, 800);
    QTest::newRow("1680x1050 → WXGA") << QSize(1680, 1050) << QSize(1280, 800);
    QTest::newRow("1600x1200 → XGA") << QSize(1600, 1200) << QSize(1024, 768);
    QTest::newRow("1280x800 unscaled") << QSize(1280, 800) << QSize(1280, 800);
    QTest::newRow("1024x768 unscaled") << QSize(1024, 768) << QSize(1024, 768);
    QTest::newRow("800x600 unscaled") << QSize(800, 600) << QSize(800, 600);
    QTest::newRow("1000x1000 unscaled (no preset, within limits)") << QSize(1000, 1000) << QSize(1000, 1000);
    QTest::newRow("1280x1024 fitted to 1.15 MP") << QSize(1280, 1024) << QSize(1198, 959);
    // No preset matches 21:9; larger than the limits: fitted to ≤ 1568 px and ≤ 1.15 MP.
    QTest::newRow("3440x1440 fitted") << QSize(3440, 1440) << QSize(1568, 656);
}

void TestScreenshotScaler::targets()
{
    QFETCH(QSize, screen);
    QFETCH(QSize, target);
    const ScreenshotScaler scaler(screen);
    QCOMPARE(scaler.screenSize(), screen);
    QCOMPARE(scaler.targetSize(), target);
    QCOMPARE(scaler.isScaling(), screen != target);
    const QSize fitted = ScreenshotScaler::fitWithinLimits(scaler.targetSize());
    QCOMPARE(fitted, scaler.targetSize()); // every target is within the service's limits
}

void TestScreenshotScaler::roundTrip_data()
{
    QTest::addColumn<QSize>("screen");
    QTest::addColumn<QPoint>("model");
    QTest::addColumn<QPoint>("onScreen");
    QTest::newRow("center 1080p") << QSize(1920, 1080) << QPoint(683, 384) << QPoint(960, 540);
    QTest::newRow("origin") << QSize(1920, 1080) << QPoint(0, 0) << QPoint(0, 0);
    QTest::newRow("last pixel") << QSize(1920, 1080) << QPoint(1365, 767) << QPoint(1919, 1079);
    QTest::newRow("wxga x2") << QSize(2560, 1600) << QPoint(640, 412) << QPoint(1280, 824);
    QTest::newRow("identity") << QSize(1280, 800) << QPoint(640, 412) << QPoint(640, 412);
}

void TestScreenshotScaler::roundTrip()
{
    QFETCH(QSize, screen);
    QFETCH(QPoint, model);
    QFETCH(QPoint, onScreen);
    const ScreenshotScaler scaler(screen);
    QCOMPARE(scaler.toScreen(model), onScreen);
    QCOMPARE(scaler.toModel(onScreen), model);
    QVERIFY(scaler.inModelBounds(model));
    QCOMPARE(scaler.toScreen(QRect(model, QSize(0, 0))).topLeft(), onScreen);
}

void TestScreenshotScaler::mapInput()
{
    const ScreenshotScaler scaler(QSize(2560, 1600));
    QString error;
    const auto mapped =
        scaler.mapInputToScreen(QJsonObject{{QStringLiteral("action"), QStringLiteral("left_click_drag")},
                                            {QStringLiteral("start_coordinate"), QJsonArray{10, 20}},
                                            {QStringLiteral("coordinate"), QJsonArray{1279, 799}},
                                            {QStringLiteral("region"), QJsonArray{0, 0, 640, 400}}},
                                &error);
    QVERIFY2(mapped, qPrintable(error));
    QCOMPARE(mapped->value(QStringLiteral("start_coordinate")).toArray(), (QJsonArray{20, 40}));
    QCOMPARE(mapped->value(QStringLiteral("coordinate")).toArray(), (QJsonArray{2558, 1598}));
    QCOMPARE(mapped->value(QStringLiteral("region")).toArray(), (QJsonArray{0, 0, 1280, 800}));
    QCOMPARE(mapped->value(QStringLiteral("action")).toString(), QStringLiteral("left_click_drag"));

    // Validated against the scaled size (the demo checks the full size: a bug).
    QVERIFY(!scaler.mapInputToScreen({{QStringLiteral("coordinate"), QJsonArray{1280, 10}}}, &error));
    QVERIFY(error.contains(QLatin1String("outside")));
    QVERIFY(!scaler.mapInputToScreen({{QStringLiteral("coordinate"), QJsonArray{-1, 10}}}, &error));
    QVERIFY(!scaler.mapInputToScreen({{QStringLiteral("coordinate"), QJsonArray{10}}}, &error));
    QVERIFY(!scaler.mapInputToScreen({{QStringLiteral("coordinate"), QStringLiteral("10,10")}}, &error));
    QVERIFY(!scaler.mapInputToScreen({{QStringLiteral("region"), QJsonArray{10, 10, 5, 20}}}, &error));
    QVERIFY(scaler.mapInputToScreen({{QStringLiteral("action"), QStringLiteral("screenshot")}}, &error));
}

void TestScreenshotScaler::scaleImage()
{
    QImage image(1920, 1080, QImage::Format_RGB32);
    image.fill(Qt::red);
    const ScreenshotScaler scaler(image.size());
    QCOMPARE(scaler.scaleImage(image).size(), QSize(1366, 768));
    const ScreenshotScaler identity(QSize(1280, 800));
    QImage small(1280, 800, QImage::Format_RGB32);
    QCOMPARE(identity.scaleImage(small).cacheKey(), small.cacheKey());
    QVERIFY(!ScreenshotScaler().isScaling());
}

QTEST_GUILESS_MAIN(TestScreenshotScaler)
#include "tst_screenshotscaler.moc"
