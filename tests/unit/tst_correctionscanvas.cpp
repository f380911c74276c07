// CanvasMapper with a CorrectionStore (the zone inspector's files, as headless runs use them): a program's
// stored corrections relabel, add and remove zones of the window that carries them, at its current place;
// not in a window of another program or with a title the pattern rules out; a file changed on disk is read
// again; a file that does not load is reported once and not applied; they rank above an app schema's names.

#include "core/canvas/canvasmapper.h"
#include "core/knowledge/correctionstore.h"
#include "core/knowledge/schemazones.h"
#include "core/knowledge/shortcutstore.h"

#include <QFile>
#include <QFont>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using canvas::CanvasMapper;

namespace {

const QString kProgram = QStringLiteral("ciu-test-app");
const QPoint kOrigin(20, 20); // the program's window
// Window-relative: where the corrections' new field goes (background in the frame).
const QRect kSearchPlace(440, 20, 120, 24);

void button(QPainter& p, const QRect& r, const QString& text)
{
    p.setPen(QColor(0x90, 0x90, 0x90));
    p.setBrush(QColor(0xe8, 0xe8, 0xe8));
    p.drawRect(r.adjusted(0, 0, -1, -1));
    p.setPen(Qt::black);
    p.drawText(r, Qt::AlignCenter, text);
}

// The program's window content at `origin`: three buttons.
Frame frame(quint64 index, QPoint origin = kOrigin)
{
    QImage image(640, 400, QImage::Format_RGB32);
    image.fill(QColor(0xf0, 0xf0, 0xf0));
    QPainter p(&image);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(12);
    p.setFont(font);
    button(p, QRect(origin + QPoint(20, 280), QSize(100, 26)), QStringLiteral("Submit"));
    button(p, QRect(origin + QPoint(140, 280), QSize(100, 26)), QStringLiteral("Cancel"));
    button(p, QRect(origin + QPoint(380, 280), QSize(100, 26)), QStringLiteral("Help"));
    p.end();
    Frame f;
    f.index = index;
    f.tNs = qint64(index) * 100'000'000;
    f.image = image;
    return f;
}

platform::WindowInfo programWindow(const QString& windowClass = kProgram,
                                   const QString& title = QStringLiteral("Form 1"), QPoint origin = kOrigin)
{
    platform::WindowInfo w;
    w.id = 9;
    w.geometry = QRect(origin, QSize(600, 360));
    w.windowClass = windowClass;
    w.title = title;
    w.active = true;
    return w;
}

const Zone* byLabel(const ZoneMap& map, const QString& label)
{
    for (const Zone& z : map.zones()) {
        if (z.label == label)
            return &z;
    }
    return nullptr;
}

QList<SpatialEvent> errors(const QSignalSpy& spy)
{
    QList<SpatialEvent> result;
    for (const QList<QVariant>& args : spy) {
        const auto e = args.first().value<SpatialEvent>();
        if (e.kind == SpatialEvent::Kind::Error)
            result << e;
    }
    return result;
}

CanvasMapper::Options options()
{
    CanvasMapper::Options o;
    o.correctionsCheckMs = 0; // the files are looked at on every map (no timing in tests)
    return o;
}

// A mapper that analysed the first frame with `window` listed.
std::unique_ptr<CanvasMapper> mapped(const platform::WindowInfo& window)
{
    auto mapper = std::make_unique<CanvasMapper>(options());
    mapper->onWindows({window}, window);
    mapper->onFrame(frame(1, window.geometry.topLeft()));
    return mapper;
}

// The corrections of the program, made on its window at kOrigin: Submit relabelled "Send" (a user zone in its
// place), Cancel removed, a search field added; only on windows titled "Form …".
CorrectionSet corrections(const QString& sendLabel = QStringLiteral("Send"))
{
    CorrectionSet set;
    set.application = kProgram;
    set.titlePattern = QStringLiteral("Form*");
    Zone send;
    send.id = QStringLiteral("u5e11d000");
    send.type = ZoneType::Button;
    send.label = sendLabel;
    send.bounds = QRect(20, 280, 100, 26);
    send.events = {QStringLiteral("click")};
    Zone search;
    search.id = QStringLiteral("u5ea4c400");
    search.type = ZoneType::TextField;
    search.label = QStringLiteral("Search");
    search.bounds = kSearchPlace;
    set.zones = {send, search};
    set.suppressed = {QRect(140, 280, 100, 26)};
    return set;
}

bool save(const QString& dir, const CorrectionSet& set)
{
    QString error;
    const bool ok = CorrectionStore(dir).save(set, &error);
    if (!ok)
        qWarning("%s", qPrintable(error));
    return ok;
}

// What the stored corrections do to a map of the window at `origin`.
void verifyCorrected(const ZoneMap& map, QPoint origin)
{
    const Zone* send = map.find(QStringLiteral("u5e11d000"));
    QVERIFY(send);
    QCOMPARE(send->label, QStringLiteral("Send"));
    QVERIFY(send->source == ZoneSource::User);
    QCOMPARE(send->bounds, QRect(origin + QPoint(20, 280), QSize(100, 26)));
    QCOMPARE(send->windowId, quint64(9));
    QCOMPARE(send->application, kProgram);
    const Zone* search = map.find(QStringLiteral("u5ea4c400"));
    QVERIFY(search);
    QCOMPARE(search->bounds, kSearchPlace.translated(origin));
    QVERIFY(!byLabel(map, QStringLiteral("Submit"))); // replaced
    QVERIFY(!byLabel(map, QStringLiteral("Cancel"))); // removed
    QVERIFY(byLabel(map, QStringLiteral("Help")));
}

} // namespace

class TestCorrectionsCanvas : public QObject
{
    Q_OBJECT
private slots:
    void appliedToTheWindowThatCarriesThem_data();
    void appliedToTheWindowThatCarriesThem();
    void zonesFollowTheWindow();
    void changedFileIsReadAgain();
    void corruptFileIsReportedAndNotApplied();
    void correctionsRankAboveTheSchema();
};

void TestCorrectionsCanvas::appliedToTheWindowThatCarriesThem_data()
{
    QTest::addColumn<QString>("windowClass");
    QTest::addColumn<QString>("title");
    QTest::addColumn<bool>("applied");
    QTest::newRow("the program, a matching title") << kProgram << QStringLiteral("Form 1") << true;
    QTest::newRow("another program") << QStringLiteral("other-app") << QStringLiteral("Form 1") << false;
    QTest::newRow("a title the pattern rules out") << kProgram << QStringLiteral("Settings") << false;
}

void TestCorrectionsCanvas::appliedToTheWindowThatCarriesThem()
{
    QFETCH(QString, windowClass);
    QFETCH(QString, title);
    QFETCH(bool, applied);
    QTemporaryDir dir;
    QVERIFY(save(dir.path(), corrections()));
    auto mapper = mapped(programWindow(windowClass, title));
    const ZoneMapPtr detected = mapper->currentMap();
    QVERIFY(byLabel(*detected, QStringLiteral("Submit")));
    QVERIFY(byLabel(*detected, QStringLiteral("Cancel")));

    QSignalSpy events(mapper.get(), &CanvasMapper::eventOccurred);
    QSignalSpy maps(mapper.get(), &CanvasMapper::zoneMapUpdated);
    mapper->setCorrectionStore(std::make_unique<CorrectionStore>(dir.path()));
    QVERIFY(errors(events).isEmpty());
    const ZoneMapPtr map = mapper->currentMap();
    if (!applied) {
        QCOMPARE(maps.size(), 0);
        QVERIFY(map == detected);
        return;
    }
    QCOMPARE(maps.size(), 1);
    QVERIFY(map->version() > detected->version());
    verifyCorrected(*map, kOrigin);
    QCOMPARE(map->size(), detected->size()); // two added; Submit replaced, Cancel removed
    // Nothing changed: nothing published again.
    mapper->lookAgain(1);
    QCOMPARE(maps.size(), 1);
}

void TestCorrectionsCanvas::zonesFollowTheWindow()
{
    QTemporaryDir dir;
    QVERIFY(save(dir.path(), corrections()));
    auto mapper = mapped(programWindow());
    mapper->setCorrectionStore(std::make_unique<CorrectionStore>(dir.path()));
    verifyCorrected(*mapper->currentMap(), kOrigin);

    // The window moves (its content with it): the next change of the screen brings the new window list.
    const QPoint moved(0, 30);
    const platform::WindowInfo w = programWindow(kProgram, QStringLiteral("Form 1"), moved);
    mapper->onWindows({w}, w);
    mapper->onFrame(frame(2, moved));
    FrameDiff diff;
    diff.frameIndex = 2;
    diff.tNs = 2 * 100'000'000;
    diff.regions = {{QRect(0, 0, 640, 400), 100}};
    diff.totalPercent = 100;
    mapper->onChanges(diff);
    verifyCorrected(*mapper->currentMap(), moved);
}

void TestCorrectionsCanvas::changedFileIsReadAgain()
{
    QTemporaryDir dir;
    auto mapper = mapped(programWindow());
    // No file yet: the map is the detections'.
    mapper->setCorrectionStore(std::make_unique<CorrectionStore>(dir.path()));
    QVERIFY(byLabel(*mapper->currentMap(), QStringLiteral("Submit")));

    // Saved while the mapper runs (the app's inspector): used from the next map on.
    QVERIFY(save(dir.path(), corrections()));
    mapper->lookAgain(1);
    verifyCorrected(*mapper->currentMap(), kOrigin);

    // Changed: the new label.
    QVERIFY(save(dir.path(), corrections(QStringLiteral("Send the form"))));
    mapper->lookAgain(2);
    QCOMPARE(mapper->currentMap()->find(QStringLiteral("u5e11d000"))->label, QStringLiteral("Send the form"));

    // Removed (all corrections undone): the detections again.
    QVERIFY(save(dir.path(), CorrectionSet{kProgram, {}, {}, {}}));
    QVERIFY(!QFile::exists(CorrectionStore(dir.path()).filePath(kProgram)));
    mapper->lookAgain(3);
    const ZoneMapPtr map = mapper->currentMap();
    QVERIFY(!map->find(QStringLiteral("u5e11d000")));
    QVERIFY(!map->find(QStringLiteral("u5ea4c400")));
    QVERIFY(byLabel(*map, QStringLiteral("Submit")));
    QVERIFY(byLabel(*map, QStringLiteral("Cancel")));
}

void TestCorrectionsCanvas::corruptFileIsReportedAndNotApplied()
{
    QTemporaryDir dir;
    const QString path = CorrectionStore(dir.path()).filePath(kProgram);
    {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"format\": 1, \"application\": ");
    }
    auto mapper = mapped(programWindow());
    const ZoneMapPtr detected = mapper->currentMap();
    QSignalSpy events(mapper.get(), &CanvasMapper::eventOccurred);
    mapper->setCorrectionStore(std::make_unique<CorrectionStore>(dir.path()));
    QCOMPARE(errors(events).size(), 1);
    const SpatialEvent error = errors(events).first();
    QCOMPARE(error.data.value(QStringLiteral("component")).toString(), QStringLiteral("corrections"));
    QCOMPARE(error.data.value(QStringLiteral("program")).toString(), kProgram);
    QVERIFY2(error.data.value(QStringLiteral("message")).toString().contains(path),
             qPrintable(error.data.value(QStringLiteral("message")).toString()));
    QVERIFY(mapper->currentMap() == detected);
    // Reported once while the file stays as it is.
    mapper->lookAgain(1);
    QCOMPARE(errors(events).size(), 1);

    // Repaired: applied, no new error.
    QVERIFY(save(dir.path(), corrections()));
    mapper->lookAgain(2);
    QCOMPARE(errors(events).size(), 1);
    verifyCorrected(*mapper->currentMap(), kOrigin);
}

void TestCorrectionsCanvas::correctionsRankAboveTheSchema()
{
    // The schema names Submit's place "Go", Cancel's "Stop" and the search field's "Find"; the user's
    // corrections name, remove and add the same places: theirs are on the map, the schema's are not.
    QTemporaryDir schemas;
    QTemporaryDir dir;
    AppSchema schema{kProgram, {}, {}, {}};
    schema.zones = {{QStringLiteral("Go"), QRect(20, 280, 100, 26), ZoneType::Button},
                    {QStringLiteral("Stop"), QRect(140, 280, 100, 26), ZoneType::Button},
                    {QStringLiteral("Find"), kSearchPlace, ZoneType::TextField},
                    {QStringLiteral("Get help"), QRect(380, 280, 100, 26), ZoneType::Button}};
    QString error;
    QVERIFY2(ShortcutStore(schemas.path()).save(schema, &error), qPrintable(error));
    QVERIFY(save(dir.path(), corrections()));
    auto mapper = mapped(programWindow());
    mapper->setAppSchemas(std::make_unique<ShortcutStore>(schemas.path()));
    QVERIFY(byLabel(*mapper->currentMap(), QStringLiteral("Go")));
    QVERIFY(byLabel(*mapper->currentMap(), QStringLiteral("Stop")));
    mapper->setCorrectionStore(std::make_unique<CorrectionStore>(dir.path()));
    const ZoneMapPtr map = mapper->currentMap();
    for (const char* label : {"Go", "Stop", "Find", "Help"})
        QVERIFY2(!byLabel(*map, QString::fromLatin1(label)), label);
    QVERIFY(!map->find(schemaZoneId(9, QStringLiteral("Find"))));
    QCOMPARE(map->find(QStringLiteral("u5e11d000"))->label, QStringLiteral("Send"));
    QCOMPARE(map->find(QStringLiteral("u5ea4c400"))->label, QStringLiteral("Search"));
    QVERIFY(byLabel(*map, QStringLiteral("Get help"))); // what the user did not correct keeps its name
}

QTEST_MAIN(TestCorrectionsCanvas)
#include "tst_correctionscanvas.moc"
