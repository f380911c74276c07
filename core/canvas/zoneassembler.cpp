#include "core/canvas/zoneassembler.h"

#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <opencv2/imgproc.hpp>
#include <set>

namespace ciu::canvas::detail {
namespace {

using seg::Segmentation;

QRect toQRect(const cv::Rect& r)
{
    return QRect(r.x, r.y, r.width, r.height);
}

cv::Rect inset(const cv::Rect& r, int d)
{
    return cv::Rect(r.x + d, r.y + d, std::max(0, r.width - 2 * d), std::max(0, r.height - 2 * d));
}

cv::Rect unite(const cv::Rect& a, const cv::Rect& b)
{
    return a | b;
}

bool centreInside(const cv::Rect& outer, const cv::Rect& inner)
{
    const cv::Point c(inner.x + inner.width / 2, inner.y + inner.height / 2);
    return outer.contains(c);
}

bool contains(const cv::Rect& outer, const cv::Rect& inner, int slack = 0)
{
    const cv::Rect grown(outer.x - slack, outer.y - slack, outer.width + 2 * slack, outer.height + 2 * slack);
    return (grown & inner) == inner;
}

bool sameRow(const cv::Rect& a, const cv::Rect& b)
{
    const int ca = a.y + a.height / 2;
    const int cb = b.y + b.height / 2;
    return std::abs(ca - cb) <= std::max(a.height, b.height) / 2;
}

// Median grey of a 3 px ring just outside `r`.
int ringGray(const Segmentation& s, const cv::Rect& r)
{
    const int top = seg::medianGray(s, cv::Rect(r.x, r.y - 4, r.width, 3));
    const int bottom = seg::medianGray(s, cv::Rect(r.x, r.y + r.height + 1, r.width, 3));
    const int left = seg::medianGray(s, cv::Rect(r.x - 4, r.y, 3, r.height));
    const int right = seg::medianGray(s, cv::Rect(r.x + r.width + 1, r.y, 3, r.height));
    std::array<int, 4> v{top, bottom, left, right};
    std::sort(v.begin(), v.end());
    return (v[1] + v[2]) / 2;
}

bool readableText(const TextItem& t)
{
    if (t.glyph) // a key's label read on its own: "+", "=" and "." are labels there
        return !t.text.isEmpty() && t.confidence >= 45;
    if (t.confidence < 30 || t.text.isEmpty())
        return false;
    int alnum = 0;
    for (const QChar c : t.text)
        alnum += c.isLetterOrNumber() ? 1 : 0;
    if (alnum <= 2 && t.confidence < (t.owner >= 0 ? 40 : 70))
        return false; // short noise: icons, arrows, parts of borders
    return alnum >= 1 && alnum * 2 >= t.text.size() - t.text.count(QLatin1Char(' '));
}

bool looksLikePassword(const QString& text)
{
    static const QRegularExpression dots(QStringLiteral("^[\\x{2022}\\x{25CF}\\x{00B7}\\*eo•°.]{3,}$"));
    return dots.match(QString(text).remove(QLatin1Char(' '))).hasMatch();
}

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

class Assembler
{
public:
    explicit Assembler(AssemblyInput& in)
        : m_in(in)
        , m_s(*in.seg)
    {
    }

    QList<Zone> run()
    {
        markScrollBars();
        classifyBoxes();
        sliders();
        tabs();
        menuBars();
        freeLabels();
        freeText();
        QList<Zone> zones;
        for (const Element& e : m_out) {
            Zone z;
            z.bounds = toQRect(e.rect);
            z.type = e.type;
            z.label = e.label;
            z.state = e.state;
            z.confidence = qBound(0.0, e.confidence, 1.0);
            z.events = e.events;
            z.isPassword = e.password;
            z.source = ZoneSource::Local;
            zones << z;
        }
        return zones;
    }

private:
    std::vector<TextItem>& texts() { return m_in.texts; }
    const std::vector<TextItem>& texts() const { return m_in.texts; }

    QString textOf(const std::vector<int>& lines) const
    {
        std::vector<int> sorted = lines;
        std::sort(sorted.begin(), sorted.end(), [this](int a, int b) {
            const cv::Rect& ra = m_in.texts[size_t(a)].rect;
            const cv::Rect& rb = m_in.texts[size_t(b)].rect;
            return sameRow(ra, rb) ? ra.x < rb.x : ra.y < rb.y;
        });
        QStringList parts;
        for (const int i : sorted) {
            if (readableText(m_in.texts[size_t(i)]))
                parts << m_in.texts[size_t(i)].text;
        }
        return cleanLabel(parts.join(QLatin1Char(' ')));
    }

    double meanConfidence(const std::vector<int>& lines) const
    {
        double sum = 0;
        int n = 0;
        for (const int i : lines) {
            if (readableText(m_in.texts[size_t(i)])) {
                sum += m_in.texts[size_t(i)].confidence;
                ++n;
            }
        }
        return n ? sum / n : 0;
    }

    std::vector<int> linesOwnedBy(int box) const
    {
        std::vector<int> result;
        for (size_t i = 0; i < m_in.texts.size(); ++i) {
            if (m_in.texts[i].owner == box)
                result.push_back(int(i));
        }
        return result;
    }

    // A free, readable text line to the right of `r` on the same row, at most `gap` px away.
    int lineRightOf(const cv::Rect& r, int gap)
    {
        int best = -1;
        for (size_t i = 0; i < texts().size(); ++i) {
            const TextItem& t = texts()[i];
            if (t.owner != -1 || m_usedText.count(int(i)) || !readableText(t))
                continue;
            const int dx = t.rect.x - (r.x + r.width);
            if (dx < 0 || dx > gap || !sameRow(r, t.rect))
                continue;
            if (best < 0 || t.rect.x < texts()[size_t(best)].rect.x)
                best = int(i);
        }
        return best;
    }

    int lineLeftOf(const cv::Rect& r, int gap)
    {
        int best = -1;
        for (size_t i = 0; i < texts().size(); ++i) {
            const TextItem& t = texts()[i];
            if (t.owner != -1 || !readableText(t))
                continue;
            const int dx = r.x - (t.rect.x + t.rect.width);
            if (dx < 0 || dx > gap)
                continue;
            const int cy = r.y + r.height / 2;
            if (cy < t.rect.y - 4 || cy > t.rect.y + t.rect.height + 4)
                continue;
            if (best < 0 || t.rect.x > texts()[size_t(best)].rect.x)
                best = int(i);
        }
        return best;
    }

    void markScrollBars()
    {
        m_hasScrollBar.assign(m_s.boxes.size(), false);
        for (const cv::Rect& sb : m_s.scrollBars) {
            int best = -1;
            for (size_t i = 0; i < m_s.boxes.size(); ++i) {
                const cv::Rect& b = m_s.boxes[i].rect;
                if (!contains(b, sb, 2) || b.area() < 2 * sb.area())
                    continue;
                // Along the inside of the right edge.
                if (std::abs((b.x + b.width) - (sb.x + sb.width)) > 5)
                    continue;
                if (best < 0 || b.area() < m_s.boxes[size_t(best)].rect.area())
                    best = int(i);
            }
            if (best >= 0)
                m_hasScrollBar[size_t(best)] = true;
        }
    }

    // Rows of text starting at the same x (a list or a menu).
    bool isStackedList(const std::vector<int>& lines, int minRows) const
    {
        if (int(lines.size()) < minRows)
            return false;
        int rows = 1;
        std::vector<cv::Rect> rects;
        for (const int i : lines)
            rects.push_back(m_in.texts[size_t(i)].rect);
        std::sort(rects.begin(), rects.end(), [](const cv::Rect& a, const cv::Rect& b) { return a.y < b.y; });
        int left = rects.front().x;
        for (const cv::Rect& r : rects)
            left = std::min(left, r.x);
        int aligned = 0;
        for (size_t i = 0; i < rects.size(); ++i) {
            if (i > 0)
                rows += sameRow(rects[i - 1], rects[i]) ? 0 : 1;
            aligned += rects[i].x - left <= 6 ? 1 : 0;
        }
        return rows >= minRows && aligned >= std::max(minRows, int(0.6 * rows));
    }

    bool partOfScrollBarOrSlider(const cv::Rect& r) const
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

    // A menu bar: a flat box whose words sit apart from each other, starting at its left.
    bool isMenuBar(const std::vector<int>& lines, const cv::Rect& bar) const
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

    void menuBarItems(const std::vector<int>& lines, const cv::Rect& bar)
    {
        for (const int i : lines) {
            const TextItem& t = texts()[size_t(i)];
            if (!readableText(t))
                continue;
            Element e;
            e.rect = cv::Rect(t.rect.x - 5, bar.y + 1, t.rect.width + 10, bar.height - 2);
            e.type = ZoneType::MenuItem;
            e.label = cleanLabel(t.text);
            e.state |= ZoneStateFlag::Collapsed;
            e.confidence = 0.55 + 0.4 * t.confidence / 100.0;
            e.events = {QStringLiteral("click"), QStringLiteral("opens_menu")};
            m_out.push_back(e);
        }
    }

    void classifyBoxes()
    {
        for (size_t bi = 0; bi < m_s.boxes.size(); ++bi) {
            const seg::Box& box = m_s.boxes[bi];
            const cv::Rect& r = box.rect;
            std::vector<int> lines = linesOwnedBy(int(bi));
            Element e;
            e.rect = r;
            const bool small = r.width <= 26 && r.height <= 26 && std::abs(r.width - r.height) <= 3;
            const cv::Rect in = inset(r, 2);
            const int interior = seg::medianGray(m_s, in);
            const int ring = ringGray(m_s, r);
            // Entry fields are white on a (slightly) darker window.
            const bool white = interior >= 253 && interior + 2 >= ring;
            if (seg::blueBorder(m_s, r) || seg::blueBorder(m_s, inset(r, 1)))
                e.state |= ZoneStateFlag::Focused;

            if (small) {
                if (partOfScrollBarOrSlider(r) || insideKey(int(bi)))
                    continue;
                const int label = lineRightOf(r, 12);
                if (label >= 0) {
                    m_usedText.insert(label);
                    const TextItem& t = texts()[size_t(label)];
                    e.type = ZoneType::CheckBox;
                    // The label's line box (glyph boxes lack the line's leading), as for free text:
                    // the toolkit's click area is indicator and label line.
                    e.rect =
                        unite(r, cv::Rect(t.rect.x - 2, t.rect.y - 4, t.rect.width + 4, t.rect.height + 8));
                    e.label = cleanLabel(t.text);
                    const bool marked = seg::stdDevGray(m_s, inset(r, 3)) > 25;
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
            const bool children = hasChildBoxes(int(bi));
            const bool singleLine = r.height <= 48 && !children;
            // A key with a centred label has no arrow (the last letter of "EXC" is not one).
            const bool centredKey = singleLine && keyShaped(m_s, int(bi)) && centredText(lines, r);
            if (singleLine && !centredKey && findArrow(m_s, r, &arrow)) {
                // The arrow is not text.
                std::erase_if(lines, [&](int i) { return (texts()[size_t(i)].rect & arrow).area() > 0; });
                e.type = ZoneType::Dropdown;
                e.label = textOf(lines);
                e.confidence = 0.6 + 0.3 * meanConfidence(lines) / 100.0;
                e.events = {QStringLiteral("click"), QStringLiteral("opens_menu")};
                e.state |= ZoneStateFlag::Collapsed;
            } else if (singleLine && !white && isMenuBar(lines, r)) {
                menuBarItems(lines, r);
                continue;
            } else if (singleLine && !white && r.width >= 12 * r.height) {
                // A bar with text (title bar, status bar): its text is static.
                for (const int i : lines)
                    texts()[size_t(i)].owner = -1;
                continue;
            } else if (singleLine) {
                e.label = textOf(lines);
                // A white key with a short centred label (a calculator's "7") is a button; entry fields
                // are wide, their text starts at the left.
                const bool key =
                    keyShaped(m_s, int(bi)) && (e.label.isEmpty() ? inKeyGrid(r) : centredText(lines, r));
                if (white && !key) {
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
                    if (e.label.isEmpty() && r.width > 4 * r.height + 40)
                        continue; // an empty band between lines (a tab bar's rest), not a button
                }
            } else if (m_in.menuPopup && !m_hasScrollBar[bi] && !children && r.width <= 520 &&
                       isStackedList(lines, 2)) {
                // A popup menu (often white like a list): one item per row.
                menuItems(lines, r);
                m_menus.push_back(r);
                continue;
            } else if (m_hasScrollBar[bi] || (white && !children && isStackedList(lines, 4))) {
                e.type = ZoneType::ScrollArea;
                e.events = {QStringLiteral("scroll"), QStringLiteral("click")};
                e.confidence = m_hasScrollBar[bi] ? 0.75 : 0.55;
                e.container = true;
                listItems(lines, r);
            } else if (white && !children && r.width >= 60 && lines.size() <= 4 && displayText(lines, r)) {
                // A read-only display (a calculator's): right-aligned text, no caret to type at.
                e.type = ZoneType::Static;
                e.label = textOf(lines);
                e.confidence = 0.5 + 0.3 * meanConfidence(lines) / 100.0;
            } else if (white && !children && r.width >= 60) {
                e.type = ZoneType::TextField;
                e.events = {QStringLiteral("click"), QStringLiteral("type")};
                e.label = lines.size() <= 2 ? textOf(lines) : QString();
                e.confidence = 0.6;
                e.container = false;
            } else if ((m_in.menuPopup || isStackedList(lines, 2)) && r.width <= 520 && !children &&
                       lines.size() >= 2) {
                menuItems(lines, r);
                e.container = true;
                e.type = ZoneType::Static;
                e.label.clear();
                e.confidence = 0.5;
                m_menus.push_back(r);
            } else {
                e.container = true;
                e.type = ZoneType::Static;
                e.confidence = 0.4;
                // A group box's title sits on (or just above) its top border.
                for (size_t i = 0; i < texts().size(); ++i) {
                    const TextItem& t = texts()[i];
                    if (t.owner != -1 || m_usedText.count(int(i)) || !readableText(t))
                        continue;
                    const int bottom = t.rect.y + t.rect.height;
                    if (bottom >= r.y - 10 && t.rect.y <= r.y + 4 && std::abs(t.rect.x - r.x) <= 12) {
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

    // The readable lines of a box sit around its centre (a key's or a push button's label).
    bool centredText(const std::vector<int>& lines, const cv::Rect& box) const
    {
        cv::Rect all;
        for (const int i : lines) {
            if (readableText(texts()[size_t(i)]))
                all = all.area() ? unite(all, texts()[size_t(i)].rect) : texts()[size_t(i)].rect;
        }
        if (all.area() <= 0 || all.width > 0.8 * box.width)
            return false;
        const int dx = std::abs((all.x + all.width / 2) - (box.x + box.width / 2));
        return dx <= std::max(4, box.width / 8);
    }

    // A display: its first text row is right-aligned, well away from the left edge.
    bool displayText(const std::vector<int>& lines, const cv::Rect& box) const
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
        return right <= 24 && t.x - box.x > box.width / 2;
    }

    // A glyph found as a box inside a key ("O" of "STO").
    bool insideKey(int box) const
    {
        const cv::Rect& r = m_s.boxes[size_t(box)].rect;
        for (size_t i = 0; i < m_s.boxes.size(); ++i) {
            if (int(i) != box && m_s.boxes[i].rect.area() > r.area() &&
                contains(inset(m_s.boxes[i].rect, 2), r) && keyShaped(m_s, int(i)))
                return true;
        }
        return false;
    }

    // A cell in a grid of keys: a box of its size right below or above it (tabs have none).
    bool inKeyGrid(const cv::Rect& cell) const
    {
        for (const seg::Box& b : m_s.boxes) {
            const cv::Rect& o = b.rect;
            if (std::abs(o.height - cell.height) > 6 || std::abs(o.width - cell.width) > 6 ||
                std::min(o.x + o.width, cell.x + cell.width) - std::max(o.x, cell.x) < cell.width / 2)
                continue;
            const int below = o.y - (cell.y + cell.height);
            const int above = cell.y - (o.y + o.height);
            if ((below >= -2 && below <= 10) || (above >= -2 && above <= 10))
                return true;
        }
        return false;
    }

    bool hasChildBoxes(int box) const
    {
        const cv::Rect& r = m_s.boxes[size_t(box)].rect;
        for (size_t i = 0; i < m_s.boxes.size(); ++i) {
            if (int(i) != box && contains(r, m_s.boxes[i].rect) && m_s.boxes[i].rect.height > 4)
                return true;
        }
        return false;
    }

    void listItems(const std::vector<int>& lines, const cv::Rect& list)
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

    void menuItems(const std::vector<int>& lines, const cv::Rect& menu)
    {
        // One item per row: the row spans the menu's width.
        std::vector<cv::Rect> rows;
        std::vector<QString> labels;
        std::vector<double> confidence;
        std::vector<int> sorted = lines;
        std::sort(sorted.begin(), sorted.end(),
                  [this](int a, int b) { return texts()[size_t(a)].rect.y < texts()[size_t(b)].rect.y; });
        for (const int i : sorted) {
            const TextItem& t = texts()[size_t(i)];
            if (!rows.empty() && sameRow(rows.back(), t.rect)) {
                rows.back() = unite(rows.back(), t.rect); // a shortcut on the right stays in its row
                continue;
            }
            rows.push_back(t.rect);
            labels.push_back(readableText(t) ? cleanLabel(t.text) : QString());
            confidence.push_back(t.confidence);
        }
        for (size_t k = 0; k < rows.size(); ++k) {
            if (labels[k].isEmpty())
                continue;
            const int top = k == 0 ? rows[k].y - 3 : (rows[k - 1].y + rows[k - 1].height + rows[k].y) / 2;
            const int bottom = k + 1 == rows.size() ? rows[k].y + rows[k].height + 3
                                                    : (rows[k].y + rows[k].height + rows[k + 1].y) / 2;
            Element item;
            item.rect = cv::Rect(menu.x + 1, top, menu.width - 2, bottom - top) & menu;
            item.type = ZoneType::MenuItem;
            item.label = labels[k];
            item.confidence = 0.5 + 0.4 * confidence[k] / 100.0;
            item.events = {QStringLiteral("click")};
            m_out.push_back(item);
        }
    }

    void sliders()
    {
        for (const cv::Rect& r : m_s.sliders) {
            Element e;
            e.rect = r;
            e.type = ZoneType::Slider;
            e.confidence = 0.7;
            e.events = {QStringLiteral("drag"), QStringLiteral("click"), QStringLiteral("scroll")};
            const int label = lineLeftOf(r, 40);
            if (label >= 0)
                e.label = cleanLabel(texts()[size_t(label)].text);
            m_out.push_back(e);
        }
    }

    // Tabs: cells side by side on top of a long horizontal line (the page's top border). The current
    // tab is open at the bottom, merged with the page.
    void tabs()
    {
        auto onPageLine = [this](const cv::Rect& cell, int bottom) {
            const int w = std::max(cell.width, 30);
            return seg::horizontalEdgeAt(m_s, bottom, cell.x + cell.width, cell.x + cell.width + 2 * w, 1) ||
                   seg::horizontalEdgeAt(m_s, bottom, cell.x - 2 * w, cell.x, 1);
        };
        // Closed cells: buttons found as boxes.
        std::vector<cv::Rect> tabCells;
        for (Element& e : m_out) {
            if (e.type != ZoneType::Button || e.label.isEmpty() || e.rect.height > 40)
                continue;
            if (onPageLine(e.rect, e.rect.y + e.rect.height - 1) && !inKeyGrid(e.rect)) {
                e.type = ZoneType::Tab;
                e.events = {QStringLiteral("click")};
                tabCells.push_back(e.rect);
            }
        }
        // Open cells: free text with edges left, right and above.
        for (size_t i = 0; i < texts().size(); ++i) {
            TextItem& t = texts()[i];
            if (t.owner != -1 || m_usedText.count(int(i)) || !readableText(t))
                continue;
            int found = 0;
            cv::Rect cell = seg::cellAround(m_s, t.rect, 16, &found);
            if ((found & 7) != 7 || cell.height > 44 ||
                cell.width > 8 * std::max(1, t.rect.height) + t.rect.width)
                continue;
            // The page line: the first row below the text where a line continues beside the cell.
            int bottom = -1;
            for (int y = t.rect.y + t.rect.height; y <= t.rect.y + t.rect.height + 12; ++y) {
                if (onPageLine(cell, y)) {
                    bottom = y;
                    break;
                }
            }
            if (bottom < 0)
                continue;
            bool neighbour = false;
            for (const cv::Rect& other : tabCells)
                neighbour =
                    neighbour || (sameRow(other, cell) && (std::abs(other.x - (cell.x + cell.width)) <= 4 ||
                                                           std::abs(cell.x - (other.x + other.width)) <= 4));
            if (!neighbour && (found & 8))
                continue; // a closed cell without sibling tabs: a frame around a label
            Element e;
            e.rect = cv::Rect(cell.x, cell.y, cell.width, bottom - cell.y + 1);
            e.type = ZoneType::Tab;
            e.label = cleanLabel(t.text);
            e.state |= ZoneStateFlag::Focused; // the open cell is the current tab
            e.confidence = 0.55 + 0.3 * t.confidence / 100.0;
            e.events = {QStringLiteral("click")};
            m_out.push_back(e);
            m_usedText.insert(int(i));
        }
    }

    // Menu bar titles: free text on the first row of a window's client area.
    void menuBars()
    {
        for (const cv::Rect& w : m_in.windows) {
            for (size_t i = 0; i < texts().size(); ++i) {
                const TextItem& t = texts()[i];
                if (t.owner != -1 || m_usedText.count(int(i)) || !readableText(t))
                    continue;
                if (!contains(w, t.rect) || t.rect.y > w.y + 14 || t.rect.width > 160)
                    continue;
                Element e;
                e.rect = cv::Rect(t.rect.x - 5, std::max(w.y, t.rect.y - 5), t.rect.width + 10,
                                  t.rect.height + 10);
                e.type = ZoneType::MenuItem;
                e.label = cleanLabel(t.text);
                e.state |= ZoneStateFlag::Collapsed;
                e.confidence = 0.5 + 0.4 * t.confidence / 100.0;
                e.events = {QStringLiteral("click"), QStringLiteral("opens_menu")};
                m_out.push_back(e);
                m_usedText.insert(int(i));
            }
        }
        if (!m_in.menuPopup || !m_menus.empty())
            return;
        // A popup without a detected frame: every free row is an item.
        std::vector<int> free;
        for (size_t i = 0; i < texts().size(); ++i) {
            if (texts()[i].owner == -1 && !m_usedText.count(int(i)) && readableText(texts()[i]))
                free.push_back(int(i));
        }
        if (free.empty())
            return;
        cv::Rect all = texts()[size_t(free.front())].rect;
        for (const int i : free)
            all = unite(all, texts()[size_t(i)].rect);
        menuItems(free, cv::Rect(all.x - 6, all.y - 4, all.width + 12, all.height + 8));
        for (const int i : free)
            m_usedText.insert(i);
    }

    // "Name:" left of a field names the field when the field shows no text of its own.
    void freeLabels()
    {
        for (Element& e : m_out) {
            if (e.type != ZoneType::TextField && e.type != ZoneType::Dropdown && e.type != ZoneType::Slider)
                continue;
            if (!e.label.isEmpty() && !e.password)
                continue;
            const int label = lineLeftOf(e.rect, 40);
            if (label >= 0)
                e.label = cleanLabel(texts()[size_t(label)].text);
        }
    }

    void freeText()
    {
        for (size_t i = 0; i < texts().size(); ++i) {
            const TextItem& t = texts()[i];
            if (t.owner != -1 || m_usedText.count(int(i)) || t.known || !readableText(t))
                continue;
            bool inMenu = false;
            for (const cv::Rect& m : m_menus)
                inMenu = inMenu || centreInside(m, t.rect);
            if (inMenu)
                continue;
            Element e;
            // A label's widget is a line box: glyph boxes lack the line's leading.
            e.rect = cv::Rect(t.rect.x - 2, t.rect.y - 4, t.rect.width + 4, t.rect.height + 8);
            e.type = ZoneType::Static;
            e.label = t.text.simplified();
            e.confidence = 0.3 + 0.5 * t.confidence / 100.0;
            m_out.push_back(e);
        }
    }

    AssemblyInput& m_in;
    const Segmentation& m_s;
    std::vector<Element> m_out;
    std::vector<bool> m_hasScrollBar;
    std::vector<cv::Rect> m_menus;
    std::set<int> m_usedText;
};

} // namespace

std::vector<int> textOwners(const seg::Segmentation& s)
{
    std::vector<int> owners(s.textLines.size(), -1);
    for (size_t t = 0; t < s.textLines.size(); ++t) {
        int best = -1;
        for (size_t b = 0; b < s.boxes.size(); ++b) {
            const cv::Rect& r = s.boxes[b].rect;
            if (r.width <= 26 && r.height <= 26)
                continue; // check boxes and icons hold no text
            if (!centreInside(inset(r, 1), s.textLines[t]))
                continue;
            if (best < 0 || r.area() < s.boxes[size_t(best)].rect.area())
                best = int(b);
        }
        owners[t] = best;
    }
    return owners;
}

bool readable(const TextItem& t)
{
    return readableText(t);
}

bool keyShaped(const seg::Segmentation& s, int box)
{
    const cv::Rect& r = s.boxes[size_t(box)].rect;
    if (r.height < 16 || r.height > 44 || r.width > 120 || r.width < 0.8 * r.height ||
        r.width > 3.2 * r.height)
        return false;
    for (size_t i = 0; i < s.boxes.size(); ++i) {
        // Glyph-sized boxes inside are letters ("O", "D") found as boxes.
        if (int(i) != box && contains(r, s.boxes[i].rect) && s.boxes[i].rect.height > 16 &&
            s.boxes[i].rect.area() < r.area())
            return false;
    }
    return true;
}

QString symbolFromInk(const cv::Mat& ink)
{
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
    std::vector<cv::Rect> parts;
    for (int i = 1; i < n; ++i)
        parts.emplace_back(stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP),
                           stats.at<int>(i, cv::CC_STAT_WIDTH), stats.at<int>(i, cv::CC_STAT_HEIGHT));
    std::sort(parts.begin(), parts.end(), [](const cv::Rect& a, const cv::Rect& b) { return a.y < b.y; });
    auto bar = [](const cv::Rect& r) { return r.height <= 3 && r.width >= 4 && r.width >= 3 * r.height; };
    auto dot = [](const cv::Rect& r) { return r.width <= 3 && r.height <= 3; };
    auto overlapX = [](const cv::Rect& a, const cv::Rect& b) {
        return std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x);
    };
    if (parts.size() == 1) {
        const cv::Rect& r = parts.front();
        if (bar(r))
            return QStringLiteral("-");
        if (dot(r))
            return QStringLiteral(".");
        // A plus: a full middle row and a full middle column, little else.
        if (r.width >= 7 && r.height >= 7 && std::abs(r.width - r.height) <= 2 &&
            cv::countNonZero(ink(r)) <= 0.5 * r.area()) {
            const int row = cv::countNonZero(ink(cv::Rect(r.x, r.y + r.height / 2, r.width, 1)));
            const int column = cv::countNonZero(ink(cv::Rect(r.x + r.width / 2, r.y, 1, r.height)));
            const int corners = cv::countNonZero(ink(cv::Rect(r.x, r.y, 2, 2))) +
                                cv::countNonZero(ink(cv::Rect(r.x + r.width - 2, r.y + r.height - 2, 2, 2)));
            if (row >= r.width - 1 && column >= r.height - 1 && corners == 0)
                return QStringLiteral("+");
        }
        // A parenthesis: a tall thin arc, its ends on the side away from its middle.
        if (r.height >= 8 && r.width >= 3 && r.height >= 2.5 * r.width) {
            auto meanX = [&](int y0, int y1) {
                double sum = 0;
                int n = 0;
                for (int y = y0; y < y1; ++y) {
                    for (int x = r.x; x < r.x + r.width; ++x) {
                        if (ink.at<uchar>(y, x)) {
                            sum += x;
                            ++n;
                        }
                    }
                }
                return n ? sum / n : -1.0;
            };
            const int band = std::max(1, r.height / 6);
            const double top = meanX(r.y, r.y + band);
            const double middle = meanX(r.y + r.height / 2 - band / 2, r.y + r.height / 2 + band / 2 + 1);
            const double bottom = meanX(r.y + r.height - band, r.y + r.height);
            const int topRow = cv::countNonZero(ink(cv::Rect(r.x, r.y, r.width, 1)));
            if (top >= 0 && middle >= 0 && bottom >= 0 && topRow < r.width) {
                if (top - middle >= 1.5 && bottom - middle >= 1.5)
                    return QStringLiteral("(");
                if (middle - top >= 1.5 && middle - bottom >= 1.5)
                    return QStringLiteral(")");
            }
        }
        // An asterisk: a small star raised above the middle of the key (a letter "x" sits lower).
        if (r.width >= 4 && r.width <= 9 && r.height >= 4 && r.height <= 9 &&
            std::abs(r.width - r.height) <= 2 && r.y + r.height / 2 < ink.rows / 2 - 1 &&
            r.y + r.height <= ink.rows / 2 + 1)
            return QStringLiteral("*");
        return {};
    }
    if (parts.size() == 2 && bar(parts[0]) && bar(parts[1]) &&
        overlapX(parts[0], parts[1]) >= 0.7 * std::max(parts[0].width, parts[1].width) &&
        parts[1].y - (parts[0].y + parts[0].height) <= 6)
        return QStringLiteral("=");
    if (parts.size() == 3 && dot(parts[0]) && bar(parts[1]) && dot(parts[2]) &&
        overlapX(parts[0], parts[1]) > 0 && overlapX(parts[2], parts[1]) > 0)
        return QString(QChar(0x00F7)); // ÷
    return {};
}

QList<Zone> assemble(AssemblyInput& in)
{
    return Assembler(in).run();
}

QString cleanLabel(const QString& text)
{
    QString s = text.simplified();
    // A key's label made of symbols only ("+", "=", "(", "+/-") is the label, not noise.
    if (!s.isEmpty() && s.size() <= 3 &&
        std::none_of(s.cbegin(), s.cend(), [](QChar c) { return c.isLetterOrNumber() || c.isSpace(); }))
        return s;
    // OCR noise at the ends: stray bars, quotes and dots that are borders or icons.
    static const QRegularExpression edges(
        QStringLiteral("^[|!_~`'\",.;\\[\\]{}()<>=\\-—–]+\\s*|\\s*[|_~`'\",;\\[\\]{}()<>=\\-—–]+$"));
    s.remove(edges);
    if (s.endsWith(QLatin1Char(':')))
        s.chop(1);
    return s.trimmed();
}

} // namespace ciu::canvas::detail
