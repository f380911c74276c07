// `ciu-agent shortcuts` by vision (app/shortcutsvision.h): the area a menu opened in (the pixels that changed
// below its title) and OCR words grouped into menu rows and menu-bar titles.

#include "app/shortcutsvision.h"
#include "core/knowledge/shortcutdiscovery.h"

#include <QTest>

using namespace ciu;
using namespace ciu::app;

namespace {

canvas::OcrEngine::Word word(const QString& text, QRect box)
{
    canvas::OcrEngine::Word w;
    w.text = text;
    w.box = box;
    w.confidence = 90;
    return w;
}

} // namespace

class TestShortcutsVision : public QObject
{
    Q_OBJECT
private slots:
    void changedAreaBelowTheTitle();
    void wordsIntoMenuRows();
    void wordsIntoMenuBarTitles();
};

void TestShortcutsVision::changedAreaBelowTheTitle()
{
    QImage before(200, 150, QImage::Format_RGB32);
    before.fill(Qt::white);
    QImage after = before;
    after.setPixelColor(12, 5, Qt::blue); // the title highlighted: above `top`, not part of the menu
    for (int y = 30; y < 90; ++y) {
        for (int x = 10; x < 70; ++x)
            after.setPixelColor(x, y, Qt::lightGray);
    }
    QCOMPARE(changedArea(before, after, 20), QRect(10, 30, 60, 60));
    QCOMPARE(changedArea(before, after, 0), QRect(QPoint(10, 5), QPoint(69, 89)));
    QCOMPARE(changedArea(before, before, 0), QRect());
    QCOMPARE(changedArea(before, after.copy(0, 0, 100, 100), 0), QRect()); // another size
    QCOMPARE(changedArea(QImage(), after, 0), QRect());
}

void TestShortcutsVision::wordsIntoMenuRows()
{
    // Words of a Tk menu as Tesseract gives them (out of order), in a crop whose top left is (2, 440).
    const QList<canvas::OcrEngine::Word> words{word(QStringLiteral("Ctrl+O"), QRect(88, 13, 46, 11)),
                                               word(QStringLiteral("Open..."), QRect(5, 12, 50, 12)),
                                               word(QStringLiteral("Shift+Ctrl+S"), QRect(88, 35, 88, 11)),
                                               word(QStringLiteral("Save"), QRect(5, 34, 30, 12)),
                                               word(QStringLiteral("As..."), QRect(38, 35, 30, 11)),
                                               word(QStringLiteral("Recent"), QRect(5, 57, 44, 12)),
                                               word(QString(), QRect(100, 57, 5, 5))};
    const QList<Zone> rows = textRows(words, QPoint(2, 440), false);
    QStringList labels;
    for (const Zone& z : rows)
        labels << z.label;
    QCOMPARE(labels, (QStringList{QStringLiteral("Open... Ctrl+O"), QStringLiteral("Save As... Shift+Ctrl+S"),
                                  QStringLiteral("Recent")}));
    QCOMPARE(rows.at(1).bounds, QRect(QPoint(7, 474), QPoint(177, 485)));
    QCOMPARE(int(rows.at(0).type), int(ZoneType::MenuItem));
    QCOMPARE(int(rows.at(0).labelSource), int(LabelSource::Ocr));
    // As the menu's rows: two shortcuts, "Recent" has no accelerator.
    const QList<Shortcut> shortcuts = shortcutsFromMenuRows(rows, QStringLiteral("File"));
    QCOMPARE(shortcuts.size(), 2);
    QCOMPARE(shortcuts.at(1).menu, QStringLiteral("File > Save As..."));
    QCOMPARE(shortcuts.at(1).keys, QStringLiteral("ctrl+shift+s"));
}

void TestShortcutsVision::wordsIntoMenuBarTitles()
{
    // "File   Edit   Save As" in a bar: a gap of several spaces starts a title, one space does not.
    const QList<canvas::OcrEngine::Word> words{word(QStringLiteral("File"), QRect(8, 10, 24, 11)),
                                               word(QStringLiteral("Edit"), QRect(46, 10, 26, 11)),
                                               word(QStringLiteral("Save"), QRect(90, 10, 30, 11)),
                                               word(QStringLiteral("As"), QRect(124, 10, 14, 11))};
    QStringList labels;
    for (const Zone& z : textRows(words, QPoint(1, 417), true))
        labels << z.label;
    QCOMPARE(labels,
             (QStringList{QStringLiteral("File"), QStringLiteral("Edit"), QStringLiteral("Save As")}));
    QStringList oneRow;
    for (const Zone& z : textRows(words, QPoint(1, 417), false))
        oneRow << z.label;
    QCOMPARE(oneRow, QStringList{QStringLiteral("File Edit Save As")});
}

QTEST_GUILESS_MAIN(TestShortcutsVision)
#include "tst_shortcutsvision.moc"
