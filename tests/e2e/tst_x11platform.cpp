// End to end: the X11 backend against a private Xvfb + openbox and the fixture app. Every action type goes
// through createPlatform({"x11", display}) and InputActions; the fixture's JSON lines tell what arrived.

#include "platform/inputactions.h"
#include "platform/platformfactory.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QSet>
#include <QTest>
#include <QThread>

#include <xkbcommon/xkbcommon-keysyms.h>

using namespace ciu::platform;
using ciu::test::FixtureApp;
using ciu::test::XvfbServer;

namespace {

QString eventOf(const QJsonObject& o)
{
    return o.value(QLatin1String("event")).toString();
}

bool hasModifier(const QJsonObject& o, const QString& modifier)
{
    return o.value(QLatin1String("modifiers")).toArray().contains(modifier);
}

// Distinct colours in an image (capped): a blank or uniform region has very few.
int distinctColours(const QImage& image, int cap = 64)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            colours.insert(image.pixel(x, y));
            if (colours.size() >= cap)
                return cap;
        }
    }
    return int(colours.size());
}

} // namespace

class TestX11Platform : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void init();
    void cleanup();

    void capabilities();
    void moveReadsBack();
    void cursorShape();
    void clickButtons_data();
    void clickButtons();
    void doubleAndTripleClick_data();
    void doubleAndTripleClick();
    void modifierHeldDuringClick_data();
    void modifierHeldDuringClick();
    void dragAsOneOperation();
    void dragAsDownMoveUp();
    void scroll_data();
    void scroll();
    void typeUnicode();
    void typeLongUnicodeText();
    void keyCombos_data();
    void keyCombos();
    void holdKey();
    void badInputFailsCleanly();
    void grabFullAndRegion();
    void grabIntoWithDamage();
    void monitors();
    void dpi();
    void clipboardTextToFixture();
    void clipboardTextFromFixture();
    void clipboardLargeTextIncremental();
    void clipboardImageRoundTrip();
    void clipboardSaveRestore();
    void activeWindow();
    void windowListAndActivate();
    void altTabReachesWindowManager();

private:
    QPoint centerOf(const QString& widget) const;
    QRect rectOf(const QString& widget) const;
    QJsonObject lastWidgetsLine() const;
    // Waits for the first line of `event` satisfying `predicate`.
    std::optional<QJsonObject> waitFor(const QString& event,
                                       const std::function<bool(const QJsonObject&)>& predicate,
                                       int timeoutMs = 5000);
    QJsonObject clipboardAsSeenByFixture();
    bool fixtureSawOurClipboard();
    bool runXprop(const QStringList& args);

    std::unique_ptr<XvfbServer> m_xvfb;
    FixtureApp m_app;
    std::unique_ptr<Platform> m_platform;
    std::unique_ptr<InputActions> m_actions;
    qint64 m_fixturePid = -1;
};

void TestX11Platform::initTestCase()
{
    m_xvfb = std::make_unique<XvfbServer>();
    QVERIFY2(m_xvfb->start(), qPrintable(m_xvfb->errorString()));
    QVERIFY2(m_app.start(m_xvfb->environment()), qPrintable(m_app.errorString()));
    m_fixturePid = lastWidgetsLine().value(QLatin1String("pid")).toInteger(-1);
    QVERIFY(m_fixturePid > 0);

    PlatformResult opened = createPlatform({QStringLiteral("x11"), m_xvfb->displayName()});
    QVERIFY2(opened.platform, qPrintable(opened.error));
    m_platform = std::move(opened.platform);
    m_actions = std::make_unique<InputActions>(m_platform->input(), m_platform->pointer());
    QCOMPARE(m_platform->backendName(), QStringLiteral("x11"));
    QCOMPARE(m_platform->displayName(), m_xvfb->displayName());
}

void TestX11Platform::cleanupTestCase()
{
    m_actions.reset();
    m_platform.reset();
    m_app.stop();
    m_xvfb.reset();
}

void TestX11Platform::init()
{
    QVERIFY(m_platform->isConnected());
    m_app.clearPending();
}

void TestX11Platform::cleanup()
{
    // Close whatever a key test may have opened (menus, popups).
    // The fixture's window (or its popup) reports the release: what the key caused is reported by then.
    if (m_actions->keys(QStringLiteral("Escape"))) {
        m_app.waitFor([](const QJsonObject& o) {
            return eventOf(o) == QLatin1String("key_release") &&
                   o.value(QLatin1String("key")).toString() == QLatin1String("Esc");
        });
    }
    m_app.clearPending();
}

QJsonObject TestX11Platform::lastWidgetsLine() const
{
    const QList<QJsonObject> lines = m_app.allLines();
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        if (eventOf(*it) == QLatin1String("ready") || eventOf(*it) == QLatin1String("widgets"))
            return *it;
    }
    return {};
}

QRect TestX11Platform::rectOf(const QString& widget) const
{
    const auto w = m_app.widget(widget);
    return w ? w->rect : QRect();
}

QPoint TestX11Platform::centerOf(const QString& widget) const
{
    return rectOf(widget).center();
}

std::optional<QJsonObject> TestX11Platform::waitFor(const QString& event,
                                                    const std::function<bool(const QJsonObject&)>& predicate,
                                                    int timeoutMs)
{
    return m_app.waitFor([&](const QJsonObject& o) { return eventOf(o) == event && predicate(o); },
                         timeoutMs);
}

// Qt in the fixture learns of a new clipboard owner asynchronously (an XFixes event); until it has, it
// answers from its cache of the previous owner's formats (text where we now offer an image). Every
// change of our ownership is followed by this wait, so no stale line is left for the next one.
bool TestX11Platform::fixtureSawOurClipboard()
{
    return waitFor(QStringLiteral("clipboard_changed"),
                   [](const QJsonObject& o) { return !o.value(QLatin1String("owned")).toBool(true); })
        .has_value();
}

QJsonObject TestX11Platform::clipboardAsSeenByFixture()
{
    m_app.send(QStringLiteral("get-clipboard"));
    return m_app.waitForEvent(QStringLiteral("clipboard")).value_or(QJsonObject());
}

bool TestX11Platform::runXprop(const QStringList& args)
{
    QProcess xprop;
    xprop.setProcessEnvironment(m_xvfb->environment());
    xprop.start(QStringLiteral("xprop"), args);
    return xprop.waitForFinished(5000) && xprop.exitCode() == 0;
}

void TestX11Platform::capabilities()
{
    const Capabilities caps = m_platform->capabilities();
    QVERIFY(caps & Capability::SharedMemoryGrab);
    QVERIFY(caps & Capability::Damage);
    QVERIFY(caps & Capability::CursorShape);
    QVERIFY(caps & Capability::InputInjection);
    QVERIFY(caps & Capability::Monitors);
    QVERIFY(caps & Capability::WindowList); // openbox runs
    QVERIFY(caps & Capability::Clipboard);
    QVERIFY(m_platform->screen().damageSupported());
}

void TestX11Platform::moveReadsBack()
{
    for (const QPoint p :
         {QPoint(10, 20), QPoint(640, 400), QPoint(1279, 799), centerOf(QStringLiteral("ok"))}) {
        QVERIFY2(m_actions->moveTo(p), qPrintable(m_actions->errorString()));
        QCOMPARE(m_platform->pointer().position(), std::optional<QPoint>(p));
    }
    // Smooth movement ends where asked.
    QVERIFY(m_actions->moveSmooth(QPoint(300, 300), 50, 5));
    QCOMPARE(m_platform->pointer().position(), std::optional<QPoint>(QPoint(300, 300)));
}

void TestX11Platform::cursorShape()
{
    QVERIFY(m_actions->moveTo(centerOf(QStringLiteral("name"))));
    const auto cursor = m_platform->pointer().cursor();
    QVERIFY(cursor);
    QCOMPARE(cursor->position, centerOf(QStringLiteral("name")));
    // The sprite is around the hot spot.
    QVERIFY(!cursor->spriteRect.isEmpty());
    QVERIFY(cursor->spriteRect.adjusted(-1, -1, 1, 1).contains(cursor->position));
}

void TestX11Platform::clickButtons_data()
{
    QTest::addColumn<MouseButton>("button");
    QTest::addColumn<QString>("name");
    QTest::newRow("left") << MouseButton::Left << "left";
    QTest::newRow("middle") << MouseButton::Middle << "middle";
    QTest::newRow("right") << MouseButton::Right << "right";
}

void TestX11Platform::clickButtons()
{
    QFETCH(MouseButton, button);
    QFETCH(QString, name);
    const QPoint target = centerOf(QStringLiteral("ok"));
    QVERIFY2(m_actions->clickAt(target, button), qPrintable(m_actions->errorString()));
    const auto press = waitFor(QStringLiteral("mouse_press"), [](const QJsonObject&) { return true; });
    QVERIFY(press);
    QCOMPARE(press->value(QLatin1String("button")).toString(), name);
    QCOMPARE(press->value(QLatin1String("x")).toInt(), target.x());
    QCOMPARE(press->value(QLatin1String("y")).toInt(), target.y());
    QCOMPARE(press->value(QLatin1String("widget")).toString(), QStringLiteral("ok"));
    const auto release = waitFor(QStringLiteral("mouse_release"), [](const QJsonObject&) { return true; });
    QVERIFY(release);
    QCOMPARE(release->value(QLatin1String("button")).toString(), name);
    if (button == MouseButton::Left) {
        const auto clicked = waitFor(QStringLiteral("clicked"), [](const QJsonObject&) { return true; });
        QVERIFY(clicked);
        QCOMPARE(clicked->value(QLatin1String("name")).toString(), QStringLiteral("ok"));
    }
}

void TestX11Platform::doubleAndTripleClick_data()
{
    QTest::addColumn<int>("count");
    QTest::newRow("double") << 2;
    QTest::newRow("triple") << 3;
}

void TestX11Platform::doubleAndTripleClick()
{
    QFETCH(int, count);
    // Not synchronisation: time must pass, or Qt would count these clicks as continuing the previous
    // row's (same button, same spot) multi-click. Qt's double-click interval is 400 ms by default.
    QThread::msleep(500);
    QVERIFY2(m_actions->clickAt(centerOf(QStringLiteral("cancel")), MouseButton::Left, count),
             qPrintable(m_actions->errorString()));
    // Qt turns the second press into a double click; the third is a press again.
    int presses = 0;
    int doubles = 0;
    int releases = 0;
    while (releases < count) {
        const auto line = m_app.waitFor(
            [](const QJsonObject& o) {
                return eventOf(o).startsWith(QLatin1String("mouse_")) &&
                       o.value(QLatin1String("widget")).toString() == QLatin1String("cancel");
            },
            5000);
        QVERIFY2(line, "missing mouse events");
        QCOMPARE(line->value(QLatin1String("button")).toString(), QStringLiteral("left"));
        const QString event = eventOf(*line);
        presses += event == QLatin1String("mouse_press");
        doubles += event == QLatin1String("mouse_double_click");
        releases += event == QLatin1String("mouse_release");
    }
    // Qt 6 delivers every press, plus one double-click event after the second.
    QCOMPARE(doubles, 1);
    QCOMPARE(presses, count);
}

void TestX11Platform::modifierHeldDuringClick_data()
{
    QTest::addColumn<QString>("held");
    QTest::addColumn<QString>("modifierList"); // comma-separated
    QTest::newRow("ctrl") << "ctrl"
                          << "ctrl";
    QTest::newRow("shift") << "shift"
                           << "shift";
    QTest::newRow("ctrl+shift") << "ctrl+shift"
                                << "ctrl,shift";
}

void TestX11Platform::modifierHeldDuringClick()
{
    QFETCH(QString, held);
    QFETCH(QString, modifierList);
    const QStringList modifiers = modifierList.split(QLatin1Char(','), Qt::SkipEmptyParts);
    // The modified click and the plain one land at two spots further apart than Qt's double-click
    // distance (5 px by default), so no click here continues another into a double click.
    const QPoint heldAt = centerOf(QStringLiteral("ok")) - QPoint(8, 0);
    const QPoint plainAt = centerOf(QStringLiteral("ok")) + QPoint(8, 0);
    QVERIFY2(m_actions->clickAt(heldAt, MouseButton::Left, 1, held), qPrintable(m_actions->errorString()));
    const auto press = waitFor(QStringLiteral("mouse_press"), [](const QJsonObject&) { return true; });
    QVERIFY(press);
    for (const QString& m : modifiers)
        QVERIFY2(hasModifier(*press, m), qPrintable(m));
    QCOMPARE(press->value(QLatin1String("modifiers")).toArray().size(), modifiers.size());
    // And released afterwards: a plain click has no modifiers.
    m_app.clearPending();
    QVERIFY(m_actions->clickAt(plainAt, MouseButton::Left));
    const auto plain = waitFor(QStringLiteral("mouse_press"), [](const QJsonObject&) { return true; });
    QVERIFY(plain);
    QVERIFY(plain->value(QLatin1String("modifiers")).toArray().isEmpty());
}

void TestX11Platform::dragAsOneOperation()
{
    // The handle of the 0..100 slider sits in the middle at value 50.
    const QRect slider = rectOf(QStringLiteral("volume"));
    QVERIFY(!slider.isEmpty());
    QVERIFY2(m_actions->drag(slider.center(), QPoint(slider.right() + 40, slider.center().y())),
             qPrintable(m_actions->errorString()));
    const auto changed = waitFor(QStringLiteral("slider_changed"), [](const QJsonObject& o) {
        return o.value(QLatin1String("value")).toInt() == 100;
    });
    QVERIFY2(changed, "the slider did not reach 100");
}

void TestX11Platform::dragAsDownMoveUp()
{
    // After the previous test the handle is at the right end.
    const QRect slider = rectOf(QStringLiteral("volume"));
    const QPoint handle(slider.right() - 4, slider.center().y());
    QVERIFY(m_actions->moveTo(handle));
    QVERIFY(m_actions->buttonDown(MouseButton::Left));
    for (int x = handle.x(); x >= slider.left() - 40; x -= 25) {
        QVERIFY(m_actions->moveTo(QPoint(x, handle.y())));
    }
    QVERIFY(m_actions->moveTo(QPoint(slider.left() - 40, handle.y())));
    QVERIFY(m_actions->buttonUp(MouseButton::Left));
    const auto changed = waitFor(QStringLiteral("slider_changed"), [](const QJsonObject& o) {
        return o.value(QLatin1String("value")).toInt() == 0;
    });
    QVERIFY2(changed, "the slider did not reach 0");
    // Released: no button stays down.
    const auto release = waitFor(
        QStringLiteral("mouse_release"), [](const QJsonObject&) { return true; }, 2000);
    Q_UNUSED(release)
}

void TestX11Platform::scroll_data()
{
    QTest::addColumn<ScrollDirection>("direction");
    QTest::addColumn<int>("clicks");
    QTest::addColumn<int>("sign"); // of the wheel delta
    QTest::addColumn<bool>("vertical");
    // Down first: the list starts at the top, so up then scrolls back.
    QTest::newRow("down 3") << ScrollDirection::Down << 3 << -1 << true;
    QTest::newRow("up 2") << ScrollDirection::Up << 2 << 1 << true;
    QTest::newRow("left 2") << ScrollDirection::Left << 2 << 1 << false;
    QTest::newRow("right 4") << ScrollDirection::Right << 4 << -1 << false;
}

void TestX11Platform::scroll()
{
    QFETCH(ScrollDirection, direction);
    QFETCH(int, clicks);
    QFETCH(int, sign);
    QFETCH(bool, vertical);
    const QPoint at = centerOf(QStringLiteral("items"));
    QVERIFY2(m_actions->scrollAt(at, direction, clicks), qPrintable(m_actions->errorString()));
    for (int i = 0; i < clicks; ++i) {
        const auto wheel = waitFor(QStringLiteral("wheel"), [](const QJsonObject&) { return true; });
        QVERIFY2(wheel, qPrintable(QStringLiteral("wheel event %1 of %2 missing").arg(i + 1).arg(clicks)));
        const int dx = wheel->value(QLatin1String("dx")).toInt();
        const int dy = wheel->value(QLatin1String("dy")).toInt();
        QCOMPARE(wheel->value(QLatin1String("x")).toInt(), at.x());
        QCOMPARE(wheel->value(QLatin1String("y")).toInt(), at.y());
        if (vertical) {
            QCOMPARE(dx, 0);
            QCOMPARE(dy > 0 ? 1 : -1, sign);
        } else {
            QCOMPARE(dy, 0);
            QCOMPARE(dx > 0 ? 1 : -1, sign);
        }
    }
    if (vertical) {
        static int lastValue = 0;
        const auto scrolled =
            waitFor(QStringLiteral("list_scrolled"), [](const QJsonObject&) { return true; });
        QVERIFY2(scrolled, "the list did not scroll");
        const int value = scrolled->value(QLatin1String("value")).toInt();
        QVERIFY(sign < 0 ? value > lastValue : value < lastValue);
        m_app.waitFor([](const QJsonObject&) { return false; }, 200); // let it settle
        for (const QJsonObject& o : m_app.allLines()) {
            if (eventOf(o) == QLatin1String("list_scrolled"))
                lastValue = o.value(QLatin1String("value")).toInt();
        }
    }
}

void TestX11Platform::typeUnicode()
{
    const QString expected = QStringLiteral("Grüße, 東京 ✓");
    QVERIFY(m_actions->clickAt(centerOf(QStringLiteral("name")), MouseButton::Left));
    QVERIFY(m_actions->keys(QStringLiteral("ctrl+a BackSpace")));
    m_app.waitFor([](const QJsonObject&) { return false; }, 200);
    m_app.clearPending();
    QVERIFY2(m_actions->type(expected), qPrintable(m_actions->errorString()));
    const auto typed = waitFor(QStringLiteral("text_changed"), [&](const QJsonObject& o) {
        return o.value(QLatin1String("name")).toString() == QLatin1String("name") &&
               o.value(QLatin1String("text")).toString().size() >= expected.size();
    });
    QVERIFY2(typed, "the text did not arrive");
    QCOMPARE(typed->value(QLatin1String("text")).toString(), expected);
}

void TestX11Platform::typeLongUnicodeText()
{
    // More distinct characters outside the keyboard map than there are spare keycodes, with newlines.
    QString expected;
    for (char32_t c = 0x4e00; c < 0x4e00 + 40; ++c)
        expected += QString::fromUcs4(&c, 1);
    expected += QStringLiteral("\nÆØÅ äöü — ½ €\n") + expected.left(10);
    QVERIFY(m_actions->clickAt(centerOf(QStringLiteral("notes")), MouseButton::Left));
    QVERIFY(m_actions->keys(QStringLiteral("ctrl+a BackSpace")));
    m_app.waitFor([](const QJsonObject&) { return false; }, 200);
    m_app.clearPending();
    QVERIFY2(m_actions->type(expected), qPrintable(m_actions->errorString()));
    const auto typed = waitFor(
        QStringLiteral("text_changed"),
        [&](const QJsonObject& o) {
            return o.value(QLatin1String("name")).toString() == QLatin1String("notes") &&
                   o.value(QLatin1String("text")).toString().size() >= expected.size();
        },
        10000);
    if (!typed) {
        // Diagnostics: the last text the fixture reported, and the keys it saw.
        for (const QJsonObject& o : m_app.allLines()) {
            const QString event = eventOf(o);
            if ((event == QLatin1String("key_press") && o.value(QLatin1String("qt_key")).toInt() > 0xffff) ||
                event == QLatin1String("focused"))
                qWarning("%s", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
        }
        for (auto it = m_app.allLines().crbegin(); it != m_app.allLines().crend(); ++it) {
            if (eventOf(*it) == QLatin1String("text_changed")) {
                qWarning("last text: %s", QJsonDocument(*it).toJson(QJsonDocument::Compact).constData());
                break;
            }
        }
    }
    QVERIFY2(typed, "the text did not arrive");
    QCOMPARE(typed->value(QLatin1String("text")).toString(), expected);
}

void TestX11Platform::keyCombos_data()
{
    QTest::addColumn<QString>("sequence");
    QTest::addColumn<int>("qtKey");
    QTest::addColumn<QString>("modifierList"); // comma-separated
    QTest::newRow("ctrl+a") << "ctrl+a" << int(Qt::Key_A) << "ctrl";
    QTest::newRow("BackSpace") << "BackSpace" << int(Qt::Key_Backspace) << "";
    QTest::newRow("shift+F10") << "shift+F10" << int(Qt::Key_F10) << "shift";
    QTest::newRow("KP_Enter") << "KP_Enter" << int(Qt::Key_Enter) << "";
    QTest::newRow("alt+x") << "alt+x" << int(Qt::Key_X) << "alt";
    QTest::newRow("ctrl+shift+t") << "ctrl+shift+t" << int(Qt::Key_T) << "ctrl,shift";
    QTest::newRow("super+m") << "super+m" << int(Qt::Key_M) << "meta";
    QTest::newRow("ctrl+alt+Delete") << "ctrl+alt+Delete" << int(Qt::Key_Delete) << "ctrl,alt";
    QTest::newRow("F5") << "F5" << int(Qt::Key_F5) << "";
    QTest::newRow("pageup") << "pageup" << int(Qt::Key_PageUp) << "";
    QTest::newRow("Home") << "Home" << int(Qt::Key_Home) << "";
    // KP_5 sits on the NumLock level of its key: it gets a spare key of its own, no Shift.
    QTest::newRow("numpad5") << "numpad5" << int(Qt::Key_5) << "";
    QTest::newRow("shifted char") << "ctrl+exclam" << int(Qt::Key_Exclam) << "ctrl,shift";
}

void TestX11Platform::keyCombos()
{
    QFETCH(QString, sequence);
    QFETCH(int, qtKey);
    QFETCH(QString, modifierList);
    QStringList modifiers = modifierList.split(QLatin1Char(','), Qt::SkipEmptyParts);
    m_app.send(QStringLiteral("focus ok"));
    QVERIFY(m_app.waitForEvent(QStringLiteral("focused")));
    QVERIFY2(m_actions->keys(sequence), qPrintable(m_actions->errorString()));
    const auto press = waitFor(QStringLiteral("key_press"), [&](const QJsonObject& o) {
        return o.value(QLatin1String("qt_key")).toInt() == qtKey;
    });
    if (!press) {
        for (const QJsonObject& o : m_app.allLines()) {
            if (eventOf(o) == QLatin1String("key_press"))
                qWarning("%s", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
        }
    }
    QVERIFY2(press, qPrintable(QStringLiteral("no key_press for %1").arg(sequence)));
    QStringList got;
    for (const QJsonValue& v : press->value(QLatin1String("modifiers")).toArray())
        got << v.toString();
    got.sort();
    modifiers.sort();
    QCOMPARE(got, modifiers);
    const auto release = waitFor(QStringLiteral("key_release"), [&](const QJsonObject& o) {
        return o.value(QLatin1String("qt_key")).toInt() == qtKey;
    });
    QVERIFY(release);
}

void TestX11Platform::holdKey()
{
    m_app.send(QStringLiteral("focus ok"));
    QVERIFY(m_app.waitForEvent(QStringLiteral("focused")));
    QVERIFY2(m_actions->holdKey(QStringLiteral("ctrl+h"), 300), qPrintable(m_actions->errorString()));
    const auto press = waitFor(QStringLiteral("key_press"), [](const QJsonObject& o) {
        return o.value(QLatin1String("qt_key")).toInt() == Qt::Key_H;
    });
    QVERIFY(press);
    QVERIFY(hasModifier(*press, QStringLiteral("ctrl")));
    QVERIFY(!press->value(QLatin1String("autorepeat")).toBool());
    // The final release is a real one (not an autorepeat pair).
    std::optional<QJsonObject> release;
    while (auto r = waitFor(
               QStringLiteral("key_release"),
               [](const QJsonObject& o) { return o.value(QLatin1String("qt_key")).toInt() == Qt::Key_H; },
               1000))
        release = r;
    QVERIFY(release);
    QVERIFY(!release->value(QLatin1String("autorepeat")).toBool());
    // And Control is up again: a plain key has no modifiers.
    m_app.clearPending();
    QVERIFY(m_actions->keys(QStringLiteral("F6")));
    const auto plain = waitFor(QStringLiteral("key_press"), [](const QJsonObject& o) {
        return o.value(QLatin1String("qt_key")).toInt() == Qt::Key_F6;
    });
    QVERIFY(plain);
    QVERIFY(plain->value(QLatin1String("modifiers")).toArray().isEmpty());
}

void TestX11Platform::badInputFailsCleanly()
{
    QVERIFY(!m_actions->keys(QStringLiteral("ctrl+nosuchkey")));
    QVERIFY(m_actions->errorString().contains(QLatin1String("nosuchkey")));
    QVERIFY(!m_actions->type(QStringLiteral("bell\a")));
    QVERIFY(m_actions->errorString().contains(QLatin1String("control character")));
    QVERIFY(!m_actions->click(MouseButton::Left, 4));
    QVERIFY(m_platform->isConnected());
}

void TestX11Platform::grabFullAndRegion()
{
    Screen& screen = m_platform->screen();
    QCOMPARE(screen.size(), QSize(1280, 800));
    QVERIFY(m_actions->moveTo(QPoint(5, 5))); // no hover effects in the compared region
    const QImage full = screen.grab();
    QVERIFY2(!full.isNull(), qPrintable(screen.errorString()));
    QCOMPARE(full.size(), QSize(1280, 800));
    QCOMPARE(full.format(), QImage::Format_RGB32);
    // The fixture window is drawn: many colours (text, frames), not a blank area.
    const QRect window = m_app.windowRect().intersected(QRect(QPoint(0, 0), full.size()));
    QVERIFY(!window.isEmpty());
    QVERIFY(distinctColours(full.copy(window)) > 8);

    // A region grab equals the same crop of a full grab (retry: a caret may blink in between).
    const QRect region = rectOf(QStringLiteral("items")).adjusted(-3, -3, 3, 3);
    bool same = false;
    for (int attempt = 0; attempt < 5 && !same; ++attempt) {
        const QImage a = screen.grab();
        const QImage part = screen.grab(region);
        QCOMPARE(part.size(), region.size());
        same = part == a.copy(region);
    }
    QVERIFY(same);
    // Partly outside: clipped. Fully outside: an error.
    QCOMPARE(screen.grab(QRect(1200, 700, 200, 200)).size(), QSize(80, 100));
    QVERIFY(screen.grab(QRect(5000, 5000, 10, 10)).isNull());
    QVERIFY(!screen.errorString().isEmpty());
    // Many grabs held at once (beyond the zero-copy pool) stay valid and distinct.
    QList<QImage> held;
    for (int i = 0; i < 8; ++i)
        held << screen.grab();
    for (const QImage& image : std::as_const(held))
        QCOMPARE(image.copy(region), held.first().copy(region));
}

void TestX11Platform::grabIntoWithDamage()
{
    Screen& screen = m_platform->screen();
    const QRect box = rectOf(QStringLiteral("subscribe"));
    QVERIFY(!box.isEmpty());
    QVERIFY(m_actions->moveTo(box.center()));
    QVERIFY(m_app.sync()); // the hover repaint is on the screen
    QImage frame = screen.grab().copy();
    QVERIFY(!frame.isNull());
    const QImage before = frame.copy(box);

    screen.takeDamage();
    QVERIFY(m_app.sync()); // anything the app would still draw has reached the server
    // Nothing changes over the checkbox while nobody touches it.
    QVERIFY(!screen.takeDamage().intersects(box));

    QVERIFY(m_actions->click(MouseButton::Left));
    QVERIFY(waitFor(QStringLiteral("toggled"), [](const QJsonObject& o) {
        return o.value(QLatin1String("name")).toString() == QLatin1String("subscribe");
    }));
    QRegion damage;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     damage += screen.takeDamage();
                     return damage.intersects(box);
                 },
                 5000),
             "no damage reported over the toggled checkbox");

    // Patch only the damaged rectangles into the old frame: once the repaint is complete (and its damage
    // reported), the checkbox looks like a fresh grab.
    QImage fresh;
    const bool patched = QTest::qWaitFor(
        [&] {
            damage += screen.takeDamage();
            for (const QRect& r : damage) {
                if (!screen.grabInto(frame, QPoint(0, 0), r))
                    return false;
            }
            fresh = screen.grab(box);
            return frame.copy(box) == fresh;
        },
        5000);
    QVERIFY2(patched, qPrintable(screen.errorString()));
    QCOMPARE(frame.copy(box), fresh);
    QVERIFY(frame.copy(box) != before);
    // A target with an origin: root point (box.topLeft) lands at pixel (0, 0).
    // (The checkbox may still be repainting, e.g. its focus frame: compare with a grab of the same moment.)
    QImage small(box.size(), QImage::Format_RGB32);
    QVERIFY(QTest::qWaitFor(
        [&] {
            small.fill(Qt::black);
            return screen.grabInto(small, box.topLeft(), box.adjusted(-50, -50, 50, 50)) &&
                   small == screen.grab(box);
        },
        5000));
    QImage wrongFormat(10, 10, QImage::Format_RGB888);
    QVERIFY(!screen.grabInto(wrongFormat, QPoint(0, 0), QRect(0, 0, 10, 10)));
    // Put it back.
    QVERIFY(m_actions->click(MouseButton::Left));
}

void TestX11Platform::monitors()
{
    const QList<MonitorInfo> monitors = m_platform->screen().monitors();
    QCOMPARE(monitors.size(), 1); // Xvfb has one
    QCOMPARE(monitors.first().geometry, QRect(0, 0, 1280, 800));
    QVERIFY(monitors.first().primary);
    QVERIFY(!monitors.first().name.isEmpty());
}

void TestX11Platform::dpi()
{
    Screen& screen = m_platform->screen();
    // Xvfb reports a physical size; the DPI follows from it.
    const double physical = screen.dpi();
    QVERIFY2(physical > 50 && physical < 300, qPrintable(QString::number(physical)));
    QVERIFY(runXprop({QStringLiteral("-root"), QStringLiteral("-f"), QStringLiteral("RESOURCE_MANAGER"),
                      QStringLiteral("8s"), QStringLiteral("-set"), QStringLiteral("RESOURCE_MANAGER"),
                      QStringLiteral("Xft.antialias:\t1\nXft.dpi:\t144\n")}));
    QCOMPARE(screen.dpi(), 144.0);
    QCOMPARE(screen.scaleFactor(), 1.5);
    QVERIFY(
        runXprop({QStringLiteral("-root"), QStringLiteral("-remove"), QStringLiteral("RESOURCE_MANAGER")}));
    QCOMPARE(screen.dpi(), physical);
}

void TestX11Platform::clipboardTextToFixture()
{
    const QString text = QStringLiteral("Grüße aus dem Agenten ✓ 東京");
    QVERIFY2(m_platform->clipboard().setText(text), qPrintable(m_platform->clipboard().errorString()));
    QVERIFY(fixtureSawOurClipboard());
    QCOMPARE(clipboardAsSeenByFixture().value(QLatin1String("text")).toString(), text);
    // And we read back what we own.
    QCOMPARE(m_platform->clipboard().text(), std::optional<QString>(text));
}

void TestX11Platform::clipboardTextFromFixture()
{
    m_app.send(QStringLiteral("set-clipboard from the fixture: naïve ✓"));
    QVERIFY(m_app.waitForEvent(QStringLiteral("clipboard_set")));
    const auto text = m_platform->clipboard().text();
    QVERIFY2(text, qPrintable(m_platform->clipboard().errorString()));
    QCOMPARE(*text, QStringLiteral("from the fixture: naïve ✓"));
    // Text only: no image.
    QVERIFY(!m_platform->clipboard().image());
}

void TestX11Platform::clipboardLargeTextIncremental()
{
    // Above the INCR threshold: Qt reads it incrementally from our owner, and so do we.
    QString text;
    for (int i = 0; text.size() < 400'000; ++i)
        text += QStringLiteral("line %1 äöü\n").arg(i);
    QVERIFY(m_platform->clipboard().setText(text));
    QVERIFY(fixtureSawOurClipboard());
    QCOMPARE(m_platform->clipboard().text(5000), std::optional<QString>(text));
    const QJsonObject seen = clipboardAsSeenByFixture();
    QCOMPARE(seen.value(QLatin1String("text")).toString().size(), text.size());
    QCOMPARE(seen.value(QLatin1String("text")).toString(), text);
}

void TestX11Platform::clipboardImageRoundTrip()
{
    QImage red(40, 30, QImage::Format_RGB32);
    red.fill(QColor(255, 0, 0));
    QVERIFY2(m_platform->clipboard().setImage(red), qPrintable(m_platform->clipboard().errorString()));
    QVERIFY(fixtureSawOurClipboard());
    const QJsonObject seen = clipboardAsSeenByFixture();
    QCOMPARE(seen.value(QLatin1String("image_width")).toInt(), 40);
    QCOMPARE(seen.value(QLatin1String("image_height")).toInt(), 30);
    QCOMPARE(seen.value(QLatin1String("image_pixel")).toString(), QStringLiteral("ffff0000"));
    const auto ours = m_platform->clipboard().image();
    QVERIFY(ours);
    QCOMPARE(ours->size(), QSize(40, 30));

    m_app.send(QStringLiteral("set-clipboard-image 30 20 00ff00"));
    QVERIFY(m_app.waitForEvent(QStringLiteral("clipboard_set")));
    const auto image = m_platform->clipboard().image();
    QVERIFY2(image, qPrintable(m_platform->clipboard().errorString()));
    QCOMPARE(image->size(), QSize(30, 20));
    QCOMPARE(image->pixel(0, 0), qRgb(0, 255, 0));
    QCOMPARE(image->pixel(29, 19), qRgb(0, 255, 0));
}

void TestX11Platform::clipboardSaveRestore()
{
    Clipboard& clipboard = m_platform->clipboard();
    m_app.send(QStringLiteral("set-clipboard the user's original text"));
    QVERIFY(m_app.waitForEvent(QStringLiteral("clipboard_set")));
    const Clipboard::Content saved = clipboard.save();
    QVERIFY(saved.text);
    QCOMPARE(*saved.text, QStringLiteral("the user's original text"));
    QVERIFY(!saved.image);

    QVERIFY(clipboard.setText(QStringLiteral("temporary agent text")));
    QVERIFY(fixtureSawOurClipboard());
    QCOMPARE(clipboardAsSeenByFixture().value(QLatin1String("text")).toString(),
             QStringLiteral("temporary agent text"));
    QVERIFY(clipboard.restore(saved));
    QVERIFY(fixtureSawOurClipboard());
    QCOMPARE(clipboardAsSeenByFixture().value(QLatin1String("text")).toString(),
             QStringLiteral("the user's original text"));

    // An image survives a save/restore too.
    m_app.send(QStringLiteral("set-clipboard-image 8 6 0000ff"));
    QVERIFY(m_app.waitForEvent(QStringLiteral("clipboard_set")));
    const Clipboard::Content savedImage = clipboard.save();
    QVERIFY(savedImage.image);
    QVERIFY(clipboard.setText(QStringLiteral("temporary")));
    QVERIFY(fixtureSawOurClipboard());
    QVERIFY(clipboard.restore(savedImage));
    QVERIFY(fixtureSawOurClipboard());
    const QJsonObject seen = clipboardAsSeenByFixture();
    QCOMPARE(seen.value(QLatin1String("image_width")).toInt(), 8);
    QCOMPARE(seen.value(QLatin1String("image_pixel")).toString(), QStringLiteral("ff0000ff"));
}

void TestX11Platform::activeWindow()
{
    QVERIFY(m_app.refreshWidgets());
    const QJsonObject widgets = lastWidgetsLine();
    const QRect client = ciu::test::rectFromJson(widgets.value(QLatin1String("client")).toObject());
    const auto active = m_platform->windows().activeWindow();
    QVERIFY2(active, qPrintable(m_platform->windows().errorString()));
    QCOMPARE(active->title, QStringLiteral("CIU Fixture"));
    QCOMPARE(active->pid, m_fixturePid);
    QCOMPARE(active->instance, QStringLiteral("ciu-fixture-app"));
    QVERIFY(!active->windowClass.isEmpty());
    QCOMPARE(active->geometry, client);
    QVERIFY(active->active);
}

void TestX11Platform::windowListAndActivate()
{
    WindowSystem& windows = m_platform->windows();
    QList<WindowInfo> list = windows.topLevelWindows();
    auto find = [&](const QString& title) -> std::optional<WindowInfo> {
        for (const WindowInfo& w : std::as_const(list)) {
            if (w.title == title)
                return w;
        }
        return std::nullopt;
    };
    const auto main = find(QStringLiteral("CIU Fixture"));
    QVERIFY(main);
    QCOMPARE(main->pid, m_fixturePid);
    QVERIFY(main->active);

    m_app.send(QStringLiteral("open-window"));
    const auto opened = m_app.waitForEvent(QStringLiteral("window_opened"));
    QVERIFY(opened);
    list = windows.topLevelWindows();
    const auto second = find(QStringLiteral("CIU Fixture Second"));
    QVERIFY(second);
    QCOMPARE(second->geometry, ciu::test::rectFromJson(opened->value(QLatin1String("client")).toObject()));
    // Bottom first: the new window is stacked above the main one.
    auto indexOf = [&](quint64 id) {
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (list.at(i).id == id)
                return i;
        }
        return qsizetype(-1);
    };
    QVERIFY(indexOf(second->id) > indexOf(main->id));

    QVERIFY2(windows.activate(main->id), qPrintable(windows.errorString()));
    QCOMPARE(windows.activeWindow()->id, main->id);
    QVERIFY2(windows.activate(second->id), qPrintable(windows.errorString()));
    QCOMPARE(windows.activeWindow()->id, second->id);
    QVERIFY(!windows.activate(0x7ffffff));
    QVERIFY(!windows.errorString().isEmpty());
    QVERIFY(windows.activate(main->id));
}

void TestX11Platform::altTabReachesWindowManager()
{
    // openbox binds alt+Tab: the combo arrived with its modifier if the active window changes.
    WindowSystem& windows = m_platform->windows();
    const auto before = windows.activeWindow();
    QVERIFY(before);
    QCOMPARE(before->title, QStringLiteral("CIU Fixture"));
    QVERIFY2(m_actions->keys(QStringLiteral("alt+Tab")), qPrintable(m_actions->errorString()));
    std::optional<WindowInfo> after;
    QVERIFY2(QTest::qWaitFor(
                 [&] {
                     after = windows.activeWindow();
                     return after && after->id != before->id;
                 },
                 5000),
             "alt+Tab did not change the active window");
    QCOMPARE(after->title, QStringLiteral("CIU Fixture Second"));
    m_app.send(QStringLiteral("close-window"));
    QVERIFY(m_app.waitForEvent(QStringLiteral("window_closed")));
}

QTEST_GUILESS_MAIN(TestX11Platform)
#include "tst_x11platform.moc"
