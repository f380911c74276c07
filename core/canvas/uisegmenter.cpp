#include "core/canvas/uisegmenter.h"

#include "core/model/geometry.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <opencv2/imgproc.hpp>

namespace ciu::canvas::seg {
namespace {

cv::Rect clipped(const cv::Rect& r, const cv::Mat& m)
{
    return r & cv::Rect(0, 0, m.cols, m.rows);
}

uchar medianOf(std::vector<uchar>& v)
{
    std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
    return v[v.size() / 2];
}

// Two boxes found for one border: their sides a few pixels apart at most.
bool sameBox(const cv::Rect& a, const cv::Rect& b)
{
    return std::abs(a.x - b.x) <= 3 && std::abs(a.y - b.y) <= 3 && std::abs(a.width - b.width) <= 4 &&
           std::abs(a.height - b.height) <= 4;
}

// Pixels on the image border would close every contour that touches it.
void clearBorder(cv::Mat& m)
{
    m.row(0).setTo(0);
    m.row(m.rows - 1).setTo(0);
    m.col(0).setTo(0);
    m.col(m.cols - 1).setTo(0);
}

// Contour boxes: closed border lines give an outer contour and a hole, both rectangular. The outer
// contour of a glyph is rejected because its hole (if any) is tiny.
std::vector<Box> findBoxes(const cv::Mat& edges, const Params& p)
{
    std::vector<std::vector<cv::Point>> contours;
    std::vector<cv::Vec4i> hierarchy;
    cv::findContours(edges.clone(), contours, hierarchy, cv::RETR_CCOMP, cv::CHAIN_APPROX_SIMPLE);
    std::vector<Box> boxes;
    for (size_t i = 0; i < contours.size(); ++i) {
        const cv::Rect r = cv::boundingRect(contours[i]);
        if (r.width < p.minBox - 2 || r.height < p.minBox - 2)
            continue;
        const bool hole = hierarchy[i][3] >= 0;
        // Contour polygons run through pixel centres: compare with the centre-to-centre box.
        const double fill =
            cv::contourArea(contours[i]) / double(std::max(1, (r.width - 1) * (r.height - 1)));
        Box box;
        box.fromHole = hole;
        if (hole) {
            // A hole's contour runs through the band's inner pixels, one pixel inside a one-pixel line.
            box.rect = cv::Rect(r.x - 1, r.y - 1, r.width + 2, r.height + 2);
        } else {
            box.rect = cv::Rect(r.x + 1, r.y + 1, r.width - 2, r.height - 2);
            // Hollow: the largest hole must be a good part of the box.
            double largestHole = 0;
            for (int c = hierarchy[i][2]; c >= 0; c = hierarchy[size_t(c)][0])
                largestHole = std::max(largestHole, double(cv::boundingRect(contours[size_t(c)]).area()));
            // A check mark splits a small box's interior: a smaller hole will do for a square.
            const bool smallSquare = r.width <= 28 && r.height <= 28 && std::abs(r.width - r.height) <= 2;
            if (largestHole < (smallSquare ? 0.12 : 0.25) * r.area())
                continue;
        }
        if (box.rect.width < p.minBox || box.rect.height < p.minBox)
            continue;
        const bool small = box.rect.width <= 30 && box.rect.height <= 30;
        if (fill >= 0.9) {
            box.circular = false;
        } else if (small && fill >= 0.68 && std::abs(box.rect.width - box.rect.height) <= 2) {
            box.circular = true;
        } else {
            // Not a rectangle; a polygon with exactly four corners still is one (e.g. a notch).
            std::vector<cv::Point> poly;
            cv::approxPolyDP(contours[i], poly, 0.01 * cv::arcLength(contours[i], true), true);
            if (poly.size() != 4 || fill < 0.8)
                continue;
        }
        boxes.push_back(box);
    }
    // Outer contour and hole of the same border describe one box.
    std::sort(boxes.begin(), boxes.end(), [](const Box& a, const Box& b) {
        if (a.rect.area() != b.rect.area())
            return a.rect.area() > b.rect.area();
        return !a.fromHole && b.fromHole;
    });
    std::vector<Box> unique;
    for (const Box& b : boxes) {
        bool duplicate = false;
        for (const Box& u : unique) {
            if (sameBox(u.rect, b.rect) || iou(u.rect, b.rect) >= 0.85) {
                duplicate = true;
                break;
            }
        }
        if (!duplicate)
            unique.push_back(b);
    }
    return unique;
}

// The four sides of a box as grey levels, for a box too faint for the edge threshold: each side sampled along
// its middle, on its outline or the line just inside, whichever stands further out of the box's fill
// (`base`). `grey`: every side is a shade of grey (an icon's lit edge is coloured).
struct FaintSides
{
    int base = 0;
    int top = 0;
    int left = 0;
    int bottom = 0;
    int right = 0;
    bool grey = true;
    int spread = 0; // the most the levels along one side's sampled line vary (a glyph it crosses)
};

FaintSides faintSides(const Segmentation& s, const cv::Rect& r, const Params& p)
{
    FaintSides f;
    f.base = medianGray(s, cv::Rect(r.x + 3, r.y + 3, r.width - 6, r.height - 6));
    const auto side = [&](bool horizontal, int at, int step) {
        // The middle 60 % of the side, at `at` and one line inwards (`step`).
        int best = 0;
        int bestSpread = 0;
        for (int k = 0; k < 2; ++k) {
            const int line = at + k * step;
            const cv::Rect strip = horizontal ? cv::Rect(r.x + r.width / 5, line, r.width * 3 / 5, 1)
                                              : cv::Rect(line, r.y + r.height / 5, 1, r.height * 3 / 5);
            const int level = int(cv::mean(s.gray(strip))[0]);
            double lo = 0;
            double hi = 0;
            cv::minMaxLoc(s.gray(strip), &lo, &hi);
            if (k == 0 || std::abs(level - f.base) > std::abs(best - f.base)) {
                best = level;
                bestSpread = int(hi - lo);
            }
            const cv::Scalar colour = cv::mean(s.bgra(strip));
            f.grey = f.grey && chroma(cv::Vec3b(cv::saturate_cast<uchar>(colour[0]),
                                                cv::saturate_cast<uchar>(colour[1]),
                                                cv::saturate_cast<uchar>(colour[2]))) <= p.bevelMaxChroma;
        }
        f.spread = std::max(f.spread, bestSpread);
        return best;
    };
    f.top = side(true, r.y, 1);
    f.left = side(false, r.x, 1);
    f.bottom = side(true, r.y + r.height - 1, -1);
    f.right = side(false, r.x + r.width - 1, -1);
    return f;
}

// A faint box that is a widget's outline: bevelled (the Windows, Motif and Tk styles: two adjacent sides lit
// and the other two shaded, well apart: raised, lit top and left, or sunken, shaded top and left), or every
// side an even line standing out of the fill, lit and shaded ones both (a tab of those styles: its lit top
// and the pane's lit edge under it, its shaded sides; a flat theme's faint cells are shaded all round; a side
// that crosses a glyph is no line).
bool isFaintOutline(const Segmentation& s, const cv::Rect& r, const Params& p)
{
    if (r.width < 8 || r.height < 8 || clipped(r, s.gray) != r)
        return false;
    const FaintSides f = faintSides(s, r, p);
    const int step = 2 * p.bevelMinStep;
    const bool raised = std::min(f.top, f.left) >= std::max(f.bottom, f.right) + step;
    const bool sunken = std::max(f.top, f.left) + step <= std::min(f.bottom, f.right);
    const std::array<int, 4> sides = {f.top, f.left, f.bottom, f.right};
    const bool outlined =
        f.spread <= p.bevelMinStep &&
        std::all_of(sides.cbegin(), sides.cend(),
                    [&](int level) { return std::abs(level - f.base) >= step; }) &&
        std::any_of(sides.cbegin(), sides.cend(), [&](int level) { return level >= f.base + step; }) &&
        std::any_of(sides.cbegin(), sides.cend(), [&](int level) { return level + step <= f.base; });
    return f.grey && (raised || sunken || outlined);
}

// A slider: a long thin track with a handle standing out of it.
bool isSlider(const cv::Mat& edges, const cv::Rect& r)
{
    if (r.width < 40 || r.height < 8 || r.height > 32 || r.width < 5 * r.height)
        return false;
    const cv::Mat roi = edges(r);
    std::vector<int> extent(size_t(r.width), 0);
    for (int x = 0; x < r.width; ++x)
        extent[size_t(x)] = cv::countNonZero(roi.col(x));
    std::vector<int> sorted = extent;
    std::nth_element(sorted.begin(), sorted.begin() + long(sorted.size() / 2), sorted.end());
    const int med = sorted[sorted.size() / 2];
    if (med > 0.6 * r.height || med == 0)
        return false;
    int run = 0;
    int bestRun = 0;
    for (const int e : extent) {
        run = e >= 0.7 * r.height ? run + 1 : 0;
        bestRun = std::max(bestRun, run);
    }
    // The handle's two vertical sides both reach the full height; its middle may not.
    int tall = 0;
    for (const int e : extent)
        tall += e >= 0.7 * r.height ? 1 : 0;
    return (bestRun >= 2 || tall >= 2) && tall <= 60;
}

constexpr int kRestSlack = 2;          // px: the rest of a view shares its sides and bottom within this
constexpr int kRestMinBand = 10;       // px: and starts at least this far under its top (a row's band)
constexpr int kRestFillTolerance = 8;  // grey levels: the same fill as the view's
constexpr double kRestLabelAspect = 2; // a label in the band above is this many times as wide as tall
constexpr int kRestLabelMinHeight = 7; // px, and this tall at least
constexpr int kRuleMinWidth = 60;      // px: a rule joining lines crosses a view, wider than this
constexpr double kRuleReach = 0.9;     // and this share of the lines it joins, without a gap
constexpr int kRuleMinBeyond = 5;      // rows of the component on each side of a rule that joins lines

// The bounding box of the pixels of component `label` within `area` (empty: none).
cv::Rect labelExtent(const cv::Mat& labels, int label, const cv::Rect& area)
{
    int left = area.x + area.width;
    int right = area.x - 1;
    int top = area.y + area.height;
    int bottom = area.y - 1;
    for (int y = area.y; y < area.y + area.height; ++y) {
        const int* row = labels.ptr<int>(y);
        for (int x = area.x; x < area.x + area.width; ++x) {
            if (row[x] == label) {
                left = std::min(left, x);
                right = std::max(right, x);
                top = std::min(top, y);
                bottom = std::max(bottom, y);
            }
        }
    }
    return right >= left ? cv::Rect(left, top, right - left + 1, bottom - top + 1) : cv::Rect();
}

// Rows of text joined by descenders and ascenders (a terminal's dense lines) form one component: it is
// cut where a row holds almost none of its pixels, into bands of 10 to 22 rows of similar heights. Each band
// is trimmed to the component's columns in it.
std::vector<cv::Rect> textRowBands(const cv::Mat& labels, int label, const cv::Rect& box)
{
    if (box.height <= 26) // one line, or a highlighted one with its frame
        return {box};
    std::vector<int> ink(size_t(box.height), 0);
    for (int y = 0; y < box.height; ++y) {
        const int* row = labels.ptr<int>(box.y + y) + box.x;
        for (int x = 0; x < box.width; ++x)
            ink[size_t(y)] += row[x] == label ? 1 : 0;
    }
    const int low = std::max(2, *std::max_element(ink.begin(), ink.end()) / 5);
    std::vector<int> cuts{0};
    for (int y = 0; y < box.height;) {
        if (ink[size_t(y)] > low) {
            ++y;
            continue;
        }
        int end = y;
        while (end < box.height && ink[size_t(end)] <= low)
            ++end;
        const int cut = (y + end) / 2;
        if (y > 0 && end < box.height && cut - cuts.back() >= 10 && box.height - cut >= 10)
            cuts.push_back(cut);
        y = end;
    }
    if (cuts.size() == 1)
        return {box};
    cuts.push_back(box.height);
    // Only regular rows of text: a frame or a highlight joined to text is left alone.
    int shortest = box.height;
    int tallest = 0;
    for (size_t k = 0; k + 1 < cuts.size(); ++k) {
        shortest = std::min(shortest, cuts[k + 1] - cuts[k]);
        tallest = std::max(tallest, cuts[k + 1] - cuts[k]);
    }
    if (tallest > 22 || tallest * 2 > shortest * 3)
        return {box};
    std::vector<cv::Rect> bands;
    for (size_t k = 0; k + 1 < cuts.size(); ++k) {
        const cv::Rect band(box.x, box.y + cuts[k], box.width, cuts[k + 1] - cuts[k]);
        const cv::Rect inked = labelExtent(labels, label, band);
        if (!inked.empty())
            bands.push_back(cv::Rect(inked.x, band.y, inked.width, band.height));
    }
    return bands;
}

// A component taller than a line may be lines joined by rules: the edges of a selected row's band or of a
// header row cross the whole view and touch the ascenders of the rows beside them. Rows of the component
// that its pixels cross from side to side are such rules: they are cut out, and what lies between them is
// cut into lines as above. The rules are read off the edges before the words were joined: a line of text
// leaves gaps between its letters and words.
std::vector<cv::Rect> rowBands(const cv::Mat& labels, const cv::Mat& edges, int label, const cv::Rect& box)
{
    if (box.height <= 26 || box.width < kRuleMinWidth)
        return textRowBands(labels, label, box);
    std::vector<bool> rule(size_t(box.height), false);
    for (int y = 0; y < box.height; ++y) {
        const int* row = labels.ptr<int>(box.y + y) + box.x;
        const uchar* ink = edges.ptr<uchar>(box.y + y) + box.x;
        int run = 0;
        int longest = 0;
        for (int x = 0; x < box.width; ++x) {
            run = row[x] == label && ink[x] ? run + 1 : 0;
            longest = std::max(longest, run);
        }
        rule[size_t(y)] = longest >= kRuleReach * box.width;
    }
    // Only a rule with lines on both sides joins them: the rules of a frame around one line (a checked
    // button whose border is too faint to be a box) lie at its top and bottom, and it stays one line, as a
    // highlighted line with its frame does.
    std::vector<bool> cut(size_t(box.height), false);
    bool any = false;
    for (int y = 0; y < box.height;) {
        if (!rule[size_t(y)]) {
            ++y;
            continue;
        }
        int end = y;
        while (end < box.height && rule[size_t(end)])
            ++end;
        if (y >= kRuleMinBeyond && box.height - end >= kRuleMinBeyond) {
            std::fill(cut.begin() + y, cut.begin() + end, true);
            any = true;
        }
        y = end;
    }
    if (!any)
        return textRowBands(labels, label, box);
    std::vector<cv::Rect> bands;
    for (int y = 0; y < box.height;) {
        if (cut[size_t(y)]) {
            ++y;
            continue;
        }
        int end = y;
        while (end < box.height && !cut[size_t(end)])
            ++end;
        // The piece between two rules, trimmed to its pixels.
        const cv::Rect piece = labelExtent(labels, label, cv::Rect(box.x, box.y + y, box.width, end - y));
        if (!piece.empty()) {
            for (const cv::Rect& band : textRowBands(labels, label, piece))
                bands.push_back(band);
        }
        y = end;
    }
    return bands;
}

std::vector<cv::Rect> findSliders(const cv::Mat& edges, const std::vector<Box>& boxes)
{
    std::vector<std::vector<cv::Point>> contours;
    std::vector<cv::Vec4i> hierarchy;
    cv::findContours(edges.clone(), contours, hierarchy, cv::RETR_CCOMP, cv::CHAIN_APPROX_SIMPLE);
    std::vector<cv::Rect> sliders;
    for (size_t i = 0; i < contours.size(); ++i) {
        if (hierarchy[i][3] >= 0)
            continue; // a hole
        const cv::Rect r = cv::boundingRect(contours[i]);
        if (!isSlider(edges, r))
            continue;
        // A slider is no box, and it never fills a button: a word with tall letters inside one ("toggle")
        // has a slider's column profile.
        constexpr int kButtonHeights = 3; // a box less than this many times the candidate's height,
        constexpr int kButtonWidths = 2;  // and less than this many times its width, is a button around it
        // Nor is a row of boxes side by side (tabs whose faint sides were drawn in): they cover most of it,
        // where a slider's handle covers a little.
        constexpr double kRowOfBoxes = 0.7;
        bool isBox = false;
        int covered = 0;
        for (const Box& b : boxes) {
            const bool around = (b.rect & r) == r && b.rect.height < kButtonHeights * r.height &&
                                b.rect.width < kButtonWidths * r.width;
            isBox = isBox || iou(b.rect, r) > 0.7 || around;
            if ((b.rect & r) == b.rect)
                covered += b.rect.area();
        }
        if (!isBox && covered < kRowOfBoxes * r.area())
            sliders.push_back(cv::Rect(r.x + 1, r.y + 1, r.width - 2, r.height - 2));
    }
    return sliders;
}

} // namespace

namespace {

// How many pixels of `c` (clipped to the image) have each grey level.
std::array<int, 256> greyHistogram(const Segmentation& s, const cv::Rect& c)
{
    std::array<int, 256> histogram{};
    for (int y = c.y; y < c.y + c.height; ++y) {
        const uchar* row = s.gray.ptr<uchar>(y);
        for (int x = c.x; x < c.x + c.width; ++x)
            ++histogram[row[x]];
    }
    return histogram;
}

constexpr int kIconInk = 40;                // grey levels off the line's background that are ink
constexpr double kIconTaller = 1.25;        // the icon is this many times as tall as the text after it
constexpr double kIconMinAspect = 0.6;      // and at least this wide for its height (a tall letter is narrow)
constexpr int kIconMinHeight = 8;           // px
constexpr int kIconMinGap = 2;              // px of background between the icon and the text
constexpr double kIconBelowBaseline = 0.15; // it reaches this share of the text's height below the baseline
constexpr int kIconMinBelowBaseline = 2;    // px, at least: a capital letter stands on the baseline
constexpr double kIconMinText = 0.5;        // the ink after it spans at least this many icon heights (text)
constexpr double kIconBorderRow = 0.9;      // share of a row's pixels inked for it to be a border, not glyphs

constexpr double kIconMinFill = 0.5; // share of its box a picture inks (a glyph's strokes ink less)
constexpr int kIconChroma = 48;      // a picture in colour: its pixels' median chroma at least this
                                     // (text is grey, or one colour: then the rest is too)

} // namespace

int leadingIconWidth(const Segmentation& s, const cv::Rect& line)
{
    const cv::Rect c = clipped(line, s.gray);
    if (c.width < 3 * kIconMinHeight || c.height < kIconMinHeight)
        return 0;
    // The background is the most frequent grey (an icon can cover more than half of a short line).
    const std::array<int, 256> histogram = greyHistogram(s, c);
    const int background = int(std::max_element(histogram.cbegin(), histogram.cend()) - histogram.cbegin());
    cv::Mat diff, ink;
    cv::absdiff(s.gray(c), cv::Scalar(background), diff);
    cv::threshold(diff, ink, kIconInk, 255, cv::THRESH_BINARY);
    // A row inked across the line (a selection's or a cell's border crossing it) is no glyph's.
    for (int y = 0; y < ink.rows; ++y) {
        if (cv::countNonZero(ink.row(y)) > kIconBorderRow * ink.cols)
            ink.row(y).setTo(0);
    }
    // Runs of columns holding ink, with the rows their ink spans: the glyphs (or the icon) left to right.
    struct Run
    {
        int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    };
    std::vector<Run> runs;
    bool open = false;
    for (int x = 0; x < ink.cols; ++x) {
        int top = -1, bottom = -1;
        for (int y = 0; y < ink.rows; ++y) {
            if (ink.at<uchar>(y, x)) {
                if (top < 0)
                    top = y;
                bottom = y;
            }
        }
        if (top < 0) {
            open = false;
            continue;
        }
        if (!open) {
            runs.push_back({x, x, top, bottom});
            open = true;
        } else {
            Run& r = runs.back();
            r.x1 = x;
            r.y0 = std::min(r.y0, top);
            r.y1 = std::max(r.y1, bottom);
        }
    }
    if (runs.size() < 2)
        return 0;
    const Run& icon = runs.front();
    const int height = icon.y1 - icon.y0 + 1;
    const int width = icon.x1 - icon.x0 + 1;
    const int gap = runs[1].x0 - icon.x1 - 1;
    if (height < kIconMinHeight || width < kIconMinAspect * height || gap < kIconMinGap ||
        runs.back().x1 - runs[1].x0 + 1 < kIconMinText * height)
        return 0;
    // Taller than the text's whole span, ascenders to descenders, and reaching below its baseline (the
    // lowest bottom of its glyphs but for the rare word all of descenders): a capital letter stands on the
    // baseline, however much taller than the letters after it ("Pause", "Spacers").
    int top = runs[1].y0;
    int bottom = runs[1].y1;
    int baseline = runs[1].y1;
    for (size_t i = 2; i < runs.size(); ++i) {
        top = std::min(top, runs[i].y0);
        bottom = std::max(bottom, runs[i].y1);
        baseline = std::min(baseline, runs[i].y1);
    }
    const int span = bottom - top + 1;
    const int below = std::max(kIconMinBelowBaseline, int(std::ceil(kIconBelowBaseline * span)));
    if (height < kIconTaller * span || icon.y1 < baseline + below)
        return 0;
    // A picture fills its box or shows colour; a glyph ("Q", "@") is thin grey strokes.
    const cv::Rect box(icon.x0, icon.y0, width, height);
    const double filled = double(cv::countNonZero(ink(box))) / box.area();
    if (filled < kIconMinFill) {
        if (s.bgra.empty())
            return 0;
        // Median chroma of the inked pixels of `r` (line coordinates).
        const auto inkChroma = [&](const cv::Rect& r) {
            std::vector<int> chromas;
            for (int y = r.y; y < r.y + r.height; ++y) {
                for (int x = r.x; x < r.x + r.width; ++x) {
                    if (ink.at<uchar>(y, x)) {
                        const cv::Vec4b px = s.bgra.at<cv::Vec4b>(c.y + y, c.x + x);
                        chromas.push_back(chroma(cv::Vec3b(px[0], px[1], px[2])));
                    }
                }
            }
            if (chromas.empty())
                return 0;
            std::nth_element(chromas.begin(), chromas.begin() + long(chromas.size() / 2), chromas.end());
            return chromas[chromas.size() / 2];
        };
        const cv::Rect rest(runs[1].x0, 0, runs.back().x1 - runs[1].x0 + 1, ink.rows);
        if (inkChroma(box) < kIconChroma || inkChroma(rest) >= kIconChroma)
            return 0;
    }
    return (icon.x1 + runs[1].x0) / 2 + 1;
}

double iou(const cv::Rect& a, const cv::Rect& b)
{
    return intersectionOverUnion(QRect(a.x, a.y, a.width, a.height), QRect(b.x, b.y, b.width, b.height));
}

Segmentation segment(const cv::Mat& bgra, const Params& p)
{
    Segmentation s;
    s.bgra = bgra;
    cv::cvtColor(bgra, s.gray, cv::COLOR_BGRA2GRAY);
    cv::Mat gradient;
    cv::morphologyEx(s.gray, gradient, cv::MORPH_GRADIENT, cv::getStructuringElement(cv::MORPH_RECT, {3, 3}));
    cv::threshold(gradient, s.edges, p.edgeThreshold, 255, cv::THRESH_BINARY);
    clearBorder(s.edges);

    std::vector<Box> boxes = findBoxes(s.edges, p);
    // Bevelled boxes: a lit side can be too faint for the edge threshold (white on a light grey panel).
    // Boxes closed at a lower threshold count when they are bevelled and new.
    cv::Mat soft;
    cv::threshold(gradient, soft, p.bevelThreshold, 255, cv::THRESH_BINARY);
    clearBorder(soft);
    const size_t found = boxes.size();
    for (const Box& b : findBoxes(soft, p)) {
        const bool known = std::any_of(boxes.cbegin(), boxes.cbegin() + long(found),
                                       [&](const Box& k) { return sameBox(k.rect, b.rect); });
        if (!known && isFaintOutline(s, b.rect, p)) {
            boxes.push_back(b);
            // Its faint sides are edges: the text pass below erases them with the box.
            cv::rectangle(s.edges, b.rect, cv::Scalar(255), 1);
        }
    }
    // Narrow tall (or flat wide) boxes are scroll bar grooves and thumbs.
    for (const Box& b : boxes) {
        const cv::Rect& r = b.rect;
        // Vertical only: a flat wide box is as likely a text field as a horizontal scroll bar.
        const bool vertical = r.width >= 8 && r.width <= 20 && r.height >= 4 * r.width && r.height >= 40;
        if (vertical)
            s.scrollBars.push_back(r);
        else
            s.boxes.push_back(b);
    }
    s.sliders = findSliders(s.edges, s.boxes);

    // Text: what is left of the edges once borders, sliders and scroll bars are erased.
    cv::Mat text = s.edges.clone();
    for (const Box& b : s.boxes) {
        if (b.circular || (b.rect.width <= 30 && b.rect.height <= 30))
            text(clipped(cv::Rect(b.rect.x - 1, b.rect.y - 1, b.rect.width + 2, b.rect.height + 2), text))
                .setTo(0);
        else
            cv::rectangle(text, b.rect, cv::Scalar(0), 3);
    }
    for (const auto& list : {s.sliders, s.scrollBars}) {
        for (const cv::Rect& r : list)
            text(clipped(cv::Rect(r.x - 2, r.y - 2, r.width + 4, r.height + 4), text)).setTo(0);
    }
    // Long vertical lines left over (window borders that were no box, separators) would join the text
    // touching them into one tall component that is no text line. (Not horizontal ones: the edge bands
    // of a run of lower-case letters form long horizontal lines too.)
    cv::Mat vertical;
    cv::morphologyEx(text, vertical, cv::MORPH_OPEN, cv::getStructuringElement(cv::MORPH_RECT, {1, 33}));
    text.setTo(0, vertical);
    cv::Mat joined;
    cv::dilate(text, joined, cv::getStructuringElement(cv::MORPH_RECT, {p.wordGap, 1}));
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(joined, labels, stats, centroids, 8, CV_32S);
    const int halfGap = p.wordGap / 2;
    std::vector<cv::Rect> candidates;
    for (int i = 1; i < n; ++i) {
        const cv::Rect box(stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP),
                           stats.at<int>(i, cv::CC_STAT_WIDTH), stats.at<int>(i, cv::CC_STAT_HEIGHT));
        for (const cv::Rect& band : rowBands(labels, text, i, box)) {
            // Undo the dilation and the gradient band.
            candidates.push_back(
                cv::Rect(band.x + halfGap + 1, band.y + 1, band.width - 2 * halfGap - 2, band.height - 2));
        }
    }
    for (const cv::Rect& r : candidates) {
        if (r.height < 5 || r.height > 40 || r.width < 3)
            continue;
        if (r.height > 14 && r.width < 0.25 * r.height)
            continue; // the rest of a vertical line
        const int ink = cv::countNonZero(text(clipped(r, text)));
        if (ink < 12 || (r.area() > 400 && ink > 0.95 * r.area()))
            continue;
        s.textLines.push_back(r);
    }
    sortTextLines(s.textLines);
    // The rest of a view under a band: a header row's or a selected row's bottom edge crosses the view and
    // closes a box with the view's sides and bottom. It is no box of its own; its rows are the view's. (A
    // notebook's page under its tabs, a table's body under its column titles, is one: the band above holds
    // labels side by side.)
    const auto label = [&](const cv::Rect& r, const cv::Rect& band) {
        // A word: no icon, no expander's triangle.
        return (r & band) == r && r.width >= kRestLabelAspect * r.height && r.height >= kRestLabelMinHeight;
    };
    const auto sideBySide = [&](const cv::Rect& band) {
        for (size_t i = 0; i < s.textLines.size(); ++i) {
            const cv::Rect& a = s.textLines[i];
            for (size_t j = i + 1; j < s.textLines.size() && label(a, band); ++j) {
                const cv::Rect& b = s.textLines[j];
                const int overlap = std::min(a.y + a.height, b.y + b.height) - std::max(a.y, b.y);
                if (label(b, band) && 2 * overlap > std::min(a.height, b.height))
                    return true;
            }
        }
        return false;
    };
    const auto restOfView = [&](const Box& c) {
        return std::any_of(s.boxes.cbegin(), s.boxes.cend(), [&](const Box& v) {
            const cv::Rect& a = v.rect;
            const cv::Rect& b = c.rect;
            return &v != &c && std::abs(a.x - b.x) <= kRestSlack &&
                   std::abs(a.x + a.width - b.x - b.width) <= kRestSlack &&
                   std::abs(a.y + a.height - b.y - b.height) <= kRestSlack && b.y - a.y >= kRestMinBand &&
                   std::abs(medianGray(s, b) - medianGray(s, a)) <= kRestFillTolerance &&
                   !sideBySide(cv::Rect(a.x, a.y, a.width, b.y - a.y + kRestSlack));
        });
    };
    std::vector<Box> kept;
    for (const Box& b : s.boxes) {
        if (!restOfView(b))
            kept.push_back(b);
    }
    s.boxes = std::move(kept);
    return s;
}

void sortTextLines(std::vector<cv::Rect>& lines)
{
    std::sort(lines.begin(), lines.end(),
              [](const cv::Rect& a, const cv::Rect& b) { return a.y != b.y ? a.y < b.y : a.x < b.x; });
}

namespace {

// The pixels of `area` at least `contrast` grey levels off its median (its fill), darker or lighter.
cv::Mat inkOffFill(const Segmentation& s, const cv::Rect& area, int contrast)
{
    cv::Mat diff, ink;
    cv::absdiff(s.gray(area), cv::Scalar(medianGray(s, area)), diff);
    cv::threshold(diff, ink, contrast - 1, 255, cv::THRESH_BINARY);
    return ink;
}

} // namespace

bool findTriangle(const Segmentation& s, const cv::Rect& area, bool sideways, cv::Rect* found, bool* forward)
{
    if (area.width < 6 || area.height < 4)
        return false;
    // The arrow stands out of the button's fill, darker on a light theme, lighter on a dark one.
    constexpr int kArrowContrast = 60; // grey levels between the arrow's ink and the fill
    const cv::Mat ink = inkOffFill(s, area, kArrowContrast);
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
    for (int i = 1; i < n; ++i) {
        const int w = stats.at<int>(i, cv::CC_STAT_WIDTH);
        const int h = stats.at<int>(i, cv::CC_STAT_HEIGHT);
        const int a = stats.at<int>(i, cv::CC_STAT_AREA);
        // Its base is the long side: across for up and down, upright for left and right.
        const int base = sideways && h > w ? h : w;
        const int depth = base == w ? h : w;
        if (base < 5 || base > 16 || depth < 2 || depth > 10 || base < depth)
            continue;
        const double fill = double(a) / double(w * h);
        if (fill < 0.3 || fill > 0.8)
            continue;
        // A triangle: its rows (columns, sideways) shrink or grow monotonically.
        const cv::Rect r(stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP), w, h);
        std::vector<int> widths;
        if (base == w) {
            for (int y = r.y; y < r.y + h; ++y)
                widths.push_back(cv::countNonZero(labels.row(y).colRange(r.x, r.x + w) == i));
        } else {
            for (int x = r.x; x < r.x + w; ++x)
                widths.push_back(cv::countNonZero(labels.col(x).rowRange(r.y, r.y + h) == i));
        }
        const bool shrinking = std::is_sorted(widths.rbegin(), widths.rend());
        const bool growing = std::is_sorted(widths.begin(), widths.end());
        if ((shrinking || growing) && widths.front() != widths.back()) {
            if (found)
                *found = cv::Rect(area.x + r.x, area.y + r.y, w, h);
            if (forward)
                *forward = shrinking;
            return true;
        }
    }
    return false;
}

bool findPlusMinusBox(const Segmentation& s, const cv::Rect& area, cv::Rect* found, bool* plus)
{
    if (area.width < 8 || area.height < 8)
        return false;
    constexpr int kContrast = 50;    // grey levels between the outline's ink and the fill
    constexpr int kMinSide = 7;      // the box's side, outline included
    constexpr int kMaxSide = 15;     // ... at most
    constexpr double kMaxFill = 0.6; // share of its bounding square the outline covers (hollow)
    const cv::Mat ink = inkOffFill(s, area, kContrast);
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
    for (int i = 1; i < n; ++i) {
        const cv::Rect r(stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP),
                         stats.at<int>(i, cv::CC_STAT_WIDTH), stats.at<int>(i, cv::CC_STAT_HEIGHT));
        if (r.width < kMinSide || r.width > kMaxSide || std::abs(r.width - r.height) > 1 ||
            stats.at<int>(i, cv::CC_STAT_AREA) > kMaxFill * r.area())
            continue;
        // A square outline: its four sides drawn in full.
        const cv::Mat own = labels(r) == i;
        const bool outline = cv::countNonZero(own.row(0)) >= r.width - 2 &&
                             cv::countNonZero(own.row(r.height - 1)) >= r.width - 2 &&
                             cv::countNonZero(own.col(0)) >= r.height - 2 &&
                             cv::countNonZero(own.col(r.width - 1)) >= r.height - 2;
        if (!outline)
            continue;
        // Inside, apart from the outline: a bar across the middle, and for a plus one down it too.
        const cv::Mat inside = ink(cv::Rect(r.x + 2, r.y + 2, r.width - 4, r.height - 4));
        const int midRow = inside.rows / 2;
        const int midCol = inside.cols / 2;
        int across = 0;
        int down = 0;
        for (int d = -1; d <= 1; ++d) {
            if (midRow + d >= 0 && midRow + d < inside.rows)
                across = std::max(across, cv::countNonZero(inside.row(midRow + d)));
            if (midCol + d >= 0 && midCol + d < inside.cols)
                down = std::max(down, cv::countNonZero(inside.col(midCol + d)));
        }
        const int total = cv::countNonZero(inside);
        if (across < inside.cols - 2 || total > across + down + 2)
            continue;
        if (found)
            *found = cv::Rect(area.x + r.x, area.y + r.y, r.width, r.height);
        if (plus)
            *plus = down >= inside.rows - 2;
        return true;
    }
    return false;
}

bool findArrow(const Segmentation& s, const cv::Rect& box, cv::Rect* arrow)
{
    const int side = std::min(box.width / 3, box.height + 8);
    const cv::Rect area =
        clipped(cv::Rect(box.x + box.width - side, box.y + 3, side - 3, box.height - 6), s.gray);
    return findTriangle(s, area, false, arrow, nullptr);
}

bool horizontalEdgeAt(const Segmentation& s, int y, int x0, int x1, int maxGap)
{
    x0 = std::max(0, x0);
    x1 = std::min(s.edges.cols, x1);
    if (x1 - x0 < 8)
        return false;
    for (int dy = -2; dy <= 2; ++dy) {
        const int row = y + dy;
        if (row < 0 || row >= s.edges.rows)
            continue;
        const uchar* px = s.edges.ptr<uchar>(row);
        int gap = 0;
        int longest = 0;
        for (int x = x0; x < x1; ++x) {
            gap = px[x] ? 0 : gap + 1;
            longest = std::max(longest, gap);
        }
        if (longest <= maxGap)
            return true;
    }
    return false;
}

// Pixels beside a text line's box that still belong to its glyphs' edges.
constexpr int kCellGlyphBand = 2;

cv::Rect cellAround(const Segmentation& s, const cv::Rect& text, int reach, int* found)
{
    int mask = 0;
    const int y0 = text.y;
    const int y1 = text.y + text.height;
    auto columnCovered = [&](int x) {
        if (x < 0 || x >= s.edges.cols)
            return false;
        return cv::countNonZero(s.edges.col(x).rowRange(std::max(0, y0), std::min(s.edges.rows, y1))) >=
               0.8 * (y1 - y0);
    };
    // The search starts past the glyphs' own edge band (the gradient marks a pixel beside each stroke, and
    // anti-aliasing one more): a capital's stem at the line's end is no side of the cell.
    int left = text.x;
    for (int x = text.x - kCellGlyphBand - 1; x >= std::max(0, text.x - reach); --x) {
        if (columnCovered(x)) {
            left = x;
            mask |= 1;
            break;
        }
    }
    int right = text.x + text.width;
    for (int x = text.x + text.width + kCellGlyphBand;
         x < std::min(s.edges.cols, text.x + text.width + reach); ++x) {
        if (columnCovered(x)) {
            right = x;
            mask |= 2;
            break;
        }
    }
    auto rowCovered = [&](int y) {
        if (y < 0 || y >= s.edges.rows)
            return false;
        const int a = std::max(0, left + 2);
        const int b = std::min(s.edges.cols, right - 1);
        return b > a && cv::countNonZero(s.edges.row(y).colRange(a, b)) >= 0.8 * (b - a);
    };
    int top = text.y;
    for (int y = text.y - 1; y >= std::max(0, text.y - reach); --y) {
        if (rowCovered(y)) {
            top = y;
            mask |= 4;
            break;
        }
    }
    int bottom = text.y + text.height;
    for (int y = text.y + text.height; y < std::min(s.edges.rows, text.y + text.height + reach); ++y) {
        if (rowCovered(y)) {
            bottom = y;
            mask |= 8;
            break;
        }
    }
    if (found)
        *found = mask;
    // Edge bands are ~3 px wide around a 1 px line: step to the line's middle.
    if (mask & 1)
        left -= 1;
    if (mask & 2)
        right += 1;
    if (mask & 4)
        top -= 1;
    if (mask & 8)
        bottom += 1;
    return cv::Rect(left, top, right - left + 1, bottom - top + 1) & cv::Rect(0, 0, s.gray.cols, s.gray.rows);
}

double meanGray(const Segmentation& s, const cv::Rect& r)
{
    const cv::Rect c = clipped(r, s.gray);
    return c.area() > 0 ? cv::mean(s.gray(c))[0] : 0;
}

double stdDevGray(const Segmentation& s, const cv::Rect& r)
{
    const cv::Rect c = clipped(r, s.gray);
    if (c.area() <= 0)
        return 0;
    cv::Scalar mean, dev;
    cv::meanStdDev(s.gray(c), mean, dev);
    return dev[0];
}

double darkShare(const Segmentation& s, const cv::Rect& r, int level)
{
    const cv::Rect c = clipped(r, s.gray);
    if (c.area() <= 0)
        return 0;
    return double(cv::countNonZero(s.gray(c) < level)) / double(c.area());
}

bool outlineColour(const Segmentation& s, const cv::Rect& r, double share, int tolerance, cv::Vec3b* colour)
{
    const cv::Rect c = clipped(r, s.bgra);
    if (c.width < 4 || c.height < 4 || c != r)
        return false; // an outline cut by the image's edge is not one
    std::vector<cv::Vec3b> pixels;
    auto take = [&](int x, int y) {
        const cv::Vec4b px = s.bgra.at<cv::Vec4b>(y, x);
        pixels.emplace_back(px[0], px[1], px[2]);
    };
    for (int x = c.x; x < c.x + c.width; ++x) {
        take(x, c.y);
        take(x, c.y + c.height - 1);
    }
    for (int y = c.y + 1; y < c.y + c.height - 1; ++y) {
        take(c.x, y);
        take(c.x + c.width - 1, y);
    }
    cv::Vec3b median;
    std::vector<uchar> channel(pixels.size());
    for (int k = 0; k < 3; ++k) {
        for (size_t i = 0; i < pixels.size(); ++i)
            channel[i] = pixels[i][k];
        median[k] = medianOf(channel);
    }
    const auto near = std::count_if(pixels.cbegin(), pixels.cend(), [&](const cv::Vec3b& px) {
        return colourDistance(px, median) <= tolerance;
    });
    if (double(near) < share * double(pixels.size()))
        return false;
    if (colour)
        *colour = median;
    return true;
}

cv::Vec3b medianColour(const Segmentation& s, const cv::Rect& r)
{
    const cv::Rect c = clipped(r, s.bgra);
    if (c.area() <= 0)
        return {};
    cv::Vec3b median;
    std::vector<uchar> channel;
    channel.reserve(size_t(c.area()));
    for (int k = 0; k < 3; ++k) {
        channel.clear();
        for (int y = c.y; y < c.y + c.height; ++y) {
            const cv::Vec4b* row = s.bgra.ptr<cv::Vec4b>(y);
            for (int x = c.x; x < c.x + c.width; ++x)
                channel.push_back(row[x][k]);
        }
        median[k] = medianOf(channel);
    }
    return median;
}

double flatShare(const Segmentation& s, const cv::Rect& r, int tolerance)
{
    const cv::Rect c = clipped(r, s.gray);
    if (c.area() <= 0)
        return 0;
    const int median = medianGray(s, c);
    cv::Mat diff;
    cv::absdiff(s.gray(c), cv::Scalar(median), diff);
    return double(cv::countNonZero(diff <= tolerance)) / double(c.area());
}

int colourDistance(const cv::Vec3b& a, const cv::Vec3b& b)
{
    int d = 0;
    for (int k = 0; k < 3; ++k)
        d = std::max(d, std::abs(int(a[k]) - int(b[k])));
    return d;
}

int chroma(const cv::Vec3b& c)
{
    return std::max({c[0], c[1], c[2]}) - std::min({c[0], c[1], c[2]});
}

int medianGray(const Segmentation& s, const cv::Rect& r)
{
    const cv::Rect c = clipped(r, s.gray);
    if (c.area() <= 0)
        return 255;
    const std::array<int, 256> histogram = greyHistogram(s, c);
    const int half = c.area() / 2;
    int sum = 0;
    for (int v = 0; v < 256; ++v) {
        sum += histogram[v];
        if (sum > half)
            return v;
    }
    return 255;
}

} // namespace ciu::canvas::seg
