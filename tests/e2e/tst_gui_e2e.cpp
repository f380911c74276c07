// The desktop app end to end: the window on its own X display drives the fixture app on another one
// with the local planner (real X11 backend, OpenCV, Tesseract); a screenshot of the window is written
// for a person to look at. Also the pieces the window needs from the X server: the global emergency-stop
// hotkey (grabbed while another window has the focus) and the sandbox display.

#include "core/engine/sandboxdisplay.h"
#include "platform/platformfactory.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;

namespace {

bool runTool(const QString& program, const QStringList& args, const QProcessEnvironment& env,
             QString* output = nullptr)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished();
        return false;
    }
    if (output)
        *output = QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

} // namespace

class TestGuiE2e : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void globalHotkeyFiresWithOtherWindowFocused();
    void hotkeyErrors();
    void sandboxDisplay();
    void appRunsLocalTaskAndScreenshot();
};

void TestGuiE2e::initTestCase()
{
    if (!test::xvfbAvailable())
        QFAIL("Xvfb is not installed (packaging/install-deps.sh)");
    if (QStandardPaths::findExecutable(QStringLiteral("xdotool")).isEmpty())
        QFAIL("xdotool is not installed (packaging/install-deps.sh)");
}

void TestGuiE2e::globalHotkeyFiresWithOtherWindowFocused()
{
    test::XvfbServer server;
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    test::FixtureApp fixture; // another application, with the focus
    QVERIFY2(fixture.start(server.environment()), qPrintable(fixture.errorString()));

    auto result = platform::createGlobalHotkey(QStringLiteral("ctrl+alt+End"),
                                               {QStringLiteral("x11"), server.displayName()});
    QVERIFY2(result.hotkey, qPrintable(result.error));
    QSignalSpy activated(result.hotkey.get(), &platform::GlobalHotkey::activated);

    QString out;
    QVERIFY(
        runTool(QStringLiteral("xdotool"), {QStringLiteral("getwindowfocus")}, server.environment(), &out));
    QVERIFY2(!out.trimmed().isEmpty(), "some window has the focus");
    // Caps Lock on must not matter.
    QVERIFY(runTool(QStringLiteral("xdotool"), {QStringLiteral("key"), QStringLiteral("ctrl+alt+End")},
                    server.environment()));
    QTRY_COMPARE_WITH_TIMEOUT(activated.count(), 1, 10000);
    // Other keys do not fire it, and the fixture app still gets them.
    QVERIFY(runTool(QStringLiteral("xdotool"), {QStringLiteral("key"), QStringLiteral("alt+End")},
                    server.environment()));
    QVERIFY(runTool(QStringLiteral("xdotool"), {QStringLiteral("key"), QStringLiteral("ctrl+alt+End")},
                    server.environment()));
    QTRY_COMPARE_WITH_TIMEOUT(activated.count(), 2, 10000);
    QCOMPARE(result.hotkey->sequence(), QStringLiteral("ctrl+alt+End"));
}

void TestGuiE2e::hotkeyErrors()
{
    test::XvfbServer server(test::XvfbServer::Options{{640, 480}, 24, false, {}});
    QVERIFY2(server.start(), qPrintable(server.errorString()));
    const platform::PlatformOptions x11{QStringLiteral("x11"), server.displayName()};
    auto first = platform::createGlobalHotkey(QStringLiteral("ctrl+alt+F12"), x11);
    QVERIFY2(first.hotkey, qPrintable(first.error));
    // A second grab of the same combination is refused with a clear error.
    auto second = platform::createGlobalHotkey(QStringLiteral("ctrl+alt+F12"), x11);
    QVERIFY(!second.hotkey);
    QVERIFY2(second.error.contains(QStringLiteral("already")), qPrintable(second.error));
    auto bad = platform::createGlobalHotkey(QStringLiteral("ctrl+nosuchkey"), x11);
    QVERIFY(!bad.hotkey);
    QVERIFY(!bad.error.isEmpty());
    auto two = platform::createGlobalHotkey(QStringLiteral("ctrl+a ctrl+b"), x11);
    QVERIFY(!two.hotkey);
    auto noDisplay = platform::createGlobalHotkey(QStringLiteral("ctrl+alt+End"),
                                                  {QStringLiteral("x11"), QStringLiteral(":987")});
    QVERIFY(!noDisplay.hotkey);
    QVERIFY2(noDisplay.error.contains(QStringLiteral(":987")), qPrintable(noDisplay.error));
    // The synthetic backend's stand-in fires only when told to.
    auto synthetic =
        platform::createGlobalHotkey(QStringLiteral("ctrl+alt+End"), {QStringLiteral("synthetic"), {}});
    QVERIFY(synthetic.hotkey);
    QSignalSpy activated(synthetic.hotkey.get(), &platform::GlobalHotkey::activated);
    platform::triggerForTest(*synthetic.hotkey);
    QCOMPARE(activated.count(), 1);
}

void TestGuiE2e::sandboxDisplay()
{
    SandboxDisplay sandbox;
    QSignalSpy started(&sandbox, &SandboxDisplay::started);
    QSignalSpy failed(&sandbox, &SandboxDisplay::failed);
    QVERIFY(!sandbox.launch(QStringLiteral("xeyes"))); // not running yet
    sandbox.start(QSize(800, 600));
    QTRY_VERIFY_WITH_TIMEOUT(started.count() == 1 || failed.count() == 1, 20000);
    QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().at(0).toString()));
    QCOMPARE(sandbox.state(), SandboxDisplay::State::Running);
    const QString display = started.first().at(0).toString();
    QVERIFY(display.startsWith(QLatin1Char(':')));

    // It is a real display of the requested size.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), display);
    QString info;
    QVERIFY(runTool(QStringLiteral("xdpyinfo"), {}, env, &info));
    QVERIFY2(info.contains(QStringLiteral("800x600")), qPrintable(info.left(400)));
    QVERIFY(!sandbox.launch(QStringLiteral("   ")));
    QVERIFY(!sandbox.errorString().isEmpty());
    QVERIFY(!sandbox.launch(QStringLiteral("/no/such/program")));
    QVERIFY(sandbox.launch(QStringLiteral("xeyes -geometry 100x100+10+10")));

    QSignalSpy stopped(&sandbox, &SandboxDisplay::stopped);
    sandbox.stop();
    QCOMPARE(stopped.count(), 1);
    QVERIFY(!QFile::exists(QStringLiteral("/tmp/.X11-unix/X") + display.mid(1)) ||
            !runTool(QStringLiteral("xdpyinfo"), {}, env));

    // A server that cannot start is reported.
    SandboxDisplay broken;
    broken.setServerProgram(QStringLiteral("/no/such/Xvfb"));
    QSignalSpy brokenFailed(&broken, &SandboxDisplay::failed);
    broken.start(QSize(800, 600));
    QTRY_COMPARE_WITH_TIMEOUT(brokenFailed.count(), 1, 10000);
    QCOMPARE(broken.state(), SandboxDisplay::State::Stopped);
}

void TestGuiE2e::appRunsLocalTaskAndScreenshot()
{
    // The target display with the fixture app, and the display the app's window is on.
    test::XvfbServer target(test::XvfbServer::Options{{1280, 800}, 24, true, {}});
    QVERIFY2(target.start(), qPrintable(target.errorString()));
    test::FixtureApp fixture;
    QVERIFY2(fixture.start(target.environment()), qPrintable(fixture.errorString()));
    test::XvfbServer own(test::XvfbServer::Options{{1600, 1000}, 24, true, {}});
    QVERIFY2(own.start(), qPrintable(own.errorString()));

    QTemporaryDir home;
    QProcessEnvironment env = own.environment();
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("OMP_THREAD_LIMIT"), QStringLiteral("1"));
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("LANGUAGE"), QStringLiteral("en"));
    // The bridge logs the end of the task: the test waits for that line.
    env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("ciu.ui.engine.info=true"));

    QProcess app;
    app.setProcessEnvironment(env);
    app.setProcessChannelMode(QProcess::MergedChannels);
    app.start(QStringLiteral(CIU_AGENT_BIN),
              {QStringLiteral("--display"), target.displayName(), QStringLiteral("--provider"),
               QStringLiteral("local"), QStringLiteral("--execute"), QStringLiteral("--task"),
               QStringLiteral("click OK"), QStringLiteral("--run")});
    QVERIFY2(app.waitForStarted(10000), qPrintable(app.errorString()));

    // The local planner clicks the fixture app's OK button on the target display.
    const auto clicked = fixture.waitFor(
        [](const QJsonObject& line) {
            return line.value(QStringLiteral("event")).toString() == QStringLiteral("clicked") &&
                   line.value(QStringLiteral("name")).toString() == QStringLiteral("ok");
        },
        120000);
    QString appOutput = QString::fromUtf8(app.readAll());
    QVERIFY2(clicked, qPrintable(QStringLiteral("no click on OK; app output:\n") + appOutput.right(3000)));

    // The window learns that the task finished (the bridge logs it after telling the window).
    const bool finished = QTest::qWaitFor(
        [&] {
            appOutput += QString::fromUtf8(app.readAll());
            return appOutput.contains(QLatin1String("task finished:"));
        },
        60000);
    QVERIFY2(finished,
             qPrintable(QStringLiteral("the task did not finish; app output:\n") + appOutput.right(3000)));
    QCOMPARE(app.state(), QProcess::Running); // the window stays open after the task

    // Photograph the window's display until the window has drawn the finished task: not a blank screen,
    // something with many colours.
    const QString shot = QStringLiteral(CIU_BINARY_DIR) + QStringLiteral("/gui-e2e-screenshot.png");
    QImage image;
    QString out;
    qsizetype colourCount = 0;
    const bool drawn = QTest::qWaitFor(
        [&] {
            QFile::remove(shot);
            if (!runTool(QStringLiteral("import"), {QStringLiteral("-window"), QStringLiteral("root"), shot},
                         own.environment(), &out))
                return false;
            image = QImage(shot);
            if (image.isNull())
                return false;
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 7)
                for (int x = 0; x < image.width(); x += 7)
                    colours.insert(image.pixel(x, y));
            colourCount = colours.size();
            return colourCount > 50;
        },
        20000);
    QVERIFY2(!image.isNull(), qPrintable(out));
    QCOMPARE(image.size(), QSize(1600, 1000));
    QVERIFY2(drawn, qPrintable(QString::number(colourCount)));

    app.terminate();
    if (!app.waitForFinished(15000)) {
        app.kill();
        app.waitForFinished();
    }
}

QTEST_GUILESS_MAIN(TestGuiE2e)
#include "tst_gui_e2e.moc"
