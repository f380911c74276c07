// Session exports: the self-contained HTML report and the MP4 with the overlay burned in.

#include "core/model/metatypes.h"
#include "core/replay/sessionexporter.h"
#include "core/replay/sessionreader.h"
#include "core/replay/videodecoder.h"
#include "replaytestutil.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using namespace ciu::replay;

class TestSessionExporter : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void html();
    void htmlWithProblems();
    void htmlListsEveryTask();
    void mp4WithOverlay();
    void mp4IsConstantRate();
    void cancel();
    void errors();
    void refusesOutputsInsideTheSession_data();
    void refusesOutputsInsideTheSession();
    void failedExportKeepsPreviousFile();
    void refusesAnInputOutsideTheSession();

private:
    QTemporaryDir m_dir;
    test::SmallSession m_session;
};

void TestSessionExporter::initTestCase()
{
    registerMetaTypes();
    m_session = test::writeSmallSession(m_dir.filePath(QStringLiteral("session")));
}

void TestSessionExporter::html()
{
    SessionReader reader;
    QVERIFY(reader.open(m_session.path));
    const QString file = m_dir.filePath(QStringLiteral("report.html"));
    qint64 lastDone = 0, lastTotal = 0;
    QString error;
    QVERIFY2(exportHtmlReport(reader, file, &error,
                              [&](qint64 done, qint64 total) {
                                  lastDone = done;
                                  lastTotal = total;
                                  return true;
                              }),
             qPrintable(error));
    QCOMPARE(lastDone, lastTotal);
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(f.readAll());
    QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
    QVERIFY(html.contains(QStringLiteral("press OK")));            // task
    QVERIFY(html.contains(QStringLiteral("click the OK button"))); // decision
    QVERIFY(html.contains(QStringLiteral("$0.0123")));             // cost
    QVERIFY(html.contains(QStringLiteral("1500 in, 80 out")));     // tokens
    QVERIFY(html.contains(QStringLiteral("zone_click")));          // steps
    QVERIFY(!html.contains(QStringLiteral("secret-password")));    // masked when recorded
    // Self-contained: the key frame is embedded, nothing is loaded from elsewhere.
    const QRegularExpression img(
        QStringLiteral("<img [^>]*src=\"data:image/jpeg;base64,([A-Za-z0-9+/=]+)\""));
    const auto match = img.match(html);
    QVERIFY(match.hasMatch());
    QImage embedded;
    QVERIFY(embedded.loadFromData(QByteArray::fromBase64(match.captured(1).toLatin1()), "JPEG"));
    QCOMPARE(embedded.size(), m_session.size);
    // The zones are drawn on it: the OK button's outline is blue-ish, unlike the frame there.
    const QImage original = test::syntheticFrame(m_session.size, 20);
    const QColor drawn = embedded.pixelColor(240, 180);
    const QColor plain = original.pixelColor(240, 180);
    QVERIFY2(qAbs(drawn.blue() - drawn.red()) > qAbs(plain.blue() - plain.red()) + 20,
             qPrintable(QStringLiteral("%1 vs %2").arg(drawn.name(), plain.name())));
    QVERIFY(!html.contains(QStringLiteral("src=\"http")));
}

void TestSessionExporter::htmlWithProblems()
{
    QTemporaryDir dir;
    QFile::copy(m_session.path + QStringLiteral("/events.jsonl"),
                dir.filePath(QStringLiteral("events.jsonl")));
    SessionReader reader;
    QVERIFY(reader.open(dir.path())); // only events: everything else missing
    QString error;
    QTemporaryDir out; // never inside the session it reads
    const QString file = out.filePath(QStringLiteral("r.html"));
    QVERIFY2(exportHtmlReport(reader, file, &error), qPrintable(error));
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(f.readAll());
    QVERIFY(html.contains(QStringLiteral("Problems reading this session")));
    QVERIFY(html.contains(QStringLiteral("metadata.json is missing")));
}

void TestSessionExporter::htmlListsEveryTask()
{
    // The app records several tasks into one session: the report lists each with how it ended.
    SessionWriterOptions o;
    o.sessionPath = m_dir.filePath(QStringLiteral("tasks"));
    o.metadataIntervalMs = 0;
    SessionWriter writer(o);
    writer.start();
    const auto record = [&writer](double tNs, const char* type, QJsonObject fields) {
        fields.insert(QStringLiteral("t_ns"), tNs);
        fields.insert(QStringLiteral("type"), QString::fromLatin1(type));
        writer.onDirectorRecord(fields);
    };
    writer.setTask(QStringLiteral("click Submit"));
    record(1e8, "task_started", {{QStringLiteral("task"), QStringLiteral("click Submit")}});
    record(5e8, "finished",
           {{QStringLiteral("outcome"), QStringLiteral("completed")},
            {QStringLiteral("dry_run"), true},
            {QStringLiteral("message"), QStringLiteral("all 1 steps done")}});
    writer.setTask(QStringLiteral("type \"x\" into Name"));
    record(9e8, "task_started", {{QStringLiteral("task"), QStringLiteral("type \"x\" into Name")}});
    record(12e8, "finished",
           {{QStringLiteral("outcome"), QStringLiteral("stopped")},
            {QStringLiteral("dry_run"), false},
            {QStringLiteral("message"), QStringLiteral("stopped by the user")}});
    writer.stop();
    SessionReader reader;
    QVERIFY(reader.open(writer.sessionPath()));
    // metadata.json names both, not only the last.
    QCOMPARE(reader.metadata().value(QStringLiteral("tasks")).toArray(),
             QJsonArray({QStringLiteral("click Submit"), QStringLiteral("type \"x\" into Name")}));
    const QString file = m_dir.filePath(QStringLiteral("tasks.html"));
    QString error;
    QVERIFY2(exportHtmlReport(reader, file, &error), qPrintable(error));
    QFile f(file);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QString html = QString::fromUtf8(f.readAll());
    QVERIFY(html.contains(QStringLiteral("<h2>Tasks</h2>")));
    QVERIFY2(
        html.contains(QStringLiteral("<td>click Submit</td><td>completed (dry run): all 1 steps done</td>")),
        qPrintable(html));
    QVERIFY(html.contains(
        QStringLiteral("<td>type &quot;x&quot; into Name</td><td>stopped: stopped by the user</td>")));
}

void TestSessionExporter::mp4WithOverlay()
{
    SessionReader reader;
    QVERIFY(reader.open(m_session.path));
    const QString file = m_dir.filePath(QStringLiteral("overlay.mp4"));
    QString error;
    int calls = 0;
    QVERIFY2(exportOverlayVideo(reader, file, &error, [&](qint64, qint64) { return ++calls > 0; }),
             qPrintable(error));
    QVERIFY(calls >= 3 * kExportFps); // one call per output frame
    VideoDecoder decoder;
    QVERIFY2(decoder.open(file), qPrintable(decoder.errorString()));
    QCOMPARE(decoder.size(), m_session.size);
    qint64 pts = -1;
    const qint64 t = m_session.frameTimesNs.at(30);
    const QImage exported = decoder.frameAt(t / 1'000'000, &pts);
    QCOMPARE(pts * 1'000'000, t);
    const QImage original = test::syntheticFrame(m_session.size, 30);
    // Mostly the same picture...
    QVERIFY(test::meanAbsDiff(exported, original) < 20.0);
    // ...with the zone outline and the cursor drawn in.
    const QColor outline = exported.pixelColor(240, 180);
    const QColor plain = original.pixelColor(240, 180);
    QVERIFY2(qAbs(outline.blue() - outline.red()) > qAbs(plain.blue() - plain.red()) + 20,
             qPrintable(QStringLiteral("%1 vs %2").arg(outline.name(), plain.name())));
    const CursorSample cursor = *reader.cursorAt(t);
    const QColor atCursor = exported.pixelColor(cursor.pos);
    QVERIFY2(atCursor.red() > 150 && atCursor.green() < 150, qPrintable(atCursor.name()));
}

void TestSessionExporter::mp4IsConstantRate()
{
    // The recording has 60 frames in 3 s at its own times; the export has one frame every 1/15 s from 0 to
    // the session's end, and each frame's overlay is drawn for its own moment.
    SessionReader reader;
    QVERIFY(reader.open(m_session.path));
    const QString file = m_dir.filePath(QStringLiteral("constant.mp4"));
    QString error;
    QVERIFY2(exportOverlayVideo(reader, file, &error), qPrintable(error));
    const qint64 totalMs = reader.durationNs() / 1'000'000;

    // Every frame 1/15 s after the one before (66 or 67 ms in the file's millisecond time base), from 0 to
    // the session's end.
    VideoDecoder all;
    QVERIFY2(all.open(file) && all.rewind(), qPrintable(all.errorString()));
    QList<qint64> times;
    for (qint64 pts = 0; !all.nextFrame(&pts).isNull();)
        times << pts;
    QVERIFY(times.size() >= 3 * kExportFps);
    QCOMPARE(times.first(), qint64(0));
    for (qsizetype i = 1; i < times.size(); ++i)
        QCOMPARE(times.at(i), qint64(i * 1000 / kExportFps));
    QVERIFY2(times.last() + 1000 / kExportFps >= totalMs, qPrintable(QString::number(times.last())));

    // Any player sees the same: ffprobe counts as many frames, at 15 per second.
    QProcess ffprobe;
    ffprobe.start(QStringLiteral("ffprobe"),
                  {QStringLiteral("-v"), QStringLiteral("error"), QStringLiteral("-count_frames"),
                   QStringLiteral("-select_streams"), QStringLiteral("v:0"), QStringLiteral("-show_entries"),
                   QStringLiteral("stream=nb_read_frames,avg_frame_rate"), QStringLiteral("-of"),
                   QStringLiteral("json"), file});
    QVERIFY2(ffprobe.waitForFinished(60'000) && ffprobe.exitCode() == 0,
             qPrintable(QString::fromLocal8Bit(ffprobe.readAllStandardError())));
    const QJsonObject stream = QJsonDocument::fromJson(ffprobe.readAllStandardOutput())
                                   .object()
                                   .value(QStringLiteral("streams"))
                                   .toArray()
                                   .first()
                                   .toObject();
    QCOMPARE(stream.value(QStringLiteral("nb_read_frames")).toString().toLongLong(), qint64(times.size()));
    const QStringList rate =
        stream.value(QStringLiteral("avg_frame_rate")).toString().split(QLatin1Char('/'));
    QCOMPARE(rate.size(), 2);
    QCOMPARE(qRound(rate.at(0).toDouble() / rate.at(1).toDouble()), kExportFps);

    // A frame between two recorded ones (1666 ms: recorded at 1650 and 1700) has the cursor where it was
    // at 1666 ms, not where it was at the recorded frame.
    VideoDecoder decoder;
    QVERIFY2(decoder.open(file), qPrintable(decoder.errorString()));
    qint64 pts = -1;
    const QImage frame = decoder.frameAt(25 * 1000 / kExportFps, &pts);
    QCOMPARE(pts, qint64(25 * 1000 / kExportFps));
    const CursorSample now = *reader.cursorAt(pts * 1'000'000);
    const CursorSample recorded = *reader.cursorAt(1'650'000'000);
    QVERIFY(now.pos != recorded.pos);
    const QColor atCursor = frame.pixelColor(now.pos);
    QVERIFY2(atCursor.red() > 150 && atCursor.green() < 150, qPrintable(atCursor.name()));
}

void TestSessionExporter::cancel()
{
    SessionReader reader;
    QVERIFY(reader.open(m_session.path));
    const QString file = m_dir.filePath(QStringLiteral("cancelled.mp4"));
    QString error;
    QVERIFY(!exportOverlayVideo(reader, file, &error, [](qint64 done, qint64) { return done < 500; }));
    QVERIFY(error.contains(QStringLiteral("cancel")));
    QVERIFY(!QFile::exists(file));
}

void TestSessionExporter::errors()
{
    QTemporaryDir dir;
    QFile::copy(m_session.path + QStringLiteral("/cursor.jsonl"),
                dir.filePath(QStringLiteral("cursor.jsonl")));
    SessionReader reader;
    QVERIFY(reader.open(dir.path()));
    QString error;
    QTemporaryDir out;
    QVERIFY(!exportOverlayVideo(reader, out.filePath(QStringLiteral("x.mp4")), &error));
    QVERIFY2(error.contains(QStringLiteral("no readable video")), qPrintable(error));
    QVERIFY(!QFile::exists(out.filePath(QStringLiteral("x.mp4"))));
    SessionReader good;
    QVERIFY(good.open(m_session.path));
    QVERIFY(!exportHtmlReport(good, QStringLiteral("/nonexistent-dir/r.html"), &error));
    QVERIFY(error.contains(QStringLiteral("cannot write")));
    QVERIFY(!exportOverlayVideo(good, QStringLiteral("/nonexistent-dir/r.mp4"), &error));
    QVERIFY(!error.isEmpty());
}

namespace {
QByteArray contents(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}
} // namespace

// `replay S --export-mp4 S/session.mp4` truncated the video it read (exit 0) and `--export-html
// S/metadata.json` replaced the metadata: an output inside the session, or reaching one of its files
// through a link, is refused and nothing in the session changes.
void TestSessionExporter::refusesOutputsInsideTheSession_data()
{
    QTest::addColumn<QString>("target"); // relative to the session; "link:" = a link outside to it
    QTest::addColumn<bool>("video");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("mp4 over session.mp4") << "session.mp4" << true << "inside the session";
    QTest::newRow("html over metadata.json") << "metadata.json" << false << "inside the session";
    QTest::newRow("new file in the session") << "report.html" << false << "inside the session";
    QTest::newRow("into frames/") << "frames/x.mp4" << true << "inside the session";
    QTest::newRow("the session folder itself") << "." << false << "is a folder";
    QTest::newRow("through ..") << "../session/events.jsonl" << false << "inside the session";
    QTest::newRow("link to session.mp4") << "link:session.mp4" << true << "inside the session";
    QTest::newRow("link to metadata.json") << "link:metadata.json" << false << "inside the session";
}

void TestSessionExporter::refusesOutputsInsideTheSession()
{
    QFETCH(QString, target);
    QFETCH(bool, video);
    QFETCH(QString, fragment);
    QTemporaryDir outside;
    QString file;
    QString input;
    if (target.startsWith(QLatin1String("link:"))) {
        input = m_session.path + QLatin1Char('/') + target.mid(5);
        file = outside.filePath(QStringLiteral("link"));
        QVERIFY(QFile::link(input, file));
    } else {
        file = m_session.path + QLatin1Char('/') + target;
        input = file;
    }
    // Everything in the session before.
    QHash<QString, QByteArray> before;
    const QDir session(m_session.path);
    for (const QString& name : session.entryList(QDir::Files))
        before.insert(name, contents(session.filePath(name)));
    SessionReader reader;
    QVERIFY(reader.open(m_session.path));
    QString error;
    const bool ok = video ? exportOverlayVideo(reader, file, &error) : exportHtmlReport(reader, file, &error);
    QVERIFY(!ok);
    QVERIFY2(error.contains(fragment), qPrintable(error));
    QCOMPARE(session.entryList(QDir::Files | QDir::Hidden).size(), before.size());
    for (auto it = before.cbegin(); it != before.cend(); ++it)
        QVERIFY2(contents(session.filePath(it.key())) == it.value(), qPrintable(it.key()));
    QVERIFY(!QFile::exists(m_session.path + QStringLiteral("/report.html")));
    QVERIFY(!QFile::exists(m_session.path + QStringLiteral("/frames/x.mp4")));
}

// A failed or cancelled export leaves no stub, and a file it was to replace keeps its content.
void TestSessionExporter::failedExportKeepsPreviousFile()
{
    SessionReader reader;
    QVERIFY(reader.open(m_session.path));
    QTemporaryDir out;
    const QString file = out.filePath(QStringLiteral("previous.mp4"));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("the previous export");
    }
    QString error;
    QVERIFY(!exportOverlayVideo(reader, file, &error, [](qint64 done, qint64) { return done < 500; }));
    QVERIFY(error.contains(QStringLiteral("cancel")));
    QCOMPARE(contents(file), QByteArray("the previous export"));
    QCOMPARE(QDir(out.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("previous.mp4")});
    // And a successful export replaces it.
    QVERIFY2(exportOverlayVideo(reader, file, &error), qPrintable(error));
    VideoDecoder decoder;
    QVERIFY2(decoder.open(file), qPrintable(decoder.errorString()));
    QCOMPARE(QDir(out.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{QStringLiteral("previous.mp4")});
}

// A session file that is a link to a file elsewhere is an input too: the export does not overwrite it.
void TestSessionExporter::refusesAnInputOutsideTheSession()
{
    QTemporaryDir dir;
    const QString session = dir.filePath(QStringLiteral("linked"));
    QVERIFY(QDir().mkpath(session));
    const QString events = dir.filePath(QStringLiteral("events-elsewhere.jsonl"));
    QVERIFY(QFile::copy(m_session.path + QStringLiteral("/events.jsonl"), events));
    QVERIFY(QFile::link(events, session + QStringLiteral("/events.jsonl")));
    const QByteArray before = contents(events);
    SessionReader reader;
    QVERIFY(reader.open(session));
    QString error;
    QVERIFY(!exportHtmlReport(reader, events, &error));
    QVERIFY2(error.contains(QStringLiteral("which the session reads")), qPrintable(error));
    QCOMPARE(contents(events), before);
}

QTEST_MAIN(TestSessionExporter)
#include "tst_sessionexporter.moc"
