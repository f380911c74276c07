// LocalAnalyzer (Tier 1) on synthetic screens painted with QPainter and a real font: element types,
// labels from OCR, "Name:" labels, check box state, template re-finding, regions and error paths, and the
// theme-independent cues (dark-theme fields, focus rings of any colour).

#include "core/canvas/localanalyzer.h"
#include "core/canvas/uisegmenter.h"
#include "core/canvas/zoneassembler.h"
#include "core/model/geometry.h"

#include <QFont>
#include <QLinearGradient>
#include <QPainter>
#include <QPainterPath>
#include <QTest>

#include <algorithm>
#include <array>
#include <cstdlib>

using namespace ciu;
using canvas::LocalAnalyzer;

namespace {

QFont uiFont()
{
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(12);
    return font;
}

void button(QPainter& p, const QRect& r, const QString& text)
{
    QLinearGradient g(r.topLeft(), r.bottomLeft());
    g.setColorAt(0, QColor(0xf6, 0xf6, 0xf6));
    g.setColorAt(1, QColor(0xe2, 0xe2, 0xe2));
    p.setPen(QColor(0x9a, 0x9a, 0x9a));
    p.setBrush(g);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    p.setPen(Qt::black);
    p.drawText(r, Qt::AlignCenter, text);
}

void field(QPainter& p, const QRect& r, const QString& text, const QColor& textColour = Qt::black)
{
    p.setPen(QColor(0x9a, 0x9a, 0x9a));
    p.setBrush(Qt::white);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    p.setPen(textColour);
    p.drawText(r.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
}

void checkBox(QPainter& p, QPoint at, const QString& text, bool checked)
{
    const QRect box(at, QSize(14, 14));
    p.setPen(QColor(0x80, 0x80, 0x80));
    p.setBrush(Qt::white);
    p.drawRect(box.adjusted(0, 0, -1, -1));
    if (checked) {
        p.setPen(QPen(Qt::black, 2));
        p.drawLine(box.left() + 3, box.top() + 7, box.left() + 6, box.top() + 10);
        p.drawLine(box.left() + 6, box.top() + 10, box.left() + 11, box.top() + 3);
    }
    p.setPen(Qt::black);
    p.drawText(QRect(box.right() + 7, box.top() - 3, 200, 20), Qt::AlignVCenter | Qt::AlignLeft, text);
}

void dropdown(QPainter& p, const QRect& r, const QString& text)
{
    button(p, r, QString());
    p.setPen(Qt::black);
    p.drawText(r.adjusted(6, 0, -20, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
    QPainterPath arrow;
    const QPoint c(r.right() - 10, r.center().y());
    arrow.moveTo(c.x() - 4, c.y() - 2);
    arrow.lineTo(c.x() + 4, c.y() - 2);
    arrow.lineTo(c.x(), c.y() + 2);
    arrow.closeSubpath();
    p.fillPath(arrow, QColor(0x30, 0x30, 0x30));
}

void slider(QPainter& p, const QRect& r, double value)
{
    const int y = r.center().y();
    p.setPen(QColor(0x90, 0x90, 0x90));
    p.setBrush(QColor(0xd8, 0xd8, 0xd8));
    p.drawRect(QRect(r.left(), y - 2, r.width(), 5));
    const int x = r.left() + int(value * (r.width() - 14));
    p.setBrush(QColor(0xf4, 0xf4, 0xf4));
    p.drawRect(QRect(x, r.top(), 14, r.height() - 1));
}

// A popup menu at `r` filled with `fill`: each label at the left of its row (24 px tall, from `rowTops`)
// and its key combination, if any, at the right.
void popupMenu(QPainter& p, const QRect& r, const QColor& fill, const QStringList& labels,
               const QStringList& keys, const QList<int>& rowTops)
{
    p.setPen(QColor(0x9a, 0x9a, 0x9a));
    p.setBrush(fill);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    p.setPen(Qt::black);
    for (int i = 0; i < labels.size(); ++i) {
        const QRect row(r.x() + 24, rowTops.at(i), r.width() - 40, 24);
        p.drawText(row, Qt::AlignVCenter | Qt::AlignLeft, labels.at(i));
        p.drawText(row, Qt::AlignVCenter | Qt::AlignRight, keys.at(i));
    }
}

void list(QPainter& p, const QRect& r, int items)
{
    p.setPen(QColor(0x9a, 0x9a, 0x9a));
    p.setBrush(Qt::white);
    p.drawRect(r.adjusted(0, 0, -1, -1));
    const QRect bar(r.right() - 16, r.top() + 1, 16, r.height() - 2);
    p.setBrush(QColor(0xee, 0xee, 0xee));
    p.drawRect(bar.adjusted(0, 0, -1, -1));
    p.setBrush(QColor(0xcc, 0xcc, 0xcc));
    p.drawRect(QRect(bar.left() + 2, bar.top() + 20, 11, 60));
    p.setPen(Qt::black);
    for (int i = 0; i < items; ++i)
        p.drawText(QRect(r.left() + 5, r.top() + 4 + i * 16, 120, 16), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("Item %1").arg(i + 1));
}

// The test form; at `scale` 2 drawn as a toolkit draws for a HiDPI screen (GDK_SCALE=2): twice the size.
QImage form(QPoint submitAt = QPoint(40, 300), int scale = 1)
{
    QImage image(800 * scale, 480 * scale, QImage::Format_RGB32);
    image.fill(QColor(0xef, 0xef, 0xef));
    QPainter p(&image);
    p.scale(scale, scale);
    p.setFont(uiFont());
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.setPen(Qt::black);
    p.drawText(QRect(40, 20, 300, 20), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("Welcome back"));
    p.drawText(QRect(40, 60, 60, 24), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("Name:"));
    field(p, QRect(110, 60, 260, 24), QString());
    p.drawText(QRect(40, 100, 60, 24), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("City:"));
    field(p, QRect(110, 100, 260, 24), QStringLiteral("Berlin"));
    p.setPen(Qt::black);
    p.drawText(QRect(40, 140, 60, 24), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("Colour:"));
    dropdown(p, QRect(110, 140, 260, 24), QStringLiteral("Green"));
    p.setPen(Qt::black);
    p.drawText(QRect(40, 180, 60, 20), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("Volume:"));
    slider(p, QRect(110, 182, 260, 16), 0.4);
    checkBox(p, QPoint(40, 225), QStringLiteral("Remember me"), false);
    checkBox(p, QPoint(220, 225), QStringLiteral("Subscribe"), true);
    button(p, QRect(submitAt, QSize(100, 26)), QStringLiteral("Submit"));
    button(p, QRect(160, 300, 100, 26), QStringLiteral("Cancel"));
    list(p, QRect(500, 40, 200, 300), 12);
    return image;
}

// A calculator (xcalc-like): white keys with a thin black border and a centred label, most of them one
// glyph; a right-aligned display; and, for contrast, a narrow entry field with left-aligned text.
QImage keypad()
{
    QImage image(400, 300, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(15);
    p.setFont(font);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(QPen(Qt::black, 3));
    p.setBrush(Qt::white);
    p.drawRect(QRect(20, 20, 180, 50));
    p.setPen(Qt::black);
    p.drawText(QRect(24, 24, 168, 22), Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("12"));
    const QStringList labels{QStringLiteral("7"), QStringLiteral("8"), QStringLiteral("9"),
                             QStringLiteral("*"), QStringLiteral("4"), QStringLiteral("5"),
                             QStringLiteral("6"), QStringLiteral("-"), QStringLiteral("1"),
                             QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("+"),
                             QStringLiteral("0"), QStringLiteral("."), QString(QChar(0x00F7)),
                             QStringLiteral("="), QStringLiteral("("), QStringLiteral(")")};
    for (int i = 0; i < labels.size(); ++i) {
        const QRect key(20 + (i % 4) * 44, 90 + (i / 4) * 30, 42, 28);
        p.setPen(Qt::black);
        p.setBrush(Qt::white);
        p.drawRect(key.adjusted(0, 0, -1, -1));
        p.drawText(key, Qt::AlignCenter, labels[i]);
    }
    p.setPen(QColor(0x9a, 0x9a, 0x9a));
    p.drawRect(QRect(260, 90, 70, 24).adjusted(0, 0, -1, -1));
    p.setPen(Qt::black);
    p.drawText(QRect(265, 90, 60, 24), Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("12"));
    return image;
}

// A themed box: a 1 px border (`ring` px of it for a focus ring) around a fill, with a label drawn in
// `ink`, left-aligned like a field's or centred like a button's.
void themedBox(QPainter& p, const QRect& r, const QColor& border, const QColor& fill, const QColor& ink,
               const QString& text, Qt::Alignment align, int ring = 1)
{
    p.setPen(Qt::NoPen);
    p.setBrush(border);
    p.drawRect(r);
    p.setBrush(fill);
    p.drawRect(r.adjusted(ring, ring, -ring, -ring));
    p.setPen(ink);
    p.drawText(r.adjusted(6, 0, -6, 0), Qt::AlignVCenter | align, text);
}

// A box drawn as the Windows, Motif and Tk styles do: two lines of bevel, lit on the top and left and shaded
// on the bottom and right when raised, the other way round when sunken, around a fill.
void bevelledBox(QPainter& p, const QRect& r, bool raised, const QColor& fill)
{
    const QColor light(0xff, 0xff, 0xff);
    const QColor midLight(0xe3, 0xe3, 0xe3);
    const QColor mid(0xa0, 0xa0, 0xa0);
    const QColor dark(0x69, 0x69, 0x69);
    p.setPen(Qt::NoPen);
    p.setBrush(fill);
    p.drawRect(r);
    const auto frame = [&](const QRect& f, const QColor& topLeft, const QColor& bottomRight) {
        p.setPen(topLeft);
        p.drawLine(f.topLeft(), f.topRight() - QPoint(1, 0));
        p.drawLine(f.topLeft(), f.bottomLeft() - QPoint(0, 1));
        p.setPen(bottomRight);
        p.drawLine(f.bottomLeft(), f.bottomRight());
        p.drawLine(f.topRight(), f.bottomRight());
    };
    if (raised) {
        frame(r, light, dark);
        frame(r.adjusted(1, 1, -1, -1), midLight, mid);
    } else {
        frame(r, mid, light);
        frame(r.adjusted(1, 1, -1, -1), dark, midLight);
    }
}

QImage themedImage(const QColor& panel)
{
    QImage image(480, 260, QImage::Format_RGB32);
    image.fill(panel);
    return image;
}

// A plain panel segmented, for tests at the assembler level that give their own boxes and text. The image
// lives as long as the segmentation, whose bgra is a view of it.
struct SegmentedPanel
{
    QImage image;
    canvas::seg::Segmentation seg;
};

SegmentedPanel segmentedPanel(const QColor& panel)
{
    SegmentedPanel out;
    out.image = themedImage(panel).convertToFormat(QImage::Format_ARGB32);
    const cv::Mat mat(out.image.height(), out.image.width(), CV_8UC4,
                      const_cast<uchar*>(out.image.constBits()), size_t(out.image.bytesPerLine()));
    out.seg = canvas::seg::segment(mat);
    return out;
}

void preparePainter(QPainter& p)
{
    p.setFont(uiFont());
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setRenderHint(QPainter::TextAntialiasing, true);
}

int countOf(const QList<Zone>& zones, ZoneType type)
{
    return int(std::count_if(zones.cbegin(), zones.cend(), [type](const Zone& z) { return z.type == type; }));
}

const Zone* findZone(const QList<Zone>& zones, ZoneType type, const QString& label)
{
    for (const Zone& z : zones) {
        if (z.type == type && z.label.compare(label, Qt::CaseInsensitive) == 0)
            return &z;
    }
    return nullptr;
}

// Each edge of `a` within a pixel of `b`'s.
bool withinPixel(const QRect& a, const QRect& b)
{
    return std::abs(a.left() - b.left()) <= 1 && std::abs(a.right() - b.right()) <= 1 &&
           std::abs(a.top() - b.top()) <= 1 && std::abs(a.bottom() - b.bottom()) <= 1;
}

// The last zone of `type` whose box holds `p` (null: none).
const Zone* zoneAt(const QList<Zone>& zones, ZoneType type, QPoint p)
{
    const Zone* found = nullptr;
    for (const Zone& z : zones)
        found = z.type == type && z.bounds.contains(p) ? &z : found;
    return found;
}

QString dump(const QList<Zone>& zones)
{
    QStringList lines;
    for (const Zone& z : zones)
        lines << QStringLiteral("%1 \"%2\" %3,%4 %5x%6")
                     .arg(toString(z.type), z.label)
                     .arg(z.bounds.x())
                     .arg(z.bounds.y())
                     .arg(z.bounds.width())
                     .arg(z.bounds.height());
    return lines.join(QLatin1Char('\n'));
}

// The zones centred in `area` that are not menu items, as dump() lists them (empty: none).
QString notMenuItemsIn(const QList<Zone>& zones, const QRect& area)
{
    QList<Zone> others;
    for (const Zone& z : zones) {
        if (area.contains(z.bounds.center()) && z.type != ZoneType::MenuItem)
            others << z;
    }
    return others.isEmpty() ? QString() : dump(others);
}

// The form's Submit button as the analyzer found it, with the id "submit" (and `windowId`), its template
// kept.
std::optional<Zone> rememberSubmit(LocalAnalyzer& analyzer, quint64 windowId = 0)
{
    const QImage before = form();
    const QList<Zone> known = analyzer.analyze(before, QPoint(0, 0), QRect(30, 290, 120, 50)).zones;
    const Zone* submit = findZone(known, ZoneType::Button, QStringLiteral("Submit"));
    if (!submit)
        return std::nullopt;
    Zone z = *submit;
    z.id = QStringLiteral("submit");
    z.windowId = windowId;
    analyzer.rememberTemplates(before, QPoint(0, 0), {z});
    return z;
}

} // namespace

class TestLocalAnalyzer : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void findsTheElements_data();
    void findsTheElements();
    void checkBoxState();
    void listIsAScrollAreaWithItems();
    void fieldWithoutTextTakesItsLabel();
    void onlyTheRegion();
    void originIsApplied();
    void unchangedKnownZonesAreConfirmed();
    void movedZoneIsRefoundByTemplate();
    void zoneUnderAWindowAboveIsNotRefound();
    void ocrCacheOnRepeat();
    void popupMenuRowsAreMenuItems();
    void tooltipZonesAreTemporary();
    void errors();
    void withoutOcr();
    void hardText_data();
    void hardText();
    void excludedAreasAreMasked();
    void keypadKeysAreButtonsWithGlyphLabels();
    void terminalTextIsStatic();
    void darkThemeFieldIsATextField();
    void whiteButtonOnWhiteIsAButton();
    void sliderShapedInkInAButtonIsNoSlider_data();
    void sliderShapedInkInAButtonIsNoSlider();
    void aWordWithASlidersProfileIsText_data();
    void aWordWithASlidersProfileIsText();
    void aLeadingIconIsNoPartOfTheLabel_data();
    void aLeadingIconIsNoPartOfTheLabel();
    void focusRingOfAnyColour_data();
    void focusRingOfAnyColour();
    void flatLowContrastButtonIsAButton();
    void tabStripAlongAPageHoldsTabs_data();
    void tabStripAlongAPageHoldsTabs();
    void tabsBelowTheirPagesAreTabs_data();
    void tabsBelowTheirPagesAreTabs();
    void bevelledTabsAreTabs_data();
    void bevelledTabsAreTabs();
    void menuBarTitlesRunTogetherAreCutApart_data();
    void menuBarTitlesRunTogetherAreCutApart();
    void emptyBoxesAFormsLabelsNameAreFields_data();
    void emptyBoxesAFormsLabelsNameAreFields();
    void aFlatBarAtAViewsCornerIsItsScrollBar_data();
    void aFlatBarAtAViewsCornerIsItsScrollBar();
    void aGroupsTitleIsAboveAGroupNotALine_data();
    void aGroupsTitleIsAboveAGroupNotALine();
    void aLoneCellAtAWindowsTopIsAMenuTitle_data();
    void aLoneCellAtAWindowsTopIsAMenuTitle();
    void aCaptionAtAWindowsTopIsNoMenuTitle();
    void anIconBesideAButtonsLabelIsItsFace_data();
    void anIconBesideAButtonsLabelIsItsFace();
    void aWhiteBarAtAWindowsTopIsAMenuBar_data();
    void aLetterFoundAsABoxIsNoControl_data();
    void aDropDownsArrowButtonIsItsFace();
    void aComboOfTwoBoxesIsOneDropDown_data();
    void aWrappedMessageIsNoMenu_data();
    void threeIconBoxesInABarAreButtons();
    void aWrappedMessageIsNoMenu();
    void aComboOfTwoBoxesIsOneDropDown();
    void aLetterFoundAsABoxIsNoControl();
    void aWhiteBarAtAWindowsTopIsAMenuBar();
    void toolBarIconsSpanTheirCells();
    void flatIconRowIsButtons();
    void toolBarOfMixedIconsIsOneRowOfCells();
    void bevelledWidgetsAreFound();
    void dockTitleButtonsAreButtons();
    void smallGlyphsAloneAreButtons();
    void fieldWithIconsAtItsEndsIsATextField();
    void tableCellsAreItemsByColumn();
    void menuInTheBaseColourIsAMenu();
    void menuCutBySeparatorsIsOneMenu();
    void aMenuItemsShortcutIsNoPartOfItsLabel_data();
    void aMenuItemsShortcutIsNoPartOfItsLabel();
    void buttonsShowingKeysSideBySideStayButtons();
    void aScaledMenuItemsLabelIsAllItsWords();
    void textViewLinesStayText();
    void linesBesideASelectedRowAreLines();
    void aTreesRowsAreItsItems_data();
    void aTreesRowsAreItsItems();
    void expandersAreButtonsWithTheirState();
    void plusMinusExpandersAreButtons();
    void scaledScreenIsAnalysedAtItsLogicalSize();

private:
    QList<Zone> m_zones;
};

void TestLocalAnalyzer::initTestCase()
{
    LocalAnalyzer analyzer;
    QVERIFY2(analyzer.ocrReady(), qPrintable(analyzer.ocrError()));
    const auto result = analyzer.analyze(form(), QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    m_zones = result.zones;
    qInfo().noquote() << "zones found:\n" << dump(m_zones);
}

void TestLocalAnalyzer::findsTheElements_data()
{
    QTest::addColumn<int>("type");
    QTest::addColumn<QString>("label");
    QTest::addColumn<QRect>("expected");
    QTest::newRow("button Submit") << int(ZoneType::Button) << "Submit" << QRect(40, 300, 100, 26);
    QTest::newRow("button Cancel") << int(ZoneType::Button) << "Cancel" << QRect(160, 300, 100, 26);
    QTest::newRow("field with text") << int(ZoneType::TextField) << "Berlin" << QRect(110, 100, 260, 24);
    QTest::newRow("dropdown") << int(ZoneType::Dropdown) << "Green" << QRect(110, 140, 260, 24);
    QTest::newRow("slider") << int(ZoneType::Slider) << "Volume" << QRect(110, 182, 260, 16);
    QTest::newRow("checkbox") << int(ZoneType::CheckBox) << "Remember me" << QRect(40, 225, 100, 14);
    QTest::newRow("static") << int(ZoneType::Static) << "Welcome back" << QRect(40, 22, 95, 16);
    QTest::newRow("label static") << int(ZoneType::Static) << "City:" << QRect(40, 104, 32, 16);
}

void TestLocalAnalyzer::findsTheElements()
{
    QFETCH(int, type);
    QFETCH(QString, label);
    QFETCH(QRect, expected);
    const Zone* z = findZone(m_zones, ZoneType(type), label);
    QVERIFY2(
        z,
        qPrintable(
            QStringLiteral("no %1 \"%2\" among:\n%3").arg(toString(ZoneType(type)), label, dump(m_zones))));
    const QRect i = z->bounds.intersected(expected);
    const double iou = double(i.width() * i.height()) /
                       double(z->bounds.width() * z->bounds.height() + expected.width() * expected.height() -
                              i.width() * i.height());
    QVERIFY2(iou >= 0.5, qPrintable(QStringLiteral("IoU %1").arg(iou)));
    QVERIFY(z->confidence > 0.3 && z->confidence <= 1.0);
    QVERIFY(z->id.isEmpty()); // ids are the registry's
    QCOMPARE(int(z->source), int(ZoneSource::Local));
}

void TestLocalAnalyzer::keypadKeysAreButtonsWithGlyphLabels()
{
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(keypad(), QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const QStringList labels{QStringLiteral("7"), QStringLiteral("8"), QStringLiteral("9"),
                             QStringLiteral("*"), QStringLiteral("4"), QStringLiteral("5"),
                             QStringLiteral("6"), QStringLiteral("-"), QStringLiteral("1"),
                             QStringLiteral("2"), QStringLiteral("3"), QStringLiteral("+"),
                             QStringLiteral("0"), QStringLiteral("."), QString(QChar(0x00F7)),
                             QStringLiteral("="), QStringLiteral("("), QStringLiteral(")")};
    int found = 0;
    QStringList missed;
    for (int i = 0; i < labels.size(); ++i) {
        const Zone* key = findZone(result.zones, ZoneType::Button, labels[i]);
        const bool placed =
            key && key->bounds.intersects(QRect(20 + (i % 4) * 44, 90 + (i / 4) * 30, 42, 28));
        found += placed ? 1 : 0;
        if (!placed)
            missed << labels[i];
    }
    qInfo("keypad: %d of %d keys found as labelled buttons", found, int(labels.size()));
    // Every key of the drawn keypad, each in its place.
    QVERIFY2(missed.isEmpty(),
             qPrintable(missed.join(QLatin1Char(' ')) + QLatin1Char('\n') + dump(result.zones)));
    for (const Zone& z : result.zones)
        QVERIFY2(z.type != ZoneType::TextField || z.bounds.left() >= 250, qPrintable(dump(result.zones)));
    const Zone* field = findZone(result.zones, ZoneType::TextField, QStringLiteral("12"));
    QVERIFY2(field && field->bounds.left() == 260, qPrintable(dump(result.zones)));
    const Zone* display = findZone(result.zones, ZoneType::Static, QStringLiteral("12"));
    QVERIFY2(display && display->bounds.width() >= 170, qPrintable(dump(result.zones)));
}

void TestLocalAnalyzer::checkBoxState()
{
    const Zone* off = findZone(m_zones, ZoneType::CheckBox, QStringLiteral("Remember me"));
    const Zone* on = findZone(m_zones, ZoneType::CheckBox, QStringLiteral("Subscribe"));
    QVERIFY(off && on);
    QVERIFY(off->state.testFlag(ZoneStateFlag::Unchecked));
    QVERIFY(on->state.testFlag(ZoneStateFlag::Checked));
}

void TestLocalAnalyzer::listIsAScrollAreaWithItems()
{
    // The list is a scroll area, and its scroll bar (x 683..698, y 41..338, the thumb at y 61..120) one
    // of its own: its groove above the thumb is part of it, no button.
    QList<QRect> areas;
    for (const Zone& z : std::as_const(m_zones)) {
        if (z.type == ZoneType::ScrollArea)
            areas << z.bounds;
    }
    QCOMPARE(areas, (QList<QRect>{QRect(500, 40, 200, 300), QRect(683, 41, 16, 298)}));
    const bool buttonOnBar = std::any_of(m_zones.cbegin(), m_zones.cend(), [](const Zone& z) {
        return z.type == ZoneType::Button && z.bounds.intersects(QRect(683, 41, 16, 298));
    });
    QVERIFY2(!buttonOnBar, qPrintable(dump(m_zones)));
    const Zone* area = zoneAt(m_zones, ZoneType::ScrollArea, QPoint(600, 200));
    QVERIFY2(area, qPrintable(dump(m_zones)));
    // Each row is one item across the list, its border and scroll bar (x 683..699) left out, at the rows'
    // pitch (16 px) around the row's text.
    int items = 0;
    for (const Zone& z : std::as_const(m_zones))
        items += area->bounds.contains(z.bounds.center()) && !z.label.isEmpty() ? 1 : 0;
    QCOMPARE(items, 12);
    for (int i = 0; i < 12; ++i) {
        const QString label = QStringLiteral("Item %1").arg(i + 1);
        const Zone* item = findZone(m_zones, ZoneType::Button, label);
        QVERIFY2(item, qPrintable(label + QLatin1Char('\n') + dump(m_zones)));
        QCOMPARE(item->bounds.left(), 501);
        QCOMPARE(item->bounds.right(), 682);
        QVERIFY2(item->bounds.height() >= 15 && item->bounds.height() <= 17, qPrintable(dump(m_zones)));
        QVERIFY2(std::abs(item->bounds.center().y() - (44 + 16 * i + 8)) <= 2, qPrintable(dump(m_zones)));
    }
}

void TestLocalAnalyzer::fieldWithoutTextTakesItsLabel()
{
    const Zone* name = findZone(m_zones, ZoneType::TextField, QStringLiteral("Name"));
    QVERIFY2(name, qPrintable(dump(m_zones)));
    QCOMPARE(name->bounds.topLeft(), QPoint(110, 60));
}

void TestLocalAnalyzer::onlyTheRegion()
{
    LocalAnalyzer analyzer;
    const QRect region(30, 290, 240, 50); // the two buttons
    const auto result = analyzer.analyze(form(), QPoint(0, 0), region);
    QCOMPARE(result.region, region);
    QVERIFY2(findZone(result.zones, ZoneType::Button, QStringLiteral("Submit")),
             qPrintable(dump(result.zones)));
    QVERIFY(findZone(result.zones, ZoneType::Button, QStringLiteral("Cancel")));
    for (const Zone& z : result.zones)
        QVERIFY(region.contains(z.bounds.center()));
    QVERIFY(result.stats.ocrCalls <= 4);
}

void TestLocalAnalyzer::originIsApplied()
{
    LocalAnalyzer analyzer;
    const QPoint origin(1920, 100); // the frame of a second monitor
    const auto result = analyzer.analyze(form(), origin, QRect(origin + QPoint(30, 290), QSize(240, 50)));
    const Zone* submit = findZone(result.zones, ZoneType::Button, QStringLiteral("Submit"));
    QVERIFY2(submit, qPrintable(dump(result.zones)));
    QCOMPARE(submit->bounds.topLeft(), origin + QPoint(40, 300));
}

void TestLocalAnalyzer::unchangedKnownZonesAreConfirmed()
{
    LocalAnalyzer analyzer;
    const QImage image = form();
    const QRect region(30, 290, 240, 50);
    QList<Zone> known = analyzer.analyze(image, QPoint(0, 0), region).zones;
    QVERIFY(!known.isEmpty());
    for (int i = 0; i < known.size(); ++i)
        known[i].id = QStringLiteral("k%1").arg(i);
    analyzer.rememberTemplates(image, QPoint(0, 0), known);
    QCOMPARE(analyzer.templateCount(), known.size());
    const auto again = analyzer.analyze(image, QPoint(0, 0), region, known);
    QCOMPARE(again.stats.confirmed, known.size());
    QCOMPARE(again.stats.ocrCalls, 0); // nothing to read again
    QCOMPARE(again.zones.size(), known.size());
    for (const Zone& z : again.zones)
        QVERIFY(z.id.startsWith(QLatin1Char('k')));
}

void TestLocalAnalyzer::movedZoneIsRefoundByTemplate()
{
    LocalAnalyzer analyzer;
    const std::optional<Zone> remembered = rememberSubmit(analyzer);
    QVERIFY(remembered);
    const Zone& z = *remembered;
    // The button moves 60 px down; the region covering both places is re-analysed.
    const QImage after = form(QPoint(40, 360));
    const auto result = analyzer.analyze(after, QPoint(0, 0), QRect(30, 290, 120, 110), {z});
    QCOMPARE(result.stats.refound, 1);
    const Zone* moved = nullptr;
    for (const Zone& found : result.zones) {
        if (found.id == QLatin1String("submit"))
            moved = &found;
    }
    QVERIFY2(moved, qPrintable(dump(result.zones)));
    QCOMPARE(moved->bounds.topLeft(), z.bounds.topLeft() + QPoint(0, 60));
    // No second Submit was created next to it.
    int submits = 0;
    for (const Zone& found : result.zones)
        submits += found.label == QLatin1String("Submit") ? 1 : 0;
    QCOMPARE(submits, 1);
}

void TestLocalAnalyzer::zoneUnderAWindowAboveIsNotRefound()
{
    // The same move as movedZoneIsRefoundByTemplate, but a window above the zone's own now lies where the
    // template matches: what matched is on that window (a dialog's plain background takes a faint disabled
    // icon), not the zone.
    LocalAnalyzer analyzer;
    const std::optional<Zone> remembered = rememberSubmit(analyzer, 7);
    QVERIFY(remembered);
    const Zone& z = *remembered;
    const QImage after = form(QPoint(40, 360));
    platform::WindowInfo own;
    own.id = 7;
    own.geometry = QRect(0, 0, after.width(), after.height());
    platform::WindowInfo dialog;
    dialog.id = 8;
    dialog.geometry = QRect(20, 350, 200, 80);
    canvas::AnalysisHints hints;
    hints.windows = {own, dialog};
    const QRect region(30, 290, 120, 110);
    const auto result = analyzer.analyze(after, QPoint(0, 0), region, {z}, hints);
    QCOMPARE(result.stats.refound, 0);
    for (const Zone& found : result.zones)
        QVERIFY2(found.id != QLatin1String("submit"), qPrintable(dump(result.zones)));
    // Below its own window's siblings, not above it: the stacking decides, not the overlap.
    hints.windows = {dialog, own};
    QCOMPARE(analyzer.analyze(after, QPoint(0, 0), region, {z}, hints).stats.refound, 1);
}

void TestLocalAnalyzer::ocrCacheOnRepeat()
{
    LocalAnalyzer analyzer;
    const auto first = analyzer.analyze(form(), QPoint(0, 0), QRect(30, 290, 240, 50));
    QVERIFY(first.stats.ocrCalls > 0);
    const auto second = analyzer.analyze(form(), QPoint(0, 0), QRect(30, 290, 240, 50));
    QCOMPARE(second.stats.ocrCalls, 0);
    QCOMPARE(second.stats.ocrCacheHits, first.stats.ocrCalls);
    QCOMPARE(second.zones.size(), first.zones.size());
    analyzer.clearCaches();
    QVERIFY(analyzer.analyze(form(), QPoint(0, 0), QRect(30, 290, 240, 50)).stats.ocrCalls > 0);
}

void TestLocalAnalyzer::popupMenuRowsAreMenuItems()
{
    QImage image(400, 300, QImage::Format_RGB32);
    image.fill(QColor(0xef, 0xef, 0xef));
    QPainter p(&image);
    p.setFont(uiFont());
    p.setPen(QColor(0x80, 0x80, 0x80));
    p.setBrush(QColor(0xf8, 0xf8, 0xf8));
    p.drawRect(QRect(50, 40, 160, 100).adjusted(0, 0, -1, -1));
    p.setPen(Qt::black);
    const QStringList rows{QStringLiteral("New"), QStringLiteral("Open"), QStringLiteral("Quit")};
    for (int i = 0; i < rows.size(); ++i)
        p.drawText(QRect(70, 48 + i * 28, 120, 22), Qt::AlignVCenter | Qt::AlignLeft, rows.at(i));
    p.end();
    LocalAnalyzer analyzer;
    canvas::AnalysisHints hints;
    hints.menuPopup = true;
    const auto result = analyzer.analyze(image, QPoint(0, 0), QRect(40, 30, 180, 120), {}, hints);
    for (const QString& row : rows) {
        const Zone* item = findZone(result.zones, ZoneType::MenuItem, row);
        QVERIFY2(item, qPrintable(dump(result.zones)));
        QVERIFY(item->bounds.width() >= 140); // the whole row is clickable
    }
}

void TestLocalAnalyzer::tooltipZonesAreTemporary()
{
    LocalAnalyzer analyzer;
    canvas::AnalysisHints hints;
    hints.temporary = true;
    const auto result = analyzer.analyze(form(), QPoint(0, 0), QRect(30, 10, 300, 40), {}, hints);
    QVERIFY(!result.zones.isEmpty());
    for (const Zone& z : result.zones)
        QVERIFY(z.temporary);
}

void TestLocalAnalyzer::errors()
{
    LocalAnalyzer analyzer;
    const auto none = analyzer.analyze(QImage(), QPoint(0, 0), {});
    QVERIFY(!none.error.isEmpty());
    QVERIFY(none.zones.isEmpty());
    const auto outside = analyzer.analyze(form(), QPoint(0, 0), QRect(5000, 5000, 100, 100));
    QVERIFY(!outside.error.isEmpty());
    const auto tiny = analyzer.analyze(form(), QPoint(0, 0), QRect(10, 10, 2, 2));
    QVERIFY(!tiny.error.isEmpty());
    // Any image format is accepted.
    const auto grey = analyzer.analyze(form().convertToFormat(QImage::Format_Grayscale8), QPoint(0, 0),
                                       QRect(30, 290, 240, 50));
    QVERIFY(grey.error.isEmpty());
    QVERIFY(findZone(grey.zones, ZoneType::Button, QStringLiteral("Submit")));
    // Missing language data: a clear error, boxes still found.
    LocalAnalyzer::Options options;
    options.tessdataDir = QStringLiteral("/nonexistent");
    LocalAnalyzer noData(options);
    QVERIFY(!noData.ocrReady());
    QVERIFY(noData.ocrError().contains(QLatin1String("/nonexistent")));
    QVERIFY(!noData.analyze(form(), QPoint(0, 0), QRect(30, 290, 240, 50)).zones.isEmpty());
}

void TestLocalAnalyzer::withoutOcr()
{
    LocalAnalyzer::Options options;
    options.ocr = false;
    LocalAnalyzer analyzer(options);
    const auto result = analyzer.analyze(form(), QPoint(0, 0), {});
    QCOMPARE(result.stats.ocrCalls, 0);
    int boxes = 0;
    for (const Zone& z : result.zones)
        boxes += z.isInteractive() ? 1 : 0;
    QVERIFY2(boxes >= 6, qPrintable(dump(result.zones)));
}

// Text that took the segmenter or the OCR wrong: a long paragraph line (read unscaled first), white
// on a blue title bar, text touching a window's border, dense terminal rows.
void TestLocalAnalyzer::hardText_data()
{
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QStringList>("labels"); // each must be some zone's label; empty: no labelled zone
    QTest::newRow("long line") << "long"
                               << QStringList{QStringLiteral(
                                      "Line 3: the export writes every page of document 12 to the folder.")};
    QTest::newRow("title bar") << "title" << QStringList{QStringLiteral("Export settings 7")};
    QTest::newRow("text at a border")
        << "border" << QStringList{QStringLiteral("rwxr"), QStringLiteral("apt-get")};
    QTest::newRow("dense rows") << "rows"
                                << QStringList{QStringLiteral("apt-get"), QStringLiteral("apt-key"),
                                               QStringLiteral("apt-mark")};
}

void TestLocalAnalyzer::hardText()
{
    QFETCH(QString, kind);
    QFETCH(QStringList, labels);
    QImage image(480, 200, QImage::Format_RGB32);
    image.fill(QColor(0xf0, 0xf0, 0xf0));
    QPainter p(&image);
    p.setFont(uiFont());
    const QRect area(20, 40, 440, 120);
    if (kind == QLatin1String("long")) {
        p.setPen(Qt::black);
        p.drawText(QRect(20, 80, 460, 20), Qt::AlignVCenter | Qt::AlignLeft, labels.first());
    } else if (kind == QLatin1String("title")) {
        p.fillRect(QRect(20, 60, 440, 24), QColor(0x3c, 0x6e, 0xb4));
        p.setPen(Qt::white);
        p.drawText(QRect(20, 60, 440, 24), Qt::AlignCenter, labels.first());
    } else {
        // A terminal: monospaced rows 13 px apart; "border": a window's edge right beside the text.
        QFont mono(QStringLiteral("DejaVu Sans Mono"));
        mono.setPixelSize(11);
        p.setFont(mono);
        p.setPen(Qt::black);
        const bool border = kind == QLatin1String("border");
        if (border)
            p.drawLine(area.x(), 10, area.x(), 190);
        const int x = border ? area.x() + 3 : area.x() + 80;
        const QStringList rows =
            border ? QStringList{QStringLiteral("rwxr apt-get"), QStringLiteral("rwxr apt-key")} : labels;
        for (int i = 0; i < rows.size(); ++i)
            p.drawText(QPoint(x, area.y() + 14 + 13 * i), rows.at(i));
    }
    p.end();
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    for (const QString& label : labels) {
        bool found = false;
        for (const Zone& z : result.zones)
            found = found || z.label.split(QLatin1Char(' ')).contains(label) || z.label == label;
        QVERIFY2(found, qPrintable(QStringLiteral("\"%1\" among:\n%2").arg(label, dump(result.zones))));
    }
}

void TestLocalAnalyzer::excludedAreasAreMasked()
{
    canvas::AnalysisHints hints;
    hints.excluded = {QRect(30, 290, 240, 50)}; // Submit and Cancel
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(form(), QPoint(0, 0), {}, {}, hints);
    QVERIFY(result.error.isEmpty());
    QVERIFY(!findZone(result.zones, ZoneType::Button, QStringLiteral("Submit")));
    QVERIFY(!findZone(result.zones, ZoneType::Button, QStringLiteral("Cancel")));
    for (const Zone& z : result.zones)
        QVERIFY2(!hints.excluded.first().contains(z.bounds.center()), qPrintable(dump(result.zones)));
    QVERIFY(findZone(result.zones, ZoneType::TextField, QStringLiteral("Berlin"))); // the rest is there
}

void TestLocalAnalyzer::terminalTextIsStatic()
{
    // A terminal window: rows of monospaced text on a grid, no widget around them, the first row at the
    // top of the client area (where a menu bar would be). What the rows say must not matter.
    QImage image(700, 300, QImage::Format_RGB32);
    image.fill(QColor(0xd8, 0xd8, 0xd8));
    QPainter p(&image);
    const QRect client(20, 20, 620, 240);
    p.fillRect(client, Qt::white);
    QFont mono(QStringLiteral("DejaVu Sans Mono"));
    mono.setPixelSize(12);
    p.setFont(mono);
    p.setPen(Qt::black);
    const QStringList rows{QStringLiteral("0 menu item"), QStringLiteral("1 File"),
                           QStringLiteral("2 Edit"),      QStringLiteral("user@host:~$ ls -l /tmp"),
                           QStringLiteral("total 0"),     QStringLiteral("user@host:~$ echo OK Cancel")};
    for (int i = 0; i < rows.size(); ++i)
        p.drawText(QPoint(client.left() + 2, client.top() + 12 + i * 15), rows.at(i));
    p.end();
    LocalAnalyzer analyzer;
    canvas::AnalysisHints hints;
    platform::WindowInfo window;
    window.id = 7;
    window.geometry = client;
    hints.windows = {window};
    const auto result = analyzer.analyze(image, QPoint(0, 0), QRect(), {}, hints);
    for (const Zone& z : result.zones) {
        QVERIFY2(z.type != ZoneType::MenuItem && z.type != ZoneType::Button, qPrintable(dump(result.zones)));
    }
    for (const char* row : {"0 menu item", "1 File", "2 Edit"})
        QVERIFY2(findZone(result.zones, ZoneType::Static, QString::fromLatin1(row)),
                 qPrintable(dump(result.zones)));

    // The same rows read as a popup menu (a change below a menu title) are still the terminal's text.
    hints.menuPopup = true;
    const auto popup = analyzer.analyze(image, QPoint(0, 0), client, {}, hints);
    for (const Zone& z : popup.zones)
        QVERIFY2(z.type != ZoneType::MenuItem, qPrintable(dump(popup.zones)));
}

// Adwaita-dark's colours: a field is darker than the window, with light text; a button is lighter.
void TestLocalAnalyzer::darkThemeFieldIsATextField()
{
    QImage image = themedImage(QColor(0x35, 0x35, 0x35));
    {
        QPainter p(&image);
        preparePainter(p);
        const QColor border(0x1b, 0x1b, 0x1b);
        const QColor ink(0xee, 0xee, 0xec);
        p.setPen(ink);
        p.drawText(QRect(40, 60, 60, 26), Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("City:"));
        themedBox(p, QRect(110, 60, 260, 26), border, QColor(0x2d, 0x2d, 0x2d), ink, QStringLiteral("Berlin"),
                  Qt::AlignLeft);
        themedBox(p, QRect(110, 120, 100, 26), border, QColor(0x48, 0x48, 0x48), ink,
                  QStringLiteral("Submit"), Qt::AlignHCenter);
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* field = findZone(result.zones, ZoneType::TextField, QStringLiteral("Berlin"));
    QVERIFY2(field, qPrintable(dump(result.zones)));
    // The border is as dark as the field's fill is (18 grey levels): the edge band is one pixel thinner
    // on that side, and the box may take the line's outer pixel for its own.
    QVERIFY2(withinPixel(field->bounds, QRect(110, 60, 260, 26)), qPrintable(dump(result.zones)));
    QVERIFY(!field->state.testFlag(ZoneStateFlag::Focused));
    const Zone* button = findZone(result.zones, ZoneType::Button, QStringLiteral("Submit"));
    QVERIFY2(button, qPrintable(dump(result.zones)));
    QVERIFY2(withinPixel(button->bounds, QRect(110, 120, 100, 26)), qPrintable(dump(result.zones)));
    for (const Zone& z : result.zones)
        QVERIFY2(z.type != ZoneType::TextField || z.bounds == field->bounds, qPrintable(dump(result.zones)));
}

// A high-contrast theme paints buttons like fields (white, black border, on white): the centred label
// makes the button, whatever its shape; the field's text starts at the left.
void TestLocalAnalyzer::whiteButtonOnWhiteIsAButton()
{
    QImage image = themedImage(Qt::white);
    {
        QPainter p(&image);
        preparePainter(p);
        themedBox(p, QRect(110, 60, 260, 26), Qt::black, Qt::white, Qt::black, QStringLiteral("Berlin"),
                  Qt::AlignLeft);
        themedBox(p, QRect(110, 120, 160, 26), Qt::black, Qt::white, Qt::black,
                  QStringLiteral("Save changes"), Qt::AlignHCenter);
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* field = findZone(result.zones, ZoneType::TextField, QStringLiteral("Berlin"));
    QVERIFY2(field, qPrintable(dump(result.zones)));
    QCOMPARE(field->bounds, QRect(110, 60, 260, 26));
    const Zone* button = findZone(result.zones, ZoneType::Button, QStringLiteral("Save changes"));
    QVERIFY2(button, qPrintable(dump(result.zones)));
    QCOMPARE(button->bounds, QRect(110, 120, 160, 26));
}

// Ink with a slider's column profile (a long low line with a few tall strokes: what a word of tall
// letters in light grey leaves above the edge threshold) inside a button is the button's content, not a
// slider; the same ink on the panel is one.
void TestLocalAnalyzer::sliderShapedInkInAButtonIsNoSlider_data()
{
    QTest::addColumn<bool>("inButton");
    QTest::newRow("in a button") << true;
    QTest::newRow("on the panel") << false;
}

void TestLocalAnalyzer::sliderShapedInkInAButtonIsNoSlider()
{
    QFETCH(bool, inButton);
    QImage image = themedImage(QColor(0xf6, 0xf5, 0xf4));
    {
        QPainter p(&image);
        preparePainter(p);
        if (inButton)
            themedBox(p, QRect(110, 60, 144, 34), QColor(0xcd, 0xc7, 0xc2), QColor(0xf6, 0xf5, 0xf4),
                      Qt::black, QString(), Qt::AlignHCenter);
        p.fillRect(QRect(140, 82, 84, 1), Qt::black);
        for (int x = 150; x < 224; x += 16)
            p.fillRect(QRect(x, 70, 1, 12), Qt::black);
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const int sliders = countOf(result.zones, ZoneType::Slider);
    QVERIFY2(sliders == (inButton ? 0 : 1), qPrintable(dump(result.zones)));
    if (inButton) {
        bool button = false;
        for (const Zone& z : result.zones)
            button = button || (z.type == ZoneType::Button && z.bounds == QRect(110, 60, 144, 34));
        QVERIFY2(button, qPrintable(dump(result.zones)));
    }
}

// A tooltip's word of x-height letters with a few tall ones ("replacement") has a slider's column profile:
// it reads as a word, so it is text; a slider beside it stays one. With the reading check off, the word's
// shape alone makes it a slider (what the check is for).
void TestLocalAnalyzer::aLeadingIconIsNoPartOfTheLabel_data()
{
    QTest::addColumn<bool>("icon");
    QTest::addColumn<QString>("word");
    QTest::addColumn<int>("pixels");
    QTest::addColumn<QColor>("background");
    const QColor white(Qt::white);
    // A file list's row: a folder icon taller than the name, then the name (read "ff cmake" with the icon).
    QTest::newRow("folder row") << true << "cmake" << 12 << white;
    QTest::newRow("folder row, selected") << true << "app" << 12 << QColor(0xcd, 0xe8, 0xff);
    QTest::newRow("folder row, dark") << true << "tests" << 12 << QColor(0x30, 0x30, 0x30);
    // A 16 px icon before text of 8 to 11 px (a capital's row, descenders, two letters). Text as tall as
    // the icon (a 14 px "Open") keeps it: not told from a large first letter.
    for (const char* w : {"app", "cmake", "Open", "Pause", "tests", "OK"}) {
        for (int px = 8; px <= 11; ++px)
            QTest::newRow(qPrintable(QStringLiteral("icon, %1 at %2 px").arg(QLatin1String(w)).arg(px)))
                << true << QString::fromLatin1(w) << px << white;
    }
    // No icon: a word's first glyph is never left out, however much taller than the rest ("Pause"), apart
    // from it ("Wolf"), or below the baseline ("Queue", "@home", "Jump"), at 9 to 30 px.
    for (const char* w :
         {"Spacers", "View", "Wolf", "Tree", "Village", "Yes",   "Apply",  "Open", "Text", "Pause", "Quit",
          "Queue",   "Jump", "gtk",  "Qt",   "QA",      "@home", "(none)", "[x]",  "%d",   "Mg"}) {
        for (int px = 9; px <= 30; ++px)
            QTest::newRow(qPrintable(QStringLiteral("%1 at %2 px").arg(QLatin1String(w)).arg(px)))
                << false << QString::fromLatin1(w) << px << white;
    }
}

// The icon a row or a button shows before its word is read as letters ("ff cmake", "X Cancel"): the text
// line's leading icon is left out of the reading, a word's capital letter never is.
void TestLocalAnalyzer::aLeadingIconIsNoPartOfTheLabel()
{
    QFETCH(bool, icon);
    QFETCH(QString, word);
    QFETCH(int, pixels);
    QFETCH(QColor, background);
    QImage image(240, 60, QImage::Format_ARGB32);
    image.fill(background);
    const int top = 20;
    int textLeft = 10;
    {
        QPainter p(&image);
        preparePainter(p);
        if (icon) {
            // A folder: a dark blue outline with its tab, a lighter gradient body, 16 x 14.
            QLinearGradient body(0, top, 0, top + 14);
            body.setColorAt(0, QColor(0x3d, 0x7d, 0xd8));
            body.setColorAt(1, QColor(0xb0, 0xcc, 0xf0));
            p.setRenderHint(QPainter::Antialiasing, true);
            p.setPen(QColor(0x10, 0x50, 0xb0));
            p.setBrush(body);
            const QPointF folder[] = {{10.5, top + 0.5}, {16.5, top + 0.5},  {18.5, top + 2.5},
                                      {25.5, top + 2.5}, {25.5, top + 13.5}, {10.5, top + 13.5}};
            p.drawPolygon(folder, 6);
            textLeft = 32;
        }
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPixelSize(pixels);
        p.setFont(font);
        p.setPen(background.lightness() < 128 ? Qt::white : Qt::black);
        p.drawText(QRect(textLeft, 0, 200, 2 * top + 14), Qt::AlignVCenter | Qt::AlignLeft, word);
    }
    // The text line as the segmenter gives it when it joins the icon to the word: all the ink.
    canvas::seg::Segmentation s;
    s.bgra = cv::Mat(image.height(), image.width(), CV_8UC4, image.bits(), size_t(image.bytesPerLine()));
    s.gray = cv::Mat(image.height(), image.width(), CV_8U);
    cv::Rect line;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            const QRgb px = image.pixel(x, y);
            s.gray.at<uchar>(y, x) = uchar(qGray(px));
            if (px != background.rgb())
                line = line.area() > 0 ? (line | cv::Rect(x, y, 1, 1)) : cv::Rect(x, y, 1, 1);
        }
    }
    const int cut = canvas::seg::leadingIconWidth(s, line);
    if (!icon) {
        QCOMPARE(cut, 0);
        return;
    }
    // Past the icon, short of the word.
    QVERIFY2(line.x + cut > 26 && line.x + cut < textLeft, qPrintable(QString::number(line.x + cut)));
}

void TestLocalAnalyzer::aWordWithASlidersProfileIsText_data()
{
    QTest::addColumn<bool>("check");
    QTest::newRow("read") << true;
    QTest::newRow("shape alone") << false;
}

void TestLocalAnalyzer::aWordWithASlidersProfileIsText()
{
    QFETCH(bool, check);
    QImage image = themedImage(QColor(0xff, 0xff, 0xdc));
    const QRect word(60, 40, 200, 20);
    {
        QPainter p(&image);
        preparePainter(p);
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPixelSize(12);
        p.setFont(font);
        p.setPen(Qt::black);
        p.drawText(word, Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("replacement"));
        slider(p, QRect(60, 150, 260, 16), 0.4);
    }
    LocalAnalyzer::Options options;
    if (!check)
        options.sliderWordConfidence = 101; // no reading is this sure
    LocalAnalyzer analyzer(options);
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    bool wordIsSlider = false;
    bool wordRead = false;
    bool slider = false;
    for (const Zone& z : result.zones) {
        if (z.type == ZoneType::Slider && z.bounds.intersects(word))
            wordIsSlider = true;
        if (z.type == ZoneType::Slider && z.bounds.intersects(QRect(60, 150, 260, 16)))
            slider = true;
        wordRead = wordRead || z.label == QLatin1String("replacement");
    }
    QVERIFY2(slider, qPrintable(dump(result.zones)));
    QVERIFY2(wordIsSlider == !check, qPrintable(dump(result.zones)));
    QVERIFY2(wordRead == check, qPrintable(dump(result.zones)));
}

// Three fields and a button with grey borders; the middle field's outline is drawn in `ring` (2 px).
// A ring of a colour, any hue, is focus; a grey one, or the box's own fill colour, is not.
void TestLocalAnalyzer::focusRingOfAnyColour_data()
{
    QTest::addColumn<QColor>("ring");
    QTest::addColumn<QColor>("fill");
    QTest::addColumn<bool>("focused");
    const QColor white(Qt::white);
    QTest::newRow("orange") << QColor(0xf5, 0x79, 0x00) << white << true;
    QTest::newRow("blue") << QColor(0x35, 0x84, 0xe4) << white << true;
    QTest::newRow("green") << QColor(0x4e, 0x9a, 0x06) << white << true;
    QTest::newRow("dark grey") << QColor(0x40, 0x40, 0x40) << white << false;
    QTest::newRow("the usual grey") << QColor(0x9a, 0x9a, 0x9a) << white << false;
    QTest::newRow("blue on blue (a selected row)")
        << QColor(0x35, 0x84, 0xe4) << QColor(0x35, 0x84, 0xe4) << false;
}

void TestLocalAnalyzer::focusRingOfAnyColour()
{
    QFETCH(QColor, ring);
    QFETCH(QColor, fill);
    QFETCH(bool, focused);
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QColor grey(0x9a, 0x9a, 0x9a);
    const QStringList names{QStringLiteral("London"), QStringLiteral("Berlin"), QStringLiteral("Vienna")};
    const QColor ink = fill == Qt::white ? QColor(Qt::black) : QColor(Qt::white);
    {
        QPainter p(&image);
        preparePainter(p);
        for (int i = 0; i < names.size(); ++i) {
            const bool middle = i == 1;
            themedBox(p, QRect(110, 30 + 50 * i, 260, 26), middle ? ring : grey, middle ? fill : Qt::white,
                      middle ? ink : Qt::black, names.at(i), Qt::AlignLeft, middle ? 2 : 1);
        }
        themedBox(p, QRect(110, 200, 100, 26), grey, QColor(0xe6, 0xe6, 0xe6), Qt::black,
                  QStringLiteral("Submit"), Qt::AlignHCenter);
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    int found = 0;
    for (const Zone& z : result.zones) {
        if (!z.isInteractive())
            continue;
        ++found;
        const bool expected = focused && z.bounds == QRect(110, 80, 260, 26);
        QVERIFY2(z.state.testFlag(ZoneStateFlag::Focused) == expected,
                 qPrintable(QStringLiteral("%1 %2,%3\n%4")
                                .arg(z.label)
                                .arg(z.bounds.x())
                                .arg(z.bounds.y())
                                .arg(dump(result.zones))));
    }
    QVERIFY2(found >= 4, qPrintable(dump(result.zones)));
    QVERIFY2(findZone(result.zones, ZoneType::TextField, QStringLiteral("London")),
             qPrintable(dump(result.zones)));
}

// An Adwaita-like flat button: a border only 20 grey levels darker than the panel around a subtle
// gradient, its label centred.
void TestLocalAnalyzer::flatLowContrastButtonIsAButton()
{
    const QColor panel(0xf6, 0xf5, 0xf4);
    QImage image = themedImage(panel);
    const QRect r(110, 100, 140, 34);
    {
        QPainter p(&image);
        preparePainter(p);
        QLinearGradient g(r.topLeft(), r.bottomLeft());
        g.setColorAt(0, QColor(0xf6, 0xf5, 0xf4));
        g.setColorAt(1, QColor(0xed, 0xeb, 0xe9));
        p.setPen(QColor(0xe2, 0xe1, 0xe0));
        p.setBrush(g);
        p.drawRect(r.adjusted(0, 0, -1, -1));
        p.setPen(QColor(0x2e, 0x34, 0x36));
        p.drawText(r, Qt::AlignCenter, QStringLiteral("Apply"));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* button = findZone(result.zones, ZoneType::Button, QStringLiteral("Apply"));
    QVERIFY2(button, qPrintable(dump(result.zones)));
    // Where the gradient's lower half meets the border the inner edge band is missing: the box may take
    // the border's own pixels as its hole's edge, one pixel out.
    QVERIFY2(withinPixel(button->bounds, r), qPrintable(dump(result.zones)));
}

// Flat tabs (no outline of their own) in a strip that spans one side of the page and shares its border:
// one tab per label, whichever side the strip is on. The same strip away from any page holds no tabs.
void TestLocalAnalyzer::tabStripAlongAPageHoldsTabs_data()
{
    QTest::addColumn<QRect>("strip");
    QTest::addColumn<QRect>("page");
    QTest::addColumn<bool>("vertical");
    QTest::addColumn<int>("tabs");
    QTest::newRow("above") << QRect(20, 30, 300, 32) << QRect(20, 61, 300, 150) << false << 3;
    QTest::newRow("below") << QRect(20, 180, 300, 32) << QRect(20, 30, 300, 151) << false << 3;
    QTest::newRow("left") << QRect(20, 30, 80, 180) << QRect(99, 30, 300, 180) << true << 3;
    QTest::newRow("no page") << QRect(20, 30, 300, 32) << QRect() << false << 0;
}

void TestLocalAnalyzer::tabStripAlongAPageHoldsTabs()
{
    QFETCH(QRect, strip);
    QFETCH(QRect, page);
    QFETCH(bool, vertical);
    QFETCH(int, tabs);
    QImage image = themedImage(QColor(0xf6, 0xf5, 0xf4));
    const QStringList names{QStringLiteral("Alpha"), QStringLiteral("Beta"), QStringLiteral("Gamma")};
    QList<QRect> labels;
    {
        QPainter p(&image);
        preparePainter(p);
        const QColor border(0xcd, 0xc7, 0xc2);
        if (!page.isNull()) {
            p.setPen(border);
            p.setBrush(Qt::white);
            p.drawRect(page.adjusted(0, 0, -1, -1));
        }
        p.setPen(border);
        p.setBrush(QColor(0xe1, 0xde, 0xdb));
        p.drawRect(strip.adjusted(0, 0, -1, -1));
        p.setPen(QColor(0x2e, 0x34, 0x36));
        for (int i = 0; i < names.size(); ++i) {
            const QRect label = vertical
                                    ? QRect(strip.x() + 12, strip.y() + 12 + 44 * i, 56, 30)
                                    : QRect(strip.x() + 16 + 80 * i, strip.y() + 1, 60, strip.height() - 2);
            p.drawText(label, Qt::AlignCenter, names.at(i));
            labels << label;
        }
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const int found = countOf(result.zones, ZoneType::Tab);
    QVERIFY2(found == tabs, qPrintable(dump(result.zones)));
    for (int i = 0; i < tabs; ++i) {
        const Zone* tab = findZone(result.zones, ZoneType::Tab, names.at(i));
        QVERIFY2(tab, qPrintable(dump(result.zones)));
        QVERIFY2(strip.contains(tab->bounds) && labels.at(i).contains(tab->bounds.center()),
                 qPrintable(dump(result.zones)));
    }
}

// Flat tool bar buttons show only an icon; the button spans its share of the row (the pitch, less a
// pixel), centred on the icon.
void TestLocalAnalyzer::tabsBelowTheirPagesAreTabs_data()
{
    QTest::addColumn<int>("current");
    QTest::addColumn<bool>("tabs");
    // A dock's tabs under its pages (two panes side by side, their bottom lines broken between them): the
    // current tab is open to the page above, the others closed cells; its line runs on beside the current
    // tab only.
    QTest::newRow("the last tab current") << 2 << true;
    QTest::newRow("the middle tab current") << 1 << true;
    // The same cells and lines without the closed tabs beside: a label under a frame's line.
    QTest::newRow("an open cell alone") << -1 << false;
}

void TestLocalAnalyzer::tabsBelowTheirPagesAreTabs()
{
    QFETCH(int, current);
    QFETCH(bool, tabs);
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QStringList names{QStringLiteral("Signals"), QStringLiteral("Actions"),
                            QStringLiteral("Resources")};
    const int top = 180; // the tabs' top: the panes' bottom line is 2 px above
    QList<QRect> cells;
    {
        QPainter p(&image);
        preparePainter(p);
        const QColor border(0x9a, 0x9a, 0x9a);
        p.setPen(border);
        p.setBrush(Qt::white);
        p.drawRect(QRect(10, 40, 210, top - 41));
        p.drawRect(QRect(224, 40, 246, top - 41));
        int x = 12;
        for (int i = 0; i < names.size(); ++i) {
            const QRect cell(x, top, p.fontMetrics().horizontalAdvance(names.at(i)) + 24, 24);
            cells << cell;
            x += cell.width() - 1; // neighbours share a side
            if (current < 0 && i != 1)
                continue; // only the middle cell, drawn open
            if (i == current || current < 0) {
                // Open to the page: its sides and bottom, the page's colour inside.
                p.setPen(border);
                p.setBrush(Qt::white);
                p.fillRect(cell.adjusted(1, -2, -1, -1), Qt::white);
                p.drawLine(cell.topLeft() + QPoint(0, -2), cell.bottomLeft());
                p.drawLine(cell.topRight() + QPoint(0, -2), cell.bottomRight());
                p.drawLine(cell.bottomLeft(), cell.bottomRight());
            } else {
                p.setPen(border);
                p.setBrush(QColor(0xdc, 0xdc, 0xdc));
                p.drawRect(cell.adjusted(0, 0, -1, -1));
            }
            p.setPen(Qt::black);
            p.drawText(cell, Qt::AlignCenter, names.at(i));
        }
        // The tab bar's line right of the tabs, level with their top; with the open cell alone, the line
        // runs on both sides of it.
        p.setPen(border);
        p.drawLine(current < 0 ? cells.at(1).right() : x, top, image.width() - 1, top);
        if (current < 0)
            p.drawLine(0, top, cells.at(1).left(), top);
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const int found = countOf(result.zones, ZoneType::Tab);
    QVERIFY2(found == (tabs ? names.size() : 0), qPrintable(dump(result.zones)));
    for (int i = 0; tabs && i < names.size(); ++i) {
        const Zone* tab = findZone(result.zones, ZoneType::Tab, names.at(i));
        QVERIFY2(tab, qPrintable(dump(result.zones)));
        QVERIFY2(intersectionOverUnion(tab->bounds, cells.at(i)) >= 0.7, qPrintable(dump(result.zones)));
        QCOMPARE(tab->state.testFlag(ZoneStateFlag::Focused), i == current);
    }
}

// Tabs as the Windows style draws them on a light panel: each a white line on top (the current one 2 px
// higher, open to its page) and a mid and a dark line at its right; the page's white line under the others.
// The white lines are too faint for the edge threshold; a tab is closed by them and its neighbours' dark
// sides. Under the last tab, a dock title's close button (an "x" right of its title) hangs under the tab's
// bottom line: no tab.
void TestLocalAnalyzer::bevelledTabsAreTabs_data()
{
    QTest::addColumn<int>("current");
    QTest::newRow("the first current") << 0;
    QTest::newRow("the middle current") << 1;
}

void TestLocalAnalyzer::bevelledTabsAreTabs()
{
    QFETCH(int, current);
    const QColor panel(0xef, 0xef, 0xef);
    QImage image = themedImage(panel);
    const QStringList names{QStringLiteral("Contents"), QStringLiteral("Index"), QStringLiteral("Search")};
    const int top = 40;    // the others' top; the current one's is 2 px higher
    const int bottom = 60; // the page's line
    QList<QRect> cells;
    {
        QPainter p(&image);
        preparePainter(p);
        const QColor light(0xff, 0xff, 0xff);
        const QColor mid(0x9f, 0x9f, 0x9f);
        const QColor dark(0x76, 0x76, 0x76);
        int x = 20;
        for (const QString& name : names)
            cells << QRect(x, top, p.fontMetrics().horizontalAdvance(name) + 24, bottom - top),
                x += cells.last().width();
        p.setPen(light);
        p.drawLine(0, bottom, image.width() - 1, bottom);
        for (int i = 0; i < names.size(); ++i) {
            const QRect cell = i == current ? cells.at(i).adjusted(0, -2, 0, 0) : cells.at(i);
            p.fillRect(cell, panel);
            p.setPen(light);
            p.drawLine(cell.left() + 1, cell.top(), cell.right() - 2, cell.top());
            if (i == 0 || i == current)
                p.drawLine(cell.left(), cell.top() + 1, cell.left(), cell.bottom() - (i == current ? 0 : 1));
            p.setPen(mid);
            p.drawLine(cell.right() - 1, cell.top() + 1, cell.right() - 1, cell.bottom() - 1);
            p.setPen(dark);
            p.drawLine(cell.right(), cell.top() + 2, cell.right(), cell.bottom() - 1);
            p.setPen(Qt::black);
            p.drawText(cell.adjusted(0, 2, 0, 0), Qt::AlignCenter, names.at(i));
        }
        // The dock's title under the tabs, its close button at the right, under the last tab.
        p.drawText(QRect(22, bottom + 4, 120, 16), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("Contents"));
        const QPoint close(cells.last().right() - 12, bottom + 8);
        p.drawText(QRect(close - QPoint(0, 4), QSize(10, 16)), Qt::AlignCenter, QStringLiteral("x"));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(close - QPoint(14, 0), QSize(7, 7))); // the float button
        p.setPen(QColor(0xa0, 0xa0, 0xa0));
        p.drawLine(20, bottom + 24, close.x() - 4, bottom + 24); // under the title and the float button
        p.setBrush(Qt::white);
        p.drawRect(QRect(20, bottom + 44, cells.last().right() - 20, 100));
        // The window's other pane, right of the dock.
        p.drawRect(QRect(cells.last().right() + 6, top - 4, 120, 180));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    QVERIFY2(countOf(result.zones, ZoneType::Tab) == names.size(), qPrintable(dump(result.zones)));
    for (int i = 0; i < names.size(); ++i) {
        const Zone* tab = findZone(result.zones, ZoneType::Tab, names.at(i));
        QVERIFY2(tab && intersectionOverUnion(tab->bounds, cells.at(i)) >= 0.7,
                 qPrintable(dump(result.zones)));
    }
}

void TestLocalAnalyzer::menuBarTitlesRunTogetherAreCutApart_data()
{
    QTest::addColumn<bool>("editApart");
    // A menu bar whose titles' descenders and mnemonic underlines touch its bottom line is segmented as one
    // line across the bar: its words, grouped by the gaps between titles, are the titles.
    QTest::newRow("all in one line") << false;
    // Titles the segmenter read on their own are not made twice.
    QTest::newRow("one title also read apart") << true;
    // A heading at a dialog's top run into a line under it: its words sit a space apart, one group, no
    // menu bar.
    QTest::newRow("a heading") << false;
}

void TestLocalAnalyzer::menuBarTitlesRunTogetherAreCutApart()
{
    QFETCH(bool, editApart);
    const bool heading = QByteArray(QTest::currentDataTag()) == "a heading";
    const SegmentedPanel panel = segmentedPanel(QColor(0xef, 0xef, 0xef));
    const canvas::seg::Segmentation& s = panel.seg;
    canvas::detail::TextItem bar;
    bar.rect = cv::Rect(6, 8, 460, 14);
    bar.text = QStringLiteral("File Edit Go To Help");
    bar.confidence = 95;
    // Words 3 to 5 px apart within a title, 14 px or more between titles (12 px tall).
    bar.words = {{cv::Rect(6, 8, 20, 12), QStringLiteral("File")},
                 {cv::Rect(40, 8, 24, 12), QStringLiteral("Edit")},
                 {cv::Rect(80, 8, 16, 12), QStringLiteral("Go")},
                 {cv::Rect(100, 8, 14, 12), QStringLiteral("To")},
                 {cv::Rect(140, 8, 26, 12), QStringLiteral("Help")}};
    if (heading) {
        bar.text = QStringLiteral("Fill in the form");
        bar.words.clear();
        int x = 6;
        for (const QString& w : bar.text.split(QLatin1Char(' '))) {
            bar.words.push_back({cv::Rect(x, 8, 7 * int(w.size()), 12), w});
            x += 7 * int(w.size()) + 4;
        }
    }
    canvas::detail::AssemblyInput in;
    in.seg = &s;
    in.texts.push_back(bar);
    if (editApart) {
        canvas::detail::TextItem edit;
        edit.rect = cv::Rect(40, 8, 24, 12);
        edit.text = QStringLiteral("Edit");
        edit.confidence = 96;
        in.texts.push_back(edit);
    }
    in.windows.push_back(cv::Rect(0, 4, panel.image.width(), panel.image.height() - 4));
    const QList<Zone> zones = canvas::detail::assemble(in);
    QStringList titles;
    for (const Zone& z : zones) {
        if (z.type == ZoneType::MenuItem)
            titles << z.label;
    }
    titles.sort();
    if (heading) {
        QCOMPARE(titles, QStringList());
        return;
    }
    QCOMPARE(titles, (QStringList{QStringLiteral("Edit"), QStringLiteral("File"), QStringLiteral("Go To"),
                                  QStringLiteral("Help")}));
    const Zone* help = findZone(zones, ZoneType::MenuItem, QStringLiteral("Help"));
    QVERIFY(help);
    QCOMPARE(help->bounds, QRect(135, 4, 36, 22));
}

void TestLocalAnalyzer::toolBarIconsSpanTheirCells()
{
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    QList<QRect> icons;
    {
        QPainter p(&image);
        preparePainter(p);
        for (int i = 0; i < 4; ++i) {
            const QRect icon(40 + 34 * i, 40, 18, 18);
            p.setPen(QColor(0x40, 0x40, 0x40));
            p.setBrush(Qt::white);
            p.drawRect(icon.adjusted(0, 0, -1, -1));
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(0x30, 0x60, 0xa0));
            p.drawRect(icon.adjusted(6, 6, -6, -6));
            icons << icon;
        }
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    for (const QRect& icon : std::as_const(icons)) {
        const Zone* cell = zoneAt(result.zones, ZoneType::Button, icon.center());
        QVERIFY2(cell, qPrintable(dump(result.zones)));
        QCOMPARE(cell->bounds.size(), QSize(33, 33));
        QVERIFY2(cell->bounds.contains(icon) &&
                     (cell->bounds.center() - icon.center()).manhattanLength() <= 2,
                 qPrintable(dump(result.zones)));
    }
}

// A tool bar of flat buttons: icons with no border of their own, in a row. Each icon is a button of its own,
// centred on it and reaching at most halfway to its neighbours; a word beside them stays text, and a lone
// icon is no tool bar.
void TestLocalAnalyzer::flatIconRowIsButtons()
{
    QImage image = themedImage(QColor(0xf0, 0xf0, 0xf0));
    QList<QRect> icons;
    const QRect lone(400, 160, 20, 20);
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x30, 0x50, 0x80));
        for (int i = 0; i < 4; ++i) {
            const QRect icon(40 + 30 * i, 40, 20, 20);
            // Layout icons as a form designer's tool bar draws them: outlined cells a pixel apart.
            p.setPen(QColor(0x20, 0x40, 0x90));
            p.setBrush(QColor(0x90, 0xb0, 0xe0));
            for (int c = 0; c < 4; ++c) {
                switch (i) {
                case 0: // columns
                    p.drawRect(icon.x() + 6 * c, icon.y(), 4, 19);
                    break;
                case 1: // rows
                    p.drawRect(icon.x(), icon.y() + 5 * c, 19, 3);
                    break;
                case 2: // a grid
                    p.drawRect(icon.x() + 10 * (c % 2), icon.y() + 10 * (c / 2), 8, 8);
                    break;
                default: // rows of text, ragged
                    p.drawRect(icon.x(), icon.y() + 5 * c, 19 - 4 * (c % 2), 3);
                    break;
                }
            }
            icons << icon;
        }
        for (int c = 0; c < 4; ++c) // the columns icon alone
            p.drawRect(lone.x() + 6 * c, lone.y(), 4, 19);
        p.setPen(Qt::black);
        p.drawText(QPoint(40, 140), QStringLiteral("Document name"));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    QList<QRect> buttons;
    for (const QRect& icon : std::as_const(icons)) {
        const Zone* button = zoneAt(result.zones, ZoneType::Button, icon.center());
        QVERIFY2(button, qPrintable(dump(result.zones)));
        QVERIFY2(button->bounds.contains(icon) &&
                     (button->bounds.center() - icon.center()).manhattanLength() <= 4,
                 qPrintable(dump(result.zones)));
        buttons << button->bounds;
    }
    for (int i = 1; i < buttons.size(); ++i)
        QVERIFY2(!buttons[i - 1].intersects(buttons[i]), qPrintable(dump(result.zones)));
    for (const Zone& z : result.zones) {
        QVERIFY2(!(z.isInteractive() && z.bounds.contains(lone.center())), qPrintable(dump(result.zones)));
        QVERIFY2(!(z.isInteractive() && z.bounds.contains(QPoint(60, 135))), qPrintable(dump(result.zones)));
    }
}

// A tool bar whose icons are found in three ways: as boxes (an outlined page), as ink that reads as no
// text (a grid), and as ink that reads as a letter far taller than the words around (an icon shaped like
// a "T"). They are one row: each icon a button spanning its share of the row, side by side at the pitch.
void TestLocalAnalyzer::toolBarOfMixedIconsIsOneRowOfCells()
{
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    constexpr int kPitch = 34;
    QList<QRect> icons;
    {
        QPainter p(&image);
        preparePainter(p);
        for (int i = 0; i < 5; ++i) {
            const QRect icon(40 + kPitch * i, 40, 20, 20);
            icons << icon;
            if (i == 0 || i == 3) { // an outlined page
                p.setPen(QColor(0x40, 0x40, 0x40));
                p.setBrush(Qt::white);
                p.drawRect(icon.adjusted(0, 0, -1, -1));
                continue;
            }
            p.setPen(QColor(0x20, 0x40, 0x90));
            p.setBrush(QColor(0x90, 0xb0, 0xe0));
            if (i == 1) { // an icon shaped like a letter
                QFont big = p.font();
                big.setPixelSize(26);
                big.setBold(true);
                p.setFont(big);
                p.setPen(QColor(0x30, 0x30, 0x30));
                p.drawText(icon.adjusted(-4, -6, 4, 6), Qt::AlignCenter, QStringLiteral("T"));
                p.setFont(uiFont());
                continue;
            }
            for (int c = 0; c < 4; ++c) // a grid
                p.drawRect(icon.x() + 10 * (c % 2), icon.y() + 10 * (c / 2), 8, 8);
        }
        p.setPen(Qt::black);
        p.drawText(QPoint(40, 140), QStringLiteral("The document's name and its path"));
        p.drawText(QPoint(40, 170), QStringLiteral("Saved a minute ago to the disk"));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    QList<QRect> cells;
    for (const QRect& icon : std::as_const(icons)) {
        const Zone* cell = zoneAt(result.zones, ZoneType::Button, icon.center());
        QVERIFY2(cell, qPrintable(dump(result.zones)));
        QVERIFY2(cell->bounds.contains(icon.adjusted(2, 2, -2, -2)) && cell->bounds.width() >= kPitch - 2 &&
                     cell->bounds.width() <= kPitch,
                 qPrintable(dump(result.zones)));
        cells << cell->bounds;
    }
    // Side by side: each cell starts where the last one ends, give or take a pixel of the ink's centres.
    for (int i = 1; i < cells.size(); ++i) {
        QVERIFY2(cells[i].left() > cells[i - 1].right() && cells[i].left() <= cells[i - 1].right() + 2,
                 qPrintable(dump(result.zones)));
    }
}

// The Windows, Motif and Tk styles draw widgets with bevels whose lit side is only a few grey levels off a
// light panel: a raised push button, a sunken entry, and a sunken list whose header is a row of raised
// sections. The list's columns fall as evenly as a terminal's (a monospaced font): its header tells it is a
// table, each cell an item.
void TestLocalAnalyzer::bevelledWidgetsAreFound()
{
    const QColor panel(0xf0, 0xf0, 0xf0);
    QImage image = themedImage(panel);
    const QRect button(30, 20, 90, 26);
    const QRect entry(140, 20, 200, 24);
    const QRect view(30, 70, 420, 150);
    const std::array<int, 3> columnX{36, 196, 306};
    const QStringList names{QStringLiteral("app"),   QStringLiteral("bench"), QStringLiteral("build"),
                            QStringLiteral("cmake"), QStringLiteral("docs"),  QStringLiteral("tests")};
    {
        QPainter p(&image);
        preparePainter(p);
        bevelledBox(p, button, true, panel);
        p.setPen(Qt::black);
        p.drawText(button, Qt::AlignCenter, QStringLiteral("Open"));
        bevelledBox(p, entry, false, Qt::white);
        p.setPen(Qt::black);
        p.drawText(entry.adjusted(6, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("report.txt"));
        bevelledBox(p, view, false, Qt::white);
        const QStringList titles{QStringLiteral("Name"), QStringLiteral("Type"), QStringLiteral("Modified")};
        for (int c = 0; c < 3; ++c) {
            const int right = c < 2 ? columnX[size_t(c + 1)] - 6 : view.right() - 2;
            const QRect section(columnX[size_t(c)] - 4, view.y() + 2, right - columnX[size_t(c)] + 4, 22);
            bevelledBox(p, section, true, panel);
            p.setPen(Qt::black);
            p.drawText(section.adjusted(4, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft, titles.at(c));
        }
        QFont mono(QStringLiteral("DejaVu Sans Mono"));
        mono.setPixelSize(12);
        p.setFont(mono);
        for (int r = 0; r < names.size(); ++r) {
            const int y = view.y() + 28 + 20 * r;
            p.drawText(QRect(columnX[0], y, 150, 20), Qt::AlignVCenter | Qt::AlignLeft, names.at(r));
            p.drawText(QRect(columnX[1], y, 100, 20), Qt::AlignVCenter | Qt::AlignLeft,
                       QStringLiteral("Folder"));
            p.drawText(QRect(columnX[2], y, 140, 20), Qt::AlignVCenter | Qt::AlignLeft,
                       QStringLiteral("28 Nov 12:%1").arg(10 + 7 * r));
        }
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* open = findZone(result.zones, ZoneType::Button, QStringLiteral("Open"));
    QVERIFY2(open && open->bounds == button, qPrintable(dump(result.zones)));
    // A sunken box's lit bottom and right sides are white on the light panel: it is found by its inner ones.
    const Zone* field = zoneAt(result.zones, ZoneType::TextField, entry.center());
    QVERIFY2(field && withinPixel(field->bounds, entry), qPrintable(dump(result.zones)));
    // The list's body below its header, from side to side.
    const Zone* area = zoneAt(result.zones, ZoneType::ScrollArea, view.center());
    QVERIFY2(area && withinPixel(area->bounds, QRect(QPoint(view.x(), view.y() + 24), view.bottomRight())),
             qPrintable(dump(result.zones)));
    for (int r = 0; r < names.size(); ++r) {
        const QPoint at(columnX[0] + 8, view.y() + 28 + 20 * r + 10);
        const Zone* cell = zoneAt(result.zones, ZoneType::Button, at);
        QVERIFY2(cell && cell->label == names.at(r), qPrintable(dump(result.zones)));
        QVERIFY2(cell->bounds.right() < columnX[1], qPrintable(dump(result.zones)));
    }
}

// A dock's title: its name at the left, its float and close buttons at the right, two small outlined icons
// a few pixels apart that read as one run of ink and no text. Each icon is a button of its own.
void TestLocalAnalyzer::dockTitleButtonsAreButtons()
{
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QRect floatIcon(228, 81, 11, 11);
    const QRect closeIcon(242, 81, 11, 11);
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(Qt::black);
        p.drawText(QPoint(8, 91), QStringLiteral("Widget Box"));
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(QPen(QColor(0x70, 0x70, 0x70), 1.2));
        p.setBrush(Qt::NoBrush);
        for (const QRect& icon : {floatIcon, closeIcon})
            p.drawRoundedRect(QRectF(icon).adjusted(0.5, 0.5, -0.5, -0.5), 2, 2);
        p.setPen(QPen(QColor(0x60, 0x60, 0x60), 1.5));
        p.drawRect(QRectF(floatIcon.x() + 3, floatIcon.y() + 5, 4, 3)); // two windows
        p.drawRect(QRectF(floatIcon.x() + 5, floatIcon.y() + 3, 3, 3));
        p.drawLine(closeIcon.topLeft() + QPoint(3, 3), closeIcon.bottomRight() - QPoint(3, 3)); // a cross
        p.drawLine(closeIcon.topRight() + QPoint(-3, 3), closeIcon.bottomLeft() + QPoint(3, -3));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* floatButton = zoneAt(result.zones, ZoneType::Button, floatIcon.center());
    const Zone* closeButton = zoneAt(result.zones, ZoneType::Button, closeIcon.center());
    QVERIFY2(floatButton && closeButton && floatButton != closeButton, qPrintable(dump(result.zones)));
    // Each its icon and a pixel around it.
    QVERIFY2(withinPixel(floatButton->bounds, floatIcon.adjusted(-1, -1, 1, 1)),
             qPrintable(dump(result.zones)));
    QVERIFY2(withinPixel(closeButton->bounds, closeIcon.adjusted(-1, -1, 1, 1)),
             qPrintable(dump(result.zones)));
    QVERIFY2(findZone(result.zones, ZoneType::Static, QStringLiteral("Widget Box")),
             qPrintable(dump(result.zones)));
}

// A flat dock title (Qt's Windows style): its float and close buttons are bare glyphs of 8 or 9 px, a float
// square and a cross (read as "x"), apart by more than a word's gap. Alone at the title's end they are two
// buttons, side by side at their pitch; the same glyphs right after words are text.
void TestLocalAnalyzer::smallGlyphsAloneAreButtons()
{
    QImage image = themedImage(QColor(0xf0, 0xf0, 0xf0));
    const auto glyphs = [](QPainter& p, QPoint at) {
        p.setPen(QColor(0x35, 0x35, 0x35));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(at + QPoint(2, 0), QSize(5, 4))); // two windows
        p.drawRect(QRect(at + QPoint(0, 3), QSize(5, 5)));
        const QPoint cross = at + QPoint(20, 0);
        p.drawLine(cross, cross + QPoint(7, 7));
        p.drawLine(cross + QPoint(7, 0), cross + QPoint(0, 7));
        p.drawLine(cross + QPoint(1, 0), cross + QPoint(7, 6));
        p.drawLine(cross + QPoint(6, 0), cross + QPoint(0, 6));
    };
    const QPoint dock(221, 76);
    const QPoint inText(150, 156);
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(Qt::black);
        p.drawText(QPoint(8, 85), QStringLiteral("Widget Box"));
        glyphs(p, dock);
        p.setPen(Qt::black);
        p.drawText(QPoint(8, 165), QStringLiteral("Keep the window size"));
        glyphs(p, inText);
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* floatButton = zoneAt(result.zones, ZoneType::Button, dock + QPoint(4, 4));
    const Zone* closeButton = zoneAt(result.zones, ZoneType::Button, dock + QPoint(24, 4));
    QVERIFY2(floatButton && closeButton && floatButton != closeButton, qPrintable(dump(result.zones)));
    QVERIFY2(floatButton->bounds.right() < closeButton->bounds.left() &&
                 closeButton->bounds.left() - floatButton->bounds.right() <= 2 &&
                 floatButton->bounds.width() >= 18 && closeButton->bounds.width() >= 18,
             qPrintable(dump(result.zones)));
    for (const QPoint at : {inText + QPoint(4, 4), inText + QPoint(24, 4)})
        QVERIFY2(!zoneAt(result.zones, ZoneType::Button, at), qPrintable(dump(result.zones)));
}

// An entry holding its own icons (a clear button at the right end, a mode icon at the left) is one text
// field, and each icon a button of its own.
void TestLocalAnalyzer::fieldWithIconsAtItsEndsIsATextField()
{
    QImage image = themedImage(QColor(0xf0, 0xf0, 0xf0));
    const QRect entry(40, 40, 300, 30);
    const QRect clear(entry.right() - 25, 45, 20, 20);
    const QRect mode(entry.x() + 5, 45, 20, 20);
    {
        QPainter p(&image);
        preparePainter(p);
        const QColor border(0x90, 0x90, 0x90);
        themedBox(p, entry, border, Qt::white, Qt::black, QString(), Qt::AlignLeft);
        p.setPen(Qt::black);
        p.drawText(QRect(entry.x() + 32, entry.y(), 200, entry.height()), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("Berlin"));
        for (const QRect& icon : {clear, mode}) {
            p.setPen(QColor(0x50, 0x50, 0x50));
            p.setBrush(QColor(0xe0, 0xe0, 0xe0));
            p.drawRect(icon.adjusted(0, 0, -1, -1));
        }
        p.drawLine(clear.topLeft() + QPoint(5, 5), clear.bottomRight() - QPoint(5, 5));
        p.drawLine(clear.topRight() + QPoint(-5, 5), clear.bottomLeft() + QPoint(5, -5));
        p.drawEllipse(mode.adjusted(5, 5, -6, -6));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* field = findZone(result.zones, ZoneType::TextField, QStringLiteral("Berlin"));
    QVERIFY2(field, qPrintable(dump(result.zones)));
    QVERIFY2(withinPixel(field->bounds, entry), qPrintable(dump(result.zones)));
    for (const QRect& icon : {clear, mode}) {
        const Zone* button = zoneAt(result.zones, ZoneType::Button, icon.center());
        QVERIFY2(button && button->bounds.width() < entry.height(), qPrintable(dump(result.zones)));
    }
}

void TestLocalAnalyzer::tableCellsAreItemsByColumn()
{
    // A file table: a header band with its column titles and a sort indicator, six rows in three columns.
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QRect view(20, 20, 420, 180);
    const std::array<int, 3> columnX{26, 196, 276};
    const QStringList names{QStringLiteral("Quarterly report"), QStringLiteral("notes"),
                            QStringLiteral("Budget for 2027"),  QStringLiteral("letters"),
                            QStringLiteral("Holiday photos"),   QStringLiteral("music")};
    const QStringList sizes{QStringLiteral("12 kB"), QStringLiteral("31 kB"), QStringLiteral("40 kB"),
                            QStringLiteral("72 kB"), QStringLiteral("96 kB"), QStringLiteral("58 kB")};
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(QColor(0x9a, 0x9a, 0x9a));
        p.setBrush(Qt::white);
        p.drawRect(view.adjusted(0, 0, -1, -1));
        p.setBrush(QColor(0xdc, 0xdc, 0xdc));
        p.drawRect(QRect(view.x(), view.y(), view.width(), 22).adjusted(0, 0, -1, -1));
        p.drawRect(QRect(170, 26, 10, 10)); // the sort indicator's box
        p.setPen(Qt::black);
        const QStringList titles{QStringLiteral("Name"), QStringLiteral("Size"), QStringLiteral("Modified")};
        for (int c = 0; c < 3; ++c)
            p.drawText(QRect(columnX[size_t(c)], view.y(), 120, 22), Qt::AlignVCenter | Qt::AlignLeft,
                       titles.at(c));
        for (int r = 0; r < 6; ++r) {
            const int y = view.y() + 24 + 20 * r;
            p.drawText(QRect(columnX[0], y, 120, 20), Qt::AlignVCenter | Qt::AlignLeft, names.at(r));
            p.drawText(QRect(columnX[1], y, 60, 20), Qt::AlignVCenter | Qt::AlignLeft, sizes.at(r));
            p.drawText(QRect(columnX[2], y, 120, 20), Qt::AlignVCenter | Qt::AlignLeft,
                       QStringLiteral("2026-11-%1").arg(10 + r));
        }
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* area = zoneAt(result.zones, ZoneType::ScrollArea, view.center());
    QVERIFY2(area && area->bounds == view, qPrintable(dump(result.zones)));
    int cells = 0;
    for (const Zone& z : result.zones)
        cells += view.contains(z.bounds.center()) && z.type == ZoneType::Button && !z.label.isEmpty() ? 1 : 0;
    QCOMPARE(cells, 18); // the header's titles are no cells (its sort indicator is a button of its own)
    for (int r = 0; r < 6; ++r) {
        const int centreY = view.y() + 24 + 20 * r + 10;
        std::array<const Zone*, 3> row{};
        for (int c = 0; c < 3; ++c) {
            row[size_t(c)] = zoneAt(result.zones, ZoneType::Button, QPoint(columnX[size_t(c)] + 8, centreY));
            QVERIFY2(row[size_t(c)], qPrintable(dump(result.zones)));
            QVERIFY2(std::abs(row[size_t(c)]->bounds.center().y() - centreY) <= 2,
                     qPrintable(dump(result.zones)));
        }
        QCOMPARE(row[0]->label, names.at(r));
        QCOMPARE(row[1]->label, sizes.at(r));
        // The first column starts at the view's left; each column ends where the next one's starts, a few
        // pixels left of its text; the last ends at the view's right.
        QCOMPARE(row[0]->bounds.left(), view.left() + 1);
        for (int c = 1; c < 3; ++c) {
            QCOMPARE(row[size_t(c - 1)]->bounds.right() + 1, row[size_t(c)]->bounds.left());
            QVERIFY2(row[size_t(c)]->bounds.left() >= columnX[size_t(c)] - 6 &&
                         row[size_t(c)]->bounds.left() <= columnX[size_t(c)] - 2,
                     qPrintable(dump(result.zones)));
        }
        QCOMPARE(row[2]->bounds.right(), view.right() - 1);
    }
}

void TestLocalAnalyzer::menuInTheBaseColourIsAMenu()
{
    // A popup menu as white as a list, no hint that it is one: its key combinations tell it.
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QRect menu(60, 30, 220, 130);
    const QStringList labels{QStringLiteral("New Window"), QStringLiteral("Open"), QStringLiteral("Save"),
                             QStringLiteral("Export as PDF"), QStringLiteral("Quit")};
    const QStringList keys{QStringLiteral("Ctrl+N"), QStringLiteral("Ctrl+O"), QStringLiteral("Ctrl+S"),
                           QString(), QStringLiteral("Ctrl+Q")};
    {
        QPainter p(&image);
        preparePainter(p);
        QList<int> rowTops;
        for (int i = 0; i < labels.size(); ++i)
            rowTops << menu.y() + 4 + 24 * i;
        popupMenu(p, menu, Qt::white, labels, keys, rowTops);
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    for (int i = 0; i < labels.size(); ++i) {
        const Zone* item = findZone(result.zones, ZoneType::MenuItem, labels.at(i));
        QVERIFY2(item, qPrintable(labels.at(i) + QLatin1Char('\n') + dump(result.zones)));
        QCOMPARE(item->bounds.left(), menu.left() + 1);
        QCOMPARE(item->bounds.right(), menu.right() - 1);
        QVERIFY2(std::abs(item->bounds.center().y() - (menu.y() + 16 + 24 * i)) <= 2,
                 qPrintable(dump(result.zones)));
    }
    const QString others = notMenuItemsIn(result.zones, menu);
    QVERIFY2(others.isEmpty(), qPrintable(others));
}

void TestLocalAnalyzer::menuCutBySeparatorsIsOneMenu()
{
    // A popup menu in the panel's colour, cut by separators into sections; only the first section's rows
    // have key combinations. The other sections' rows are items of the same menu all the same.
    QImage image = themedImage(QColor(0xe8, 0xe8, 0xe8));
    const QRect menu(60, 20, 240, 200);
    const QStringList labels{QStringLiteral("New Window"),    QStringLiteral("Open"),
                             QStringLiteral("Save"),          QStringLiteral("Recent Files"),
                             QStringLiteral("Print Preview"), QStringLiteral("Close")};
    const QStringList keys{QStringLiteral("Ctrl+N"),
                           QStringLiteral("Ctrl+O"),
                           QStringLiteral("Ctrl+S"),
                           QString(),
                           QString(),
                           QString()};
    const QList<int> rowY{26, 50, 74, 110, 134, 170};
    {
        QPainter p(&image);
        preparePainter(p);
        popupMenu(p, menu, QColor(0xf6, 0xf6, 0xf6), labels, keys, rowY);
        p.setPen(QColor(0xc0, 0xc0, 0xc0));
        for (const int y : {103, 163}) // the separators, wall to wall
            p.drawLine(menu.left() + 1, y, menu.right() - 1, y);
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    for (int i = 0; i < labels.size(); ++i) {
        const Zone* item = findZone(result.zones, ZoneType::MenuItem, labels.at(i));
        QVERIFY2(item, qPrintable(labels.at(i) + QLatin1Char('\n') + dump(result.zones)));
        QVERIFY2(std::abs(item->bounds.left() - menu.left()) <= 2 &&
                     std::abs(item->bounds.right() - menu.right()) <= 2,
                 qPrintable(dump(result.zones)));
        QVERIFY2(item->bounds.contains(QPoint(menu.x() + 30, rowY.at(i) + 12)),
                 qPrintable(dump(result.zones)));
    }
    const QString others = notMenuItemsIn(result.zones, menu);
    QVERIFY2(others.isEmpty(), qPrintable(others));
}

// A menu's highlighted row: its band joins the row's label and its shortcut, right-aligned in their own
// column, into one line. The item's label is the label's words only, however many.
void TestLocalAnalyzer::aMenuItemsShortcutIsNoPartOfItsLabel_data()
{
    QTest::addColumn<int>("highlighted");
    QTest::newRow("one word") << 3;
    QTest::newRow("two words") << 2;
}

void TestLocalAnalyzer::aMenuItemsShortcutIsNoPartOfItsLabel()
{
    QFETCH(int, highlighted);
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QRect menu(60, 30, 240, 106);
    const QStringList labels{QStringLiteral("New Window"), QStringLiteral("Open"),
                             QStringLiteral("Print Preview"), QStringLiteral("Quit")};
    const QStringList keys{QStringLiteral("Ctrl+N"), QStringLiteral("Ctrl+O"), QStringLiteral("Ctrl+P"),
                           QStringLiteral("Ctrl+Q")};
    QList<int> rowTops;
    for (int i = 0; i < labels.size(); ++i)
        rowTops << menu.y() + 4 + 24 * i;
    {
        QPainter p(&image);
        preparePainter(p);
        popupMenu(p, menu, QColor(0xf6, 0xf6, 0xf6), labels, keys, rowTops);
        // The highlight: a band across the row, outlined a shade darker, its text white.
        const QRect band(menu.x() + 2, rowTops.at(highlighted), menu.width() - 4, 24);
        p.setPen(QColor(0x2a, 0x6c, 0xb8));
        p.setBrush(QColor(0x30, 0x8c, 0xc6));
        p.drawRect(band.adjusted(0, 0, -1, -1));
        p.setPen(Qt::white);
        const QRect row(menu.x() + 24, rowTops.at(highlighted), menu.width() - 40, 24);
        p.drawText(row, Qt::AlignVCenter | Qt::AlignLeft, labels.at(highlighted));
        p.drawText(row, Qt::AlignVCenter | Qt::AlignRight, keys.at(highlighted));
    }
    LocalAnalyzer analyzer;
    canvas::AnalysisHints hints;
    hints.menuPopup = true;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {}, {}, hints);
    QVERIFY(result.error.isEmpty());
    const Zone* item =
        zoneAt(result.zones, ZoneType::MenuItem, QPoint(menu.x() + 30, rowTops.at(highlighted) + 12));
    QVERIFY2(item, qPrintable(dump(result.zones)));
    QCOMPARE(item->label, labels.at(highlighted));
}

// Buttons whose labels show their key combinations, side by side in a row (a Tk program's button bar): their
// keys end in no column, each is a button named by all it shows.
void TestLocalAnalyzer::buttonsShowingKeysSideBySideStayButtons()
{
    const QColor panel(0xef, 0xef, 0xef);
    QImage image = themedImage(panel);
    const QStringList labels{QStringLiteral("Clear"), QStringLiteral("Add"), QStringLiteral("Search")};
    const QStringList keys{QStringLiteral("Ctrl+C"), QStringLiteral("Ctrl+A"), QStringLiteral("Ctrl+S")};
    QList<QRect> buttons;
    {
        QPainter p(&image);
        preparePainter(p);
        for (int i = 0; i < labels.size(); ++i) {
            const QRect button(20 + 150 * i, 60, 140, 28);
            buttons << button;
            bevelledBox(p, button, true, panel);
            p.setPen(Qt::black);
            p.drawText(button.adjusted(10, 0, -10, 0), Qt::AlignVCenter | Qt::AlignLeft, labels.at(i));
            p.drawText(button.adjusted(10, 0, -10, 0), Qt::AlignVCenter | Qt::AlignRight, keys.at(i));
        }
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    QCOMPARE(countOf(result.zones, ZoneType::MenuItem), 0);
    for (int i = 0; i < labels.size(); ++i) {
        const Zone* button = zoneAt(result.zones, ZoneType::Button, buttons.at(i).center());
        QVERIFY2(button && button->label.startsWith(labels.at(i)) &&
                     button->label.size() > labels.at(i).size(),
                 qPrintable(dump(result.zones)));
    }
}

// A popup menu on a screen scaled by 1.5 (QT_SCALE_FACTOR): the gaps between a label's words are wider than
// the gap that joins glyphs into words, so each word is read as a line of its own. An item's label is all the
// words of its label column, not its first word, and not its key combination.
void TestLocalAnalyzer::aScaledMenuItemsLabelIsAllItsWords()
{
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QRect menu(40, 20, 330, 150);
    const QStringList labels{QStringLiteral("Close Tab"), QStringLiteral("Page Setup"),
                             QStringLiteral("Print Preview"), QStringLiteral("Quit")};
    const QStringList keys{QStringLiteral("Ctrl+W"), QString(), QStringLiteral("Ctrl+P"),
                           QStringLiteral("Ctrl+Q")};
    {
        QPainter p(&image);
        preparePainter(p);
        QFont scaled = p.font();
        scaled.setPixelSize(19);
        scaled.setWordSpacing(4); // 1.5 times the usual space, as a scaled screen draws it
        p.setFont(scaled);
        p.setPen(QColor(0x9a, 0x9a, 0x9a));
        p.setBrush(QColor(0xf6, 0xf6, 0xf6));
        p.drawRect(menu.adjusted(0, 0, -1, -1));
        p.setPen(Qt::black);
        for (int i = 0; i < labels.size(); ++i) {
            const QRect row(menu.x() + 36, menu.y() + 6 + 34 * i, menu.width() - 56, 34);
            p.drawText(row, Qt::AlignVCenter | Qt::AlignLeft, labels.at(i));
            p.drawText(row, Qt::AlignVCenter | Qt::AlignRight, keys.at(i));
        }
    }
    LocalAnalyzer analyzer;
    canvas::AnalysisHints hints;
    hints.menuPopup = true;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {}, {}, hints);
    QVERIFY(result.error.isEmpty());
    for (int i = 0; i < labels.size(); ++i) {
        const Zone* item =
            zoneAt(result.zones, ZoneType::MenuItem, QPoint(menu.x() + 50, menu.y() + 23 + 34 * i));
        QVERIFY2(item, qPrintable(dump(result.zones)));
        QCOMPARE(item->label, labels.at(i));
    }
}

void TestLocalAnalyzer::textViewLinesStayText()
{
    // A text view's paragraph: its lines are text to read, not items to click, though they stack like rows.
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QRect view(20, 20, 440, 150);
    const QStringList lines{QStringLiteral("The meeting moved to Thursday at ten."),
                            QStringLiteral("Please bring the printed budget and"),
                            QStringLiteral("the notes from last week so that we"),
                            QStringLiteral("can settle the open points quickly."),
                            QStringLiteral("Lunch will be served after the talk.")};
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(QColor(0x9a, 0x9a, 0x9a));
        p.setBrush(Qt::white);
        p.drawRect(view.adjusted(0, 0, -1, -1));
        p.setPen(Qt::black);
        for (int i = 0; i < lines.size(); ++i)
            p.drawText(QRect(view.x() + 6, view.y() + 6 + 18 * i, 420, 18), Qt::AlignVCenter | Qt::AlignLeft,
                       lines.at(i));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    int statics = 0;
    for (const Zone& z : result.zones) {
        if (!view.contains(z.bounds.center()) || z.bounds == view)
            continue;
        QVERIFY2(z.type == ZoneType::Static, qPrintable(dump(result.zones)));
        ++statics;
    }
    QCOMPARE(statics, 5);
}

void TestLocalAnalyzer::linesBesideASelectedRowAreLines()
{
    // A tree's rows at a pitch no taller than their text: a header band's and the selected row's edges
    // cross the view and touch the letters of the rows beside them. Each row is still a line of text.
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QRect view(20, 20, 220, 200);
    const QStringList rows{QStringLiteral("Dialog with Buttons Bottom"),
                           QStringLiteral("Dialog with Buttons Right"),
                           QStringLiteral("Dialog without Buttons"), QStringLiteral("Main Window")};
    constexpr int kPitch = 16;
    const int first = view.y() + 1 + kPitch; // under the header band
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(QColor(0x9a, 0x9a, 0x9a));
        p.setBrush(Qt::white);
        p.drawRect(view.adjusted(0, 0, -1, -1));
        p.setBrush(QColor(0xe0, 0xe0, 0xe0));
        p.drawRect(QRect(view.x(), view.y(), view.width(), kPitch + 1).adjusted(0, 0, -1, -1));
        p.setPen(Qt::black);
        p.drawText(QRect(view.x(), view.y(), view.width(), kPitch + 1), Qt::AlignCenter,
                   QStringLiteral("templates/forms"));
        p.fillRect(QRect(view.x() + 1, first, view.width() - 2, kPitch), QColor(0x30, 0x8c, 0xc6));
        for (int i = 0; i < rows.size(); ++i) {
            p.setPen(i == 0 ? Qt::white : Qt::black);
            p.drawText(QRect(view.x() + 20, first + kPitch * i, 200, kPitch),
                       Qt::AlignVCenter | Qt::AlignLeft, rows.at(i));
        }
    }
    image = image.convertToFormat(QImage::Format_ARGB32);
    const cv::Mat mat(image.height(), image.width(), CV_8UC4, const_cast<uchar*>(image.constBits()),
                      size_t(image.bytesPerLine()));
    const canvas::seg::Segmentation seg = canvas::seg::segment(mat);
    QStringList lines;
    for (const cv::Rect& r : seg.textLines)
        lines << QStringLiteral("%1,%2 %3x%4").arg(r.x).arg(r.y).arg(r.width).arg(r.height);
    for (int i = 0; i < rows.size(); ++i) {
        // One line in the row, starting at its text and no taller than the row.
        const int top = first + kPitch * i;
        const int inRow =
            int(std::count_if(seg.textLines.cbegin(), seg.textLines.cend(), [&](const cv::Rect& r) {
                return r.y >= top - 2 && r.y + r.height <= top + kPitch + 2 &&
                       std::abs(r.x - (view.x() + 20)) <= 2;
            }));
        QVERIFY2(inRow == 1,
                 qPrintable(QStringLiteral("row %1: %2").arg(i).arg(lines.join(QLatin1String("; ")))));
    }
    // The view under the selected row is no box of its own (its bottom edge closed one with the view's
    // sides and bottom): the view is one list, each row an item across it.
    const auto inner = std::count_if(seg.boxes.cbegin(), seg.boxes.cend(), [&](const canvas::seg::Box& b) {
        return b.rect.y > view.y() + 2 && b.rect.width > view.width() / 2;
    });
    QCOMPARE(int(inner), 0);
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    for (int i = 0; i < rows.size(); ++i) {
        const Zone* item = findZone(result.zones, ZoneType::Button, rows.at(i));
        QVERIFY2(item, qPrintable(rows.at(i) + QLatin1String(": ") + dump(result.zones)));
        QVERIFY2(item->bounds.width() >= view.width() - 4 &&
                     item->bounds.contains(QPoint(view.center().x(), first + kPitch * i + kPitch / 2)),
                 qPrintable(dump(result.zones)));
    }
}

void TestLocalAnalyzer::aTreesRowsAreItsItems_data()
{
    QTest::addColumn<bool>("expanders");
    QTest::newRow("levels") << false;
    QTest::newRow("levels and expander boxes") << true;
}

void TestLocalAnalyzer::aTreesRowsAreItsItems()
{
    // A tree: its rows start at two levels (most not at the leftmost), a parent's row with a box to open or
    // close it. Each row is an item of one list, the expanders no children that make the view a panel.
    QFETCH(bool, expanders);
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QRect view(20, 20, 240, 200);
    const QList<std::pair<int, QString>> rows{
        {0, QStringLiteral("Fruit")},  {1, QStringLiteral("Apple")},      {1, QStringLiteral("Banana")},
        {1, QStringLiteral("Cherry")}, {0, QStringLiteral("Vegetables")}, {1, QStringLiteral("Carrot")},
        {1, QStringLiteral("Leek")}};
    constexpr int kPitch = 20;
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(QColor(0x9a, 0x9a, 0x9a));
        p.setBrush(Qt::white);
        p.drawRect(view.adjusted(0, 0, -1, -1));
        for (int i = 0; i < rows.size(); ++i) {
            const int top = view.y() + 4 + kPitch * i;
            const int x = view.x() + 24 + 20 * rows.at(i).first;
            p.setPen(Qt::black);
            p.drawText(QRect(x, top, 180, kPitch), Qt::AlignVCenter | Qt::AlignLeft, rows.at(i).second);
            if (expanders && rows.at(i).first == 0) {
                p.setPen(QColor(0x80, 0x80, 0x80));
                p.setBrush(Qt::white);
                p.drawRect(QRect(x - 14, top + 5, 9, 9));
                p.setPen(Qt::black);
                p.drawLine(x - 12, top + 9, x - 8, top + 9);
            }
        }
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    for (int i = 0; i < rows.size(); ++i) {
        const Zone* item = findZone(result.zones, ZoneType::Button, rows.at(i).second);
        QVERIFY2(item, qPrintable(rows.at(i).second + QLatin1String(": ") + dump(result.zones)));
        const QPoint inRow(view.center().x(), view.y() + 4 + kPitch * i + kPitch / 2);
        QVERIFY2(item->bounds.width() >= view.width() / 2 && item->bounds.contains(inRow),
                 qPrintable(dump(result.zones)));
    }
}

void TestLocalAnalyzer::expandersAreButtonsWithTheirState()
{
    // A tool box's section headers (a band, the triangle at its left, the title centred) and an expander
    // (the triangle just left of its label): pointing down, open; pointing right, closed.
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const auto triangle = [](QPainter& p, QPoint at, bool down) {
        QPainterPath path;
        if (down) {
            path.moveTo(at);
            path.lineTo(at + QPoint(8, 0));
            path.lineTo(at + QPoint(4, 4));
        } else {
            path.moveTo(at);
            path.lineTo(at + QPoint(0, 8));
            path.lineTo(at + QPoint(4, 4));
        }
        path.closeSubpath();
        p.fillPath(path, QColor(0x30, 0x30, 0x30));
    };
    const QRect open(20, 30, 240, 18);
    const QRect closed(20, 120, 240, 18);
    {
        QPainter p(&image);
        preparePainter(p);
        for (const QRect& band : {open, closed}) {
            p.fillRect(band, QColor(0xd6, 0xd6, 0xd6));
            p.setPen(QColor(0xb0, 0xb0, 0xb0));
            p.drawLine(band.topLeft(), band.topRight());
        }
        triangle(p, QPoint(open.x() + 4, open.y() + 7), true);
        triangle(p, QPoint(closed.x() + 6, closed.y() + 5), false);
        p.setPen(Qt::black);
        p.drawText(open, Qt::AlignCenter, QStringLiteral("Layouts"));
        p.drawText(closed, Qt::AlignCenter, QStringLiteral("Containers"));
        p.drawText(QPoint(40, 60 + 14), QStringLiteral("Vertical Layout"));
        p.drawText(QPoint(40, 84 + 14), QStringLiteral("Grid Layout"));
        triangle(p, QPoint(300, 200), false);
        p.drawText(QPoint(312, 208), QStringLiteral("Details"));
        p.drawText(QPoint(300, 40), QStringLiteral("Plain text"));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    struct Expect
    {
        const char* label;
        QPoint triangle;
        ZoneStateFlag state;
    };
    for (const Expect& x :
         {Expect{"Layouts", QPoint(open.x() + 8, open.y() + 9), ZoneStateFlag::Expanded},
          Expect{"Containers", QPoint(closed.x() + 8, closed.y() + 9), ZoneStateFlag::Collapsed},
          Expect{"Details", QPoint(302, 204), ZoneStateFlag::Collapsed}}) {
        const Zone* z = findZone(result.zones, ZoneType::Button, QString::fromLatin1(x.label));
        QVERIFY2(z, qPrintable(QString::fromLatin1(x.label) + QLatin1Char('\n') + dump(result.zones)));
        QVERIFY2(z->bounds.contains(x.triangle), qPrintable(dump(result.zones)));
        QVERIFY2(z->state.testFlag(x.state), qPrintable(dump(result.zones)));
    }
    // Text without a triangle stays text.
    for (const char* text : {"Vertical Layout", "Grid Layout", "Plain text"})
        QVERIFY2(findZone(result.zones, ZoneType::Static, QString::fromLatin1(text)),
                 qPrintable(dump(result.zones)));
}

// A tree drawn as the Windows, Motif and Tk styles do: a square holding a minus (open) or a plus (closed)
// left of a group's label. Each group is a button with its state; an item without one stays text.
void TestLocalAnalyzer::plusMinusExpandersAreButtons()
{
    QImage image = themedImage(Qt::white);
    const auto square = [](QPainter& p, QPoint at, bool plus) {
        p.setPen(QColor(0x80, 0x80, 0x80));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRect(at, QSize(8, 8))); // 9 px from side to side
        p.setPen(Qt::black);
        p.drawLine(at + QPoint(2, 4), at + QPoint(6, 4));
        if (plus)
            p.drawLine(at + QPoint(4, 2), at + QPoint(4, 6));
    };
    {
        QPainter p(&image);
        preparePainter(p);
        square(p, QPoint(30, 40), false);
        p.drawText(QPoint(46, 49), QStringLiteral("Documents"));
        p.drawText(QPoint(62, 71), QStringLiteral("Letters"));
        square(p, QPoint(30, 84), true);
        p.drawText(QPoint(46, 93), QStringLiteral("Pictures"));
        p.drawText(QPoint(46, 137), QStringLiteral("Readme"));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* open = findZone(result.zones, ZoneType::Button, QStringLiteral("Documents"));
    QVERIFY2(open && open->bounds.contains(QPoint(34, 44)) && open->state.testFlag(ZoneStateFlag::Expanded),
             qPrintable(dump(result.zones)));
    const Zone* closed = findZone(result.zones, ZoneType::Button, QStringLiteral("Pictures"));
    QVERIFY2(closed && closed->bounds.contains(QPoint(34, 88)) &&
                 closed->state.testFlag(ZoneStateFlag::Collapsed),
             qPrintable(dump(result.zones)));
    for (const char* text : {"Letters", "Readme"})
        QVERIFY2(findZone(result.zones, ZoneType::Static, QString::fromLatin1(text)),
                 qPrintable(dump(result.zones)));
}

void TestLocalAnalyzer::scaledScreenIsAnalysedAtItsLogicalSize()
{
    // The form drawn at scale 2: the same widgets as at scale 1, at twice their place and size.
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(form(QPoint(40, 300), 2), QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    QCOMPARE(result.region, QRect(0, 0, 1600, 960));
    struct Expect
    {
        ZoneType type;
        const char* label;
        QRect atScale1;
    };
    for (const Expect& x : {Expect{ZoneType::Button, "Submit", QRect(40, 300, 100, 26)},
                            Expect{ZoneType::Button, "Cancel", QRect(160, 300, 100, 26)},
                            Expect{ZoneType::TextField, "Name", QRect(110, 60, 260, 24)},
                            Expect{ZoneType::TextField, "Berlin", QRect(110, 100, 260, 24)},
                            Expect{ZoneType::Dropdown, "Green", QRect(110, 140, 260, 24)},
                            Expect{ZoneType::CheckBox, "Subscribe", QRect(220, 222, 81, 18)},
                            Expect{ZoneType::Button, "Item 3", QRect(501, 76, 182, 15)}}) {
        const Zone* z = findZone(result.zones, x.type, QString::fromLatin1(x.label));
        QVERIFY2(z, qPrintable(QString::fromLatin1(x.label) + QLatin1Char('\n') + dump(result.zones)));
        const QRect twice(x.atScale1.topLeft() * 2, x.atScale1.size() * 2);
        QVERIFY2(intersectionOverUnion(z->bounds, twice) >= 0.8,
                 qPrintable(QString::fromLatin1(x.label) + QLatin1Char('\n') + dump(result.zones)));
    }
    // A region of the same screen, too small to tell the scale by itself, keeps the scale the screen told.
    const auto part = analyzer.analyze(form(QPoint(40, 300), 2), QPoint(0, 0), QRect(60, 580, 480, 100));
    const Zone* submit = findZone(part.zones, ZoneType::Button, QStringLiteral("Submit"));
    QVERIFY2(submit && intersectionOverUnion(submit->bounds, QRect(80, 600, 200, 52)) >= 0.8,
             qPrintable(dump(part.zones)));
}

void TestLocalAnalyzer::emptyBoxesAFormsLabelsNameAreFields_data()
{
    QTest::addColumn<QColor>("panel");
    QTest::addColumn<QColor>("text");
    // A form whose fields are painted as the panel (a palette set for a dark look paints every background
    // alike): labels ending in ":" name empty sunken boxes; the address's second line has no label of its
    // own but lies right under a labelled field of its size.
    QTest::newRow("dark") << QColor(0x2e, 0x34, 0x36) << QColor(0xee, 0xee, 0xec);
    QTest::newRow("light") << QColor(0xd9, 0xd9, 0xd9) << QColor(Qt::black);
}

void TestLocalAnalyzer::emptyBoxesAFormsLabelsNameAreFields()
{
    QFETCH(QColor, panel);
    QFETCH(QColor, text);
    QImage image = themedImage(panel);
    // The fifth box is narrower, under a field but not of its size, and its label has no colon; the sixth
    // shows a colour (a colour button's swatch): neither is a field.
    const QStringList labels{QStringLiteral("Name:"),  QStringLiteral("Address:"), QString(),
                             QStringLiteral("Phone:"), QStringLiteral("Progress"), QStringLiteral("Colour:")};
    const QList<bool> fields{true, true, true, true, false, false};
    QList<QRect> boxes;
    {
        QPainter p(&image);
        preparePainter(p);
        for (int i = 0; i < labels.size(); ++i) {
            const QRect box(130, 20 + 30 * i, i >= 4 ? 200 : 300, 23);
            boxes << box;
            if (i == 5)
                p.fillRect(box.adjusted(3, 3, -3, -3), QColor(0x33, 0x66, 0xcc));
            p.setPen(panel.darker(160));
            p.drawLine(box.topLeft(), box.topRight());
            p.drawLine(box.topLeft(), box.bottomLeft());
            p.setPen(panel.lighter(160));
            p.drawLine(box.bottomLeft(), box.bottomRight());
            p.drawLine(box.topRight(), box.bottomRight());
            p.setPen(text);
            p.drawText(QRect(10, box.y(), 118, box.height()), Qt::AlignVCenter | Qt::AlignRight,
                       labels.at(i));
        }
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    for (int i = 0; i < boxes.size(); ++i) {
        const Zone* field = zoneAt(result.zones, ZoneType::TextField, boxes.at(i).center());
        QVERIFY2((field != nullptr) == fields.at(i),
                 qPrintable(QString::number(i) + QLatin1Char('\n') + dump(result.zones)));
        if (field)
            QVERIFY2(withinPixel(field->bounds, boxes.at(i)), qPrintable(dump(result.zones)));
    }
}

void TestLocalAnalyzer::aFlatBarAtAViewsCornerIsItsScrollBar_data()
{
    QTest::addColumn<bool>("vertical");
    QTest::addColumn<bool>("grip");
    QTest::addColumn<bool>("scrollBar");
    // A view scrolled both ways: its horizontal scroll bar's thumb (a flat raised box without text) ends
    // at the vertical scroll bar's column, just below it.
    QTest::newRow("at the corner") << true << false << true;
    // A thumb cut in two by its grip is one scroll bar.
    QTest::newRow("a thumb with a grip") << true << true << true;
    // The same flat box under a view without a vertical scroll bar: a field, a progress bar, no evidence.
    QTest::newRow("no vertical scroll bar") << false << false << false;
}

void TestLocalAnalyzer::aFlatBarAtAViewsCornerIsItsScrollBar()
{
    QFETCH(bool, vertical);
    QFETCH(bool, grip);
    QFETCH(bool, scrollBar);
    QImage image = themedImage(QColor(0xd9, 0xd9, 0xd9));
    const QRect view(20, 20, 300, 160);
    const QRect thumb(32, 182, 276, 13); // between the arrows' places, under the view
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(QColor(0x80, 0x80, 0x80));
        p.setBrush(Qt::white);
        p.drawRect(view.adjusted(0, 0, -1, -1));
        if (vertical) {
            p.setBrush(QColor(0xd9, 0xd9, 0xd9));
            p.drawRect(
                QRect(view.right() + 2, view.top() + 12, 13, view.height() - 24).adjusted(0, 0, -1, -1));
        }
        p.setBrush(QColor(0xd9, 0xd9, 0xd9));
        if (grip) {
            p.drawRect(
                QRect(thumb.x(), thumb.y(), thumb.width() / 2 - 3, thumb.height()).adjusted(0, 0, -1, -1));
            p.drawRect(
                QRect(thumb.x() + thumb.width() / 2 + 3, thumb.y(), thumb.width() / 2 - 3, thumb.height())
                    .adjusted(0, 0, -1, -1));
        } else {
            p.drawRect(thumb.adjusted(0, 0, -1, -1));
        }
        p.setPen(Qt::black);
        p.drawText(QRect(view.x() + 6, view.y() + 4, 200, 16), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("README"));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    // Zones on the thumb, but for the scrolled view's whole (its frame and both bars).
    QList<QRect> flat;
    for (const Zone& z : result.zones) {
        if (z.bounds.intersects(thumb) && !z.bounds.contains(view))
            flat << z.bounds;
    }
    if (scrollBar) {
        QVERIFY2(flat.size() == 1, qPrintable(dump(result.zones)));
        const Zone* bar = zoneAt(result.zones, ZoneType::ScrollArea, thumb.center());
        QVERIFY2(bar && withinPixel(bar->bounds, thumb), qPrintable(dump(result.zones)));
    } else {
        QVERIFY2(!zoneAt(result.zones, ZoneType::ScrollArea, thumb.center()), qPrintable(dump(result.zones)));
    }
}

void TestLocalAnalyzer::aGroupsTitleIsAboveAGroupNotALine_data()
{
    QTest::addColumn<int>("height");
    QTest::addColumn<bool>("titled");
    // A word just above a frame's top border names the group the frame holds; the same word over a box
    // no taller than a line (a tool bar's section of four buttons right under a menu bar's title) names
    // nothing in it.
    QTest::newRow("a group") << 120 << true;
    QTest::newRow("a tool bar's section") << 35 << false;
}

void TestLocalAnalyzer::aGroupsTitleIsAboveAGroupNotALine()
{
    QFETCH(int, height);
    QFETCH(bool, titled);
    // Assembler level, boxes and text given: a frame holding four tool buttons, a word 4 px above it.
    SegmentedPanel panel = segmentedPanel(QColor(0xd9, 0xd9, 0xd9));
    canvas::seg::Segmentation& s = panel.seg;
    const cv::Rect frame(100, 60, 200, height);
    s.boxes.push_back({frame});
    for (int i = 0; i < 4; ++i)
        s.boxes.push_back({cv::Rect(frame.x + 4 + 32 * i, frame.y + 3, 28, 28)});
    canvas::detail::TextItem title;
    title.rect = cv::Rect(108, 44, 46, 12);
    title.text = QStringLiteral("Options");
    title.confidence = 96;
    canvas::detail::AssemblyInput in;
    in.seg = &s;
    in.texts.push_back(title);
    const QList<Zone> zones = canvas::detail::assemble(in);
    const bool named = std::any_of(zones.cbegin(), zones.cend(), [&](const Zone& z) {
        return z.label == QStringLiteral("Options") && z.bounds == QRect(100, 60, 200, height);
    });
    QVERIFY2(named == titled, qPrintable(dump(zones)));
}

void TestLocalAnalyzer::aLoneCellAtAWindowsTopIsAMenuTitle_data()
{
    QTest::addColumn<int>("top");
    QTest::addColumn<int>("cells");
    QTest::addColumn<ZoneType>("type");
    // A boxed word standing on a line that runs on beside it: a tab on its page's top line, or, alone in
    // the window's top band, a menu bar's title drawn as a box (a classic menu button, an open menu's title).
    QTest::newRow("alone at the window's top") << 2 << 1 << ZoneType::MenuItem;
    QTest::newRow("two side by side at the top") << 2 << 2 << ZoneType::Tab;
    QTest::newRow("alone further down") << 80 << 1 << ZoneType::Tab;
}

void TestLocalAnalyzer::aLoneCellAtAWindowsTopIsAMenuTitle()
{
    QFETCH(int, top);
    QFETCH(int, cells);
    QFETCH(ZoneType, type);
    QImage image = themedImage(QColor(0xd9, 0xd9, 0xd9));
    const QStringList words{QStringLiteral("File"), QStringLiteral("Edit")};
    QList<QRect> boxes;
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(QColor(0x80, 0x80, 0x80));
        int x = 10;
        for (int i = 0; i < cells; ++i) {
            const QRect cell(x, top, p.fontMetrics().horizontalAdvance(words.at(i)) + 20, 26);
            boxes << cell;
            x += cell.width() - 1; // neighbours share a side
            p.setBrush(QColor(0xe4, 0xe4, 0xe4));
            p.drawRect(cell.adjusted(0, 0, -1, -1));
            p.setPen(Qt::black);
            p.drawText(cell, Qt::AlignCenter, words.at(i));
            p.setPen(QColor(0x80, 0x80, 0x80));
        }
        // The line the cells stand on runs across the window.
        p.drawLine(0, top + 25, image.width() - 1, top + 25);
    }
    platform::WindowInfo window;
    window.id = 7;
    window.geometry = QRect(0, 0, image.width(), image.height());
    canvas::AnalysisHints hints;
    hints.windows = {window};
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), QRect(), {}, hints);
    QVERIFY(result.error.isEmpty());
    for (int i = 0; i < cells; ++i) {
        const Zone* z = findZone(result.zones, type, words.at(i));
        QVERIFY2(z && intersectionOverUnion(z->bounds, boxes.at(i)) >= 0.7, qPrintable(dump(result.zones)));
    }
}

// A small dialog: its caption ("Pick a colour:") at the top left, a drop-down under it, its buttons below.
// The window's sides and the drop-down's top frame the caption: a cell at the window's top, but a caption (it
// ends in a colon) names the widget under it and is neither a tab nor a menu's title.
void TestLocalAnalyzer::aCaptionAtAWindowsTopIsNoMenuTitle()
{
    QImage image(480, 260, QImage::Format_RGB32);
    image.fill(Qt::black);
    const QRect dialog(60, 40, 200, 110);
    const QRect combo(71, 74, 178, 25);
    {
        QPainter p(&image);
        preparePainter(p);
        p.fillRect(dialog, QColor(0xef, 0xef, 0xef));
        p.setPen(Qt::black);
        p.drawText(QRect(70, 50, 120, 18), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("Pick a colour:"));
        p.setPen(QColor(0xb0, 0xb0, 0xb0));
        p.setBrush(QColor(0xf8, 0xf8, 0xf8));
        p.drawRoundedRect(combo.adjusted(0, 0, -1, -1), 2, 2);
        p.setBrush(QColor(0x60, 0x60, 0x60));
        p.setPen(Qt::NoPen);
        const QPoint tip(combo.right() - 12, combo.center().y() + 2);
        p.drawPolygon(QPolygon({tip + QPoint(-4, -3), tip + QPoint(4, -3), tip}));
        for (const auto& [x, label] : {std::pair{83, "OK"}, std::pair{169, "Cancel"}}) {
            const QRect button(x, 106, 80, 25);
            p.setPen(QColor(0xb0, 0xb0, 0xb0));
            p.setBrush(QColor(0xf4, 0xf4, 0xf4));
            p.drawRoundedRect(button.adjusted(0, 0, -1, -1), 2, 2);
            p.setPen(Qt::black);
            p.drawText(button, Qt::AlignCenter, QLatin1String(label));
        }
    }
    platform::WindowInfo window;
    window.id = 9;
    window.geometry = dialog;
    canvas::AnalysisHints hints;
    hints.windows = {window};
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), QRect(), {}, hints);
    QVERIFY(result.error.isEmpty());
    QCOMPARE(countOf(result.zones, ZoneType::MenuItem), 0);
    QCOMPARE(countOf(result.zones, ZoneType::Tab), 0);
    const Zone* caption = zoneAt(result.zones, ZoneType::Static, QPoint(100, 59));
    QVERIFY2(caption && caption->label.startsWith(QStringLiteral("Pick a colour")),
             qPrintable(dump(result.zones)));
    QVERIFY2(zoneAt(result.zones, ZoneType::Dropdown, combo.center()), qPrintable(dump(result.zones)));
}

void TestLocalAnalyzer::anIconBesideAButtonsLabelIsItsFace_data()
{
    QTest::addColumn<int>("width");
    QTest::addColumn<QString>("layout");
    QTest::addColumn<ZoneType>("type");
    // A push button at a large scale: its icon, framed, is a box of its own beside the label, the two
    // centred on the button's face. The button is one zone, its icon no check box.
    QTest::newRow("icon and label centred") << 120 << "centred" << ZoneType::Button;
    // A grey button with its label at the left and its icon at the right end (a file chooser's button):
    // one zone, its icon no button of its own.
    QTest::newRow("icon at the right end") << 150 << "spread" << ZoneType::Button;
    // A frame around a check box: indicator and label at the frame's left, the rest empty (not so wide that
    // the indicator would be an entry's icon at its end).
    QTest::newRow("check box in a frame") << 130 << "left" << ZoneType::CheckBox;
}

void TestLocalAnalyzer::anIconBesideAButtonsLabelIsItsFace()
{
    QFETCH(int, width);
    QFETCH(QString, layout);
    QFETCH(ZoneType, type);
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QRect button(60, 40, width, 36);
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(QColor(0x80, 0x80, 0x80));
        p.setBrush(layout == QLatin1String("spread") ? QColor(0xe0, 0xe0, 0xe0) : QColor(0xf6, 0xf6, 0xf6));
        p.drawRect(button.adjusted(0, 0, -1, -1));
        const int textWidth = p.fontMetrics().horizontalAdvance(QStringLiteral("Apply"));
        const int faceWidth = 22 + 8 + textWidth;
        QRect icon(button.x() + 8, button.y() + 7, 22, 22);
        QRect text(icon.right() + 9, button.y(), textWidth + 4, button.height());
        if (layout == QLatin1String("centred")) {
            icon.moveLeft(button.x() + (button.width() - faceWidth) / 2);
            text.moveLeft(icon.right() + 9);
        } else if (layout == QLatin1String("spread")) {
            text.moveLeft(button.x() + 10);
            icon.moveRight(button.right() - 8);
        }
        p.setPen(QColor(0x30, 0x30, 0x30));
        p.setBrush(QColor(0x40, 0xa0, 0x40));
        p.drawRect(icon.adjusted(0, 0, -1, -1));
        p.setPen(Qt::black);
        p.drawText(text, Qt::AlignVCenter, QStringLiteral("Apply"));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* z = findZone(result.zones, type, QStringLiteral("Apply"));
    QVERIFY2(z, qPrintable(dump(result.zones)));
    if (type == ZoneType::Button) {
        // The button alone: nothing else inside it.
        QVERIFY2(withinPixel(z->bounds, button), qPrintable(dump(result.zones)));
        for (const Zone& other : result.zones)
            QVERIFY2(&other == z || !button.contains(other.bounds.center()), qPrintable(dump(result.zones)));
    }
    const ZoneType other = type == ZoneType::Button ? ZoneType::CheckBox : ZoneType::Button;
    QVERIFY2(!findZone(result.zones, other, QStringLiteral("Apply")), qPrintable(dump(result.zones)));
}

void TestLocalAnalyzer::aWhiteBarAtAWindowsTopIsAMenuBar_data()
{
    QTest::addColumn<int>("top");
    QTest::addColumn<bool>("menuBar");
    // A high contrast theme: a white window, its menu bar a white box outlined (one pixel past the window's
    // sides), black beyond the window. The box's white stands out of the black and the title bar as an
    // entry's base would; at the window's top it is a menu bar.
    QTest::newRow("at the window's top") << 0 << true;
    // The same box further down is no menu bar.
    QTest::newRow("further down") << 60 << false;
}

void TestLocalAnalyzer::aWhiteBarAtAWindowsTopIsAMenuBar()
{
    QFETCH(int, top);
    QFETCH(bool, menuBar);
    QImage image = themedImage(Qt::black);
    const QRect window(40, 40, 400, 200);
    const QStringList titles{QStringLiteral("File"), QStringLiteral("View"), QStringLiteral("Search"),
                             QStringLiteral("Help")};
    QList<QRect> cells;
    {
        QPainter p(&image);
        preparePainter(p);
        p.fillRect(window.x(), window.y() - 20, window.width(), 20, QColor(0x4a, 0x7a, 0xc0)); // title bar
        p.fillRect(window, Qt::white);
        const QRect bar(window.x() - 1, window.y() + top, window.width() + 2, 26);
        p.setPen(QColor(0x60, 0x60, 0x60));
        p.setBrush(Qt::white);
        p.drawRect(bar.adjusted(0, 0, -1, -1));
        p.setPen(Qt::black);
        int x = window.x() + 9;
        for (const QString& title : titles) {
            const int w = p.fontMetrics().horizontalAdvance(title);
            cells << QRect(x - 5, bar.y() + 1, w + 10, bar.height() - 2);
            p.drawText(QRect(x, bar.y(), w + 2, bar.height()), Qt::AlignVCenter, title);
            x += w + 16;
        }
    }
    platform::WindowInfo info;
    info.id = 7;
    info.geometry = window;
    canvas::AnalysisHints hints;
    hints.windows = {info};
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), QRect(), {}, hints);
    QVERIFY(result.error.isEmpty());
    for (int i = 0; i < titles.size(); ++i) {
        const Zone* z = findZone(result.zones, ZoneType::MenuItem, titles.at(i));
        QVERIFY2((z != nullptr) == menuBar,
                 qPrintable(titles.at(i) + QLatin1Char('\n') + dump(result.zones)));
        if (z)
            QVERIFY2(intersectionOverUnion(z->bounds, cells.at(i)) >= 0.7, qPrintable(dump(result.zones)));
    }
}

void TestLocalAnalyzer::aLetterFoundAsABoxIsNoControl_data()
{
    QTest::addColumn<QRect>("small");
    QTest::addColumn<bool>("button");
    QTest::addColumn<ZoneType>("type");
    QTest::addColumn<QRect>("expected");
    // A large "C" the segmenter closed into a box: inside its word, no taller than it. The word stays free
    // text, the letter no button.
    QTest::newRow("a letter of free text")
        << QRect(247, 238, 13, 11) << false << ZoneType::Static << QRect(246, 233, 81, 22);
    // On a push button: the button is one zone.
    QTest::newRow("a letter of a button's label")
        << QRect(247, 238, 13, 11) << true << ZoneType::Button << QRect(200, 227, 172, 36);
    // A check box's indicator left of the word is no letter.
    QTest::newRow("an indicator before the word")
        << QRect(228, 237, 13, 13) << false << ZoneType::CheckBox << QRect(228, 233, 99, 22);
}

void TestLocalAnalyzer::aLetterFoundAsABoxIsNoControl()
{
    QFETCH(QRect, small);
    QFETCH(bool, button);
    QFETCH(ZoneType, type);
    QFETCH(QRect, expected);
    // Assembler level, boxes and text given.
    SegmentedPanel panel = segmentedPanel(QColor(0xef, 0xef, 0xef));
    canvas::seg::Segmentation& s = panel.seg;
    if (button)
        s.boxes.push_back({cv::Rect(200, 227, 172, 36)});
    s.boxes.push_back({cv::Rect(small.x(), small.y(), small.width(), small.height())});
    canvas::detail::TextItem word;
    word.rect = cv::Rect(248, 237, 77, 14);
    word.text = QStringLiteral("Contents");
    word.confidence = 96;
    word.words = {{word.rect, word.text}};
    word.owner = button ? 0 : -1; // the innermost box holding the line
    canvas::detail::AssemblyInput in;
    in.seg = &s;
    in.texts.push_back(word);
    const QList<Zone> zones = canvas::detail::assemble(in);
    QVERIFY2(zones.size() == 1, qPrintable(dump(zones)));
    QCOMPARE(toString(zones.front().type), toString(type));
    QCOMPARE(zones.front().label, QStringLiteral("Contents"));
    QVERIFY2(withinPixel(zones.front().bounds, expected), qPrintable(dump(zones)));
}

void TestLocalAnalyzer::aDropDownsArrowButtonIsItsFace()
{
    // A drop-down whose arrow sits in a box of its own at the right end (a line between label and arrow):
    // one zone, opened from anywhere on it; its arrow no button of its own.
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QRect dropDown(60, 40, 200, 34);
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(QColor(0x90, 0x90, 0x90));
        p.setBrush(QColor(0xe4, 0xe4, 0xe4));
        p.drawRect(dropDown.adjusted(0, 0, -1, -1));
        // The arrow's button: a box inside the drop-down's, at its right end.
        const int split = dropDown.right() - 36;
        p.setPen(QColor(0xb0, 0xb0, 0xb0));
        p.drawRect(QRect(split, dropDown.top() + 5, 31, dropDown.height() - 11));
        p.setPen(Qt::black);
        p.drawText(QRect(dropDown.x() + 10, dropDown.y(), 120, dropDown.height()), Qt::AlignVCenter,
                   QStringLiteral("Sans"));
        p.setBrush(QColor(0x30, 0x30, 0x30));
        const int cx = split + 18;
        const int cy = dropDown.center().y();
        const QPoint arrow[] = {QPoint(cx - 6, cy - 3), QPoint(cx + 6, cy - 3), QPoint(cx, cy + 3)};
        p.drawPolygon(arrow, 3);
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* z = findZone(result.zones, ZoneType::Dropdown, QStringLiteral("Sans"));
    QVERIFY2(z && withinPixel(z->bounds, dropDown), qPrintable(dump(result.zones)));
    for (const Zone& other : result.zones)
        QVERIFY2(&other == z || !dropDown.contains(other.bounds.center()), qPrintable(dump(result.zones)));
}

void TestLocalAnalyzer::aComboOfTwoBoxesIsOneDropDown_data()
{
    QTest::addColumn<QString>("mark");
    // A combo box drawn as its label's box and, right against it, its arrow's button: one drop-down.
    QTest::newRow("a down arrow") << "down";
    // A button showing a plus beside a field (a spin button's step) joins nothing,
    QTest::newRow("a plus") << "plus";
    // nor do a spin button's steps, an arrow up above an arrow down.
    QTest::newRow("steps up and down") << "steps";
}

void TestLocalAnalyzer::aComboOfTwoBoxesIsOneDropDown()
{
    QFETCH(QString, mark);
    const bool arrow = mark == QLatin1String("down");
    QImage image = themedImage(QColor(0xef, 0xef, 0xef));
    const QRect field(60, 40, 160, 34);
    const QRect button(field.right(), 40, 36, 34); // they share a side
    {
        QPainter p(&image);
        preparePainter(p);
        p.setPen(QColor(0x90, 0x90, 0x90));
        p.setBrush(Qt::white);
        p.drawRect(field.adjusted(0, 0, -1, -1));
        p.setBrush(QColor(0xe4, 0xe4, 0xe4));
        p.drawRect(button.adjusted(0, 0, -1, -1));
        p.setPen(Qt::black);
        p.drawText(field.adjusted(10, 0, 0, 0), Qt::AlignVCenter, QStringLiteral("Sans"));
        p.setBrush(QColor(0x30, 0x30, 0x30));
        const QPoint c = button.center();
        if (mark == QLatin1String("plus")) {
            p.fillRect(c.x() - 6, c.y() - 1, 13, 2, QColor(0x30, 0x30, 0x30));
            p.fillRect(c.x() - 1, c.y() - 6, 2, 13, QColor(0x30, 0x30, 0x30));
        } else {
            const int y = arrow ? c.y() : c.y() + 6;
            const QPoint down[] = {QPoint(c.x() - 6, y - 3), QPoint(c.x() + 6, y - 3), QPoint(c.x(), y + 3)};
            p.drawPolygon(down, 3);
            if (!arrow) {
                const QPoint up[] = {QPoint(c.x() - 6, c.y() - 4), QPoint(c.x() + 6, c.y() - 4),
                                     QPoint(c.x(), c.y() - 10)};
                p.drawPolygon(up, 3);
            }
        }
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    const Zone* z =
        findZone(result.zones, arrow ? ZoneType::Dropdown : ZoneType::TextField, QStringLiteral("Sans"));
    QVERIFY2(z, qPrintable(dump(result.zones)));
    QVERIFY2(withinPixel(z->bounds, arrow ? field.united(button) : field), qPrintable(dump(result.zones)));
    const bool buttonLeft = std::any_of(result.zones.cbegin(), result.zones.cend(), [&](const Zone& other) {
        return &other != z && button.contains(other.bounds.center());
    });
    QVERIFY2(buttonLeft == !arrow, qPrintable(dump(result.zones)));
}

void TestLocalAnalyzer::aWrappedMessageIsNoMenu_data()
{
    QTest::addColumn<QStringList>("rows");
    QTest::addColumn<bool>("menu");
    // A dialog's message in a raised frame, wrapped to the frame's width: text, no menu.
    QTest::newRow("a wrapped message") << QStringList{QStringLiteral("This is a dummy file selection dialog"),
                                                      QStringLiteral("box, which is used because there is"),
                                                      QStringLiteral("no good file selection dialog built"),
                                                      QStringLiteral("into this toolkit yet.")}
                                       << false;
    // A menu whose items have as many words, but end where their labels end.
    QTest::newRow("a menu of long items")
        << QStringList{QStringLiteral("Stage Changed Files To Commit"), QStringLiteral("Revert Changes"),
                       QStringLiteral("Show Less Context Around It"), QStringLiteral("Sign Off")}
        << true;
}

void TestLocalAnalyzer::aWrappedMessageIsNoMenu()
{
    QFETCH(QStringList, rows);
    QFETCH(bool, menu);
    QImage image = themedImage(QColor(0xd9, 0xd9, 0xd9));
    QRect frame(40, 40, 0, 20 * int(rows.size()) + 10);
    {
        QPainter p(&image);
        preparePainter(p);
        int widest = 0;
        for (const QString& row : std::as_const(rows))
            widest = std::max(widest, p.fontMetrics().horizontalAdvance(row));
        frame.setWidth(widest + 20);
        p.setPen(QColor(0x80, 0x80, 0x80));
        p.setBrush(QColor(0xd9, 0xd9, 0xd9));
        p.drawRect(frame.adjusted(0, 0, -1, -1));
        p.setPen(Qt::black);
        for (int i = 0; i < rows.size(); ++i)
            p.drawText(QRect(frame.x() + 10, frame.y() + 5 + 20 * i, widest + 4, 20), Qt::AlignVCenter,
                       rows.at(i));
    }
    LocalAnalyzer analyzer;
    const auto result = analyzer.analyze(image, QPoint(0, 0), {});
    QVERIFY(result.error.isEmpty());
    int items = 0;
    for (const Zone& z : result.zones)
        items += z.type == ZoneType::MenuItem && frame.contains(z.bounds.center()) ? 1 : 0;
    QVERIFY2(items == (menu ? int(rows.size()) : 0), qPrintable(dump(result.zones)));
    if (!menu) {
        const Zone* first = findZone(result.zones, ZoneType::Static, rows.front());
        QVERIFY2(first, qPrintable(dump(result.zones)));
    }
}

void TestLocalAnalyzer::threeIconBoxesInABarAreButtons()
{
    // Assembler level, boxes and text given: a bar one line tall holding a word and three icon-sized boxes at
    // its ends (a tool bar whose checked buttons are framed). A push button shows an icon or two: the three
    // are buttons of their own, not the bar's face.
    SegmentedPanel panel = segmentedPanel(QColor(0xef, 0xef, 0xef));
    canvas::seg::Segmentation& s = panel.seg;
    const cv::Rect bar(20, 40, 420, 36);
    s.boxes.push_back({bar});
    const QList<QRect> icons{QRect(26, 45, 26, 26), QRect(56, 45, 26, 26), QRect(408, 45, 26, 26)};
    for (const QRect& icon : icons)
        s.boxes.push_back({cv::Rect(icon.x(), icon.y(), icon.width(), icon.height())});
    canvas::detail::TextItem word;
    word.rect = cv::Rect(200, 52, 60, 12);
    word.text = QStringLiteral("Tools");
    word.confidence = 96;
    word.words = {{word.rect, word.text}};
    word.owner = 0;
    canvas::detail::AssemblyInput in;
    in.seg = &s;
    in.texts.push_back(word);
    const QList<Zone> zones = canvas::detail::assemble(in);
    for (const QRect& icon : icons) {
        const bool found = std::any_of(zones.cbegin(), zones.cend(),
                                       [&](const Zone& z) { return withinPixel(z.bounds, icon); });
        QVERIFY2(found, qPrintable(dump(zones)));
    }
}

QTEST_MAIN(TestLocalAnalyzer)
#include "tst_localanalyzer.moc"
