// The desktop app's window on a real X server (xcb, not offscreen) with the real engine behind it:
// - on the display it is shown on, its own windows are masked out of the zone map (never analysed, never
//   clicked);
// - takeover forwards the user's clicks and keys from the live view to another display's fixture app;
// - a recorded session opens from the window in the replay viewer, and a folder that is not a session gives
//   a message instead of a viewer.

#include "core/canvas/canvasmapper.h"
#include "core/engine/engine.h"
#include "core/model/metatypes.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/guitestmain.h"
#include "tests/support/xvfbserver.h"
#include "ui/confirmationdialog.h"
#include "ui/controllers/inputforwarding.h"
#include "ui/enginebridge.h"
#include "ui/liveview.h"
#include "ui/mainwindow.h"
#include "ui/taskconsole.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using namespace ciu::test;

class TestMainWindowE2e : public QObject
{
    Q_OBJECT
public:
    explicit TestMainWindowE2e(XvfbServer* own)
        : m_own(own)
    {
    }

private slots:
    void initTestCase();
    void selfCaptureIsMasked();
    void takeoverForwardsInput();
    void openRecording();
    void confirmationInTheWindow();

private:
    ui::MainWindowOptions windowOptions(const QString& display) const;
    std::optional<QRect> widgetRect(FixtureApp& app, const QString& name) const;

    XvfbServer* m_own;
    QTemporaryDir m_home;
};

void TestMainWindowE2e::initTestCase()
{
    if (!m_own)
        QSKIP("Xvfb is not installed");
    QCOMPARE(QGuiApplication::platformName(), QStringLiteral("xcb"));
    registerMetaTypes();
}

// What a failed wait for an answer needs to be understood: every confirmation dialog and its state.
static QString dialogsState(const QWidget& window)
{
    QStringList states;
    for (const ui::ConfirmationDialog* d : window.findChildren<ui::ConfirmationDialog*>()) {
        states << QStringLiteral("dialog %1: visible %2 enabled %3 deny enabled %4 down %5")
                      .arg(d->requestId())
                      .arg(d->isVisible())
                      .arg(d->isEnabled())
                      .arg(d->denyButton()->isEnabled())
                      .arg(d->denyButton()->isDown());
    }
    const QWidget* modal = QApplication::activeModalWidget();
    states << QStringLiteral("active modal: %1")
                  .arg(modal ? QString::fromLatin1(modal->metaObject()->className())
                             : QStringLiteral("none"));
    return states.join(QLatin1String("; "));
}

// A click as a person's arrives: on the button's window once it is on the screen, through the window system's
// path (hit testing, modality), not straight to the button's event handler (which loses a click on a dialog
// not yet exposed).
static bool clickAsAPerson(QPushButton* button)
{
    QWidget* window = button->window();
    if (!QTest::qWaitForWindowExposed(window))
        return false;
    QTest::mouseClick(window->windowHandle(), Qt::LeftButton, {},
                      button->mapTo(window, button->rect().center()));
    return true;
}

ui::MainWindowOptions TestMainWindowE2e::windowOptions(const QString& display) const
{
    ui::MainWindowOptions o;
    o.display = display;
    o.platform = QStringLiteral("x11");
    o.settingsFile = m_home.filePath(QStringLiteral("settings.ini"));
    o.correctionsDirectory = m_home.filePath(QStringLiteral("corrections"));
    o.globalHotkey = false;
    return o;
}

std::optional<QRect> TestMainWindowE2e::widgetRect(FixtureApp& app, const QString& name) const
{
    const auto w = app.widget(name);
    if (!w)
        return std::nullopt;
    return w->rect;
}

void TestMainWindowE2e::selfCaptureIsMasked()
{
    // The fixture app and the agent's window share one display.
    FixtureApp fixture;
    QVERIFY2(
        fixture.start(m_own->environment(), {QStringLiteral("--geometry"), QStringLiteral("40,60,900,640")}),
        qPrintable(fixture.errorString()));
    ui::MainWindow window(windowOptions(m_own->displayName()));
    window.setGeometry(1000, 60, 880, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY_WITH_TIMEOUT(!window.excludedRegions().isEmpty(), 5000);
    const QRect own = window.excludedRegions().first();
    QVERIFY2(own.contains(QRect(1000, 60, 880, 900)),
             qPrintable(
                 QStringLiteral("%1,%2 %3x%4").arg(own.x()).arg(own.y()).arg(own.width()).arg(own.height())));

    ui::EngineBridge bridge(&window, {});
    QSignalSpy ready(&bridge, &ui::EngineBridge::ready);
    bridge.startOn(m_own->displayName());
    ZoneMapPtr map;
    QObject mapReceiver; // destroyed before `map`: a zone map still queued then is dropped, not written to it
    connect(bridge.engine()->canvas(), &canvas::CanvasMapper::zoneMapUpdated, &mapReceiver,
            [&map](const ZoneMapPtr& m) { map = m; });
    QVERIFY(ready.wait(60'000) || ready.count() == 1);
    // The fixture's widgets are mapped; nothing of the agent's window is.
    const QRect submit = widgetRect(fixture, QStringLiteral("submit")).value_or(QRect());
    QVERIFY(!submit.isNull());
    QTRY_VERIFY_WITH_TIMEOUT(map && map->zoneAt(submit.center()), 30'000);
    // The window keeps repainting its live view (which shows the screen, itself included). A change in the
    // app is analysed on a frame taken after that: once the moved button is mapped at its new place and
    // its old place is empty, the map has seen the window's latest looks.
    fixture.send(QStringLiteral("move submit 20 20"));
    const auto moved = fixture.waitForEvent(QStringLiteral("moved"));
    QVERIFY(moved);
    const QRect movedTo = test::rectFromJson(moved->value(QStringLiteral("rect")).toObject());
    QVERIFY(movedTo.isValid() && !movedTo.contains(submit.center()) && !submit.contains(movedTo.center()));
    const auto submitAt = [&map](const QRect& r) {
        const Zone* z = map->zoneAt(r.center());
        return z && z->bounds.contains(r.center()) && r.contains(z->bounds.center()) ? z : nullptr;
    };
    QTRY_VERIFY_WITH_TIMEOUT(submitAt(movedTo) && !submitAt(submit), 30'000);
    int inside = 0;
    QStringList labels;
    for (const Zone& z : map->zones()) {
        if (own.contains(z.bounds.center())) {
            ++inside;
            labels << z.label;
        }
    }
    QVERIFY2(inside == 0, qPrintable(QStringLiteral("%1 zones on the agent's own window: %2")
                                         .arg(inside)
                                         .arg(labels.join(QStringLiteral(", ")))));
    bridge.shutdown();
}

void TestMainWindowE2e::takeoverForwardsInput()
{
    XvfbServer target;
    QVERIFY2(target.start(), qPrintable(target.errorString()));
    FixtureApp fixture;
    QVERIFY2(
        fixture.start(target.environment(), {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
        qPrintable(fixture.errorString()));
    const auto submit = widgetRect(fixture, QStringLiteral("submit"));
    const auto name = widgetRect(fixture, QStringLiteral("name"));
    QVERIFY(submit && name);

    ui::MainWindow window(windowOptions(target.displayName()));
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    Frame frame;
    frame.index = 1;
    frame.image = QImage(1280, 800, QImage::Format_RGB32);
    frame.image.fill(Qt::darkGray);
    window.setFrame(frame);
    ui::LiveView* view = window.liveView();
    QVERIFY(view->viewTransform().isValid());
    QSignalSpy opened(window.inputForwarding(), &ui::InputForwarding::opened);
    window.setTakeover(true);
    QCOMPARE(view->mode(), ui::LiveView::Mode::Takeover);
    // The forwarder opens the target display on its thread (input sent meanwhile is queued behind it).
    QVERIFY(opened.wait(10'000) || opened.count() == 1);
    QCOMPARE(opened.first().first().toString(), target.displayName());

    const auto at = [view](QPoint root) { return view->viewTransform().toView(QPointF(root)).toPoint(); };
    QTest::mouseMove(view, at(submit->center()));
    QTest::mouseClick(view, Qt::LeftButton, {}, at(submit->center()));
    const auto clicked = fixture.waitFor(
        [](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == QLatin1String("clicked") &&
                   o.value(QStringLiteral("name")).toString() == QLatin1String("submit");
        },
        5000);
    QVERIFY2(clicked, "the click in the live view did not reach the target display");

    QTest::mouseClick(view, Qt::LeftButton, {}, at(name->center()));
    QTest::keyClicks(view, QStringLiteral("ok"));
    const auto typed = fixture.waitFor(
        [](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == QLatin1String("text_changed") &&
                   o.value(QStringLiteral("text")).toString() == QLatin1String("ok");
        },
        5000);
    QVERIFY2(typed, "the keys typed in the live view did not reach the target display");

    // Leaving takeover: input stays in the window.
    window.setTakeover(false);
    QCOMPARE(view->mode(), ui::LiveView::Mode::Inspect);
    fixture.clearPending();
    QSignalSpy buttons(view, &ui::LiveView::buttonForwarded);
    QSignalSpy pointer(view, &ui::LiveView::pointerForwarded);
    QTest::mouseClick(view, Qt::LeftButton, {}, at(submit->center()));
    QCOMPARE(buttons.count(), 0); // the view handles input at once: nothing was passed on
    QCOMPARE(pointer.count(), 0);
    QVERIFY(fixture.sync());
    for (const QJsonObject& o : fixture.pending())
        QVERIFY(o.value(QStringLiteral("event")).toString() != QLatin1String("clicked"));
}

void TestMainWindowE2e::openRecording()
{
    XvfbServer target;
    QVERIFY2(target.start(), qPrintable(target.errorString()));
    FixtureApp fixture;
    QVERIFY2(fixture.start(target.environment()), qPrintable(fixture.errorString()));
    QTemporaryDir sessions;
    ui::MainWindow window(windowOptions(target.displayName()));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    {
        ui::EngineBridge::Options options;
        options.record = true;
        options.sessionRoot = sessions.path();
        ui::EngineBridge bridge(&window, options);
        QSignalSpy ready(&bridge, &ui::EngineBridge::ready);
        bridge.startOn(target.displayName());
        QVERIFY(ready.wait(60'000) || ready.count() == 1);
        QTRY_VERIFY_WITH_TIMEOUT(!window.lastRecording().isEmpty(), 10'000);
        // Something happens on the screen, and the recording sees it.
        ZoneMapPtr map;
        QObject mapReceiver; // destroyed before `map`
        connect(bridge.engine()->canvas(), &canvas::CanvasMapper::zoneMapUpdated, &mapReceiver,
                [&map](const ZoneMapPtr& m) { map = m; });
        fixture.send(QStringLiteral("move submit 20 20"));
        const auto moved = fixture.waitForEvent(QStringLiteral("moved"));
        QVERIFY(moved);
        const QPoint movedTo = test::rectFromJson(moved->value(QStringLiteral("rect")).toObject()).center();
        QTRY_VERIFY_WITH_TIMEOUT(map && map->zoneAt(movedTo), 30'000);
        QSignalSpy down(bridge.engine(), &Engine::shutDown);
        bridge.engine()->shutdown();
        QVERIFY(down.wait(20'000) || down.count() == 1);
    }
    const QString path = window.lastRecording();
    QVERIFY2(path.startsWith(sessions.path()), qPrintable(path));

    QPointer<QWidget> viewer = window.openRecording(path);
    QVERIFY(viewer);
    QVERIFY(QTest::qWaitForWindowExposed(viewer));
    QVERIFY(viewer->windowTitle().contains(QFileInfo(path).fileName()));
    viewer->close();
    QTRY_VERIFY(viewer.isNull()); // deleted on close

    // Not a session: no viewer, a message.
    QTemporaryDir empty;
    QVERIFY(!window.openRecording(empty.path()));
    QMessageBox* box = window.findChild<QMessageBox*>();
    QVERIFY(box);
    QVERIFY(box->text().contains(QDir::toNativeSeparators(empty.path())));
    box->close();
}

void TestMainWindowE2e::confirmationInTheWindow()
{
    XvfbServer target;
    QVERIFY2(target.start(), qPrintable(target.errorString()));
    FixtureApp fixture;
    QVERIFY2(
        fixture.start(target.environment(), {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
        qPrintable(fixture.errorString()));
    ui::MainWindow window(windowOptions(target.displayName()));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ui::EngineBridge bridge(&window, {});
    QSignalSpy ready(&bridge, &ui::EngineBridge::ready);
    QSignalSpy finished(&bridge, &ui::EngineBridge::taskFinished);
    bridge.startOn(target.displayName());
    QVERIFY(ready.wait(60'000) || ready.count() == 1);

    const auto typedIntoName = [&fixture] {
        for (const QJsonObject& o : fixture.pending()) {
            if (o.value(QStringLiteral("event")).toString() == QLatin1String("text_changed") &&
                o.value(QStringLiteral("name")).toString() == QLatin1String("name"))
                return true;
        }
        return false;
    };
    ui::TaskConsole* console = window.taskConsole();
    console->setTask(QStringLiteral("type \"sudo reboot\" into Name"));
    console->setDryRun(false);

    // Typing a command run with root rights is high-risk: the window asks, Deny is the default, and
    // denying keeps the field untouched.
    for (const bool allow : {false, true}) {
        fixture.pending();
        console->run();
        QPointer<ui::ConfirmationDialog> dialog;
        QTRY_VERIFY_WITH_TIMEOUT(
            (dialog = window.findChild<ui::ConfirmationDialog*>()) && dialog->isVisible(), 60'000);
        QVERIFY(dialog->denyButton()->isDefault());
        QVERIFY2(dialog->actionText().contains(QLatin1String("type"), Qt::CaseInsensitive),
                 qPrintable(dialog->actionText()));
        QVERIFY2(dialog->actionText().contains(QLatin1String("sudo reboot")),
                 qPrintable(dialog->actionText()));
        QVERIFY(clickAsAPerson(allow ? dialog->allowButton() : dialog->denyButton()));
        QTRY_VERIFY2_WITH_TIMEOUT(finished.count() == (allow ? 2 : 1), qPrintable(dialogsState(window)),
                                  60'000);
        const auto outcome = finished.constLast().first().value<TaskOutcome>();
        if (allow) {
            QVERIFY2(outcome.result == TaskOutcome::Result::Completed, qPrintable(outcome.message));
            QTRY_VERIFY_WITH_TIMEOUT(typedIntoName(), 5000);
        } else {
            QVERIFY(outcome.result != TaskOutcome::Result::Completed);
            // The task has ended; any key it had sent has reached the app by the time it answers a sync.
            QVERIFY(fixture.sync());
            QVERIFY2(!typedIntoName(), "denied, yet the field was typed into");
        }
        QTRY_VERIFY(dialog.isNull() || !dialog->isVisible());
    }

    // Typing into the password field asks too (the typing names no zone: it goes to the field clicked).
    console->setTask(QStringLiteral("type \"hunter2\" into Password"));
    fixture.pending();
    console->run();
    QPointer<ui::ConfirmationDialog> dialog;
    QTRY_VERIFY_WITH_TIMEOUT((dialog = window.findChild<ui::ConfirmationDialog*>()) && dialog->isVisible(),
                             60'000);
    QVERIFY2(!dialog->actionText().contains(QLatin1String("hunter2")), qPrintable(dialog->actionText()));
    QVERIFY(clickAsAPerson(dialog->denyButton()));
    QTRY_VERIFY2_WITH_TIMEOUT(finished.count() == 3, qPrintable(dialogsState(window)), 60'000);
    QVERIFY(finished.constLast().first().value<TaskOutcome>().result != TaskOutcome::Result::Completed);
    QVERIFY(fixture.sync());
    for (const QJsonObject& o : fixture.pending())
        QVERIFY2(!(o.value(QStringLiteral("event")).toString() == QLatin1String("text_changed") &&
                   o.value(QStringLiteral("name")).toString() == QLatin1String("password")),
                 "denied, yet the password field was typed into");
    bridge.shutdown();
}

int main(int argc, char** argv)
{
    return execOnOwnDisplay<TestMainWindowE2e>(argc, argv);
}

#include "tst_mainwindow_e2e.moc"
