// Waiting for zone maps without a Director: a wait ends on the current map or on a later one that meets its
// predicate, or at its timeout; a new wait replaces the last one; a cancelled wait never answers; the account
// of second looks (which answer is the one waited for).

#include "core/director/mapwaiter.h"

#include <QTest>

using namespace ciu;

namespace {

ZoneMapPtr mapAt(quint64 version)
{
    return std::make_shared<const ZoneMap>(version, 0, QSize(1280, 800), QList<Zone>{});
}

MapWaiter::Predicate newerThan(quint64 version)
{
    return [version](const ZoneMap& m) { return m.version() > version; };
}

} // namespace

class TestMapWaiter : public QObject
{
    Q_OBJECT
private slots:
    void currentMapEndsTheWaitAtOnce();
    void laterMapEndsTheWait();
    void timeoutAnswersFalse();
    void newWaitReplacesTheLast();
    void cancelledWaitNeverAnswers();
    void quietAfterTheDeadlineAtOnce();
    void secondLooks();
};

void TestMapWaiter::currentMapEndsTheWaitAtOnce()
{
    QObject owner;
    ZoneMapPtr current = mapAt(3);
    MapWaiter waiter(&owner, [&current] { return current.get(); });
    QList<bool> answers;
    waiter.wait(newerThan(2), 60'000, [&answers](bool arrived) { answers << arrived; });
    QCOMPARE(answers, QList<bool>{true});
    waiter.check(); // over: no second answer
    QCOMPARE(answers, QList<bool>{true});
}

void TestMapWaiter::laterMapEndsTheWait()
{
    QObject owner;
    ZoneMapPtr current; // no map yet
    MapWaiter waiter(&owner, [&current] { return current.get(); });
    QList<bool> answers;
    waiter.wait(newerThan(3), 60'000, [&answers](bool arrived) { answers << arrived; });
    waiter.check();
    QVERIFY(answers.isEmpty());
    current = mapAt(3);
    waiter.check();
    QVERIFY(answers.isEmpty());
    current = mapAt(4);
    waiter.check();
    QCOMPARE(answers, QList<bool>{true});
}

void TestMapWaiter::timeoutAnswersFalse()
{
    QObject owner;
    ZoneMapPtr current = mapAt(1);
    MapWaiter waiter(&owner, [&current] { return current.get(); });
    QList<bool> answers;
    waiter.wait(newerThan(1), 0, [&answers](bool arrived) { answers << arrived; });
    QVERIFY(answers.isEmpty());
    QTRY_COMPARE(answers, QList<bool>{false});
    current = mapAt(2);
    waiter.check(); // over: the map that came late is no answer
    QCOMPARE(answers, QList<bool>{false});
}

void TestMapWaiter::newWaitReplacesTheLast()
{
    QObject owner;
    ZoneMapPtr current = mapAt(1);
    MapWaiter waiter(&owner, [&current] { return current.get(); });
    QStringList answers;
    waiter.wait(newerThan(1), 60'000, [&answers](bool) { answers << QStringLiteral("first"); });
    waiter.wait(newerThan(5), 60'000, [&answers](bool) { answers << QStringLiteral("second"); });
    current = mapAt(3);
    waiter.check(); // would meet the first wait's predicate only
    QVERIFY(answers.isEmpty());
    current = mapAt(6);
    waiter.check();
    QCOMPARE(answers, QStringList{QStringLiteral("second")});
}

void TestMapWaiter::cancelledWaitNeverAnswers()
{
    QObject owner;
    ZoneMapPtr current = mapAt(1);
    MapWaiter waiter(&owner, [&current] { return current.get(); });
    QList<bool> answers;
    waiter.wait(newerThan(1), 0, [&answers](bool arrived) { answers << arrived; });
    waiter.cancel();
    current = mapAt(2);
    waiter.check();
    QCoreApplication::processEvents(); // the timeout would have come by now
    QVERIFY(answers.isEmpty());
}

void TestMapWaiter::quietAfterTheDeadlineAtOnce()
{
    QObject owner;
    ZoneMapPtr current = mapAt(1);
    MapWaiter waiter(&owner, [&current] { return current.get(); });
    const SessionClock clock;
    int quiet = 0;
    waiter.waitForQuiet(clock.nowNs() - 1, 500, clock, [&quiet] { ++quiet; });
    QCOMPARE(quiet, 1);
}

void TestMapWaiter::secondLooks()
{
    QObject owner;
    MapWaiter waiter(&owner, [] { return nullptr; });
    QCOMPARE(waiter.caughtUpNs(), qint64(0)); // no look answered yet
    const quint64 first = waiter.beginLook(1000);
    QCOMPARE(first, quint64(1));
    QVERIFY(!waiter.takeAnswer(0));
    QCOMPARE(waiter.caughtUpNs(), qint64(0));
    QVERIFY(waiter.takeAnswer(first));
    QVERIFY(waiter.lookAnswered(first));
    QCOMPARE(waiter.caughtUpNs(), qint64(1000)); // the canvas saw the screen as it was when asked
    QVERIFY(!waiter.takeAnswer(first));          // answered once
    const quint64 second = waiter.beginLook(2000);
    QCOMPARE(second, quint64(2));
    waiter.endLook(second); // its wait is over: a later answer is too late
    QVERIFY(!waiter.takeAnswer(second));
    QVERIFY(!waiter.lookAnswered(second));
    QCOMPARE(waiter.caughtUpNs(), qint64(1000)); // an answer too late proves nothing
    const quint64 third = waiter.beginLook(3000);
    waiter.cancel(); // the task ended
    QVERIFY(!waiter.takeAnswer(third));
    QCOMPARE(waiter.caughtUpNs(), qint64(1000));
}

QTEST_GUILESS_MAIN(TestMapWaiter)
#include "tst_mapwaiter.moc"
