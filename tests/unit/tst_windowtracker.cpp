// WindowTracker on the synthetic platform: the first poll reports, unchanged polls stay silent, every
// change of the list or of the active window is reported once, the interval polls on its own, and a
// display that is gone or cannot be opened reports nothing.

#include "core/capture/windowtracker.h"
#include "platform/platformfactory.h"
#include "platform/synthetic/syntheticscene.h"

#include <QSignalSpy>
#include <QTest>
#include <QTimer>

using namespace ciu;
using capture::WindowTracker;
using platform::SyntheticScene;
using platform::WindowInfo;

namespace {

WindowInfo window(quint64 id, const QRect& geometry, bool active = false)
{
    WindowInfo w;
    w.id = id;
    w.title = QStringLiteral("window %1").arg(id);
    w.geometry = geometry;
    w.active = active;
    return w;
}

// Every report, in order.
struct Reports : QObject
{
    explicit Reports(WindowTracker* tracker)
    {
        connect(tracker, &WindowTracker::windowsChanged, this,
                [this](const QList<WindowInfo>& windows, const std::optional<WindowInfo>& active) {
                    lists << windows;
                    actives << (active ? active->id : quint64(0));
                });
    }
    QList<QList<WindowInfo>> lists;
    QList<quint64> actives; // 0: none
};

} // namespace

class TestWindowTracker : public QObject
{
    Q_OBJECT
private slots:
    void init();
    void cleanup();
    void firstPollReports();
    void reportsOncePerChange();
    void intervalPollsOnItsOwn();
    void disconnectedDisplayReportsNothing();
    void unknownBackendFails();
    void givenPlatformIsUsed();

private:
    WindowTracker::Options options(int intervalMs = 0) const
    {
        return {QStringLiteral("synthetic"), m_display, intervalMs};
    }

    QString m_display;
    std::shared_ptr<SyntheticScene> m_scene;
    int m_counter = 0;
};

void TestWindowTracker::init()
{
    SyntheticScene::resetAll();
    m_display = QStringLiteral("synthetic:tracker%1").arg(++m_counter);
    m_scene = SyntheticScene::forDisplay(m_display);
    m_scene->setSize({640, 400});
    m_scene->setWindows({window(1, QRect(0, 0, 640, 400)), window(2, QRect(100, 100, 300, 200), true)});
}

void TestWindowTracker::cleanup()
{
    m_scene.reset();
}

void TestWindowTracker::firstPollReports()
{
    WindowTracker tracker(options());
    Reports r(&tracker);
    tracker.start();
    QVERIFY(tracker.isRunning());
    QCOMPARE(r.lists.size(), 1);
    QCOMPARE(r.lists.first().size(), 2);
    QCOMPARE(r.lists.first().at(1).id, quint64(2));
    QCOMPARE(r.lists.first().at(1).geometry, QRect(100, 100, 300, 200));
    QCOMPARE(r.actives.first(), quint64(2));
}

void TestWindowTracker::reportsOncePerChange()
{
    WindowTracker tracker(options());
    Reports r(&tracker);
    tracker.start();
    QCOMPARE(r.lists.size(), 1);

    // Nothing changed: silent.
    for (int i = 0; i < 5; ++i)
        tracker.poll();
    QCOMPARE(r.lists.size(), 1);

    // A window moves: one report.
    m_scene->setWindows({window(1, QRect(0, 0, 640, 400)), window(2, QRect(120, 100, 300, 200), true)});
    tracker.poll();
    tracker.poll();
    QCOMPARE(r.lists.size(), 2);
    QCOMPARE(r.lists.last().at(1).geometry, QRect(120, 100, 300, 200));

    // The focus moves (an application switch): one report.
    m_scene->setWindows({window(1, QRect(0, 0, 640, 400), true), window(2, QRect(120, 100, 300, 200))});
    tracker.poll();
    tracker.poll();
    QCOMPARE(r.lists.size(), 3);
    QCOMPARE(r.actives.last(), quint64(1));

    // A dialog opens: one report with three windows.
    m_scene->setWindows({window(1, QRect(0, 0, 640, 400)), window(2, QRect(120, 100, 300, 200)),
                         window(3, QRect(200, 150, 200, 100), true)});
    tracker.poll();
    QCOMPARE(r.lists.size(), 4);
    QCOMPARE(r.lists.last().size(), 3);
    QCOMPARE(r.actives.last(), quint64(3));

    // It closes and nothing is active: one report.
    m_scene->setWindows({window(1, QRect(0, 0, 640, 400)), window(2, QRect(120, 100, 300, 200))});
    tracker.poll();
    tracker.poll();
    QCOMPARE(r.lists.size(), 5);
    QCOMPARE(r.lists.last().size(), 2);
    QCOMPARE(r.actives.last(), quint64(0));

    // A title changes: reported too (the list is what the canvas gets as hints).
    QList<WindowInfo> renamed = m_scene->windows();
    renamed[0].title = QStringLiteral("renamed");
    m_scene->setWindows(renamed);
    tracker.poll();
    tracker.poll();
    QCOMPARE(r.lists.size(), 6);
}

void TestWindowTracker::intervalPollsOnItsOwn()
{
    WindowTracker tracker(options(20));
    Reports r(&tracker);
    tracker.start();
    QCOMPARE(r.lists.size(), 1);
    int polls = tracker.pollCount();
    QTRY_VERIFY(tracker.pollCount() >= polls + 3); // several polls, nothing changed: nothing reported
    QCOMPARE(r.lists.size(), 1);
    m_scene->setWindows({window(1, QRect(0, 0, 640, 400), true)});
    QTRY_COMPARE(r.lists.size(), 2);
    polls = tracker.pollCount();
    QTRY_VERIFY(tracker.pollCount() >= polls + 3);
    QCOMPARE(r.lists.size(), 2);
    QCOMPARE(r.actives.last(), quint64(1));
    tracker.stop();
    QVERIFY(!tracker.isRunning());
    // Stopped: its timer is off, so no poll can come; an explicit poll still reads the display.
    const QList<QTimer*> timers = tracker.findChildren<QTimer*>();
    QCOMPARE(timers.size(), 1);
    QVERIFY(!timers.first()->isActive());
    m_scene->setWindows({});
    QCOMPARE(r.lists.size(), 2);
    tracker.poll();
    QCOMPARE(r.lists.size(), 3);
}

void TestWindowTracker::disconnectedDisplayReportsNothing()
{
    WindowTracker tracker(options());
    Reports r(&tracker);
    tracker.start();
    QCOMPARE(r.lists.size(), 1);
    m_scene->setConnected(false);
    m_scene->setWindows({});
    tracker.poll();
    QCOMPARE(r.lists.size(), 1); // not "no windows": nothing known
    m_scene->setConnected(true);
    tracker.poll();
    QCOMPARE(r.lists.size(), 2);
    QVERIFY(r.lists.last().isEmpty());
}

void TestWindowTracker::unknownBackendFails()
{
    WindowTracker tracker({QStringLiteral("no-such-backend"), m_display, 0});
    Reports r(&tracker);
    QSignalSpy errors(&tracker, &WindowTracker::errorOccurred);
    tracker.start();
    QCOMPARE(errors.size(), 1);
    QVERIFY(!tracker.isRunning());
    tracker.poll();
    QVERIFY(r.lists.isEmpty());
}

void TestWindowTracker::givenPlatformIsUsed()
{
    auto opened = platform::createPlatform({QStringLiteral("synthetic"), m_display});
    QVERIFY2(opened.platform, qPrintable(opened.error));
    WindowTracker tracker(std::move(opened.platform));
    Reports r(&tracker);
    tracker.poll(); // usable before start()
    QCOMPARE(r.lists.size(), 1);
    tracker.start(); // nothing changed since
    QCOMPARE(r.lists.size(), 1);
}

QTEST_GUILESS_MAIN(TestWindowTracker)
#include "tst_windowtracker.moc"
