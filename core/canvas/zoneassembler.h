#pragma once

// Tier 1 classification: turns the segmenter's boxes, sliders, scroll bars and OCR'd text lines into
// typed, labelled zones. Internal to core/canvas.

#include "core/canvas/uisegmenter.h"
#include "core/model/zone.h"

#include <QList>

#include <vector>

namespace ciu::canvas::detail {

struct TextItem
{
    cv::Rect rect;
    QString text;
    double confidence = 0; // 0..100
    int owner = -1;        // index of the innermost box holding it, -1: free
    bool known = false;    // inside a known zone that was confirmed: not read again
    bool glyph = false;    // a key's short label read from its whole interior: symbols ("+", "=") count
};

// A line's text is worth using as a label: confident, mostly letters and digits (any text for a glyph).
bool readable(const TextItem& t);

// A box shaped like a key or a push button: 16..44 px high, 0.8..3.2 times as wide (at most 120 px),
// no boxes inside. Its label, if any, is short and centred.
bool keyShaped(const seg::Segmentation& s, int box);

// Simple symbols told by the shape of their ink components (".", "-", "=", "+", "÷", "(", ")"), which
// Tesseract misreads or drops when they stand alone, and "*" raised above the middle. `ink` is a binary mask
// (255: ink) of a key's whole interior holding only the label; empty when the ink is not one of them.
QString symbolFromInk(const cv::Mat& ink);

struct AssemblyInput
{
    const seg::Segmentation* seg = nullptr;
    std::vector<TextItem> texts;
    std::vector<cv::Rect> windows; // client areas (image coordinates): menu bars sit at their top
    bool menuPopup = false;        // the region is a popup menu: its text rows are menu items
};

// For each text line, the innermost box whose interior holds its centre (-1: none).
std::vector<int> textOwners(const seg::Segmentation& s);

// Zones in the segmented image's coordinates, without ids.
QList<Zone> assemble(AssemblyInput& in);

// "Name:" → "Name"; trims OCR noise at the ends.
QString cleanLabel(const QString& text);

} // namespace ciu::canvas::detail
