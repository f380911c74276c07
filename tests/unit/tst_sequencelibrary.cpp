// The MAX speed mode's recorded-sequence library: task matching (normalisation), atomic storage, zone
// references resolved against other zone maps, and corrupt files reported and ignored.

#include "core/director/sequencelibrary.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;

namespace {

Zone zone(const QString& id, ZoneType type, const QString& label, QRect bounds)
{
    Zone z;
    z.id = id;
    z.type = type;
    z.label = label;
    z.bounds = bounds;
    z.confidence = 0.9;
    return z;
}

ZoneMap form(const QString& prefix = {}, QPoint offset = {})
{
    return ZoneMap(1, 0, QSize(1280, 800),
                   {zone(prefix + QStringLiteral("a"), ZoneType::Static, QStringLiteral("Name:"),
                         QRect(20, 60, 50, 20).translated(offset)),
                    zone(prefix + QStringLiteral("b"), ZoneType::TextField, QString(),
                         QRect(90, 58, 300, 24).translated(offset)),
                    zone(prefix + QStringLiteral("c"), ZoneType::Static, QStringLiteral("City:"),
                         QRect(20, 100, 50, 20).translated(offset)),
                    zone(prefix + QStringLiteral("d"), ZoneType::TextField, QString(),
                         QRect(90, 98, 300, 24).translated(offset)),
                    zone(prefix + QStringLiteral("e"), ZoneType::Button, QStringLiteral("Submit"),
                         QRect(20, 500, 80, 30).translated(offset))});
}

RecordedSequence sample(const QString& task)
{
    RecordedSequence s;
    s.task = task;
    s.planner = QStringLiteral("anthropic");
    s.recordedAt = QDateTime::currentDateTimeUtc();
    const ZoneMap map = form();
    ProposedAction click;
    click.action.type = Action::Type::LeftClick;
    click.action.zoneId = QStringLiteral("e");
    s.steps.append(*RecordedStep::from(click, &map));
    return s;
}

} // namespace

class TestSequenceLibrary : public QObject
{
    Q_OBJECT
private slots:
    void normalize_data();
    void normalize();
    void storeAndFind();
    void captionsResolveOnAnotherMap();
    void rawCoordinatesAreNotRecorded();
    void corruptFiles_data();
    void corruptFiles();
};

void TestSequenceLibrary::normalize_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::addColumn<bool>("same");
    QTest::newRow("case and punctuation") << "Click OK, then Submit."
                                          << "click ok submit" << true;
    QTest::newRow("filler words") << "Please open the File menu and choose Open"
                                  << "open File menu, choose Open" << true;
    QTest::newRow("white space") << "press  ctrl+s\n"
                                 << "Press ctrl+s" << true;
    QTest::newRow("other key") << "press ctrl+s"
                               << "press ctrl+w" << false;
    QTest::newRow("quoted text is exact") << "type \"Ada\" into Name"
                                          << "type \"ada\" into Name" << false;
    QTest::newRow("quoted text kept") << "type \"Ada\" into Name"
                                      << "Type \"Ada\" into name." << true;
    QTest::newRow("other words") << "click OK"
                                 << "click Cancel" << false;
}

void TestSequenceLibrary::normalize()
{
    QFETCH(QString, a);
    QFETCH(QString, b);
    QFETCH(bool, same);
    QCOMPARE(SequenceLibrary::normalizeTask(a) == SequenceLibrary::normalizeTask(b), same);
}

void TestSequenceLibrary::storeAndFind()
{
    QTemporaryDir dir;
    const SequenceLibrary library(dir.filePath(QStringLiteral("deep/sequences")));
    const QString task = QStringLiteral("Click Submit.");
    QVERIFY(!library.find(task));
    QString error;
    QVERIFY2(library.store(sample(task), &error), qPrintable(error));
    QString warning;
    const auto found = library.find(QStringLiteral("click submit"), &warning);
    QVERIFY2(found, qPrintable(warning));
    QVERIFY(warning.isEmpty());
    QCOMPARE(found->task, task);
    QCOMPARE(found->steps.size(), 1);
    QCOMPARE(found->steps.first().target.label, QStringLiteral("Submit"));
    QVERIFY(found->steps.first().action.zoneId.isEmpty());
    // One file, written atomically (no temporary left behind).
    const QStringList files = QDir(library.directory()).entryList(QDir::Files);
    QCOMPARE(files, QStringList{QFileInfo(library.pathFor(task)).fileName()});
    QVERIFY(!library.find(QStringLiteral("click cancel")));
}

void TestSequenceLibrary::captionsResolveOnAnotherMap()
{
    const ZoneMap before = form();
    ProposedAction type;
    type.action.type = Action::Type::TypeText;
    type.action.text = QStringLiteral("Paris");
    type.focusZoneId = QStringLiteral("d");
    const auto step = RecordedStep::from(type, &before);
    QVERIFY(step);
    QCOMPARE(step->focus.caption, QStringLiteral("City:")); // the unlabelled field by its caption
    QVERIFY(step->focus.label.isEmpty());
    // Another run: other ids, the window moved.
    const ZoneMap after = form(QStringLiteral("x"), QPoint(200, 40));
    QString error;
    const auto found = step->focus.resolve(after, &error);
    QVERIFY2(found, qPrintable(error));
    QCOMPARE(found->id, QStringLiteral("xd"));
    // A map without it: a clear error.
    const ZoneMap other(
        2, 0, QSize(1280, 800),
        {zone(QStringLiteral("q"), ZoneType::Button, QStringLiteral("Close"), QRect(0, 0, 50, 20))});
    QVERIFY(!step->focus.resolve(other, &error));
    QVERIFY2(error.contains(QStringLiteral("City:")), qPrintable(error));
}

void TestSequenceLibrary::rawCoordinatesAreNotRecorded()
{
    const ZoneMap map = form();
    ProposedAction click;
    click.action.type = Action::Type::LeftClick;
    click.action.point = QPoint(100, 100);
    QVERIFY(!RecordedStep::from(click, &map));
    click.action.zoneId = QStringLiteral("missing");
    QVERIFY(!RecordedStep::from(click, &map));
    click.action.zoneId = QStringLiteral("e"); // an offset inside a known zone: the zone is recorded
    const auto step = RecordedStep::from(click, &map);
    QVERIFY(step);
    QVERIFY(!step->action.point);
}

void TestSequenceLibrary::corruptFiles_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("why");
    QTest::newRow("truncated") << QByteArray("{\"format\": 1, \"task\": \"x\", \"st") << "not a JSON object";
    QTest::newRow("array") << QByteArray("[1, 2]") << "not a JSON object";
    QTest::newRow("other format") << QByteArray(R"({"format": 7, "task": "click submit"})") << "format 7";
    QTest::newRow("no steps")
        << QByteArray(
               R"({"format": 1, "task": "click submit", "normalized_task": "click submit", "steps": []})")
        << "no steps";
    QTest::newRow("bad zone type")
        << QByteArray(
               R"({"format": 1, "task": "click submit", "normalized_task": "click submit", "steps": [)"
               R"({"action": {"action": "left_click"}, "target": {"label": "OK", "type": "spaceship"}}]})")
        << "spaceship";
    QTest::newRow("raw coordinates")
        << QByteArray(R"({"format": 1, "task": "click submit", "normalized_task": "click submit", "steps": [)"
                      R"({"action": {"action": "left_click", "coordinate": [10, 10]}}]})")
        << "raw coordinates";
}

void TestSequenceLibrary::corruptFiles()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, why);
    QTemporaryDir dir;
    const SequenceLibrary library(dir.path());
    const QString task = QStringLiteral("click submit");
    QFile file(library.pathFor(task));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
    file.close();
    QString warning;
    QVERIFY(!library.find(task, &warning));
    QVERIFY2(warning.startsWith(QStringLiteral("ignoring the recorded sequence ") + library.pathFor(task)),
             qPrintable(warning));
    QVERIFY2(warning.contains(why), qPrintable(warning));
    QVERIFY(QFile::exists(library.pathFor(task))); // reported, never deleted
    // Storing a good one replaces it.
    QVERIFY(library.store(sample(task)));
    QVERIFY(library.find(task, &warning));
}

QTEST_GUILESS_MAIN(TestSequenceLibrary)
#include "tst_sequencelibrary.moc"
