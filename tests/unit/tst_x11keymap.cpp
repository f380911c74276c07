#include "platform/x11/x11keymap.h"

#include <QTest>

#include <xkbcommon/xkbcommon-keysyms.h>

using namespace ciu::platform;
using namespace ciu::platform::x11;

class TestX11Keymap : public QObject
{
    Q_OBJECT
private slots:
    void find_data();
    void find();
    void emptyKeycodes();
    void ignoredKeycodes();
    void malformedInput();

private:
    // A small US-like map from keycode 8, 4 keysyms per keycode.
    static KeymapTable sampleTable(const QList<quint8>& ignored = {});
};

KeymapTable TestX11Keymap::sampleTable(const QList<quint8>& ignored)
{
    const QList<quint32> keysyms = {
        0,
        0,
        0,
        0, // 8: empty
        XKB_KEY_1,
        XKB_KEY_exclam,
        XKB_KEY_1,
        XKB_KEY_exclam, // 9
        XKB_KEY_a,
        XKB_KEY_A,
        XKB_KEY_a,
        XKB_KEY_A, // 10
        XKB_KEY_Return,
        0,
        XKB_KEY_Return,
        0, // 11
        0,
        0,
        0,
        0, // 12: empty
        XKB_KEY_KP_Begin,
        XKB_KEY_KP_5,
        0,
        0, // 13: keypad, NumLock level
        XKB_KEY_A,
        XKB_KEY_b,
        0,
        0, // 14: A again, unshifted this time
        0,
        0,
        XKB_KEY_eacute,
        0, // 15: only in group 2
    };
    return KeymapTable(8, 4, keysyms, ignored);
}

void TestX11Keymap::find_data()
{
    QTest::addColumn<uint>("keysym");
    QTest::addColumn<int>("keycode"); // -1: not found
    QTest::addColumn<bool>("needsShift");
    QTest::newRow("1") << uint(XKB_KEY_1) << 9 << false;
    QTest::newRow("exclam shifted") << uint(XKB_KEY_exclam) << 9 << true;
    QTest::newRow("a") << uint(XKB_KEY_a) << 10 << false;
    QTest::newRow("A prefers the unshifted key") << uint(XKB_KEY_A) << 14 << false;
    QTest::newRow("b shifted") << uint(XKB_KEY_b) << 14 << true;
    QTest::newRow("Return") << uint(XKB_KEY_Return) << 11 << false;
    QTest::newRow("KP_Begin") << uint(XKB_KEY_KP_Begin) << 13 << false;
    QTest::newRow("KP_5 needs NumLock: missing") << uint(XKB_KEY_KP_5) << -1 << false;
    QTest::newRow("group 2 only: missing") << uint(XKB_KEY_eacute) << -1 << false;
    QTest::newRow("absent") << uint(0x1006771) << -1 << false;
}

void TestX11Keymap::find()
{
    QFETCH(uint, keysym);
    QFETCH(int, keycode);
    QFETCH(bool, needsShift);
    const auto pos = sampleTable().find(keysym);
    if (keycode < 0) {
        QVERIFY(!pos);
        return;
    }
    QVERIFY(pos);
    QCOMPARE(int(pos->keycode), keycode);
    QCOMPARE(pos->needsShift, needsShift);
}

void TestX11Keymap::emptyKeycodes()
{
    QCOMPARE(sampleTable().emptyKeycodes(), (QList<quint8>{8, 12}));
}

void TestX11Keymap::ignoredKeycodes()
{
    // Spare keycodes we bound ourselves are neither keys nor empty.
    const KeymapTable table = sampleTable({10, 12});
    QVERIFY(!table.find(XKB_KEY_a));
    QCOMPARE(table.emptyKeycodes(), QList<quint8>{8});
}

void TestX11Keymap::malformedInput()
{
    QVERIFY(!KeymapTable(8, 0, {XKB_KEY_a}).find(XKB_KEY_a));
    // A trailing partial row is ignored.
    QVERIFY(!KeymapTable(8, 2, {XKB_KEY_a, XKB_KEY_A, XKB_KEY_b}).find(XKB_KEY_b));
    // Keycodes never exceed 255.
    QList<quint32> many(300 * 1, 0);
    many.last() = XKB_KEY_z;
    QVERIFY(!KeymapTable(8, 1, many).find(XKB_KEY_z));
    QVERIFY(isKeypadKeysym(XKB_KEY_KP_Enter));
    QVERIFY(!isKeypadKeysym(XKB_KEY_Return));
}

QTEST_GUILESS_MAIN(TestX11Keymap)
#include "tst_x11keymap.moc"
