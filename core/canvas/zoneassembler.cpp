#include "core/canvas/zoneassembler.h"

#include "core/canvas/zoneassembler_p.h"

#include <QRegularExpression>

#include <algorithm>
#include <array>
#include <functional>
#include <opencv2/imgproc.hpp>
#include <set>

namespace ciu::canvas::detail {
namespace assembly {

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

bool contains(const cv::Rect& outer, const cv::Rect& inner, int slack)
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

std::vector<int> sideGrays(const Segmentation& s, const cv::Rect& r)
{
    const cv::Rect image(0, 0, s.gray.cols, s.gray.rows);
    std::vector<int> sides;
    for (const cv::Rect& strip :
         {cv::Rect(r.x, r.y - 4, r.width, 3), cv::Rect(r.x, r.y + r.height + 1, r.width, 3),
          cv::Rect(r.x - 4, r.y, 3, r.height), cv::Rect(r.x + r.width + 1, r.y, 3, r.height)}) {
        if ((strip & image) == strip)
            sides.push_back(seg::medianGray(s, strip));
    }
    return sides;
}

bool isCaption(const TextItem& t)
{
    return t.text.trimmed().endsWith(QLatin1Char(':'));
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

Element menuItemElement(const cv::Rect& rect, const TextItem& t, double base)
{
    Element e;
    e.rect = rect;
    e.type = ZoneType::MenuItem;
    e.label = cleanLabel(t.text);
    e.state |= ZoneStateFlag::Collapsed;
    e.confidence = base + 0.4 * t.confidence / 100.0;
    e.events = {QStringLiteral("click"), QStringLiteral("opens_menu")};
    return e;
}

int medianOf(std::vector<int> v)
{
    if (v.empty())
        return 0;
    std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
    return v[v.size() / 2];
}

Element iconButton(const cv::Rect& rect)
{
    Element e;
    e.rect = rect;
    e.type = ZoneType::Button;
    e.confidence = 0.45;
    e.events = {QStringLiteral("click")};
    return e;
}

bool looksLikePassword(const QString& text)
{
    static const QRegularExpression dots(QStringLiteral("^[\\x{2022}\\x{25CF}\\x{00B7}\\*eo•°.]{3,}$"));
    return dots.match(QString(text).remove(QLatin1Char(' '))).hasMatch();
}

Assembler::Assembler(AssemblyInput& in)
    : m_in(in)
    , m_s(*in.seg)
{
}

QList<Zone> Assembler::run()
{
    markScrollBars();
    textGrids();
    classifyBoxes();
    dropDownArrows();
    sliders();
    scrollBars();
    tabs();
    menuBars();
    freeLabels();
    iconRows();
    iconPairs();
    freeText();
    QList<Zone> zones;
    for (const Element& e : m_out) {
        Zone z;
        z.bounds = toQRect(e.rect);
        z.type = e.type;
        z.label = e.label;
        if (!z.label.isEmpty())
            z.labelSource = LabelSource::Ocr;
        z.state = e.state;
        z.confidence = qBound(0.0, e.confidence, 1.0);
        z.events = e.events;
        z.isPassword = e.password;
        z.source = ZoneSource::Local;
        zones << z;
    }
    return zones;
}

QString Assembler::textOf(const std::vector<int>& lines) const
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

double Assembler::meanConfidence(const std::vector<int>& lines) const
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

std::vector<int> Assembler::linesOwnedBy(int box) const
{
    std::vector<int> result;
    for (size_t i = 0; i < m_in.texts.size(); ++i) {
        if (m_in.texts[i].owner == box)
            result.push_back(int(i));
    }
    return result;
}

int Assembler::lineRightOf(const cv::Rect& r, int gap)
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

int Assembler::lineLeftOf(const cv::Rect& r, int gap)
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

// A scroll bar's pieces lie in one column, their sides within this many pixels: the segmenter's narrow tall
// strips (its groove, its thumb) at most the gap apart, and boxes without text touching them (its arrows, a
// groove's end above or below the thumb, too short for a strip), at most the touch gap apart.
constexpr int kScrollBarAlign = 3;
constexpr int kScrollBarPieceGap = 24;
constexpr int kScrollBarTouch = 2;
// A horizontal scroll bar's groove or thumb: a flat box without text, this tall and this many times wider.
// Alone it is as likely a field or a progress bar: it is a scroll bar where it ends at a vertical one's
// column just below it, a scrolled view's corner.
constexpr int kFlatBarMinHeight = 8;
constexpr int kFlatBarMaxHeight = 20;
constexpr int kFlatBarMinAspect = 4;

void Assembler::joinScrollBarPieces()
{
    std::vector<cv::Rect> pieces = m_s.scrollBars;
    std::sort(pieces.begin(), pieces.end(), [](const cv::Rect& a, const cv::Rect& b) { return a.y < b.y; });
    const auto inColumn = [](const cv::Rect& bar, const cv::Rect& r) {
        return std::abs(bar.x - r.x) <= kScrollBarAlign &&
               std::abs((bar.x + bar.width) - (r.x + r.width)) <= kScrollBarAlign;
    };
    m_scrollBars.clear();
    for (const cv::Rect& piece : pieces) {
        const auto bar = std::find_if(m_scrollBars.begin(), m_scrollBars.end(), [&](const cv::Rect& b) {
            return inColumn(b, piece) && piece.y <= b.y + b.height + kScrollBarPieceGap;
        });
        if (bar == m_scrollBars.end())
            m_scrollBars.push_back(piece);
        else
            *bar |= piece;
    }
    m_partOfScrollBar.assign(m_s.boxes.size(), false);
    std::vector<cv::Rect> flatBars;
    for (size_t i = 0; i < m_s.boxes.size(); ++i) {
        const cv::Rect& r = m_s.boxes[i].rect;
        if (r.height < kFlatBarMinHeight || r.height > kFlatBarMaxHeight ||
            r.width < kFlatBarMinAspect * r.height)
            continue;
        const int right = r.x + r.width;
        const bool corner = std::any_of(m_scrollBars.cbegin(), m_scrollBars.cend(), [&](const cv::Rect& v) {
            const int bottom = v.y + v.height;
            return r.x < v.x && right >= v.x - kScrollBarPieceGap &&
                   right <= v.x + v.width + kScrollBarAlign && r.y >= bottom - kScrollBarAlign &&
                   r.y <= bottom + kScrollBarPieceGap;
        });
        if (corner && linesOwnedBy(int(i)).empty() && !baseInterior(r)) {
            m_partOfScrollBar[i] = true;
            flatBars.push_back(r);
        }
    }
    // Its other pieces lie in its row: a thumb cut by its grip, the arrows.
    for (cv::Rect& bar : flatBars) {
        absorbPieces(bar, [](const cv::Rect& b, const cv::Rect& r) {
            const int gap = std::max(r.x - (b.x + b.width), b.x - (r.x + r.width));
            return std::abs(r.y - b.y) <= kScrollBarAlign &&
                   std::abs((r.y + r.height) - (b.y + b.height)) <= kScrollBarAlign &&
                   gap <= kScrollBarPieceGap;
        });
    }
    for (cv::Rect& bar : m_scrollBars) {
        absorbPieces(bar, [&inColumn](const cv::Rect& b, const cv::Rect& r) {
            const int gap = std::max(r.y - (b.y + b.height), b.y - (r.y + r.height));
            return inColumn(b, r) && gap <= kScrollBarTouch;
        });
    }
    m_scrollBars.insert(m_scrollBars.end(), flatBars.cbegin(), flatBars.cend());
}

void Assembler::absorbPieces(cv::Rect& bar,
                             const std::function<bool(const cv::Rect&, const cv::Rect&)>& joins)
{
    for (bool grew = true; grew;) {
        grew = false;
        for (size_t i = 0; i < m_s.boxes.size(); ++i) {
            const cv::Rect& r = m_s.boxes[i].rect;
            if (m_partOfScrollBar[i] || !joins(bar, r) || !linesOwnedBy(int(i)).empty())
                continue;
            m_partOfScrollBar[i] = true;
            bar |= r;
            grew = true;
        }
    }
}

void Assembler::markScrollBars()
{
    joinScrollBarPieces();
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

void Assembler::sliders()
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

void Assembler::scrollBars()
{
    for (const cv::Rect& r : m_scrollBars) {
        Element e;
        e.rect = r;
        e.type = ZoneType::ScrollArea;
        e.confidence = 0.7;
        e.events = {QStringLiteral("scroll"), QStringLiteral("drag"), QStringLiteral("click")};
        m_out.push_back(e);
    }
}

// Tabs in one row touch (at most this many pixels between one's side and the next's) and are about as tall
// (the current one a little taller): heights differ by at most the slack or the larger height / the divisor.
constexpr int kTabNeighbourGap = 4;
constexpr int kTabHeightSlack = 4;
constexpr int kTabHeightSlackDivisor = 4;

void Assembler::tabs()
{
    auto onPageLine = [this](const cv::Rect& cell, int bottom) {
        const int w = std::max(cell.width, 30);
        return seg::horizontalEdgeAt(m_s, bottom, cell.x + cell.width, cell.x + cell.width + 2 * w, 1) ||
               seg::horizontalEdgeAt(m_s, bottom, cell.x - 2 * w, cell.x, 1);
    };
    // Closed cells: buttons found as boxes whose bottom edge runs on beside them, the page's top line (tabs
    // above a page; below one, a box's top edge on a line is as often a table's row under its header: those
    // are found beside the current tab, below).
    for (Element& e : m_out) {
        if (e.type != ZoneType::Button || e.label.isEmpty() || e.rect.height > 40)
            continue;
        if (onPageLine(e.rect, e.rect.y + e.rect.height - 1) && !inKeyGrid(e.rect)) {
            e.type = ZoneType::Tab;
            e.events = {QStringLiteral("click")};
        }
    }
    // Tabs of one row: about as tall, side by side.
    const auto adjacent = [](const cv::Rect& a, const cv::Rect& b) {
        const int slack = std::max(kTabHeightSlack, std::max(a.height, b.height) / kTabHeightSlackDivisor);
        return sameRow(a, b) && std::abs(a.height - b.height) <= slack &&
               (std::abs(a.x - (b.x + b.width)) <= kTabNeighbourGap ||
                std::abs(b.x - (a.x + a.width)) <= kTabNeighbourGap);
    };
    // Open cells (the current tab, open to its page): free text with edges left and right, and above it
    // with the page's line below (tabs above the page) or below it with the page's line above.
    for (size_t i = 0; i < texts().size(); ++i) {
        TextItem& t = texts()[i];
        if (t.owner != -1 || m_usedText.count(int(i)) || !readableText(t))
            continue;
        int found = 0;
        cv::Rect cell = seg::cellAround(m_s, t.rect, 16, &found);
        const bool sides = (found & 3) == 3;
        if (!sides || !(found & 12) || cell.height > 44 ||
            cell.width > 8 * std::max(1, t.rect.height) + t.rect.width)
            continue;
        // The page line: the first row past the text (below it when the cell is closed above, above
        // it when closed below) where a line continues beside the cell.
        int top = -1;
        int bottom = -1;
        bool pageAbove = false;
        for (int d = 0; d <= 12 && bottom < 0; ++d) {
            if ((found & 4) && onPageLine(cell, t.rect.y + t.rect.height + d)) {
                top = cell.y;
                bottom = t.rect.y + t.rect.height + d;
            } else if ((found & 8) && onPageLine(cell, t.rect.y - 1 - d)) {
                top = t.rect.y - 1 - d;
                bottom = cell.y + cell.height - 1;
                pageAbove = true;
            }
        }
        if (bottom < 0)
            continue;
        const cv::Rect tab(cell.x, top, cell.width, bottom - top + 1);
        // A cell hanging under a box found already, its top that box's bottom edge (an icon under a tab
        // row), is none: a row's current tab is beside the others, not under them.
        const bool underBox = std::any_of(m_out.cbegin(), m_out.cend(), [&](const Element& other) {
            const cv::Rect shared = other.rect & tab;
            return shared.width > 2 && shared.height > 0 &&
                   tab.y + tab.height / 2 > other.rect.y + other.rect.height;
        });
        if (underBox)
            continue;
        // A cell closed all round is a frame around a label unless tabs found as boxes sit beside it. A
        // cell under a line (a label between a frame's lines, a table's row under its header) is no tab
        // unless it is one of a row of labelled boxes (a dock's tabs under its page, none found yet: their
        // line runs on beside the current tab only).
        bool besideTab = false;
        bool besideBox = false;
        for (const Element& other : m_out) {
            if (other.label.isEmpty() || !adjacent(other.rect, tab))
                continue;
            besideTab = besideTab || other.type == ZoneType::Tab;
            besideBox = besideBox || other.type == ZoneType::Button;
        }
        if (pageAbove ? !(besideTab || besideBox) : ((found & 15) == 15 && !besideTab))
            continue;
        Element e;
        e.rect = tab;
        e.type = ZoneType::Tab;
        e.label = cleanLabel(t.text);
        e.state |= ZoneStateFlag::Focused; // the open cell is the current tab
        e.confidence = 0.55 + 0.3 * t.confidence / 100.0;
        e.events = {QStringLiteral("click")};
        m_out.push_back(e);
        m_usedText.insert(int(i));
    }
    // The tab row goes on: labelled boxes beside a tab, one row, are tabs (a row below its page whose line
    // breaks between panes shows its line beside the current tab only).
    for (bool grew = true; grew;) {
        grew = false;
        for (Element& e : m_out) {
            if (e.type != ZoneType::Button || e.label.isEmpty() || e.rect.height > 40 || inKeyGrid(e.rect))
                continue;
            const bool besideTab = std::any_of(m_out.cbegin(), m_out.cend(), [&](const Element& tab) {
                return tab.type == ZoneType::Tab && adjacent(tab.rect, e.rect);
            });
            if (besideTab) {
                e.type = ZoneType::Tab;
                e.events = {QStringLiteral("click")};
                grew = true;
            }
        }
    }
    // Tabs come in rows: a cell alone in a window's top band is a menu bar's title drawn as a box (a classic
    // menu button, the title whose menu is open).
    for (Element& e : m_out) {
        if (e.type != ZoneType::Tab)
            continue;
        const bool inRow = std::any_of(m_out.cbegin(), m_out.cend(), [&](const Element& other) {
            return &other != &e && !other.label.isEmpty() &&
                   (other.type == ZoneType::Tab || other.type == ZoneType::Button) &&
                   adjacent(other.rect, e.rect);
        });
        if (!inRow && inWindowTopBand(e.rect)) {
            e.type = ZoneType::MenuItem;
            e.state.setFlag(ZoneStateFlag::Focused, false);
            e.state |= ZoneStateFlag::Collapsed; // as menuBars() makes a title
            e.events = {QStringLiteral("click"), QStringLiteral("opens_menu")};
        }
    }
}

// A menu bar's title is at most this wide; a wider line at a window's top ran several titles together.
constexpr int kMenuTitleMaxWidth = 160;
// Words of one title sit closer than this share of their height; titles sit further apart.
constexpr double kMenuTitleWordGap = 0.8;
constexpr size_t kMenuBarMinTitles = 2; // a menu bar shows at least this many titles

void Assembler::menuBarTitlesOf(int line, const cv::Rect& window)
{
    const TextItem& t = texts()[size_t(line)];
    // Titles read apart already (each its own line) are not read again from this one.
    const auto readApart = [&](const cv::Rect& r) {
        for (size_t i = 0; i < texts().size(); ++i) {
            const TextItem& other = texts()[i];
            if (int(i) != line && other.rect.width <= kMenuTitleMaxWidth && (other.rect & r).area() > 0)
                return true;
        }
        return false;
    };
    // The line's words in groups, a title's words close together.
    std::vector<std::vector<TextItem::Word>> groups;
    for (const TextItem::Word& w : t.words) {
        if (!groups.empty()) {
            const cv::Rect& last = groups.back().back().rect;
            if (w.rect.x - (last.x + last.width) <=
                kMenuTitleWordGap * std::max(last.height, w.rect.height)) {
                groups.back().push_back(w);
                continue;
            }
        }
        groups.push_back({w});
    }
    // A menu bar has titles side by side, each short: one group, or one too wide for a title, is a line
    // of text at the window's top (a dialog's heading), no menu bar.
    std::vector<TextItem> titles;
    for (const std::vector<TextItem::Word>& g : groups) {
        TextItem title = t;
        title.rect = g.front().rect;
        QStringList words;
        for (const TextItem::Word& w : g) {
            title.rect = unite(title.rect, w.rect);
            words << w.text;
        }
        title.text = words.join(QLatin1Char(' '));
        if (title.rect.width > kMenuTitleMaxWidth)
            return;
        titles.push_back(title);
    }
    if (titles.size() < kMenuBarMinTitles)
        return;
    for (const TextItem& title : titles) {
        const cv::Rect& r = title.rect;
        if (readApart(r) || !readableText(title))
            continue;
        m_out.push_back(menuItemElement(
            cv::Rect(r.x - 5, std::max(window.y, r.y - 5), r.width + 10, r.height + 10), title, 0.5));
    }
    m_usedText.insert(line);
}

void Assembler::menuBars()
{
    for (const cv::Rect& w : m_in.windows) {
        for (size_t i = 0; i < texts().size(); ++i) {
            const TextItem& t = texts()[i];
            // A caption at a dialog's top names the widget under it: no menu's title.
            if (t.owner != -1 || m_usedText.count(int(i)) || !readableText(t) || isCaption(t))
                continue;
            if (!contains(w, t.rect) || t.rect.y > w.y + kMenuBarBand)
                continue;
            if (t.rect.width > kMenuTitleMaxWidth) {
                menuBarTitlesOf(int(i), w);
                continue;
            }
            m_out.push_back(menuItemElement(
                cv::Rect(t.rect.x - 5, std::max(w.y, t.rect.y - 5), t.rect.width + 10, t.rect.height + 10), t,
                0.5));
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

void Assembler::freeLabels()
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

namespace {

// Icon rows (iconRows): a tool bar's flat buttons show an icon and no border. In pixels unless named
// otherwise.
constexpr int kIconMinSide = 12;             // an icon's ink, its height
constexpr int kIconMaxSide = 40;             // ... at most
constexpr double kIconMinAspect = 0.5;       // its width over its height
constexpr double kIconMaxAspect = 1.6;       // ... at most (wider ink is a word)
constexpr int kIconRowAlign = 3;             // the icons' centres of a row are this close vertically
constexpr double kIconRowHeightRatio = 1.35; // and their heights within this ratio of each other
constexpr double kIconRowMaxGap = 1.5;       // neighbours are at most this many icon heights apart
constexpr int kIconRowMinCount = 3;          // icons in a row for it to be a tool bar
constexpr double kIconWordAspect = 2.0;      // a line this many times wider than tall is words (its height
                                             // the usual line's)
constexpr int kIconMaxLetters = 2;           // an icon read as text reads as this many characters at most
constexpr double kIconLetterHeight = 1.5;    // and is this many usual lines tall at least
// A flat button is its icon with padding: its side is the icon's height times this, plus the constant.
constexpr double kIconButtonScale = 1.4;
constexpr int kIconButtonExtra = 4;
// A row's button spans its pitch when that is at most this many sides.
constexpr double kIconCellMaxWidth = 1.5;
// Small glyph icons (a flat dock's float and close glyphs, 8 to 11 px): a run of two of them is buttons too
// when nothing else is written beside it.
constexpr int kGlyphIconMinSide = 8;       // px
constexpr int kGlyphIconSlack = 2;         // px: square within this
constexpr double kGlyphRunIsolation = 3.0; // no other text this many glyph heights either side of the run

} // namespace

// Expanders (disclosureLeftOf, freeText).
constexpr int kExpanderReach = 10;     // the triangle lies at most this many line heights left of its label,
constexpr int kExpanderMinHeight = 12; // a line counted this tall at least (no ascender, no descender)
constexpr int kExpanderMinBase = 5;    // its base is at least this long
constexpr int kExpanderMinDepth = 3;   // and its point at least this far from it
constexpr int kExpanderPad = 3;        // the expander reaches this far around the triangle
constexpr int kExpanderFlatTolerance = 8;   // grey levels of the band between triangle and label
constexpr double kExpanderFlatShare = 0.97; // share of that band that is flat

void Assembler::iconRows()
{
    // The usual height of a line of words, to tell an icon read as a letter or two ("A", "=") from text.
    std::vector<int> wordHeights;
    for (const TextItem& t : texts()) {
        if (readableText(t) && t.rect.width >= kIconWordAspect * t.rect.height)
            wordHeights.push_back(t.rect.height);
    }
    const int lineHeight = medianOf(wordHeights);
    const auto iconShaped = [](const cv::Rect& r) {
        return r.height >= kIconMinSide && r.height <= kIconMaxSide && r.width >= kIconMinAspect * r.height &&
               r.width <= kIconMaxAspect * r.height;
    };
    // The row's members: ink that reads as no text (an icon) or as a letter or two far taller than the
    // words around (an icon read as "A"), free of any box and of the zones found so far; and icon-sized
    // buttons found as boxes, which join a row but are made already.
    struct Member
    {
        cv::Rect rect;
        int text = -1;    // the text item, or -1 for a button found before
        int element = -1; // that button in m_out
    };
    std::vector<Member> members;
    // A small square glyph read as no text or as one character (a cross read as "x").
    const auto smallGlyph = [](const TextItem& t) {
        return t.rect.height >= kGlyphIconMinSide && t.rect.height < kIconMinSide &&
               std::abs(t.rect.width - t.rect.height) <= kGlyphIconSlack &&
               (!readableText(t) || t.text.simplified().size() <= 1);
    };
    for (size_t i = 0; i < texts().size(); ++i) {
        const TextItem& t = texts()[i];
        if (t.owner != -1 || m_usedText.count(int(i)) || t.known || t.glyph ||
            !(iconShaped(t.rect) || smallGlyph(t)))
            continue;
        const bool tallLetters = lineHeight > 0 && t.text.simplified().size() <= kIconMaxLetters &&
                                 t.rect.height >= kIconLetterHeight * lineHeight;
        if (readableText(t) && !tallLetters && !smallGlyph(t))
            continue;
        const bool taken = std::any_of(m_out.cbegin(), m_out.cend(),
                                       [&](const Element& e) { return centreInside(e.rect, t.rect); }) ||
                           std::any_of(m_menus.cbegin(), m_menus.cend(),
                                       [&](const cv::Rect& m) { return centreInside(m, t.rect); });
        if (!taken)
            members.push_back({t.rect, int(i)});
    }
    for (size_t i = 0; i < m_out.size(); ++i) {
        const Element& e = m_out[i];
        if (e.type != ZoneType::Button || !e.label.isEmpty() || !iconShaped(e.rect))
            continue;
        const bool inMenu = std::any_of(m_menus.cbegin(), m_menus.cend(),
                                        [&](const cv::Rect& m) { return centreInside(m, e.rect); });
        if (!inMenu)
            members.push_back({e.rect, -1, int(i)});
    }
    std::sort(members.begin(), members.end(), [](const Member& a, const Member& b) {
        const int ca = a.rect.y + a.rect.height / 2;
        const int cb = b.rect.y + b.rect.height / 2;
        return std::abs(ca - cb) > kIconRowAlign ? ca < cb : a.rect.x < b.rect.x;
    });
    // Runs of neighbours: aligned, of like height (a button's box is its icon with padding), close.
    const auto neighbours = [](const Member& a, const Member& b) {
        const cv::Rect& ra = a.rect;
        const cv::Rect& rb = b.rect;
        const double ratio = double(std::max(ra.height, rb.height)) / std::min(ra.height, rb.height);
        const double maxRatio = kIconRowHeightRatio * (a.text < 0 || b.text < 0 ? kIconButtonScale : 1.0);
        const int gap = rb.x - (ra.x + ra.width);
        return std::abs((ra.y + ra.height / 2) - (rb.y + rb.height / 2)) <= kIconRowAlign &&
               ratio <= maxRatio && gap >= 0 && gap <= kIconRowMaxGap * std::max(ra.height, rb.height);
    };
    size_t start = 0;
    while (start < members.size()) {
        size_t end = start + 1;
        while (end < members.size() && neighbours(members[end - 1], members[end]))
            ++end;
        // A shorter run: small glyphs alone on their row (a dock title's buttons at its end).
        const auto glyphRun = [&] {
            if (end - start < 2)
                return false;
            cv::Rect run = members[start].rect;
            for (size_t k = start; k < end; ++k) {
                if (members[k].text < 0 || !smallGlyph(texts()[size_t(members[k].text)]))
                    return false;
                run = unite(run, members[k].rect);
            }
            const int reach = int(kGlyphRunIsolation * run.height);
            const cv::Rect around(run.x - reach, run.y, run.width + 2 * reach, run.height);
            for (size_t i = 0; i < texts().size(); ++i) {
                const cv::Rect& r = texts()[i].rect;
                const bool member = std::any_of(members.cbegin() + long(start), members.cbegin() + long(end),
                                                [&](const Member& m) { return m.text == int(i); });
                if (!member && sameRow(r, run) && (r & around).area() > 0)
                    return false;
            }
            return true;
        };
        if (int(end - start) < kIconRowMinCount && !glyphRun()) {
            start = end;
            continue;
        }
        // Centres doubled, to stay in integers.
        const auto cx2 = [&](size_t k) { return 2 * members[k].rect.x + members[k].rect.width; };
        const auto cy2 = [&](size_t k) { return 2 * members[k].rect.y + members[k].rect.height; };
        for (size_t k = start; k < end; ++k) {
            const cv::Rect& ink = members[k].rect;
            const int side = int(std::lround(kIconButtonScale * ink.height)) + kIconButtonExtra;
            // The button spans its share of the row, from halfway to the last icon's centre to halfway to the
            // next's (a row's end as far out as its other side), less a pixel between buttons; where the
            // icons lie far apart, its icon with padding.
            int right2 = k + 1 < end ? (cx2(k) + cx2(k + 1)) / 2 : 0;
            int left2 = k > start ? (cx2(k - 1) + cx2(k)) / 2 : 2 * cx2(k) - right2;
            if (k + 1 == end)
                right2 = 2 * cx2(k) - left2;
            if (right2 - left2 > 2 * kIconCellMaxWidth * side) {
                left2 = std::max(left2, cx2(k) - side);
                right2 = std::min(right2, cx2(k) + side);
            }
            const int width = right2 / 2 - left2 / 2 - 1;
            const int height = std::min(width, side);
            const cv::Rect cell(left2 / 2, (cy2(k) - height) / 2, width, height);
            if (members[k].text < 0) {
                // A button found as a box: grown to its share if the box was its icon alone.
                Element& found = m_out[size_t(members[k].element)];
                if ((cell & found.rect) == found.rect)
                    found.rect = cell;
                continue;
            }
            m_usedText.insert(members[k].text);
            m_out.push_back(iconButton(cell));
        }
        start = end;
    }
}

// Small icon buttons side by side (iconPairs): a dock's or a title bar's float and close buttons, read as one
// run of ink that is no text.
constexpr int kPairMinSide = 8;       // px: each icon's side, at least
constexpr int kPairMaxSide = 20;      // ... at most (13 px at scale 1.5)
constexpr int kPairSizeSlack = 2;     // px: icons of one group are this close in width and height
constexpr int kPairMinIcons = 2;      // icons in a group
constexpr int kPairMaxIcons = 4;      // ... at most (more are a row: iconRows)
constexpr int kPairPad = 1;           // px: a button reaches this far around its icon
constexpr int kPairFlatTolerance = 8; // grey levels: a column between two icons is flat

void Assembler::iconPairs()
{
    for (size_t i = 0; i < texts().size(); ++i) {
        const TextItem& t = texts()[i];
        const cv::Rect& r = t.rect;
        if (t.owner != -1 || m_usedText.count(int(i)) || t.known || t.glyph || readableText(t) ||
            r.height < kPairMinSide || r.height > kPairMaxSide || r.width < kPairMinIcons * r.height ||
            r.width > (kPairMaxIcons + 1) * r.height)
            continue;
        if (std::any_of(m_out.cbegin(), m_out.cend(),
                        [&](const Element& e) { return centreInside(e.rect, r); }))
            continue;
        // The ink's runs of columns, apart by flat columns.
        std::vector<std::pair<int, int>> runs;
        for (int x = r.x; x < r.x + r.width; ++x) {
            const bool flat = seg::flatShare(m_s, cv::Rect(x, r.y, 1, r.height), kPairFlatTolerance) >= 1.0;
            if (flat)
                continue;
            if (!runs.empty() && runs.back().second == x)
                runs.back().second = x + 1;
            else
                runs.push_back({x, x + 1});
        }
        if (int(runs.size()) < kPairMinIcons || int(runs.size()) > kPairMaxIcons)
            continue;
        // Square icons of one size, each its own height.
        const bool alike = std::all_of(runs.cbegin(), runs.cend(), [&](const std::pair<int, int>& run) {
            const int width = run.second - run.first;
            return std::abs(width - r.height) <= kPairSizeSlack &&
                   std::abs(width - (runs.front().second - runs.front().first)) <= kPairSizeSlack;
        });
        if (!alike)
            continue;
        for (const auto& [left, right] : runs) {
            m_out.push_back(iconButton(cv::Rect(left - kPairPad, r.y - kPairPad, right - left + 2 * kPairPad,
                                                r.height + 2 * kPairPad)));
        }
        m_usedText.insert(int(i));
    }
}

bool Assembler::disclosureLeftOf(const cv::Rect& text, cv::Rect* arrow, ZoneState* state) const
{
    const int reach = std::min(text.x, kExpanderReach * std::max(text.height, kExpanderMinHeight));
    const cv::Rect left = cv::Rect(text.x - reach, text.y - 3, reach - 1, text.height + 6) &
                          cv::Rect(0, 0, m_s.gray.cols, m_s.gray.rows);
    bool forward = false;
    bool plus = false;
    bool boxed = false; // a square with a minus or a plus, not a triangle
    if (left.width < 6)
        return false;
    if (!seg::findTriangle(m_s, left, true, arrow, &forward) ||
        std::max(arrow->width, arrow->height) < kExpanderMinBase ||
        std::min(arrow->width, arrow->height) < kExpanderMinDepth) {
        if (!seg::findPlusMinusBox(m_s, left, arrow, &plus))
            return false;
        boxed = true;
    }
    // A triangle on its own (not the corner of a frame or part of an icon): flat on both sides of it.
    const cv::Rect& a = *arrow;
    for (const cv::Rect& strip :
         {cv::Rect(a.x - 4, a.y, 2, a.height), cv::Rect(a.x + a.width + 2, a.y, 2, a.height)}) {
        if (seg::flatShare(m_s, strip, kExpanderFlatTolerance) < kExpanderFlatShare)
            return false;
    }
    // Nothing between the triangle and its label: the band between them is flat.
    const cv::Rect between(arrow->x + arrow->width + 1, text.y, text.x - arrow->x - arrow->width - 2,
                           text.height);
    if (between.width > 0 && seg::flatShare(m_s, between, kExpanderFlatTolerance) < kExpanderFlatShare)
        return false;
    // Pointing down: open; pointing right (or left, right to left): closed. A minus: open; a plus: closed.
    const bool expanded = boxed ? !plus : arrow->width >= arrow->height && forward;
    *state = (*state & ~ZoneState(ZoneStateFlag::Expanded | ZoneStateFlag::Collapsed)) |
             (expanded ? ZoneStateFlag::Expanded : ZoneStateFlag::Collapsed);
    return true;
}

void Assembler::freeText()
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
        cv::Rect arrow;
        if (disclosureLeftOf(t.rect, &arrow, &e.state)) {
            // An expander (a section's header, a tree's group): the triangle and its label, clicked to open
            // or close what it heads.
            e.rect = unite(e.rect, cv::Rect(arrow.x - kExpanderPad, arrow.y - kExpanderPad,
                                            arrow.width + 2 * kExpanderPad, arrow.height + 2 * kExpanderPad));
            e.type = ZoneType::Button;
            e.label = cleanLabel(t.text);
            e.events = {QStringLiteral("click")};
        }
        m_out.push_back(e);
    }
}

} // namespace assembly

using assembly::centreInside;
using assembly::inset;
using assembly::readableText;

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

QList<Zone> assemble(AssemblyInput& in)
{
    return assembly::Assembler(in).run();
}

QString cleanLabel(const QString& text)
{
    QString s = text.simplified();
    // A key's label made of symbols only ("+", "=", "(", "+/-") is the label, not noise.
    if (!s.isEmpty() && s.size() <= 3 &&
        std::none_of(s.cbegin(), s.cend(), [](QChar c) { return c.isLetterOrNumber() || c.isSpace(); }))
        return s;
    // OCR noise at the ends: stray bars, quotes (straight or curly) and dots that are borders or icons.
    static const QRegularExpression edges(
        QStringLiteral("^[|!_~`'\"‘’“”,.;\\[\\]{}()<>=\\-—–]+\\s*|\\s*[|_~`'\"‘’“”,;\\[\\]{}()<>=\\-—–]+$"));
    s.remove(edges);
    if (s.endsWith(QLatin1Char(':')))
        s.chop(1);
    return s.trimmed();
}

} // namespace ciu::canvas::detail
