// VideoEncoder + VideoDecoder: H.264 round trip, variable frame rate, random access, bad input.

#include "core/replay/videodecoder.h"
#include "core/replay/videoencoder.h"
#include "replaytestutil.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ciu::replay;
using ciu::test::meanAbsDiff;
using ciu::test::syntheticFrame;

class TestVideoEncoder : public QObject
{
    Q_OBJECT
private slots:
    void roundTrip();
    void frameAt_data();
    void frameAt();
    void sequentialAndStep();
    void oddSizeAndResize();
    void errors();
    void notFinishedStillPlayable();
    void lateFirstFrameKeepsItsTime();
    void flushShowsTheLastFrame();

private:
    // Frames at variable times: 0, 40, 80, ... with a gap after frame 30.
    static qint64 frameTimeMs(int n) { return n < 30 ? n * 40 : 1200 + 2000 + (n - 30) * 40; }
    QString writeVideo(const QString& dir, int frames, QSize size, bool finish = true);
    QTemporaryDir m_dir;
};

QString TestVideoEncoder::writeVideo(const QString& dir, int frames, QSize size, bool finish)
{
    const QString path = dir + QStringLiteral("/v.mp4");
    VideoEncoder encoder;
    VideoEncoder::Options o;
    o.size = size;
    o.keyFrameIntervalMs = 500;
    o.crf = 23;
    if (!encoder.open(path, o))
        return {};
    for (int n = 0; n < frames; ++n) {
        if (!encoder.encode(syntheticFrame(size, n), frameTimeMs(n)))
            return {};
    }
    if (finish && !encoder.finish())
        return {};
    return path;
}

void TestVideoEncoder::roundTrip()
{
    const QSize size(320, 240);
    const QString path = writeVideo(m_dir.path(), 60, size);
    QVERIFY(!path.isEmpty());
    VideoDecoder decoder;
    QVERIFY2(decoder.open(path), qPrintable(decoder.errorString()));
    QCOMPARE(decoder.size(), size);
    QVERIFY(decoder.durationMs() >= frameTimeMs(58));
    for (int n : {0, 1, 17, 29, 30, 45, 59}) {
        qint64 pts = -1;
        const QImage image = decoder.frameAt(frameTimeMs(n), &pts);
        QCOMPARE(pts, frameTimeMs(n));
        const double diff = meanAbsDiff(image, syntheticFrame(size, n));
        QVERIFY2(diff < 6.0, qPrintable(QStringLiteral("frame %1: mean abs diff %2").arg(n).arg(diff)));
        // And it is clearly not a neighbour.
        QVERIFY(meanAbsDiff(image, syntheticFrame(size, n + 3)) > diff);
    }
}

void TestVideoEncoder::frameAt_data()
{
    QTest::addColumn<qint64>("tMs");
    QTest::addColumn<qint64>("expectedPts");
    QTest::newRow("before the first frame") << qint64(-50) << frameTimeMs(0);
    QTest::newRow("exactly a frame") << frameTimeMs(10) << frameTimeMs(10);
    QTest::newRow("between frames") << frameTimeMs(10) + 25 << frameTimeMs(10);
    QTest::newRow("in the gap") << qint64(2500) << frameTimeMs(29);
    QTest::newRow("after the gap") << frameTimeMs(30) + 1 << frameTimeMs(30);
    QTest::newRow("after the end") << qint64(100'000) << frameTimeMs(59);
}

void TestVideoEncoder::frameAt()
{
    QFETCH(qint64, tMs);
    QFETCH(qint64, expectedPts);
    static QString path;
    if (path.isEmpty())
        path = writeVideo(m_dir.path(), 60, QSize(160, 120));
    VideoDecoder decoder;
    QVERIFY(decoder.open(path));
    // Twice: a cold seek, then after visiting another place (backwards and forwards).
    for (qint64 other : {qint64(-1), qint64(3000), qint64(0)}) {
        if (other >= 0)
            decoder.frameAt(other);
        qint64 pts = -1;
        QVERIFY(!decoder.frameAt(tMs, &pts).isNull());
        QCOMPARE(pts, expectedPts);
    }
}

void TestVideoEncoder::sequentialAndStep()
{
    QTemporaryDir dir;
    const QString path = writeVideo(dir.path(), 40, QSize(160, 120));
    VideoDecoder decoder;
    QVERIFY(decoder.open(path));
    QVERIFY(decoder.rewind());
    for (int n = 0; n < 40; ++n) {
        qint64 pts = -1;
        QVERIFY(!decoder.nextFrame(&pts).isNull());
        QCOMPARE(pts, frameTimeMs(n));
    }
    QVERIFY(decoder.nextFrame().isNull());
    // Step from a random point.
    qint64 pts = -1;
    decoder.frameAt(frameTimeMs(12) + 3, &pts);
    QCOMPARE(pts, frameTimeMs(12));
    QCOMPARE(decoder.peekNextPtsMs(), frameTimeMs(13));
    decoder.nextFrame(&pts);
    QCOMPARE(pts, frameTimeMs(13));
}

void TestVideoEncoder::oddSizeAndResize()
{
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/odd.mp4");
    VideoEncoder encoder;
    VideoEncoder::Options o;
    o.size = QSize(321, 241);
    QVERIFY(encoder.open(path, o));
    QCOMPARE(encoder.size(), QSize(320, 240));
    QVERIFY(encoder.encode(syntheticFrame(QSize(321, 241), 1), 0));
    QVERIFY(encoder.encode(syntheticFrame(QSize(640, 480), 2), 40)); // a resolution change is scaled
    QVERIFY(encoder.encode(syntheticFrame(QSize(321, 241), 3), 40)); // same time: moved 1 ms later
    QVERIFY(encoder.finish());
    QCOMPARE(encoder.framesEncoded(), 3);
    VideoDecoder decoder;
    QVERIFY(decoder.open(path));
    QCOMPARE(decoder.size(), QSize(320, 240));
    qint64 pts = 0;
    decoder.frameAt(1000, &pts);
    QCOMPARE(pts, qint64(41));
}

void TestVideoEncoder::errors()
{
    VideoEncoder encoder;
    VideoEncoder::Options o;
    o.size = QSize(4, 4);
    QVERIFY(!encoder.open(m_dir.path() + QStringLiteral("/tiny.mp4"), o));
    QVERIFY(encoder.errorString().contains(QStringLiteral("too small")));
    o.size = QSize(64, 64);
    QVERIFY(!encoder.open(QStringLiteral("/nonexistent-dir/x.mp4"), o));
    QVERIFY(!encoder.errorString().isEmpty());
    QVERIFY(!encoder.encode(syntheticFrame(QSize(64, 64), 1), 0));

    VideoDecoder decoder;
    QVERIFY(!decoder.open(m_dir.path() + QStringLiteral("/missing.mp4")));
    QVERIFY(!decoder.errorString().isEmpty());
    QVERIFY(decoder.frameAt(0).isNull());
    const QString garbage = m_dir.path() + QStringLiteral("/garbage.mp4");
    QFile f(garbage);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray(5000, 'x'));
    f.close();
    QVERIFY(!decoder.open(garbage));
}

void TestVideoEncoder::notFinishedStillPlayable()
{
    // A recorder killed before finish(): the fragments written so far decode.
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/v.mp4");
    {
        auto* encoder = new VideoEncoder; // leaked on purpose: its destructor would finish the file
        VideoEncoder::Options o;
        o.size = QSize(160, 120);
        o.keyFrameIntervalMs = 500;
        QVERIFY(encoder->open(path, o));
        for (int n = 0; n < 40; ++n)
            QVERIFY(encoder->encode(syntheticFrame(QSize(160, 120), n), n * 40));
        QFile copy(path);
        QVERIFY(copy.copy(dir.path() + QStringLiteral("/copy.mp4")));
        encoder->finish();
        delete encoder;
    }
    VideoDecoder decoder;
    QVERIFY2(decoder.open(dir.path() + QStringLiteral("/copy.mp4")), qPrintable(decoder.errorString()));
    qint64 pts = -1;
    QVERIFY(!decoder.frameAt(100'000, &pts).isNull());
    // Fragments end at key frames (every 500 ms): at most the last fragment is missing.
    QVERIFY2(pts >= 39 * 40 - 600, qPrintable(QString::number(pts)));
}

void TestVideoEncoder::lateFirstFrameKeepsItsTime()
{
    // A session's first frame is rarely at t = 0: times must come back exactly as given.
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/late.mp4");
    const QList<qint64> times{150, 200, 233, 266, 316, 349, 382, 1500, 1533};
    {
        VideoEncoder encoder;
        VideoEncoder::Options o;
        o.size = QSize(160, 120);
        QVERIFY(encoder.open(path, o));
        for (int n = 0; n < times.size(); ++n)
            QVERIFY(encoder.encode(syntheticFrame(QSize(160, 120), n), times.at(n)));
        QVERIFY(encoder.finish());
    }
    if (qEnvironmentVariableIsSet("CIU_KEEP_VIDEO"))
        QFile::copy(path, qEnvironmentVariable("CIU_KEEP_VIDEO"));
    VideoDecoder decoder;
    QVERIFY(decoder.open(path));
    qint64 first = -1;
    QVERIFY(meanAbsDiff(decoder.frameAt(0, &first), syntheticFrame(QSize(160, 120), 0)) < 6.0);
    QCOMPARE(first, qint64(0));
    for (int n = 0; n < times.size(); ++n) {
        qint64 pts = -1;
        QVERIFY(!decoder.frameAt(times.at(n), &pts).isNull());
        QCOMPARE(pts, times.at(n));
    }
}

void TestVideoEncoder::flushShowsTheLastFrame()
{
    // A recording still being written: after flush() a reader of the growing file decodes up to the last
    // frame, although no key frame or new frame closed the fragment.
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/v.mp4");
    VideoEncoder encoder;
    VideoEncoder::Options o;
    o.size = QSize(160, 120);
    o.keyFrameIntervalMs = 60'000;
    o.fragmentIntervalMs = 60'000;
    QVERIFY(encoder.open(path, o));
    for (int n = 0; n < 25; ++n)
        QVERIFY(encoder.encode(syntheticFrame(QSize(160, 120), n), n * 40));
    QVERIFY(encoder.flush());
    {
        QFile copy(path);
        QVERIFY(copy.copy(dir.path() + QStringLiteral("/now.mp4")));
    }
    VideoDecoder decoder;
    QVERIFY2(decoder.open(dir.path() + QStringLiteral("/now.mp4")), qPrintable(decoder.errorString()));
    qint64 pts = -1;
    QVERIFY(!decoder.frameAt(100'000, &pts).isNull());
    QCOMPARE(pts, qint64(24 * 40));
    // Encoding goes on after a flush, and the finished file has every frame.
    for (int n = 25; n < 30; ++n)
        QVERIFY(encoder.encode(syntheticFrame(QSize(160, 120), n), n * 40));
    QVERIFY(encoder.finish());
    VideoDecoder whole;
    QVERIFY(whole.open(path));
    QVERIFY(!whole.frameAt(100'000, &pts).isNull());
    QCOMPARE(pts, qint64(29 * 40));
    // Not fragmented: nothing to do.
    VideoEncoder plain;
    o.fragmented = false;
    QVERIFY(plain.open(dir.path() + QStringLiteral("/plain.mp4"), o));
    QVERIFY(plain.encode(syntheticFrame(QSize(160, 120), 0), 0));
    QVERIFY(plain.flush());
}

QTEST_MAIN(TestVideoEncoder)
#include "tst_videoencoder.moc"
