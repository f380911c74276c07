// Windows as targets of a step, and a static label naming its field, without a Director: a name matched
// against the windows' titles and WM_CLASS (exact before case-insensitive before fuzzy, never the agent's
// own window, two windows of one name ambiguous); the rule between a zone and a window of the same name (an
// exactly matching zone wins, a window matching more exactly wins, the window's own title bar is the
// window); the local planner's actions for `click xterm` and `type "ls" into xterm`; the text typed into a
// window read back from what it shows; and `type X into "File name"` on a label resolving to the field the
// label names (on the same row first, then below).

#include "core/director/localplanner.h"
#include "core/director/verification.h"
#include "core/director/windowtargets.h"
#include "core/model/metatypes.h"
#include "tests/support/testzones.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>

using namespace ciu;
using ciu::test::zone;

namespace {

platform::WindowInfo window(quint64 id, const QString& title, const QString& windowClass,
                            const QString& instance, QRect geometry, qint64 pid = 4242)
{
    platform::WindowInfo w;
    w.id = id;
    w.title = title;
    w.windowClass = windowClass;
    w.instance = instance;
    w.geometry = geometry;
    w.pid = pid;
    return w;
}

QList<platform::WindowInfo> desktop()
{
    return {window(0x100, QStringLiteral("xterm"), QStringLiteral("XTerm"), QStringLiteral("xterm"),
                   QRect(40, 60, 600, 400)),
            window(0x200, QStringLiteral("Untitled 1 - Mousepad"), QStringLiteral("Mousepad"),
                   QStringLiteral("mousepad"), QRect(700, 60, 500, 400)),
            window(0x300, QStringLiteral("Submit"), QStringLiteral("XTerm"), QStringLiteral("xterm-2"),
                   QRect(40, 500, 400, 200)),
            window(0x400, QStringLiteral("CIU Agent"), QStringLiteral("ciu-agent"),
                   QStringLiteral("ciu-agent"), QRect(700, 500, 400, 200),
                   QCoreApplication::applicationPid())};
}

ZoneMapPtr mapOf(const QList<Zone>& zones)
{
    return std::make_shared<const ZoneMap>(1, 0, QSize(1280, 800), zones);
}

// The next decision of a local planner running `task` on `zones` with the desktop's windows.
struct PlannerRun
{
    LocalPlanner planner;
    QList<Decision> decisions;

    explicit PlannerRun(const QString& task)
    {
        QObject::connect(&planner, &PlanBackend::decided, &planner,
                         [this](const Decision& d) { decisions.append(d); });
        QString error;
        const bool ok = planner.begin(task, &error);
        Q_ASSERT(ok);
        Q_UNUSED(ok)
    }
    Decision decide(const QList<Zone>& zones)
    {
        WorldState world;
        world.map = mapOf(zones);
        world.windows = desktop();
        world.dryRun = false;
        planner.decide(world);
        return decisions.last();
    }
    void executed(const ProposedAction& p)
    {
        ActionOutcome o;
        o.status = ActionOutcome::Status::Executed;
        o.result.success = true;
        planner.report(p, o);
    }
};

} // namespace

class TestDirectorWindows : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { registerMetaTypes(); }
    void windowNames_data();
    void windowNames();
    void zoneOrWindow_data();
    void zoneOrWindow();
    void clickActivatesWindow();
    void typeIntoWindow();
    void zoneOfTheSameNameWins();
    void windowTextReadBack_data();
    void windowTextReadBack();
    void labelNamesItsField_data();
    void labelNamesItsField();
    void fieldTextReadFromTheWholeField();
};

void TestDirectorWindows::windowNames_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<quint64>("id"); // 0: none
    QTest::addColumn<int>("exactness");
    QTest::addColumn<bool>("ambiguous");
    QTest::newRow("instance, exact") << "xterm" << quint64(0x100) << 2 << false;
    QTest::newRow("class, exact") << "Mousepad" << quint64(0x200) << 2 << false;
    QTest::newRow("instance, case") << "MOUSEPAD" << quint64(0x200) << 1 << false;
    QTest::newRow("title, exact") << "Submit" << quint64(0x300) << 2 << false;
    QTest::newRow("fuzzy") << "Mousepd" << quint64(0x200) << 0 << false;
    // Two windows of class XTerm: the class names neither.
    QTest::newRow("class of two") << "XTerm" << quint64(0) << 2 << true;
    QTest::newRow("own window") << "CIU Agent" << quint64(0) << 0 << false;
    QTest::newRow("nothing") << "Calculator" << quint64(0) << 0 << false;
}

void TestDirectorWindows::windowNames()
{
    QFETCH(QString, name);
    QFETCH(quint64, id);
    QFETCH(int, exactness);
    QFETCH(bool, ambiguous);
    const WindowTargets::Result r =
        WindowTargets::resolve(name, desktop(), QCoreApplication::applicationPid());
    QCOMPARE(r.ambiguous, ambiguous);
    if (id == 0) {
        QVERIFY(!r.match);
        QVERIFY(!r.error.isEmpty());
        if (ambiguous)
            QVERIFY2(r.error.contains(QLatin1String("0x100")) && r.error.contains(QLatin1String("0x300")),
                     qPrintable(r.error));
        return;
    }
    QVERIFY2(r.match, qPrintable(r.error));
    QCOMPARE(r.match->window.id, id);
    QCOMPARE(r.match->exactness, exactness);
}

void TestDirectorWindows::zoneOrWindow_data()
{
    QTest::addColumn<QList<Zone>>("zones");
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("window");
    const Zone submit =
        zone(QStringLiteral("z1"), ZoneType::Button, QStringLiteral("Submit"), QRect(700, 300, 80, 30));
    const Zone shouting =
        zone(QStringLiteral("z1"), ZoneType::Button, QStringLiteral("SUBMIT"), QRect(700, 300, 80, 30));
    // The title bar openbox draws above the xterm's client area (y 60), read by OCR.
    const Zone title =
        zone(QStringLiteral("z2"), ZoneType::Static, QStringLiteral("xterm"), QRect(300, 40, 50, 16));
    const Zone inside =
        zone(QStringLiteral("z3"), ZoneType::Static, QStringLiteral("xterm"), QRect(60, 100, 50, 16));
    QTest::newRow("no zone: the window") << QList<Zone>{} << "Submit" << true;
    QTest::newRow("both exact: the zone") << QList<Zone>{submit} << "Submit" << false;
    QTest::newRow("window more exact") << QList<Zone>{shouting} << "Submit" << true;
    QTest::newRow("zone more exact") << QList<Zone>{submit} << "submit" << false;
    QTest::newRow("the window's title bar") << QList<Zone>{title} << "xterm" << true;
    QTest::newRow("text in the window") << QList<Zone>{inside} << "xterm" << false;
}

void TestDirectorWindows::zoneOrWindow()
{
    QFETCH(QList<Zone>, zones);
    QFETCH(QString, name);
    QFETCH(bool, window);
    const ZoneMap map(1, 0, QSize(1280, 800), zones);
    const WindowTargets::Result w = WindowTargets::resolve(name, desktop(), 0);
    QVERIFY2(w.match, qPrintable(w.error));
    const ZoneResolver::Result z = ZoneResolver::resolve(name, map, ZoneResolver::Purpose::Click);
    QCOMPARE(WindowTargets::prefersWindow(z, *w.match), window);
}

void TestDirectorWindows::clickActivatesWindow()
{
    PlannerRun run(QStringLiteral("click Mousepad"));
    const Decision d = run.decide({});
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(d.actions.size(), 1);
    QCOMPARE(int(d.actions[0].action.type), int(Action::Type::ActivateWindow));
    QCOMPARE(d.actions[0].action.windowId, quint64(0x200));
    QVERIFY(d.actions[0].action.zoneId.isEmpty());
    run.executed(d.actions[0]);
    QCOMPARE(int(run.decide({}).kind), int(Decision::Kind::Complete));
}

void TestDirectorWindows::typeIntoWindow()
{
    PlannerRun run(QStringLiteral("type \"ls\\n\" into xterm"));
    const Decision first = run.decide({});
    QCOMPARE(int(first.kind), int(Decision::Kind::Act));
    QCOMPARE(int(first.actions[0].action.type), int(Action::Type::ActivateWindow));
    QCOMPARE(first.actions[0].action.windowId, quint64(0x100));
    run.executed(first.actions[0]);
    // No select-all in a window (a terminal takes ctrl+a as "start of line"): the text, read back there.
    const Decision second = run.decide({});
    QCOMPARE(int(second.kind), int(Decision::Kind::Act));
    const ProposedAction& type = second.actions[0];
    QCOMPARE(int(type.action.type), int(Action::Type::TypeText));
    QCOMPARE(type.action.text, QStringLiteral("ls\n"));
    QCOMPARE(int(type.expect.kind), int(Expectation::Kind::WindowShowsText));
    QCOMPARE(type.expect.windowId, quint64(0x100));
    QVERIFY(!type.expect.repeatable); // a command is never typed twice
    // Its effect not seen: the step goes on, the task ends unverified (never typed again).
    ActionOutcome o;
    o.status = ActionOutcome::Status::Executed;
    o.result.success = true;
    o.verificationFailed = true;
    o.message = QStringLiteral("executed, but the typed text did not appear in window 0x100");
    run.planner.report(type, o);
    const Decision last = run.decide({});
    QCOMPARE(int(last.kind), int(Decision::Kind::Unverified));
    QVERIFY2(last.message.contains(QLatin1String("0x100")), qPrintable(last.message));
}

void TestDirectorWindows::zoneOfTheSameNameWins()
{
    PlannerRun run(QStringLiteral("click Submit"));
    const Decision d = run.decide(
        {zone(QStringLiteral("z9"), ZoneType::Button, QStringLiteral("Submit"), QRect(700, 300, 80, 30))});
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(int(d.actions[0].action.type), int(Action::Type::LeftClick));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("z9"));
}

void TestDirectorWindows::windowTextReadBack_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("seen");
    QTest::addColumn<bool>("shows");
    QTest::newRow("echoed command") << "echo hi-ciu > out.txt\n"
                                    << "$ echo hi-ciu > out.txt\n$ " << true;
    QTest::newRow("a reading slip") << "echo hi-ciu > out.txt\n"
                                    << "$ ech0 hi-ciu >out.txt\n$" << true;
    QTest::newRow("two lines") << "ls\npwd"
                               << "$ ls\nout.txt\n$ pwd\n/tmp" << true;
    QTest::newRow("one line missing") << "ls\npwd"
                                      << "$ ls\nout.txt\n$" << false;
    QTest::newRow("nothing typed") << "echo hi-ciu > out.txt\n"
                                   << "$ " << false;
    QTest::newRow("another command") << "echo hi-ciu > out.txt"
                                     << "$ cat notes.txt | sort" << false;
}

void TestDirectorWindows::windowTextReadBack()
{
    QFETCH(QString, typed);
    QFETCH(QString, seen);
    QFETCH(bool, shows);
    Expectation e;
    e.kind = Expectation::Kind::WindowShowsText;
    e.text = typed;
    e.windowId = 0x100;
    QString why;
    QCOMPARE(ActionVerifier::windowShowsText(e, seen, &why), shows);
    QCOMPARE(why.isEmpty(), shows);
    if (!shows)
        QVERIFY2(why.contains(QLatin1String("window 0x100")), qPrintable(why));
}

void TestDirectorWindows::labelNamesItsField_data()
{
    QTest::addColumn<QList<Zone>>("zones");
    QTest::addColumn<QString>("expected"); // the zone `type "x" into "File name"` resolves to
    const Zone label =
        zone(QStringLiteral("l1"), ZoneType::Static, QStringLiteral("File name:"), QRect(20, 300, 80, 20));
    const Zone right = zone(QStringLiteral("f1"), ZoneType::TextField, QString(), QRect(120, 298, 200, 24));
    // A field just under the row (closer to the label than the field beside it, as in a Tk dialog whose
    // rows are packed tight): the field on the label's own row is the one it names.
    const Zone below = zone(QStringLiteral("f2"), ZoneType::TextField, QString(), QRect(20, 322, 300, 24));
    const Zone combo =
        zone(QStringLiteral("d1"), ZoneType::Dropdown, QStringLiteral("All files"), QRect(120, 298, 200, 24));
    const Zone value =
        zone(QStringLiteral("s1"), ZoneType::Static, QStringLiteral("Untitled.txt"), QRect(125, 301, 90, 18));
    QTest::newRow("same row before below") << QList<Zone>{label, below, right} << "f1";
    QTest::newRow("below when the row has none") << QList<Zone>{label, below} << "f2";
    QTest::newRow("a drop-down beside it") << QList<Zone>{label, combo} << "d1";
    QTest::newRow("static text is not a field") << QList<Zone>{label, value} << "l1";
    // Tk draws "File name:" flat; vision may take it for a tab. One cannot type into a tab either: the field
    // beside it is meant (the Tk save dialog of bench/tasks).
    Zone tab = label;
    tab.type = ZoneType::Tab;
    QTest::newRow("a label taken for a tab") << QList<Zone>{tab, value, right} << "f1";
    Zone button = label;
    button.type = ZoneType::Button;
    QTest::newRow("a label taken for a button") << QList<Zone>{button, below} << "f2";
}

void TestDirectorWindows::labelNamesItsField()
{
    QFETCH(QList<Zone>, zones);
    QFETCH(QString, expected);
    const ZoneMap map(1, 0, QSize(1280, 800), zones);
    const ZoneResolver::Result r =
        ZoneResolver::resolve(QStringLiteral("File name"), map, ZoneResolver::Purpose::TypeInto);
    QVERIFY2(r.zone, qPrintable(r.error));
    QCOMPARE(r.zone->id, expected);
    if (expected != QLatin1String("l1")) {
        QVERIFY(r.matchedZone);
        QCOMPARE(r.matchedZone->id, QStringLiteral("l1"));
    }
}

void TestDirectorWindows::fieldTextReadFromTheWholeField()
{
    // Tk's save dialog as vision saw it: the label (taken for a tab), the entry's text "Untitled.txt" as
    // static text, and only the entry's empty right part as the text field.
    const Zone label =
        zone(QStringLiteral("l1"), ZoneType::Tab, QStringLiteral("File name"), QRect(442, 455, 84, 32));
    const Zone text =
        zone(QStringLiteral("s1"), ZoneType::Static, QStringLiteral("Untitled.txt"), QRect(527, 468, 76, 19));
    const Zone field = zone(QStringLiteral("f1"), ZoneType::TextField, QStringLiteral("Untitled.txt"),
                            QRect(604, 468, 150, 21));
    const Zone save =
        zone(QStringLiteral("b1"), ZoneType::Button, QStringLiteral("Save"), QRect(760, 465, 92, 28));
    const Zone below = zone(QStringLiteral("s2"), ZoneType::Static, QStringLiteral("Files of type:"),
                            QRect(527, 499, 91, 22));
    const ZoneMap map(1, 0, QSize(1280, 800), {label, text, field, save, below});
    // The text beside the field joins it; the label (beyond that text), the button and the next row do not.
    QCOMPARE(ActionVerifier::readingBox(field, &map), QRect(527, 468, 227, 21));
    // The same text part taken for an unnamed slider (the next analysis of the same dialog).
    Zone blob = text;
    blob.type = ZoneType::Slider;
    blob.label.clear();
    blob.bounds = QRect(525, 468, 78, 21);
    const ZoneMap again(2, 0, QSize(1280, 800), {label, blob, field, save, below});
    QCOMPARE(ActionVerifier::readingBox(field, &again), QRect(525, 468, 229, 21));
    // A field with nothing beside it is read as it is.
    const ZoneMap alone(1, 0, QSize(1280, 800), {label, field, save});
    QCOMPARE(ActionVerifier::readingBox(field, &alone), field.bounds);
}

QTEST_GUILESS_MAIN(TestDirectorWindows)
#include "tst_directorwindows.moc"
