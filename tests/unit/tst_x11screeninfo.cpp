#include "platform/x11/x11screeninfo.h"

#include <QTest>

using namespace ciu::platform::x11;

class TestX11ScreenInfo : public QObject
{
    Q_OBJECT
private slots:
    void xftDpi_data();
    void xftDpi();
    void physicalDpi();
    void stride();
    void copyXrgb32();
    void copyRgb565();
};

void TestX11ScreenInfo::xftDpi_data()
{
    QTest::addColumn<QByteArray>("resources");
    QTest::addColumn<double>("dpi"); // 0: not set
    QTest::newRow("typical") << QByteArray("Xft.antialias:\t1\nXft.dpi:\t120\nXft.hinting:\t1\n") << 120.0;
    QTest::newRow("fraction") << QByteArray("Xft.dpi: 144.5") << 144.5;
    QTest::newRow("last wins") << QByteArray("Xft.dpi:\t96\nXft.dpi:\t192\n") << 192.0;
    QTest::newRow("absent") << QByteArray("Xcursor.size:\t24\n") << 0.0;
    QTest::newRow("other resource with dpi in the name") << QByteArray("XTerm*Xft.dpi:\t200\n") << 0.0;
    QTest::newRow("garbage") << QByteArray("Xft.dpi:\tlarge\n") << 0.0;
    QTest::newRow("absurd") << QByteArray("Xft.dpi:\t0\n") << 0.0;
    QTest::newRow("empty") << QByteArray() << 0.0;
}

void TestX11ScreenInfo::xftDpi()
{
    QFETCH(QByteArray, resources);
    QFETCH(double, dpi);
    const auto parsed = xftDpiFromResources(resources);
    if (dpi == 0.0) {
        QVERIFY(!parsed);
        return;
    }
    QVERIFY(parsed);
    QCOMPARE(*parsed, dpi);
}

void TestX11ScreenInfo::physicalDpi()
{
    QCOMPARE(dpiFromPhysicalSize(1920, 508), 96.0);
    QCOMPARE(dpiFromPhysicalSize(1280, 0), 96.0);
    QCOMPARE(dpiFromPhysicalSize(0, 300), 96.0);
    QVERIFY(qAbs(dpiFromPhysicalSize(1280, 325) - 100.03) < 0.01);
}

void TestX11ScreenInfo::stride()
{
    QCOMPARE(zpixmapStride(300, 32, 32), 1200);
    QCOMPARE(zpixmapStride(3, 16, 32), 8); // 6 bytes padded to 8
    QCOMPARE(zpixmapStride(4, 16, 32), 8);
    QCOMPARE(zpixmapStride(5, 24, 32), 16);
}

void TestX11ScreenInfo::copyXrgb32()
{
    // A 3x2 source with a padded stride, into a 5x4 target at (1, 2).
    const int stride = 16;
    QByteArray source(stride * 2, '\0');
    auto* px = reinterpret_cast<quint32*>(source.data());
    px[0] = 0x00112233;
    px[1] = 0x00445566;
    px[2] = 0x00778899;
    px[4] = 0x00aabbcc;
    px[5] = 0x00ddeeff;
    px[6] = 0x00010203;
    QImage target(5, 4, QImage::Format_RGB32);
    target.fill(Qt::black);
    copyPixels(reinterpret_cast<const uchar*>(source.constData()), stride, PixelLayout::Xrgb32, QSize(3, 2),
               target, QPoint(1, 2));
    QCOMPARE(target.pixel(1, 2), 0xff112233u);
    QCOMPARE(target.pixel(3, 2), 0xff778899u);
    QCOMPARE(target.pixel(2, 3), 0xffddeeffu);
    QCOMPARE(target.pixel(0, 2), 0xff000000u); // untouched
    QCOMPARE(target.pixel(4, 3), 0xff000000u);
    QCOMPARE(target.pixel(1, 1), 0xff000000u);

    // Whole rows of the same stride: one block copy.
    QImage whole(3, 2, QImage::Format_RGB32);
    QByteArray packed(12 * 2, '\0');
    reinterpret_cast<quint32*>(packed.data())[5] = 0x00abcdef;
    copyPixels(reinterpret_cast<const uchar*>(packed.constData()), 12, PixelLayout::Xrgb32, QSize(3, 2),
               whole, QPoint(0, 0));
    QCOMPARE(whole.pixel(2, 1), 0xffabcdefu);
}

void TestX11ScreenInfo::copyRgb565()
{
    const quint16 pixels[2] = {0xf800, 0x07e0}; // red, green
    QImage target(2, 1, QImage::Format_RGB32);
    copyPixels(reinterpret_cast<const uchar*>(pixels), 4, PixelLayout::Rgb565, QSize(2, 1), target,
               QPoint(0, 0));
    QCOMPARE(target.pixel(0, 0), qRgb(255, 0, 0));
    QCOMPARE(target.pixel(1, 0), qRgb(0, 255, 0));
}

QTEST_GUILESS_MAIN(TestX11ScreenInfo)
#include "tst_x11screeninfo.moc"
