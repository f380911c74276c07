// ZoneCorrections and windows: corrections follow the window of their class whose title matches their
// title pattern, are not shown while no such window is there, and keep their pattern across sessions.

#include "ui/zonecorrections.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using namespace ciu::ui;

namespace {

const QString kApp = QStringLiteral("XCalc");

platform::WindowInfo window(quint64 id, const QString& title, QPoint origin, bool active = false)
{
    platform::WindowInfo w;
    w.id = id;
    w.windowClass = kApp;
    w.title = title;
    w.geometry = QRect(origin, QSize(300, 400));
    w.active = active;
    return w;
}

Zone detected(const QString& id, const QRect& bounds, const QString& label)
{
    Zone z;
    z.id = id;
    z.bounds = bounds;
    z.type = ZoneType::Button;
    z.label = label;
    z.confidence = 0.7;
    z.source = ZoneSource::Local;
    z.application = kApp;
    return z;
}

// Two calculator windows (the same class): the key "7" at (10, 10) in each.
ZoneMapPtr twoCalculators(QPoint first, QPoint second)
{
    return std::make_shared<const ZoneMap>(
        1, 100, QSize(1280, 800),
        QList<Zone>{
            detected(QStringLiteral("z1"), QRect(first + QPoint(10, 10), QSize(40, 30)), QStringLiteral("7")),
            detected(QStringLiteral("z2"), QRect(second + QPoint(10, 10), QSize(40, 30)),
                     QStringLiteral("7"))});
}

const Zone* labelled(const ZoneMap& map, const QString& label)
{
    for (const Zone& z : map.zones()) {
        if (z.label == label)
            return &z;
    }
    return nullptr;
}

} // namespace

class TestZoneCorrections : public QObject
{
    Q_OBJECT
private slots:
    void titlePatternPicksTheWindow();
    void invalidPatternChangesNothing();
};

void TestZoneCorrections::titlePatternPicksTheWindow()
{
    QTemporaryDir dir;
    const QPoint scientific(100, 50);
    const QPoint basic(600, 50);
    QString userId;
    {
        ZoneCorrections doc{CorrectionStore(dir.path())};
        // The basic calculator is on top and active; the scientific one below it.
        doc.setWindows({window(1, QStringLiteral("Scientific calculator"), scientific),
                        window(2, QStringLiteral("Calculator"), basic, true)});
        doc.setBaseMap(twoCalculators(scientific, basic));
        QCOMPARE(doc.windowOrigin(kApp), basic); // no pattern: the active window of the class
        QString error;
        QVERIFY2(doc.setTitlePattern(kApp, QStringLiteral("scientific*"), &error), qPrintable(error));
        QCOMPARE(doc.windowOrigin(kApp), scientific);
        // The user relabels the scientific calculator's "7": stored relative to that window.
        const Zone seven = *doc.effectiveMap()->find(QStringLiteral("z1"));
        QSignalSpy userZones(&doc, &ZoneCorrections::userZonesChanged);
        Zone edited = seven;
        edited.label = QStringLiteral("seven");
        doc.setCorrections(doc.withZoneReplaced(seven, edited, newUserZoneId()));
        QCOMPARE(userZones.count(), 1);
        const Zone* user = labelled(*doc.effectiveMap(), QStringLiteral("seven"));
        QVERIFY(user);
        userId = user->id;
        QCOMPARE(user->bounds.topLeft(), scientific + QPoint(10, 10));
        QCOMPARE(doc.corrections(kApp).zones.first().bounds.topLeft(), QPoint(10, 10));
        QVERIFY(doc.effectiveMap()->find(QStringLiteral("z2"))); // the other window's key is untouched
        QCOMPARE(doc.effectiveMap()->find(QStringLiteral("z2"))->label, QStringLiteral("7"));
    }
    // Next session: both windows moved, the scientific one is now on top; the correction follows it.
    ZoneCorrections doc{CorrectionStore(dir.path())};
    const QPoint scientific2(700, 300);
    const QPoint basic2(20, 300);
    doc.setWindows({window(2, QStringLiteral("Calculator"), basic2, true),
                    window(1, QStringLiteral("Scientific calculator"), scientific2)});
    doc.setBaseMap(twoCalculators(scientific2, basic2));
    QCOMPARE(doc.corrections(kApp).titlePattern, QStringLiteral("scientific*"));
    QCOMPARE(doc.windowOrigin(kApp), scientific2);
    const Zone* user = doc.effectiveMap()->find(userId);
    QVERIFY(user);
    QCOMPARE(user->bounds.topLeft(), scientific2 + QPoint(10, 10));
    QVERIFY(!doc.effectiveMap()->find(QStringLiteral("z1"))); // replaced by the user's zone
    QCOMPARE(doc.effectiveMap()->find(QStringLiteral("z2"))->label, QStringLiteral("7"));
    QCOMPARE(doc.userZones().size(), 1);
    QCOMPARE(doc.userZones().first().bounds.topLeft(), scientific2 + QPoint(10, 10));

    // The scientific calculator closes: its correction is not shown anywhere (not over the other window,
    // not floating where it was), and it comes back with the window.
    QSignalSpy userZones(&doc, &ZoneCorrections::userZonesChanged);
    doc.setWindows({window(2, QStringLiteral("Calculator"), basic2, true)});
    doc.setBaseMap(std::make_shared<const ZoneMap>(
        2, 200, QSize(1280, 800),
        QList<Zone>{detected(QStringLiteral("z2"), QRect(basic2 + QPoint(10, 10), QSize(40, 30)),
                             QStringLiteral("7"))}));
    QVERIFY(!doc.isWindowPresent(kApp));
    QVERIFY(!labelled(*doc.effectiveMap(), QStringLiteral("seven")));
    QCOMPARE(doc.effectiveMap()->find(QStringLiteral("z2"))->label, QStringLiteral("7"));
    QVERIFY(userZones.count() >= 1);
    QVERIFY(userZones.constLast().first().value<QList<Zone>>().isEmpty());
    QVERIFY(doc.suppressedRegions().isEmpty());
    doc.setWindows({window(2, QStringLiteral("Calculator"), basic2, true),
                    window(3, QStringLiteral("Scientific calculator"), QPoint(400, 400))});
    QCOMPARE(userZones.constLast().first().value<QList<Zone>>().size(), 1);
    QCOMPARE(labelled(*doc.effectiveMap(), QStringLiteral("seven"))->bounds.topLeft(), QPoint(410, 410));
}

void TestZoneCorrections::invalidPatternChangesNothing()
{
    QTemporaryDir dir;
    ZoneCorrections doc{CorrectionStore(dir.path())};
    doc.setWindows({window(1, QStringLiteral("Calculator"), QPoint(50, 50), true)});
    QVERIFY(doc.setTitlePattern(kApp, QStringLiteral("Calc*")));
    QString error;
    QVERIFY(!doc.setTitlePattern(kApp, QStringLiteral("[Calc"), &error));
    QVERIFY2(error.contains(QLatin1String("invalid title pattern")), qPrintable(error));
    QCOMPARE(doc.corrections(kApp).titlePattern, QStringLiteral("Calc*"));
    const auto stored = doc.store().load(kApp);
    QVERIFY(stored);
    QCOMPARE(stored->titlePattern, QStringLiteral("Calc*"));
}

QTEST_MAIN(TestZoneCorrections)
#include "tst_zonecorrections.moc"
