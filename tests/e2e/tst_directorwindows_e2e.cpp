// End to end under Xvfb: windows as targets of `ciu-agent run` steps. `type "..." into xterm` activates the
// xterm (named by its WM_CLASS) over the fixture app and types there: the shell's own file proves it; a
// zone and a window of the same name (`click Submit` with an xterm titled "Submit") go to the zone: the
// fixture's JSON says its button was clicked; and `type "Ada" into "CIU Fixture"` activates the fixture's
// window by its title while the xterm has the focus: the fixture's field reports the text.

#include "tests/support/agentrun.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu::test;

class TestDirectorWindowsE2e : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void typeIntoXtermByClass();
    void zoneWinsOverWindowOfTheSameName();
    void typeIntoFixtureByTitle();

private:
    AgentRun run(const QStringList& args, int timeoutMs = 180'000);
    // Starts an xterm titled `title` running sh in the test's folder; true once its window is mapped.
    bool startXterm(const QString& title);

    std::unique_ptr<XvfbServer> m_x;
    std::unique_ptr<FixtureApp> m_app;
    std::unique_ptr<QProcess> m_xterm;
    QTemporaryDir m_dir;
};

void TestDirectorWindowsE2e::init()
{
    if (!xvfbAvailable())
        QSKIP("Xvfb is not installed");
    if (QStandardPaths::findExecutable(QStringLiteral("xterm")).isEmpty() ||
        QStandardPaths::findExecutable(QStringLiteral("xdotool")).isEmpty())
        QFAIL("xterm and xdotool are needed (packaging/install-deps.sh installs them)");
    QVERIFY(m_dir.isValid());
    m_x = std::make_unique<XvfbServer>();
    QVERIFY2(m_x->start(), qPrintable(m_x->errorString()));
    m_app = std::make_unique<FixtureApp>();
    QVERIFY2(
        m_app->start(m_x->environment(), {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
        qPrintable(m_app->errorString()));
}

void TestDirectorWindowsE2e::cleanup()
{
    if (m_xterm) {
        m_xterm->kill();
        m_xterm->waitForFinished(5000);
        m_xterm.reset();
    }
    m_app.reset();
    m_x.reset();
}

bool TestDirectorWindowsE2e::startXterm(const QString& title)
{
    QProcessEnvironment env = m_x->environment();
    env.insert(QStringLiteral("PS1"), QStringLiteral("$ "));
    m_xterm = std::make_unique<QProcess>();
    m_xterm->setProcessEnvironment(env);
    m_xterm->setWorkingDirectory(m_dir.path());
    // A TrueType font: what a person reads, and OCR too.
    m_xterm->start(QStringLiteral("xterm"),
                   {QStringLiteral("-T"), title, QStringLiteral("-fa"), QStringLiteral("Monospace"),
                    QStringLiteral("-fs"), QStringLiteral("12"), QStringLiteral("-geometry"),
                    QStringLiteral("30x10+980+80"), QStringLiteral("-e"), QStringLiteral("sh")});
    if (!m_xterm->waitForStarted(10'000))
        return false;
    // xdotool's --sync returns once the window is mapped (the window manager then makes it active).
    QProcess search;
    search.setProcessEnvironment(m_x->environment());
    search.start(QStringLiteral("xdotool"),
                 {QStringLiteral("search"), QStringLiteral("--sync"), QStringLiteral("--onlyvisible"),
                  QStringLiteral("--class"), QStringLiteral("XTerm")});
    return search.waitForFinished(20'000) && search.exitCode() == 0 &&
           !search.readAllStandardOutput().trimmed().isEmpty();
}

AgentRun TestDirectorWindowsE2e::run(const QStringList& args, int timeoutMs)
{
    QProcessEnvironment env = agentEnvironment();
    env.insert(QStringLiteral("CIU_SEQUENCES_DIR"), m_dir.filePath(QStringLiteral("sequences")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
    QStringList all = args;
    all << QStringLiteral("--display") << m_x->displayName() << QStringLiteral("--session-dir")
        << m_dir.filePath(QStringLiteral("sessions")) << QStringLiteral("--json");
    return runAgent(all, env, timeoutMs);
}

void TestDirectorWindowsE2e::typeIntoXtermByClass()
{
    QVERIFY(startXterm(QStringLiteral("Shell")));
    // The fixture app is in front: the agent must bring the xterm forward to type there.
    m_app->send(QStringLiteral("focus name"));
    QVERIFY(m_app->waitForEvent(QStringLiteral("focused"), 10'000));
    const AgentRun r =
        run({QStringLiteral("run"), QStringLiteral("type \"echo hi-ciu > out.txt\\n\" into xterm"),
             QStringLiteral("--execute")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.failure()));
    QCOMPARE(r.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("completed"));
    // The shell's own output.
    const QString path = m_dir.filePath(QStringLiteral("out.txt"));
    const auto content = [&path] {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll().trimmed()) : QString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(content(), QStringLiteral("hi-ciu"), 10'000);
    // Nothing reached the fixture's field.
    for (const QJsonObject& line : m_app->allLines())
        QVERIFY(line.value(QStringLiteral("event")).toString() != QLatin1String("text_changed"));
}

void TestDirectorWindowsE2e::zoneWinsOverWindowOfTheSameName()
{
    // A window titled "Submit" and the fixture's button "Submit", both written exactly so: the zone wins.
    QVERIFY(startXterm(QStringLiteral("Submit")));
    const AgentRun r =
        run({QStringLiteral("run"), QStringLiteral("click Submit"), QStringLiteral("--execute")});
    const auto clicked = m_app->waitFor(
        [](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == QLatin1String("clicked") &&
                   o.value(QStringLiteral("name")).toString() == QLatin1String("submit");
        },
        10'000);
    QVERIFY2(clicked.has_value(), qPrintable(r.failure()));
    QVERIFY2(r.exitCode == 0, qPrintable(r.failure()));
}

void TestDirectorWindowsE2e::typeIntoFixtureByTitle()
{
    m_app->send(QStringLiteral("focus name"));
    QVERIFY(m_app->waitForEvent(QStringLiteral("focused"), 10'000));
    QVERIFY(startXterm(QStringLiteral("Shell"))); // now the xterm has the focus
    const AgentRun r = run({QStringLiteral("run"), QStringLiteral("type \"Ada\" into \"CIU Fixture\""),
                            QStringLiteral("--execute")});
    const auto typed = m_app->waitFor(
        [](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == QLatin1String("text_changed") &&
                   o.value(QStringLiteral("text")).toString() == QLatin1String("Ada");
        },
        10'000);
    QVERIFY2(typed.has_value(), qPrintable(r.failure()));
    QVERIFY2(r.exitCode == 0, qPrintable(r.failure()));
    QCOMPARE(r.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("completed"));
}

QTEST_GUILESS_MAIN(TestDirectorWindowsE2e)
#include "tst_directorwindows_e2e.moc"
