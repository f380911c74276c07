#include "platform/keys.h"

#include <QTest>

#include <xkbcommon/xkbcommon-keysyms.h>

using namespace ciu::platform;

class TestKeys : public QObject
{
    Q_OBJECT
private slots:
    void singleNames_data();
    void singleNames();
    void combos_data();
    void combos();
    void errors_data();
    void errors();
    void unicode();
};

void TestKeys::singleNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<uint>("keysym");
    // xdotool names, exact
    QTest::newRow("Return") << "Return" << uint(XKB_KEY_Return);
    QTest::newRow("KP_Enter") << "KP_Enter" << uint(XKB_KEY_KP_Enter);
    QTest::newRow("Super_L") << "Super_L" << uint(XKB_KEY_Super_L);
    QTest::newRow("F10") << "F10" << uint(XKB_KEY_F10);
    QTest::newRow("Tab") << "Tab" << uint(XKB_KEY_Tab);
    QTest::newRow("a") << "a" << uint(XKB_KEY_a);
    QTest::newRow("A") << "A" << uint(XKB_KEY_A);
    QTest::newRow("digit") << "5" << uint(XKB_KEY_5);
    QTest::newRow("plus char") << "+" << uint(XKB_KEY_plus);
    // case-insensitive keysym names
    QTest::newRow("return lower") << "return" << uint(XKB_KEY_Return);
    QTest::newRow("f1 lower") << "f1" << uint(XKB_KEY_F1);
    QTest::newRow("f12") << "F12" << uint(XKB_KEY_F12);
    // portable key names
    QTest::newRow("ctrl") << "ctrl" << uint(XKB_KEY_Control_L);
    QTest::newRow("win") << "win" << uint(XKB_KEY_Super_L);
    QTest::newRow("enter") << "enter" << uint(XKB_KEY_Return);
    QTest::newRow("escape") << "escape" << uint(XKB_KEY_Escape);
    QTest::newRow("backspace") << "backspace" << uint(XKB_KEY_BackSpace);
    QTest::newRow("delete") << "delete" << uint(XKB_KEY_Delete);
    QTest::newRow("insert") << "insert" << uint(XKB_KEY_Insert);
    QTest::newRow("pageup") << "pageup" << uint(XKB_KEY_Prior);
    QTest::newRow("pagedown") << "pagedown" << uint(XKB_KEY_Next);
    QTest::newRow("home") << "home" << uint(XKB_KEY_Home);
    QTest::newRow("end") << "end" << uint(XKB_KEY_End);
    QTest::newRow("up") << "up" << uint(XKB_KEY_Up);
    QTest::newRow("numpad0") << "numpad0" << uint(XKB_KEY_KP_0);
    QTest::newRow("numpad9") << "numpad9" << uint(XKB_KEY_KP_9);
    QTest::newRow("numpadadd") << "numpadadd" << uint(XKB_KEY_KP_Add);
    QTest::newRow("numpadsubtract") << "numpadsubtract" << uint(XKB_KEY_KP_Subtract);
    QTest::newRow("numpadmultiply") << "numpadmultiply" << uint(XKB_KEY_KP_Multiply);
    QTest::newRow("numpaddivide") << "numpaddivide" << uint(XKB_KEY_KP_Divide);
    QTest::newRow("numpadenter") << "numpadenter" << uint(XKB_KEY_KP_Enter);
    QTest::newRow("printscreen") << "printscreen" << uint(XKB_KEY_Print);
    QTest::newRow("scrolllock") << "scrolllock" << uint(XKB_KEY_Scroll_Lock);
    QTest::newRow("pause") << "pause" << uint(XKB_KEY_Pause);
    QTest::newRow("capslock") << "capslock" << uint(XKB_KEY_Caps_Lock);
    QTest::newRow("numlock") << "numlock" << uint(XKB_KEY_Num_Lock);
    QTest::newRow("volumeup") << "volumeup" << uint(XKB_KEY_XF86AudioRaiseVolume);
    QTest::newRow("volumedown") << "volumedown" << uint(XKB_KEY_XF86AudioLowerVolume);
    QTest::newRow("volumemute") << "volumemute" << uint(XKB_KEY_XF86AudioMute);
    QTest::newRow("playpause") << "playpause" << uint(XKB_KEY_XF86AudioPlay);
    QTest::newRow("stop") << "stop" << uint(XKB_KEY_XF86AudioStop);
    QTest::newRow("nexttrack") << "nexttrack" << uint(XKB_KEY_XF86AudioNext);
    QTest::newRow("previoustrack") << "previoustrack" << uint(XKB_KEY_XF86AudioPrev);
}

void TestKeys::singleNames()
{
    QFETCH(QString, name);
    QFETCH(uint, keysym);
    const auto sym = keysymFromName(name);
    QVERIFY2(sym.has_value(), qPrintable(name));
    QCOMPARE(uint(*sym), keysym);
}

void TestKeys::combos_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QList<QList<uint>>>("expected"); // per combo: modifiers..., key
    QTest::newRow("ctrl+s") << "ctrl+s" << QList<QList<uint>>{{XKB_KEY_Control_L, XKB_KEY_s}};
    QTest::newRow("alt+Tab") << "alt+Tab" << QList<QList<uint>>{{XKB_KEY_Alt_L, XKB_KEY_Tab}};
    QTest::newRow("shift+F10") << "shift+F10" << QList<QList<uint>>{{XKB_KEY_Shift_L, XKB_KEY_F10}};
    QTest::newRow("ctrl+shift+t") << "ctrl+shift+t"
                                  << QList<QList<uint>>{{XKB_KEY_Control_L, XKB_KEY_Shift_L, XKB_KEY_t}};
    QTest::newRow("two combos") << "ctrl+a Delete"
                                << QList<QList<uint>>{{XKB_KEY_Control_L, XKB_KEY_a}, {XKB_KEY_Delete}};
    QTest::newRow("ctrl plus") << "ctrl++" << QList<QList<uint>>{{XKB_KEY_Control_L, XKB_KEY_plus}};
    QTest::newRow("alone modifier") << "Super_L" << QList<QList<uint>>{{XKB_KEY_Super_L}};
    QTest::newRow("spaces around") << "  ctrl+c  " << QList<QList<uint>>{{XKB_KEY_Control_L, XKB_KEY_c}};
}

void TestKeys::combos()
{
    QFETCH(QString, text);
    QFETCH(QList<QList<uint>>, expected);
    const KeyParseResult result = parseKeySequence(text);
    QVERIFY2(result.ok(), qPrintable(result.error));
    QCOMPARE(result.combos.size(), expected.size());
    for (qsizetype i = 0; i < expected.size(); ++i) {
        QList<uint> actual;
        for (const Keysym m : result.combos.at(i).modifiers)
            actual << m;
        actual << result.combos.at(i).key;
        QCOMPARE(actual, expected.at(i));
    }
}

void TestKeys::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("empty") << ""
                           << "empty";
    QTest::newRow("unknown") << "ctrl+frobnicate"
                             << "frobnicate";
    QTest::newRow("unknown alone") << "NoSuchKey"
                                   << "NoSuchKey";
    // Found with fuzz_commandscript: libxkbcommon reads a C string, so "o\0x" was the key "o" (and
    // "Return\0..." was Return).
    QTest::newRow("NUL inside a name")
        << QString(QStringLiteral("o") + QChar(0) + QStringLiteral("x")) << "unknown key name";
    QTest::newRow("NUL after a name")
        << QString(QStringLiteral("ctrl+Return") + QChar(0)) << "unknown key name";
    QTest::newRow("control character") << QStringLiteral("Tab\u0007") << "unknown key name";
}

void TestKeys::errors()
{
    QFETCH(QString, text);
    QFETCH(QString, fragment);
    const KeyParseResult result = parseKeySequence(text);
    QVERIFY(!result.ok());
    QVERIFY2(result.error.contains(fragment), qPrintable(result.error));
    QVERIFY(result.combos.isEmpty());
}

void TestKeys::unicode()
{
    QCOMPARE(keysymFromCodePoint(U'a'), Keysym(XKB_KEY_a));
    QCOMPARE(keysymFromCodePoint(U'ü'), Keysym(XKB_KEY_udiaeresis));
    QCOMPARE(keysymFromCodePoint(U'東'), Keysym(0x01000000u + 0x6771));
    QCOMPARE(keysymToText(keysymFromCodePoint(U'✓')), QStringLiteral("✓"));
    QCOMPARE(keysymToText(XKB_KEY_Return), QString());
    QCOMPARE(keysymName(XKB_KEY_Return), QStringLiteral("Return"));
    QVERIFY(isModifier(XKB_KEY_Control_L));
    QVERIFY(!isModifier(XKB_KEY_a));
}

QTEST_GUILESS_MAIN(TestKeys)
#include "tst_keys.moc"
