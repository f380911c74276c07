#pragma once

// Recognisers for keys and their glyphs (a keypad's or a tool bar's keys): which boxes are shaped like
// keys, and the simple symbols that Tesseract misreads or drops when they stand alone. Internal to
// core/canvas.

#include "core/canvas/uisegmenter.h"

#include <QString>

namespace ciu::canvas::detail {

// A box shaped like a key or a push button: 16..44 px high, 0.8..3.2 times as wide (at most 120 px),
// no boxes inside. Its label, if any, is short and centred.
bool keyShaped(const seg::Segmentation& s, int box);

// Simple symbols told by the shape of their ink components (".", "-", "=", "+", "÷", "(", ")"), which
// Tesseract misreads or drops when they stand alone, and "*" raised above the middle. `ink` is a binary mask
// (255: ink) of a key's whole interior holding only the label; empty when the ink is not one of them.
QString symbolFromInk(const cv::Mat& ink);

} // namespace ciu::canvas::detail
