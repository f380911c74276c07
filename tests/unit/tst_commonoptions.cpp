#include "app/commonoptions.h"

#include <QTest>

using namespace ciu::app;

class TestCommonOptions : public QObject
{
    Q_OBJECT
private slots:
    void valid();
    void invalid_data();
    void invalid();
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

QTEST_GUILESS_MAIN(TestCommonOptions)
#include "tst_commonoptions.moc"
