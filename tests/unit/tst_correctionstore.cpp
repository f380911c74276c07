// CorrectionStore and applyCorrections: JSON round trip, strict parsing, per-application files,
// application of user zones and suppressed regions.

#include "core/knowledge/correctionstore.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;

namespace {
Zone zone(const QString& id, QRect bounds, ZoneSource source = ZoneSource::Local,
          const QString& app = QStringLiteral("App"))
{
    Zone z;
    z.id = id;
    z.bounds = bounds;
    z.source = source;
    z.application = app;
    z.confidence = 0.6;
    return z;
}

CorrectionSet sampleSet()
{
    CorrectionSet set;
    set.application = QStringLiteral("App");
    Zone user = zone(QStringLiteral("u1"), QRect(5, 5, 20, 10), ZoneSource::User);
    user.label = QStringLiteral("Send");
    user.confidence = 1.0;
    set.zones << user;
    set.suppressed << QRect(100, 100, 50, 20);
    return set;
}
} // namespace

class TestCorrectionStore : public QObject
{
    Q_OBJECT
private slots:
    void jsonRoundTrip();
    void badJson_data();
    void badJson();
    void apply();
    void applyIsIdempotent();
    void applyLeavesOtherApplications();
    void iou_data();
    void iou();
    void storeSaveLoad();
    void storeErrors();
    void fileNames_data();
    void fileNames();
};

void TestCorrectionStore::jsonRoundTrip()
{
    const CorrectionSet set = sampleSet();
    QString error;
    const auto back = CorrectionSet::fromJson(set.toJson(), &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(*back, set);
    QVERIFY(!set.toJson().contains(QStringLiteral("title_pattern"))); // files without one stay as they were
    CorrectionSet titled = set;
    titled.titlePattern = QStringLiteral("Calculator*");
    QCOMPARE(titled.toJson().value(QStringLiteral("title_pattern")).toString(),
             QStringLiteral("Calculator*"));
    QCOMPARE(CorrectionSet::fromJson(titled.toJson()).value_or(CorrectionSet()), titled);
    QVERIFY(titled.matchesTitle(QStringLiteral("calculator - scientific")));
    QVERIFY(!titled.matchesTitle(QStringLiteral("My Calculator")));
    QVERIFY(set.matchesTitle(QStringLiteral("anything")));
}

void TestCorrectionStore::badJson_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("format") << QByteArray(R"({"format":7,"application":"A","zones":[],"suppressed":[]})")
                            << "format";
    QTest::newRow("no app") << QByteArray(R"({"format":1,"zones":[],"suppressed":[]})") << "application";
    QTest::newRow("no arrays") << QByteArray(R"({"format":1,"application":"A"})") << "arrays";
    QTest::newRow("bad zone") << QByteArray(
                                     R"({"format":1,"application":"A","zones":[{"id":1}],"suppressed":[]})")
                              << "zone 0";
    QTest::newRow("bad rect")
        << QByteArray(R"({"format":1,"application":"A","zones":[],"suppressed":[{"x":1,"y":1,"w":0,"h":5}]})")
        << "suppressed region 0";
    QTest::newRow("title not a string")
        << QByteArray(R"({"format":1,"application":"A","title_pattern":3,"zones":[],"suppressed":[]})")
        << "title_pattern";
    QTest::newRow("bad title pattern")
        << QByteArray(R"({"format":1,"application":"A","title_pattern":"[a","zones":[],"suppressed":[]})")
        << "invalid title pattern";
}

void TestCorrectionStore::badJson()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, fragment);
    QString error;
    QVERIFY(!CorrectionSet::fromJson(QJsonDocument::fromJson(json).object(), &error));
    QVERIFY2(error.contains(fragment), qPrintable(error));
}

void TestCorrectionStore::apply()
{
    const QList<Zone> zones{zone(QStringLiteral("z1"), QRect(105, 105, 20, 10)),  // matches the user zone
                            zone(QStringLiteral("z2"), QRect(200, 200, 50, 20)),  // suppressed
                            zone(QStringLiteral("z3"), QRect(400, 400, 30, 30))}; // untouched
    const QList<Zone> result = applyCorrections(sampleSet(), zones, QPoint(100, 100), 77);
    QStringList ids;
    for (const Zone& z : result)
        ids << z.id;
    QCOMPARE(ids, (QStringList{QStringLiteral("z3"), QStringLiteral("u1")}));
    const Zone& user = result.last();
    QCOMPARE(user.bounds, QRect(105, 105, 20, 10));
    QVERIFY(user.source == ZoneSource::User);
    QCOMPARE(user.confidence, 1.0);
    QCOMPARE(user.lastSeenNs, qint64(77));
    QCOMPARE(applyCorrections(CorrectionSet{QStringLiteral("App"), {}, {}}, zones, {}), zones);
}

void TestCorrectionStore::applyIsIdempotent()
{
    const QList<Zone> zones{zone(QStringLiteral("z1"), QRect(105, 105, 20, 10)),
                            zone(QStringLiteral("z3"), QRect(400, 400, 30, 30))};
    const QList<Zone> once = applyCorrections(sampleSet(), zones, QPoint(100, 100), 5);
    const QList<Zone> twice = applyCorrections(sampleSet(), once, QPoint(100, 100), 5);
    QCOMPARE(twice, once);
}

void TestCorrectionStore::applyLeavesOtherApplications()
{
    const QList<Zone> zones{
        zone(QStringLiteral("z2"), QRect(200, 200, 50, 20), ZoneSource::Local, QStringLiteral("Other"))};
    const QList<Zone> result = applyCorrections(sampleSet(), zones, QPoint(100, 100));
    QCOMPARE(result.size(), 2);
    QCOMPARE(result.first().id, QStringLiteral("z2"));
}

void TestCorrectionStore::iou_data()
{
    QTest::addColumn<QRect>("a");
    QTest::addColumn<QRect>("b");
    QTest::addColumn<double>("expected");
    QTest::newRow("same") << QRect(0, 0, 10, 10) << QRect(0, 0, 10, 10) << 1.0;
    QTest::newRow("disjoint") << QRect(0, 0, 10, 10) << QRect(20, 0, 10, 10) << 0.0;
    QTest::newRow("half overlap") << QRect(0, 0, 10, 10) << QRect(5, 0, 10, 10) << 50.0 / 150.0;
    QTest::newRow("inside") << QRect(0, 0, 10, 10) << QRect(0, 0, 5, 10) << 0.5;
}

void TestCorrectionStore::iou()
{
    QFETCH(QRect, a);
    QFETCH(QRect, b);
    QFETCH(double, expected);
    QVERIFY(qAbs(intersectionOverUnion(a, b) - expected) < 1e-9);
}

void TestCorrectionStore::storeSaveLoad()
{
    QTemporaryDir dir;
    const CorrectionStore store(dir.path() + QStringLiteral("/sub"));
    QString error;
    const auto empty = store.load(QStringLiteral("App"), &error);
    QVERIFY(empty && empty->isEmpty());
    QVERIFY2(store.save(sampleSet(), &error), qPrintable(error));
    QVERIFY(QFile::exists(store.filePath(QStringLiteral("App"))));
    const auto loaded = store.load(QStringLiteral("App"), &error);
    QVERIFY(loaded);
    QCOMPARE(*loaded, sampleSet());
    QCOMPARE(store.applications(), QStringList{QStringLiteral("App")});
    QVERIFY(store.save(CorrectionSet{QStringLiteral("App"), {}, {}}, &error)); // empty removes the file
    QVERIFY(!QFile::exists(store.filePath(QStringLiteral("App"))));
}

void TestCorrectionStore::storeErrors()
{
    QTemporaryDir dir;
    const CorrectionStore store(dir.path());
    QString error;
    QVERIFY(!store.load(QString(), &error));
    QVERIFY(!store.save(CorrectionSet{}, &error));
    QVERIFY(error.contains(QStringLiteral("application")));
    QFile file(store.filePath(QStringLiteral("App")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("[1,2]");
    file.close();
    QVERIFY(!store.load(QStringLiteral("App"), &error));
    QVERIFY(error.contains(QStringLiteral("JSON object")));
    // A file holding another application's corrections is refused.
    CorrectionSet other = sampleSet();
    other.application = QStringLiteral("Other");
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(QJsonDocument(other.toJson()).toJson());
    file.close();
    QVERIFY(!store.load(QStringLiteral("App"), &error));
    QVERIFY(error.contains(QStringLiteral("Other")));
    // An unwritable directory.
    const CorrectionStore bad(QStringLiteral("/proc/ciu-no-such-dir"));
    QVERIFY(!bad.save(sampleSet(), &error));
}

void TestCorrectionStore::fileNames_data()
{
    QTest::addColumn<QString>("application");
    QTest::addColumn<QString>("fileName");
    QTest::newRow("plain") << "XTerm"
                           << "XTerm.json";
    QTest::newRow("space") << "Fixture App"
                           << "Fixture_App.json";
    QTest::newRow("traversal") << "../../etc/passwd"
                               << "_.._.._etc_passwd.json";
    QTest::newRow("dot") << ".hidden"
                         << "_.hidden.json";
}

void TestCorrectionStore::fileNames()
{
    QFETCH(QString, application);
    QFETCH(QString, fileName);
    const CorrectionStore store(QStringLiteral("/x"));
    QCOMPARE(store.filePath(application), QStringLiteral("/x/") + fileName);
}

QTEST_GUILESS_MAIN(TestCorrectionStore)
#include "tst_correctionstore.moc"
