// ViewTransform: the live view's root ↔ widget mapping with fit, zoom and pan.

#include "ui/viewtransform.h"

#include <QTest>

using ciu::ui::ViewTransform;

class TestLiveViewTransform : public QObject
{
    Q_OBJECT
private slots:
    void fit_data();
    void fit();
    void roundTrip_data();
    void roundTrip();
    void zoomAtKeepsAnchor_data();
    void zoomAtKeepsAnchor();
    void zoomIsClamped();
    void panAndReset();
    void qtransformMatches();
    void invalid();
};

void TestLiveViewTransform::fit_data()
{
    QTest::addColumn<QRect>("source");
    QTest::addColumn<QSize>("view");
    QTest::addColumn<double>("scale");
    QTest::addColumn<QRectF>("image");
    QTest::newRow("same size") << QRect(0, 0, 800, 600) << QSize(800, 600) << 1.0 << QRectF(0, 0, 800, 600);
    QTest::newRow("half, wide view") << QRect(0, 0, 1600, 1000) << QSize(1000, 500) << 0.5
                                     << QRectF(100, 0, 800, 500);
    QTest::newRow("half, tall view") << QRect(0, 0, 1600, 1000) << QSize(800, 900) << 0.5
                                     << QRectF(0, 200, 800, 500);
    QTest::newRow("upscale") << QRect(0, 0, 320, 200) << QSize(640, 400) << 2.0 << QRectF(0, 0, 640, 400);
    QTest::newRow("monitor origin") << QRect(1920, 0, 1280, 800) << QSize(640, 400) << 0.5
                                    << QRectF(0, 0, 640, 400);
}

void TestLiveViewTransform::fit()
{
    QFETCH(QRect, source);
    QFETCH(QSize, view);
    QFETCH(double, scale);
    QFETCH(QRectF, image);
    const ViewTransform t(source, view);
    QVERIFY(t.isValid());
    QCOMPARE(t.scale(), scale);
    QCOMPARE(t.imageRect(), image);
}

void TestLiveViewTransform::roundTrip_data()
{
    QTest::addColumn<double>("zoom");
    QTest::addColumn<QPointF>("pan");
    QTest::addColumn<QPointF>("source");
    QTest::newRow("fit") << 1.0 << QPointF() << QPointF(640, 400);
    QTest::newRow("zoomed") << 3.0 << QPointF(-120, 45) << QPointF(10.5, 799);
    QTest::newRow("zoomed out") << 0.5 << QPointF(30, 30) << QPointF(0, 0);
}

void TestLiveViewTransform::roundTrip()
{
    QFETCH(double, zoom);
    QFETCH(QPointF, pan);
    QFETCH(QPointF, source);
    ViewTransform t(QRect(0, 0, 1280, 800), QSize(900, 700));
    t.setZoom(zoom);
    t.setPan(pan);
    const QPointF back = t.toSource(t.toView(source));
    QVERIFY(qAbs(back.x() - source.x()) < 1e-9);
    QVERIFY(qAbs(back.y() - source.y()) < 1e-9);
}

void TestLiveViewTransform::zoomAtKeepsAnchor_data()
{
    QTest::addColumn<double>("factor");
    QTest::addColumn<QPointF>("anchor");
    QTest::newRow("in at corner") << 2.0 << QPointF(10, 10);
    QTest::newRow("in at centre") << 1.25 << QPointF(450, 350);
    QTest::newRow("out") << 0.8 << QPointF(700, 100);
}

void TestLiveViewTransform::zoomAtKeepsAnchor()
{
    QFETCH(double, factor);
    QFETCH(QPointF, anchor);
    ViewTransform t(QRect(0, 0, 1280, 800), QSize(900, 700));
    const QPointF before = t.toSource(anchor);
    t.zoomAt(factor, anchor);
    QCOMPARE(t.zoom(), factor);
    const QPointF after = t.toSource(anchor);
    QVERIFY(qAbs(after.x() - before.x()) < 1e-9);
    QVERIFY(qAbs(after.y() - before.y()) < 1e-9);
}

void TestLiveViewTransform::zoomIsClamped()
{
    ViewTransform t(QRect(0, 0, 100, 100), QSize(100, 100));
    t.setZoom(1000);
    QCOMPARE(t.zoom(), ViewTransform::kMaxZoom);
    t.setZoom(0.0001);
    QCOMPARE(t.zoom(), ViewTransform::kMinZoom);
    t.setZoom(std::numeric_limits<double>::quiet_NaN());
    QCOMPARE(t.zoom(), ViewTransform::kMinZoom);
    t.zoomAt(-2, QPointF(1, 1)); // ignored
    QCOMPARE(t.zoom(), ViewTransform::kMinZoom);
}

void TestLiveViewTransform::panAndReset()
{
    ViewTransform t(QRect(0, 0, 800, 600), QSize(800, 600));
    t.panBy(QPointF(10, -5));
    QCOMPARE(t.toView(QPointF(0, 0)), QPointF(10, -5));
    QCOMPARE(t.sourcePixel(QPointF(10.9, -4.2)), QPoint(0, 0));
    QCOMPARE(t.sourcePixel(QPointF(9.9, -5)), QPoint(-1, 0));
    t.setZoom(2);
    t.reset();
    QCOMPARE(t.zoom(), 1.0);
    QCOMPARE(t.pan(), QPointF());
    QCOMPARE(t.toView(QRectF(100, 100, 50, 20)), QRectF(100, 100, 50, 20));
}

void TestLiveViewTransform::qtransformMatches()
{
    ViewTransform t(QRect(100, 50, 1000, 500), QSize(640, 480));
    t.zoomAt(1.7, QPointF(200, 100));
    t.panBy(QPointF(-13, 7));
    const QTransform q = t.transform();
    for (const QPointF p : {QPointF(100, 50), QPointF(600, 300), QPointF(1099, 549)}) {
        const QPointF a = q.map(p);
        const QPointF b = t.toView(p);
        QVERIFY(qAbs(a.x() - b.x()) < 1e-9 && qAbs(a.y() - b.y()) < 1e-9);
    }
}

void TestLiveViewTransform::invalid()
{
    ViewTransform t;
    QVERIFY(!t.isValid());
    QCOMPARE(t.scale(), 1.0);
    t.zoomAt(2, QPointF()); // no crash, no change
    QCOMPARE(t.zoom(), 1.0);
}

QTEST_GUILESS_MAIN(TestLiveViewTransform)
#include "tst_liveviewtransform.moc"
