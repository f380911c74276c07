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
    // The words read, each with its box (image coordinates): a line that joined several labels (a menu
    // bar's titles run into its bottom line by their descenders) is cut back into them.
    struct Word
    {
        cv::Rect rect;
        QString text;
    };
    std::vector<Word> words;
};

// A line's text is worth using as a label: confident, mostly letters and digits (any text for a glyph).
bool readable(const TextItem& t);

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
