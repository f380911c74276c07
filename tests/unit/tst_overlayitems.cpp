// Overlay items: geometry of zones, selection handles, paths and labels for a given map and scale.

#include "core/model/zonemap.h"
#include "ui/overlayitems.h"
#include "ui/zonestyle.h"

#include <QImage>
#include <QPainter>
#include <QTest>

using namespace ciu;
using namespace ciu::ui;

namespace {
Zone zone(const QString& id, QRect bounds, ZoneType type, double confidence)
{
    Zone z;
    z.id = id;
    z.bounds = bounds;
    z.type = type;
    z.confidence = confidence;
    return z;
}
} // namespace

class TestOverlayItems : public QObject
{
    Q_OBJECT
private slots:
    void zoneGeometry_data();
    void zoneGeometry();
    void opacityByConfidence();
    void colourByType();
    void layerOrdersLargeFirst();
    void handles_data();
    void handles();
    void dragged_data();
    void dragged();
    void pathBounds();
    void labelStaysInView();
    void labelAvoidsNeighbours();
    void paintsInsideBoundingRect();
};

void TestOverlayItems::zoneGeometry_data()
{
    QTest::addColumn<QRect>("screen");
    QTest::addColumn<QSize>("view");
    QTest::addColumn<QRect>("bounds");
    QTest::addColumn<QRectF>("expected");
    QTest::newRow("1:1") << QRect(0, 0, 800, 600) << QSize(800, 600) << QRect(10, 20, 100, 30)
                         << QRectF(10, 20, 100, 30);
    QTest::newRow("half") << QRect(0, 0, 1600, 1200) << QSize(800, 600) << QRect(100, 200, 300, 40)
                          << QRectF(50, 100, 150, 20);
    QTest::newRow("letterbox") << QRect(0, 0, 1000, 500) << QSize(500, 500) << QRect(0, 0, 1000, 500)
                               << QRectF(0, 125, 500, 250);
}

void TestOverlayItems::zoneGeometry()
{
    QFETCH(QRect, screen);
    QFETCH(QSize, view);
    QFETCH(QRect, bounds);
    QFETCH(QRectF, expected);
    const ViewTransform t(screen, view);
    const ZoneMap map(1, 0, screen.size(), {zone(QStringLiteral("z1"), bounds, ZoneType::Button, 0.9)});
    ZoneLayer layer;
    layer.setZones(map.zones());
    QCOMPARE(layer.items().size(), size_t(1));
    const QRectF r = layer.items().front().boundingRect(t);
    // The bounding rect covers the zone plus the 1 px outline.
    QCOMPARE(r, expected.adjusted(-1, -1, 1, 1));
    QCOMPARE(layer.boundingRect(t), r);
}

void TestOverlayItems::opacityByConfidence()
{
    const ZoneItem low(zone(QStringLiteral("a"), QRect(0, 0, 10, 10), ZoneType::Button, 0.1));
    const ZoneItem high(zone(QStringLiteral("b"), QRect(0, 0, 10, 10), ZoneType::Button, 1.0));
    QVERIFY(low.fillColor().alphaF() < high.fillColor().alphaF());
    QVERIFY(low.outlineColor().alphaF() < high.outlineColor().alphaF());
    QCOMPARE(zoneFillOpacity(-3), zoneFillOpacity(0));
    QCOMPARE(zoneFillOpacity(7), zoneFillOpacity(1));
    QCOMPARE(zoneFillOpacity(std::numeric_limits<double>::quiet_NaN()), zoneFillOpacity(0));
}

void TestOverlayItems::colourByType()
{
    QSet<QRgb> colours;
    for (int t = int(ZoneType::Button); t <= int(ZoneType::Static); ++t) {
        colours.insert(zoneColor(ZoneType(t)).rgb());
        QVERIFY(!zoneTypeDisplayName(ZoneType(t)).isEmpty());
    }
    QCOMPARE(colours.size(), int(ZoneType::Static)); // one distinct colour per type
    const ZoneItem item(zone(QStringLiteral("a"), QRect(0, 0, 10, 10), ZoneType::TextField, 1.0));
    QCOMPARE(item.fillColor().rgb(), zoneColor(ZoneType::TextField).rgb());
}

void TestOverlayItems::layerOrdersLargeFirst()
{
    ZoneLayer layer;
    layer.setZones({zone(QStringLiteral("small"), QRect(10, 10, 5, 5), ZoneType::Button, 1),
                    zone(QStringLiteral("big"), QRect(0, 0, 100, 100), ZoneType::ScrollArea, 1)});
    QCOMPARE(layer.items().front().zone().id, QStringLiteral("big"));
    QCOMPARE(layer.items().back().zone().id, QStringLiteral("small"));
}

void TestOverlayItems::handles_data()
{
    QTest::addColumn<QPointF>("viewPoint");
    QTest::addColumn<int>("handle");                               // 0: none
    const ViewTransform t(QRect(0, 0, 200, 200), QSize(400, 400)); // scale 2
    Q_UNUSED(t);
    // Zone (50,50 100×50) → view (100,100)-(300,200).
    QTest::newRow("top left") << QPointF(101, 99) << int(SelectionItem::Handle::TopLeft);
    QTest::newRow("bottom right") << QPointF(300, 200) << int(SelectionItem::Handle::BottomRight);
    QTest::newRow("right") << QPointF(302, 150) << int(SelectionItem::Handle::Right);
    QTest::newRow("top") << QPointF(200, 101) << int(SelectionItem::Handle::Top);
    QTest::newRow("inside") << QPointF(150, 150) << int(SelectionItem::Handle::Move);
    // The handles sit outside the rectangle: just inside its corner is the zone itself.
    QTest::newRow("inside the corner") << QPointF(104, 104) << int(SelectionItem::Handle::Move);
    QTest::newRow("outside") << QPointF(20, 20) << 0;
}

void TestOverlayItems::handles()
{
    QFETCH(QPointF, viewPoint);
    QFETCH(int, handle);
    const ViewTransform t(QRect(0, 0, 200, 200), QSize(400, 400));
    SelectionItem selection;
    selection.setRect(QRect(50, 50, 100, 50));
    const auto found = selection.handleAt(viewPoint, t);
    QCOMPARE(found ? int(*found) : 0, handle);
    QCOMPARE(SelectionItem::handleRects(t.toView(QRectF(50, 50, 100, 50))).size(), 8);
}

void TestOverlayItems::dragged_data()
{
    using H = SelectionItem::Handle;
    QTest::addColumn<int>("handle");
    QTest::addColumn<QPoint>("delta");
    QTest::addColumn<QRect>("expected");
    const QRect r(10, 10, 100, 50);
    Q_UNUSED(r);
    QTest::newRow("move") << int(H::Move) << QPoint(5, -3) << QRect(15, 7, 100, 50);
    QTest::newRow("right") << int(H::Right) << QPoint(20, 99) << QRect(10, 10, 120, 50);
    QTest::newRow("top left") << int(H::TopLeft) << QPoint(5, 5) << QRect(15, 15, 95, 45);
    QTest::newRow("bottom") << int(H::Bottom) << QPoint(0, -10) << QRect(10, 10, 100, 40);
    QTest::newRow("flipped") << int(H::Left) << QPoint(150, 0) << QRect(110, 10, 50, 50);
    QTest::newRow("collapsed") << int(H::Right) << QPoint(-100, 0) << QRect(10, 10, 1, 50);
}

void TestOverlayItems::dragged()
{
    QFETCH(int, handle);
    QFETCH(QPoint, delta);
    QFETCH(QRect, expected);
    QCOMPARE(SelectionItem::dragged(QRect(10, 10, 100, 50), SelectionItem::Handle(handle), delta), expected);
}

void TestOverlayItems::pathBounds()
{
    const ViewTransform t(QRect(0, 0, 100, 100), QSize(200, 200));
    PathItem planned(PathItem::Style::Planned);
    QVERIFY(planned.boundingRect(t).isNull());
    planned.setPoints({QPointF(10, 10), QPointF(50, 30), QPointF(20, 60)});
    QCOMPARE(planned.boundingRect(t), QRectF(QPointF(20, 20), QPointF(100, 120)).adjusted(-8, -8, 8, 8));
    PathItem trail(PathItem::Style::Trail);
    trail.setPoints({QPointF(0, 0), QPointF(10, 0)}, {1.0, 0.0});
    QCOMPARE(trail.boundingRect(t), QRectF(QPointF(0, 0), QPointF(20, 0)).adjusted(-6, -6, 6, 6));
}

void TestOverlayItems::labelStaysInView()
{
    const ViewTransform t(QRect(0, 0, 400, 300), QSize(400, 300));
    LabelItem label;
    label.setText(QStringLiteral("Button “OK” · 90 %"), QRect(390, 0, 10, 10));
    const QRectF box = label.boundingRect(t);
    QVERIFY(box.right() <= 401); // pushed left into the view
    QVERIFY(box.top() >= 9);     // below the zone: no room above
    label.setText({}, {});
    QVERIFY(label.boundingRect(t).isNull());
}

void TestOverlayItems::labelAvoidsNeighbours()
{
    const ViewTransform t(QRect(0, 0, 400, 300), QSize(400, 300)); // scale 1
    LabelItem label;
    const QRect key(100, 100, 40, 30);
    const QRect above(100, 60, 40, 30); // the row above, as on a keypad
    label.setText(QStringLiteral("Button “5”"), key, {key, above});
    const QRectF box = label.boundingRect(t).adjusted(1, 1, -1, -1);
    QVERIFY2(!box.intersects(QRectF(above)), "the label hides the zone above");
    QVERIFY(!box.intersects(QRectF(key)));
    QVERIFY(box.top() >= key.bottom()); // below
    // Neighbours above and below: to the right.
    const QRect below(100, 140, 40, 30);
    label.setText(QStringLiteral("Button “5”"), key, {above, below});
    const QRectF right = label.boundingRect(t).adjusted(1, 1, -1, -1);
    QVERIFY(right.left() >= key.left() + key.width());
    QVERIFY(!right.intersects(QRectF(above)) && !right.intersects(QRectF(below)));
    // Zoomed far out the label is not drawn at all.
    const ViewTransform far(QRect(0, 0, 4000, 3000), QSize(400, 300)); // scale 0.1
    QVERIFY(label.boundingRect(far).isNull());
}

void TestOverlayItems::paintsInsideBoundingRect()
{
    // Paint each item alone on a transparent image and check no pixel lies outside its bounding rect.
    const ViewTransform t(QRect(0, 0, 300, 200), QSize(600, 400));
    ZoneItem zoneItem(zone(QStringLiteral("z"), QRect(20, 30, 40, 20), ZoneType::Link, 1));
    HighlightItem highlight(HighlightItem::Style::Target);
    highlight.setRect(QRect(100, 100, 30, 10));
    SelectionItem selection;
    selection.setRect(QRect(150, 50, 60, 60));
    PathItem planned(PathItem::Style::Planned);
    planned.setPoints({QPointF(5, 5), QPointF(200, 150)});
    FlashItem flash;
    flash.setRegions({QRect(250, 10, 20, 20)});
    flash.setOpacity(1);
    const QList<const OverlayItem*> items{&zoneItem, &highlight, &selection, &planned, &flash};
    for (const OverlayItem* item : items) {
        QImage image(600, 400, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            item->paint(painter, t);
        }
        const QRect bounds = item->boundingRect(t).toAlignedRect().adjusted(-1, -1, 1, 1);
        int painted = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                if (qAlpha(image.pixel(x, y)) == 0)
                    continue;
                ++painted;
                QVERIFY2(bounds.contains(x, y),
                         qPrintable(QStringLiteral("pixel %1,%2 outside").arg(x).arg(y)));
            }
        }
        QVERIFY(painted > 0);
    }
}

QTEST_MAIN(TestOverlayItems)
#include "tst_overlayitems.moc"
