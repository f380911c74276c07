// Shortcuts: the key binding parsers (real strings read from GTK 3 and Qt 6 programs), menu rows read by
// vision, discovery from an accessibility snapshot, the app schema's merge rules and the store (round trip,
// a corrupt file is an error and is never overwritten).

#include "core/knowledge/shortcutdiscovery.h"
#include "core/knowledge/shortcuts.h"
#include "core/knowledge/shortcutstore.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;

namespace {

platform::AccessibleNode node(const QString& ref, const QString& parent, const QString& role,
                              const QString& name, const QString& binding = {}, int children = 0)
{
    platform::AccessibleNode n;
    n.ref = ref;
    n.parentRef = parent;
    n.windowRef = QStringLiteral("w");
    n.role = role;
    n.name = name;
    n.keyBinding = binding;
    n.childCount = children;
    n.bounds = QRect(0, 0, 10, 10);
    return n;
}

Shortcut shortcut(const QString& action, const QString& keys, const QString& menu, ShortcutSource source)
{
    Shortcut s;
    s.action = action;
    s.keys = keys;
    s.menu = menu;
    s.source = source;
    return s;
}

} // namespace

class TestShortcuts : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void canonicalKeys_data();
    void canonicalKeys();
    void keyBinding_data();
    void keyBinding();
    void menuRow_data();
    void menuRow();
    void normalizedAction();
    void discoveryFromTree();
    void discoveryFromMenuRows();
    void menuBarTitlesReadByVision();
    void mergeRules();
    void effectKeptAndRead();
    void storeRoundTrip();
    void storeCorruptFile_data();
    void storeCorruptFile();
    void shippedSchemas();
    void discoveryConfirmingAShippedShortcut();
};

void TestShortcuts::canonicalKeys_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected"); // empty: rejected
    QTest::newRow("gtk primary") << "<Primary>s"
                                 << "ctrl+s";
    QTest::newRow("gtk two modifiers") << "<Primary><Shift>b"
                                       << "ctrl+shift+b";
    QTest::newRow("gtk control name") << "<Control>Page_Up"
                                      << "ctrl+Prior";
    QTest::newRow("gtk alt") << "<Alt>p"
                             << "alt+p";
    QTest::newRow("qt") << "Ctrl+O"
                        << "ctrl+o";
    QTest::newRow("qt shift") << "Ctrl+Shift+K"
                              << "ctrl+shift+k";
    QTest::newRow("screen order") << "Shift+Ctrl+Z"
                                  << "ctrl+shift+z";
    QTest::newRow("function key") << "F3"
                                  << "F3";
    QTest::newRow("shift function key") << "Shift+F3"
                                        << "shift+F3";
    QTest::newRow("return") << "Alt+Return"
                            << "alt+Return";
    QTest::newRow("ctrl plus") << "Ctrl++"
                               << "ctrl+plus";
    QTest::newRow("del") << "Del"
                         << "Delete";
    QTest::newRow("page up spaced") << "Ctrl+Page Up"
                                    << "ctrl+Prior";
    QTest::newRow("empty") << ""
                           << "";
    QTest::newRow("unknown modifier") << "Hyperdrive+S"
                                      << "";
    QTest::newRow("unknown key") << "Ctrl+Frobnicate"
                                 << "";
    QTest::newRow("modifier alone") << "Ctrl"
                                    << "";
    QTest::newRow("unclosed gtk") << "<Primary s"
                                  << "";
}

void TestShortcuts::canonicalKeys()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QCOMPARE(ciu::canonicalKeys(text).value_or(QString()), expected);
}

void TestShortcuts::keyBinding_data()
{
    QTest::addColumn<QString>("binding");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QString>("expected");
    // gtk3-demo-application (GTK 3.24), as atspi_action_get_key_binding returned them.
    QTest::newRow("gtk item") << "n;;<Primary>n"
                              << "New"
                              << "ctrl+n";
    QTest::newRow("gtk no accelerator") << "o;;"
                                        << "Open"
                                        << "";
    QTest::newRow("gtk with path") << "b;<Alt>p:b;<Primary><Shift>b"
                                   << "Bold"
                                   << "ctrl+shift+b";
    QTest::newRow("gtk submenu item") << "r;<Alt>p:c:r;<Primary>r"
                                      << "Red"
                                      << "ctrl+r";
    QTest::newRow("gtk menu title") << "<Alt>p;<Alt>p;"
                                    << "Preferences"
                                    << "";
    // Qt 6.4 (linguist), the same call.
    QTest::newRow("qt shortcut") << "Ctrl+O"
                                 << "Open..."
                                 << "ctrl+o";
    QTest::newRow("qt mnemonic") << "Alt+n"
                                 << "Open Read-Only..."
                                 << "";
    QTest::newRow("qt mnemonic upper") << "Alt+A"
                                       << "Save As..."
                                       << "";
    QTest::newRow("qt alt shortcut") << "Alt+Return"
                                     << "Done"
                                     << "alt+Return";
    QTest::newRow("qt alt letter not in label") << "Alt+X"
                                                << "Done"
                                                << "alt+x";
    QTest::newRow("qt function key") << "Shift+F3"
                                     << "Find Previous"
                                     << "shift+F3";
    QTest::newRow("empty") << ""
                           << "Save"
                           << "";
    QTest::newRow("garbage") << "a;b"
                             << "Save"
                             << "";
}

void TestShortcuts::keyBinding()
{
    QFETCH(QString, binding);
    QFETCH(QString, label);
    QFETCH(QString, expected);
    QCOMPARE(acceleratorFromKeyBinding(binding, label), expected);
}

void TestShortcuts::menuRow_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("label"); // empty: no accelerator
    QTest::addColumn<QString>("keys");
    QTest::newRow("ctrl") << "Save          Ctrl+S"
                          << "Save"
                          << "ctrl+s";
    QTest::newRow("shift ctrl") << "Save As…   Shift+Ctrl+S"
                                << "Save As…"
                                << "ctrl+shift+s";
    QTest::newRow("function key") << "Reload  F5"
                                  << "Reload"
                                  << "F5";
    QTest::newRow("spaced plus") << "Zoom In   Ctrl + +"
                                 << "Zoom In"
                                 << "ctrl+plus";
    QTest::newRow("delete") << "Delete Line   Del"
                            << "Delete Line"
                            << "Delete";
    QTest::newRow("no accelerator") << "Open Recent"
                                    << ""
                                    << "";
    QTest::newRow("trailing letter is label") << "Plan B"
                                              << ""
                                              << "";
    QTest::newRow("accelerator alone") << "Ctrl+S"
                                       << ""
                                       << "";
}

void TestShortcuts::menuRow()
{
    QFETCH(QString, text);
    QFETCH(QString, label);
    QFETCH(QString, keys);
    const auto row = parseMenuRowText(text);
    QCOMPARE(row.has_value(), !label.isEmpty());
    if (row) {
        QCOMPARE(row->label, label);
        QCOMPARE(row->keys, keys);
    }
}

void TestShortcuts::normalizedAction()
{
    QCOMPARE(ciu::normalizedAction(QStringLiteral("Save _As...")), QStringLiteral("save as"));
    QCOMPARE(ciu::normalizedAction(QStringLiteral("Save &As…")), QStringLiteral("save as"));
    QCOMPARE(ciu::normalizedAction(QStringLiteral("  save   as ")), QStringLiteral("save as"));
    QCOMPARE(withoutMnemonic(QStringLiteral("Fish && &Chips")), QStringLiteral("Fish & Chips"));
    QCOMPARE(withoutMnemonic(QStringLiteral("_Open")), QStringLiteral("Open"));
}

void TestShortcuts::discoveryFromTree()
{
    // GTK's shape: menu bar > menu "Preferences" > menu "Color" > radio menu item; Qt's: menu bar > menu item
    // "File" > popup menu (no name) > menu item.
    platform::AccessibilitySnapshot snapshot;
    snapshot.nodes << node(QStringLiteral("w"), {}, QStringLiteral("frame"), QStringLiteral("App"))
                   << node(QStringLiteral("bar"), QStringLiteral("w"), QStringLiteral("menu bar"), {})
                   << node(QStringLiteral("file"), QStringLiteral("bar"), QStringLiteral("menu item"),
                           QStringLiteral("File"), QStringLiteral("Alt+F"), 1)
                   << node(QStringLiteral("popup"), QStringLiteral("file"), QStringLiteral("popup menu"), {})
                   << node(QStringLiteral("open"), QStringLiteral("popup"), QStringLiteral("menu item"),
                           QStringLiteral("Open..."), QStringLiteral("Ctrl+O"))
                   << node(QStringLiteral("saveas"), QStringLiteral("popup"), QStringLiteral("menu item"),
                           QStringLiteral("Save As..."), QStringLiteral("Alt+A"))
                   << node(QStringLiteral("recent"), QStringLiteral("popup"), QStringLiteral("menu item"),
                           QStringLiteral("Recent"), QStringLiteral("Alt+R"), 1) // a Qt submenu's title
                   << node(QStringLiteral("prefs"), QStringLiteral("bar"), QStringLiteral("menu"),
                           QStringLiteral("Preferences"), QStringLiteral("<Alt>p;<Alt>p;"), 2)
                   << node(QStringLiteral("color"), QStringLiteral("prefs"), QStringLiteral("menu"),
                           QStringLiteral("Color"), QStringLiteral("c;<Alt>p:c;"), 1)
                   << node(QStringLiteral("red"), QStringLiteral("color"), QStringLiteral("radio menu item"),
                           QStringLiteral("_Red"), QStringLiteral("r;<Alt>p:c:r;<Primary>r"))
                   << node(QStringLiteral("button"), QStringLiteral("w"), QStringLiteral("push button"),
                           QStringLiteral("OK"), QStringLiteral("Return"));
    platform::AccessibleNode otherWindow =
        node(QStringLiteral("x"), QStringLiteral("bar"), QStringLiteral("menu item"), QStringLiteral("Quit"),
             QStringLiteral("Ctrl+Q"));
    otherWindow.windowRef = QStringLiteral("w2");
    snapshot.nodes << otherWindow;

    const QList<Shortcut> found = shortcutsFromAccessibility(snapshot, QStringLiteral("w"));
    QCOMPARE(found.size(), 3);
    QCOMPARE(found.at(0), shortcut(QStringLiteral("Open..."), QStringLiteral("ctrl+o"),
                                   QStringLiteral("File > Open..."), ShortcutSource::Atspi));
    QCOMPARE(found.at(1), shortcut(QStringLiteral("Save As..."), {}, QStringLiteral("File > Save As..."),
                                   ShortcutSource::Atspi));
    QCOMPARE(found.at(2), shortcut(QStringLiteral("Red"), QStringLiteral("ctrl+r"),
                                   QStringLiteral("Preferences > Color > Red"), ShortcutSource::Atspi));

    const QList<platform::AccessibleNode> menus = menuBarMenus(snapshot, QStringLiteral("w"));
    QCOMPARE(menus.size(), 2);
    QCOMPARE(menus.at(0).name, QStringLiteral("File"));
    QCOMPARE(menus.at(1).name, QStringLiteral("Preferences"));
}

void TestShortcuts::discoveryFromMenuRows()
{
    Zone save;
    save.type = ZoneType::MenuItem;
    save.label = QStringLiteral("Save     Ctrl+S");
    save.bounds = QRect(10, 30, 200, 20);
    Zone recent = save;
    recent.label = QStringLiteral("Open Recent");
    Zone button;
    button.type = ZoneType::Button;
    button.label = QStringLiteral("Reload  F5");
    button.bounds = QRect(500, 500, 40, 20);
    Zone rowAsStatic;
    rowAsStatic.type = ZoneType::Static;
    rowAsStatic.label = QStringLiteral("Quit   Ctrl+Q");
    rowAsStatic.bounds = QRect(10, 80, 200, 20);

    const QList<Shortcut> rows = shortcutsFromMenuRows({save, recent, button, rowAsStatic},
                                                       QStringLiteral("File"), QRect(0, 20, 220, 100));
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows.at(0), shortcut(QStringLiteral("Save"), QStringLiteral("ctrl+s"),
                                  QStringLiteral("File > Save"), ShortcutSource::Vision));
    QCOMPARE(rows.at(1), shortcut(QStringLiteral("Quit"), QStringLiteral("ctrl+q"),
                                  QStringLiteral("File > Quit"), ShortcutSource::Vision));
    // Without an area only menu-item zones count.
    QCOMPARE(shortcutsFromMenuRows({save, button, rowAsStatic}, QStringLiteral("File")).size(), 1);
    // "Ctrl" as OCR reads it in a Tk menu's small font (Tesseract 5, DejaVu Sans 9 px).
    Zone misread = save;
    misread.label = QStringLiteral("Save As... Shift+Ctri+S");
    Zone misread2 = save;
    misread2.label = QStringLiteral("Open... Ctr1+O");
    Zone misread3 = save;
    misread3.label = QStringLiteral("Quit Ctril+Q");
    Zone word = save;
    word.label = QStringLiteral("Ctri");
    const QList<Shortcut> fixed =
        shortcutsFromMenuRows({misread, misread2, misread3, word}, QStringLiteral("File"));
    QCOMPARE(fixed.size(), 3);
    QCOMPARE(fixed.at(0), shortcut(QStringLiteral("Save As..."), QStringLiteral("ctrl+shift+s"),
                                   QStringLiteral("File > Save As..."), ShortcutSource::Vision));
    QCOMPARE(fixed.at(1).keys, QStringLiteral("ctrl+o"));
    QCOMPARE(fixed.at(2).keys, QStringLiteral("ctrl+q"));
}

void TestShortcuts::menuBarTitlesReadByVision()
{
    // A window's client area at (100, 200): titles along its top, left to right; not a row further down,
    // not an unlabelled item, not another type of zone in the bar.
    const auto item = [](const QString& label, QRect bounds, ZoneType type = ZoneType::MenuItem) {
        Zone z;
        z.type = type;
        z.label = label;
        z.bounds = bounds;
        return z;
    };
    const QList<Zone> zones{item(QStringLiteral("_Edit"), QRect(140, 204, 36, 18)),
                            item(QStringLiteral("File"), QRect(104, 204, 30, 18)),
                            item(QStringLiteral("Open...   Ctrl+O"), QRect(104, 240, 160, 20)),
                            item(QString(), QRect(180, 204, 20, 18)),
                            item(QStringLiteral("Help"), QRect(300, 204, 36, 18), ZoneType::Button),
                            item(QStringLiteral("Tools"), QRect(20, 204, 36, 18))};
    QStringList titles;
    for (const Zone& z : menuBarTitles(zones, QRect(100, 200, 600, 400)))
        titles << z.label;
    QCOMPARE(titles, (QStringList{QStringLiteral("File"), QStringLiteral("_Edit")}));
    QCOMPARE(menuBarTitles(zones, QRect(100, 200, 600, 400), 60).size(), 3); // a taller bar holds the row
}

void TestShortcuts::mergeRules()
{
    AppSchema schema;
    schema.application = QStringLiteral("App");
    QVERIFY(schema.merge(shortcut(QStringLiteral("Save"), QStringLiteral("ctrl+s"),
                                  QStringLiteral("File > Save"), ShortcutSource::Schema)));
    QVERIFY(schema.markVerified(QStringLiteral("save"), 1000));
    // The same keys again from the tree: the source changes, the verification stays.
    QVERIFY(schema.merge(shortcut(QStringLiteral("Save"), QStringLiteral("ctrl+s"),
                                  QStringLiteral("File > Save"), ShortcutSource::Atspi)));
    QCOMPARE(schema.shortcuts.size(), 1);
    QCOMPARE(toString(schema.shortcuts.at(0).source), toString(ShortcutSource::Atspi));
    QCOMPARE(schema.shortcuts.at(0).verifiedAtMs, 1000);
    QVERIFY(!schema.merge(schema.shortcuts.at(0)));
    // Other keys drop the verification; a menu path alone keeps the keys.
    QVERIFY(schema.merge(shortcut(QStringLiteral("Save"), QStringLiteral("ctrl+shift+s"),
                                  QStringLiteral("File > Save"), ShortcutSource::Atspi)));
    QCOMPARE(schema.shortcuts.at(0).verifiedAtMs, 0);
    QVERIFY(!schema.merge(
        shortcut(QStringLiteral("Save"), {}, QStringLiteral("File > Save"), ShortcutSource::Atspi)));
    QCOMPARE(schema.shortcuts.at(0).keys, QStringLiteral("ctrl+shift+s"));
    // The user's entry wins over any discovery.
    QVERIFY(schema.merge(shortcut(QStringLiteral("Save"), QStringLiteral("ctrl+s"),
                                  QStringLiteral("File > Save"), ShortcutSource::User)));
    QVERIFY(!schema.merge(shortcut(QStringLiteral("Save"), QStringLiteral("F2"),
                                   QStringLiteral("File > Save"), ShortcutSource::Atspi)));
    QCOMPARE(schema.shortcuts.at(0).keys, QStringLiteral("ctrl+s"));
    // The same label in another menu is another action.
    QVERIFY(schema.merge(
        shortcut(QStringLiteral("Save"), {}, QStringLiteral("Bookmarks > Save"), ShortcutSource::Atspi)));
    QCOMPARE(schema.shortcuts.size(), 2);
    // Lookup by label (with ellipsis and mnemonic) or by menu path.
    QVERIFY(schema.merge(shortcut(QStringLiteral("Save As…"), QStringLiteral("ctrl+shift+s"),
                                  QStringLiteral("File > Save As…"), ShortcutSource::Atspi)));
    QCOMPARE(schema.find(QStringLiteral("Save _As..."))->keys, QStringLiteral("ctrl+shift+s"));
    QCOMPARE(schema.find(QStringLiteral("bookmarks > save"))->menu, QStringLiteral("Bookmarks > Save"));
    QCOMPARE(schema.find(QStringLiteral("save"))->keys, QStringLiteral("ctrl+s"));
    QVERIFY(!schema.find(QStringLiteral("Print")));
    QVERIFY(!schema.markVerified(QStringLiteral("Print"), 5));
}

void TestShortcuts::effectKeptAndRead()
{
    AppSchema schema;
    schema.application = QStringLiteral("App");
    QVERIFY(schema.merge(shortcut(QStringLiteral("Save As…"), QStringLiteral("ctrl+shift+s"),
                                  QStringLiteral("File > Save As…"), ShortcutSource::Atspi)));
    QVERIFY(schema.noteEffect(QStringLiteral("File > Save As…"), QStringLiteral("  Save  File ")));
    QCOMPARE(schema.shortcuts.at(0).effect, QStringLiteral("Save File"));
    QVERIFY(!schema.noteEffect(QStringLiteral("save as"), QStringLiteral("Save File"))); // unchanged
    QVERIFY(!schema.noteEffect(QStringLiteral("Print"), QStringLiteral("Print")));       // unknown
    // A later discovery of the same item keeps it.
    QVERIFY(!schema.merge(shortcut(QStringLiteral("Save As…"), QStringLiteral("ctrl+shift+s"),
                                   QStringLiteral("File > Save As…"), ShortcutSource::Atspi)));
    QCOMPARE(schema.shortcuts.at(0).effect, QStringLiteral("Save File"));
    // Written and read back; a wrong type is an error.
    const QJsonObject json = schema.shortcuts.at(0).toJson();
    QCOMPARE(json.value(QStringLiteral("effect")).toString(), QStringLiteral("Save File"));
    QCOMPARE(Shortcut::fromJson(json)->effect, QStringLiteral("Save File"));
    QJsonObject bad = json;
    bad.insert(QStringLiteral("effect"), 3);
    QString error;
    QVERIFY(!Shortcut::fromJson(bad, &error));
    QCOMPARE(error, QStringLiteral("\"Save As…\": effect must be a string"));
    QJsonObject none = json;
    none.remove(QStringLiteral("effect"));
    QVERIFY(Shortcut::fromJson(none)->effect.isEmpty());
}

void TestShortcuts::storeRoundTrip()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const ShortcutStore store(dir.path());
    const auto empty = store.load(QStringLiteral("Fixture App"));
    QVERIFY(empty);
    QVERIFY(empty->isEmpty());

    AppSchema schema;
    schema.application = QStringLiteral("Fixture App");
    Shortcut save = shortcut(QStringLiteral("Save As…"), QStringLiteral("ctrl+shift+s"),
                             QStringLiteral("File > Save As…"), ShortcutSource::Atspi);
    save.verifiedAtMs = 1732456789123;
    schema.shortcuts << save
                     << shortcut(QStringLiteral("Recent"), {}, QStringLiteral("File > Recent"),
                                 ShortcutSource::Vision);
    schema.zones << NamedZone{QStringLiteral("search field"), QRect(10, 40, 200, 24)};
    schema.notes = QStringLiteral("Tabs hold documents.");
    QString error;
    QVERIFY2(store.save(schema, &error), qPrintable(error));
    QCOMPARE(store.filePath(schema.application), dir.path() + QStringLiteral("/Fixture_App.json"));
    const auto loaded = store.load(schema.application, &error);
    QVERIFY2(loaded, qPrintable(error));
    QCOMPARE(*loaded, schema);
    QCOMPARE(store.applications(), QStringList{QStringLiteral("Fixture App")});
    // Another program's file under this name is an error, not its data.
    QVERIFY(!store.load(QStringLiteral("Fixture/App"), &error));
    QVERIFY(error.contains(QStringLiteral("not \"Fixture/App\"")));
}

void TestShortcuts::storeCorruptFile_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("message");
    QTest::newRow("not json") << QByteArray("{\"format\": 1, ") << "is not a JSON object";
    QTest::newRow("wrong format") << QByteArray(R"({"format": 7, "application": "App", "shortcuts": []})")
                                  << "unsupported app schema format";
    QTest::newRow("no shortcuts") << QByteArray(R"({"format": 1, "application": "App"})") << "\"shortcuts\"";
    QTest::newRow("bad keys")
        << QByteArray(
               R"({"format": 1, "application": "App", "shortcuts": [{"action": "Save", "keys": "ctrl+nothing", "source": "user"}]})")
        << "are no keys";
    QTest::newRow("bad source")
        << QByteArray(
               R"({"format": 1, "application": "App", "shortcuts": [{"action": "Save", "keys": "ctrl+s", "source": "guess"}]})")
        << "source must be";
    QTest::newRow("neither keys nor menu")
        << QByteArray(
               R"({"format": 1, "application": "App", "shortcuts": [{"action": "Save", "source": "user"}]})")
        << "neither keys nor a menu path";
    QTest::newRow("bad zone")
        << QByteArray(
               R"({"format": 1, "application": "App", "shortcuts": [], "zones": [{"name": "x", "x": 1}]})")
        << "zone 0";
}

void TestShortcuts::storeCorruptFile()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const ShortcutStore store(dir.path());
    QFile file(store.filePath(QStringLiteral("App")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
    file.close();

    QString error;
    QVERIFY(!store.load(QStringLiteral("App"), &error));
    QVERIFY2(error.contains(message), qPrintable(error));
    QVERIFY(error.contains(file.fileName()));
    QVERIFY(!knownShortcuts(store, QStringLiteral("App"), &error));

    // Saving over it is refused and the file stays byte for byte.
    AppSchema schema;
    schema.application = QStringLiteral("App");
    schema.shortcuts << shortcut(QStringLiteral("Save"), QStringLiteral("ctrl+s"), {}, ShortcutSource::Atspi);
    QVERIFY(!store.save(schema, &error));
    QVERIFY2(error.contains(QStringLiteral("not replacing")), qPrintable(error));
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), content);
}

void TestShortcuts::shippedSchemas()
{
    // Every shipped schema parses, and the stored shortcuts merge over it.
    const QStringList applications = shippedSchemaApplications();
    QCOMPARE(applications, (QStringList{QStringLiteral("FeatherPad"), QStringLiteral("Mousepad"),
                                        QStringLiteral("Xedit")}));
    for (const QString& application : applications) {
        QString error;
        const auto schema = shippedSchema(application, &error);
        QVERIFY2(schema, qPrintable(application + QStringLiteral(": ") + error));
        QVERIFY(!schema->shortcuts.isEmpty());
        for (const Shortcut& s : schema->shortcuts)
            QCOMPARE(toString(s.source), toString(ShortcutSource::Schema));
    }
    QVERIFY(!shippedSchema(QStringLiteral("NoSuchProgram")));

    QTemporaryDir dir;
    const ShortcutStore store(dir.path());
    const QString application = applications.first();
    const Shortcut first = shippedSchema(application)->shortcuts.first();
    AppSchema learned;
    learned.application = application;
    learned.shortcuts << shortcut(first.action, QStringLiteral("F12"), first.menu, ShortcutSource::User);
    QVERIFY(store.save(learned));
    const auto known = knownShortcuts(store, application);
    QVERIFY(known);
    QCOMPARE(known->shortcuts.size(), shippedSchema(application)->shortcuts.size());
    QCOMPARE(known->find(first.action)->keys, QStringLiteral("F12"));
    QCOMPARE(toString(known->find(first.action)->source), toString(ShortcutSource::User));
}

void TestShortcuts::discoveryConfirmingAShippedShortcut()
{
    // Mousepad's schema: Save As… = ctrl+shift+s, Print… = ctrl+p. The tree read the same keys for Save As…
    // (still the schema's, trusted by `invoke`) and other keys for Print… (the tree's, not trusted).
    QTemporaryDir dir;
    const ShortcutStore store(dir.path());
    const QString application = QStringLiteral("Mousepad");
    AppSchema learned;
    learned.application = application;
    learned.shortcuts << shortcut(QStringLiteral("Save As..."), QStringLiteral("ctrl+shift+s"),
                                  QStringLiteral("File > Save As..."), ShortcutSource::Atspi)
                      << shortcut(QStringLiteral("Print..."), QStringLiteral("ctrl+shift+p"),
                                  QStringLiteral("File > Print..."), ShortcutSource::Vision)
                      << shortcut(QStringLiteral("New Window"), QStringLiteral("ctrl+shift+n"),
                                  QStringLiteral("File > New Window"), ShortcutSource::Atspi);
    QVERIFY(store.save(learned));
    const auto known = knownShortcuts(store, application);
    QVERIFY(known);
    QCOMPARE(known->find(QStringLiteral("Save As"))->keys, QStringLiteral("ctrl+shift+s"));
    QCOMPARE(toString(known->find(QStringLiteral("Save As"))->source), toString(ShortcutSource::Schema));
    QCOMPARE(known->find(QStringLiteral("Print"))->keys, QStringLiteral("ctrl+shift+p"));
    QCOMPARE(toString(known->find(QStringLiteral("Print"))->source), toString(ShortcutSource::Vision));
    QCOMPARE(toString(known->find(QStringLiteral("New Window"))->source), toString(ShortcutSource::Atspi));
    // The stored file keeps what was discovered.
    QCOMPARE(toString(store.load(application)->find(QStringLiteral("Save As"))->source),
             toString(ShortcutSource::Atspi));
}

QTEST_GUILESS_MAIN(TestShortcuts)
#include "tst_shortcuts.moc"
