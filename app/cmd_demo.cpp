// ciu-agent demo: a private Xvfb (+ openbox) with the fixture app, a multi-step local-planner task run
// with --execute through the whole pipeline, recorded; prints the summary, what the app itself reported,
// and where the recording is. Needs no display and no key: the README's run command falls back to it on a
// headless machine.

#include "app/commands.h"
#include "app/commonoptions.h"
#include "app/runsupport.h"
#include "platform/platformfactory.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QThread>

#include <cstdio>
#include <memory>

namespace ciu::app {
namespace {

const char* kDefaultTask =
    "type \"Ada Lovelace\" into Name; check Subscribe; select Blue in Color; click Submit";

QString findFixtureApp()
{
    const QString dir = QCoreApplication::applicationDirPath();
    const QStringList candidates = {
        qEnvironmentVariable("CIU_FIXTURE_APP"),
#ifdef CIU_FIXTURE_APP_BUILD_PATH
        QStringLiteral(CIU_FIXTURE_APP_BUILD_PATH),
#endif
        dir + QStringLiteral("/../tests/fixture-app/ciu-fixture-app"),
        dir + QStringLiteral("/ciu-fixture-app"),
        dir + QStringLiteral("/../libexec/ciu-agent/ciu-fixture-app"),
        dir + QStringLiteral("/../lib/ciu-agent/ciu-fixture-app"),
    };
    for (const QString& c : candidates) {
        if (!c.isEmpty() && QFileInfo(c).isExecutable())
            return QFileInfo(c).canonicalFilePath();
    }
    return QStandardPaths::findExecutable(QStringLiteral("ciu-fixture-app"));
}

// A private X server for the demo: Xvfb on a free display number, openbox if installed.
class PrivateDisplay
{
public:
    ~PrivateDisplay() { stop(); }

    bool start(QString* error)
    {
        const QString xvfb = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
        if (xvfb.isEmpty()) {
            *error = QStringLiteral("Xvfb is not installed (Debian: apt-get install xvfb)");
            return false;
        }
        for (int n = 120; n < 220; ++n) {
            if (QFileInfo::exists(QStringLiteral("/tmp/.X11-unix/X%1").arg(n)) ||
                QFileInfo::exists(QStringLiteral("/tmp/.X%1-lock").arg(n)))
                continue;
            m_display = QStringLiteral(":%1").arg(n);
            m_server = std::make_unique<QProcess>();
            m_server->setStandardOutputFile(QProcess::nullDevice());
            m_server->setStandardErrorFile(QProcess::nullDevice());
            m_server->start(xvfb, {m_display, QStringLiteral("-screen"), QStringLiteral("0"),
                                   QStringLiteral("1280x800x24"), QStringLiteral("-nolisten"),
                                   QStringLiteral("tcp"),
                                   // No server reset when the probe connection closes: a reset refuses
                                   // the next connection for a moment ("does not accept connections").
                                   QStringLiteral("-noreset")});
            if (!m_server->waitForStarted(5000)) {
                *error = QStringLiteral("cannot start Xvfb: %1").arg(m_server->errorString());
                return false;
            }
            QDeadlineTimer deadline(10'000);
            while (!deadline.hasExpired() && m_server->state() == QProcess::Running) {
                if (platform::createPlatform({QStringLiteral("x11"), m_display}).platform)
                    break;
                QThread::msleep(100);
            }
            if (m_server->state() != QProcess::Running) {
                m_server.reset();
                continue; // lost a race for the number: try the next one
            }
            if (!platform::createPlatform({QStringLiteral("x11"), m_display}).platform) {
                *error = QStringLiteral("Xvfb on %1 does not accept connections").arg(m_display);
                return false;
            }
            const QString openbox = QStandardPaths::findExecutable(QStringLiteral("openbox"));
            if (!openbox.isEmpty()) {
                m_wm = std::make_unique<QProcess>();
                m_wm->setProcessEnvironment(environment());
                m_wm->setStandardOutputFile(QProcess::nullDevice());
                m_wm->setStandardErrorFile(QProcess::nullDevice());
                m_wm->start(openbox, {});
                m_wm->waitForStarted(5000);
                QThread::msleep(500);
            }
            return true;
        }
        *error = QStringLiteral("no free X display number between :120 and :219");
        return false;
    }

    void stop()
    {
        for (auto* p : {m_wm.get(), m_server.get()}) {
            if (p && p->state() != QProcess::NotRunning) {
                p->terminate();
                if (!p->waitForFinished(3000)) {
                    p->kill();
                    p->waitForFinished(3000);
                }
            }
        }
        m_wm.reset();
        m_server.reset();
    }

    QString display() const { return m_display; }
    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DISPLAY"), m_display);
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        env.insert(QStringLiteral("NO_AT_BRIDGE"), QStringLiteral("1"));
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        return env;
    }

private:
    QString m_display;
    std::unique_ptr<QProcess> m_server;
    std::unique_ptr<QProcess> m_wm;
};

// The fixture app's JSON lines.
QList<QJsonObject> readLines(QProcess& app, QByteArray& buffer)
{
    buffer += app.readAllStandardOutput();
    QList<QJsonObject> lines;
    qsizetype nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
        const QJsonObject o = QJsonDocument::fromJson(buffer.left(nl)).object();
        buffer.remove(0, nl + 1);
        if (!o.isEmpty())
            lines.append(o);
    }
    return lines;
}

} // namespace

int runDemo(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Starts a private X server with the project's fixture app and runs a multi-step task on it with the "
        "local planner (no key, no network), executing for real and recording the session."));
    parser.addOptions({
        {QStringLiteral("task"),
         QStringLiteral("The local-planner task (default: fill the form and submit it)."),
         QStringLiteral("TASK")},
        {QStringLiteral("json"), QStringLiteral("Print the summary as one JSON object.")},
    });
    addCommonOptions(parser);
    int exitCode = ExitOk;
    const auto common = parseCommonCommandLine(parser, arguments, &exitCode);
    if (!common)
        return exitCode;
    if (!common->display.isEmpty() ||
        (!common->provider.isEmpty() && common->provider != QLatin1String("local"))) {
        printError(QStringLiteral(
            "demo uses its own display and the local planner: --display and --provider do not apply"));
        return ExitUsage;
    }

    const QString fixture = findFixtureApp();
    if (fixture.isEmpty()) {
        printError(
            QStringLiteral("cannot find ciu-fixture-app next to %1 (build the ciu-fixture-app target, or set "
                           "CIU_FIXTURE_APP)")
                .arg(QCoreApplication::applicationDirPath()));
        return ExitFailure;
    }
    PrivateDisplay display;
    QString error;
    if (!display.start(&error)) {
        printError(error);
        return ExitNoDisplay;
    }
    std::fprintf(stderr, "ciu-agent demo: private display %s, fixture app %s\n",
                 qPrintable(display.display()), qPrintable(fixture));

    QProcess app;
    app.setProcessEnvironment(display.environment());
    app.setProcessChannelMode(QProcess::SeparateChannels);
    app.setStandardErrorFile(QProcess::nullDevice());
    app.start(fixture, {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")});
    QByteArray buffer;
    QList<QJsonObject> fixtureLines;
    bool ready = false;
    if (app.waitForStarted(10'000)) {
        QDeadlineTimer deadline(20'000);
        while (!ready && !deadline.hasExpired() && app.state() == QProcess::Running) {
            app.waitForReadyRead(200);
            for (const QJsonObject& o : readLines(app, buffer)) {
                fixtureLines.append(o);
                ready = ready || o.value(QStringLiteral("event")).toString() == QLatin1String("ready");
            }
        }
    }
    if (!ready) {
        printError(QStringLiteral("the fixture app did not come up on %1").arg(display.display()));
        app.kill();
        app.waitForFinished(3000);
        return ExitFailure;
    }

    TaskRun run;
    run.task = parser.isSet(QStringLiteral("task")) ? parser.value(QStringLiteral("task"))
                                                    : QString::fromUtf8(kDefaultTask);
    run.json = parser.isSet(QStringLiteral("json"));
    run.director.provider = QStringLiteral("local");
    if (!common->speed.isEmpty())
        run.director.speed = *speedModeFromString(common->speed);
    run.director.dryRun = common->dryRun.value_or(false); // the demo acts: it owns its display
    run.director.maxIterations = common->maxIterations;
    run.director.maxCostUsd = common->maxCostUsd;
    run.director.confirmation =
        stdinIsTerminal() ? safety::ConfirmationMode::Ask : safety::ConfirmationMode::Refuse;
    run.engine.platform = QStringLiteral("x11");
    run.engine.display = display.display();
    run.engine.sessionRoot = common->sessionDir;
    run.engine.config = run.director.toJson();
    run.engine.config.insert(QStringLiteral("demo"), true);
    std::fprintf(stderr, "ciu-agent demo: task: %s\n", qPrintable(terminalText(run.task)));
    const TaskRunResult r = runTask(run);

    // What the app itself reported while the agent worked.
    app.waitForReadyRead(500);
    fixtureLines.append(readLines(app, buffer));
    app.write("quit\n");
    if (!app.waitForFinished(3000)) {
        app.kill();
        app.waitForFinished(3000);
    }
    display.stop();

    if (!r.started) {
        printError(r.error.isEmpty() ? QStringLiteral("the pipeline did not start") : r.error);
        return ExitFailure;
    }
    printSummary(r.outcome, r.sessionPath, run.json);
    if (!run.json) {
        std::printf("\nthe fixture app reported:\n");
        int shown = 0;
        for (const QJsonObject& o : std::as_const(fixtureLines)) {
            const QString e = o.value(QStringLiteral("event")).toString();
            if (e == QLatin1String("text_changed") || e == QLatin1String("toggled") ||
                e == QLatin1String("combo_changed") || e == QLatin1String("clicked") ||
                e == QLatin1String("menu_triggered") || e == QLatin1String("dialog_closed")) {
                QJsonObject shownLine = o;
                shownLine.remove(QStringLiteral("event"));
                std::printf("  %-14s %s\n", qPrintable(e),
                            QJsonDocument(shownLine).toJson(QJsonDocument::Compact).constData());
                ++shown;
            }
        }
        if (shown == 0)
            std::printf("  (no state changes)\n");
        std::fflush(stdout);
    }
    return r.outcome.success() ? ExitOk : ExitFailure;
}

} // namespace ciu::app
