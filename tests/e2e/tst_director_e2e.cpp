// End to end under Xvfb: `ciu-agent run` with the local planner drives the fixture app through the whole
// pipeline (X11 capture, canvas with OpenCV + Tesseract, brush over XTest, director, recorder); every task
// is verified through the fixture's own JSON output. Also: limits and confirmations are enforced, and
// `ciu-agent demo` works on a machine without a display.

#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu::test;

class TestDirectorE2e : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void fillFormAndSubmit();
    void openMenuItem();
    void answerDialog();
    void dryRunByDefault();
    void highRiskRefusedWithoutTerminal();
    void iterationLimit();
    void badTaskIsAUsageError();
    void demo();

private:
    struct Run
    {
        int exitCode = -1;
        QString out;
        QString err;
        QJsonObject summary;
    };
    Run run(const QStringList& args, int timeoutMs = 180'000);
    bool hasEvent(const QString& event, const QString& key, const QJsonValue& value, int timeoutMs = 3000);

    std::unique_ptr<XvfbServer> m_x;
    std::unique_ptr<FixtureApp> m_app;
    QTemporaryDir m_sessions;
};

void TestDirectorE2e::init()
{
    if (!xvfbAvailable())
        QSKIP("Xvfb is not installed");
    m_x = std::make_unique<XvfbServer>();
    QVERIFY2(m_x->start(), qPrintable(m_x->errorString()));
    m_app = std::make_unique<FixtureApp>();
    QVERIFY2(
        m_app->start(m_x->environment(), {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
        qPrintable(m_app->errorString()));
}

void TestDirectorE2e::cleanup()
{
    m_app.reset();
    m_x.reset();
}

TestDirectorE2e::Run TestDirectorE2e::run(const QStringList& args, int timeoutMs)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
    env.remove(QStringLiteral("OPENAI_API_KEY"));
    env.insert(QStringLiteral("OMP_THREAD_LIMIT"), QStringLiteral("1"));
    p.setProcessEnvironment(env);
    p.setStandardInputFile(QProcess::nullDevice()); // no terminal: nobody can confirm
    QStringList all = args;
    if (m_x)
        all << QStringLiteral("--display") << m_x->displayName();
    all << QStringLiteral("--session-dir") << m_sessions.path() << QStringLiteral("--json");
    p.start(QStringLiteral(CIU_AGENT_BIN), all);
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    Run r{p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
          QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError()),
          {}};
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (!lines.isEmpty())
        r.summary = QJsonDocument::fromJson(lines.last().toUtf8()).object();
    return r;
}

bool TestDirectorE2e::hasEvent(const QString& event, const QString& key, const QJsonValue& value,
                               int timeoutMs)
{
    const auto found = m_app->waitFor(
        [&](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == event &&
                   (key.isEmpty() || o.value(key) == value);
        },
        timeoutMs);
    return found.has_value();
}

void TestDirectorE2e::fillFormAndSubmit()
{
    const Run r =
        run({QStringLiteral("run"),
             QStringLiteral("type \"Ada\" into Name; check Subscribe; select Blue in Color; click Submit"),
             QStringLiteral("--execute")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err.right(4000) + r.out));
    QCOMPARE(r.summary.value(QStringLiteral("outcome")).toString(), QStringLiteral("completed"));
    QCOMPARE(r.summary.value(QStringLiteral("usage")).toObject().value(QStringLiteral("model_calls")).toInt(),
             0);
    QVERIFY(hasEvent(QStringLiteral("text_changed"), QStringLiteral("text"), QStringLiteral("Ada")));
    QVERIFY(hasEvent(QStringLiteral("toggled"), QStringLiteral("name"), QStringLiteral("subscribe")));
    QVERIFY(hasEvent(QStringLiteral("combo_changed"), QStringLiteral("text"), QStringLiteral("Blue")));
    QVERIFY(hasEvent(QStringLiteral("clicked"), QStringLiteral("name"), QStringLiteral("submit")));
    // The session was recorded.
    const QString session = r.summary.value(QStringLiteral("session")).toString();
    QVERIFY2(QFileInfo::exists(session + QStringLiteral("/director.jsonl")), qPrintable(session));
    QVERIFY(QFileInfo::exists(session + QStringLiteral("/metadata.json")));
}

void TestDirectorE2e::openMenuItem()
{
    const Run r =
        run({QStringLiteral("run"), QStringLiteral("click File; click Open"), QStringLiteral("--execute")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err.right(4000)));
    QVERIFY(hasEvent(QStringLiteral("menu_triggered"), QStringLiteral("item"), QStringLiteral("Open")));
}

void TestDirectorE2e::answerDialog()
{
    const Run r = run({QStringLiteral("run"),
                       QStringLiteral("click \"Open Dialog\"; wait for \"Save the changes\"; click Yes"),
                       QStringLiteral("--execute")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err.right(4000)));
    QVERIFY(hasEvent(QStringLiteral("dialog_closed"), QStringLiteral("result"), QStringLiteral("yes")));
}

void TestDirectorE2e::dryRunByDefault()
{
    m_app->clearPending();
    const Run r = run({QStringLiteral("run"), QStringLiteral("check Subscribe; click Submit")});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err.right(4000)));
    QVERIFY(r.summary.value(QStringLiteral("dry_run")).toBool());
    QVERIFY(r.err.contains(QStringLiteral("dry run: would")));
    QVERIFY(!hasEvent(QStringLiteral("mouse_press"), {}, {}, 1000));
}

void TestDirectorE2e::highRiskRefusedWithoutTerminal()
{
    m_app->clearPending();
    const Run r = run({QStringLiteral("run"), QStringLiteral("press alt+F4"), QStringLiteral("--execute")});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(
        r.summary.value(QStringLiteral("message")).toString().contains(QStringLiteral("nobody can confirm")),
        qPrintable(r.out));
    QVERIFY(!hasEvent(QStringLiteral("key_press"), {}, {}, 1000));
    m_app->send(QStringLiteral("dump"));
    QVERIFY(m_app->waitForEvent(QStringLiteral("widgets"))); // the window is still there
}

void TestDirectorE2e::iterationLimit()
{
    const Run r =
        run({QStringLiteral("run"), QStringLiteral("click OK; click Cancel; click OK; click Cancel"),
             QStringLiteral("--execute"), QStringLiteral("--max-iterations"), QStringLiteral("2")});
    QCOMPARE(r.exitCode, 1);
    QCOMPARE(r.summary.value(QStringLiteral("outcome")).toString(), QStringLiteral("max_iterations_reached"));
    QCOMPARE(r.summary.value(QStringLiteral("usage")).toObject().value(QStringLiteral("iterations")).toInt(),
             2);
    QVERIFY(hasEvent(QStringLiteral("clicked"), QStringLiteral("name"), QStringLiteral("ok")));
    QVERIFY(hasEvent(QStringLiteral("clicked"), QStringLiteral("name"), QStringLiteral("cancel")));
    QVERIFY(!hasEvent(QStringLiteral("clicked"), {}, {}, 1000)); // never a third
}

void TestDirectorE2e::badTaskIsAUsageError()
{
    const Run r = run({QStringLiteral("run"), QStringLiteral("click OK; frobnicate")});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(QStringLiteral("line 1, column 11")), qPrintable(r.err));
}

void TestDirectorE2e::demo()
{
    cleanup(); // the demo brings its own display
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
    p.setProcessEnvironment(env);
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(QStringLiteral(CIU_AGENT_BIN),
            {QStringLiteral("demo"), QStringLiteral("--session-dir"), m_sessions.path()});
    QVERIFY(p.waitForFinished(240'000));
    const QString out = QString::fromUtf8(p.readAllStandardOutput());
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(p.exitCode() == 0, qPrintable(err.right(4000) + out));
    QVERIFY(out.contains(QStringLiteral("outcome:     completed")));
    QVERIFY(out.contains(QStringLiteral("recording:")));
    QVERIFY2(out.contains(QStringLiteral("\"text\":\"Ada Lovelace\"")), qPrintable(out));
    QVERIFY(out.contains(QStringLiteral("\"name\":\"submit\"")));
}

QTEST_GUILESS_MAIN(TestDirectorE2e)
#include "tst_director_e2e.moc"
