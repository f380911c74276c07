// The zone assembler's classification of the segmenter's boxes: buttons, keys, fields, check boxes, lists,
// menus and the rest, each with its label (see zoneassembler_p.h).

#include "core/canvas/glyphrecognizer.h"
#include "core/canvas/zoneassembler_p.h"

#include <algorithm>
#include <array>
#include <opencv2/imgproc.hpp>
#include <utility>

namespace ciu::canvas::detail::assembly {
namespace {

// The cues of the box classification, in pixels unless named otherwise. None names or fits one program
// or one theme: grey levels are compared with the surroundings, never taken as such.
constexpr int kIndicatorMaxSide = 26;      // a check box's or radio button's indicator is a square this small
constexpr int kIndicatorMaxSkew = 3;       // whose width and height differ by at most this
constexpr int kIndicatorLabelGap = 12;     // its label starts at most this far to its right
constexpr int kIndicatorMarkInset = 3;     // the mark is looked for this far inside the indicator
constexpr double kIndicatorMarkedDev = 25; // grey deviation inside an indicator holding a mark
constexpr int kInteriorInset = 2; // a box's interior starts this far inside its outline (border, bevel)
constexpr int kSingleLineMaxHeight = 48;   // taller boxes hold more than a line (lists, text areas, panes)
constexpr int kBarMinAspect = 12;          // a box this many times wider than tall is a bar (title, status)
constexpr int kEmptyBandAspect = 4;        // an empty box wider than this many heights (plus the slack) is a
constexpr int kEmptyBandSlack = 40;        // band between lines (a tab bar's rest), not a button
constexpr int kMaxMenuWidth = 520;         // popup menus are narrower than this
constexpr int kMinFieldWidth = 60;         // a multi-line field or display is at least this wide
constexpr int kMaxDisplayLines = 4;        // a display shows at most this many lines
constexpr int kListMinRows = 4;            // a view's base with this many stacked rows is a list
constexpr int kMenuMinRows = 2;            // a popup menu's rows
constexpr int kIndentAlign = 3;            // px: lines of a tree's level start this close to each other
constexpr int kRowMarkGap = 4;             // px: a mark at a row's start ends at most this far into its text
constexpr int kRowMarkReach = 24;          // and at most this far before it
constexpr int kFieldLabelGap = 24;         // a form's "Name:" label ends at most this far left of its field
constexpr int kFieldStackAlign = 2;        // fields of one column of a form: sides and height within this
constexpr int kPanelInteriorTolerance = 6; // grey levels a field painted as the panel is from the panel
constexpr int kTitleAbove = 10;            // a group box's title ends at most this far above its top border,
constexpr int kTitleBelow = 4;             // starts at most this far below it,
constexpr int kTitleIndent = 12;           // and its left is within this of the box's left

// The view's base (baseInterior).
constexpr int kBaseFlatTolerance = 8;  // grey levels around the interior's median that are its fill
constexpr double kBaseFlatShare = 0.5; // share of the interior that is fill (the rest is text)
constexpr int kBaseContrast = 3;       // grey levels a base is further from mid-grey than its panel
constexpr int kBaseExtremeMargin = 2;  // a base this close to pure white or black needs no contrast,
constexpr int kBaseExtremeSlack = 2;   // and may be this much less extreme than its panel
constexpr int kBaseMinSides = 3;       // sides (of the four) on which the base stands out of the panel

// The focus ring (focusRing, findUsualBorder).
constexpr double kRingShare = 0.6;      // share of an outline in one colour for it to be a ring
constexpr int kRingTolerance = 40;      // per-channel spread within one ring (anti-aliased corners)
constexpr int kFocusMinChroma = 60;     // a focus ring is a colour, any hue, not a grey
constexpr int kFocusMinDistance = 60;   // that far from the usual border and from the box's fill
constexpr int kUsualBorderMinBoxes = 3; // outlines needed to tell the usual border colour

// Keys, push buttons and displays (centredText, displayText, inKeyGrid).
constexpr double kCentredMaxWidth = 0.8; // a centred label leaves room on both sides
constexpr int kCentredSlack = 4;         // its centre is within max(this, the box's width / the divisor)
constexpr int kCentredSlackDivisor = 8;  // of the box's centre
constexpr int kDisplayRightMargin = 24;  // a display's first line ends at most this far from its right edge
constexpr int kKeyGridSizeSlack = 6;     // keys of one grid differ in width and height by at most this
constexpr int kKeyGridMaxGap = 10;       // and sit at most this far apart,
constexpr int kKeyGridOverlap = 2;       // or overlap by at most this (shared borders)

// An entry's icons at its ends (onlyEndIcons).
constexpr int kEndIconMinFieldAspect = 4; // the entry is at least this many heights wide
constexpr int kEndIconMaxAspect = 2;      // an icon is at most this many of the entry's heights wide
constexpr int kEndIconReach = 3;          // and lies within this many heights of an end
constexpr int kEndIconMaxCount = 3;       // an entry holds at most this many

// A push button's face (buttonFace): an icon beside its label, or a glyph of the label closed into a box of
// its own (a large "C"), lies inside the button's outline. Each such box is at most this many of the
// button's heights wide, and owns no readable text.
constexpr double kFaceIconMaxAspect = 1.0;
constexpr int kFaceMaxIcons = 2; // a button's face holds at most this many
// A letter closed into a box of its own (a large "C", "O", "D"): the box lies inside a word read with at
// least this many letters, this close to the word's box, and is no taller than the word by more than that.
constexpr int kGlyphWordMinLetters = 3;
constexpr int kGlyphWordSlack = 2;

// Tab bars drawn as a strip along a page (tabStrip, tabItems): the strip's tabs have no outline of their own
// (flat tabs, the current one marked by a line or a shade), so they are told by where the strip sits.
constexpr int kTabStripAlign = 3;     // the strip's ends are within this of the page's (it spans the side)
constexpr int kTabStripTouch = 2;     // and its edge within this of the page's (a shared border)
constexpr int kTabStripPageRatio = 2; // the page is at least this many times as deep as the strip
constexpr int kTabMinGap = 8;         // labels of a horizontal strip sit at least this far apart
constexpr int kTabMinCount = 2;       // labels a strip needs to be a tab bar
constexpr int kTabPadX = 4;           // a tab is its label grown by this sideways
constexpr int kTabPadY = 8;           // and this above and below, within the strip

} // namespace

namespace {

// The boxes of `lines` top to bottom; `*rows`: how many rows they make.
std::vector<cv::Rect> topToBottom(const std::vector<TextItem>& texts, const std::vector<int>& lines,
                                  int* rows)
{
    std::vector<cv::Rect> rects;
    for (const int i : lines)
        rects.push_back(texts[size_t(i)].rect);
    std::sort(rects.begin(), rects.end(), [](const cv::Rect& a, const cv::Rect& b) { return a.y < b.y; });
    *rows = rects.empty() ? 0 : 1;
    for (size_t i = 1; i < rects.size(); ++i)
        *rows += sameRow(rects[i - 1], rects[i]) ? 0 : 1;
    return rects;
}

// Enough rows, and most of their lines aligned: a list.
bool listShaped(int rows, int aligned, int minRows)
{
    return rows >= minRows && aligned >= std::max(minRows, int(0.6 * rows));
}

} // namespace

bool Assembler::isStackedList(const std::vector<int>& lines, int minRows) const
{
    if (int(lines.size()) < minRows)
        return false;
    int rows = 0;
    const std::vector<cv::Rect> rects = topToBottom(m_in.texts, lines, &rows);
    int left = rects.front().x;
    for (const cv::Rect& r : rects)
        left = std::min(left, r.x);
    const auto aligned =
        std::count_if(rects.cbegin(), rects.cend(), [&](const cv::Rect& r) { return r.x - left <= 6; });
    return listShaped(rows, int(aligned), minRows);
}

bool Assembler::isIndentedList(const std::vector<int>& lines, int minRows) const
{
    if (int(lines.size()) < minRows)
        return false;
    int rows = 0;
    const std::vector<cv::Rect> rects = topToBottom(m_in.texts, lines, &rows);
    // A line starts where a line of another row does: at one of the tree's levels.
    const auto aligned = std::count_if(rects.cbegin(), rects.cend(), [&](const cv::Rect& a) {
        return std::any_of(rects.cbegin(), rects.cend(), [&](const cv::Rect& b) {
            return !sameRow(a, b) && std::abs(a.x - b.x) <= kIndentAlign;
        });
    });
    return listShaped(rows, int(aligned), minRows);
}

bool Assembler::partOfScrollBarOrSlider(const cv::Rect& r) const
{
    for (const cv::Rect& sb : m_s.scrollBars) {
        if (std::abs(sb.x - r.x) <= 3 && std::abs(sb.width - r.width) <= 4 && r.y >= sb.y - 24 &&
            r.y <= sb.y + sb.height + 24)
            return true;
    }
    for (const cv::Rect& sl : m_s.sliders) {
        if (contains(sl, r, 3))
            return true;
    }
    return false;
}

int Assembler::colonLabelLeftOf(const cv::Rect& r)
{
    const int label = lineLeftOf(r, kFieldLabelGap);
    return label >= 0 && texts()[size_t(label)].text.trimmed().endsWith(QLatin1Char(':')) ? label : -1;
}

bool Assembler::panelInterior(const cv::Rect& r) const
{
    const cv::Rect in = inset(r, kInteriorInset);
    if (seg::flatShare(m_s, in, kBaseFlatTolerance) < kBaseFlatShare)
        return false;
    const int interior = seg::medianGray(m_s, in);
    const std::vector<int> sides = sideGrays(m_s, r);
    const auto same = [interior](int side) { return std::abs(side - interior) <= kPanelInteriorTolerance; };
    return int(std::count_if(sides.cbegin(), sides.cend(), same)) >=
           std::min(int(sides.size()), kBaseMinSides);
}

bool Assembler::formField(int box)
{
    const cv::Rect& r = m_s.boxes[size_t(box)].rect;
    if (!panelInterior(r))
        return false; // a colour button's swatch, a picture: something shown in the box
    if (colonLabelLeftOf(r) >= 0)
        return true;
    // A field of a form's column without a label of its own (an address's second line): an empty box of the
    // same size right above or below a labelled one.
    for (size_t i = 0; i < m_s.boxes.size(); ++i) {
        const cv::Rect& o = m_s.boxes[i].rect;
        const int gap = std::max(o.y - (r.y + r.height), r.y - (o.y + o.height));
        if (int(i) != box && std::abs(o.x - r.x) <= kFieldStackAlign &&
            std::abs(o.width - r.width) <= kFieldStackAlign &&
            std::abs(o.height - r.height) <= kFieldStackAlign && gap >= 0 && gap <= r.height &&
            linesOwnedBy(int(i)).empty() && panelInterior(o) && colonLabelLeftOf(o) >= 0)
            return true;
    }
    return false;
}

bool Assembler::isMenuBar(const std::vector<int>& lines, const cv::Rect& bar) const
{
    std::vector<cv::Rect> items;
    for (const int i : lines) {
        if (readableText(m_in.texts[size_t(i)]))
            items.push_back(m_in.texts[size_t(i)].rect);
    }
    if (items.size() < 2 || bar.width < 6 * bar.height)
        return false;
    std::sort(items.begin(), items.end(), [](const cv::Rect& a, const cv::Rect& b) { return a.x < b.x; });
    if (items.front().x - bar.x > 24)
        return false;
    int textWidth = 0;
    for (size_t i = 0; i < items.size(); ++i) {
        textWidth += items[i].width;
        if (!sameRow(items.front(), items[i]))
            return false;
        if (i > 0 && items[i].x - (items[i - 1].x + items[i - 1].width) < 8)
            return false;
    }
    return textWidth < 0.5 * bar.width;
}

bool Assembler::inWindowTopBand(const cv::Rect& r) const
{
    return std::any_of(m_in.windows.cbegin(), m_in.windows.cend(), [&r](const cv::Rect& w) {
        return contains(w, r, kWindowEdgeSlack) && r.y <= w.y + kMenuBarBand;
    });
}

void Assembler::menuBarItems(const std::vector<int>& lines, const cv::Rect& bar)
{
    for (const int i : lines) {
        const TextItem& t = texts()[size_t(i)];
        if (!readableText(t))
            continue;
        m_out.push_back(
            menuItemElement(cv::Rect(t.rect.x - 5, bar.y + 1, t.rect.width + 10, bar.height - 2), t, 0.55));
    }
}

bool Assembler::baseInterior(const cv::Rect& r) const
{
    const cv::Rect in = inset(r, kInteriorInset);
    if (seg::flatShare(m_s, in, kBaseFlatTolerance) < kBaseFlatShare)
        return false;
    // Distances from mid-grey, doubled to stay in integers (0: mid-grey, 255: white or black).
    const auto depth = [](int grey) { return std::abs(2 * grey - 255); };
    const int interior = seg::medianGray(m_s, in);
    const bool extreme = depth(interior) >= 255 - 2 * kBaseExtremeMargin;
    const std::vector<int> sides = sideGrays(m_s, r);
    int standsOut = 0;
    for (const int side : sides) {
        const bool sameSide = (2 * interior > 255) == (2 * side > 255);
        // Deeper than the panel on that side, or a pure white (black) base on a panel as light (dark).
        standsOut += (sameSide && depth(interior) - depth(side) >= 2 * kBaseContrast) ||
                             (extreme && depth(interior) + 2 * kBaseExtremeSlack >= depth(side))
                         ? 1
                         : 0;
    }
    // Surrounded by the panel: a strip between different areas (a menu bar under a title bar) is not.
    return standsOut >= std::min(int(sides.size()), kBaseMinSides);
}

void Assembler::findUsualBorder()
{
    std::vector<cv::Vec3b> outlines;
    for (const seg::Box& b : m_s.boxes) {
        cv::Vec3b c;
        if (seg::outlineColour(m_s, b.rect, kRingShare, kRingTolerance, &c))
            outlines.push_back(c);
    }
    m_usualBorder.reset();
    if (int(outlines.size()) < kUsualBorderMinBoxes)
        return;
    cv::Vec3b usual;
    for (int k = 0; k < 3; ++k) {
        std::vector<uchar> channel;
        for (const cv::Vec3b& c : outlines)
            channel.push_back(c[k]);
        std::nth_element(channel.begin(), channel.begin() + long(channel.size() / 2), channel.end());
        usual[k] = channel[channel.size() / 2];
    }
    m_usualBorder = usual;
}

bool Assembler::focusRing(const cv::Rect& r) const
{
    const cv::Vec3b fill = seg::medianColour(m_s, inset(r, kInteriorInset));
    for (const cv::Rect& outline : {r, inset(r, 1)}) {
        cv::Vec3b ring;
        if (!seg::outlineColour(m_s, outline, kRingShare, kRingTolerance, &ring) ||
            seg::chroma(ring) < kFocusMinChroma || seg::colourDistance(ring, fill) < kFocusMinDistance)
            continue; // no ring, a grey one, or the box's own fill (a selected row, a checked box)
        if (!m_usualBorder || seg::colourDistance(ring, *m_usualBorder) >= kFocusMinDistance)
            return true;
    }
    return false;
}

void Assembler::classifyBoxes()
{
    findUsualBorder();
    markMenus(kMaxMenuWidth);
    m_partOfControl.assign(m_s.boxes.size(), false);
    m_glyphBox.assign(m_s.boxes.size(), false);
    for (size_t bi = 0; bi < m_s.boxes.size(); ++bi)
        m_glyphBox[bi] = glyphOfWord(m_s.boxes[bi].rect);
    for (size_t bi = 0; bi < m_s.boxes.size(); ++bi) {
        const seg::Box& box = m_s.boxes[bi];
        const cv::Rect& r = box.rect;
        std::vector<int> lines = linesOwnedBy(int(bi));
        if (m_partOfScrollBar[bi] || m_partOfControl[bi] || m_glyphBox[bi])
            continue; // an arrow or a groove's end (the scroll bar is one zone: scrollBars), a button's icon,
                      // a letter
        Element e;
        e.rect = r;
        const bool small = r.width <= kIndicatorMaxSide && r.height <= kIndicatorMaxSide &&
                           std::abs(r.width - r.height) <= kIndicatorMaxSkew;
        // Entry fields and lists show the view's base, which stands out of the window's panel.
        const bool base = baseInterior(r);
        if (focusRing(r))
            e.state |= ZoneStateFlag::Focused;

        if (const int label = menuRowLabel(int(bi), lines); label >= 0) {
            // A menu's row in a box of its own: its label names it, its key combination does not.
            const TextItem& t = texts()[size_t(label)];
            e.type = ZoneType::MenuItem;
            e.label = cleanLabel(labelColumn(readableByX(lines)));
            e.confidence = 0.5 + 0.4 * t.confidence / 100.0;
            e.events = {QStringLiteral("click")};
            m_usedText.insert(lines.cbegin(), lines.cend());
            m_out.push_back(e);
            continue;
        }
        if (!small && !base && tabStrip(int(bi), lines)) {
            tabItems(lines, r);
            continue;
        }

        if (m_isMenu[bi]) {
            // A popup menu (or one of its sections) in any colour, its icons boxes of their own.
            menuItems(lines, r);
            m_menus.push_back(r);
            continue;
        }

        if (small) {
            if (partOfScrollBarOrSlider(r) || insideKey(int(bi)))
                continue;
            const int label = lineRightOf(r, kIndicatorLabelGap);
            if (label >= 0) {
                m_usedText.insert(label);
                const TextItem& t = texts()[size_t(label)];
                e.type = ZoneType::CheckBox;
                // The label's line box (glyph boxes lack the line's leading), as for free text:
                // the toolkit's click area is indicator and label line.
                e.rect = unite(r, cv::Rect(t.rect.x - 2, t.rect.y - 4, t.rect.width + 4, t.rect.height + 8));
                e.label = cleanLabel(t.text);
                const bool marked = seg::stdDevGray(m_s, inset(r, kIndicatorMarkInset)) > kIndicatorMarkedDev;
                e.state |= marked ? ZoneStateFlag::Checked : ZoneStateFlag::Unchecked;
                e.confidence = 0.55 + 0.4 * t.confidence / 100.0;
                e.events = {QStringLiteral("click"), QStringLiteral("toggle")};
            } else {
                e.type = ZoneType::Button;
                e.label = textOf(lines);
                e.confidence = 0.4;
                e.events = {QStringLiteral("click")};
            }
            m_out.push_back(e);
            continue;
        }

        cv::Rect arrow;
        // An entry's own icons (a clear button, a mode icon, a spin button's steps) sit at its ends: the
        // entry is still one line.
        const bool childBoxes = hasChildBoxes(int(bi));
        bool children = childBoxes && !onlyEndIcons(int(bi));
        // A push button whose icon (or a glyph of its label) is a box of its own: those boxes are its face.
        const bool face = childBoxes && buttonFace(int(bi), lines);
        if (face) {
            children = false;
            markFace(int(bi));
        }
        const bool singleLine = r.height <= kSingleLineMaxHeight && !children;
        // A key-shaped box with a centred label has no arrow: a glyph at its right end is the label's.
        const bool centredKey = singleLine && keyShaped(m_s, int(bi)) && centredText(lines, r);
        if (singleLine && !centredKey && findArrow(m_s, r, &arrow)) {
            // The arrow is not text.
            std::erase_if(lines, [&](int i) { return (texts()[size_t(i)].rect & arrow).area() > 0; });
            e.type = ZoneType::Dropdown;
            e.label = textOf(lines);
            // Its arrow's button found as a box (the arrow read as letters or not), and icons on it: the
            // drop-down opens from anywhere on it.
            markFace(int(bi));
            const cv::Point arrowCentre(arrow.x + arrow.width / 2, arrow.y + arrow.height / 2);
            for (size_t i = 0; i < m_s.boxes.size(); ++i) {
                const cv::Rect& c = m_s.boxes[i].rect;
                if (i != bi && contains(r, c) && c.height <= r.height && c.contains(arrowCentre))
                    m_partOfControl[i] = true;
            }
            e.confidence = 0.6 + 0.3 * meanConfidence(lines) / 100.0;
            e.events = {QStringLiteral("click"), QStringLiteral("opens_menu")};
            e.state |= ZoneStateFlag::Collapsed;
        } else if (singleLine && !base && lines.empty() && r.width >= kMinFieldWidth && formField(int(bi))) {
            // An empty box a form's label names, in any colour: a palette may paint fields as the panel.
            e.type = ZoneType::TextField;
            e.events = {QStringLiteral("click"), QStringLiteral("type")};
            e.confidence = 0.55;
        } else if (singleLine && (!base || inWindowTopBand(r)) && isMenuBar(lines, r)) {
            // A base-coloured bar is a menu bar too at a window's top (a white panel: a high contrast theme).
            menuBarItems(lines, r);
            continue;
        } else if (singleLine && !base && r.width >= kBarMinAspect * r.height) {
            // A bar with text (title bar, status bar): its text is static.
            for (const int i : lines)
                texts()[size_t(i)].owner = -1;
            continue;
        } else if (singleLine) {
            e.label = textOf(lines);
            // A short centred label makes a push button or a key, whatever the box's colour; an empty
            // cell of a grid of keys is a key too. Entry fields' text starts at the left.
            const bool button = face || centredText(lines, r) ||
                                (e.label.isEmpty() && keyShaped(m_s, int(bi)) && inKeyGrid(r));
            if (base && !button) {
                e.type = ZoneType::TextField;
                e.events = {QStringLiteral("click"), QStringLiteral("type")};
                e.confidence = 0.65 + 0.2 * (lines.empty() ? 0.5 : meanConfidence(lines) / 100.0);
                if (!lines.empty() && looksLikePassword(texts()[size_t(lines.front())].text)) {
                    e.password = true;
                    e.label.clear();
                }
            } else {
                e.type = ZoneType::Button;
                e.events = {QStringLiteral("click")};
                e.confidence = e.label.isEmpty() ? 0.45 : 0.6 + 0.3 * meanConfidence(lines) / 100.0;
                if (e.label.isEmpty() && r.width > kEmptyBandAspect * r.height + kEmptyBandSlack)
                    continue; // an empty band between lines (a tab bar's rest), not a button
                if (!e.label.isEmpty())
                    markFace(int(bi)); // an icon at its end (a file button's): the button's, no button
            }
        } else if (m_in.menuPopup && !m_hasScrollBar[bi] && !children && r.width <= kMaxMenuWidth &&
                   isStackedList(lines, kMenuMinRows) && !wrappedText(lines, r)) {
            // A popup menu (often the base colour, like a list): one item per row.
            menuItems(lines, r);
            m_menus.push_back(r);
            continue;
        } else if (m_hasScrollBar[bi] ||
                   (base && (!children || onlyRowMarks(int(bi), lines)) &&
                    (isStackedList(lines, kListMinRows) || isIndentedList(lines, kListMinRows)))) {
            // A list's rows may start with marks of their own: a tree's expanders, its branch lines' joints.
            e.type = ZoneType::ScrollArea;
            e.events = {QStringLiteral("scroll"), QStringLiteral("click")};
            e.confidence = m_hasScrollBar[bi] ? 0.75 : 0.55;
            e.container = true;
            if (isProse(lines, r))
                listItems(lines, r); // a text view's lines
            else
                listRows(lines, r);
        } else if (base && !children && r.width >= kMinFieldWidth && int(lines.size()) <= kMaxDisplayLines &&
                   displayText(lines, r)) {
            // A read-only display: right-aligned text in a text box, no caret to type at.
            e.type = ZoneType::Static;
            e.label = textOf(lines);
            e.confidence = 0.5 + 0.3 * meanConfidence(lines) / 100.0;
        } else if (base && !children && r.width >= kMinFieldWidth) {
            e.type = ZoneType::TextField;
            e.events = {QStringLiteral("click"), QStringLiteral("type")};
            e.label = lines.size() <= 2 ? textOf(lines) : QString();
            e.confidence = 0.6;
            e.container = false;
        } else if ((m_in.menuPopup || isStackedList(lines, kMenuMinRows)) && r.width <= kMaxMenuWidth &&
                   !children && lines.size() >= 2 && !wrappedText(lines, r)) {
            // Stacked rows; a message's wrapped lines are no menu.
            menuItems(lines, r);
            e.container = true;
            e.type = ZoneType::Static;
            e.label.clear();
            e.confidence = 0.5;
            m_menus.push_back(r);
        } else if (base && r.width >= kMinFieldWidth && isTable(lines, r)) {
            // A table whose header or cells hold boxes of their own (a sort indicator, a check box).
            e.type = ZoneType::ScrollArea;
            e.events = {QStringLiteral("scroll"), QStringLiteral("click")};
            e.confidence = 0.55;
            e.container = true;
            listRows(lines, r);
        } else {
            e.container = true;
            e.type = ZoneType::Static;
            e.confidence = 0.4;
            // A group box's title sits on (or just above) its top border. A box no taller than a line holds
            // no group (a tool bar's section under a menu bar's title).
            for (size_t i = 0; i < texts().size() && r.height > kSingleLineMaxHeight; ++i) {
                const TextItem& t = texts()[i];
                if (t.owner != -1 || m_usedText.count(int(i)) || !readableText(t))
                    continue;
                const int bottom = t.rect.y + t.rect.height;
                if (bottom >= r.y - kTitleAbove && t.rect.y <= r.y + kTitleBelow &&
                    std::abs(t.rect.x - r.x) <= kTitleIndent) {
                    e.label = cleanLabel(t.text);
                    m_usedText.insert(int(i));
                    break;
                }
            }
            for (const int i : lines)
                texts()[size_t(i)].owner =
                    -1; // free text inside a plain container (boxes come largest first)
            if (e.label.isEmpty())
                continue; // frames and panes without a title are not zones
        }
        m_out.push_back(e);
    }
}

bool Assembler::tabStrip(int box, const std::vector<int>& lines) const
{
    const cv::Rect& r = m_s.boxes[size_t(box)].rect;
    std::vector<cv::Rect> labels;
    for (const int i : lines) {
        if (readableText(texts()[size_t(i)]))
            labels.push_back(texts()[size_t(i)].rect);
    }
    if (int(labels.size()) < kTabMinCount || hasChildBoxes(box))
        return false;
    const auto near = [](int a, int b, int slack) { return std::abs(a - b) <= slack; };
    bool alongTop = false;  // a strip above or below a page
    bool alongSide = false; // a strip left or right of a page
    for (size_t j = 0; j < m_s.boxes.size(); ++j) {
        const cv::Rect& p = m_s.boxes[j].rect;
        if (int(j) == box || p.area() <= r.area())
            continue;
        const bool spansWidth =
            near(r.x, p.x, kTabStripAlign) && near(r.x + r.width, p.x + p.width, kTabStripAlign);
        const bool spansHeight =
            near(r.y, p.y, kTabStripAlign) && near(r.y + r.height, p.y + p.height, kTabStripAlign);
        const bool touchesTop =
            near(r.y + r.height, p.y, kTabStripTouch) || near(p.y + p.height, r.y, kTabStripTouch);
        const bool touchesSide =
            near(r.x + r.width, p.x, kTabStripTouch) || near(p.x + p.width, r.x, kTabStripTouch);
        alongTop = alongTop || (spansWidth && touchesTop && p.height >= kTabStripPageRatio * r.height);
        alongSide = alongSide || (spansHeight && touchesSide && p.width >= kTabStripPageRatio * r.width);
    }
    if (alongTop) {
        // One row of labels, apart from each other.
        std::sort(labels.begin(), labels.end(),
                  [](const cv::Rect& a, const cv::Rect& b) { return a.x < b.x; });
        for (size_t i = 1; i < labels.size(); ++i) {
            if (!sameRow(labels.front(), labels[i]) ||
                labels[i].x - (labels[i - 1].x + labels[i - 1].width) < kTabMinGap)
                return false;
        }
        return true;
    }
    if (alongSide) {
        // One label a row.
        std::sort(labels.begin(), labels.end(),
                  [](const cv::Rect& a, const cv::Rect& b) { return a.y < b.y; });
        for (size_t i = 1; i < labels.size(); ++i) {
            if (sameRow(labels[i - 1], labels[i]))
                return false;
        }
        return true;
    }
    return false;
}

void Assembler::tabItems(const std::vector<int>& lines, const cv::Rect& strip)
{
    for (const int i : lines) {
        const TextItem& t = texts()[size_t(i)];
        if (!readableText(t))
            continue;
        Element e;
        e.rect = cv::Rect(t.rect.x - kTabPadX, t.rect.y - kTabPadY, t.rect.width + 2 * kTabPadX,
                          t.rect.height + 2 * kTabPadY) &
                 strip;
        e.type = ZoneType::Tab;
        e.label = cleanLabel(t.text);
        e.confidence = 0.5 + 0.3 * t.confidence / 100.0;
        e.events = {QStringLiteral("click")};
        m_out.push_back(e);
        m_usedText.insert(i);
    }
}

bool Assembler::centredText(const std::vector<int>& lines, const cv::Rect& box) const
{
    cv::Rect all;
    for (const int i : lines) {
        if (readableText(texts()[size_t(i)]))
            all = all.area() ? unite(all, texts()[size_t(i)].rect) : texts()[size_t(i)].rect;
    }
    if (all.area() <= 0 || all.width > kCentredMaxWidth * box.width)
        return false;
    const int dx = std::abs((all.x + all.width / 2) - (box.x + box.width / 2));
    return dx <= std::max(kCentredSlack, box.width / kCentredSlackDivisor);
}

bool Assembler::displayText(const std::vector<int>& lines, const cv::Rect& box) const
{
    int first = -1;
    for (const int i : lines) {
        if (!readableText(texts()[size_t(i)]))
            continue;
        if (first < 0 || texts()[size_t(i)].rect.y < texts()[size_t(first)].rect.y)
            first = i;
    }
    if (first < 0)
        return false;
    const cv::Rect& t = texts()[size_t(first)].rect;
    const int right = box.x + box.width - (t.x + t.width);
    return right <= kDisplayRightMargin && t.x - box.x > box.width / 2;
}

bool Assembler::insideKey(int box) const
{
    const cv::Rect& r = m_s.boxes[size_t(box)].rect;
    for (size_t i = 0; i < m_s.boxes.size(); ++i) {
        if (int(i) != box && m_s.boxes[i].rect.area() > r.area() &&
            contains(inset(m_s.boxes[i].rect, 2), r) && keyShaped(m_s, int(i)))
            return true;
    }
    return false;
}

bool Assembler::inKeyGrid(const cv::Rect& cell) const
{
    for (const seg::Box& b : m_s.boxes) {
        const cv::Rect& o = b.rect;
        if (std::abs(o.height - cell.height) > kKeyGridSizeSlack ||
            std::abs(o.width - cell.width) > kKeyGridSizeSlack ||
            std::min(o.x + o.width, cell.x + cell.width) - std::max(o.x, cell.x) < cell.width / 2)
            continue;
        const int below = o.y - (cell.y + cell.height);
        const int above = cell.y - (o.y + o.height);
        if ((below >= -kKeyGridOverlap && below <= kKeyGridMaxGap) ||
            (above >= -kKeyGridOverlap && above <= kKeyGridMaxGap))
            return true;
    }
    return false;
}

bool Assembler::onlyEndIcons(int box) const
{
    const cv::Rect& r = m_s.boxes[size_t(box)].rect;
    if (r.height > kSingleLineMaxHeight || r.width < kEndIconMinFieldAspect * r.height)
        return false;
    int icons = 0;
    for (const size_t i : innerBoxes(box)) {
        const cv::Rect& c = m_s.boxes[i].rect;
        const bool iconSized = c.height <= r.height && c.width <= kEndIconMaxAspect * r.height;
        const bool atAnEnd = c.x >= r.x + r.width - kEndIconReach * r.height ||
                             c.x + c.width <= r.x + kEndIconReach * r.height;
        if (!iconSized || !atAnEnd || ++icons > kEndIconMaxCount)
            return false;
    }
    return icons > 0;
}

bool Assembler::onlyRowMarks(int box, const std::vector<int>& lines) const
{
    const std::vector<size_t> inner = innerBoxes(box);
    return !inner.empty() && std::all_of(inner.cbegin(), inner.cend(), [&](size_t i) {
        const cv::Rect& c = m_s.boxes[i].rect;
        if (c.width > kIndicatorMaxSide || c.height > kIndicatorMaxSide || ownsReadableText(int(i)))
            return false;
        const int centre = c.y + c.height / 2;
        return std::any_of(lines.cbegin(), lines.cend(), [&](int l) {
            const cv::Rect& t = texts()[size_t(l)].rect;
            const int right = c.x + c.width;
            return centre >= t.y && centre < t.y + t.height && right <= t.x + kRowMarkGap &&
                   right >= t.x - kRowMarkReach;
        });
    });
}

bool Assembler::buttonFace(int box, const std::vector<int>& lines) const
{
    const cv::Rect& r = m_s.boxes[size_t(box)].rect;
    if (r.height > kSingleLineMaxHeight)
        return false;
    cv::Rect face;
    for (const int i : lines) {
        if (readableText(texts()[size_t(i)]))
            face = face.area() ? unite(face, texts()[size_t(i)].rect) : texts()[size_t(i)].rect;
    }
    if (face.area() <= 0)
        return false;
    int icons = 0;
    for (const size_t i : innerBoxes(box)) {
        const cv::Rect& c = m_s.boxes[i].rect;
        if (c.height >= r.height || c.width > kFaceIconMaxAspect * r.height || ownsReadableText(int(i)) ||
            ++icons > kFaceMaxIcons)
            return false;
        face = unite(face, c);
    }
    if (icons == 0 || face.width > kCentredMaxWidth * r.width)
        return false;
    // Icon and label together are centred, as a push button lays them out.
    const int dx = std::abs((face.x + face.width / 2) - (r.x + r.width / 2));
    return dx <= std::max(kCentredSlack, r.width / kCentredSlackDivisor);
}

// A drop-down drawn as two boxes side by side (a combo box's label box and its arrow's button): the arrow's
// box is about square, shows a down arrow and no label (the arrow read as a letter or two at most), and
// touches the right side of a single-line box of its height.
constexpr int kArrowJoinSlack = 2;            // px: tops, heights and the touching sides this close
constexpr double kArrowButtonMaxAspect = 1.5; // the arrow's box at most this many heights wide
constexpr int kArrowButtonMaxLabel = 2;       // characters read in it, at most
constexpr int kArrowButtonInset = 3;          // px: the arrow is looked for inside its border

void Assembler::dropDownArrows()
{
    std::vector<bool> joined(m_out.size(), false);
    for (size_t a = 0; a < m_out.size(); ++a) {
        const cv::Rect& r = m_out[a].rect;
        if (m_out[a].type != ZoneType::Button || m_out[a].label.size() > kArrowButtonMaxLabel ||
            r.width > kArrowButtonMaxAspect * r.height || r.height > kSingleLineMaxHeight)
            continue;
        cv::Rect arrow;
        bool down = false;
        // The first triangle from the top points down (a spin button's steps show one pointing up above).
        if (!seg::findTriangle(m_s, inset(r, kArrowButtonInset), false, &arrow, &down) || !down)
            continue;
        for (size_t b = 0; b < m_out.size(); ++b) {
            Element& field = m_out[b];
            const cv::Rect& f = field.rect;
            if (b == a || joined[b] ||
                (field.type != ZoneType::TextField && field.type != ZoneType::Button) ||
                std::abs(f.y - r.y) > kArrowJoinSlack || std::abs(f.height - r.height) > kArrowJoinSlack ||
                std::abs(r.x - (f.x + f.width)) > kArrowJoinSlack)
                continue;
            field.rect = unite(f, r);
            field.type = ZoneType::Dropdown;
            field.password = false;
            field.events = {QStringLiteral("click"), QStringLiteral("opens_menu")};
            field.state |= ZoneStateFlag::Collapsed;
            joined[a] = true;
            break;
        }
    }
    std::vector<Element> kept;
    kept.reserve(m_out.size());
    for (size_t i = 0; i < m_out.size(); ++i) {
        if (!joined[i])
            kept.push_back(std::move(m_out[i]));
    }
    m_out = std::move(kept);
}

bool Assembler::ownsReadableText(int box) const
{
    const std::vector<int> lines = linesOwnedBy(box);
    return std::any_of(lines.cbegin(), lines.cend(),
                       [this](int i) { return readableText(texts()[size_t(i)]); });
}

bool Assembler::glyphOfWord(const cv::Rect& r) const
{
    for (const TextItem& t : texts()) {
        if (!readableText(t) || !contains(t.rect, r, kGlyphWordSlack))
            continue;
        for (const TextItem::Word& w : t.words) {
            const auto letters = std::count_if(w.text.cbegin(), w.text.cend(),
                                               [](const QChar c) { return c.isLetterOrNumber(); });
            if (letters >= kGlyphWordMinLetters && contains(w.rect, r, kGlyphWordSlack) &&
                r.height <= w.rect.height + kGlyphWordSlack)
                return true;
        }
    }
    return false;
}

void Assembler::markFace(int box)
{
    const cv::Rect& r = m_s.boxes[size_t(box)].rect;
    std::vector<size_t> icons;
    for (size_t i = 0; i < m_s.boxes.size(); ++i) {
        const cv::Rect& c = m_s.boxes[i].rect;
        if (int(i) != box && !m_glyphBox[i] && contains(r, c) && c.height < r.height &&
            c.width <= kFaceIconMaxAspect * r.height && !ownsReadableText(int(i)))
            icons.push_back(i);
    }
    // A button shows an icon or two; a box holding more icon-sized boxes is a tool bar's, each its button.
    if (int(icons.size()) > kFaceMaxIcons)
        return;
    for (const size_t i : icons)
        m_partOfControl[i] = true;
}

std::vector<size_t> Assembler::innerBoxes(int box) const
{
    const cv::Rect& r = m_s.boxes[size_t(box)].rect;
    std::vector<size_t> inner;
    for (size_t i = 0; i < m_s.boxes.size(); ++i) {
        const cv::Rect& c = m_s.boxes[i].rect;
        if (int(i) != box && !m_glyphBox[i] && contains(r, c) && c.height > 4)
            inner.push_back(i);
    }
    return inner;
}

bool Assembler::hasChildBoxes(int box) const
{
    return !innerBoxes(box).empty();
}

void Assembler::listItems(const std::vector<int>& lines, const cv::Rect& list)
{
    for (const int i : lines) {
        const TextItem& t = texts()[size_t(i)];
        if (!readableText(t))
            continue;
        Element item;
        item.rect = cv::Rect(t.rect.x - 2, t.rect.y - 2, t.rect.width + 4, t.rect.height + 4) & list;
        item.type = ZoneType::Static;
        item.label = cleanLabel(t.text);
        item.confidence = 0.4 + 0.4 * t.confidence / 100.0;
        item.events = {QStringLiteral("click")};
        m_out.push_back(item);
    }
}

std::vector<int> Assembler::readableByX(const std::vector<int>& lines) const
{
    std::vector<int> readable;
    for (const int i : lines) {
        if (readableText(texts()[size_t(i)]))
            readable.push_back(i);
    }
    std::sort(readable.begin(), readable.end(),
              [this](int a, int b) { return texts()[size_t(a)].rect.x < texts()[size_t(b)].rect.x; });
    return readable;
}

QString Assembler::labelColumn(const std::vector<int>& row) const
{
    QStringList words;
    for (size_t k = 0; k < row.size(); ++k) {
        const cv::Rect& next = texts()[size_t(row[k])].rect;
        if (k > 0) {
            const cv::Rect& last = texts()[size_t(row[k - 1])].rect;
            if (next.x - (last.x + last.width) > kShortcutColumnGap * std::max(last.height, next.height))
                break;
        }
        words << texts()[size_t(row[k])].text;
    }
    return words.join(QLatin1Char(' '));
}

void Assembler::menuItems(const std::vector<int>& lines, const cv::Rect& menu)
{
    // One item per row, across the menu's width; its label is the row's first readable text and the text
    // that follows it closely (its other words, read apart on a scaled screen), not the key combination in
    // its own column at the right. Icons read as noise make no row of their own.
    for (const ViewRow& row : viewRows(lines, menu)) {
        const std::vector<int> readable = readableByX(row.items);
        if (readable.empty())
            continue;
        const TextItem& t = texts()[size_t(readable.front())];
        Element item;
        item.rect = cv::Rect(menu.x + 1, row.band.y + 1, menu.width - 2, row.band.height - 2);
        item.type = ZoneType::MenuItem;
        item.label = cleanLabel(labelColumn(readable));
        item.confidence = 0.5 + 0.4 * t.confidence / 100.0;
        item.events = {QStringLiteral("click")};
        if (!item.label.isEmpty())
            m_out.push_back(item);
    }
}

} // namespace ciu::canvas::detail::assembly
