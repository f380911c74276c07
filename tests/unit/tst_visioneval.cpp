// The vision benchmark's evaluation: greedy IoU matching and its counts on hand-made ground truth, label
// normalisation, the role mapping of recorded nodes, and the corpus reader on good and bad files.

#include "bench/visioneval.h"

#include <QDir>
#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace ciu;
using namespace ciu::bench;

namespace {

Zone zone(const QRect& r, ZoneType type, const QString& label = {})
{
    Zone z;
    z.bounds = r;
    z.type = type;
    z.label = label;
    return z;
}

QJsonObject node(const QString& role, const QString& name, const QRect& r, const QStringList& states = {})
{
    return {{QStringLiteral("role"), role},
            {QStringLiteral("name"), name},
            {QStringLiteral("states"), QJsonArray::fromStringList(states)},
            {QStringLiteral("bounds"), QJsonArray{r.x(), r.y(), r.width(), r.height()}}};
}

QJsonObject sampleJson(const QString& image, const QJsonArray& zones)
{
    return {{QStringLiteral("format"), QStringLiteral("ciu-vision-corpus/1")},
            {QStringLiteral("image"), image},
            {QStringLiteral("program"), QStringLiteral("prog")},
            {QStringLiteral("toolkit"), QStringLiteral("gtk3")},
            {QStringLiteral("look"), QStringLiteral("adwaita-dark")},
            {QStringLiteral("state"), QStringLiteral("menu")},
            {QStringLiteral("set"), QStringLiteral("heldout")},
            {QStringLiteral("screen"),
             QJsonObject{{QStringLiteral("width"), 320}, {QStringLiteral("height"), 200}}},
            {QStringLiteral("windows"),
             QJsonArray{QJsonObject{{QStringLiteral("id"), 4194307},
                                    {QStringLiteral("class"), QStringLiteral("Prog")},
                                    {QStringLiteral("pid"), 77},
                                    {QStringLiteral("geometry"), QJsonArray{10, 20, 300, 170}}}}},
            {QStringLiteral("zones"), zones}};
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
}

void writePng(const QString& path)
{
    QImage image(320, 200, QImage::Format_RGB32);
    image.fill(Qt::white);
    QVERIFY(image.save(path));
}

} // namespace

class TestVisionEval : public QObject
{
    Q_OBJECT
private slots:
    void iouThreshold_data();
    void iouThreshold();
    void greedyTakesTheBestPairFirst();
    void typeAndLabelAccuracy();
    void drawnLabelsAreCountedApart();
    void labelShownInAReading_data();
    void labelShownInAReading();
    void staticZonesTakeNoPart();
    void countsAdd();
    void normalizedLabels_data();
    void normalizedLabels();
    void truthFromNodes();
    void readsASample();
    void badSamples_data();
    void badSamples();
    void corpusFolder();
};

// 3 truth boxes, 2 detections: one on a truth box, the other at the given IoU with another truth box.
void TestVisionEval::iouThreshold_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("matched");
    QTest::addColumn<double>("recall");
    QTest::addColumn<double>("precision");
    QTest::newRow("IoU 0.49: one match") << 49 << 1 << 1.0 / 3 << 0.5;
    QTest::newRow("IoU 0.50: two matches") << 50 << 2 << 2.0 / 3 << 1.0;
}

void TestVisionEval::iouThreshold()
{
    QFETCH(int, width);
    QFETCH(int, matched);
    QFETCH(double, recall);
    QFETCH(double, precision);
    const QList<Zone> truth{zone({0, 0, 100, 100}, ZoneType::Button),
                            zone({200, 0, 100, 100}, ZoneType::Button),
                            zone({400, 0, 100, 100}, ZoneType::Button)};
    // {200,0,width,100} inside {200,0,100,100}: IoU = width / 100.
    const QList<Zone> detected{zone({0, 0, 100, 100}, ZoneType::Button),
                               zone({200, 0, width, 100}, ZoneType::Button)};
    const FrameEvaluation e = evaluateFrame(truth, detected);
    QCOMPARE(e.counts.truth, 3);
    QCOMPARE(e.counts.detected, 2);
    QCOMPARE(e.counts.matched, matched);
    QCOMPARE(e.counts.recall(), recall);
    QCOMPARE(e.counts.precision(), precision);
    QCOMPARE(e.counts.typeAccuracy(), 1.0);
    QCOMPARE(e.matches.first().truthIndex, 0);
    QCOMPARE(e.matches.first().detectedIndex, 0);
    QCOMPARE(e.byTruthType.value(ZoneType::Button).truth, 3);
    QCOMPARE(e.byTruthType.value(ZoneType::Button).matched, matched);
}

// Detection 0 overlaps truth A a little and truth B well; detection 1 overlaps only A. Greedy by IoU
// pairs 0 with B first, so 1 gets A: two matches (in input order, 0 would have taken A and left B).
void TestVisionEval::greedyTakesTheBestPairFirst()
{
    const QList<Zone> truth{zone({0, 0, 100, 100}, ZoneType::Button),     // A
                            zone({30, 0, 100, 100}, ZoneType::Button)};   // B
    const QList<Zone> detected{zone({25, 0, 100, 100}, ZoneType::Button), // IoU A 0.6, B 0.905
                               zone({0, 0, 90, 100}, ZoneType::Button)};  // IoU A 0.9, B 0.52
    const FrameEvaluation e = evaluateFrame(truth, detected);
    QCOMPARE(e.counts.matched, 2);
    QCOMPARE(e.matches.size(), 2);
    QCOMPARE(e.matches.at(0).truthIndex, 1);
    QCOMPARE(e.matches.at(0).detectedIndex, 0);
    QCOMPARE(e.matches.at(1).truthIndex, 0);
    QCOMPARE(e.matches.at(1).detectedIndex, 1);
}

void TestVisionEval::typeAndLabelAccuracy()
{
    const QList<Zone> truth{
        zone({0, 0, 80, 30}, ZoneType::Button, QStringLiteral("_Save As…")), // label counted, equal
        zone({100, 0, 80, 30}, ZoneType::MenuItem, QStringLiteral("Open")),  // counted, wrong
        zone({200, 0, 80, 30}, ZoneType::TextField, QStringLiteral("Name")), // not text-labelled
        zone({300, 0, 30, 30}, ZoneType::Button),                            // no label
    };
    const QList<Zone> detected{
        zone({0, 0, 80, 30}, ZoneType::Button, QStringLiteral("save as")),
        zone({100, 0, 80, 30}, ZoneType::Button, QStringLiteral("Opens")),
        zone({200, 0, 80, 30}, ZoneType::TextField, QStringLiteral("Nam")),
        zone({300, 0, 30, 30}, ZoneType::CheckBox, QStringLiteral("x")),
    };
    const FrameEvaluation e = evaluateFrame(truth, detected);
    QCOMPARE(e.counts.matched, 4);
    QCOMPARE(e.counts.typeCorrect, 2);
    QCOMPARE(e.counts.typeAccuracy(), 0.5);
    QCOMPARE(e.counts.labelled, 2);
    QCOMPARE(e.counts.labelCorrect, 1);
    QCOMPARE(e.counts.labelAccuracy(), 0.5);
    QCOMPARE(e.byTruthType.value(ZoneType::MenuItem).typeCorrect, 0);
    QCOMPARE(e.byTruthType.value(ZoneType::Button).typeCorrect, 1);
    QCOMPARE(e.byTruthType.value(ZoneType::Button).matched, 2);
}

// Of the labelled matches, those whose label is drawn (as the caller finds) are counted apart, with their
// own correct ones.
void TestVisionEval::drawnLabelsAreCountedApart()
{
    const QList<Zone> truth{
        zone({0, 0, 80, 30}, ZoneType::Button, QStringLiteral("Save")),      // drawn, read right
        zone({100, 0, 30, 30}, ZoneType::Button, QStringLiteral("Print")),   // an icon: not drawn, unread
        zone({200, 0, 80, 30}, ZoneType::Button, QStringLiteral("Open")),    // drawn, read wrong
        zone({300, 0, 80, 30}, ZoneType::TextField, QStringLiteral("Name")), // not text-labelled: not asked
    };
    const QList<Zone> detected{
        zone({0, 0, 80, 30}, ZoneType::Button, QStringLiteral("Save")),
        zone({100, 0, 30, 30}, ZoneType::Button),
        zone({200, 0, 80, 30}, ZoneType::Button, QStringLiteral("Opcn")),
        zone({300, 0, 80, 30}, ZoneType::TextField),
    };
    QList<int> asked;
    const FrameEvaluation e = evaluateFrame(truth, detected, 0.5, [&](int i) {
        asked << i;
        return i != 1;
    });
    std::sort(asked.begin(), asked.end());
    QCOMPARE(asked, (QList<int>{0, 1, 2}));
    QCOMPARE(e.counts.labelled, 3);
    QCOMPARE(e.counts.labelCorrect, 1);
    QCOMPARE(e.counts.drawn, 2);
    QCOMPARE(e.counts.drawnCorrect, 1);
    QCOMPARE(e.counts.drawnLabelAccuracy(), 0.5);
    QCOMPARE(e.byTruthType.value(ZoneType::Button).drawn, 2);
    // Without the question, nothing counts as drawn.
    QCOMPARE(evaluateFrame(truth, detected).counts.drawn, 0);
}

void TestVisionEval::labelShownInAReading_data()
{
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("read");
    QTest::addColumn<bool>("shown");
    QTest::newRow("exact") << QStringLiteral("Save As…") << QStringLiteral("Save As...") << true;
    QTest::newRow("misread letters") << QStringLiteral("Quit") << QStringLiteral("Ouit") << true;
    QTest::newRow("with noise around") << QStringLiteral("Open") << QStringLiteral("| @ Open ~") << true;
    QTest::newRow("half the letters") << QStringLiteral("Bookmarks") << QStringLiteral("ookm") << false;
    QTest::newRow("five of nine in order") << QStringLiteral("Bookmarks") << QStringLiteral("Bkmrs") << true;
    QTest::newRow("an icon read as noise") << QStringLiteral("Zoom in") << QStringLiteral("Q") << false;
    QTest::newRow("nothing read") << QStringLiteral("Print") << QString() << false;
    QTest::newRow("a key's digit") << QStringLiteral("7") << QStringLiteral("7") << true;
    QTest::newRow("out of order") << QStringLiteral("abcd") << QStringLiteral("dcba") << false;
    QTest::newRow("no label") << QString() << QStringLiteral("anything") << false;
}

void TestVisionEval::labelShownInAReading()
{
    QFETCH(QString, label);
    QFETCH(QString, read);
    QFETCH(bool, shown);
    QCOMPARE(labelShown(label, read), shown);
}

// Text the tree does not expose must not count against precision; a static truth zone is not a widget
// vision should find.
void TestVisionEval::staticZonesTakeNoPart()
{
    const QList<Zone> truth{zone({0, 0, 100, 20}, ZoneType::Static, QStringLiteral("Name:")),
                            zone({0, 40, 100, 30}, ZoneType::TextField)};
    const QList<Zone> detected{zone({0, 0, 100, 20}, ZoneType::Button, QStringLiteral("Name:")),
                               zone({0, 100, 300, 20}, ZoneType::Static, QStringLiteral("paragraph")),
                               zone({0, 40, 100, 30}, ZoneType::TextField)};
    const FrameEvaluation e = evaluateFrame(truth, detected);
    QCOMPARE(e.counts.truth, 1);
    QCOMPARE(e.counts.detected, 2);
    QCOMPARE(e.counts.matched, 1);
    QCOMPARE(e.matches.first().truthIndex, 1);
    QCOMPARE(e.matches.first().detectedIndex, 2);
    QCOMPARE(e.counts.precision(), 0.5);
    QVERIFY(!e.byTruthType.contains(ZoneType::Static));

    const FrameEvaluation none = evaluateFrame({}, {});
    QCOMPARE(none.counts.recall(), 0.0);
    QCOMPARE(none.counts.precision(), 0.0);
}

void TestVisionEval::countsAdd()
{
    MatchCounts a{3, 2, 1, 1, 1, 0};
    a += MatchCounts{5, 6, 4, 2, 3, 3};
    QCOMPARE(a.truth, 8);
    QCOMPARE(a.detected, 8);
    QCOMPARE(a.matched, 5);
    QCOMPARE(a.typeCorrect, 3);
    QCOMPARE(a.labelled, 4);
    QCOMPARE(a.labelCorrect, 3);
    QCOMPARE(a.recall(), 5.0 / 8);
}

void TestVisionEval::normalizedLabels_data()
{
    QTest::addColumn<QString>("in");
    QTest::addColumn<QString>("out");
    QTest::newRow("mnemonic and ellipsis") << QStringLiteral("_Save As…") << QStringLiteral("saveas");
    QTest::newRow("ampersand and dots") << QStringLiteral("&Open...") << QStringLiteral("open");
    QTest::newRow("spaces and case") << QStringLiteral("  New   Window ") << QStringLiteral("newwindow");
    QTest::newRow("digits kept") << QStringLiteral("Page 2 of 10") << QStringLiteral("page2of10");
    QTest::newRow("accents kept") << QStringLiteral("Préférences") << QStringLiteral("préférences");
    QTest::newRow("symbols only") << QStringLiteral("+ - =") << QString();
}

void TestVisionEval::normalizedLabels()
{
    QFETCH(QString, in);
    QFETCH(QString, out);
    QCOMPARE(normalizedLabel(in), out);
}

void TestVisionEval::truthFromNodes()
{
    QString error;
    auto z = truthZoneFromNode(node(QStringLiteral("push button"), QStringLiteral(" OK "), {5, 6, 70, 30},
                                    {QStringLiteral("enabled"), QStringLiteral("focused")}),
                               &error);
    QVERIFY(error.isEmpty());
    QVERIFY(z.has_value());
    QCOMPARE(toString(z->type), toString(ZoneType::Button));
    QCOMPARE(z->label, QStringLiteral("OK"));
    QCOMPARE(z->bounds, QRect(5, 6, 70, 30));
    QVERIFY(z->state.testFlag(ZoneStateFlag::Focused));

    z = truthZoneFromNode(node(QStringLiteral("check box"), QStringLiteral("Bold"), {0, 0, 20, 20},
                               {QStringLiteral("sensitive")}),
                          &error);
    QCOMPARE(toString(z->type), toString(ZoneType::CheckBox));
    QVERIFY(z->state.testFlag(ZoneStateFlag::Unchecked));

    // "text" is a field only when editable; read-only text is static, labelled by its text.
    QJsonObject readOnly = node(QStringLiteral("text"), {}, {0, 0, 200, 20});
    readOnly.insert(QStringLiteral("description"), QStringLiteral("Status"));
    QCOMPARE(toString(truthZoneFromNode(readOnly, &error)->type), toString(ZoneType::Static));
    const auto editable = truthZoneFromNode(
        node(QStringLiteral("text"), {}, {0, 0, 200, 20}, {QStringLiteral("editable")}), &error);
    QCOMPARE(toString(editable->type), toString(ZoneType::TextField));
    QJsonObject label = node(QStringLiteral("label"), {}, {0, 0, 50, 20});
    QVERIFY(!truthZoneFromNode(label, &error).has_value()); // static without text: no zone
    label.insert(QStringLiteral("text"), QStringLiteral("Name:"));
    QCOMPARE(truthZoneFromNode(label, &error)->label, QStringLiteral("Name:"));
    QJsonObject entry = node(QStringLiteral("entry"), {}, {0, 0, 200, 24});
    entry.insert(QStringLiteral("labelled_by"), QStringLiteral("Name:"));
    QCOMPARE(truthZoneFromNode(entry, &error)->label, QStringLiteral("Name:"));

    // Containers and zero-size nodes are no zones, without an error.
    QVERIFY(!truthZoneFromNode(node(QStringLiteral("panel"), {}, {0, 0, 100, 100}), &error).has_value());
    QVERIFY(
        !truthZoneFromNode(node(QStringLiteral("push button"), QStringLiteral("X"), {0, 0, 0, 10}), &error)
             .has_value());
    QVERIFY(error.isEmpty());

    QVERIFY(!truthZoneFromNode(QJsonObject{{QStringLiteral("role"), QStringLiteral("push button")},
                                           {QStringLiteral("bounds"), QJsonArray{1, 2, 3}}},
                               &error)
                 .has_value());
    QVERIFY2(error.contains(QStringLiteral("bounds")), qPrintable(error));
}

void TestVisionEval::readsASample()
{
    QTemporaryDir dir;
    writePng(dir.filePath(QStringLiteral("s.png")));
    const QJsonArray zones{node(QStringLiteral("push button"), QStringLiteral("OK"), {20, 30, 70, 30}),
                           node(QStringLiteral("filler"), {}, {0, 0, 300, 200}),
                           node(QStringLiteral("menu item"), QStringLiteral("Open…"), {20, 80, 200, 24})};
    writeFile(dir.filePath(QStringLiteral("s.json")),
              QJsonDocument(sampleJson(QStringLiteral("s.png"), zones)).toJson());
    QString error;
    const auto s = readCorpusSample(dir.filePath(QStringLiteral("s.json")), &error);
    QVERIFY2(s.has_value(), qPrintable(error));
    QCOMPARE(s->imagePath, QDir(dir.path()).filePath(QStringLiteral("s.png")));
    QCOMPARE(s->program, QStringLiteral("prog"));
    QCOMPARE(s->toolkit, QStringLiteral("gtk3"));
    QCOMPARE(s->look, QStringLiteral("adwaita-dark"));
    QCOMPARE(s->state, QStringLiteral("menu"));
    QCOMPARE(s->set, QStringLiteral("heldout"));
    QCOMPARE(s->screen, QSize(320, 200));
    QCOMPARE(s->truth.size(), 2);
    QCOMPARE(toString(s->truth.at(0).type), toString(ZoneType::Button));
    QCOMPARE(toString(s->truth.at(1).type), toString(ZoneType::MenuItem));
    QCOMPARE(s->truth.at(1).label, QStringLiteral("Open…"));
    QCOMPARE(s->windows.size(), 1);
    QCOMPARE(s->windows.first().geometry, QRect(10, 20, 300, 170));
    QCOMPARE(s->windows.first().windowClass, QStringLiteral("Prog"));
    QCOMPARE(s->windows.first().pid, 77);
}

void TestVisionEval::badSamples_data()
{
    QTest::addColumn<QByteArray>("content"); // empty: no file at all
    QTest::addColumn<QString>("fragment");
    const QJsonObject good = sampleJson(QStringLiteral("s.png"), {});
    const auto without = [&good](const char* key) {
        QJsonObject o = good;
        o.remove(QLatin1String(key));
        return QJsonDocument(o).toJson();
    };
    const auto with = [&good](const char* key, const QJsonValue& v) {
        QJsonObject o = good;
        o.insert(QLatin1String(key), v);
        return QJsonDocument(o).toJson();
    };
    QTest::newRow("missing file") << QByteArray() << "No such file";
    QTest::newRow("truncated") << QJsonDocument(good).toJson().left(60) << "not JSON";
    QTest::newRow("an array") << QByteArray("[1, 2]") << "not an object";
    QTest::newRow("other format") << with("format", QStringLiteral("coco")) << "not a corpus sample";
    QTest::newRow("no program") << without("program") << "missing \"program\"";
    QTest::newRow("bad set") << with("set", QStringLiteral("test")) << "\"set\" must be tuning or heldout";
    QTest::newRow("no screen") << without("screen") << "missing \"screen\"";
    QTest::newRow("image missing") << with("image", QStringLiteral("gone.png")) << "gone.png does not exist";
    QTest::newRow("no zones") << without("zones") << "missing \"zones\"";
    QTest::newRow("bad zone") << with("zones", QJsonArray{QJsonObject{{QStringLiteral("role"), 3}}})
                              << "zone 0: a zone without";
    QTest::newRow("bad window") << with("windows", QJsonArray{QJsonObject{}}) << "a window without";
}

void TestVisionEval::badSamples()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, fragment);
    QTemporaryDir dir;
    writePng(dir.filePath(QStringLiteral("s.png")));
    const QString path = dir.filePath(QStringLiteral("s.json"));
    if (!content.isEmpty())
        writeFile(path, content);
    QString error;
    QVERIFY(!readCorpusSample(path, &error).has_value());
    QVERIFY2(error.startsWith(path + QStringLiteral(": ")), qPrintable(error));
    QVERIFY2(error.contains(fragment), qPrintable(error));
}

void TestVisionEval::corpusFolder()
{
    QString error;
    CorpusListing listing = readCorpus(QStringLiteral("/nonexistent/ciu-corpus"), &error);
    QVERIFY2(error.contains(QStringLiteral("does not exist")), qPrintable(error));
    QVERIFY(listing.samples.isEmpty());

    QTemporaryDir dir;
    writeFile(dir.filePath(QStringLiteral("programs.json")),
              "{\"programs\": []}"); // the manifest is no sample
    error.clear();
    listing = readCorpus(dir.path(), &error);
    QVERIFY2(error.contains(QStringLiteral("no sample")), qPrintable(error));

    // One good sample in a sub-folder, one corrupt: the good one is kept, the bad one named.
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("a")));
    writePng(dir.filePath(QStringLiteral("a/s.png")));
    writeFile(dir.filePath(QStringLiteral("a/s.json")),
              QJsonDocument(sampleJson(QStringLiteral("s.png"), {})).toJson());
    writeFile(dir.filePath(QStringLiteral("b.json")), "{\"format\": ");
    error.clear();
    listing = readCorpus(dir.path(), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(listing.samples.size(), 1);
    QCOMPARE(listing.samples.first().program, QStringLiteral("prog"));
    QCOMPARE(listing.errors.size(), 1);
    QVERIFY2(listing.errors.first().contains(QStringLiteral("b.json: not JSON")),
             qPrintable(listing.errors.first()));
}

QTEST_GUILESS_MAIN(TestVisionEval)
#include "tst_visioneval.moc"
