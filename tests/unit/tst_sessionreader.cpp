// SessionReader: write→read round trip of every stream, random access, tolerance of missing, corrupt and
// truncated files, and a recorder killed with SIGKILL mid-session.
//
// The test binary doubles as the recorder child of the kill test: with CIU_RECORD_CHILD=<folder> set it
// records synthetic frames and cursor samples until it is killed.

#include "core/model/metatypes.h"
#include "core/replay/sessionformat.h"
#include "core/replay/sessionreader.h"
#include "core/replay/sessionwriter.h"
#include "replaytestutil.h"

#include <QDir>
#include <QFile>
#include <QGuiApplication>
#include <QJsonArray>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cstdio>
#include <limits>
#include <sys/stat.h>

using namespace ciu;
using namespace ciu::replay;
using ciu::test::meanAbsDiff;
using ciu::test::syntheticFrame;

namespace {

constexpr qint64 kMs = 1'000'000;
const QSize kSize(320, 240);

Zone makeZone(const QString& id, QRect bounds, ZoneType type, const QString& label)
{
    Zone z;
    z.id = id;
    z.bounds = bounds;
    z.type = type;
    z.label = label;
    z.confidence = 0.9;
    return z;
}

// The zone map of version v: z0 always, z1 from v 2 on (relabelled at v 4), z2 only in v 3..5, and one
// extra zone per version so there are many deltas.
QList<Zone> zonesOfVersion(int v)
{
    QList<Zone> zones;
    zones << makeZone(QStringLiteral("z0"), QRect(0, 0, 50, 20), ZoneType::Button, QStringLiteral("OK"));
    if (v >= 2)
        zones << makeZone(QStringLiteral("z1"), QRect(60, 0, 50, 20), ZoneType::TextField,
                          v >= 4 ? QStringLiteral("Name (edited)") : QStringLiteral("Name"));
    if (v >= 3 && v <= 5)
        zones << makeZone(QStringLiteral("z2"), QRect(0, 30, 80, 20), ZoneType::Link, QStringLiteral("help"));
    zones << makeZone(QStringLiteral("v%1").arg(v), QRect(v, 100, 10, 10), ZoneType::Static, QString());
    return zones;
}

int recordChild(const QString& folder)
{
    registerMetaTypes();
    SessionWriterOptions o;
    o.sessionPath = folder;
    o.metadataIntervalMs = 1000; // the default key frame interval (3 s) and fragment interval (1 s)
    auto* writer = new SessionWriter(o);
    writer->start();
    auto* timer = new QTimer;
    int n = 0;
    QObject::connect(timer, &QTimer::timeout, [=]() mutable {
        const qint64 t = o.clock.nowNs();
        writer->onFrame(Frame{quint64(++n), t, syntheticFrame(kSize, n), {}});
        writer->onCursor(CursorSample{t, QPoint(n % kSize.width(), 10), QStringLiteral("left_ptr")});
        if (n % 10 == 0) {
            std::printf("frames %d t_ms %lld\n", n, t / kMs);
            std::fflush(stdout);
        }
    });
    timer->start(33);
    return QCoreApplication::exec();
}

} // namespace

class TestSessionReader : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void roundTrip();
    void zoneMapAtAnyTime_data();
    void zoneMapAtAnyTime();
    void corruptAndTruncatedLines();
    void missingFiles();
    void corruptMetadataAndVideo();
    void notAFolder();
    void hostileFiles();
    void manyDeltasAfterOneSnapshot();
    void veryShortSession_data();
    void veryShortSession();
    void killedRecorder();
    void directorSummaries();

private:
    QTemporaryDir m_dir;
    QString m_session; // written once by roundTrip, read by several tests
    QList<qint64> m_frameTimes;
};

void TestSessionReader::initTestCase()
{
    registerMetaTypes();
    // Record one session with every stream. Frames start at 150 ms (not at 0) and come at a variable rate.
    SessionWriterOptions o;
    o.sessionPath = m_dir.filePath(QStringLiteral("session"));
    o.task = QStringLiteral("round trip");
    o.maxFrameLagMs = 0;
    o.keyFrameIntervalMs = 500;
    o.crf = 20;
    o.metadataIntervalMs = 0;
    SessionWriter writer(o);
    writer.start();
    QCOMPARE(writer.state(), SessionWriter::State::Recording);
    qint64 t = 150 * kMs;
    for (int n = 0; n < 90; ++n) {
        writer.onFrame(Frame{quint64(n + 1), t, syntheticFrame(kSize, n), {}});
        m_frameTimes << t;
        t += (n % 3 == 0 ? 50 : 33) * kMs;
    }
    for (int i = 0; i < 200; ++i)
        writer.onCursor(CursorSample{i * 20 * kMs, QPoint(i, 2 * i),
                                     i < 100 ? QStringLiteral("left_ptr") : QStringLiteral("xterm")});
    for (int v = 1; v <= 120; ++v)
        writer.onZoneMap(std::make_shared<const ZoneMap>(quint64(v), v * 30 * kMs, kSize, zonesOfVersion(v)));
    SpatialEvent click;
    click.kind = SpatialEvent::Kind::ZoneClick;
    click.tNs = 1000 * kMs;
    click.zoneId = QStringLiteral("z0");
    click.point = QPoint(10, 10);
    click.data[QStringLiteral("button")] = QStringLiteral("left");
    writer.onEvent(click);
    SpatialEvent analysis;
    analysis.kind = SpatialEvent::Kind::Analysis;
    analysis.tNs = 1500 * kMs;
    analysis.data[QStringLiteral("tier")] = 2;
    writer.onEvent(analysis);
    SpatialEvent error;
    error.kind = SpatialEvent::Kind::Error;
    error.tNs = 2500 * kMs;
    error.data[QStringLiteral("text")] = QStringLiteral("boom");
    writer.onEvent(error);
    Action type;
    type.type = Action::Type::TypeText;
    type.zoneId = QStringLiteral("z1");
    type.text = QStringLiteral("hello");
    ActionResult ok;
    ok.success = true;
    ok.startNs = 1200 * kMs;
    writer.onAction(type, ok);
    Action click2;
    click2.type = Action::Type::LeftClick;
    click2.point = QPoint(5, 5);
    ActionResult failed;
    failed.success = false;
    failed.error = QStringLiteral("no such zone");
    failed.startNs = 1800 * kMs;
    writer.onAction(click2, failed);
    writer.onDirectorRecord(QJsonObject{{QStringLiteral("t_ns"), double(900 * kMs)},
                                        {QStringLiteral("type"), QStringLiteral("decision")},
                                        {QStringLiteral("decision"), QStringLiteral("click OK")}});
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("t_ns"), double(1600 * kMs)},
                    {QStringLiteral("type"), QStringLiteral("model_call")},
                    {QStringLiteral("image"), keyFrameFile(40)},
                    {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 1200},
                                                          {QStringLiteral("cost_usd"), 0.02}}}});
    writer.writeKeyFrame(Frame{40, m_frameTimes.at(39), syntheticFrame(kSize, 39), {}},
                         QStringLiteral("tier2"));
    writer.setOutcome(QStringLiteral("completed"));
    writer.stop();
    m_session = writer.sessionPath();
}

void TestSessionReader::roundTrip()
{
    SessionReader reader;
    QVERIFY(reader.open(m_session));
    QVERIFY2(reader.problems().isEmpty(), qPrintable(reader.problems().join(QLatin1Char('\n'))));
    QCOMPARE(reader.task(), QStringLiteral("round trip"));
    QCOMPARE(reader.screenSize(), kSize);
    QCOMPARE(reader.metadata()
                 .value(QStringLiteral("outcome"))
                 .toObject()
                 .value(QStringLiteral("status"))
                 .toString(),
             QStringLiteral("completed"));
    QVERIFY(reader.durationNs() >= 199 * 20 * kMs);

    // Cursor: exact positions and shapes at sampled times.
    QCOMPARE(reader.cursorSamples().size(), 200);
    for (int i : {0, 1, 57, 99, 100, 199}) {
        const auto s = reader.cursorAt(i * 20 * kMs + 5 * kMs);
        QVERIFY(s);
        QCOMPARE(s->pos, QPoint(i, 2 * i));
        QCOMPARE(s->shape, i < 100 ? QStringLiteral("left_ptr") : QStringLiteral("xterm"));
    }
    QVERIFY(!reader.cursorAt(-1));
    const QList<CursorSample> trail = reader.cursorTrail(1000 * kMs, 100 * kMs);
    QCOMPARE(trail.size(), 5); // 920, 940, 960, 980, 1000 ms
    QCOMPARE(trail.last().pos, QPoint(50, 100));

    // Events, actions, Director, key frames.
    QCOMPARE(reader.events().size(), 3);
    QVERIFY(reader.events().first().kind == SpatialEvent::Kind::ZoneClick);
    QCOMPARE(reader.events().first().zoneId, QStringLiteral("z0"));
    QCOMPARE(reader.events().first().data.value(QStringLiteral("button")).toString(), QStringLiteral("left"));
    QCOMPARE(reader.eventCountAt(999 * kMs), 0);
    QCOMPARE(reader.eventCountAt(1500 * kMs), 2);
    QCOMPARE(reader.actions().size(), 2);
    QCOMPARE(reader.actions().first().action.value(QStringLiteral("text")).toString(),
             QStringLiteral("hello"));
    QVERIFY(reader.actions().first().success);
    QVERIFY(!reader.actions().last().success);
    QCOMPARE(reader.directorRecords().size(), 2);
    QVERIFY(!reader.directorStepAt(800 * kMs));
    QCOMPARE(reader.directorStepAt(1000 * kMs)->summary, QStringLiteral("click OK"));
    QCOMPARE(reader.directorStepAt(5000 * kMs)->type, QStringLiteral("model_call"));
    QCOMPARE(reader.keyFrames().size(), 1);
    QCOMPARE(reader.keyFrames().first().reason, QStringLiteral("tier2"));
    QVERIFY(meanAbsDiff(reader.keyFrameImage(reader.keyFrames().first()), syntheticFrame(kSize, 39)) < 1.0);

    // Markers: click (event), typing (action), tier 2 analysis, model call, errors (event and failed action).
    QSet<Marker::Kind> kinds;
    for (const Marker& m : reader.markers())
        kinds.insert(m.kind);
    for (Marker::Kind k : {Marker::Kind::Click, Marker::Kind::Typing, Marker::Kind::Analysis,
                           Marker::Kind::ModelCall, Marker::Kind::Error, Marker::Kind::Decision})
        QVERIFY2(kinds.contains(k), qPrintable(toString(k)));
    QCOMPARE(reader.log().size(), 3 + 2 + 2);
    for (qsizetype i = 1; i < reader.log().size(); ++i)
        QVERIFY(reader.log().at(i - 1).tNs <= reader.log().at(i).tNs);

    // Video: every frame decodes near what was drawn, at its own time.
    QVERIFY(reader.hasVideo());
    QCOMPARE(reader.videoSize(), kSize);
    for (int n : {0, 1, 2, 31, 44, 45, 60, 89, 12, 3}) {
        qint64 frameT = -1;
        const QImage image = reader.frameAt(m_frameTimes.at(n) + 10 * kMs, &frameT);
        QCOMPARE(frameT, m_frameTimes.at(n));
        const double diff = meanAbsDiff(image, syntheticFrame(kSize, n));
        QVERIFY2(diff < 5.0, qPrintable(QStringLiteral("frame %1: %2").arg(n).arg(diff)));
    }
    // Before the first frame: the first frame (shown from 0).
    qint64 frameT = -1;
    QVERIFY(meanAbsDiff(reader.frameAt(0, &frameT), syntheticFrame(kSize, 0)) < 5.0);
    QCOMPARE(frameT, qint64(0));
    // Stepping.
    QCOMPARE(reader.nextFrameTime(m_frameTimes.at(10)), m_frameTimes.at(11));
    QCOMPARE(reader.previousFrameTime(m_frameTimes.at(10) + kMs), m_frameTimes.at(9));
    QVERIFY(!reader.nextFrameTime(m_frameTimes.last()));
}

void TestSessionReader::zoneMapAtAnyTime_data()
{
    QTest::addColumn<int>("version");
    for (int v : {1, 2, 3, 4, 5, 6, 49, 50, 51, 52, 99, 101, 120})
        QTest::addRow("v%d", v) << v;
}

void TestSessionReader::zoneMapAtAnyTime()
{
    QFETCH(int, version);
    SessionReader reader;
    QVERIFY(reader.open(m_session));
    QVERIFY(!reader.zoneMapAt(10 * kMs)->size()); // before the first map
    // Just after version v was recorded, and just before v+1.
    for (qint64 t : {version * 30 * kMs, version * 30 * kMs + 29 * kMs}) {
        const ZoneMapPtr map = reader.zoneMapAt(t);
        QCOMPARE(map->version(), quint64(version));
        QCOMPARE(map->screenSize(), kSize);
        const QList<Zone> expected = zonesOfVersion(version);
        QCOMPARE(map->size(), expected.size());
        for (const Zone& z : expected) {
            const Zone* got = map->find(z.id);
            QVERIFY2(got, qPrintable(z.id));
            QCOMPARE(got->bounds, z.bounds);
            QCOMPARE(got->label, z.label);
            QVERIFY(got->type == z.type);
        }
    }
}

void TestSessionReader::corruptAndTruncatedLines()
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("s"));
    QVERIFY(QDir().mkpath(copy));
    for (const QString& name : QDir(m_session).entryList(QDir::Files))
        QVERIFY(QFile::copy(m_session + QLatin1Char('/') + name, copy + QLatin1Char('/') + name));
    // A corrupt line in the middle of events.jsonl, a line without t_ns, and a truncated last line.
    QFile events(copy + QStringLiteral("/events.jsonl"));
    QVERIFY(events.open(QIODevice::ReadOnly));
    QList<QByteArray> lines = events.readAll().split('\n');
    events.close();
    lines.insert(1, "{\"t_ns\":1100000000,\"kind\":\"zone_cl");
    lines.insert(2, "{\"kind\":\"info\"}");
    QVERIFY(events.open(QIODevice::WriteOnly | QIODevice::Truncate));
    events.write(lines.join('\n'));
    events.write("{\"t_ns\":2600000000,\"kind\":\"in"); // no newline: the recorder died mid-line
    events.close();
    QFile cursor(copy + QStringLiteral("/cursor.jsonl"));
    QVERIFY(cursor.open(QIODevice::Append));
    cursor.write("{\"t_ns\":9999,\"x\":\"oops\"}\nnot json at all\n");
    cursor.close();

    SessionReader reader;
    QVERIFY(reader.open(copy));
    const QString problems = reader.problems().join(QLatin1Char('\n'));
    QVERIFY2(problems.contains(QStringLiteral("events.jsonl line 2 is corrupt")), qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("events.jsonl line 3 has no t_ns")), qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("truncated")), qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("cursor.jsonl line 201")), qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("cursor.jsonl line 202 is corrupt")), qPrintable(problems));
    QCOMPARE(reader.problems().size(), 5);
    // The good lines are all there.
    QCOMPARE(reader.events().size(), 3);
    QCOMPARE(reader.cursorSamples().size(), 200);
    QVERIFY(reader.hasVideo());
}

void TestSessionReader::missingFiles()
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("s"));
    QVERIFY(QDir().mkpath(copy));
    for (const QString& name : QDir(m_session).entryList(QDir::Files)) {
        if (name != QStringLiteral("session.mp4") && name != QStringLiteral("zones.jsonl"))
            QVERIFY(QFile::copy(m_session + QLatin1Char('/') + name, copy + QLatin1Char('/') + name));
    }
    SessionReader reader;
    QVERIFY(reader.open(copy));
    const QString problems = reader.problems().join(QLatin1Char('\n'));
    QVERIFY2(problems.contains(QStringLiteral("session.mp4 is missing")), qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("zones.jsonl is missing")), qPrintable(problems));
    QVERIFY(!reader.hasVideo());
    QVERIFY(reader.frameAt(1000 * kMs).isNull());
    QVERIFY(reader.zoneMapAt(1000 * kMs)->isEmpty());
    QCOMPARE(reader.cursorSamples().size(), 200); // the rest still works
    QCOMPARE(reader.events().size(), 3);
}

void TestSessionReader::corruptMetadataAndVideo()
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("s"));
    QVERIFY(QDir().mkpath(copy));
    for (const QString& name : QDir(m_session).entryList(QDir::Files))
        QVERIFY(QFile::copy(m_session + QLatin1Char('/') + name, copy + QLatin1Char('/') + name));
    for (const QString& name : {QStringLiteral("metadata.json"), QStringLiteral("session.mp4")}) {
        QFile f(copy + QLatin1Char('/') + name);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{ this is not what it should be");
    }
    SessionReader reader;
    QVERIFY(reader.open(copy));
    const QString problems = reader.problems().join(QLatin1Char('\n'));
    QVERIFY2(problems.contains(QStringLiteral("metadata.json is corrupt")), qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("session.mp4 cannot be read")), qPrintable(problems));
    QVERIFY(reader.task().isEmpty());
    QVERIFY(reader.durationNs() > 0); // from the streams
    QCOMPARE(reader.cursorSamples().size(), 200);
}

// Files a hostile but fair user can leave in a session folder: each is a clear problem, nothing blocks or
// crashes, and everything else still reads.
void TestSessionReader::hostileFiles()
{
    QTemporaryDir dir;
    const QString copy = dir.filePath(QStringLiteral("s"));
    QVERIFY(QDir().mkpath(copy));
    for (const QString& name : QDir(m_session).entryList(QDir::Files)) {
        if (name != QStringLiteral("session.mp4"))
            QVERIFY(QFile::copy(m_session + QLatin1Char('/') + name, copy + QLatin1Char('/') + name));
    }
    // session.mp4 is a FIFO nobody writes to: opening it used to block forever.
    QCOMPARE(::mkfifo(QFile::encodeName(copy + QStringLiteral("/session.mp4")).constData(), 0600), 0);
    // metadata.json holds valid JSON, but an array.
    QFile metadata(copy + QStringLiteral("/metadata.json"));
    QVERIFY(metadata.open(QIODevice::WriteOnly | QIODevice::Truncate));
    metadata.write("[1, 2, 3]\n");
    metadata.close();
    // A zone snapshot with an absurd screen (used to allocate ~10^15 grid cells) and an array line.
    QFile zones(copy + QStringLiteral("/zones.jsonl"));
    QVERIFY(zones.open(QIODevice::Append));
    zones.write("{\"t_ns\":5000000000,\"version\":999,\"kind\":\"snapshot\",\"screen\":[2147483647,"
                "2147483647],\"zones\":[{\"id\":\"far\",\"type\":\"button\",\"bounds\":{\"x\":"
                "2147480000,\"y\":2147480000,\"width\":100,\"height\":100}}]}\n");
    zones.write("[{\"t_ns\":1}]\n");
    zones.write("{\"t_ns\":1e300,\"version\":-5,\"kind\":\"delta\"}\n");
    zones.close();

    SessionReader reader;
    QVERIFY(reader.open(copy));
    const QString problems = reader.problems().join(QLatin1Char('\n'));
    QVERIFY2(problems.contains(QStringLiteral("session.mp4 is not a regular file")), qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral(
                 "metadata.json is corrupt (valid JSON, but an array where an object is expected)")),
             qPrintable(problems));
    QVERIFY2(!problems.contains(QStringLiteral("no error occurred")), qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("zone snapshot with an impossible screen size 2147483647 x "
                                              "2147483647")),
             qPrintable(problems));
    QVERIFY2(problems.contains(QStringLiteral("valid JSON, but an array where an object is expected")),
             qPrintable(problems));
    QVERIFY(!reader.hasVideo());
    QCOMPARE(reader.cursorSamples().size(), 200);
    // The zone maps before the bad lines are intact; the huge time was clamped, not wrapped negative.
    QCOMPARE(reader.zoneMapAt(120 * 30 * kMs)->version(), quint64(120));
    QVERIFY(reader.durationNs() > 0);
    const ZoneMapPtr last = reader.zoneMapAt(std::numeric_limits<qint64>::max());
    QCOMPARE(last->screenSize(), kSize);
}

// 100k zone deltas after one snapshot took minutes to export (every seek replayed every delta since the
// snapshot); the journal now keeps checkpoints. Every moment still reconstructs exactly.
void TestSessionReader::manyDeltasAfterOneSnapshot()
{
    ZoneJournal journal;
    QList<Zone> truth{
        makeZone(QStringLiteral("base"), QRect(0, 0, 10, 10), ZoneType::Button, QStringLiteral("B"))};
    auto zonesJson = [](const QList<Zone>& zones) {
        QJsonArray a;
        for (const Zone& z : zones)
            a.append(toJson(z));
        return a;
    };
    QString error;
    QVERIFY2(journal.addLine(0,
                             QJsonObject{{QStringLiteral("version"), 1},
                                         {QStringLiteral("kind"), QStringLiteral("snapshot")},
                                         {QStringLiteral("screen"), QJsonArray{640, 480}},
                                         {QStringLiteral("zones"), zonesJson(truth)}},
                             &error),
             qPrintable(error));
    QList<QList<Zone>> states{truth};
    const int deltas = 3000;
    for (int v = 2; v <= deltas + 1; ++v) {
        QJsonObject line{{QStringLiteral("version"), v}, {QStringLiteral("kind"), QStringLiteral("delta")}};
        const Zone added = makeZone(QStringLiteral("z%1").arg(v), QRect(v % 600, v % 400, 8, 8),
                                    ZoneType::Static, QStringLiteral("n%1").arg(v));
        truth << added;
        line[QStringLiteral("added")] = zonesJson({added});
        if (v % 3 == 0) { // relabel the base zone
            truth.first().label = QStringLiteral("B%1").arg(v);
            line[QStringLiteral("changed")] = zonesJson({truth.first()});
        }
        if (v % 5 == 0) { // remove an older zone
            const QString id = truth.at(1).id;
            truth.removeAt(1);
            line[QStringLiteral("removed")] = QJsonArray{id};
        }
        QVERIFY2(journal.addLine(qint64(v) * kMs, line, &error), qPrintable(error));
        states << truth;
    }
    for (int v : {1, 2, 31, 32, 33, 34, 64, 65, 999, 1000, 1001, 2047, 2048, 2049, deltas, deltas + 1}) {
        const ZoneMapPtr map = journal.mapAt(qint64(v) * kMs + kMs / 2);
        QCOMPARE(map->version(), quint64(v));
        QCOMPARE(map->screenSize(), QSize(640, 480));
        const QList<Zone>& expected = states.at(v - 1);
        QCOMPARE(map->size(), expected.size());
        for (const Zone& z : expected) {
            const Zone* got = map->find(z.id);
            QVERIFY2(got, qPrintable(z.id));
            QCOMPARE(got->label, z.label);
        }
    }
}

// A session of one or two frames ("cannot seek: Operation not permitted" was reported on one): every
// moment shows a frame, in any order of requests, and the reader reports no problem.
void TestSessionReader::veryShortSession_data()
{
    QTest::addColumn<int>("frames");
    QTest::newRow("one frame") << 1;
    QTest::newRow("two frames") << 2;
    QTest::newRow("three frames") << 3;
}

void TestSessionReader::veryShortSession()
{
    QFETCH(int, frames);
    QTemporaryDir dir;
    SessionWriterOptions o;
    o.sessionPath = dir.filePath(QStringLiteral("short"));
    o.maxFrameLagMs = 0;
    o.metadataIntervalMs = 0;
    {
        SessionWriter writer(o);
        writer.start();
        for (int n = 0; n < frames; ++n)
            writer.onFrame(Frame{quint64(n + 1), (200 + 40 * n) * kMs, syntheticFrame(kSize, n), {}});
        writer.onCursor(CursorSample{3000 * kMs, QPoint(1, 1), {}});
        writer.stop();
    }
    SessionReader reader;
    QVERIFY(reader.open(o.sessionPath));
    QVERIFY2(reader.problems().isEmpty(), qPrintable(reader.problems().join(QLatin1Char('\n'))));
    QVERIFY(reader.hasVideo());
    for (qint64 t : {qint64(0), 3000 * kMs, 200 * kMs, 10'000 * kMs, qint64(0), 240 * kMs, 1000 * kMs}) {
        qint64 frameT = -1;
        const QImage image = reader.frameAt(t, &frameT);
        QVERIFY2(!image.isNull(), qPrintable(QStringLiteral("t %1 ms").arg(t / kMs)));
        const int expected = t < 200 * kMs ? 0 : int(std::min<qint64>((t / kMs - 200) / 40, frames - 1));
        QVERIFY(frameT >= 0);
        const double diff = meanAbsDiff(image, syntheticFrame(kSize, expected));
        QVERIFY2(diff < 6.0, qPrintable(QStringLiteral("t %1 ms: %2").arg(t / kMs).arg(diff)));
    }
}

void TestSessionReader::notAFolder()
{
    SessionReader reader;
    QVERIFY(!reader.open(m_dir.filePath(QStringLiteral("nope"))));
    QVERIFY(reader.problems().join(QString()).contains(QStringLiteral("does not exist")));
    QVERIFY(!reader.open(m_session + QStringLiteral("/metadata.json")));
    QVERIFY(reader.problems().join(QString()).contains(QStringLiteral("not a readable folder")));
    QVERIFY(reader.frameAt(0).isNull());
    QVERIFY(!reader.cursorAt(0));
}

void TestSessionReader::killedRecorder()
{
    QTemporaryDir dir;
    const QString folder = dir.filePath(QStringLiteral("killed"));
    QProcess child;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("CIU_RECORD_CHILD"), folder);
    child.setProcessEnvironment(env);
    child.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    child.start(QCoreApplication::applicationFilePath(), {});
    QVERIFY(child.waitForStarted());
    // Let it record ~3 s (at least 60 frames), then SIGKILL it.
    qint64 lastReportedMs = -1;
    int frames = 0;
    QElapsedTimer waited;
    waited.start();
    while (frames < 90 && waited.elapsed() < 60'000) {
        if (!child.waitForReadyRead(5000))
            break;
        while (child.canReadLine()) {
            const QList<QByteArray> parts = child.readLine().trimmed().split(' ');
            if (parts.size() == 4 && parts.at(0) == "frames") {
                frames = parts.at(1).toInt();
                lastReportedMs = parts.at(3).toLongLong();
            }
        }
    }
    QVERIFY2(frames >= 90, "the recorder child did not record");
    auto outcomeOf = [](const SessionReader& r) {
        return r.metadata()
            .value(QStringLiteral("outcome"))
            .toObject()
            .value(QStringLiteral("status"))
            .toString();
    };
    {
        SessionReader live; // while the recorder runs, its session is "recording"
        QVERIFY(live.open(folder));
        QCOMPARE(outcomeOf(live), QStringLiteral("recording"));
    }
    child.kill(); // SIGKILL: no destructor, no trailer, no final metadata
    QVERIFY(child.waitForFinished());
    QCOMPARE(child.exitStatus(), QProcess::CrashExit);

    SessionReader reader;
    QVERIFY(reader.open(folder));
    for (const QString& p : reader.problems()) // at most a truncated last line
        QVERIFY2(p.contains(QStringLiteral("truncated")), qPrintable(p));
    QCOMPARE(reader.metadata()
                 .value(QStringLiteral("recording"))
                 .toObject()
                 .value(QStringLiteral("state"))
                 .toString(),
             QStringLiteral("recording"));
    // The report says what happened instead of a blank outcome.
    QCOMPARE(outcomeOf(reader), QStringLiteral("interrupted"));
    QVERIFY(reader.metadata()
                .value(QStringLiteral("outcome"))
                .toObject()
                .value(QStringLiteral("detail"))
                .toString()
                .contains(QStringLiteral("killed")));
    // Cursor lines up to the last report are there.
    QVERIFY(!reader.cursorSamples().isEmpty());
    QVERIFY(reader.cursorSamples().last().tNs / kMs >= lastReportedMs);
    // The video decodes up to near the end: a fragment is closed every second, between key frames too.
    QVERIFY(reader.hasVideo());
    qint64 lastFrame = -1;
    const QImage last = reader.frameAt(reader.durationNs(), &lastFrame);
    QVERIFY(!last.isNull());
    QVERIFY2(
        lastFrame / kMs >= lastReportedMs - 1500,
        qPrintable(
            QStringLiteral("last frame %1 ms, last report %2 ms").arg(lastFrame / kMs).arg(lastReportedMs)));
    QCOMPARE(last.size(), kSize);
    // And an early frame is the right picture.
    qint64 firstFrame = -1;
    const QImage first = reader.frameAt(0, &firstFrame);
    QVERIFY(meanAbsDiff(first, syntheticFrame(kSize, 1)) < 6.0);
}

void TestSessionReader::directorSummaries()
{
    QTemporaryDir dir;
    SessionWriterOptions o;
    o.sessionPath = dir.filePath(QStringLiteral("s"));
    o.metadataIntervalMs = 0;
    SessionWriter writer(o);
    writer.start();
    writer.onDirectorRecord(QJsonObject{
        {QStringLiteral("t_ns"), 100.0},
        {QStringLiteral("type"), QStringLiteral("action_requested")},
        {QStringLiteral("action"), QJsonObject{{QStringLiteral("action"), QStringLiteral("left_click")},
                                               {QStringLiteral("zone_id"), QStringLiteral("z51")}}}});
    const QJsonObject click{{QStringLiteral("action"), QStringLiteral("left_click")},
                            {QStringLiteral("zone_id"), QStringLiteral("z49")}};
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("t_ns"), 150.0},
                    {QStringLiteral("type"), QStringLiteral("decision")},
                    {QStringLiteral("actions"), QJsonArray{QJsonObject{{QStringLiteral("action"), click}}}}});
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("t_ns"), 160.0},
                    {QStringLiteral("type"), QStringLiteral("action_outcome")},
                    {QStringLiteral("status"), QStringLiteral("executed")},
                    {QStringLiteral("message"), QStringLiteral("done")},
                    {QStringLiteral("action"),
                     QJsonObject{{QStringLiteral("action"), click},
                                 {QStringLiteral("description"), QStringLiteral("click OK")}}}});
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("t_ns"), 170.0},
                    {QStringLiteral("type"), QStringLiteral("verification")},
                    {QStringLiteral("met"), false},
                    {QStringLiteral("action"), QJsonObject{{QStringLiteral("action"), click}}}});
    writer.onDirectorRecord(QJsonObject{{QStringLiteral("t_ns"), 200.0},
                                        {QStringLiteral("type"), QStringLiteral("usage")},
                                        {QStringLiteral("calls"), 3}});
    writer.stop();
    SessionReader reader;
    QVERIFY(reader.open(o.sessionPath));
    QCOMPARE(reader.directorRecords().size(), 5);
    // Actions read as actions, not as JSON; other records show their fields without t_ns and type.
    QCOMPARE(reader.directorRecords().at(0).summary, QStringLiteral("left_click zone z51"));
    QCOMPARE(reader.directorRecords().at(1).summary, QStringLiteral("left_click zone z49"));
    QCOMPARE(reader.directorRecords().at(2).summary, QStringLiteral("click OK (executed, done)"));
    QCOMPARE(reader.directorRecords().at(3).summary, QStringLiteral("left_click zone z49 (not met)"));
    QCOMPARE(reader.directorRecords().at(4).summary, QStringLiteral("{\"calls\":3}"));
}

int main(int argc, char* argv[])
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    if (qEnvironmentVariableIsSet("CIU_RECORD_CHILD"))
        return recordChild(qEnvironmentVariable("CIU_RECORD_CHILD"));
    TestSessionReader test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}

#include "tst_sessionreader.moc"
