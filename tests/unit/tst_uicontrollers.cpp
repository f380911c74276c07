// The window's controllers (offscreen): the own-window regions and display matching of OwnWindowTracker,
// the emergency hotkey of HotkeyController on the synthetic backend (and its wiring to the window's stop),
// InputForwarding's worker opening a display, and SandboxController's refusals while stopped.

#include "core/model/metatypes.h"
#include "platform/hotkey.h"
#include "platform/platformfactory.h"
#include "ui/controllers/hotkeycontroller.h"
#include "ui/controllers/inputforwarding.h"
#include "ui/controllers/ownwindowtracker.h"
#include "ui/controllers/sandboxcontroller.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

using namespace ciu;
using ciu::ui::HotkeyController;
using ciu::ui::InputForwarding;
using ciu::ui::OwnWindowTracker;
using ciu::ui::SandboxController;

class TestUiControllers : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void sameDisplay_data();
    void sameDisplay();
    void regionsOfVisibleWindows();
    void trackerIgnoresOtherPlatforms();
    void hotkeyOnSyntheticBackend();
    void hotkeyBackendFromEnvironment();
    void hotkeyErrors();
    void hotkeyStopsTheWindow();
    void forwardingOpensDisplay();
    void forwardingReportsFailure();
    void sandboxWhileStopped();

private:
    QTemporaryDir m_home;
};

void TestUiControllers::initTestCase()
{
    registerMetaTypes();
    QVERIFY(m_home.isValid());
}

void TestUiControllers::sameDisplay_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<bool>("same");
    QTest::newRow("screen suffix") << QStringLiteral(":1.0") << QStringLiteral(":1") << true;
    QTest::newRow("equal") << QStringLiteral(":7") << QStringLiteral(":7") << true;
    QTest::newRow("spaces") << QStringLiteral(" :7 ") << QStringLiteral(":7.0") << true;
    QTest::newRow("host") << QStringLiteral("host:2.1") << QStringLiteral("host:2") << true;
    QTest::newRow("other number") << QStringLiteral(":1") << QStringLiteral(":10") << false;
    QTest::newRow("other host") << QStringLiteral("a:1") << QStringLiteral("b:1") << false;
    QTest::newRow("empty") << QString() << QStringLiteral(":0") << false;
}

void TestUiControllers::sameDisplay()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(bool, same);
    QCOMPARE(OwnWindowTracker::sameDisplay(a, b), same);
    QCOMPARE(OwnWindowTracker::sameDisplay(b, a), same);
}

void TestUiControllers::regionsOfVisibleWindows()
{
    QWidget shown;
    shown.setGeometry(100, 120, 300, 200);
    shown.show();
    QWidget hidden;
    hidden.setGeometry(500, 20, 100, 100);
    QWidget minimized;
    minimized.setGeometry(20, 500, 100, 100);
    minimized.showMinimized();
    QWidget second;
    second.setGeometry(700, 300, 120, 80);
    second.show();
    QVERIFY(QTest::qWaitForWindowExposed(&shown));
    QVERIFY(QTest::qWaitForWindowExposed(&second));

    const OwnWindowTracker::Regions regions =
        OwnWindowTracker::regionsOf({&shown, &hidden, &minimized, &second});
    QCOMPARE(regions.rects, (QList<QRect>{shown.frameGeometry(), second.frameGeometry()}));
    QCOMPARE(regions.ids, (QList<quint64>{quint64(shown.winId()), quint64(second.winId())}));
    QVERIFY(regions.rects.first().contains(QRect(100, 120, 300, 200)));
    QVERIFY(OwnWindowTracker::regionsOf({&hidden, &minimized}).rects.isEmpty());
}

void TestUiControllers::trackerIgnoresOtherPlatforms()
{
    // Offscreen is not X11: no display is the app's own, so nothing is excluded however many windows show.
    QWidget shown;
    shown.show();
    QVERIFY(QTest::qWaitForWindowExposed(&shown));
    OwnWindowTracker tracker(QStringLiteral("x11"), qEnvironmentVariable("DISPLAY"));
    QSignalSpy changed(&tracker, &OwnWindowTracker::regionsChanged);
    QVERIFY(!tracker.targetIsOwnDisplay());
    tracker.update(); // synchronous
    QCOMPARE(changed.count(), 0);
    QVERIFY(tracker.regions().rects.isEmpty());
    tracker.setTargetDisplay(QStringLiteral(":42"));
    QCOMPARE(tracker.targetDisplay(), QStringLiteral(":42"));
    QVERIFY(!tracker.targetIsOwnDisplay());
    QCOMPARE(changed.count(), 0);
    OwnWindowTracker synthetic(QStringLiteral("synthetic"), QStringLiteral(":0"));
    QVERIFY(!synthetic.targetIsOwnDisplay());
}

void TestUiControllers::hotkeyOnSyntheticBackend()
{
    HotkeyController controller({QStringLiteral("synthetic"), QString()});
    QSignalSpy activated(&controller, &HotkeyController::activated);
    QVERIFY(!controller.isGrabbed());
    QCOMPARE(controller.grab(QStringLiteral("ctrl+alt+End")), HotkeyController::GrabResult::Grabbed);
    QVERIFY(controller.isGrabbed());
    QCOMPARE(controller.sequence(), QStringLiteral("ctrl+alt+End"));
    QVERIFY(controller.errorString().isEmpty());
    platform::triggerForTest(*controller.hotkey());
    QCOMPARE(activated.count(), 1);
    platform::triggerForTest(*controller.hotkey());
    QCOMPARE(activated.count(), 2);

    // Grabbing another combination replaces the first.
    QCOMPARE(controller.grab(QStringLiteral("ctrl+shift+F12")), HotkeyController::GrabResult::Grabbed);
    QCOMPARE(controller.sequence(), QStringLiteral("ctrl+shift+F12"));
    platform::triggerForTest(*controller.hotkey());
    QCOMPARE(activated.count(), 3);
    controller.release();
    QVERIFY(!controller.isGrabbed());
    QVERIFY(!controller.hotkey());
    QVERIFY(controller.sequence().isEmpty());
}

void TestUiControllers::hotkeyBackendFromEnvironment()
{
    qputenv("CIU_PLATFORM", "synthetic");
    HotkeyController controller(platform::PlatformOptions{});
    const auto result = controller.grab(QStringLiteral("ctrl+alt+End"));
    qunsetenv("CIU_PLATFORM");
    QCOMPARE(result, HotkeyController::GrabResult::Grabbed);
    QSignalSpy activated(&controller, &HotkeyController::activated);
    platform::triggerForTest(*controller.hotkey());
    QCOMPARE(activated.count(), 1);
}

void TestUiControllers::hotkeyErrors()
{
    HotkeyController synthetic({QStringLiteral("synthetic"), QString()});
    QCOMPARE(synthetic.grab(QStringLiteral("ctrl+nosuchkey")), HotkeyController::GrabResult::Failed);
    QVERIFY(!synthetic.isGrabbed());
    QVERIFY(!synthetic.errorString().isEmpty());
    QCOMPARE(synthetic.grab(QStringLiteral("ctrl+a ctrl+b")), HotkeyController::GrabResult::Failed);
    QVERIFY(!synthetic.errorString().isEmpty());
    // A failed grab after a good one leaves nothing grabbed.
    QCOMPARE(synthetic.grab(QStringLiteral("ctrl+alt+End")), HotkeyController::GrabResult::Grabbed);
    QCOMPARE(synthetic.grab(QStringLiteral("ctrl+nosuchkey")), HotkeyController::GrabResult::Failed);
    QVERIFY(!synthetic.isGrabbed());
    // The X11 backend needs the app on an X server; offscreen it is not tried.
    HotkeyController x11({QStringLiteral("x11"), QString()});
    QCOMPARE(x11.grab(QStringLiteral("ctrl+alt+End")), HotkeyController::GrabResult::Unsupported);
    QVERIFY(!x11.isGrabbed());
    QVERIFY(x11.errorString().isEmpty());
}

void TestUiControllers::hotkeyStopsTheWindow()
{
    ui::MainWindowOptions options;
    options.settingsFile = m_home.filePath(QStringLiteral("settings.ini"));
    options.correctionsDirectory = m_home.filePath(QStringLiteral("corrections"));
    ui::MainWindow window(options);
    QVERIFY(window.hotkey());
    QVERIFY(!window.hotkey()->isGrabbed()); // offscreen: no X server to grab on
    QSignalSpy stop(&window, &ui::MainWindow::stopRequested);
    emit window.hotkey()->activated();
    QCOMPARE(stop.count(), 1);
}

void TestUiControllers::forwardingOpensDisplay()
{
    InputForwarding forwarding;
    QVERIFY(!forwarding.isStarted());
    forwarding.moveTo(QPoint(10, 10)); // dropped: nothing is open
    QSignalSpy opened(&forwarding, &InputForwarding::opened);
    QSignalSpy failed(&forwarding, &InputForwarding::failed);
    forwarding.open(QStringLiteral("synthetic"), QStringLiteral("synthetic:0"));
    QVERIFY(forwarding.isStarted());
    QVERIFY(opened.wait(10000) || opened.count() == 1);
    QCOMPARE(opened.count(), 1);
    QVERIFY(failed.isEmpty());
    // The same display again is not reopened: the next signal is the one of the other display.
    forwarding.open(QStringLiteral("synthetic"), QStringLiteral("synthetic:0"));
    forwarding.open(QStringLiteral("synthetic"), QStringLiteral("synthetic:1"));
    QCOMPARE(forwarding.display(), QStringLiteral("synthetic:1"));
    QVERIFY(opened.wait(10000) || opened.count() == 2);
    QCOMPARE(opened.count(), 2);
    QCOMPARE(opened.at(0).at(0).toString(), QStringLiteral("synthetic:0"));
    QCOMPARE(opened.at(1).at(0).toString(), QStringLiteral("synthetic:1"));
    forwarding.moveTo(QPoint(20, 20));
    forwarding.button(1, true);
    forwarding.button(1, false);
    forwarding.wheel(2); // down
    forwarding.key(0x61, true);
    forwarding.key(0x61, false);
}

void TestUiControllers::forwardingReportsFailure()
{
    InputForwarding forwarding;
    QSignalSpy failed(&forwarding, &InputForwarding::failed);
    forwarding.open(QStringLiteral("nosuchbackend"), QStringLiteral(":99"));
    QVERIFY(failed.wait(10000) || failed.count() == 1);
    QVERIFY(!failed.first().at(0).toString().isEmpty());
}

void TestUiControllers::sandboxWhileStopped()
{
    SandboxController sandbox;
    QVERIFY(sandbox.isStopped());
    QVERIFY(!sandbox.isRunning());
    QVERIFY(sandbox.displayName().isEmpty());
    QVERIFY(!sandbox.launch(QStringLiteral("xterm")));
    QVERIFY(!sandbox.errorString().isEmpty());
    QSignalSpy stopped(&sandbox, &SandboxController::stopped);
    sandbox.stop(); // nothing to stop
    QCOMPARE(stopped.count(), 0);
}

QTEST_MAIN(TestUiControllers)
#include "tst_uicontrollers.moc"
