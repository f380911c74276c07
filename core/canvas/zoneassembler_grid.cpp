// The Tier 1 zone assembler's text-grid pass: rows of monospaced text on a regular grid with no widget
// around each row (a terminal, a console, a log view) are static text, read row by row, never menu items,
// menu-bar titles or list entries. Decided by what is seen: words whose widths fit one character width,
// starting on the columns of one character grid, on rows of one pitch.

#include "core/canvas/zoneassembler_p.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ciu::canvas::detail::assembly {
namespace {

constexpr int kMinRows = 3;          // rows of text on the grid
constexpr int kMinMultiWordRows = 2; // rows with several words: their columns are the grid's evidence
constexpr int kMinFitWords = 5;      // words of 3+ characters whose widths fit the character width
constexpr int kMinLengthSpread = 2;  // characters between the shortest and the longest of them
constexpr double kColumnSlack = 0.3; // of a character: how far a word may start off a column
constexpr int kMaxWords = 400;
constexpr int kHeaderMinSections = 2; // boxes along a box's top edge that make a table's header
constexpr int kHeaderSlack = 3;       // px: how far a section's top may lie below the box's

struct Word
{
    int text;
    cv::Rect rect;
    int chars;
};

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
}

} // namespace

void Assembler::textGrids()
{
    // Candidates grouped by the box holding them (-1: none). A grid's words share one.
    std::map<int, std::vector<Word>> groups;
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
        groups[t.owner].push_back({int(i), t.rect, int(t.text.trimmed().size())});
    }
    // A table's header: sections side by side along the top of its view (the box holding the rows, or one
    // holding that box). A terminal has none, however evenly a table's columns fall.
    const auto headed = [this](const cv::Rect& r) {
        int sections = 0;
        for (const seg::Box& b : m_s.boxes) {
            sections += b.rect != r && contains(r, b.rect) && b.rect.y - r.y <= kHeaderSlack &&
                                b.rect.width > b.rect.height
                            ? 1
                            : 0;
        }
        return sections >= kHeaderMinSections;
    };
    const auto hasHeader = [&](int box) {
        if (box < 0)
            return false;
        const cv::Rect& rows = m_s.boxes[size_t(box)].rect;
        return std::any_of(m_s.boxes.cbegin(), m_s.boxes.cend(),
                           [&](const seg::Box& b) { return contains(b.rect, rows) && headed(b.rect); });
    };
    for (auto& [owner, words] : groups) {
        if (int(words.size()) < kMinRows || int(words.size()) > kMaxWords || hasHeader(owner))
            continue;
        // The character width: the slope of width over length (words' boxes carry a constant margin).
        std::vector<double> slopes;
        for (size_t a = 0; a < words.size(); ++a) {
            for (size_t b = a + 1; b < words.size(); ++b) {
                const int dn = words[a].chars - words[b].chars;
                if (std::abs(dn) >= 2 && words[a].chars >= 3 && words[b].chars >= 3)
                    slopes.push_back(double(words[a].rect.width - words[b].rect.width) / dn);
            }
        }
        double cell = median(slopes);
        if (cell < 4 || cell > 30)
            continue;
        std::vector<double> margins;
        for (const Word& w : words) {
            if (w.chars >= 3)
                margins.push_back(w.rect.width - w.chars * cell);
        }
        const double margin = median(margins);
        int fitting = 0;
        int sized = 0;
        int shortest = 0;
        int longest = 0;
        for (const Word& w : words) {
            if (w.chars < 3)
                continue;
            ++sized;
            if (std::abs(w.rect.width - (w.chars * cell + margin)) > 0.5 * cell + 1)
                continue;
            shortest = fitting == 0 ? w.chars : std::min(shortest, w.chars);
            longest = std::max(longest, w.chars);
            ++fitting;
        }
        if (fitting < kMinFitWords || fitting * 10 < sized * 8 || longest - shortest < kMinLengthSpread)
            continue;
        // Rows ending in key combinations are a menu's, however evenly its short words fall.
        std::vector<int> lines;
        cv::Rect area = words.front().rect;
        for (const Word& w : words) {
            lines.push_back(w.text);
            area = unite(area, w.rect);
        }
        if (hasShortcutColumn(lines, area))
            continue;

        // Rows: words side by side; each row's top on one pitch.
        std::sort(words.begin(), words.end(), [](const Word& a, const Word& b) {
            return sameRow(a.rect, b.rect) ? a.rect.x < b.rect.x : a.rect.y < b.rect.y;
        });
        std::vector<std::vector<Word>> rows;
        for (const Word& w : words) {
            if (!rows.empty() && sameRow(rows.back().front().rect, w.rect))
                rows.back().push_back(w);
            else
                rows.push_back({w});
        }
        if (int(rows.size()) < kMinRows)
            continue;
        // The columns: every word starts on one of them, counted from the leftmost start. Words far to the
        // right tell the character width best.
        int left = words.front().rect.x;
        for (const Word& w : words)
            left = std::min(left, w.rect.x);
        std::vector<double> spans;
        for (const Word& w : words) {
            const long column = std::lround((w.rect.x - left) / cell);
            if (column >= 4)
                spans.push_back(double(w.rect.x - left) / double(column));
        }
        if (!spans.empty())
            cell = median(spans);
        int onColumn = 0;
        for (const Word& w : words) {
            const double column = (w.rect.x - left) / cell;
            onColumn += std::abs(column - std::round(column)) <= kColumnSlack ? 1 : 0;
        }
        int multiWord = 0;
        for (const auto& row : rows)
            multiWord += row.size() >= 2 ? 1 : 0;
        if (onColumn * 10 < int(words.size()) * 8 || multiWord < kMinMultiWordRows)
            continue;
        std::vector<int> tops;
        for (const auto& row : rows) {
            int top = row.front().rect.y;
            for (const Word& w : row)
                top = std::min(top, w.rect.y);
            tops.push_back(top);
        }
        // The row pitch: the typical gap between rows; every gap a whole number of rows (blank lines).
        std::vector<double> gaps;
        for (size_t i = 1; i < tops.size(); ++i)
            gaps.push_back(tops[i] - tops[i - 1]);
        const double pitch = median(gaps);
        if (pitch < 6)
            continue;
        const bool regular = std::all_of(gaps.cbegin(), gaps.cend(), [pitch](double gap) {
            const double rowsApart = gap / pitch;
            return rowsApart >= 0.75 && std::abs(gap - std::round(rowsApart) * pitch) <= 0.2 * pitch + 1;
        });
        if (!regular)
            continue;

        // A grid: one static zone per row, its words in reading order.
        for (const auto& row : rows) {
            cv::Rect box = row.front().rect;
            QStringList parts;
            double confidence = 0;
            for (const Word& w : row) {
                box = unite(box, w.rect);
                parts << texts()[size_t(w.text)].text.simplified();
                confidence += texts()[size_t(w.text)].confidence;
                m_usedText.insert(w.text);
                texts()[size_t(w.text)].owner = kTextGridOwner; // no box classification counts it
            }
            Element e;
            e.rect = cv::Rect(box.x - 2, box.y - 3, box.width + 4, box.height + 6);
            e.type = ZoneType::Static;
            e.label = parts.join(QLatin1Char(' '));
            e.confidence = 0.3 + 0.5 * confidence / double(row.size()) / 100.0;
            m_out.push_back(e);
        }
    }
}

} // namespace ciu::canvas::detail::assembly
