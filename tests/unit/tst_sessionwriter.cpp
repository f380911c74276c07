// SessionWriter: the session folder and its files, line format, privacy, disk errors, budget, retention.

#include "core/model/metatypes.h"
#include "core/model/secrets.h"
#include "core/replay/atomicfile.h"
#include "core/replay/sessionformat.h"
#include "core/replay/sessionreader.h"
#include "core/replay/sessionretention.h"
#include "core/replay/sessionwriter.h"
#include "core/replay/videodecoder.h"
#include "core/replay/zonejournal.h"
#include "replaytestutil.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStorageInfo>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/resource.h>

using namespace ciu;
using namespace ciu::replay;

namespace {

// A small tmpfs of its own: a real disk that fills up. Needs the right to mount (root in the test machine);
// otherwise the tests that need it are skipped.
class TmpfsMount
{
public:
    TmpfsMount(const QString& path, int sizeKiB)
        : m_path(path)
    {
        QDir().mkpath(path);
        QProcess mount;
        mount.start(QStringLiteral("mount"),
                    {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                     QStringLiteral("size=%1k").arg(sizeKiB), QStringLiteral("tmpfs"), path});
        m_mounted = mount.waitForFinished(10000) && mount.exitStatus() == QProcess::NormalExit &&
                    mount.exitCode() == 0;
    }
    ~TmpfsMount()
    {
        if (m_mounted)
            QProcess::execute(QStringLiteral("umount"), {QStringLiteral("-l"), m_path});
    }
    bool isMounted() const { return m_mounted; }

private:
    QString m_path;
    bool m_mounted = false;
};

// Incompressible pixels: every frame costs its full size in the video.
QImage noiseFrame(QSize size, quint32 seed)
{
    QImage image(size, QImage::Format_RGB32);
    QRandomGenerator random(seed);
    for (int y = 0; y < size.height(); ++y) {
        auto* row = reinterpret_cast<quint32*>(image.scanLine(y));
        for (int x = 0; x < size.width(); ++x)
            row[x] = 0xff000000u | (random.generate() & 0xffffffu);
    }
    return image;
}

} // namespace

class TestSessionWriter : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void createsSessionFolder();
    void defaultRoot();
    void linesStartWithTimeAndAreFlushed();
    void jsonLine_data();
    void jsonLine();
    void metadataUpdates();
    void secretsScrubbed_data();
    void secretsScrubbed();
    void secretsNeverWritten();
    void passwordMask();
    void passwordMaskOff();
    void frameRatePolicy();
    void fullDisk();
    void cannotCreateFolder();
    void sizeBudget();
    void retention();
    void retentionByAge();
    void realFullDisk();
    void atomicWriteKeepsLastGoodCopy();
    void hugeRecordsAreCapped();
    void lowDiskSpace();
    void sizeBudgetKeepsPlayableVideo();
    void environmentSecretsInNoFile();
    void passwordMaskEverywhere();
    void zoneJournalSkipsLastSeenOnly();
    void stopTwiceAndAfterFailure();

private:
    static QList<QJsonObject> readLines(const QString& path, QList<QByteArray>* raw = nullptr);
    static QJsonObject readMetadata(const QString& sessionPath);
    static SessionWriterOptions options(const QString& dir);
};

void TestSessionWriter::initTestCase()
{
    registerMetaTypes();
    QStandardPaths::setTestModeEnabled(true);
}

SessionWriterOptions TestSessionWriter::options(const QString& dir)
{
    SessionWriterOptions o;
    o.sessionPath = dir + QStringLiteral("/s");
    o.maxFrameLagMs = 0; // synthetic frame times are not from the clock
    o.metadataIntervalMs = 0;
    o.budgetCheckIntervalMs = 0; // every write
    o.minFreeBytes = 0;
    return o;
}

QList<QJsonObject> TestSessionWriter::readLines(const QString& path, QList<QByteArray>* raw)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QJsonObject> out;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        if (raw)
            *raw << line;
        out << QJsonDocument::fromJson(line).object();
    }
    return out;
}

QJsonObject TestSessionWriter::readMetadata(const QString& sessionPath)
{
    QFile f(sessionPath + QStringLiteral("/metadata.json"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

void TestSessionWriter::createsSessionFolder()
{
    QTemporaryDir root;
    SessionWriterOptions o;
    o.rootDir = root.path();
    o.task = QStringLiteral("open the settings");
    SessionWriter writer(o);
    QSignalSpy started(&writer, &SessionWriter::started);
    writer.start();
    QCOMPARE(started.size(), 1);
    QCOMPARE(writer.state(), SessionWriter::State::Recording);
    const QString path = writer.sessionPath();
    QCOMPARE(started.first().first().toString(), path);
    QCOMPARE(QFileInfo(path).absolutePath(), QDir(root.path()).absolutePath());
    QVERIFY2(isSessionFolderName(QFileInfo(path).fileName()), qPrintable(path));
    for (const QString& name : {files::metadata, files::cursor, files::zones, files::events, files::actions,
                                files::director, files::framesIndex})
        QVERIFY2(QFileInfo::exists(path + QLatin1Char('/') + name), qPrintable(name));
    QVERIFY(QFileInfo(path + QStringLiteral("/frames")).isDir());
    QJsonObject meta = readMetadata(path);
    QCOMPARE(meta.value(QStringLiteral("task")).toString(), o.task);
    QCOMPARE(meta.value(QStringLiteral("recording")).toObject().value(QStringLiteral("state")).toString(),
             QStringLiteral("recording"));
    QVERIFY(
        !meta.value(QStringLiteral("versions")).toObject().value(QStringLiteral("qt")).toString().isEmpty());

    // A second writer in the same second gets its own folder.
    SessionWriter second(o);
    second.start();
    QVERIFY(second.sessionPath() != path);
    second.stop();

    writer.onFrame(Frame{1, 0, test::syntheticFrame(QSize(64, 48), 1), {}});
    QSignalSpy stopped(&writer, &SessionWriter::stopped);
    writer.stop();
    QCOMPARE(stopped.size(), 1);
    QCOMPARE(writer.state(), SessionWriter::State::Finished);
    meta = readMetadata(path);
    QCOMPARE(meta.value(QStringLiteral("recording")).toObject().value(QStringLiteral("state")).toString(),
             QStringLiteral("finished"));
    QVERIFY(!meta.value(QStringLiteral("end")).toString().isEmpty());
    QCOMPARE(meta.value(QStringLiteral("screen")).toObject().value(QStringLiteral("width")).toInt(), 64);
    QVERIFY(QFileInfo(path + QStringLiteral("/session.mp4")).size() > 0);
}

void TestSessionWriter::defaultRoot()
{
    const QString root = defaultSessionRoot();
    QVERIFY(root.endsWith(QStringLiteral("/sessions")));
    QVERIFY(root.startsWith(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)));
}

void TestSessionWriter::linesStartWithTimeAndAreFlushed()
{
    QTemporaryDir dir;
    SessionWriter writer(options(dir.path()));
    writer.start();
    writer.onCursor(CursorSample{1000, QPoint(5, 6), QStringLiteral("left_ptr")});
    writer.onCursor(CursorSample{2000, QPoint(5, 6), QStringLiteral("left_ptr")}); // no change: not written
    writer.onCursor(CursorSample{3000, QPoint(7, 8), QStringLiteral("left_ptr")});
    SpatialEvent e;
    e.kind = SpatialEvent::Kind::ZoneClick;
    e.tNs = 4000;
    e.zoneId = QStringLiteral("z1");
    writer.onEvent(e);
    Action a;
    a.type = Action::Type::LeftClick;
    a.zoneId = QStringLiteral("z1");
    ActionResult r;
    r.success = true;
    r.startNs = 5000;
    writer.onAction(a, r);
    writer.onDirectorRecord(QJsonObject{{QStringLiteral("type"), QStringLiteral("decision")},
                                        {QStringLiteral("t_ns"), 6000},
                                        {QStringLiteral("a"), 1}});
    // Read while still recording: every line is already on disk.
    const QString path = writer.sessionPath();
    for (const QString& name : {files::cursor, files::events, files::actions, files::director}) {
        QList<QByteArray> raw;
        const QList<QJsonObject> lines = readLines(path + QLatin1Char('/') + name, &raw);
        QVERIFY2(!lines.isEmpty(), qPrintable(name));
        for (const QByteArray& line : raw)
            QVERIFY2(line.startsWith("{\"t_ns\":"), line.constData());
    }
    const QList<QJsonObject> cursor = readLines(path + QStringLiteral("/cursor.jsonl"));
    QCOMPARE(cursor.size(), 2);
    QCOMPARE(cursor.at(1).value(QStringLiteral("t_ns")).toInteger(), 3000);
    QCOMPARE(cursor.at(0).value(QStringLiteral("shape")).toString(), QStringLiteral("left_ptr"));
    QVERIFY(!cursor.at(1).contains(QStringLiteral("shape"))); // unchanged shape is not repeated
    const QList<QJsonObject> director = readLines(path + QStringLiteral("/director.jsonl"));
    QCOMPARE(director.first().value(QStringLiteral("t_ns")).toInteger(), 6000);
    QCOMPARE(writer.stats().cursorSamples, 2);
    writer.stop();
}

void TestSessionWriter::jsonLine_data()
{
    QTest::addColumn<qint64>("t");
    QTest::addColumn<QJsonObject>("object");
    QTest::addColumn<QByteArray>("line");
    QTest::newRow("empty") << qint64(5) << QJsonObject() << QByteArray("{\"t_ns\":5}\n");
    QTest::newRow("keys after t_ns") << qint64(12)
                                     << QJsonObject{{QStringLiteral("a"), 1},
                                                    {QStringLiteral("b"), QStringLiteral("x")}}
                                     << QByteArray("{\"t_ns\":12,\"a\":1,\"b\":\"x\"}\n");
    QTest::newRow("t_ns in the object is replaced")
        << qint64(7) << QJsonObject{{QStringLiteral("t_ns"), 99}, {QStringLiteral("z"), true}}
        << QByteArray("{\"t_ns\":7,\"z\":true}\n");
    QTest::newRow("large time stays exact")
        << qint64(3'600'123'456'789) << QJsonObject() << QByteArray("{\"t_ns\":3600123456789}\n");
}

void TestSessionWriter::jsonLine()
{
    QFETCH(qint64, t);
    QFETCH(QJsonObject, object);
    QFETCH(QByteArray, line);
    QCOMPARE(ciu::replay::jsonLine(t, object), line);
}

void TestSessionWriter::metadataUpdates()
{
    QTemporaryDir dir;
    SessionWriterOptions o = options(dir.path());
    o.config = QJsonObject{{QStringLiteral("provider"), QStringLiteral("local")}};
    SessionWriter writer(o);
    writer.start();
    writer.setTask(QStringLiteral("new task"));
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("type"), QStringLiteral("model_call")},
                    {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 1000},
                                                          {QStringLiteral("output_tokens"), 200},
                                                          {QStringLiteral("cost_usd"), 0.01}}}});
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 500},
                                                          {QStringLiteral("output_tokens"), 50},
                                                          {QStringLiteral("cost_usd"), 0.005}}}});
    writer.setOutcome(QStringLiteral("completed"), QStringLiteral("done in 3 steps"));
    const QJsonObject meta = readMetadata(writer.sessionPath());
    QCOMPARE(meta.value(QStringLiteral("task")).toString(), QStringLiteral("new task"));
    QCOMPARE(meta.value(QStringLiteral("config")).toObject().value(QStringLiteral("provider")).toString(),
             QStringLiteral("local"));
    QCOMPARE(meta.value(QStringLiteral("outcome")).toObject().value(QStringLiteral("status")).toString(),
             QStringLiteral("completed"));
    const QJsonObject usage = meta.value(QStringLiteral("usage")).toObject();
    QCOMPARE(usage.value(QStringLiteral("input_tokens")).toInt(), 1500);
    QCOMPARE(usage.value(QStringLiteral("output_tokens")).toInt(), 250);
    QCOMPARE(usage.value(QStringLiteral("model_calls")).toInt(), 2);
    QVERIFY(qAbs(usage.value(QStringLiteral("cost_usd")).toDouble() - 0.015) < 1e-9);
    // Written atomically: no temporary files left beside it (only the space reserved for the final
    // metadata while recording, gone when it stops).
    QStringList leftovers = QDir(writer.sessionPath()).entryList(QDir::Files | QDir::Hidden);
    QVERIFY(leftovers.removeOne(QStringLiteral(".space-reserve")));
    for (const QString& f : leftovers)
        QVERIFY2(f == files::metadata || f.endsWith(QStringLiteral(".jsonl")), qPrintable(f));
    writer.stop();
    leftovers = QDir(writer.sessionPath()).entryList(QDir::Files | QDir::Hidden);
    for (const QString& f : leftovers)
        QVERIFY2(f == files::metadata || f.endsWith(QStringLiteral(".jsonl")), qPrintable(f));
}

void TestSessionWriter::secretsScrubbed_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("secret");
    QTest::newRow("anthropic key") << "key sk-ant-api03-AbCdEf012345_-xyz here" << true;
    QTest::newRow("openai key") << "sk-proj-abcdefghijklmnopqrstuvwx" << true;
    QTest::newRow("bearer") << "Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123" << true;
    QTest::newRow("ordinary text") << "ask-me about sk-8 skiing" << false;
    QTest::newRow("short sk-") << "sk-abc" << false;
}

void TestSessionWriter::secretsScrubbed()
{
    QFETCH(QString, text);
    QFETCH(bool, secret);
    QCOMPARE(looksLikeSecret(text), secret);
    const QString scrubbed = scrubSecrets(text);
    QCOMPARE(scrubbed != text, secret);
    QVERIFY(!looksLikeSecret(scrubbed));
}

void TestSessionWriter::secretsNeverWritten()
{
    QTemporaryDir dir;
    SessionWriterOptions o = options(dir.path());
    const QString key = QStringLiteral("sk-ant-api03-SECRETSECRETSECRET0123456789");
    o.task = QStringLiteral("use ") + key;
    o.config = QJsonObject{{QStringLiteral("api_key"), key}};
    SessionWriter writer(o);
    writer.start();
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("prompt"), QString(QStringLiteral("x-api-key: ") + key)}});
    SpatialEvent e;
    e.kind = SpatialEvent::Kind::ZoneType;
    e.data[QStringLiteral("text")] = key;
    writer.onEvent(e);
    Action a;
    a.type = Action::Type::TypeText;
    a.text = key;
    writer.onAction(a, ActionResult{});
    writer.stop();
    QDir session(writer.sessionPath());
    for (const QString& name : session.entryList(QDir::Files)) {
        QFile f(session.filePath(name));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray data = f.readAll();
        QVERIFY2(!data.contains("SECRETSECRET"), qPrintable(name));
    }
}

void TestSessionWriter::passwordMask()
{
    QTemporaryDir dir;
    SessionWriter writer(options(dir.path()));
    writer.start();
    Zone password;
    password.id = QStringLiteral("pw");
    password.type = ZoneType::TextField;
    password.bounds = QRect(10, 10, 40, 20);
    password.isPassword = true;
    Zone name;
    name.id = QStringLiteral("name");
    name.type = ZoneType::TextField;
    name.bounds = QRect(10, 40, 40, 20);
    writer.onZoneMap(std::make_shared<const ZoneMap>(1, 10, QSize(100, 80), QList<Zone>{password, name}));

    QImage white(100, 80, QImage::Format_RGB32);
    white.fill(Qt::white);
    writer.writeKeyFrame(Frame{7, 100, white, {}}, QStringLiteral("tier1"));
    SpatialEvent typed;
    typed.kind = SpatialEvent::Kind::ZoneType;
    typed.zoneId = QStringLiteral("pw");
    typed.data[QStringLiteral("text")] = QStringLiteral("hunter2");
    writer.onEvent(typed);
    typed.zoneId = QStringLiteral("name");
    typed.data[QStringLiteral("text")] = QStringLiteral("alice");
    writer.onEvent(typed);
    Action a;
    a.type = Action::Type::TypeText;
    a.zoneId = QStringLiteral("pw");
    a.text = QStringLiteral("hunter2");
    writer.onAction(a, ActionResult{});
    writer.stop();

    const QImage saved(writer.sessionPath() + QLatin1Char('/') + keyFrameFile(7));
    QVERIFY(!saved.isNull());
    QCOMPARE(QColor(saved.pixel(20, 20)), QColor(Qt::black)); // inside the password zone
    QCOMPARE(QColor(saved.pixel(20, 50)), QColor(Qt::white)); // the name field is kept
    QCOMPARE(QColor(saved.pixel(5, 5)), QColor(Qt::white));
    QFile events(writer.sessionPath() + QStringLiteral("/events.jsonl"));
    QVERIFY(events.open(QIODevice::ReadOnly));
    const QByteArray eventData = events.readAll();
    QVERIFY(!eventData.contains("hunter2"));
    QVERIFY(eventData.contains("alice"));
    QFile actions(writer.sessionPath() + QStringLiteral("/actions.jsonl"));
    QVERIFY(actions.open(QIODevice::ReadOnly));
    QVERIFY(!actions.readAll().contains("hunter2"));
    const QList<QJsonObject> index = readLines(writer.sessionPath() + QStringLiteral("/frames/index.jsonl"));
    QCOMPARE(index.size(), 1);
    QCOMPARE(index.first().value(QStringLiteral("file")).toString(), keyFrameFile(7));
    QCOMPARE(index.first().value(QStringLiteral("reason")).toString(), QStringLiteral("tier1"));
}

void TestSessionWriter::passwordMaskOff()
{
    QTemporaryDir dir;
    SessionWriterOptions o = options(dir.path());
    o.maskPasswords = false;
    SessionWriter writer(o);
    writer.start();
    Zone password;
    password.id = QStringLiteral("pw");
    password.bounds = QRect(10, 10, 40, 20);
    password.isPassword = true;
    writer.onZoneMap(std::make_shared<const ZoneMap>(1, 10, QSize(100, 80), QList<Zone>{password}));
    QImage white(100, 80, QImage::Format_RGB32);
    white.fill(Qt::white);
    writer.writeKeyFrame(Frame{3, 100, white, {}}, QStringLiteral("model"));
    writer.stop();
    const QImage saved(writer.sessionPath() + QLatin1Char('/') + keyFrameFile(3));
    QCOMPARE(QColor(saved.pixel(20, 20)), QColor(Qt::white));
}

void TestSessionWriter::frameRatePolicy()
{
    QTemporaryDir dir;
    SessionWriterOptions o = options(dir.path());
    o.maxFps = 10;         // frames closer than ~90 ms are skipped
    o.maxFrameLagMs = 500; // frames older than 500 ms on arrival are dropped
    SessionWriter writer(o);
    writer.start();
    const qint64 now = o.clock.nowNs();
    const QImage a = test::syntheticFrame(QSize(64, 48), 1);
    writer.onFrame(Frame{1, now, a, {}});
    writer.onFrame(Frame{2, now + 100'000'000, a, {}}); // same pixels (shared image): not encoded
    writer.onFrame(Frame{
        3, now + 120'000'000, test::syntheticFrame(QSize(64, 48), 2), {}}); // too soon after #1? no: 120 ms
    writer.onFrame(Frame{
        4, now + 130'000'000, test::syntheticFrame(QSize(64, 48), 3), {}}); // 10 ms after #3: rate-limited
    writer.onFrame(
        Frame{5, now - 2'000'000'000, test::syntheticFrame(QSize(64, 48), 4), {}}); // stale: dropped
    const RecordingStats s = writer.stats();
    QCOMPARE(s.framesReceived, 5);
    QCOMPARE(s.framesEncoded, 2);
    QCOMPARE(s.framesUnchanged, 1);
    QCOMPARE(s.framesRateLimited, 1);
    QCOMPARE(s.framesDropped, 1);
    writer.stop();
    const QJsonObject rec = readMetadata(writer.sessionPath()).value(QStringLiteral("recording")).toObject();
    QCOMPARE(rec.value(QStringLiteral("frames_dropped")).toInt(), 1);
    QCOMPARE(rec.value(QStringLiteral("frames_encoded")).toInt(), 2);
}

void TestSessionWriter::fullDisk()
{
    if (!QFileInfo::exists(QStringLiteral("/dev/full")))
        QSKIP("/dev/full is not available");
    QTemporaryDir dir;
    SessionWriterOptions o = options(dir.path());
    QVERIFY(QDir().mkpath(o.sessionPath));
    // events.jsonl goes to a device that is always full (every write fails with ENOSPC).
    QVERIFY(QFile::link(QStringLiteral("/dev/full"), o.sessionPath + QStringLiteral("/events.jsonl")));
    SessionWriter writer(o);
    QSignalSpy failed(&writer, &SessionWriter::recordingFailed);
    writer.start();
    QCOMPARE(writer.state(), SessionWriter::State::Recording);
    for (int i = 0; i < 5; ++i)
        writer.onCursor(CursorSample{i * 1000, QPoint(i, i), {}});
    writer.onFrame(Frame{1, 0, test::syntheticFrame(QSize(64, 48), 1), {}});
    SpatialEvent e;
    e.tNs = 6000;
    writer.onEvent(e);
    QCOMPARE(failed.size(), 1);
    QVERIFY2(failed.first().first().toString().contains(QStringLiteral("events.jsonl")),
             qPrintable(failed.first().first().toString()));
    QCOMPARE(writer.state(), SessionWriter::State::Failed);
    // Everything after the failure is ignored, without a crash or a second signal.
    writer.onCursor(CursorSample{9000, QPoint(99, 99), {}});
    writer.onEvent(e);
    writer.onFrame(Frame{2, 40'000'000, test::syntheticFrame(QSize(64, 48), 2), {}});
    QCOMPARE(failed.size(), 1);
    // What was written before is intact.
    const QList<QJsonObject> cursor = readLines(o.sessionPath + QStringLiteral("/cursor.jsonl"));
    QCOMPARE(cursor.size(), 5);
    const QJsonObject meta = readMetadata(o.sessionPath);
    QCOMPARE(meta.value(QStringLiteral("recording")).toObject().value(QStringLiteral("state")).toString(),
             QStringLiteral("failed"));
    QVERIFY(!meta.value(QStringLiteral("recording"))
                 .toObject()
                 .value(QStringLiteral("error"))
                 .toString()
                 .isEmpty());
    QSignalSpy stopped(&writer, &SessionWriter::stopped);
    writer.stop();
    QCOMPARE(stopped.size(), 1);
}

void TestSessionWriter::cannotCreateFolder()
{
    QTemporaryDir dir;
    QFile blocker(dir.path() + QStringLiteral("/file"));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    SessionWriterOptions o;
    o.sessionPath = dir.path() + QStringLiteral("/file/session"); // under a regular file
    SessionWriter writer(o);
    QSignalSpy failed(&writer, &SessionWriter::recordingFailed);
    QSignalSpy started(&writer, &SessionWriter::started);
    writer.start();
    QCOMPARE(failed.size(), 1);
    QCOMPARE(started.size(), 0);
    QCOMPARE(writer.state(), SessionWriter::State::Failed);
    writer.onCursor(CursorSample{1, QPoint(1, 1), {}}); // ignored, no crash
}

void TestSessionWriter::sizeBudget()
{
    QTemporaryDir dir;
    SessionWriterOptions o = options(dir.path());
    o.maxSessionBytes = 20'000;
    SessionWriter writer(o);
    QSignalSpy failed(&writer, &SessionWriter::recordingFailed);
    writer.start();
    for (int i = 0; i < 2000 && writer.state() == SessionWriter::State::Recording; ++i)
        writer.onCursor(CursorSample{i * 1000, QPoint(i, i), {}});
    QCOMPARE(failed.size(), 1);
    QVERIFY(failed.first().first().toString().contains(QStringLiteral("budget")));
    QVERIFY(QFileInfo(o.sessionPath + QStringLiteral("/cursor.jsonl")).size() < 30'000);
}

void TestSessionWriter::retention()
{
    QTemporaryDir root;
    auto makeSession = [&](const QString& name, int bytes) {
        QDir().mkpath(root.filePath(name));
        QFile meta(root.filePath(name + QStringLiteral("/metadata.json")));
        meta.open(QIODevice::WriteOnly);
        meta.write(QByteArray(bytes, ' '));
    };
    makeSession(QStringLiteral("session_20240101_100000"), 1000);
    makeSession(QStringLiteral("session_20240102_100000"), 1000);
    makeSession(QStringLiteral("session_20240103_100000"), 1000);
    makeSession(QStringLiteral("session_20240104_100000"), 1000);
    QDir().mkpath(
        root.filePath(QStringLiteral("session_20230101_000000"))); // no metadata: not a session, kept
    QDir().mkpath(root.filePath(QStringLiteral("photos")));        // not ours, kept

    // By count: keep 3 (the newest ones).
    QStringList removed = applyRetention(root.path(), RetentionPolicy{3, 0, 0});
    QCOMPARE(removed.size(), 1);
    QVERIFY(removed.first().endsWith(QStringLiteral("session_20240101_100000")));
    // By size: 3 × 1000 bytes > 2500 → the oldest goes, but never the one being recorded.
    removed = applyRetention(root.path(), RetentionPolicy{0, 2500, 0},
                             root.filePath(QStringLiteral("session_20240102_100000")));
    QCOMPARE(removed.size(), 1);
    QVERIFY(removed.first().endsWith(QStringLiteral("session_20240103_100000")));
    QVERIFY(QFileInfo::exists(root.filePath(QStringLiteral("session_20240102_100000"))));
    QVERIFY(QFileInfo::exists(root.filePath(QStringLiteral("session_20230101_000000"))));
    QVERIFY(QFileInfo::exists(root.filePath(QStringLiteral("photos"))));
    QCOMPARE(folderSizeBytes(root.filePath(QStringLiteral("session_20240104_100000"))), 1000);

    // The writer applies the policy when it starts.
    SessionWriterOptions o;
    o.rootDir = root.path();
    o.retention = RetentionPolicy{1, 0, 0};
    SessionWriter writer(o);
    writer.start();
    writer.stop();
    const QStringList left = QDir(root.path()).entryList({QStringLiteral("session_2*")}, QDir::Dirs);
    QCOMPARE(left.size(), 2); // the new session + the one without metadata
    QVERIFY(left.contains(QFileInfo(writer.sessionPath()).fileName()));
}

void TestSessionWriter::stopTwiceAndAfterFailure()
{
    QTemporaryDir dir;
    SessionWriter writer(options(dir.path()));
    writer.stop(); // never started: nothing happens
    QCOMPARE(writer.state(), SessionWriter::State::Idle);
    writer.start();
    writer.stop();
    writer.stop();
    QCOMPARE(writer.state(), SessionWriter::State::Finished);
    writer.onCursor(CursorSample{1, QPoint(1, 1), {}});
    QCOMPARE(writer.stats().cursorSamples, 0);
}

void TestSessionWriter::retentionByAge()
{
    QTemporaryDir root;
    const QDateTime now =
        QDateTime::fromString(QStringLiteral("20240601_120000"), QStringLiteral("yyyyMMdd_HHmmss"));
    for (const QString& name :
         {QStringLiteral("session_20240101_100000"), QStringLiteral("session_20240520_100000"),
          QStringLiteral("session_20240531_100000")}) {
        QDir().mkpath(root.filePath(name));
        QFile meta(root.filePath(name + QStringLiteral("/metadata.json")));
        QVERIFY(meta.open(QIODevice::WriteOnly));
        meta.write("{}");
    }
    QDir().mkpath(root.filePath(QStringLiteral("session_20200101_000000/frames"))); // no metadata: not ours
    QDir().mkpath(root.filePath(QStringLiteral("old_stuff")));

    RetentionPolicy policy;
    policy.maxSessions = 0;
    policy.maxTotalBytes = 0;
    policy.maxAgeDays = 30;
    // The current session is kept whatever its age.
    QStringList removed =
        applyRetention(root.path(), policy, root.filePath(QStringLiteral("session_20240101_100000")), now);
    QVERIFY(removed.isEmpty());
    removed = applyRetention(root.path(), policy, {}, now);
    QCOMPARE(removed.size(), 1);
    QVERIFY(removed.first().endsWith(QStringLiteral("session_20240101_100000")));
    policy.maxAgeDays = 5;
    removed = applyRetention(root.path(), policy, {}, now);
    QCOMPARE(removed.size(), 1);
    QVERIFY(removed.first().endsWith(QStringLiteral("session_20240520_100000")));
    QVERIFY(QFileInfo::exists(root.filePath(QStringLiteral("session_20240531_100000"))));
    QVERIFY(QFileInfo::exists(root.filePath(QStringLiteral("session_20200101_000000"))));
    QVERIFY(QFileInfo::exists(root.filePath(QStringLiteral("old_stuff"))));
    policy.maxAgeDays = 0; // no age limit
    QVERIFY(applyRetention(root.path(), policy, {}, now.addYears(10)).isEmpty());

    // The defaults are sensible: limits on count, total size and age.
    const RetentionPolicy defaults;
    QVERIFY(defaults.maxSessions > 0 && defaults.maxTotalBytes > 0 && defaults.maxAgeDays > 0);
    QCOMPARE(sessionFolderTime(QStringLiteral("session_20240531_100000_2")),
             QDateTime(QDate(2024, 5, 31), QTime(10, 0)));
    QVERIFY(!sessionFolderTime(QStringLiteral("photos")).isValid());
}

void TestSessionWriter::realFullDisk()
{
    QTemporaryDir dir;
    TmpfsMount disk(dir.filePath(QStringLiteral("disk")), 1024);
    if (!disk.isMounted())
        QSKIP("cannot mount a tmpfs here (needs root)");
    SessionWriterOptions o = options(dir.filePath(QStringLiteral("disk")));
    o.maxSessionBytes = 0;
    o.minFreeBytes = 0; // only the write errors of a really full disk stop it
    o.keyFrameIntervalMs = 200;
    o.task = QStringLiteral("fill the disk");
    SessionWriter writer(o);
    QSignalSpy failed(&writer, &SessionWriter::recordingFailed);
    QSignalSpy started(&writer, &SessionWriter::started);
    writer.start();
    QCOMPARE(started.size(), 1);
    const QSize size(320, 240);
    int n = 0;
    for (; n < 400 && writer.state() == SessionWriter::State::Recording; ++n) {
        const qint64 t = qint64(n) * 50'000'000;
        writer.onCursor(CursorSample{t, QPoint(n, n), {}});
        writer.onFrame(Frame{quint64(n + 1), t, noiseFrame(size, quint32(n)), {}});
        if (n % 10 == 0)
            writer.writeKeyFrame(Frame{quint64(n + 1), t, noiseFrame(size, quint32(n)), {}},
                                 QStringLiteral("tier1"));
    }
    QVERIFY2(n < 400, "1 MiB should be full long before 400 noise frames");
    QCOMPARE(failed.size(), 1);
    const QString reason = failed.first().first().toString();
    QVERIFY2(reason.contains(QStringLiteral("No space left")), qPrintable(reason));
    QVERIFY2(reason.startsWith(QStringLiteral("the disk is full")), qPrintable(reason));
    QVERIFY2(reason.contains(writer.sessionPath()), qPrintable(reason));
    QCOMPARE(writer.state(), SessionWriter::State::Failed);
    QCOMPARE(writer.errorString(), reason);
    // Later input is ignored without a crash or a second signal; stop() still reports the end.
    writer.onFrame(Frame{1000, 99'000'000'000, noiseFrame(size, 1000), {}});
    writer.onCursor(CursorSample{99'000'000'000, QPoint(1, 2), {}});
    // The task's outcome still reaches metadata.json after the recording stopped.
    writer.setOutcome(QStringLiteral("stopped"), QStringLiteral("the recording stopped"));
    QSignalSpy stopped(&writer, &SessionWriter::stopped);
    writer.stop();
    QCOMPARE(stopped.size(), 1);
    QCOMPARE(failed.size(), 1);
    // metadata.json is complete (it used to be 0 bytes): task, outcome, and why the recording stopped.
    const QJsonObject meta = readMetadata(writer.sessionPath());
    QCOMPARE(meta.value(QStringLiteral("task")).toString(), QStringLiteral("fill the disk"));
    QCOMPARE(meta.value(QStringLiteral("outcome")).toObject().value(QStringLiteral("status")).toString(),
             QStringLiteral("stopped"));
    const QJsonObject recording = meta.value(QStringLiteral("recording")).toObject();
    QCOMPARE(recording.value(QStringLiteral("state")).toString(), QStringLiteral("failed"));
    QCOMPARE(recording.value(QStringLiteral("error")).toString(), reason);
    // No temporary or reserve file is left behind.
    for (const QString& name :
         QDir(writer.sessionPath()).entryList(QDir::Hidden | QDir::Files | QDir::System))
        QVERIFY2(!name.startsWith(QLatin1Char('.')), qPrintable(name));

    // What was written is kept and readable: the viewer opens the session.
    SessionReader reader;
    QVERIFY2(reader.open(writer.sessionPath()), qPrintable(reader.problems().join(QLatin1Char('\n'))));
    QVERIFY(reader.cursorSamples().size() > 0);
    QVERIFY(reader.hasVideo());
    QVERIFY(!reader.frameAt(0).isNull());
}

// A write that fails half-way (here: past the process's file size limit, a real EFBIG from the kernel)
// leaves the previous complete file and no temporary file.
void TestSessionWriter::atomicWriteKeepsLastGoodCopy()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("metadata.json"));
    QString error;
    QVERIFY2(writeFileAtomically(path, "{\"good\":1}\n", &error), qPrintable(error));
    const QByteArray big(64 * 1024, 'x');
    struct rlimit old = {};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit limit = old;
    limit.rlim_cur = 4096;
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &limit), 0);
    const bool written = writeFileAtomically(path, big, &error);
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, previousHandler);
    QVERIFY(!written);
    QVERIFY2(error.contains(QStringLiteral("cannot write")) && error.contains(path), qPrintable(error));
    QVERIFY(!isDiskFullError(error)); // "File too large" is not a full disk
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("{\"good\":1}\n"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("metadata.json")});
    // And a write that succeeds replaces it completely.
    QVERIFY2(writeFileAtomically(path, big, &error), qPrintable(error));
    QCOMPARE(QFileInfo(path).size(), big.size());
    QVERIFY(isDiskFullError(QStringLiteral("cannot write x: No space left on device")));
}

// A 50 MB model reply was recorded three times in director.jsonl (251 MB of session): every string of a
// record is cut at 64 Ki characters; hostile usage numbers never wrap the totals.
void TestSessionWriter::hugeRecordsAreCapped()
{
    QTemporaryDir dir;
    SessionWriterOptions o = options(dir.path());
    SessionWriter writer(o);
    writer.start();
    const QString huge(5 * 1024 * 1024, QLatin1Char('r'));
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("t_ns"), 1000},
                    {QStringLiteral("type"), QStringLiteral("model_call")},
                    {QStringLiteral("reply"), huge},
                    {QStringLiteral("content"), QJsonArray{QJsonObject{{QStringLiteral("text"), huge}}}},
                    {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), -1e8},
                                                          {QStringLiteral("output_tokens"), 1e300},
                                                          {QStringLiteral("cost_usd"), -2400.0}}}});
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("t_ns"), 2000},
                    {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 10},
                                                          {QStringLiteral("output_tokens"), 5},
                                                          {QStringLiteral("cost_usd"), 0.5}}}});
    writer.stop();
    QVERIFY(QFileInfo(o.sessionPath + QStringLiteral("/director.jsonl")).size() < 300 * 1024);
    const QList<QJsonObject> lines = readLines(o.sessionPath + QStringLiteral("/director.jsonl"));
    QCOMPARE(lines.size(), 2);
    const QString reply = lines.first().value(QStringLiteral("reply")).toString();
    QVERIFY(reply.startsWith(QString(64 * 1024, QLatin1Char('r'))));
    QVERIFY2(reply.endsWith(QStringLiteral("[%1 more characters not recorded]").arg(huge.size() - 64 * 1024)),
             qPrintable(reply.right(60)));
    const QString nested = lines.first()
                               .value(QStringLiteral("content"))
                               .toArray()
                               .at(0)
                               .toObject()
                               .value(QStringLiteral("text"))
                               .toString();
    QCOMPARE(nested, reply);
    const QJsonObject usage = readMetadata(o.sessionPath).value(QStringLiteral("usage")).toObject();
    QCOMPARE(usage.value(QStringLiteral("input_tokens")).toDouble(), 10.0);
    QVERIFY(usage.value(QStringLiteral("output_tokens")).toDouble() > 1e18); // saturated, not negative
    QCOMPARE(usage.value(QStringLiteral("cost_usd")).toDouble(), 0.5);
}

void TestSessionWriter::lowDiskSpace()
{
    QTemporaryDir dir;
    TmpfsMount disk(dir.filePath(QStringLiteral("disk")), 4096);
    if (!disk.isMounted())
        QSKIP("cannot mount a tmpfs here (needs root)");
    SessionWriterOptions o = options(dir.filePath(QStringLiteral("disk")));
    o.maxSessionBytes = 0;
    o.minFreeBytes = 3 * 1024 * 1024; // stop while 3 MiB are still free
    SessionWriter writer(o);
    QSignalSpy failed(&writer, &SessionWriter::recordingFailed);
    writer.start();
    QCOMPARE(writer.state(), SessionWriter::State::Recording);
    int n = 0;
    for (; n < 400 && writer.state() == SessionWriter::State::Recording; ++n) {
        const qint64 t = qint64(n) * 50'000'000;
        writer.onFrame(Frame{quint64(n + 1), t, noiseFrame(QSize(320, 240), quint32(n)), {}});
        writer.onCursor(CursorSample{t, QPoint(n, n), {}});
    }
    QCOMPARE(failed.size(), 1);
    const QString reason = failed.first().first().toString();
    QVERIFY2(reason.contains(QStringLiteral("almost full")), qPrintable(reason));
    QVERIFY2(reason.contains(writer.sessionPath()), qPrintable(reason)); // where the recording is
    QVERIFY(QStorageInfo(writer.sessionPath()).bytesAvailable() > 2 * 1024 * 1024);
    // The final metadata says why the recording stopped.
    const QJsonObject meta = readMetadata(writer.sessionPath());
    QCOMPARE(meta.value(QStringLiteral("recording")).toObject().value(QStringLiteral("state")).toString(),
             QStringLiteral("failed"));
    QVERIFY(meta.value(QStringLiteral("recording"))
                .toObject()
                .value(QStringLiteral("error"))
                .toString()
                .contains(QStringLiteral("almost full")));

    // A disk that is already too full refuses to start (the engine then fails with this reason).
    o.sessionPath = dir.filePath(QStringLiteral("disk/second"));
    o.minFreeBytes = 64LL * 1024 * 1024;
    SessionWriter second(o);
    QSignalSpy secondFailed(&second, &SessionWriter::recordingFailed);
    QSignalSpy secondStarted(&second, &SessionWriter::started);
    second.start();
    QCOMPARE(secondFailed.size(), 1);
    QCOMPARE(secondStarted.size(), 0);
}

void TestSessionWriter::sizeBudgetKeepsPlayableVideo()
{
    QTemporaryDir dir;
    SessionWriterOptions o = options(dir.path());
    o.maxSessionBytes = 300 * 1024;
    o.keyFrameIntervalMs = 200;
    SessionWriter writer(o);
    QSignalSpy failed(&writer, &SessionWriter::recordingFailed);
    writer.start();
    int n = 0;
    for (; n < 300 && writer.state() == SessionWriter::State::Recording; ++n)
        writer.onFrame(
            Frame{quint64(n + 1), qint64(n) * 50'000'000, noiseFrame(QSize(320, 240), quint32(n)), {}});
    QVERIFY(n < 300);
    QCOMPARE(failed.size(), 1);
    QVERIFY2(failed.first().first().toString().contains(QStringLiteral("size budget of 0.3 MiB")),
             qPrintable(failed.first().first().toString()));
    // Within the budget plus about one frame, and the video up to there plays.
    QVERIFY(folderSizeBytes(writer.sessionPath()) < o.maxSessionBytes + 200 * 1024);
    VideoDecoder decoder;
    QVERIFY2(decoder.open(writer.sessionPath() + QStringLiteral("/session.mp4")),
             qPrintable(decoder.errorString()));
    qint64 pts = -1;
    QVERIFY(!decoder.frameAt(qint64(n - 5) * 50, &pts).isNull());
    QVERIFY(pts > 0);
}

void TestSessionWriter::environmentSecretsInNoFile()
{
    // Keys in forms no pattern knows: only their presence in the environment makes them secret.
    const QByteArray token = "plainTok3n-QWERTY-98765zz";
    const QByteArray apiKey = "anthro-custom-KEY-4242424242";
    qputenv("CIU_TEST_SERVICE_TOKEN", token);
    qputenv("ANTHROPIC_API_KEY", apiKey);
    const auto restore = qScopeGuard([] {
        qunsetenv("CIU_TEST_SERVICE_TOKEN");
        qunsetenv("ANTHROPIC_API_KEY");
        refreshEnvironmentSecrets();
    });
    QTemporaryDir dir;
    SessionWriterOptions o = options(dir.path());
    const QString tokenText = QString::fromLatin1(token);
    const QString keyText = QString::fromLatin1(apiKey);
    o.task = QStringLiteral("log in with ") + tokenText;
    o.config = QJsonObject{{QStringLiteral("key"), keyText},
                           {QStringLiteral("nested"), QJsonObject{{QStringLiteral("t"), tokenText}}}};
    SessionWriter writer(o);
    writer.start();
    Zone label;
    label.id = QStringLiteral("l");
    label.label = QStringLiteral("Your key: ") + keyText;
    label.bounds = QRect(0, 0, 50, 20);
    writer.onZoneMap(std::make_shared<const ZoneMap>(1, 10, QSize(64, 48), QList<Zone>{label}));
    for (int n = 0; n < 10; ++n)
        writer.onFrame(
            Frame{quint64(n + 1), qint64(n) * 50'000'000, test::syntheticFrame(QSize(64, 48), n), {}});
    writer.writeKeyFrame(Frame{3, 100'000'000, test::syntheticFrame(QSize(64, 48), 2), {}},
                         QStringLiteral("model"));
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("type"), QStringLiteral("model_call")},
                    {QStringLiteral("request"),
                     QJsonObject{{QStringLiteral("headers"),
                                  QJsonArray{QString(QStringLiteral("x-api-key: ") + keyText)}}}},
                    {QStringLiteral("reply"), QString(QStringLiteral("the token is ") + tokenText)}});
    SpatialEvent e;
    e.kind = SpatialEvent::Kind::ZoneType;
    e.tNs = 200'000'000;
    e.data[QStringLiteral("text")] = tokenText;
    writer.onEvent(e);
    Action a;
    a.type = Action::Type::TypeText;
    a.text = keyText;
    writer.onAction(a, ActionResult{});
    writer.setOutcome(QStringLiteral("failed"), QStringLiteral("rejected key ") + keyText);
    writer.stop();

    // Every file of the session, frames and video included.
    int files = 0;
    QDirIterator it(writer.sessionPath(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray data = f.readAll();
        QVERIFY2(!data.contains(token) && !data.contains(apiKey), qPrintable(path));
        ++files;
    }
    QVERIFY(files >= 9); // metadata, video, 6 JSONL files, a key frame
    QFile director(writer.sessionPath() + QStringLiteral("/director.jsonl"));
    QVERIFY(director.open(QIODevice::ReadOnly));
    QVERIFY(director.readAll().contains("[redacted]")); // the record is kept, the key is not
    QVERIFY(knownSecrets().contains(tokenText));
}

void TestSessionWriter::passwordMaskEverywhere()
{
    QTemporaryDir dir;
    SessionWriterOptions o = options(dir.path());
    o.keyFrameIntervalMs = 100;
    SessionWriter writer(o);
    writer.start();
    Zone password;
    password.id = QStringLiteral("pw");
    password.type = ZoneType::TextField;
    password.label = QStringLiteral("hunter2");
    password.bounds = QRect(16, 16, 48, 32);
    password.isPassword = true;
    Zone name;
    name.id = QStringLiteral("name");
    name.type = ZoneType::TextField;
    name.label = QStringLiteral("alice");
    name.bounds = QRect(16, 64, 48, 16);
    writer.onZoneMap(std::make_shared<const ZoneMap>(1, 10, QSize(128, 96), QList<Zone>{password, name}));
    QImage white(128, 96, QImage::Format_RGB32);
    white.fill(Qt::white);
    for (int n = 0; n < 5; ++n) {
        QImage frame = white.copy();
        frame.setPixel(100, 90, qRgb(n, n, n)); // a new image each time
        writer.onFrame(Frame{quint64(n + 1), qint64(n) * 50'000'000, frame, {}});
    }
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("type"), QStringLiteral("decision")},
                    {QStringLiteral("actions"),
                     QJsonArray{QJsonObject{{QStringLiteral("action"), QStringLiteral("type")},
                                            {QStringLiteral("zone_id"), QStringLiteral("pw")},
                                            {QStringLiteral("text"), QStringLiteral("hunter2")}},
                                QJsonObject{{QStringLiteral("action"), QStringLiteral("type")},
                                            {QStringLiteral("zone_id"), QStringLiteral("name")},
                                            {QStringLiteral("text"), QStringLiteral("alice")}}}}});
    writer.stop();

    for (const QString& file : {QStringLiteral("zones.jsonl"), QStringLiteral("director.jsonl")}) {
        QFile f(writer.sessionPath() + QLatin1Char('/') + file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray data = f.readAll();
        QVERIFY2(!data.contains("hunter2"), qPrintable(file));
        QVERIFY2(data.contains("alice"), qPrintable(file)); // other zones keep their text
    }
    // The zone itself is still there (bounds, type, id), only its text is masked.
    SessionReader reader;
    QVERIFY(reader.open(writer.sessionPath()));
    const ZoneMapPtr map = reader.zoneMapAt(100'000'000);
    QVERIFY(map->find(QStringLiteral("pw")));
    QCOMPARE(map->find(QStringLiteral("pw"))->bounds, password.bounds);
    QVERIFY(map->find(QStringLiteral("pw"))->isPassword);
    // The video frames are blacked out inside the password zone.
    const QImage frame = reader.frameAt(100'000'000);
    QVERIFY(!frame.isNull());
    QVERIFY2(qGray(frame.pixel(40, 32)) < 40, qPrintable(QString::number(qGray(frame.pixel(40, 32)))));
    QVERIFY(qGray(frame.pixel(40, 72)) > 215);
    QVERIFY(qGray(frame.pixel(100, 30)) > 215);
}

void TestSessionWriter::zoneJournalSkipsLastSeenOnly()
{
    Zone a;
    a.id = QStringLiteral("a");
    a.type = ZoneType::Button;
    a.label = QStringLiteral("OK");
    a.bounds = QRect(1, 2, 30, 20);
    a.lastSeenNs = 100;
    Zone b = a;
    b.id = QStringLiteral("b");
    b.bounds = QRect(50, 2, 30, 20);
    ZoneJournalEncoder encoder;
    QVERIFY(encoder.encode(ZoneMap(1, 100, QSize(200, 100), {a, b})));
    // Seen again by a later analysis, nothing else changed: no line.
    a.lastSeenNs = b.lastSeenNs = 200;
    QVERIFY(!encoder.encode(ZoneMap(2, 200, QSize(200, 100), {a, b})));
    // One zone really changed: only that one is in the delta.
    b.label = QStringLiteral("Cancel");
    b.lastSeenNs = a.lastSeenNs = 300;
    const auto line = encoder.encode(ZoneMap(3, 300, QSize(200, 100), {a, b}));
    QVERIFY(line);
    QCOMPARE(line->value(QStringLiteral("kind")).toString(), QStringLiteral("delta"));
    const QJsonArray changed = line->value(QStringLiteral("changed")).toArray();
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.first().toObject().value(QStringLiteral("id")).toString(), QStringLiteral("b"));
    // The journal reconstructs both zones.
    ZoneJournal journal;
    QVERIFY(journal.addLine(100, *ZoneJournalEncoder().encode(ZoneMap(1, 100, QSize(200, 100), {a, b}))));
    QCOMPARE(journal.mapAt(150)->size(), 2);
}

QTEST_MAIN(TestSessionWriter)
#include "tst_sessionwriter.moc"
