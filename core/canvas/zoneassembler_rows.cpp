// The zone assembler's rows of lists, trees and tables (see zoneassembler_p.h): a view's text lines grouped
// into rows at the view's pitch and cut into columns by the gutters no row's content crosses. Each row of a
// one-column list is one clickable item across the view; each cell of a table is one (the accessibility
// tree's list items, tree items and table cells are clickable the same way).

#include "core/canvas/zoneassembler_p.h"

#include <QRegularExpression>

#include <algorithm>

namespace ciu::canvas::detail::assembly {
namespace {

// The cues of rows and columns, in pixels unless named otherwise. None names or fits one program or one
// theme.
constexpr int kTableMinRows = 4;         // a table shows at least this many rows
constexpr int kColumnGutter = 14;        // columns are this far apart at least: no row's content crosses
constexpr int kCellPad = 4;              // a cell starts this far left of its column's content
constexpr int kRowMinPad = 2;            // a row reaches at least this far above and below its content
constexpr double kRowPitchSlack = 0.25;  // rows of a table are at its pitch within this share
constexpr double kRegularRowShare = 0.6; // share of a table's row gaps at its pitch
constexpr double kColumnRowShare = 0.5;  // a table's second column is filled in this share of its rows
constexpr int kHeaderContrast = 6;       // grey levels a header row's band differs from the view's base
constexpr int kMenuMinShortcuts = 2;     // rows ending in a key combination that make a view a menu
constexpr int kMenuSectionAlign = 2;     // a menu's sections share its left and right edges within this
constexpr int kMenuSectionGap = 16;      // and lie at most this far apart (a separator between them)
constexpr int kMenuRowMaxHeight = 48;    // a menu's row drawn as a box is at most this tall
constexpr double kRowEndSlack = 3;       // and ends at most this many times its height before the row's end
constexpr int kShortcutColumnAlign = 4;  // key combinations of one menu end in one column, within this
constexpr double kShortcutColumnReach = 2.5; // rows whose keys align lie within this many row heights
constexpr double kProseWordsPerRow = 3.5;    // rows of a text view hold this many words on average, or more
constexpr double kWrappedRowReach = 0.75;    // a wrapped row's text reaches this share of its view's width
constexpr int kSelectedMinChroma = 60;       // a selected row's fill is a colour (any hue)
constexpr int kSelectedMinDistance = 60;     // that far from the view's base

struct Row
{
    cv::Rect rect;          // the union of its content
    std::vector<int> items; // its text lines, readable or not (icons read as noise count for its extent)
};

int centreY(const cv::Rect& r)
{
    return r.y + r.height / 2;
}

} // namespace

std::vector<Assembler::ViewRow> Assembler::viewRows(const std::vector<int>& lines, const cv::Rect& view) const
{
    std::vector<int> sorted = lines;
    std::sort(sorted.begin(), sorted.end(), [this](int a, int b) {
        return centreY(texts()[size_t(a)].rect) < centreY(texts()[size_t(b)].rect);
    });
    std::vector<Row> rows;
    for (const int i : sorted) {
        const cv::Rect& r = texts()[size_t(i)].rect;
        if (!rows.empty() && sameRow(rows.back().rect, r)) {
            rows.back().rect = unite(rows.back().rect, r);
            rows.back().items.push_back(i);
            continue;
        }
        rows.push_back({r, {i}});
    }
    // Rows without a readable word are icons or noise on their own, not items.
    std::erase_if(rows, [this](const Row& row) {
        return std::none_of(row.items.cbegin(), row.items.cend(),
                            [this](int i) { return readableText(texts()[size_t(i)]); });
    });
    std::vector<int> gaps;
    for (size_t k = 1; k < rows.size(); ++k)
        gaps.push_back(centreY(rows[k].rect) - centreY(rows[k - 1].rect));
    const int pitch = medianOf(gaps);
    std::vector<ViewRow> out;
    for (size_t k = 0; k < rows.size(); ++k) {
        const cv::Rect& c = rows[k].rect;
        // Half the pitch around the row's centre, never past half the way to a neighbour.
        const int half = std::max(c.height / 2 + kRowMinPad, pitch / 2);
        int top = centreY(c) - half;
        int bottom = centreY(c) + (pitch > 0 ? pitch - half : half);
        if (k > 0)
            top = std::max(top, (rows[k - 1].rect.y + rows[k - 1].rect.height + c.y + 1) / 2);
        if (k + 1 < rows.size())
            bottom = std::min(bottom, (c.y + c.height + rows[k + 1].rect.y + 1) / 2);
        top = std::min(top, c.y - kRowMinPad);
        bottom = std::max(bottom, c.y + c.height + kRowMinPad);
        ViewRow row;
        row.band = cv::Rect(view.x, top, view.width, bottom - top) & view;
        row.items = rows[k].items;
        row.gapBefore = k > 0 ? gaps[k - 1] : 0;
        out.push_back(row);
    }
    return out;
}

std::vector<std::pair<int, int>> Assembler::viewColumns(const std::vector<ViewRow>& rows) const
{
    // The content's x extents, merged where less than a gutter apart.
    std::vector<std::pair<int, int>> spans;
    for (const ViewRow& row : rows) {
        for (const int i : row.items)
            spans.push_back(
                {texts()[size_t(i)].rect.x, texts()[size_t(i)].rect.x + texts()[size_t(i)].rect.width});
    }
    std::sort(spans.begin(), spans.end());
    std::vector<std::pair<int, int>> columns;
    for (const auto& s : spans) {
        if (!columns.empty() && s.first < columns.back().second + kColumnGutter)
            columns.back().second = std::max(columns.back().second, s.second);
        else
            columns.push_back(s);
    }
    return columns;
}

bool Assembler::headerBand(const ViewRow& row, int base) const
{
    return std::abs(seg::medianGray(m_s, row.band) - base) >= kHeaderContrast &&
           seg::chroma(seg::medianColour(m_s, row.band)) < kSelectedMinChroma;
}

bool Assembler::isTable(const std::vector<int>& lines, const cv::Rect& view) const
{
    std::vector<ViewRow> rows = viewRows(lines, view);
    // A header row's titles can be read as one line across the columns: the columns are the rows' below.
    if (rows.size() > 1 && headerBand(rows.front(), seg::medianGray(m_s, inset(view, 1))))
        rows.erase(rows.begin());
    if (int(rows.size()) < kTableMinRows)
        return false;
    // At one pitch: the gaps between rows (the first, maybe a header's, left out) are mostly the median.
    std::vector<int> gaps;
    for (size_t k = 2; k < rows.size(); ++k)
        gaps.push_back(rows[k].gapBefore);
    const int pitch = medianOf(gaps);
    const auto regular = std::count_if(gaps.cbegin(), gaps.cend(), [&](int g) {
        return std::abs(g - pitch) <= std::max(2.0, kRowPitchSlack * pitch);
    });
    if (pitch <= 0 || double(regular) < kRegularRowShare * double(gaps.size()))
        return false;
    // At least two columns, the second filled in most rows.
    const std::vector<std::pair<int, int>> columns = viewColumns(rows);
    if (columns.size() < 2)
        return false;
    int filled = 0;
    for (const ViewRow& row : rows) {
        filled += std::any_of(row.items.cbegin(), row.items.cend(),
                              [&](int i) {
                                  const cv::Rect& r = texts()[size_t(i)].rect;
                                  return r.x >= columns[1].first && r.x < columns[1].second;
                              })
                      ? 1
                      : 0;
    }
    return filled >= kColumnRowShare * double(rows.size());
}

bool Assembler::isProse(const std::vector<int>& lines, const cv::Rect& view) const
{
    const std::vector<ViewRow> rows = viewRows(lines, view);
    if (rows.empty())
        return false;
    int words = 0;
    for (const ViewRow& row : rows) {
        for (const int i : row.items) {
            if (readableText(texts()[size_t(i)]))
                words += int(texts()[size_t(i)].text.split(QLatin1Char(' '), Qt::SkipEmptyParts).size());
        }
    }
    // A table's rows can hold as many words (a date, a size), but in columns apart by a gutter.
    return double(words) / double(rows.size()) >= kProseWordsPerRow && !isTable(lines, view);
}

bool Assembler::wrappedText(const std::vector<int>& lines, const cv::Rect& view) const
{
    const std::vector<ViewRow> rows = viewRows(lines, view);
    if (rows.size() < 2 || !isProse(lines, view))
        return false;
    // Every row but the last runs on to near the view's right side, where the text was wrapped.
    int full = 0;
    for (size_t k = 0; k + 1 < rows.size(); ++k) {
        int right = 0;
        for (const int i : rows[k].items)
            right = std::max(right, texts()[size_t(i)].rect.x + texts()[size_t(i)].rect.width);
        full += right >= view.x + kWrappedRowReach * view.width ? 1 : 0;
    }
    return full == int(rows.size()) - 1;
}

namespace {

// "Ctrl+S", "Shift+Alt+F5", "F1": a key combination (OCR may read "Ctrl" as "Ctri" and "F1" as "Fl").
bool isKeyCombination(const QString& text)
{
    static const QRegularExpression combination(
        QStringLiteral("^((Ctr[lIi1]{0,2}|Shift|Alt|Meta|Super|Cmd)\\s*\\+\\s*)+\\S+$|^F[1-9lI][0-9]?$"),
        QRegularExpression::CaseInsensitiveOption);
    return combination.match(text.simplified()).hasMatch();
}

} // namespace

bool Assembler::hasShortcutColumn(const std::vector<int>& lines, const cv::Rect& view) const
{
    // A key combination at the end of a row, apart from its label.
    int shortcuts = 0;
    for (const ViewRow& row : viewRows(lines, view)) {
        if (row.items.size() < 2)
            continue;
        const int last = *std::max_element(row.items.cbegin(), row.items.cend(), [this](int a, int b) {
            return texts()[size_t(a)].rect.x < texts()[size_t(b)].rect.x;
        });
        shortcuts += isKeyCombination(texts()[size_t(last)].text) ? 1 : 0;
    }
    return shortcuts >= kMenuMinShortcuts;
}

int Assembler::menuRowLabel(int box, const std::vector<int>& lines) const
{
    const cv::Rect& r = m_s.boxes[size_t(box)].rect;
    if (lines.size() < 2 || r.height > kMenuRowMaxHeight)
        return -1;
    int label = lines.front();
    int keys = lines.front();
    for (const int i : lines) {
        const cv::Rect& t = texts()[size_t(i)].rect;
        label = t.x < texts()[size_t(label)].rect.x ? i : label;
        keys = t.x > texts()[size_t(keys)].rect.x ? i : keys;
    }
    const TextItem& l = texts()[size_t(label)];
    const TextItem& k = texts()[size_t(keys)];
    const int height = std::max(l.rect.height, k.rect.height);
    const bool oneRow = std::all_of(lines.cbegin(), lines.cend(),
                                    [&](int i) { return sameRow(texts()[size_t(i)].rect, l.rect); });
    const int keysEnd = k.rect.x + k.rect.width;
    if (!oneRow || !readableText(l) || !isKeyCombination(k.text) ||
        k.rect.x - (l.rect.x + l.rect.width) < kShortcutColumnGap * height ||
        r.x + r.width - keysEnd > kRowEndSlack * height)
        return -1;
    // The shortcut column: another row's key combination ends where this one does, a row or so away.
    for (size_t i = 0; i < texts().size(); ++i) {
        const TextItem& other = texts()[i];
        const int apart = std::abs(centreY(other.rect) - centreY(k.rect));
        if (int(i) != keys && std::abs(other.rect.x + other.rect.width - keysEnd) <= kShortcutColumnAlign &&
            apart >= height && apart <= kShortcutColumnReach * r.height && isKeyCombination(other.text))
            return label;
    }
    return -1;
}

void Assembler::markMenus(int maxWidth)
{
    m_isMenu.assign(m_s.boxes.size(), false);
    std::vector<bool> texted(m_s.boxes.size(), false);
    for (size_t b = 0; b < m_s.boxes.size(); ++b) {
        const cv::Rect& r = m_s.boxes[b].rect;
        const std::vector<int> lines = linesOwnedBy(int(b));
        texted[b] = std::any_of(lines.cbegin(), lines.cend(),
                                [this](int i) { return readableText(texts()[size_t(i)]); });
        m_isMenu[b] = r.width <= maxWidth && hasShortcutColumn(lines, r);
    }
    // A menu cut by separators into boxes: a box of text rows stacked on a menu's box, edge to edge, is the
    // same menu's (its rows need no key combinations of their own).
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t b = 0; b < m_s.boxes.size(); ++b) {
            if (m_isMenu[b] || !texted[b])
                continue;
            const cv::Rect& r = m_s.boxes[b].rect;
            for (size_t m = 0; m < m_s.boxes.size() && !m_isMenu[b]; ++m) {
                const cv::Rect& menu = m_s.boxes[m].rect;
                if (!m_isMenu[m] || std::abs(menu.x - r.x) > kMenuSectionAlign ||
                    std::abs(menu.x + menu.width - r.x - r.width) > kMenuSectionAlign)
                    continue;
                const int gap = std::max(menu.y - (r.y + r.height), r.y - (menu.y + menu.height));
                m_isMenu[b] = gap >= -kMenuSectionAlign && gap <= kMenuSectionGap;
            }
            grew = grew || m_isMenu[b];
        }
    }
}

void Assembler::listRows(const std::vector<int>& lines, const cv::Rect& view)
{
    // The view's inside: its border, and a scroll bar along its right edge, are no row's.
    cv::Rect inside = inset(view, 1);
    for (const cv::Rect& sb : m_s.scrollBars) {
        if (contains(view, sb, 2) && sb.x > view.x + view.width / 2)
            inside.width = std::min(inside.width, sb.x - inside.x);
    }
    std::vector<ViewRow> rows = viewRows(lines, inside);
    if (rows.empty())
        return;
    const int base = seg::medianGray(m_s, inside);
    const cv::Vec3b baseColour = seg::medianColour(m_s, inside);
    // A header row on its own band (a table's column titles) names columns; it is no item.
    if (rows.size() > 1 && headerBand(rows.front(), base))
        rows.erase(rows.begin());
    std::vector<std::pair<int, int>> columns = viewColumns(rows);
    if (columns.empty())
        return;
    // A column starts just left of its content (the first at the view's left) and ends where the next starts.
    std::vector<int> starts;
    for (size_t c = 0; c < columns.size(); ++c)
        starts.push_back(c == 0 ? inside.x : columns[c].first - kCellPad);
    starts.push_back(inside.x + inside.width);
    for (const ViewRow& row : rows) {
        const cv::Vec3b fill = seg::medianColour(m_s, row.band);
        const bool selected = seg::chroma(fill) >= kSelectedMinChroma &&
                              seg::colourDistance(fill, baseColour) >= kSelectedMinDistance;
        for (size_t c = 0; c + 1 < starts.size(); ++c) {
            const cv::Rect cell =
                cv::Rect(starts[c], row.band.y, starts[c + 1] - starts[c], row.band.height) & inside;
            std::vector<int> in;
            for (const int i : row.items) {
                const TextItem& t = texts()[size_t(i)];
                if (!readableText(t) || !centreInside(cell, t.rect))
                    continue;
                // A line read again as its words: the longer reading is the cell's.
                const bool within = std::any_of(row.items.cbegin(), row.items.cend(), [&](int j) {
                    const cv::Rect& o = texts()[size_t(j)].rect;
                    return j != i && readableText(texts()[size_t(j)]) && contains(o, t.rect) &&
                           o.area() > t.rect.area() && centreInside(cell, o);
                });
                if (!within)
                    in.push_back(i);
            }
            if (in.empty() || cell.empty())
                continue;
            Element item;
            item.rect = cell;
            item.type = ZoneType::Button; // a list item, tree item or table cell: clicked to select it
            item.label = textOf(in);
            item.confidence = 0.4 + 0.4 * meanConfidence(in) / 100.0;
            item.events = {QStringLiteral("click")};
            if (selected)
                item.state |= ZoneStateFlag::Selected;
            if (!item.label.isEmpty())
                m_out.push_back(item);
            for (const int i : in)
                m_usedText.insert(i);
        }
    }
}

} // namespace ciu::canvas::detail::assembly
