#include "core/director/processlauncher.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;

// The launcher behind `launch` actions, with real processes: a program starts detached and is named with its
// pid, arguments are split as a shell would, a missing program or an empty command line gives a clear error,
// and the launch environment (DISPLAY of the target display) reaches the program.
class TestProcessLauncher : public QObject
{
    Q_OBJECT
private slots:
    void startsProgram();
    void splitsArguments();
    void missingProgram();
    void emptyCommandLine();
    void passesEnvironment();
    void interfaceHoldsLauncher();
};

namespace {

// The file the launched shell writes, once it has (the launcher does not wait for the program).
QByteArray waitForFile(const QString& path)
{
    QDeadlineTimer deadline(10'000);
    while (!deadline.hasExpired()) {
        QFile file(path);
        if (file.exists() && file.open(QIODevice::ReadOnly)) {
            const QByteArray content = file.readAll();
            if (content.endsWith('\n'))
                return content;
        }
        QTest::qWait(20);
    }
    return {};
}

} // namespace

void TestProcessLauncher::startsProgram()
{
    ProcessLauncher launcher;
    const ActionResult r = launcher.launch(QStringLiteral("true"));
    QVERIFY2(r.success, qPrintable(r.error));
    QVERIFY(r.error.isEmpty());
    QVERIFY2(r.output.startsWith(QLatin1String("started true (pid ")), qPrintable(r.output));
}

void TestProcessLauncher::splitsArguments()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("out.txt"));
    ProcessLauncher launcher;
    // $0 is the output file; "two words" arrives as one argument ($# is 1).
    const ActionResult r = launcher.launch(QStringLiteral("sh -c \"echo $#:$1 > $0\" ") + out +
                                           QStringLiteral(" \"two words\""));
    QVERIFY2(r.success, qPrintable(r.error));
    QVERIFY2(r.output.startsWith(QLatin1String("started sh (pid ")), qPrintable(r.output));
    QCOMPARE(waitForFile(out), QByteArray("1:two words\n"));
}

void TestProcessLauncher::missingProgram()
{
    ProcessLauncher launcher;
    const ActionResult r = launcher.launch(QStringLiteral("/nonexistent/ciu-no-such-program --flag"));
    QVERIFY(!r.success);
    QVERIFY(r.output.isEmpty());
    QVERIFY2(r.error.startsWith(QLatin1String("cannot start \"/nonexistent/ciu-no-such-program\": ")),
             qPrintable(r.error));
    QVERIFY(r.error.size() > QStringLiteral("cannot start \"/nonexistent/ciu-no-such-program\": ").size());
}

void TestProcessLauncher::emptyCommandLine()
{
    ProcessLauncher launcher;
    for (const QString& commandLine : {QString(), QStringLiteral("   ")}) {
        const ActionResult r = launcher.launch(commandLine);
        QVERIFY(!r.success);
        QCOMPARE(r.error, QStringLiteral("launch needs a program"));
    }
}

void TestProcessLauncher::passesEnvironment()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("env.txt"));
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("DISPLAY"), QStringLiteral(":77"));
    environment.insert(QStringLiteral("CIU_LAUNCH_TEST"), QStringLiteral("passed through"));
    ProcessLauncher launcher(environment);
    QCOMPARE(launcher.environment().value(QStringLiteral("DISPLAY")), QStringLiteral(":77"));
    const ActionResult r =
        launcher.launch(QStringLiteral("sh -c \"echo $DISPLAY/$CIU_LAUNCH_TEST > $0\" ") + out);
    QVERIFY2(r.success, qPrintable(r.error));
    QCOMPARE(waitForFile(out), QByteArray(":77/passed through\n"));

    // A changed environment applies to the next launch.
    environment.insert(QStringLiteral("DISPLAY"), QStringLiteral(":78"));
    launcher.setEnvironment(environment);
    const QString out2 = dir.filePath(QStringLiteral("env2.txt"));
    QVERIFY(launcher.launch(QStringLiteral("sh -c \"echo $DISPLAY > $0\" ") + out2).success);
    QCOMPARE(waitForFile(out2), QByteArray(":78\n"));
}

void TestProcessLauncher::interfaceHoldsLauncher()
{
    const std::unique_ptr<Launcher> launcher = std::make_unique<ProcessLauncher>();
    QVERIFY(launcher->launch(QStringLiteral("true")).success);
    QVERIFY(!launcher->launch(QString()).success);
}

QTEST_GUILESS_MAIN(TestProcessLauncher)
#include "tst_processlauncher.moc"
