// The Knowledge settings page (offscreen): per program what the knowledge layer stores (learned schema,
// zone corrections, remembered layouts) with counts and files; Forget of one kind and of a whole program
// deletes exactly those files after confirmation (none when declined); unreadable files are listed by name
// and never deleted; Open folder opens the selected file's folder. The settings dialog carries the page.

#include "core/knowledge/correctionstore.h"
#include "core/knowledge/shortcutstore.h"
#include "core/knowledge/zonememory.h"
#include "core/model/metatypes.h"
#include "ui/knowledgepage.h"
#include "ui/settingsdialog.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using namespace ciu;
using ciu::ui::KnowledgePage;

namespace {

void writeFile(const QString& path, const QByteArray& content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (file.open(QIODevice::WriteOnly))
        file.write(content);
}

} // namespace

class TestKnowledgeUi : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { registerMetaTypes(); }
    void listsForgetsAndKeepsUnreadable();
    void settingsDialogHasThePage();
};

void TestKnowledgeUi::listsForgetsAndKeepsUnreadable()
{
    QTemporaryDir dir;
    const KnowledgePage::Directories dirs{dir.filePath(QStringLiteral("shortcuts")),
                                          dir.filePath(QStringLiteral("corrections")),
                                          dir.filePath(QStringLiteral("zones"))};
    const ShortcutStore shortcuts(dirs.shortcuts);
    const CorrectionStore corrections(dirs.corrections);
    ZoneMemory memory(dirs.zones);

    // Mousepad: all three kinds.
    AppSchema schema{QStringLiteral("Mousepad"), {}, {}, {}};
    Shortcut save;
    save.action = QStringLiteral("Save");
    save.keys = QStringLiteral("ctrl+s");
    save.verifiedAtMs = 1000;
    Shortcut wrap;
    wrap.action = QStringLiteral("Word Wrap");
    wrap.keys = QStringLiteral("ctrl+alt+w");
    schema.shortcuts << save << wrap;
    schema.zones << NamedZone{QStringLiteral("tab bar"), QRect(0, 60, 640, 28)};
    QVERIFY(shortcuts.save(schema));
    CorrectionSet set{QStringLiteral("Mousepad"), {}, {QRect(1, 1, 5, 5)}};
    Zone user;
    user.id = QStringLiteral("u00000001");
    user.bounds = QRect(10, 10, 40, 20);
    user.type = ZoneType::Button;
    user.label = QStringLiteral("Send");
    set.zones << user;
    QVERIFY(corrections.save(set));
    QImage window(64, 48, QImage::Format_RGB32);
    window.fill(Qt::white);
    Zone remembered;
    remembered.id = QStringLiteral("z1");
    remembered.bounds = QRect(10, 10, 20, 10);
    remembered.type = ZoneType::Button;
    remembered.application = QStringLiteral("Mousepad");
    QString error;
    QVERIFY2(memory.remember(QStringLiteral("Mousepad"), QRect(0, 0, 64, 48), window, {remembered}, &error),
             qPrintable(error));
    // FeatherPad: a schema, and a corrections file of the right program that does not parse.
    QVERIFY(shortcuts.save(AppSchema{QStringLiteral("FeatherPad"), {save}, {}, {}}));
    const QString brokenCorrections = corrections.filePath(QStringLiteral("FeatherPad"));
    writeFile(brokenCorrections, R"({"format": 1, "application": "FeatherPad", "zones": 3})");
    // A file that is no JSON at all.
    const QString garbage = dirs.shortcuts + QStringLiteral("/Garbage.json");
    writeFile(garbage, "not json");

    KnowledgePage page(dirs);
    QStringList asked;
    bool answer = false;
    page.setConfirmation([&](const QString& question) {
        asked << question;
        return answer;
    });
    QStringList opened;
    page.setFolderOpener([&](const QString& folder) { opened << folder; });

    QTreeWidget* tree = page.tree();
    QCOMPARE(tree->topLevelItemCount(), 3); // FeatherPad, Mousepad, unreadable files
    QCOMPARE(tree->topLevelItem(0)->text(0), QStringLiteral("FeatherPad"));
    QCOMPARE(tree->topLevelItem(1)->text(0), QStringLiteral("Mousepad"));
    QTreeWidgetItem* schemaItem = page.kindItem(QStringLiteral("Mousepad"), KnowledgePage::Kind::Schema);
    QVERIFY(schemaItem);
    QCOMPARE(schemaItem->text(1), QStringLiteral("2 shortcut(s) (1 verified), 1 named zone(s)"));
    QCOMPARE(schemaItem->text(2), shortcuts.filePath(QStringLiteral("Mousepad")));
    QTreeWidgetItem* correctionItem =
        page.kindItem(QStringLiteral("Mousepad"), KnowledgePage::Kind::Corrections);
    QVERIFY(correctionItem);
    QCOMPARE(correctionItem->text(1), QStringLiteral("1 corrected zone(s), 1 removed detection(s)"));
    QTreeWidgetItem* layoutItem = page.kindItem(QStringLiteral("Mousepad"), KnowledgePage::Kind::Layouts);
    QVERIFY(layoutItem);
    QCOMPARE(layoutItem->text(1), QStringLiteral("1 layout(s), 1 zone(s)"));
    QCOMPARE(layoutItem->text(2), memory.filePath(QStringLiteral("Mousepad")));
    // The unreadable: by file name, under its program when it names one.
    QTreeWidgetItem* broken = page.kindItem(QStringLiteral("FeatherPad"), KnowledgePage::Kind::Corrections);
    QVERIFY(broken);
    QCOMPARE(broken->text(0), QStringLiteral("Unreadable: FeatherPad.json"));
    QCOMPARE(tree->topLevelItem(2)->text(0), QStringLiteral("Unreadable files"));
    QCOMPARE(tree->topLevelItem(2)->child(0)->text(0), QStringLiteral("Unreadable: Garbage.json"));
    QVERIFY2(page.statusText().contains(QStringLiteral("2 file(s) cannot be read")),
             qPrintable(page.statusText()));

    // Forget one kind: declined, nothing goes; accepted, only Mousepad's learned schema goes.
    QVERIFY(!page.forgetButton()->isEnabled());
    tree->setCurrentItem(page.kindItem(QStringLiteral("Mousepad"), KnowledgePage::Kind::Schema));
    QVERIFY(page.forgetButton()->isEnabled());
    QSignalSpy forgotten(&page, &KnowledgePage::forgotten);
    page.forgetButton()->click();
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.first().contains(shortcuts.filePath(QStringLiteral("Mousepad"))),
             qPrintable(asked.first()));
    QVERIFY(QFile::exists(shortcuts.filePath(QStringLiteral("Mousepad"))));
    QCOMPARE(forgotten.size(), 0);
    answer = true;
    page.forgetButton()->click();
    QVERIFY(!QFile::exists(shortcuts.filePath(QStringLiteral("Mousepad"))));
    QVERIFY(QFile::exists(corrections.filePath(QStringLiteral("Mousepad"))));
    QVERIFY(QFile::exists(memory.filePath(QStringLiteral("Mousepad"))));
    QVERIFY(QFile::exists(shortcuts.filePath(QStringLiteral("FeatherPad"))));
    QCOMPARE(forgotten.size(), 1);
    QCOMPARE(forgotten.first().at(0).toString(), QStringLiteral("Mousepad"));
    QVERIFY(!page.kindItem(QStringLiteral("Mousepad"), KnowledgePage::Kind::Schema));

    // Open folder: the selected file's folder.
    tree->setCurrentItem(page.kindItem(QStringLiteral("Mousepad"), KnowledgePage::Kind::Layouts));
    page.openFolderButton()->click();
    QCOMPARE(opened, QStringList{QDir(dirs.zones).absolutePath()});

    // Forget a whole program: its readable files go, its unreadable one stays.
    tree->setCurrentItem(page.programItem(QStringLiteral("FeatherPad")));
    page.forgetButton()->click();
    QCOMPARE(asked.size(), 3);
    QVERIFY(!QFile::exists(shortcuts.filePath(QStringLiteral("FeatherPad"))));
    QVERIFY(QFile::exists(brokenCorrections));
    QVERIFY2(page.statusText().contains(QStringLiteral("Kept (unreadable): FeatherPad.json")),
             qPrintable(page.statusText()));
    // An unreadable file alone: nothing asked, nothing deleted.
    tree->setCurrentItem(page.kindItem(QStringLiteral("FeatherPad"), KnowledgePage::Kind::Corrections));
    page.forgetButton()->click();
    QCOMPARE(asked.size(), 3);
    QVERIFY(QFile::exists(brokenCorrections));
    // The other program: all of Mousepad.
    tree->setCurrentItem(page.programItem(QStringLiteral("Mousepad")));
    page.forgetButton()->click();
    QVERIFY(!QFile::exists(corrections.filePath(QStringLiteral("Mousepad"))));
    QVERIFY(!QFile::exists(memory.filePath(QStringLiteral("Mousepad"))));
    QVERIFY(!page.programItem(QStringLiteral("Mousepad")));
    QVERIFY(QFile::exists(garbage));
    // The rows of the unreadable files are not selectable for Forget (no program).
    tree->setCurrentItem(tree->topLevelItem(tree->topLevelItemCount() - 1)->child(0));
    QVERIFY(!page.forgetButton()->isEnabled());
}

void TestKnowledgeUi::settingsDialogHasThePage()
{
    // The default location: this test's own XDG data folder.
    QTemporaryDir data;
    qputenv("XDG_DATA_HOME", data.path().toUtf8());
    QVERIFY(ShortcutStore().save(
        AppSchema{QStringLiteral("Xedit"), {}, {{QStringLiteral("text"), QRect(0, 0, 9, 9)}}, {}}));
    ui::SettingsDialog dialog(ui::AppSettings::defaults());
    QVERIFY(dialog.knowledgePage());
    QCOMPARE(dialog.knowledgePage()->directories().shortcuts,
             data.path() + QStringLiteral("/ciu-agent/shortcuts"));
    QVERIFY(dialog.knowledgePage()->kindItem(QStringLiteral("Xedit"), KnowledgePage::Kind::Schema));
}

QTEST_MAIN(TestKnowledgeUi)
#include "tst_knowledgeui.moc"
