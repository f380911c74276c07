// EventLogModel and its filter: rows, columns, filtering by kind and text, trimming, the log view.

#include "core/model/secrets.h"
#include "ui/eventlogmodel.h"
#include "ui/eventlogview.h"

#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace ciu;
using namespace ciu::ui;

namespace {
SpatialEvent makeEvent(SpatialEvent::Kind kind, qint64 tNs, const QString& zone = {}, QVariantMap data = {})
{
    SpatialEvent e;
    e.kind = kind;
    e.tNs = tNs;
    e.zoneId = zone;
    e.data = std::move(data);
    return e;
}
} // namespace

class TestEventLogModel : public QObject
{
    Q_OBJECT
private slots:
    void columns();
    void filter_data();
    void filter();
    void trimsOldest();
    void formatting();
    void secretsRedacted();
    void viewSelectionReportsZone();
    void viewFollowsUnlessScrolledUp();

private:
    void fill(EventLogModel& model);
};

void TestEventLogModel::fill(EventLogModel& model)
{
    model.appendEvent(makeEvent(SpatialEvent::Kind::ZoneEnter, 1'000'000'000, QStringLiteral("z1")));
    model.appendEvent(makeEvent(SpatialEvent::Kind::ZoneClick, 1'500'000'000, QStringLiteral("z1"),
                                {{QStringLiteral("button"), QStringLiteral("left")}}));
    model.appendEvents({makeEvent(SpatialEvent::Kind::ModelCall, 2'000'000'000, {},
                                  {{QStringLiteral("model"), QStringLiteral("claude-sonnet")}}),
                        makeEvent(SpatialEvent::Kind::Error, 2'500'000'000, QStringLiteral("z7"),
                                  {{QStringLiteral("message"), QStringLiteral("Button not found")}}),
                        makeEvent(SpatialEvent::Kind::ZoneClick, 3'000'000'000, QStringLiteral("z2"),
                                  {{QStringLiteral("button"), QStringLiteral("right")}})});
}

void TestEventLogModel::columns()
{
    EventLogModel model;
    QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
    fill(model);
    QCOMPARE(inserted.count(), 3);
    QCOMPARE(model.rowCount(), 5);
    QCOMPARE(model.columnCount(), 4);
    QCOMPARE(model.index(1, EventLogModel::TimeColumn).data().toString(), QStringLiteral("1.500"));
    QCOMPARE(model.index(1, EventLogModel::KindColumn).data().toString(),
             EventLogModel::kindDisplayName(SpatialEvent::Kind::ZoneClick));
    QCOMPARE(model.index(1, EventLogModel::ZoneColumn).data().toString(), QStringLiteral("z1"));
    QCOMPARE(model.index(1, EventLogModel::DetailsColumn).data().toString(), QStringLiteral("button=left"));
    QCOMPARE(model.index(3, 0).data(EventLogModel::KindRole).toInt(), int(SpatialEvent::Kind::Error));
    QCOMPARE(model.index(3, 0).data(EventLogModel::ZoneIdRole).toString(), QStringLiteral("z7"));
    QVERIFY(!model.index(5, 0).data().isValid());
    QVERIFY(!model.headerData(EventLogModel::DetailsColumn, Qt::Horizontal).toString().isEmpty());
}

void TestEventLogModel::filter_data()
{
    QTest::addColumn<int>("kind"); // 0: all
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("zones"); // zone column of the remaining rows
    QTest::newRow("all") << 0 << QString()
                         << QStringList{QStringLiteral("z1"), QStringLiteral("z1"), QStringLiteral(""),
                                        QStringLiteral("z7"), QStringLiteral("z2")};
    QTest::newRow("clicks") << int(SpatialEvent::Kind::ZoneClick) << QString()
                            << QStringList{QStringLiteral("z1"), QStringLiteral("z2")};
    QTest::newRow("text in details") << 0 << QStringLiteral("RIGHT") << QStringList{QStringLiteral("z2")};
    QTest::newRow("text in zone") << 0 << QStringLiteral("z7") << QStringList{QStringLiteral("z7")};
    QTest::newRow("text by kind name")
        << 0 << QStringLiteral("model_call") << QStringList{QStringLiteral("")};
    QTest::newRow("kind and text") << int(SpatialEvent::Kind::ZoneClick) << QStringLiteral("left")
                                   << QStringList{QStringLiteral("z1")};
    QTest::newRow("kind and text, none")
        << int(SpatialEvent::Kind::Error) << QStringLiteral("left") << QStringList{};
    QTest::newRow("whitespace ignored") << 0 << QStringLiteral("  z2  ") << QStringList{QStringLiteral("z2")};
}

void TestEventLogModel::filter()
{
    QFETCH(int, kind);
    QFETCH(QString, text);
    QFETCH(QStringList, zones);
    EventLogModel model;
    EventLogFilterModel proxy;
    proxy.setSourceModel(&model);
    fill(model);
    proxy.setKindFilter(kind > 0 ? std::optional(SpatialEvent::Kind(kind)) : std::nullopt);
    proxy.setTextFilter(text);
    QStringList got;
    for (int row = 0; row < proxy.rowCount(); ++row)
        got << proxy.index(row, EventLogModel::ZoneColumn).data().toString();
    QCOMPARE(got, zones);
    // New rows are filtered too.
    model.appendEvent(makeEvent(SpatialEvent::Kind::Info, 4'000'000'000, QStringLiteral("zz")));
    QCOMPARE(proxy.rowCount(), zones.size() + ((kind == 0 && text.isEmpty()) ? 1 : 0));
}

void TestEventLogModel::trimsOldest()
{
    EventLogModel model;
    model.setMaxRows(100);
    for (int i = 0; i < 250; ++i)
        model.appendEvent(makeEvent(SpatialEvent::Kind::Info, qint64(i) * 1'000'000));
    QVERIFY(model.rowCount() <= 100);
    QVERIFY(model.rowCount() >= 90);
    // The newest event is still the last row.
    QCOMPARE(model.eventAt(model.rowCount() - 1).tNs, qint64(249) * 1'000'000);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
}

void TestEventLogModel::formatting()
{
    QCOMPARE(EventLogModel::formatTime(0), QStringLiteral("0.000"));
    QCOMPARE(EventLogModel::formatTime(12'345'678'901), QStringLiteral("12.346"));
    SpatialEvent e = makeEvent(SpatialEvent::Kind::ZoneType, 1, QStringLiteral("z3"),
                               {{QStringLiteral("text"), QString(200, QLatin1Char('x'))}});
    e.point = QPoint(5, 7);
    const QString details = EventLogModel::formatDetails(e);
    QVERIFY(details.startsWith(QStringLiteral("@5,7 text=")));
    QVERIFY(details.size() < 140); // long values are shortened
    // Numbers, rectangles and lists as a person reads them; empty values left out; the reason first.
    const SpatialEvent decision =
        makeEvent(SpatialEvent::Kind::TierDecision, 2, {},
                  {{QStringLiteral("changed_percent"), 0.0724434135},
                   {QStringLiteral("reason"), QStringLiteral("animation")},
                   {QStringLiteral("tier"), 1},
                   {QStringLiteral("region"), QVariantMap{{QStringLiteral("x"), 10},
                                                          {QStringLiteral("y"), 20},
                                                          {QStringLiteral("width"), 300},
                                                          {QStringLiteral("height"), 40}}},
                   {QStringLiteral("regions"), QVariantList{}},
                   {QStringLiteral("zone"), QVariant()},
                   {QStringLiteral("ratio"), 2.5},
                   {QStringLiteral("points"),
                    QVariantList{QVariantMap{{QStringLiteral("x"), 1}, {QStringLiteral("y"), 2}},
                                 QVariantMap{{QStringLiteral("x"), 3}, {QStringLiteral("y"), 4}}}}});
    QCOMPARE(EventLogModel::formatDetails(decision),
             QStringLiteral("reason=animation tier=1 changed_percent=0.07 points=1,2; 3,4 ratio=2.5 "
                            "region=300×40+10+20"));
    for (int k = int(SpatialEvent::Kind::ZoneEnter); k <= int(SpatialEvent::Kind::Info); ++k)
        QVERIFY(!EventLogModel::kindDisplayName(SpatialEvent::Kind(k)).isEmpty());
}

void TestEventLogModel::secretsRedacted()
{
    // A key the process knows (the keychain's, say) and one that only looks like a key, in an event's text, a
    // list and a nested map, through both ways of appending: the log shows and searches neither.
    const QString known = QStringLiteral("known-secret-value-4f1c9a");
    const QString pattern = QStringLiteral("sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789");
    registerSecret(known);
    EventLogModel model;
    model.appendEvent(makeEvent(SpatialEvent::Kind::ModelCall, 1'000'000'000, {},
                                {{QStringLiteral("text"), QStringLiteral("the key is %1").arg(known)}}));
    model.appendEvents(
        {makeEvent(SpatialEvent::Kind::Error, 2'000'000'000, {},
                   {{QStringLiteral("error"), QStringLiteral("401 for key %1").arg(pattern)},
                    {QStringLiteral("lines"), QStringList{QStringLiteral("ok"), pattern}},
                    {QStringLiteral("reply"), QVariantMap{{QStringLiteral("text"), known}}}})});
    QCOMPARE(model.rowCount(), 2);
    for (int row = 0; row < model.rowCount(); ++row) {
        const QString details = model.index(row, EventLogModel::DetailsColumn).data().toString();
        const QString search = model.index(row, 0).data(EventLogModel::SearchTextRole).toString();
        for (const QString& text : {details, search}) {
            QVERIFY2(!text.contains(known) && !text.contains(pattern), qPrintable(text));
            QVERIFY2(text.contains(QLatin1String("[redacted]")), qPrintable(text));
        }
        const QVariantMap data = model.eventAt(row).data;
        for (const QVariant& value : data)
            QVERIFY(!value.toString().contains(known) &&
                    !value.toStringList().join(QLatin1Char(' ')).contains(pattern));
    }
    QCOMPARE(model.index(0, EventLogModel::DetailsColumn).data().toString(),
             QStringLiteral("text=the key is [redacted]"));
    QVERIFY(model.eventAt(1).data.value(QStringLiteral("lines")).toStringList() ==
            QStringList({QStringLiteral("ok"), QStringLiteral("[redacted]")}));
    QCOMPARE(
        model.eventAt(1).data.value(QStringLiteral("reply")).toMap().value(QStringLiteral("text")).toString(),
        QStringLiteral("[redacted]"));
}

void TestEventLogModel::viewSelectionReportsZone()
{
    EventLogView view;
    fill(*view.model());
    QSignalSpy selected(&view, &EventLogView::eventSelected);
    view.tableView()->selectRow(3);
    QCOMPARE(selected.count(), 1);
    QCOMPARE(selected.first().at(0).toString(), QStringLiteral("z7"));
}

void TestEventLogModel::viewFollowsUnlessScrolledUp()
{
    EventLogView view;
    view.resize(400, 200);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    for (int i = 0; i < 200; ++i)
        view.appendEvent(makeEvent(SpatialEvent::Kind::Info, i));
    QCoreApplication::processEvents();
    QVERIFY(view.isFollowing());
    auto* bar = view.tableView()->verticalScrollBar();
    QCOMPARE(bar->value(), bar->maximum());
    bar->setValue(0); // the user scrolls up
    QVERIFY(!view.isFollowing());
    view.appendEvent(makeEvent(SpatialEvent::Kind::Info, 1000));
    QCoreApplication::processEvents();
    QCOMPARE(bar->value(), 0);
    bar->setValue(bar->maximum()); // back at the bottom: follows again
    QVERIFY(view.isFollowing());
}

QTEST_MAIN(TestEventLogModel)
#include "tst_eventlogmodel.moc"
