// Stable zone ids and the zone memory end to end: a private Xvfb with openbox, the real X11 backend, real
// OpenCV and Tesseract, the fixture app.
//  - `ciu-agent analyze --json` run twice (two processes) gives the same element the same id;
//  - a canvas mapper remembers the fixture's window after its first full analysis; a second, fresh mapper
//    (another "session", the same memory folder) puts the remembered zones on the map before anything else is
//    analysed (the order of its own signals proves it), and, the window unchanged, spares it the full
//    analysis: only the rest of the screen is analysed, and the window's zones keep the first session's ids.

#include "core/canvas/canvasmapper.h"
#include "core/knowledge/zonememory.h"
#include "core/model/geometry.h"
#include "platform/platformfactory.h"
#include "tests/support/agentrun.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using canvas::CanvasMapper;
using test::FixtureApp;

namespace {

// What a person would call the same element in two maps: the same label and place.
QString elementKey(const Zone& z)
{
    return QStringLiteral("%1|%2|%3,%4 %5x%6")
        .arg(toString(z.type), z.label)
        .arg(z.bounds.x())
        .arg(z.bounds.y())
        .arg(z.bounds.width())
        .arg(z.bounds.height());
}

// One entry of the mapper's signal log, in the order the mapper emitted them.
struct Logged
{
    enum class Kind : quint8
    {
        Map = 1,
        Event,
    } kind = Kind::Map;
    ZoneMapPtr map;
    SpatialEvent event;
};

} // namespace

class TestZoneMemoryE2E : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void idsEqualAcrossTwoProcesses();
    void rememberedWindowMapsBeforeTheAnalysis();

private:
    QMap<QString, QString> analyzeIds(); // element key → id, from one `ciu-agent analyze --json`
    std::unique_ptr<CanvasMapper> newMapper(const QString& memoryDir);
    Frame grab(quint64 index) const;

    std::unique_ptr<test::XvfbServer> m_xvfb;
    FixtureApp m_app;
    std::unique_ptr<platform::Platform> m_platform;
};

void TestZoneMemoryE2E::initTestCase()
{
    QVERIFY2(test::xvfbAvailable(), "Xvfb is needed (apt-get install xvfb)");
    m_xvfb = std::make_unique<test::XvfbServer>();
    QVERIFY2(m_xvfb->start(), qPrintable(m_xvfb->errorString()));
    QVERIFY2(m_app.start(m_xvfb->environment()), qPrintable(m_app.errorString()));
    auto opened = platform::createPlatform({QStringLiteral("x11"), m_xvfb->displayName()});
    QVERIFY2(opened.platform, qPrintable(opened.error));
    m_platform = std::move(opened.platform);
    m_platform->input().moveTo(QPoint(5, 5)); // the pointer off the widgets
    // The fixture's window is managed (openbox lists it with its class) before anything maps it.
    QTRY_VERIFY_WITH_TIMEOUT(
        [this] {
            for (const platform::WindowInfo& w : m_platform->windows().topLevelWindows()) {
                if (!w.windowClass.isEmpty() && w.geometry.width() > 200)
                    return true;
            }
            return false;
        }(),
        15000);
}

void TestZoneMemoryE2E::cleanupTestCase()
{
    m_app.stop();
    m_xvfb.reset();
}

QMap<QString, QString> TestZoneMemoryE2E::analyzeIds()
{
    QMap<QString, QString> ids;
    QProcessEnvironment env = m_xvfb->environment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("OMP_THREAD_LIMIT"), QStringLiteral("1"));
    const test::AgentRun r =
        test::runAgent({QStringLiteral("analyze"), QStringLiteral("--display"), m_xvfb->displayName(),
                        QStringLiteral("--json"), QStringLiteral("--source"), QStringLiteral("vision")},
                       env, 120'000);
    if (r.exitCode != 0) {
        qWarning("ciu-agent analyze failed: %s", qPrintable(r.failure()));
        return ids;
    }
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8());
    for (const QJsonValue& v : doc.array()) {
        const auto z = zoneFromJson(v.toObject());
        if (z)
            ids.insert(elementKey(*z), z->id);
    }
    return ids;
}

void TestZoneMemoryE2E::idsEqualAcrossTwoProcesses()
{
    const QMap<QString, QString> first = analyzeIds();
    const QMap<QString, QString> second = analyzeIds();
    QVERIFY2(first.size() >= 10, qPrintable(QStringLiteral("%1 zones").arg(first.size())));
    QCOMPARE(second.keys(), first.keys()); // the same screen: the same elements
    QCOMPARE(second, first);               // and each with the same id
    QSet<QString> unique;
    for (const QString& id : first) {
        QVERIFY2(QRegularExpression(QStringLiteral("^z[0-9a-f]{8}$")).match(id).hasMatch(), qPrintable(id));
        unique.insert(id);
    }
    QCOMPARE(unique.size(), first.size());
}

std::unique_ptr<CanvasMapper> TestZoneMemoryE2E::newMapper(const QString& memoryDir)
{
    auto mapper = std::make_unique<CanvasMapper>();
    auto own = platform::createPlatform({QStringLiteral("x11"), m_xvfb->displayName()});
    if (!own.platform)
        return nullptr;
    mapper->setPlatform(std::move(own.platform));
    mapper->setZoneMemory(std::make_unique<ZoneMemory>(memoryDir));
    return mapper;
}

Frame TestZoneMemoryE2E::grab(quint64 index) const
{
    Frame frame;
    frame.index = index;
    frame.tNs = qint64(index) * 50'000'000;
    frame.image = m_platform->screen().grab();
    return frame;
}

void TestZoneMemoryE2E::rememberedWindowMapsBeforeTheAnalysis()
{
    QTemporaryDir memoryDir;
    QVERIFY(memoryDir.isValid());

    // Session 1: nothing remembered; the first frame's full analysis maps the window and remembers it.
    auto first = newMapper(memoryDir.path());
    QVERIFY(first);
    first->onFrame(grab(1));
    QCOMPARE(first->memoryStats().recalls, 0);
    QCOMPARE(first->memoryStats().errors, 0);
    QVERIFY(first->memoryStats().remembers >= 1);
    const ZoneMemory memory(memoryDir.path());
    QVERIFY2(!memory.programs().isEmpty(), "a program remembered");
    const ZoneMapPtr firstMap = first->currentMap();
    QVERIFY(firstMap);
    first.reset();

    // Session 2: a fresh mapper with the same memory, the same window.
    auto second = newMapper(memoryDir.path());
    QVERIFY(second);
    QList<Logged> log;
    connect(second.get(), &CanvasMapper::zoneMapUpdated, this, [&log](const ZoneMapPtr& map) {
        log << Logged{Logged::Kind::Map, map, {}};
    });
    connect(second.get(), &CanvasMapper::eventOccurred, this, [&log](const SpatialEvent& e) {
        log << Logged{Logged::Kind::Event, nullptr, e};
    });
    second->onFrame(grab(2));
    QVERIFY(second->memoryStats().recalls >= 1);
    QVERIFY(second->memoryStats().zonesRecalled > 0);

    // The mapper's own order: the memory's report (the window recalled well: no full analysis of it), a
    // published map holding the remembered zones, and only then the analysis of the rest of the screen.
    int recalled = -1;
    int mapWithMemory = -1;
    int restAnalysis = -1;
    int fullAnalyses = 0;
    QVariantMap memoryReport;
    for (int i = 0; i < log.size(); ++i) {
        const Logged& l = log.at(i);
        if (l.kind == Logged::Kind::Event && l.event.kind == SpatialEvent::Kind::Analysis) {
            if (l.event.data.value(QStringLiteral("source")).toString() == QLatin1String("memory") &&
                recalled < 0) {
                recalled = i;
                memoryReport = l.event.data;
            }
            if (l.event.data.value(QStringLiteral("tier")).toInt() == 1) {
                fullAnalyses += l.event.data.value(QStringLiteral("full_screen")).toBool() ? 1 : 0;
                if (restAnalysis < 0)
                    restAnalysis = i;
            }
        }
        if (l.kind == Logged::Kind::Map && mapWithMemory < 0) {
            const auto& zones = l.map->zones();
            if (std::any_of(zones.cbegin(), zones.cend(), [](const Zone& z) { return isRemembered(z); }))
                mapWithMemory = i;
        }
    }
    QVERIFY2(recalled >= 0, "the memory reported its zones");
    QVERIFY2(memoryReport.value(QStringLiteral("recalled")).toBool(), "the window was recalled well");
    QCOMPARE(memoryReport.value(QStringLiteral("confirmed")).toInt(),
             memoryReport.value(QStringLiteral("zones")).toInt());
    QCOMPARE(second->memoryStats().spared, 1);
    QCOMPARE(fullAnalyses, 0);
    QVERIFY2(mapWithMemory > recalled, "a map with remembered zones was published");
    QVERIFY2(restAnalysis < 0 || restAnalysis > mapWithMemory, "before the rest of the screen was analysed");
    const ZoneMapPtr early = log.at(mapWithMemory).map;
    int fromMemory = 0;
    for (const Zone& z : early->zones())
        fromMemory += isRemembered(z) ? 1 : 0;
    QCOMPARE(fromMemory, second->memoryStats().zonesRecalled);

    // The remembered ids are the first session's, and the final map keeps them, labels and places too.
    QHash<QString, QString> firstIds;
    for (const Zone& z : firstMap->zones())
        firstIds.insert(elementKey(z), z.id);
    for (const Zone& z : early->zones()) {
        if (!isRemembered(z))
            continue;
        QVERIFY2(firstMap->find(z.id), qPrintable(z.id));
    }
    const ZoneMapPtr final = second->currentMap();
    int same = 0;
    int found = 0;
    for (const Zone& z : final->zones()) {
        const auto it = firstIds.constFind(elementKey(z));
        if (it == firstIds.cend())
            continue;
        ++found;
        same += *it == z.id ? 1 : 0;
    }
    QVERIFY(found >= 10);
    QCOMPARE(same, found);
}

QTEST_MAIN(TestZoneMemoryE2E)
#include "tst_zonememory_e2e.moc"
