// The desktop app as a user finds it (issue 18), its window on a real X server (xcb) with the real engine:
// - a dry run ends as a preview ("would click …"), never as a completed task, and nothing is clicked;
//   every run is recorded by default (File ▸ Open last recording works without any setting);
// - OK in the settings keeps what the user chose in the task panel; the dialog's labels and key field;
// - takeover on → off → emergency stop → Run: the states never go stale and the next run acts;
// - the emergency hotkey pressed on the TARGET display stops the agent and never reaches the program there;
// - help inside the app: the pages, the first-run hint, a task in plain words without a model;
// - an API key the keychain refuses is offered for this session, never dropped.

#include "core/model/metatypes.h"
#include "core/replay/sessionformat.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/guitestmain.h"
#include "tests/support/xvfbserver.h"
#include "ui/controllers/hotkeycontroller.h"
#include "ui/enginebridge.h"
#include "ui/eventlogmodel.h"
#include "ui/eventlogview.h"
#include "ui/helpdialog.h"
#include "ui/liveview.h"
#include "ui/mainwindow.h"
#include "ui/planmodel.h"
#include "ui/settingsdialog.h"
#include "ui/taskconsole.h"
#include "ui/zonecorrections.h"

#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace ciu;
using namespace ciu::test;
using ciu::ui::AgentState;

class TestAppStatesE2e : public QObject
{
    Q_OBJECT
public:
    explicit TestAppStatesE2e(XvfbServer* own)
        : m_own(own)
    {
    }

private slots:
    void initTestCase();
    void helpAndHints();
    void settingsKeepTaskChoices();
    void apiKeyIsNeverDropped();
    void dryRunIsAPreviewAndRecorded();
    void takeoverStopThenRun();
    void hotkeyOnTheTargetDisplay();
    void correctionsFollowTheWindow();

private:
    ui::MainWindowOptions windowOptions(const QString& display, const QString& home) const;
    static bool clicked(const QJsonObject& o, const char* name);

    XvfbServer* m_own;
};

void TestAppStatesE2e::initTestCase()
{
    if (!m_own)
        QSKIP("Xvfb is not installed");
    QCOMPARE(QGuiApplication::platformName(), QStringLiteral("xcb"));
    registerMetaTypes();
}

ui::MainWindowOptions TestAppStatesE2e::windowOptions(const QString& display, const QString& home) const
{
    ui::MainWindowOptions o;
    o.display = display;
    o.platform = QStringLiteral("x11");
    o.settingsFile = home + QStringLiteral("/settings.ini");
    o.correctionsDirectory = home + QStringLiteral("/corrections");
    o.globalHotkey = false;
    return o;
}

bool TestAppStatesE2e::clicked(const QJsonObject& o, const char* name)
{
    return o.value(QStringLiteral("event")).toString() == QLatin1String("clicked") &&
           o.value(QStringLiteral("name")).toString() == QLatin1String(name);
}

void TestAppStatesE2e::helpAndHints()
{
    QTemporaryDir home;
    {
        ui::MainWindow window(windowOptions(m_own->displayName(), home.path()));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // The window fits the screen (1920×1080 here), not a fixed 1280×800.
        QVERIFY2(window.width() > 1280 && window.height() > 800,
                 qPrintable(QStringLiteral("%1x%2").arg(window.width()).arg(window.height())));

        ui::TaskConsole* console = window.taskConsole();
        // First run: a hint; closing it is remembered.
        QVERIFY2(console->hintText().contains(QLatin1String("New here")), qPrintable(console->hintText()));

        // The help pages.
        QPointer<ui::HelpDialog> page = window.showHelp(ui::HelpDialog::Page::Shortcuts);
        QVERIFY(QTest::qWaitForWindowExposed(page));
        QVERIFY2(page->html().contains(QLatin1String("ctrl+alt+End")), qPrintable(page->html()));
        QVERIFY(page->html().contains(QLatin1String("Emergency stop")));
        QVERIFY(page->html().contains(
            QKeySequence(Qt::CTRL | Qt::Key_Return).toString(QKeySequence::NativeText)));
        page->close();
        QTRY_VERIFY(page.isNull());
        page = window.showHelp(ui::HelpDialog::Page::CommandLanguage);
        QVERIFY(page->html().contains(QLatin1String("drag \"Item 1\" to Trash")));
        page->close();
        page = window.showHelp(ui::HelpDialog::Page::GettingStarted);
        QVERIFY(page->html().contains(QLatin1String("dry run")));
        page->close();
        // The Help menu offers them.
        QStringList helpItems;
        for (QAction* menu : window.menuBar()->actions()) {
            if (menu->text() == QLatin1String("&Help"))
                for (QAction* a : menu->menu()->actions())
                    helpItems << a->text();
        }
        QVERIFY2(helpItems.contains(QStringLiteral("&Command language")), qPrintable(helpItems.join(u',')));
        QVERIFY(helpItems.contains(QStringLiteral("&Keyboard shortcuts")));
        QVERIFY(helpItems.contains(QStringLiteral("&Getting started")));

        // A task in plain words with the offline planner: one sentence and a button to the settings; no run.
        QSignalSpy runs(&window, &ui::MainWindow::runRequested);
        console->setProvider(QStringLiteral("local"));
        console->setTask(QStringLiteral("Please fill in the form with my details and send it"));
        console->run();
        QCOMPARE(runs.count(), 0);
        QCOMPARE(window.agentState(), AgentState::Idle);
        QVERIFY2(
            console->hintText().contains(QLatin1String("set up Anthropic or an OpenAI-compatible model")),
            qPrintable(console->hintText()));
        QVERIFY(console->hintButton()->isVisible());
        QTest::mouseClick(console->hintButton(), Qt::LeftButton);
        QTRY_VERIFY(window.settingsDialog() && window.settingsDialog()->isVisible());
        window.settingsDialog()->reject();
        QTRY_VERIFY(!window.settingsDialog());

        // Closing the hint is remembered for the next start.
        console->showHint(QStringLiteral("x"));
        auto* close = console->findChild<QToolButton*>();
        QVERIFY(close);
        QTest::mouseClick(close, Qt::LeftButton);
        QVERIFY(console->hintText().isEmpty());
    }
    ui::MainWindow again(windowOptions(m_own->displayName(), home.path()));
    QVERIFY2(again.taskConsole()->hintText().isEmpty(), qPrintable(again.taskConsole()->hintText()));
}

void TestAppStatesE2e::settingsKeepTaskChoices()
{
    QTemporaryDir home;
    ui::MainWindow window(windowOptions(m_own->displayName(), home.path()));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ui::TaskConsole* console = window.taskConsole();
    QVERIFY(console->request().dryRun); // the default for a new session
    console->setDryRun(false);
    console->setSpeed(QStringLiteral("low"));

    window.showSettings();
    QPointer<ui::SettingsDialog> dialog = window.settingsDialog();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    // Every label with a mnemonic has a buddy (else its "&" shows literally).
    for (QLabel* label : dialog->findChildren<QLabel*>()) {
        if (label->text().contains(QLatin1Char('&')) && !label->text().contains(QLatin1String("&&")))
            QVERIFY2(label->buddy(), qPrintable(label->text()));
    }
    // Recording is on by default, into the default folder.
    const ui::AppSettings before = dialog->settings();
    QVERIFY(before.record);
    QVERIFY(before.recordingDirectory.isEmpty());
    dialog->accept();
    QTRY_VERIFY(dialog.isNull());
    QVERIFY2(!console->request().dryRun, "OK in the settings re-ticked Dry run");
    QCOMPARE(console->request().speed, QStringLiteral("low"));

    // A default the user changes in the settings does reach the console.
    window.showSettings();
    dialog = window.settingsDialog();
    ui::AppSettings changed = dialog->settings();
    changed.speed = QStringLiteral("high");
    dialog->setSettings(changed);
    dialog->accept();
    QTRY_VERIFY(dialog.isNull());
    QCOMPARE(console->request().speed, QStringLiteral("high"));
    QVERIFY(!console->request().dryRun);
}

void TestAppStatesE2e::apiKeyIsNeverDropped()
{
    QTemporaryDir home;
    ui::MainWindow window(windowOptions(m_own->displayName(), home.path()));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy asked(&window, &ui::MainWindow::apiKeyStatusWanted);
    window.showSettings();
    QPointer<ui::SettingsDialog> dialog = window.settingsDialog();
    ui::AppSettings s = dialog->settings();
    s.provider = QStringLiteral("anthropic");
    dialog->setSettings(s);
    QVERIFY(asked.count() >= 1);
    QCOMPARE(asked.constLast().first().toString(), QStringLiteral("anthropic"));
    QLineEdit* key = nullptr;
    for (QLineEdit* edit : dialog->findChildren<QLineEdit*>()) {
        if (edit->echoMode() == QLineEdit::Password)
            key = edit;
    }
    QVERIFY(key);
    // No key known: the field does not pretend one is kept.
    QVERIFY2(!key->placeholderText().contains(QLatin1String("unchanged")),
             qPrintable(key->placeholderText()));
    window.setApiKeyStatus(QStringLiteral("anthropic"), QStringLiteral("A key is stored in the keychain."),
                           true);
    QVERIFY(key->placeholderText().contains(QLatin1String("unchanged")));
    window.setApiKeyStatus(QStringLiteral("anthropic"), QStringLiteral("No key yet."), false);
    QVERIFY(!key->placeholderText().contains(QLatin1String("unchanged")));
    dialog->reject();
    QTRY_VERIFY(dialog.isNull());

    // The keychain refused the key: the user is asked, and keeping it hands it out for this session.
    QSignalSpy kept(&window, &ui::MainWindow::sessionKeyChosen);
    window.offerSessionKey(QStringLiteral("anthropic"), QStringLiteral("sk-test-123"),
                           QStringLiteral("keychain: no keychain service is available"));
    QMessageBox* box = nullptr;
    QTRY_VERIFY((box = window.findChild<QMessageBox*>()) && box->isVisible());
    QVERIFY(box->text().contains(QLatin1String("no keychain service")));
    QVERIFY(!box->text().contains(QLatin1String("sk-test-123")));
    QAbstractButton* use = nullptr;
    for (QAbstractButton* b : box->buttons()) {
        if (b->text() == QLatin1String("&Use for this session"))
            use = b;
    }
    QVERIFY(use);
    QTest::mouseClick(use, Qt::LeftButton);
    QCOMPARE(kept.count(), 1);
    QCOMPARE(kept.first().at(0).toString(), QStringLiteral("anthropic"));
    QCOMPARE(kept.first().at(1).toString(), QStringLiteral("sk-test-123"));
    QTRY_VERIFY(!window.findChild<QMessageBox*>());

    // Or, by the user's explicit choice, in a file only they can read (written by the key store).
    QSignalSpy toFile(&window, &ui::MainWindow::keyFileChosen);
    window.offerSessionKey(QStringLiteral("openai"), QStringLiteral("sk-test-456"),
                           QStringLiteral("keychain: no keychain service is available"));
    QTRY_VERIFY((box = window.findChild<QMessageBox*>()) && box->isVisible());
    QVERIFY(box->informativeText().contains(QLatin1String("0600")));
    QAbstractButton* file = nullptr;
    for (QAbstractButton* b : box->buttons()) {
        if (b->text() == QLatin1String("&Keep in a private file"))
            file = b;
    }
    QVERIFY(file);
    QTest::mouseClick(file, Qt::LeftButton);
    QCOMPARE(toFile.count(), 1);
    QCOMPARE(toFile.first().at(0).toString(), QStringLiteral("openai"));
    QCOMPARE(toFile.first().at(1).toString(), QStringLiteral("sk-test-456"));
    QCOMPARE(kept.count(), 1); // not also kept for the session
}

void TestAppStatesE2e::dryRunIsAPreviewAndRecorded()
{
    XvfbServer target;
    QVERIFY2(target.start(), qPrintable(target.errorString()));
    FixtureApp fixture;
    QVERIFY2(
        fixture.start(target.environment(), {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
        qPrintable(fixture.errorString()));
    QTemporaryDir home;
    ui::MainWindow window(windowOptions(target.displayName(), home.path()));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    // The bridge as the app makes it without --session-dir: recording comes from the settings' default.
    ui::EngineBridge bridge(&window, {});
    QSignalSpy ready(&bridge, &ui::EngineBridge::ready);
    QSignalSpy finished(&bridge, &ui::EngineBridge::taskFinished);
    bridge.startOn(target.displayName());
    QVERIFY(ready.wait(60'000) || ready.count() == 1);
    QTRY_VERIFY_WITH_TIMEOUT(!window.lastRecording().isEmpty(), 10'000);
    QVERIFY2(window.lastRecording().startsWith(replay::defaultSessionRoot()),
             qPrintable(window.lastRecording()));
    QVERIFY(QFileInfo::exists(window.lastRecording() + QStringLiteral("/metadata.json")));

    ui::TaskConsole* console = window.taskConsole();
    console->setTask(QStringLiteral("click Submit; click Cancel"));
    QVERIFY(console->request().dryRun);
    fixture.pending();
    console->run();
    QCOMPARE(window.agentState(), AgentState::Starting);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 60'000);
    const auto outcome = finished.first().first().value<TaskOutcome>();
    QVERIFY2(outcome.result == TaskOutcome::Result::Completed, qPrintable(outcome.message));
    QCOMPARE(window.agentState(), AgentState::Finished);
    QCOMPARE(window.runState()->outcome(), ui::RunState::Outcome::Preview);
    QVERIFY2(
        console->statusText().startsWith(QLatin1String("Preview only: nothing was done. Planned steps: 2.")),
        qPrintable(console->statusText()));
    ui::PlanModel* plan = console->planModel();
    QCOMPARE(plan->rowCount(), 2);
    QCOMPARE(plan->index(0).data().toString(), QStringLiteral("1. would click “Submit”"));
    QCOMPARE(plan->index(1).data(Qt::AccessibleDescriptionRole).toString(),
             QStringLiteral("preview, not executed"));
    // Nothing was clicked.
    for (const QJsonObject& o : fixture.pending())
        QVERIFY2(!clicked(o, "submit") && !clicked(o, "cancel"), "a dry run clicked");
    bridge.shutdown();
}

void TestAppStatesE2e::takeoverStopThenRun()
{
    XvfbServer target;
    QVERIFY2(target.start(), qPrintable(target.errorString()));
    FixtureApp fixture;
    QVERIFY2(
        fixture.start(target.environment(), {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
        qPrintable(fixture.errorString()));
    const auto submit = fixture.widget(QStringLiteral("submit"));
    QVERIFY(submit);
    QTemporaryDir home;
    ui::MainWindow window(windowOptions(target.displayName(), home.path()));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ui::EngineBridge bridge(&window, {});
    QSignalSpy ready(&bridge, &ui::EngineBridge::ready);
    QSignalSpy finished(&bridge, &ui::EngineBridge::taskFinished);
    bridge.startOn(target.displayName());
    QVERIFY(ready.wait(60'000) || ready.count() == 1);

    ui::TaskConsole* console = window.taskConsole();
    console->setDryRun(false);
    console->setTask(QStringLiteral("wait 30s"));
    console->run();
    QTRY_VERIFY_WITH_TIMEOUT(window.agentState() == AgentState::Running &&
                                 console->statusText().contains(QLatin1String("waiting")),
                             30'000);
    QVERIFY(window.pauseAction()->isEnabled());

    // Takeover on: the agent is paused, the user has the display; the forwarded pointer moves on the target.
    window.setTakeover(true);
    QCOMPARE(window.agentState(), AgentState::TakenOver);
    QVERIFY(!console->resumeButton()->isEnabled());
    QVERIFY(!window.resumeAction()->isEnabled());
    QVERIFY2(!console->statusText().contains(QLatin1String("waiting")), qPrintable(console->statusText()));
    ui::LiveView* view = window.liveView();
    QTRY_VERIFY_WITH_TIMEOUT(view->viewTransform().isValid(), 10'000);
    const auto at = [view](QPoint root) { return view->viewTransform().toView(QPointF(root)).toPoint(); };
    QTest::mouseMove(view, at(submit->rect.center()));
    QTest::mouseMove(view, at(submit->rect.center() + QPoint(40, 20)));

    // Takeover off: paused, and Resume is offered (not greyed out).
    window.setTakeover(false);
    QCOMPARE(window.agentState(), AgentState::Paused);
    QVERIFY(console->resumeButton()->isEnabled());
    QVERIFY(window.resumeAction()->isEnabled());
    QVERIFY2(!console->statusText().contains(QLatin1String("Takeover")), qPrintable(console->statusText()));

    // Emergency stop: stopping, then stopped by the user (not an error), no step left marked as running.
    window.emergencyStop();
    QCOMPARE(window.agentState(), AgentState::Stopping);
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 1, 30'000);
    QVERIFY(finished.first().first().value<TaskOutcome>().result == TaskOutcome::Result::Stopped);
    QCOMPARE(window.agentState(), AgentState::Finished);
    QCOMPARE(console->statusText(), QStringLiteral("Stopped by you."));
    QCOMPARE(console->planModel()->currentRow(), -1);
    QVERIFY(console->runButton()->isEnabled());
    QVERIFY(!console->resumeButton()->isEnabled());
    ui::EventLogModel* log = window.eventLog()->model();
    bool stopLogged = false;
    for (int row = 0; row < log->rowCount(); ++row) {
        const SpatialEvent& e = log->eventAt(row);
        if (ui::EventLogModel::formatDetails(e).contains(QLatin1String("stopped by the user"))) {
            stopLogged = true;
            QVERIFY2(e.kind != SpatialEvent::Kind::Error, "the user's stop is logged as an error");
        }
    }
    QVERIFY(stopLogged);

    // Run again: it acts (no "the brush is paused; resume first").
    fixture.pending();
    console->setTask(QStringLiteral("click Submit"));
    console->run();
    QTRY_VERIFY_WITH_TIMEOUT(finished.count() == 2, 60'000);
    const auto outcome = finished.last().first().value<TaskOutcome>();
    QVERIFY2(outcome.result == TaskOutcome::Result::Completed, qPrintable(outcome.message));
    QCOMPARE(window.runState()->outcome(), ui::RunState::Outcome::Completed);
    const auto click = fixture.waitFor([](const QJsonObject& o) { return clicked(o, "submit"); }, 5000);
    QVERIFY2(click, "the run after the stop did not click");
    bridge.shutdown();
}

void TestAppStatesE2e::hotkeyOnTheTargetDisplay()
{
    XvfbServer target;
    QVERIFY2(target.start(), qPrintable(target.errorString()));
    FixtureApp fixture;
    QVERIFY2(
        fixture.start(target.environment(), {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
        qPrintable(fixture.errorString()));
    QTemporaryDir home;
    ui::MainWindowOptions options = windowOptions(target.displayName(), home.path());
    options.globalHotkey = true;
    ui::MainWindow window(options);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY2(window.hotkey()->isGrabbed(), qPrintable(window.hotkey()->errorString()));
    QVERIFY(window.targetHotkey());
    QVERIFY2(window.targetHotkey()->isGrabbed(), qPrintable(window.targetHotkey()->errorString()));
    QSignalSpy stops(&window, &ui::MainWindow::stopRequested);

    const auto xdotool = [](const XvfbServer& display, const QStringList& args) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), display.displayName());
        p.setProcessEnvironment(env);
        p.start(QStringLiteral("xdotool"), args);
        return p.waitForFinished(10'000) && p.exitCode() == 0;
    };
    // The fixture has the keyboard on its display: a plain key reaches it.
    fixture.pending();
    QVERIFY(xdotool(target, {QStringLiteral("key"), QStringLiteral("b")}));
    QVERIFY(fixture.waitFor(
        [](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == QLatin1String("key_press") &&
                   o.value(QStringLiteral("text")).toString() == QLatin1String("b");
        },
        5000));

    // The hotkey on the target display stops the agent, and the program in front never sees it.
    QVERIFY(xdotool(target, {QStringLiteral("key"), QStringLiteral("ctrl+alt+End")}));
    QVERIFY(stops.wait(10'000) || stops.count() == 1);
    QVERIFY(xdotool(target, {QStringLiteral("key"), QStringLiteral("a")}));
    bool sawA = false;
    while (!sawA) {
        const auto event = fixture.waitFor(
            [](const QJsonObject& o) {
                return o.value(QStringLiteral("event")).toString() == QLatin1String("key_press");
            },
            5000);
        QVERIFY2(event, "the marker key after the hotkey did not arrive");
        QVERIFY2(event->value(QStringLiteral("key")).toString() != QLatin1String("End"),
                 "the emergency hotkey reached the program on the target display");
        // The modifiers themselves are pressed before End completes the combination and reach the program
        // as they do for any shortcut; the grabbed key itself never does.
        sawA = event->value(QStringLiteral("text")).toString() == QLatin1String("a");
    }

    // On the app's own display it works as well.
    QVERIFY(xdotool(*m_own, {QStringLiteral("key"), QStringLiteral("ctrl+alt+End")}));
    QVERIFY(stops.wait(10'000) || stops.count() == 2);
    QCOMPARE(stops.count(), 2);
}

void TestAppStatesE2e::correctionsFollowTheWindow()
{
    XvfbServer target;
    QVERIFY2(target.start(), qPrintable(target.errorString()));
    FixtureApp fixture;
    QVERIFY2(
        fixture.start(target.environment(), {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
        qPrintable(fixture.errorString()));
    const QRect submit = fixture.widget(QStringLiteral("submit")).value().rect;
    QTemporaryDir home;
    ui::MainWindow window(windowOptions(target.displayName(), home.path()));
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ui::EngineBridge bridge(&window, {});
    QSignalSpy ready(&bridge, &ui::EngineBridge::ready);
    bridge.startOn(target.displayName());
    QVERIFY(ready.wait(60'000) || ready.count() == 1);
    ui::ZoneCorrections* corrections = window.corrections();
    const auto zoneAt = [corrections](QPoint p) -> std::optional<Zone> {
        const ZoneMapPtr map = corrections->effectiveMap();
        const Zone* z = map ? map->zoneAt(p) : nullptr;
        return z ? std::optional<Zone>(*z) : std::nullopt;
    };
    QTRY_VERIFY_WITH_TIMEOUT(zoneAt(submit.center()) && zoneAt(submit.center())->type == ZoneType::Button,
                             30'000);
    const Zone detected = *zoneAt(submit.center());
    const QString application = corrections->applicationOf(detected);
    QTRY_VERIFY_WITH_TIMEOUT(corrections->windowOrigin(application) != QPoint(), 10'000);
    const QPoint originBefore = corrections->windowOrigin(application);

    // The user relabels the button.
    Zone edited = detected;
    edited.label = QStringLiteral("Send it");
    corrections->setCorrections(corrections->withZoneReplaced(detected, edited, newUserZoneId()));
    QTRY_COMPARE(zoneAt(submit.center()).value_or(Zone()).label, QStringLiteral("Send it"));

    // The window moves: the correction goes with it, nothing is left floating where it was.
    QProcess move;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DISPLAY"), target.displayName());
    move.setProcessEnvironment(env);
    move.start(QStringLiteral("xdotool"),
               {QStringLiteral("search"), QStringLiteral("--name"), QStringLiteral("^CIU Fixture$"),
                QStringLiteral("windowmove"), QStringLiteral("300"), QStringLiteral("240")});
    QVERIFY(move.waitForFinished(10'000) && move.exitCode() == 0);
    QTRY_VERIFY_WITH_TIMEOUT(
        fixture.refreshWidgets() && fixture.widget(QStringLiteral("submit"))->rect != submit, 10'000);
    const QRect moved = fixture.widget(QStringLiteral("submit"))->rect;
    QTRY_VERIFY_WITH_TIMEOUT(corrections->windowOrigin(application) != originBefore, 10'000);
    QCOMPARE(corrections->windowOrigin(application) - originBefore, moved.topLeft() - submit.topLeft());
    QTRY_COMPARE_WITH_TIMEOUT(zoneAt(moved.center()).value_or(Zone()).label, QStringLiteral("Send it"),
                              30'000);
    int named = 0;
    for (const Zone& z : corrections->effectiveMap()->zones())
        named += z.label == QLatin1String("Send it") ? 1 : 0;
    QCOMPARE(named, 1);
    // Kept across sessions: stored relative to the window.
    const auto stored = corrections->store().load(application);
    QVERIFY(stored && stored->zones.size() == 1);
    QCOMPARE(stored->zones.first().bounds.topLeft(), edited.bounds.topLeft() - originBefore);
    bridge.shutdown();
}

int main(int argc, char** argv)
{
    return execOnOwnDisplay<TestAppStatesE2e>(argc, argv);
}

#include "tst_appstates_e2e.moc"
