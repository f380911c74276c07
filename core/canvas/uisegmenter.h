#pragma once

// Tier 1 image segmentation of a screen region with OpenCV: bordered boxes, sliders, scroll bars and
// text lines. Internal to core/canvas (the only place that sees OpenCV types).

#include <opencv2/core.hpp>
#include <vector>

namespace ciu::canvas::seg {

struct Box
{
    cv::Rect rect; // the border included
    bool circular = false;
    bool fromHole = false;
};

struct Segmentation
{
    cv::Mat bgra;  // the input (a view)
    cv::Mat gray;  // CV_8U
    cv::Mat edges; // CV_8U, 255 where the morphological gradient exceeds the threshold
    std::vector<Box> boxes;
    std::vector<cv::Rect> sliders;    // track and handle
    std::vector<cv::Rect> scrollBars; // a narrow vertical strip with a border (groove or thumb)
    std::vector<cv::Rect> textLines;  // runs of glyphs outside borders, sliders and scroll bars
};

struct Params
{
    int edgeThreshold = 18;  // grey levels of the 3x3 morphological gradient
    int bevelThreshold = 8;  // ... for a bevelled box's sides (a highlight a few levels off the panel)
    int bevelMinStep = 8;    // a bevel's lit and shaded sides differ by twice this many levels
    int bevelMaxChroma = 24; // and are grey: their colour's channels this close at most
    int minBox = 10;         // smallest box side in pixels
    int wordGap = 5;         // horizontal closing that joins glyphs into words and lines
};

Segmentation segment(const cv::Mat& bgra, const Params& params = {});

// Text lines in reading order: top to bottom, left to right (Segmentation::textLines' order).
void sortTextLines(std::vector<cv::Rect>& lines);

// A small triangle (a combo box or menu arrow) in the right end of `box`; returns its rectangle.
bool findArrow(const Segmentation& s, const cv::Rect& box, cv::Rect* arrow);

// A small filled triangle in `area`, standing out of its fill: pointing down or up (its rows shrink or grow)
// or, with `sideways`, right or left (its columns do). Returns its rectangle and whether it points down or
// right (`*forward`).
bool findTriangle(const Segmentation& s, const cv::Rect& area, bool sideways, cv::Rect* found, bool* forward);

// A small square outline holding a minus or a plus (a tree's or a tool box's expander in the Windows, Motif
// and Tk styles) in `area`. Returns its rectangle and whether it shows a plus (`*plus`: closed).
bool findPlusMinusBox(const Segmentation& s, const cv::Rect& area, cv::Rect* found, bool* plus);

// The cell around `text` delimited by edge lines: scans left/right for a vertical edge and up/down
// for a horizontal edge within `reach` pixels. Missing sides stay at the text's edge; `found` gets
// a bit mask of the sides that were found (1 left, 2 right, 4 top, 8 bottom).
cv::Rect cellAround(const Segmentation& s, const cv::Rect& text, int reach, int* found);

// True when a horizontal edge line at row `y` (±2) runs through [x0, x1) with no gap wider than `maxGap`.
bool horizontalEdgeAt(const Segmentation& s, int y, int x0, int x1, int maxGap);

// Mean grey level in `r` (clipped), and its standard deviation.
double meanGray(const Segmentation& s, const cv::Rect& r);
double stdDevGray(const Segmentation& s, const cv::Rect& r);
// Share of pixels in `r` darker than `level`.
double darkShare(const Segmentation& s, const cv::Rect& r, int level);
// The colour (BGR) of the 1 px outline of `r` when it is drawn in one colour: true and *colour when at
// least `share` of the outline's pixels are within `tolerance` (in every channel) of its per-channel median.
bool outlineColour(const Segmentation& s, const cv::Rect& r, double share, int tolerance, cv::Vec3b* colour);
// Per-channel median colour (BGR) of `r`: the fill of an area, whatever text or icon covers less than half.
cv::Vec3b medianColour(const Segmentation& s, const cv::Rect& r);
// Share of the pixels of `r` within `tolerance` grey levels of its median: 1 for a flat fill.
double flatShare(const Segmentation& s, const cv::Rect& r, int tolerance);
// Colour distance: the largest difference of one channel.
int colourDistance(const cv::Vec3b& a, const cv::Vec3b& b);
// How far a colour is from a grey: its largest channel minus its smallest.
int chroma(const cv::Vec3b& c);
// Median grey level of `r`: the background of a text line.
int medianGray(const Segmentation& s, const cv::Rect& r);

// The icon that starts a text line (a list row's file icon, an icon button's picture before its word): the
// line's first run of ink when it stands apart from the rest and is taller than any of it and about as wide
// as tall. Returns how many pixels of `line` to leave out when reading it (0: none).
int leadingIconWidth(const Segmentation& s, const cv::Rect& line);

double iou(const cv::Rect& a, const cv::Rect& b);

} // namespace ciu::canvas::seg
