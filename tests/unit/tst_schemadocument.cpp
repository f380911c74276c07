// A program's schema document (core/knowledge/schemadocument.h): the shipped and learned schema with the zone
// inspector's corrections as named zones of source user, in one JSON document; strict parsing; a corrections
// file of the old format loads into it unchanged; export and import round trips, merging into what is there,
// and nothing written when a file is corrupt. Also the named zones' own JSON (type, source).

#include "core/knowledge/schemadocument.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;

namespace {

const QString kApp = QStringLiteral("Mousepad"); // has a shipped schema

Zone userZone(const QString& id, const QRect& bounds, const QString& label, ZoneType type)
{
    Zone z;
    z.id = id;
    z.bounds = bounds;
    z.label = label;
    z.labelSource = LabelSource::User;
    z.type = type;
    z.source = ZoneSource::User;
    z.confidence = 1.0;
    z.application = kApp;
    return z;
}

struct Stores
{
    QTemporaryDir dir;
    ShortcutStore shortcuts{dir.path() + QStringLiteral("/shortcuts")};
    CorrectionStore corrections{dir.path() + QStringLiteral("/corrections")};
};

// What a user has for Mousepad: a learned shortcut (verified), a learned named zone, and corrections.
void fill(const Stores& stores)
{
    AppSchema learned{kApp, {}, {}, QStringLiteral("Tabs hold documents.")};
    Shortcut wrap;
    wrap.action = QStringLiteral("Word Wrap");
    wrap.keys = QStringLiteral("ctrl+alt+w");
    wrap.menu = QStringLiteral("View > Word Wrap");
    wrap.source = ShortcutSource::Atspi;
    wrap.verifiedAtMs = 1732456789123;
    learned.shortcuts << wrap;
    learned.zones << NamedZone{QStringLiteral("tab bar"), QRect(0, 60, 640, 28), ZoneType::Tab};
    QVERIFY(stores.shortcuts.save(learned));
    CorrectionSet set{kApp, {}, {QRect(300, 400, 80, 20)}, QStringLiteral("*.txt - Mousepad")};
    set.zones << userZone(QStringLiteral("u0000001"), QRect(10, 100, 600, 300), QStringLiteral("editor"),
                          ZoneType::TextField)
              << userZone(QStringLiteral("u0000002"), QRect(5, 5, 20, 20), QString(), ZoneType::Button);
    QVERIFY(stores.corrections.save(set));
}

} // namespace

class TestSchemaDocument : public QObject
{
    Q_OBJECT
private slots:
    void namedZoneJson_data();
    void namedZoneJson();
    void learnedZonesReplaceByName();
    void composesSchemaAndCorrections();
    void oldCorrectionFileLoads();
    void exportImportRoundTrip();
    void importMergesIntoWhatIsThere();
    void importRefusesCorruptFiles();
    void badDocuments_data();
    void badDocuments();
};

void TestSchemaDocument::namedZoneJson_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<int>("type");
    QTest::addColumn<int>("source");
    QTest::newRow("plain") << QByteArray(R"({"name":"a","x":1,"y":2,"w":3,"h":4})") << true
                           << int(ZoneType::Static) << int(ShortcutSource::Schema);
    QTest::newRow("typed user") << QByteArray(R"({"name":"a","x":1,"y":2,"w":3,"h":4,"type":"text_field",)"
                                              R"("source":"user"})")
                                << true << int(ZoneType::TextField) << int(ShortcutSource::User);
    QTest::newRow("user without a name")
        << QByteArray(R"({"name":"","x":1,"y":2,"w":3,"h":4,"source":"user"})") << true
        << int(ZoneType::Static) << int(ShortcutSource::User);
    QTest::newRow("no name") << QByteArray(R"({"x":1,"y":2,"w":3,"h":4})") << false << 0 << 0;
    QTest::newRow("bad type") << QByteArray(R"({"name":"a","x":1,"y":2,"w":3,"h":4,"type":"knob"})") << false
                              << 0 << 0;
    QTest::newRow("bad source") << QByteArray(R"({"name":"a","x":1,"y":2,"w":3,"h":4,"source":"guess"})")
                                << false << 0 << 0;
    QTest::newRow("zero width") << QByteArray(R"({"name":"a","x":1,"y":2,"w":0,"h":4})") << false << 0 << 0;
}

void TestSchemaDocument::namedZoneJson()
{
    QFETCH(QByteArray, json);
    QFETCH(bool, valid);
    QFETCH(int, type);
    QFETCH(int, source);
    QString error;
    const auto zone = NamedZone::fromJson(QJsonDocument::fromJson(json).object(), &error);
    QCOMPARE(bool(zone), valid);
    if (!valid) {
        QVERIFY(!error.isEmpty());
        return;
    }
    QCOMPARE(int(zone->type), type);
    QCOMPARE(int(zone->source), source);
    QCOMPARE(zone->bounds, QRect(1, 2, 3, 4));
    QCOMPARE(NamedZone::fromJson(zone->toJson()).value_or(NamedZone{}), *zone);
    // Defaults are not written: a schema of the old format is written back as it was.
    QCOMPARE(zone->toJson().contains(QStringLiteral("type")), type != int(ZoneType::Static));
    QCOMPARE(zone->toJson().contains(QStringLiteral("source")), source != int(ShortcutSource::Schema));
}

void TestSchemaDocument::learnedZonesReplaceByName()
{
    QTemporaryDir dir;
    const ShortcutStore store(dir.path());
    AppSchema learned{QStringLiteral("Xedit"), {}, {}, {}};
    learned.zones << NamedZone{QStringLiteral("text"), QRect(0, 0, 10, 10)}
                  << NamedZone{QStringLiteral("text"), QRect(0, 20, 10, 10), ZoneType::TextField};
    QVERIFY(store.save(learned));
    const auto known = knownShortcuts(store, QStringLiteral("Xedit"));
    QVERIFY(known);
    QCOMPARE(known->zones,
             (QList<NamedZone>{{QStringLiteral("text"), QRect(0, 20, 10, 10), ZoneType::TextField}}));
}

void TestSchemaDocument::composesSchemaAndCorrections()
{
    Stores stores;
    fill(stores);
    QString error;
    const auto document = readSchemaDocument(stores.shortcuts, stores.corrections, kApp, &error);
    QVERIFY2(document, qPrintable(error));
    const AppSchema shipped = *shippedSchema(kApp);
    QCOMPARE(document->schema.application, kApp);
    QCOMPARE(document->schema.shortcuts.size(), shipped.shortcuts.size() + 1);
    QCOMPARE(document->schema.find(QStringLiteral("Word Wrap"))->verifiedAtMs, qint64(1732456789123));
    QCOMPARE(document->schema.notes, QStringLiteral("Tabs hold documents."));
    const QList<NamedZone> zones{
        {QStringLiteral("tab bar"), QRect(0, 60, 640, 28), ZoneType::Tab, ShortcutSource::Schema},
        {QStringLiteral("editor"), QRect(10, 100, 600, 300), ZoneType::TextField, ShortcutSource::User},
        {QString(), QRect(5, 5, 20, 20), ZoneType::Button, ShortcutSource::User}};
    QCOMPARE(document->schema.zones, zones);
    QCOMPARE(document->suppressed, QList<QRect>{QRect(300, 400, 80, 20)});
    QCOMPARE(document->titlePattern, QStringLiteral("*.txt - Mousepad"));
    // One JSON document: the user's zones among the named zones, marked.
    const QJsonObject json = document->toJson();
    QCOMPARE(json.value(QStringLiteral("zones")).toArray().size(), 3);
    QCOMPARE(json.value(QStringLiteral("zones")).toArray().at(1).toObject().value(QStringLiteral("source")),
             QJsonValue(QStringLiteral("user")));
    QCOMPARE(json.value(QStringLiteral("title_pattern")).toString(), QStringLiteral("*.txt - Mousepad"));
    QCOMPARE(SchemaDocument::fromJson(json).value_or(SchemaDocument{}), *document);
    // Back to corrections: the user zones with the given ids, as the inspector stored them.
    const CorrectionSet set = document->corrections({QStringLiteral("u0000001"), QStringLiteral("u0000002")});
    const auto stored = stores.corrections.load(kApp);
    QVERIFY(stored);
    QCOMPARE(set.zones.size(), 2);
    QCOMPARE(set.zones.at(0), stored->zones.at(0));
    QCOMPARE(set.suppressed, stored->suppressed);
    QCOMPARE(set.titlePattern, stored->titlePattern);
    // A program with nothing stored: its shipped schema alone.
    Stores empty;
    const auto shippedOnly = readSchemaDocument(empty.shortcuts, empty.corrections, kApp, &error);
    QVERIFY(shippedOnly);
    QCOMPARE(shippedOnly->schema, shipped);
    QVERIFY(shippedOnly->suppressed.isEmpty());
}

void TestSchemaDocument::oldCorrectionFileLoads()
{
    // A corrections file as the inspector wrote it before schema documents existed.
    Stores stores;
    QVERIFY(QDir().mkpath(stores.corrections.directory()));
    QFile file(stores.corrections.filePath(QStringLiteral("Fixture App")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        R"({"format": 1, "application": "Fixture App", "suppressed": [{"x": 1, "y": 2, "w": 3, "h": 4}],
                   "zones": [{"id": "u1a2b3c4d", "bounds": {"x": 10, "y": 20, "width": 80, "height": 24},
                              "type": "button", "label": "Send", "source": "user", "confidence": 1}]})");
    file.close();
    QString error;
    const auto document =
        readSchemaDocument(stores.shortcuts, stores.corrections, QStringLiteral("Fixture App"), &error);
    QVERIFY2(document, qPrintable(error));
    QCOMPARE(document->schema.zones, (QList<NamedZone>{{QStringLiteral("Send"), QRect(10, 20, 80, 24),
                                                        ZoneType::Button, ShortcutSource::User}}));
    QCOMPARE(document->suppressed, QList<QRect>{QRect(1, 2, 3, 4)});
    QVERIFY(document->schema.shortcuts.isEmpty());
}

void TestSchemaDocument::exportImportRoundTrip()
{
    Stores from;
    fill(from);
    QString error;
    const auto exported = readSchemaDocument(from.shortcuts, from.corrections, kApp, &error);
    QVERIFY2(exported, qPrintable(error));
    const QByteArray file = QJsonDocument(exported->toJson()).toJson();

    Stores to;
    const auto parsed = SchemaDocument::fromJson(QJsonDocument::fromJson(file).object(), &error);
    QVERIFY2(parsed, qPrintable(error));
    QVERIFY2(importSchemaDocument(*parsed, to.shortcuts, to.corrections, &error), qPrintable(error));
    const auto imported = readSchemaDocument(to.shortcuts, to.corrections, kApp, &error);
    QVERIFY2(imported, qPrintable(error));
    QCOMPARE(*imported, *exported);
    // The shipped shortcuts were not copied into the learned file: only what was learned.
    const auto learned = to.shortcuts.load(kApp);
    QVERIFY(learned);
    QCOMPARE(learned->shortcuts.size(), 1);
    QCOMPARE(learned->shortcuts.first().action, QStringLiteral("Word Wrap"));
    QCOMPARE(learned->zones.size(), 1);
    // The corrections landed in the corrections file, with user zone ids.
    const auto set = to.corrections.load(kApp);
    QVERIFY(set);
    QCOMPARE(set->zones.size(), 2);
    QVERIFY(set->zones.at(0).id.startsWith(QLatin1Char('u')));
    QCOMPARE(set->zones.at(0).label, QStringLiteral("editor"));
    // Importing again changes nothing (the files are not even rewritten).
    const QByteArray before = [&] {
        QFile f(to.corrections.filePath(kApp));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }();
    QVERIFY(importSchemaDocument(*parsed, to.shortcuts, to.corrections, &error));
    QFile after(to.corrections.filePath(kApp));
    QVERIFY(after.open(QIODevice::ReadOnly));
    QCOMPARE(after.readAll(), before);
    QCOMPARE(*readSchemaDocument(to.shortcuts, to.corrections, kApp), *exported);
}

void TestSchemaDocument::importMergesIntoWhatIsThere()
{
    Stores stores;
    fill(stores);
    SchemaDocument incoming;
    incoming.schema = AppSchema{kApp, {}, {}, {}};
    incoming.schema.zones << NamedZone{QStringLiteral("tab bar"), QRect(0, 62, 640, 26), ZoneType::Tab}
                          << NamedZone{QStringLiteral("status"), QRect(0, 460, 640, 20)}
                          << NamedZone{QStringLiteral("text"), QRect(12, 102, 598, 296), ZoneType::TextField,
                                       ShortcutSource::User}
                          << NamedZone{QStringLiteral("close"), QRect(600, 5, 20, 20), ZoneType::Button,
                                       ShortcutSource::User};
    incoming.suppressed << QRect(300, 400, 80, 20) << QRect(1, 1, 5, 5);
    incoming.titlePattern = QStringLiteral("other");
    QString error;
    QVERIFY2(importSchemaDocument(incoming, stores.shortcuts, stores.corrections, &error), qPrintable(error));
    const auto learned = stores.shortcuts.load(kApp);
    QCOMPARE(learned->zones,
             (QList<NamedZone>{{QStringLiteral("tab bar"), QRect(0, 62, 640, 26), ZoneType::Tab},
                               {QStringLiteral("status"), QRect(0, 460, 640, 20)}}));
    QCOMPARE(learned->shortcuts.size(), 1);                           // kept
    QCOMPARE(learned->notes, QStringLiteral("Tabs hold documents.")); // an empty note erases nothing
    const auto set = stores.corrections.load(kApp);
    QCOMPARE(set->zones.size(), 3);
    // The editor's place: replaced by the imported zone, keeping its id.
    QCOMPARE(set->zones.at(0).id, QStringLiteral("u0000001"));
    QCOMPARE(set->zones.at(0).label, QStringLiteral("text"));
    QCOMPARE(set->zones.at(0).bounds, QRect(12, 102, 598, 296));
    QCOMPARE(set->zones.at(1).id, QStringLiteral("u0000002"));
    QCOMPARE(set->zones.at(2).label, QStringLiteral("close"));
    QCOMPARE(set->suppressed, (QList<QRect>{QRect(300, 400, 80, 20), QRect(1, 1, 5, 5)}));
    QCOMPARE(set->titlePattern, QStringLiteral("*.txt - Mousepad")); // the program's own pattern stays
}

void TestSchemaDocument::importRefusesCorruptFiles()
{
    Stores stores;
    fill(stores);
    QFile corrupt(stores.corrections.filePath(kApp));
    QVERIFY(corrupt.open(QIODevice::WriteOnly));
    corrupt.write("{ not json");
    corrupt.close();
    const QByteArray learnedBefore = [&] {
        QFile f(stores.shortcuts.filePath(kApp));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }();
    SchemaDocument incoming;
    incoming.schema = AppSchema{kApp, {}, {NamedZone{QStringLiteral("status"), QRect(0, 460, 640, 20)}}, {}};
    QString error;
    QVERIFY(!importSchemaDocument(incoming, stores.shortcuts, stores.corrections, &error));
    QVERIFY2(error.contains(QStringLiteral("is not a JSON object")), qPrintable(error));
    QFile learned(stores.shortcuts.filePath(kApp));
    QVERIFY(learned.open(QIODevice::ReadOnly));
    QCOMPARE(learned.readAll(), learnedBefore);
    QVERIFY(!readSchemaDocument(stores.shortcuts, stores.corrections, kApp, &error));
}

void TestSchemaDocument::badDocuments_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("message");
    const QByteArray head = R"({"format": 1, "application": "App", "shortcuts": [], )";
    QTest::newRow("suppressed not an array") << head + R"("suppressed": {}})"
                                             << "\"suppressed\"";
    QTest::newRow("bad suppressed region") << head + R"("suppressed": [{"x": 1}]})"
                                           << "suppressed region 0";
    QTest::newRow("title not a string") << head + R"("title_pattern": 3})"
                                        << "\"title_pattern\"";
    QTest::newRow("bad title pattern") << head + R"("title_pattern": "[a"})"
                                       << "invalid title pattern";
    QTest::newRow("bad zone") << head + R"("zones": [{"name": "a"}]})"
                              << "zone 0";
    QTest::newRow("no application") << QByteArray(R"({"format": 1, "shortcuts": []})") << "application";
}

void TestSchemaDocument::badDocuments()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, message);
    QString error;
    QVERIFY(!SchemaDocument::fromJson(QJsonDocument::fromJson(json).object(), &error));
    QVERIFY2(error.contains(message), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestSchemaDocument)
#include "tst_schemadocument.moc"
