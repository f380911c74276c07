#include "app/commonoptions.h"
#include "app/displaylock.h"
#include "core/model/secrets.h"

#include <QFile>
#include <QSysInfo>
#include <QTest>
#include <QThread>

#include <memory>

using namespace ciu::app;

class TestCommonOptions : public QObject
{
    Q_OBJECT
private slots:
    void valid();
    void invalid_data();
    void invalid();
    void region_data();
    void region();
    void terminalTextIsSafe();
    void displayLock();
};

namespace {
std::optional<CommonOptions> parse(const QStringList& args, QString* error)
{
    QCommandLineParser parser;
    addCommonOptions(parser);
    if (!parser.parse(QStringList{QStringLiteral("ciu-agent")} + args)) {
        *error = parser.errorText();
        return std::nullopt;
    }
    return readCommonOptions(parser, error);
}
} // namespace

void TestCommonOptions::valid()
{
    QString error;
    const auto o = parse({QStringLiteral("--display"), QStringLiteral(":7"), QStringLiteral("--provider"),
                          QStringLiteral("Anthropic"), QStringLiteral("--speed"), QStringLiteral("high"),
                          QStringLiteral("--execute"), QStringLiteral("--max-iterations"),
                          QStringLiteral("5"), QStringLiteral("--max-cost"), QStringLiteral("0.25")},
                         &error);
    QVERIFY2(o, qPrintable(error));
    QCOMPARE(o->display, QStringLiteral(":7"));
    QCOMPARE(o->provider, QStringLiteral("anthropic"));
    QCOMPARE(o->speed, QStringLiteral("high"));
    QCOMPARE(o->dryRun, std::optional<bool>(false));
    QCOMPARE(o->maxIterations, 5);
    QCOMPARE(o->maxCostUsd, 0.25);
    const auto defaults = parse({}, &error);
    QVERIFY(defaults);
    QVERIFY(!defaults->dryRun.has_value());
    QCOMPARE(defaults->maxIterations, 20);
}

void TestCommonOptions::invalid_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("provider") << QStringList{QStringLiteral("--provider"), QStringLiteral("gpt")}
                              << "--provider";
    QTest::newRow("speed") << QStringList{QStringLiteral("--speed"), QStringLiteral("warp")} << "--speed";
    QTest::newRow("iterations text") << QStringList{QStringLiteral("--max-iterations"),
                                                    QStringLiteral("many")}
                                     << "--max-iterations";
    QTest::newRow("iterations zero") << QStringList{QStringLiteral("--max-iterations"), QStringLiteral("0")}
                                     << "--max-iterations";
    QTest::newRow("cost negative") << QStringList{QStringLiteral("--max-cost"), QStringLiteral("-1")}
                                   << "--max-cost";
    QTest::newRow("cost nan") << QStringList{QStringLiteral("--max-cost"), QStringLiteral("nan")}
                              << "--max-cost";
    QTest::newRow("both modes") << QStringList{QStringLiteral("--dry-run"), QStringLiteral("--execute")}
                                << "exclude";
    QTest::newRow("empty display") << QStringList{QStringLiteral("--display"), QStringLiteral("")}
                                   << "--display";
    QTest::newRow("platform") << QStringList{QStringLiteral("--platform"), QStringLiteral("win32")}
                              << "--platform";
}

void TestCommonOptions::invalid()
{
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    QString error;
    QVERIFY(!parse(args, &error));
    QVERIFY2(error.contains(fragment), qPrintable(error));
}

// --region: "2147483000,2147483000,2000,2000" used to analyse the whole screen with exit 0 and
// "2147483647,0,100,100" a 1920x100 strip at 0,0 (int overflow in the rectangle's right edge).
void TestCommonOptions::region_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QRect>("expected"); // null: refused
    QTest::addColumn<QString>("fragment");
    QTest::newRow("plain") << "10,20,300,200" << QRect(10, 20, 300, 200) << "";
    QTest::newRow("spaces") << " 0 , 0 , 4 , 4 " << QRect(0, 0, 4, 4) << "";
    QTest::newRow("edge of the range") << "65000,0,535,100" << QRect(65000, 0, 535, 100) << "";
    QTest::newRow("overflow both") << "2147483000,2147483000,2000,2000" << QRect() << "past any screen";
    QTest::newRow("overflow x") << "2147483647,0,100,100" << QRect() << "past any screen";
    QTest::newRow("beyond int") << "9999999999,0,100,100" << QRect() << "past any screen";
    QTest::newRow("negative") << "-1,0,100,100" << QRect() << "x,y >= 0";
    QTest::newRow("too small") << "0,0,3,100" << QRect() << "w,h >= 4";
    QTest::newRow("three parts") << "0,0,100" << QRect() << "x,y,w,h";
    QTest::newRow("not a number") << "a,b,c,d" << QRect() << "x,y,w,h";
}

void TestCommonOptions::region()
{
    QFETCH(QString, text);
    QFETCH(QRect, expected);
    QFETCH(QString, fragment);
    QString error;
    const std::optional<QRect> region = parseRegion(text, &error);
    if (expected.isNull()) {
        QVERIFY(!region);
        QVERIFY2(error.contains(fragment) && error.contains(text), qPrintable(error));
    } else {
        QVERIFY2(region, qPrintable(error));
        QCOMPARE(*region, expected);
    }
}

// What reaches the terminal: the model's reply quoting the API key printed it on the "finished:" and
// "detail:" lines, and a task with ESC[31m coloured the terminal.
void TestCommonOptions::terminalTextIsSafe()
{
    const QByteArray key = "hostile-test-key-0123456789abcdef";
    qputenv("CIU_TEST_API_KEY", key);
    ciu::refreshEnvironmentSecrets();
    const QString reply = QStringLiteral("done, your key is %1 and sk-ant-api03-AAAABBBBCCCCDDDDEEEE")
                              .arg(QString::fromLatin1(key));
    const QString shown = terminalText(reply);
    QVERIFY2(!shown.contains(QString::fromLatin1(key)), qPrintable(shown));
    QVERIFY2(!shown.contains(QStringLiteral("AAAABBBBCCCC")), qPrintable(shown));
    QVERIFY(shown.startsWith(QStringLiteral("done, your key is [redacted]")));
    qunsetenv("CIU_TEST_API_KEY");
    ciu::refreshEnvironmentSecrets();

    const QString task = QStringLiteral("open \x1b[31mred\x1b[0m\r\x07 menu\u202eevil\nnext\tcol");
    QCOMPARE(terminalText(task),
             QStringLiteral("open \\x1b[31mred\\x1b[0m\\x0d\\x07 menu\\u202eevil\nnext\tcol"));
    QCOMPARE(terminalText(task, true),
             QStringLiteral("open \\x1b[31mred\\x1b[0m\\x0d\\x07 menu\\u202eevil\\x0anext\\x09col"));
    QCOMPARE(terminalText(QStringLiteral("plain text")), QStringLiteral("plain text"));
    // A huge reply is cut.
    const QString shownHuge = terminalText(QString(1'000'000, QLatin1Char('a')));
    QCOMPARE(shownHuge, QString(4000, QLatin1Char('a')) + QStringLiteral("\u2026 (996000 more characters)"));
}

// Two agents on one display: the second is told who holds it; it can wait; a dead holder's lock is taken.
void TestCommonOptions::displayLock()
{
    const QString display = QStringLiteral(":%1").arg(60000 + QCoreApplication::applicationPid() % 5000);
    QCOMPARE(DisplayLock::normalizedDisplay(display + QStringLiteral(".0")), display);
    DisplayLock first(display);
    QString error;
    QVERIFY2(first.acquire(0, &error), qPrintable(error));
    DisplayLock second(display + QStringLiteral(".0")); // the same display
    QCOMPARE(second.filePath(), first.filePath());
    QVERIFY(!second.acquire(0, &error));
    QVERIFY2(error.startsWith(QStringLiteral("display %1 is in use by another CIU Agent (pid %2 on ")
                                  .arg(display)
                                  .arg(QCoreApplication::applicationPid())),
             qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("--wait-for-display")), qPrintable(error));
    // Waiting: the holder finishes on another thread while the second waits for it.
    std::unique_ptr<QThread> holder(QThread::create([&first] { first.release(); }));
    holder->start();
    QVERIFY2(second.acquire(30'000, &error), qPrintable(error));
    QVERIFY(holder->wait(30'000));
    QVERIFY(second.isLocked());
    second.release();
    // A lock left by a process that no longer exists is stale and taken over.
    {
        QFile stale(first.filePath());
        QVERIFY(stale.open(QIODevice::WriteOnly | QIODevice::Truncate));
        stale.write("4194000\nciu-agent\n" + QSysInfo::machineHostName().toUtf8() + "\n");
    }
    DisplayLock third(display);
    QVERIFY2(third.acquire(0, &error), qPrintable(error));
    third.release();
    QVERIFY(!QFile::exists(first.filePath()));
}

QTEST_GUILESS_MAIN(TestCommonOptions)
#include "tst_commonoptions.moc"
