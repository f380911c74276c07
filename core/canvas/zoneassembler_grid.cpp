// The Tier 1 zone assembler's text-grid pass: rows of monospaced text on a regular grid with no widget
// around each row (a terminal, a console, a log view) are static text, read line by line, never menu items,
// menu-bar titles or list entries. Decided by what is seen: a shared left edge, a regular row pitch and one
// character width that fits every long line.

#include "core/canvas/zoneassembler_p.h"

#include <algorithm>
#include <map>

namespace ciu::canvas::detail::assembly {
namespace {

constexpr int kMinRows = 3;         // long lines that fit the grid
constexpr int kMinLineChars = 6;    // shorter lines say little about the character width
constexpr int kMinLengthSpread = 5; // characters between the shortest and the longest fitting line

struct Row
{
    int text;
    cv::Rect rect;
    int chars;
};

// The characters of a line as drawn (a terminal's line, spaces included; trailing spaces are not drawn).
int drawnChars(const QString& text)
{
    QString s = text;
    while (!s.isEmpty() && s.back().isSpace())
        s.chop(1);
    return int(s.size());
}

} // namespace

void Assembler::textGrids()
{
    // Candidates grouped by the box holding them (-1: none). Rows of a grid share one.
    std::map<int, std::vector<Row>> groups;
    for (size_t i = 0; i < texts().size(); ++i) {
        const TextItem& t = texts()[i];
        if (t.glyph || t.known || m_usedText.count(int(i)) || !readableText(t))
            continue;
        // A label beside a small box (a check box's, a radio button's) belongs to that widget.
        bool besideIndicator = false;
        for (const seg::Box& b : m_s.boxes) {
            const cv::Rect& r = b.rect;
            besideIndicator =
                besideIndicator || (r.width <= 26 && r.height <= 26 && sameRow(r, t.rect) &&
                                    r.x + r.width <= t.rect.x && r.x + r.width >= t.rect.x - 16);
        }
        if (besideIndicator)
            continue;
        if (t.owner >= 0) {
            // Inside a box: only a box tall enough for several rows (a terminal's area, not a button).
            const cv::Rect& box = m_s.boxes[size_t(t.owner)].rect;
            if (box.height < kMinRows * 2 * std::max(8, t.rect.height))
                continue;
        }
        groups[t.owner].push_back({int(i), t.rect, drawnChars(t.text)});
    }
    for (auto& [owner, rows] : groups) {
        if (int(rows.size()) < kMinRows)
            continue;
        // The shared left edge: the one most rows start at.
        std::map<int, int> lefts;
        for (const Row& r : rows)
            ++lefts[r.rect.x];
        int left = 0;
        int best = -1;
        for (const auto& [x, n] : lefts) {
            int near = 0;
            for (const Row& r : rows)
                near += std::abs(r.rect.x - x) <= 2 ? 1 : 0;
            if (near > best) {
                best = near;
                left = x;
            }
        }
        std::vector<Row> aligned;
        for (const Row& r : rows) {
            if (std::abs(r.rect.x - left) <= 2)
                aligned.push_back(r);
        }
        if (int(aligned.size()) < kMinRows)
            continue;
        std::sort(aligned.begin(), aligned.end(),
                  [](const Row& a, const Row& b) { return a.rect.y < b.rect.y; });
        // One character width for every long line: width ≈ characters × cell.
        std::vector<double> cells;
        for (const Row& r : aligned) {
            if (r.chars >= kMinLineChars)
                cells.push_back(double(r.rect.width + 1) / r.chars);
        }
        if (int(cells.size()) < kMinRows)
            continue;
        std::nth_element(cells.begin(), cells.begin() + cells.size() / 2, cells.end());
        const double cell = cells[cells.size() / 2];
        if (cell < 4 || cell > 30)
            continue;
        // Lines of quite different lengths must fit (rows of the same few words, "Item 1", "Item 2", fit a
        // proportional font as well).
        int fitting = 0;
        int longLines = 0;
        int shortest = 0;
        int longest = 0;
        for (const Row& r : aligned) {
            if (r.chars < kMinLineChars)
                continue;
            ++longLines;
            if (std::abs(r.rect.width + 1 - r.chars * cell) > 0.6 * cell + 1)
                continue;
            shortest = fitting == 0 ? r.chars : std::min(shortest, r.chars);
            longest = std::max(longest, r.chars);
            ++fitting;
        }
        if (fitting < kMinRows || fitting * 10 < longLines * 8 || longest - shortest < kMinLengthSpread)
            continue;
        // A regular row pitch: the smallest gap between rows, every gap a multiple of it.
        int pitch = 0;
        for (size_t i = 1; i < aligned.size(); ++i) {
            const int gap = aligned[i].rect.y - aligned[i - 1].rect.y;
            if (gap > 2 && (pitch == 0 || gap < pitch))
                pitch = gap;
        }
        if (pitch < 6)
            continue;
        const int top = aligned.front().rect.y;
        const auto onRow = [&](const cv::Rect& r) {
            // Glyph boxes start a pixel or two lower on rows without ascenders.
            const int offset = (r.y - top) % pitch;
            return offset <= 3 || pitch - offset <= 3;
        };
        bool regular = true;
        for (const Row& r : aligned)
            regular = regular && onRow(r.rect);
        if (!regular)
            continue;
        // The grid: its rows, and pieces of rows that start on a character column (a split line).
        for (const Row& r : rows) {
            const double column = (r.rect.x - left) / cell;
            const bool onColumn = column > -0.3 && std::abs(column - std::round(column)) <= 0.3;
            if (!onColumn || !onRow(r.rect) || r.rect.y < top - 3 ||
                r.rect.y > aligned.back().rect.y + 3 * pitch)
                continue;
            const TextItem& t = texts()[size_t(r.text)];
            Element e;
            e.rect = cv::Rect(t.rect.x - 2, t.rect.y - 3, t.rect.width + 4, t.rect.height + 6);
            e.type = ZoneType::Static;
            e.label = t.text.simplified();
            e.confidence = 0.3 + 0.5 * t.confidence / 100.0;
            m_out.push_back(e);
            m_usedText.insert(r.text);
            texts()[size_t(r.text)].owner = kTextGridOwner; // no box classification counts it
        }
    }
}

} // namespace ciu::canvas::detail::assembly
