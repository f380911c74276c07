// End to end: the X11 backend's error paths. No display, a display that vanishes mid-use, a server
// without MIT-SHM. Nothing may crash; every call fails with a clear message.

#include "platform/inputactions.h"
#include "platform/platformfactory.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QFile>
#include <QTest>

using namespace ciu::platform;
using ciu::test::FixtureApp;
using ciu::test::XvfbServer;

class TestX11Errors : public QObject
{
    Q_OBJECT

private slots:
    void displayThatDoesNotExist();
    void malformedDisplayName();
    void noDisplayAtAll();
    void serverGoesAwayMidUse();
    void serverWithoutSharedMemory();
};

void TestX11Errors::displayThatDoesNotExist()
{
    int number = 4000;
    while (QFile::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(number)))
        ++number;
    const QString display = QStringLiteral(":%1").arg(number);
    const PlatformResult result = createPlatform({QStringLiteral("x11"), display});
    QVERIFY(!result.platform);
    QVERIFY2(result.error.contains(display), qPrintable(result.error));
    QVERIFY2(result.error.contains(QLatin1String("cannot open the X display")), qPrintable(result.error));
}

void TestX11Errors::malformedDisplayName()
{
    const PlatformResult result = createPlatform({QStringLiteral("x11"), QStringLiteral("not a display")});
    QVERIFY(!result.platform);
    QVERIFY2(result.error.contains(QLatin1String("not a display")), qPrintable(result.error));
}

void TestX11Errors::noDisplayAtAll()
{
    const QByteArray saved = qgetenv("DISPLAY");
    qunsetenv("DISPLAY");
    const PlatformResult result = createPlatform({QStringLiteral("x11"), QString()});
    if (!saved.isEmpty())
        qputenv("DISPLAY", saved);
    QVERIFY(!result.platform);
    QVERIFY2(result.error.contains(QLatin1String("$DISPLAY")), qPrintable(result.error));
}

void TestX11Errors::serverGoesAwayMidUse()
{
    XvfbServer::Options options;
    options.windowManager = false;
    XvfbServer xvfb(options);
    QVERIFY2(xvfb.start(), qPrintable(xvfb.errorString()));
    PlatformResult opened = createPlatform({QStringLiteral("x11"), xvfb.displayName()});
    QVERIFY2(opened.platform, qPrintable(opened.error));
    Platform& p = *opened.platform;
    InputActions actions(p.input(), p.pointer());
    QVERIFY(p.isConnected());
    QVERIFY(!p.screen().grab().isNull());
    QVERIFY(actions.moveTo(QPoint(10, 10)));
    QVERIFY(p.clipboard().setText(QStringLiteral("held while the server dies")));
    const QImage heldGrab = p.screen().grab(); // a zero-copy image outliving the server and the platform

    xvfb.stop();
    const QString wentAway = QStringLiteral("the X display %1 went away").arg(xvfb.displayName());

    // The first request notices; every later one fails at once with the same message.
    QVERIFY(p.screen().grab().isNull());
    QCOMPARE(p.screen().errorString(), wentAway);
    QVERIFY(!p.isConnected());
    QCOMPARE(p.capabilities(), Capabilities());
    QVERIFY(p.screen().grab(QRect(0, 0, 10, 10)).isNull());
    QImage target(100, 100, QImage::Format_RGB32);
    QVERIFY(!p.screen().grabInto(target, QPoint(0, 0), QRect(0, 0, 10, 10)));
    QVERIFY(p.screen().takeDamage().isEmpty());
    QVERIFY(p.screen().monitors().isEmpty());
    QVERIFY(!p.pointer().position());
    QVERIFY(!p.pointer().cursor());

    QVERIFY(!actions.moveTo(QPoint(20, 20)));
    QCOMPARE(actions.errorString(), wentAway);
    QVERIFY(!actions.clickAt(QPoint(5, 5), MouseButton::Left));
    QVERIFY(!actions.keys(QStringLiteral("ctrl+s")));
    QCOMPARE(actions.errorString(), wentAway);
    QVERIFY(!actions.type(QStringLiteral("Grüße")));
    QVERIFY(!actions.scroll(ScrollDirection::Down, 3));
    QVERIFY(!p.input().sync());

    QVERIFY(!p.windows().activeWindow());
    QCOMPARE(p.windows().errorString(), wentAway);
    QVERIFY(p.windows().topLevelWindows().isEmpty());
    QVERIFY(!p.windows().activate(0x400001));

    QVERIFY(!p.clipboard().text());
    QCOMPARE(p.clipboard().errorString(), wentAway);
    QVERIFY(!p.clipboard().image());
    QVERIFY(!p.clipboard().setText(QStringLiteral("nobody to tell")));
    QVERIFY(!p.clipboard().errorString().isEmpty());

    opened.platform.reset(); // tearing down without a server must not crash either
    QCOMPARE(heldGrab.size(), QSize(1280, 800));
    QVERIFY(heldGrab.pixel(0, 0) == heldGrab.pixel(1, 1)); // still readable
}

void TestX11Errors::serverWithoutSharedMemory()
{
    XvfbServer::Options options;
    options.extraArgs = {QStringLiteral("-extension"), QStringLiteral("MIT-SHM")};
    XvfbServer xvfb(options);
    QVERIFY2(xvfb.start(), qPrintable(xvfb.errorString()));
    FixtureApp app; // something to look at
    QVERIFY2(app.start(xvfb.environment()), qPrintable(app.errorString()));

    PlatformResult opened = createPlatform({QStringLiteral("x11"), xvfb.displayName()});
    QVERIFY2(opened.platform, qPrintable(opened.error));
    Platform& p = *opened.platform;
    QVERIFY(!(p.capabilities() & Capability::SharedMemoryGrab));
    QVERIFY(p.capabilities() & Capability::InputInjection);

    const QImage full = p.screen().grab();
    QVERIFY2(!full.isNull(), qPrintable(p.screen().errorString()));
    QCOMPARE(full.size(), QSize(1280, 800));
    const QRect window = app.windowRect().intersected(QRect(QPoint(0, 0), full.size()));
    QVERIFY(!window.isEmpty());
    bool same = false;
    for (int attempt = 0; attempt < 5 && !same; ++attempt) {
        const QImage a = p.screen().grab();
        same = p.screen().grab(window) == a.copy(window);
    }
    QVERIFY(same);
    QImage target(full.size(), QImage::Format_RGB32);
    target.fill(Qt::black);
    QVERIFY(p.screen().grabInto(target, QPoint(0, 0), window));
    // The window's pixels arrived (the fixture draws far more than black).
    int nonBlack = 0;
    for (int y = window.top(); y <= window.bottom(); y += 4) {
        for (int x = window.left(); x <= window.right(); x += 4)
            nonBlack += qGray(target.pixel(x, y)) > 16;
    }
    QVERIFY(nonBlack > 100);
    QCOMPARE(target.copy(window), full.copy(window));
}

QTEST_GUILESS_MAIN(TestX11Errors)
#include "tst_x11errors.moc"
