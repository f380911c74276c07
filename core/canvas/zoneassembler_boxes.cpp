// The zone assembler's classification of the segmenter's boxes: buttons, keys, fields, check boxes, lists,
// menus and the rest, each with its label (see zoneassembler_p.h).

#include "core/canvas/glyphrecognizer.h"
#include "core/canvas/zoneassembler_p.h"

#include <algorithm>
#include <array>
#include <opencv2/imgproc.hpp>

namespace ciu::canvas::detail::assembly {

bool Assembler::isStackedList(const std::vector<int>& lines, int minRows) const
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

void Assembler::classifyBoxes()
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
                e.rect = unite(r, cv::Rect(t.rect.x - 2, t.rect.y - 4, t.rect.width + 4, t.rect.height + 8));
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

bool Assembler::centredText(const std::vector<int>& lines, const cv::Rect& box) const
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
    return right <= 24 && t.x - box.x > box.width / 2;
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

bool Assembler::hasChildBoxes(int box) const
{
    const cv::Rect& r = m_s.boxes[size_t(box)].rect;
    for (size_t i = 0; i < m_s.boxes.size(); ++i) {
        if (int(i) != box && contains(r, m_s.boxes[i].rect) && m_s.boxes[i].rect.height > 4)
            return true;
    }
    return false;
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

void Assembler::menuItems(const std::vector<int>& lines, const cv::Rect& menu)
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

} // namespace ciu::canvas::detail::assembly
