// Reading back what fields and windows show, without a Director: the accessibility tree's text is read
// without OCR (a field's value, a drop-down's chosen item), a password field is never read, nothing is read
// without a frame, a window's tree zones answer for it, and a settled read ends at once on the tree's text
// and stops when cancelled.

#include "core/director/readback.h"
#include "tests/support/testzones.h"

#include <QPainter>
#include <QTest>

using namespace ciu;
using ciu::test::zone;

namespace {

Zone treeZone(const QString& id, ZoneType type, const QString& label, const QString& value, QRect bounds)
{
    Zone z = zone(id, type, label, bounds);
    z.source = ZoneSource::Accessibility;
    z.value = value;
    return z;
}

ZoneMapPtr mapOf(QList<Zone> zones)
{
    return std::make_shared<const ZoneMap>(1, 0, QSize(1280, 800), std::move(zones));
}

platform::WindowInfo window(quint64 id, QRect geometry)
{
    platform::WindowInfo w;
    w.id = id;
    w.geometry = geometry;
    return w;
}

ActionFlight typedAda(const ZoneMapPtr& before)
{
    ActionFlight flight;
    flight.proposed.action.type = Action::Type::TypeText;
    flight.proposed.action.text = QStringLiteral("Ada");
    flight.proposed.focusZoneId = QStringLiteral("f");
    flight.proposed.expect.kind = Expectation::Kind::TextEquals;
    flight.proposed.expect.text = QStringLiteral("Ada");
    flight.mapBefore = before;
    return flight;
}

ZoneMapPtr fieldHolding(const QString& value)
{
    return mapOf({treeZone(QStringLiteral("f"), ZoneType::TextField, QStringLiteral("Name"), value,
                           QRect(90, 58, 300, 24))});
}

} // namespace

class TestReadBack : public QObject
{
    Q_OBJECT
private slots:
    void treeFieldIsReadWithoutOcr();
    void treeDropdownReadsItsChoice_data();
    void treeDropdownReadsItsChoice();
    void passwordIsNeverRead();
    void nothingWithoutAFrame();
    void windowTextFromItsTreeZones();
    void windowFieldReadAsItWasBeforeTheTyping();
    void unknownWindowIsNotRead();
    void settledReadEndsOnTreeText();
    void settledReadWaitsForTheText_data();
    void settledReadWaitsForTheText();
};

void TestReadBack::treeFieldIsReadWithoutOcr()
{
    ReadBack readBack; // no frame: only the tree can answer
    Zone field = treeZone(QStringLiteral("f"), ZoneType::TextField, QStringLiteral("Name"),
                          QStringLiteral("Ada"), QRect(90, 58, 300, 24));
    field.accessibleRef = QStringLiteral(":1.42:/org/a11y/atspi/accessible/7");
    const ZoneMapPtr map = mapOf({field});
    QCOMPARE(readBack.readFieldText(field, map.get()), std::optional<QString>(QStringLiteral("Ada")));
    QVERIFY(ReadBack::fromTree(field, map.get()));
    // The field as the planner saw it (another id, no value yet) is found again by its accessible object.
    Zone seen = field;
    seen.id = QStringLiteral("old");
    seen.value.clear();
    QCOMPARE(readBack.readFieldText(seen, map.get()), std::optional<QString>(QStringLiteral("Ada")));
    QVERIFY(ReadBack::fromTree(seen, map.get()));
    // Not in the map at all: pixels would be read, and there is no frame.
    seen.accessibleRef.clear();
    QCOMPARE(readBack.readFieldText(seen, map.get()), std::nullopt);
    QVERIFY(!ReadBack::fromTree(seen, map.get()));
}

void TestReadBack::treeDropdownReadsItsChoice_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("read");
    QTest::newRow("value") << QStringLiteral("Japan") << QStringLiteral("Japan");
    QTest::newRow("no value: its name") << QString() << QStringLiteral("Country");
}

void TestReadBack::treeDropdownReadsItsChoice()
{
    QFETCH(QString, value);
    QFETCH(QString, read);
    ReadBack readBack;
    const ZoneMapPtr map = mapOf({treeZone(QStringLiteral("d"), ZoneType::Dropdown, QStringLiteral("Country"),
                                           value, QRect(90, 98, 200, 24))});
    QCOMPARE(readBack.readFieldText(map->zones().first(), map.get()), std::optional<QString>(read));
}

void TestReadBack::passwordIsNeverRead()
{
    ReadBack readBack;
    Zone password = treeZone(QStringLiteral("p"), ZoneType::TextField, QStringLiteral("Password"),
                             QStringLiteral("hunter2"), QRect(90, 58, 300, 24));
    password.isPassword = true;
    const ZoneMapPtr map = mapOf({password});
    QCOMPARE(readBack.readFieldText(password, map.get()), std::nullopt);
    // Nor with a frame to read it from.
    Frame frame;
    frame.image = QImage(1280, 800, QImage::Format_RGB32);
    frame.image.fill(Qt::white);
    frame.index = 1;
    readBack.onFrame(frame);
    QVERIFY(readBack.lastFrame().isValid());
    QCOMPARE(readBack.readFieldText(password, map.get()), std::nullopt);
}

void TestReadBack::nothingWithoutAFrame()
{
    ReadBack readBack;
    const Zone field = zone(QStringLiteral("v"), ZoneType::TextField, QString(), QRect(90, 58, 300, 24));
    const ZoneMapPtr map = mapOf({field}); // a vision zone: pixels would be read
    QVERIFY(!readBack.lastFrame().isValid());
    QCOMPARE(readBack.readFieldText(field, map.get()), std::nullopt);
    QCOMPARE(readBack.readFrameText(QRect(0, 0, 100, 100), true), std::nullopt);
    QVERIFY(!ReadBack::fromTree(field, map.get()));
}

void TestReadBack::windowTextFromItsTreeZones()
{
    ReadBack readBack;
    readBack.onWindows({window(7, QRect(0, 0, 640, 480)), window(8, QRect(700, 0, 400, 300))});
    QCOMPARE(readBack.windows().size(), 2);
    Zone label = treeZone(QStringLiteral("l"), ZoneType::Static, QStringLiteral("Saved"), QString(),
                          QRect(10, 10, 100, 20));
    label.windowId = 7;
    Zone field = treeZone(QStringLiteral("f"), ZoneType::TextField, QStringLiteral("Note"),
                          QStringLiteral("hello world"), QRect(10, 40, 300, 24));
    field.windowId = 7;
    Zone elsewhere = treeZone(QStringLiteral("x"), ZoneType::Static, QStringLiteral("Other"), QString(),
                              QRect(710, 10, 100, 20));
    elsewhere.windowId = 8;
    Zone secret = field;
    secret.id = QStringLiteral("s");
    secret.value = QStringLiteral("hunter2");
    secret.isPassword = true;
    const ZoneMapPtr map = mapOf({label, field, elsewhere, secret});
    Expectation expect;
    expect.kind = Expectation::Kind::WindowShowsText;
    expect.windowId = 7;
    expect.text = QStringLiteral("hello world");
    bool fromTree = false;
    QCOMPARE(readBack.readWindowText(expect, map.get(), &fromTree),
             std::optional<QString>(QStringLiteral("Saved\nNote\nhello world")));
    QVERIFY(fromTree);
}

void TestReadBack::windowFieldReadAsItWasBeforeTheTyping()
{
    // "Ada" typed into a field of a window without a tree; vision has since split the text off the field
    // (the field's zone now starts right of it). The field is read as it was when typed into.
    ReadBack readBack;
    readBack.onWindows({window(7, QRect(0, 0, 640, 480))});
    Frame frame;
    frame.index = 1;
    frame.image = QImage(1280, 800, QImage::Format_RGB32);
    frame.image.fill(Qt::white);
    const QRect whole(90, 58, 300, 24);
    {
        QPainter p(&frame.image);
        p.setPen(Qt::gray);
        p.drawRect(whole.adjusted(0, 0, -1, -1));
        QFont font = p.font();
        font.setPixelSize(16);
        p.setFont(font);
        p.setPen(Qt::black);
        p.drawText(whole.adjusted(6, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("Ada"));
    }
    readBack.onFrame(frame);
    Zone field = zone(QStringLiteral("f"), ZoneType::TextField, QStringLiteral("Name"), whole);
    field.windowId = 7;
    const ZoneMapPtr before = mapOf({field});
    field.bounds = QRect(130, 58, 260, 24); // the typed text is a static zone beside it now
    const ZoneMapPtr now = mapOf({field});
    Expectation expect;
    expect.kind = Expectation::Kind::WindowShowsText;
    expect.windowId = 7;
    expect.text = QStringLiteral("Ada");
    bool fromTree = true;
    QCOMPARE(readBack.readWindowText(expect, now.get(), &fromTree, before.get()),
             std::optional<QString>(QStringLiteral("Ada")));
    QVERIFY(!fromTree);
    // Read in its place now only, the field is empty: the reading is the whole window's, not the field's.
    const std::optional<QString> split = readBack.readWindowText(expect, now.get(), &fromTree);
    QVERIFY(split != std::optional<QString>(QStringLiteral("Ada")));
}

void TestReadBack::unknownWindowIsNotRead()
{
    ReadBack readBack;
    readBack.onWindows({window(7, QRect(0, 0, 640, 480))});
    Expectation expect;
    expect.kind = Expectation::Kind::WindowShowsText;
    expect.windowId = 9;
    expect.text = QStringLiteral("hello");
    bool fromTree = true;
    QCOMPARE(readBack.readWindowText(expect, nullptr, &fromTree), std::nullopt);
    QVERIFY(!fromTree);
}

void TestReadBack::settledReadEndsOnTreeText()
{
    ReadBack readBack;
    const ZoneMapPtr map = fieldHolding(QStringLiteral("Ada"));
    QObject context;
    ReadBack::Settling settling;
    settling.context = &context;
    settling.settleTimeoutMs = 60'000;
    settling.currentMap = [map] { return map.get(); };
    int secondLooks = 0;
    settling.secondLook = [&secondLooks](const std::function<void()>& then) {
        ++secondLooks;
        then();
    };
    QList<std::optional<QString>> answers;
    readBack.readSettled(typedAda(map), settling,
                         [&answers](const std::optional<QString>& text) { answers << text; });
    // The tree's text is the program's own: no frame, no settle time, no second look needed.
    QCOMPARE(answers, (QList<std::optional<QString>>{QStringLiteral("Ada")}));
    QCOMPARE(secondLooks, 0);
}

void TestReadBack::settledReadWaitsForTheText_data()
{
    QTest::addColumn<bool>("cancel");
    QTest::newRow("read again on the next frame") << false;
    QTest::newRow("cancelled: never answers") << true;
}

void TestReadBack::settledReadWaitsForTheText()
{
    QFETCH(bool, cancel);
    ReadBack readBack;
    ZoneMapPtr current = fieldHolding(QStringLiteral("Ad")); // the program has not taken all the keys yet
    QObject context;
    ReadBack::Settling settling;
    settling.context = &context;
    settling.settleTimeoutMs = 60'000; // the event loop never runs here: the settle timer never fires
    settling.currentMap = [&current] { return current.get(); };
    settling.secondLook = [](const std::function<void()>& then) { then(); };
    QList<std::optional<QString>> answers;
    readBack.readSettled(typedAda(current), settling,
                         [&answers](const std::optional<QString>& text) { answers << text; });
    QVERIFY(answers.isEmpty()); // "Ad" is not "Ada": it waits for the next frame
    current = fieldHolding(QStringLiteral("Ada"));
    QVERIFY(answers.isEmpty()); // a new map alone does not read again
    if (cancel)
        readBack.cancel();
    Frame frame;
    frame.index = 1;
    readBack.onFrame(frame);
    if (cancel)
        QVERIFY(answers.isEmpty());
    else
        QCOMPARE(answers, (QList<std::optional<QString>>{QStringLiteral("Ada")}));
}

QTEST_MAIN(TestReadBack)
#include "tst_readback.moc"
