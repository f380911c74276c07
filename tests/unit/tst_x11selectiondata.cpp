#include "platform/x11/x11selectiondata.h"

#include <QTest>

using namespace ciu::platform::x11;

class TestX11SelectionData : public QObject
{
    Q_OBJECT
private slots:
    void text();
    void image();
    void preferredImage_data();
    void preferredImage();
};

void TestX11SelectionData::text()
{
    const QString text = QStringLiteral("Grüße, 東京 ✓");
    const SelectionData data = selectionDataForText(text);
    for (const char* target : {"UTF8_STRING", "text/plain;charset=utf-8", "TEXT"}) {
        const SelectionItem* item = data.find(target);
        QVERIFY2(item, target);
        QCOMPARE(QString::fromUtf8(item->data), text);
    }
    QCOMPARE(data.find("TEXT")->type, QByteArray("UTF8_STRING"));
    // STRING is Latin-1: what it cannot hold becomes '?'.
    QCOMPARE(QString::fromLatin1(data.find("STRING")->data), QStringLiteral("Grüße, ?? ?"));
    QVERIFY(!data.find("image/png"));
    QVERIFY(data.targets().contains("UTF8_STRING"));
    // Empty text is still text.
    QVERIFY(!selectionDataForText(QString()).isEmpty());
}

void TestX11SelectionData::image()
{
    QImage image(7, 5, QImage::Format_RGB32);
    image.fill(QColor(10, 200, 30));
    const SelectionData data = selectionDataForImage(image);
    const SelectionItem* png = data.find("image/png");
    QVERIFY(png);
    const QImage decoded = QImage::fromData(png->data, "PNG");
    QCOMPARE(decoded.size(), QSize(7, 5));
    QCOMPARE(decoded.pixel(6, 4), qRgb(10, 200, 30));
    QVERIFY(selectionDataForImage(QImage()).isEmpty());
}

void TestX11SelectionData::preferredImage_data()
{
    QTest::addColumn<QList<QByteArray>>("offered");
    QTest::addColumn<QByteArray>("expected"); // empty: none
    QTest::newRow("png first") << QList<QByteArray>{"TARGETS", "image/bmp", "image/png"}
                               << QByteArray("image/png");
    QTest::newRow("bmp") << QList<QByteArray>{"TARGETS", "image/bmp", "UTF8_STRING"}
                         << QByteArray("image/bmp");
    QTest::newRow("gif via Qt") << QList<QByteArray>{"image/gif"} << QByteArray("image/gif");
    QTest::newRow("text only") << QList<QByteArray>{"TARGETS", "UTF8_STRING", "STRING"} << QByteArray();
    QTest::newRow("unknown image type") << QList<QByteArray>{"image/x-nonsense"} << QByteArray();
}

void TestX11SelectionData::preferredImage()
{
    QFETCH(QList<QByteArray>, offered);
    QFETCH(QByteArray, expected);
    const auto target = preferredImageTarget(offered);
    if (expected.isEmpty()) {
        QVERIFY(!target);
        return;
    }
    QVERIFY(target);
    QCOMPARE(*target, expected);
}

QTEST_GUILESS_MAIN(TestX11SelectionData)
#include "tst_x11selectiondata.moc"
