#pragma once

// The Tier 1 zone assembler's working state, shared by its two source files (zoneassembler.cpp: the
// passes over sliders, tabs, menu bars and free text; zoneassembler_boxes.cpp: the classification of
// boxes; zoneassembler_grid.cpp: text grids). Internal to core/canvas.

#include "core/canvas/zoneassembler.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <set>
#include <vector>

namespace ciu::canvas::detail::assembly {

using seg::Segmentation;

// A menu bar lies in a window's top band: its titles' tops (a bar's top) at most this far below the window's.
constexpr int kMenuBarBand = 14;
// A bar drawn along a window's side may reach this far past the window's edge (its border drawn outside).
constexpr int kWindowEdgeSlack = 2;

QRect toQRect(const cv::Rect& r);
cv::Rect inset(const cv::Rect& r, int d);
cv::Rect unite(const cv::Rect& a, const cv::Rect& b);
bool centreInside(const cv::Rect& outer, const cv::Rect& inner);
bool contains(const cv::Rect& outer, const cv::Rect& inner, int slack = 0);
bool sameRow(const cv::Rect& a, const cv::Rect& b);
// Median grey of each 3 px strip just outside the four sides of `r` (top, bottom, left, right), the sides
// that lie outside the image left out.
std::vector<int> sideGrays(const Segmentation& s, const cv::Rect& r);
bool readableText(const TextItem& t);
// A caption ("Name:", "Pick a colour:"): text ending in a colon names the widget beside or under it.
bool isCaption(const TextItem& t);
// The median of `v` (0 when empty).
int medianOf(std::vector<int> v);
bool looksLikePassword(const QString& text);

// TextItem::owner of a line taken by a text grid: no box owns it any more, and it is not free.
inline constexpr int kTextGridOwner = -2;

// A menu's row reads its label and then, right-aligned in a column of its own, its key combination. Text of
// one row further apart than this many times its height is in another column; a label's words (read as lines
// of their own on a scaled screen, their gaps wider than the word gap) sit closer.
inline constexpr double kShortcutColumnGap = 1.5;

struct Element
{
    cv::Rect rect;
    ZoneType type = ZoneType::Static;
    QString label;
    ZoneState state = ZoneStateFlag::Enabled;
    double confidence = 0.5;
    QStringList events;
    bool container = false;
    bool password = false;
};

// A flat icon's button at `rect`: clicked, its name not read.
Element iconButton(const cv::Rect& rect);

// A collapsed menu-bar item at `rect` labelled with the text `t`; its confidence rises from `base` with the
// OCR's.
Element menuItemElement(const cv::Rect& rect, const TextItem& t, double base);

class Assembler
{
public:
    explicit Assembler(AssemblyInput& in);
    QList<Zone> run();

private:
    std::vector<TextItem>& texts() { return m_in.texts; }
    const std::vector<TextItem>& texts() const { return m_in.texts; }
    QString textOf(const std::vector<int>& lines) const;
    double meanConfidence(const std::vector<int>& lines) const;
    std::vector<int> linesOwnedBy(int box) const;

    // A free, readable text line to the right of `r` on the same row, at most `gap` px away.
    int lineRightOf(const cv::Rect& r, int gap);

    int lineLeftOf(const cv::Rect& r, int gap);
    // Scroll bars: their pieces joined into whole bars (joinScrollBarPieces), the boxes that hold one marked
    // (markScrollBars), each bar a scroll area zone of its own (scrollBars).
    void markScrollBars();
    void joinScrollBarPieces();
    // Grows `bar` by the boxes without text that `joins(bar, box)` takes, until none is left, marking each
    // a piece of a scroll bar.
    void absorbPieces(cv::Rect& bar, const std::function<bool(const cv::Rect&, const cv::Rect&)>& joins);

    // Rows of text starting at the same x (a list or a menu).
    bool isStackedList(const std::vector<int>& lines, int minRows) const;
    // At least minRows rows whose lines start at a few levels (a tree's), most lines at one another row's.
    bool isIndentedList(const std::vector<int>& lines, int minRows) const;

    bool partOfScrollBarOrSlider(const cv::Rect& r) const;

    // A menu bar: a flat box whose words sit apart from each other, starting at its left.
    bool isMenuBar(const std::vector<int>& lines, const cv::Rect& bar) const;
    // Inside a window, its top no further than kMenuBarBand below the window's.
    bool inWindowTopBand(const cv::Rect& r) const;

    void menuBarItems(const std::vector<int>& lines, const cv::Rect& bar);
    void classifyBoxes();
    // A drop-down drawn as two boxes side by side, its label's and its arrow's button, made one zone.
    void dropDownArrows();

    // A view's base (an entry field's, a list's): the interior of `r` is flat apart from its text and, on
    // three of its four sides, contrasts with the panel away from mid-grey (lighter on a light panel,
    // darker on a dark one) or is pure white or black like the panel. Theme-independent: no grey level
    // is a field's.
    bool baseInterior(const cv::Rect& r) const;

    // The interior of `r` is flat and as grey as the panel around it on three of its sides: nothing shown in
    // it.
    bool panelInterior(const cv::Rect& r) const;
    // A free text line ending in ":" just left of `r` on its row (a form's label), or -1.
    int colonLabelLeftOf(const cv::Rect& r);
    // An empty box painted as the panel that such a label names, or of the same size right above or below
    // one that is (a form's column of fields, some without a label of their own).
    bool formField(int box);

    // The colour most boxes' outlines share (the theme's border colour), when enough boxes have one.
    void findUsualBorder();

    // A focus ring around `r`: its outline (or the one just inside) is one colour, any hue, that differs
    // clearly from the usual border and from the box's fill.
    bool focusRing(const cv::Rect& r) const;

    // The readable lines of a box sit around its centre (a key's or a push button's label).
    bool centredText(const std::vector<int>& lines, const cv::Rect& box) const;

    // A display: its first text row is right-aligned, well away from the left edge.
    bool displayText(const std::vector<int>& lines, const cv::Rect& box) const;

    // A glyph found as a box inside a key (the "O" of a word label).
    bool insideKey(int box) const;

    // A cell in a grid of keys: a box of its size right below or above it (tabs have none).
    bool inKeyGrid(const cv::Rect& cell) const;

    // The boxes inside `box` (the letters closed into boxes, and slivers 4 px tall or less, left out).
    std::vector<size_t> innerBoxes(int box) const;
    bool hasChildBoxes(int box) const;
    // A single-line box whose inner boxes are a push button's face: an icon or two, or glyphs of its label,
    // each no wider than the box is tall, owning no readable text, centred with the label as a button lays
    // them out.
    bool buttonFace(int box, const std::vector<int>& lines) const;
    // A letter closed into a box of its own: inside a word of a readable line, no taller than the word.
    bool glyphOfWord(const cv::Rect& r) const;
    bool ownsReadableText(int box) const;
    // Marks the icon-sized boxes inside a push button that own no readable text as drawn on its face (no
    // zones): an icon or two, none when there are more (a tool bar's box).
    void markFace(int box);
    // Its only child boxes are a few icons at its ends (an entry's clear button, a spin button's steps).
    bool onlyEndIcons(int box) const;
    // Its only child boxes are small marks at the start of its rows (a tree's expanders), owning no text.
    bool onlyRowMarks(int box, const std::vector<int>& lines) const;

    // A tab bar drawn as a strip along a page: a box without children that spans one side of a larger
    // box (the page) and touches it, its readable labels in one row apart from each other (above or below
    // the page) or one a row (beside it).
    bool tabStrip(int box, const std::vector<int>& lines) const;
    // A line at a window's top too wide for a menu title: its words, grouped by the gaps between titles,
    // are the titles not read apart already.
    void menuBarTitlesOf(int line, const cv::Rect& window);

    // One tab a readable label of the strip: the label with the toolkit's padding, within the strip.
    void tabItems(const std::vector<int>& lines, const cv::Rect& strip);
    // A text view's lines, each static text.
    void listItems(const std::vector<int>& lines, const cv::Rect& list);

    // A row of a view (a list, a tree, a table): its band across the view and its text lines, readable or
    // not (icons read as noise); the distance from the previous row's centre (zoneassembler_rows.cpp).
    struct ViewRow
    {
        cv::Rect band;
        std::vector<int> items;
        int gapBefore = 0;
    };
    std::vector<ViewRow> viewRows(const std::vector<int>& lines, const cv::Rect& view) const;

    // The columns of rows: the content's x extents, apart by a gutter no row's content crosses.
    std::vector<std::pair<int, int>> viewColumns(const std::vector<ViewRow>& rows) const;

    // A header row: its band stands out of the view's base grey (`base`) by a grey, not a colour (a
    // selected row's).
    bool headerBand(const ViewRow& row, int base) const;

    // A table: rows at one pitch in at least two columns, the second filled in most rows.
    bool isTable(const std::vector<int>& lines, const cv::Rect& view) const;

    // A popup menu's rows: at least two end in a key combination ("Ctrl+S", "F1").
    bool hasShortcutColumn(const std::vector<int>& lines, const cv::Rect& view) const;

    // A menu's row drawn as a box of its own (the highlighted one, a Tk menu's entries): one row of `lines`,
    // a label at its left and a key combination at its right end, in a shortcut column another row above or
    // below ends in too. Returns the label's line, -1 when the box is no such row.
    int menuRowLabel(int box, const std::vector<int>& lines) const;
    // The readable ones of `lines`, left to right.
    std::vector<int> readableByX(const std::vector<int>& lines) const;
    // A row's label: the text of its first line and of those that follow it closely (a label's words, read
    // apart on a scaled screen), up to the first gap between columns (kShortcutColumnGap).
    QString labelColumn(const std::vector<int>& row) const;

    // The boxes that are popup menus (m_isMenu): those with a shortcut column, at most `maxWidth` wide, and
    // the boxes stacked edge to edge on them (a menu's sections between separators).
    void markMenus(int maxWidth);

    // A text view's paragraphs, not a list's items: rows of several words each.
    bool isProse(const std::vector<int>& lines, const cv::Rect& view) const;
    // Prose wrapped to the view's width (a message): every row but the last reaches near its right side.
    bool wrappedText(const std::vector<int>& lines, const cv::Rect& view) const;

    // The items of a view: one a row of a one-column list, one a cell of a table, each clickable.
    void listRows(const std::vector<int>& lines, const cv::Rect& view);
    void menuItems(const std::vector<int>& lines, const cv::Rect& menu);
    void sliders();
    void scrollBars();

    // Tabs: cells side by side on top of a long horizontal line (the page's top border). The current
    // tab is open at the bottom, merged with the page.
    void tabs();

    // Menu bar titles: free text on the first row of a window's client area.
    void menuBars();

    // "Name:" left of a field names the field when the field shows no text of its own.
    void freeLabels();

    // Rows of icons with no border of their own (a tool bar's flat buttons): each icon a button.
    void iconRows();
    // Two to four small square icons side by side read as one run of ink (a dock's float and close
    // buttons): each icon a button.
    void iconPairs();
    // A disclosure triangle, or a square with a minus or a plus, left of the free text line `text`, nothing
    // else between them: its rectangle and the state it shows (pointing down or a minus: expanded; right,
    // left or a plus: collapsed).
    bool disclosureLeftOf(const cv::Rect& text, cv::Rect* arrow, ZoneState* state) const;
    void freeText();

    // Rows of monospaced text on a regular grid (a terminal): static text, one zone a row, taken before
    // any other pass (zoneassembler_grid.cpp).
    void textGrids();

    AssemblyInput& m_in;
    const Segmentation& m_s;
    std::vector<Element> m_out;
    std::vector<bool> m_hasScrollBar;
    std::vector<cv::Rect> m_scrollBars;  // whole scroll bars, their pieces joined (markScrollBars)
    std::vector<bool> m_partOfScrollBar; // per box: a piece of one of them (an arrow, a groove's end)
    std::vector<bool> m_partOfControl;   // per box: drawn on a control's face (a push button's icon)
    std::vector<bool> m_glyphBox;        // per box: a letter of a word read (glyphOfWord), no box at all
    std::vector<bool> m_isMenu;
    std::optional<cv::Vec3b> m_usualBorder;
    std::vector<cv::Rect> m_menus;
    std::set<int> m_usedText;
};

} // namespace ciu::canvas::detail::assembly
