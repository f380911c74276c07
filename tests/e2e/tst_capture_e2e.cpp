// The CaptureEngine against a private Xvfb through the real X11 backend: opening and closing a second
// window of the fixture app must be reported as change regions matching the window's geometry, with the
// screen reported stable before and after.

#include "core/capture/captureengine.h"
#include "core/model/metatypes.h"
#include "core/model/workerthread.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QLoggingCategory>
#include <QTest>

using namespace ciu;
using test::FixtureApp;
using test::XvfbServer;

Q_LOGGING_CATEGORY(lcTest, "ciu.test.capture")

namespace {

constexpr int kWaitMs = 15000;

qint64 area(const QRect& r)
{
    return r.isEmpty() ? 0 : qint64(r.width()) * r.height();
}

class Recorder : public QObject
{
public:
    explicit Recorder(CaptureEngine* engine)
    {
        connect(engine, &CaptureEngine::frameCaptured, this, [this](const Frame& f) { lastFrame = f; });
        connect(engine, &CaptureEngine::changesDetected, this, [this](const FrameDiff& d) { diffs << d; });
        connect(engine, &CaptureEngine::statsUpdated, this, [this](const CaptureStats& s) { stats << s; });
        connect(engine, &CaptureEngine::errorOccurred, this, [this](const QString& e) { errors << e; });
        connect(engine, &CaptureEngine::cursorSampled, this,
                [this](const CursorSample&) { ++cursorSamples; });
    }
    bool stableSeen() const
    {
        return std::any_of(diffs.cbegin(), diffs.cend(), [](const FrameDiff& d) { return d.stable; });
    }
    // Union of the reported regions that touch `rect`.
    QRect unionTouching(const QRect& rect) const
    {
        QRect u;
        for (const FrameDiff& d : diffs) {
            for (const ChangeRegion& r : d.regions) {
                if (r.rect.intersects(rect))
                    u |= r.rect;
            }
        }
        return u;
    }
    QString describe() const
    {
        QStringList parts;
        for (const FrameDiff& d : diffs) {
            QStringList regions;
            for (const ChangeRegion& r : d.regions)
                regions << QStringLiteral("%1,%2 %3x%4 (%5%)")
                               .arg(r.rect.x())
                               .arg(r.rect.y())
                               .arg(r.rect.width())
                               .arg(r.rect.height())
                               .arg(r.changedPercent, 0, 'f', 1);
            parts << QStringLiteral("#%1%2 [%3]")
                         .arg(d.frameIndex)
                         .arg(d.stable ? QStringLiteral(" stable") : QString())
                         .arg(regions.join(QStringLiteral("; ")));
        }
        return parts.join(QLatin1Char('\n'));
    }

    Frame lastFrame;
    QList<FrameDiff> diffs;
    QList<CaptureStats> stats;
    QStringList errors;
    int cursorSamples = 0;
};

} // namespace

class TestCaptureE2E : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void openAndCloseWindow();
    void displayGoneStopsCleanly();

private:
    void checkRegionsMatch(const QRect& window, const char* what);

    std::unique_ptr<XvfbServer> m_xvfb;
    FixtureApp m_app;
    CaptureEngine* m_engine = nullptr;
    WorkerThread m_thread;
    std::unique_ptr<Recorder> m_rec;
};

void TestCaptureE2E::initTestCase()
{
    registerMetaTypes();
    m_xvfb = std::make_unique<XvfbServer>();
    QVERIFY2(m_xvfb->start(), qPrintable(m_xvfb->errorString()));
    QVERIFY2(
        m_app.start(m_xvfb->environment(), {QStringLiteral("--geometry"), QStringLiteral("20,20,900,640")}),
        qPrintable(m_app.errorString()));

    CaptureEngine::Options options;
    options.backend = QStringLiteral("x11");
    options.display = m_xvfb->displayName();
    options.statsIntervalMs = 250;
    m_engine = new CaptureEngine(options);
    m_rec = std::make_unique<Recorder>(m_engine);
    m_thread = startWorkerThread(m_engine, QStringLiteral("capture"));
    QMetaObject::invokeMethod(m_engine, &CaptureEngine::start, Qt::QueuedConnection);
    // The first frame is a whole-screen change; then the screen settles.
    QTRY_VERIFY_WITH_TIMEOUT(m_rec->stableSeen(), kWaitMs);
    QVERIFY2(m_rec->errors.isEmpty(), qPrintable(m_rec->errors.join(QLatin1Char('\n'))));
    QCOMPARE(m_rec->lastFrame.image.size(), QSize(1280, 800));
    QVERIFY(m_rec->cursorSamples > 0);
}

void TestCaptureE2E::cleanupTestCase()
{
    m_rec.reset();
    m_thread.reset();
    m_app.stop();
    m_xvfb.reset();
}

void TestCaptureE2E::checkRegionsMatch(const QRect& window, const char* what)
{
    const QRect u = m_rec->unionTouching(window);
    const double covered = double(area(u.intersected(window))) / double(area(window));
    const double iou = double(area(u.intersected(window))) / double(area(u.united(window)));
    const QString detail =
        QStringLiteral("%1: window %2,%3 %4x%5, regions touching it %6,%7 %8x%9, covered %10, IoU %11\n%12")
            .arg(QLatin1String(what))
            .arg(window.x())
            .arg(window.y())
            .arg(window.width())
            .arg(window.height())
            .arg(u.x())
            .arg(u.y())
            .arg(u.width())
            .arg(u.height())
            .arg(covered, 0, 'f', 3)
            .arg(iou, 0, 'f', 3)
            .arg(m_rec->describe());
    qCInfo(lcTest).noquote() << detail;
    QVERIFY2(covered >= 0.95, qPrintable(detail));
    QVERIFY2(iou >= 0.8, qPrintable(detail));
    // Nothing reported far outside the window (the tolerance covers shadows and focus repaints).
    QVERIFY2(window.adjusted(-40, -40, 40, 40).contains(u), qPrintable(detail));
}

void TestCaptureE2E::openAndCloseWindow()
{
    m_rec->diffs.clear();
    m_app.clearPending();
    m_app.send(QStringLiteral("open-window"));
    const auto opened = m_app.waitForEvent(QStringLiteral("window_opened"), kWaitMs);
    QVERIFY(opened);
    const QRect window = test::rectFromJson(opened->value(QLatin1String("window")).toObject());
    QVERIFY2(window.width() >= 400 && window.height() >= 300, qPrintable(QString::number(window.width())));
    // Wait until the change has been reported and the screen has settled again.
    QTRY_VERIFY_WITH_TIMEOUT(!m_rec->diffs.isEmpty() && m_rec->diffs.last().stable, kWaitMs);
    checkRegionsMatch(window, "open");
    const CaptureStats before = m_rec->stats.isEmpty() ? CaptureStats{} : m_rec->stats.last();

    m_rec->diffs.clear();
    m_app.send(QStringLiteral("close-window"));
    QVERIFY(m_app.waitForEvent(QStringLiteral("window_closed"), kWaitMs));
    QTRY_VERIFY_WITH_TIMEOUT(!m_rec->diffs.isEmpty() && m_rec->diffs.last().stable, kWaitMs);
    checkRegionsMatch(window, "close");

    // The server's damage was used: partial grabs and skipped grabs, one full grab at the start.
    QTRY_VERIFY_WITH_TIMEOUT(!m_rec->stats.isEmpty() && m_rec->stats.last().frames > before.frames, kWaitMs);
    const CaptureStats& stats = m_rec->stats.last();
    QVERIFY(stats.skippedGrabs > 0);
    QVERIFY(stats.damageGrabs + stats.fullGrabs > 1);
    QVERIFY2(m_rec->errors.isEmpty(), qPrintable(m_rec->errors.join(QLatin1Char('\n'))));
}

void TestCaptureE2E::displayGoneStopsCleanly()
{
    bool stopped = false;
    connect(m_engine, &CaptureEngine::stopped, m_rec.get(), [&stopped] { stopped = true; });
    m_app.stop();
    m_xvfb->stop();
    QTRY_VERIFY_WITH_TIMEOUT(stopped, kWaitMs);
    QVERIFY(!m_rec->errors.isEmpty());
}

QTEST_GUILESS_MAIN(TestCaptureE2E)
#include "tst_capture_e2e.moc"
