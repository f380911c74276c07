#pragma once

// `ciu-agent shortcuts` for a window the accessibility tree does not show (Tk, Xt/Athena, Motif programs):
// its menus read by vision.

#include "core/canvas/ocrengine.h"
#include "core/knowledge/shortcuts.h"
#include "core/model/zone.h"
#include "platform/platform.h"

#include <QImage>
#include <QList>
#include <QRect>

namespace ciu::app {

// Opens each menu of the window's menu bar as vision finds it (the words OCR reads along the top of its
// client area), reads the accelerators at the right of its rows in the part of the screen that changed (the
// open menu, read by OCR line by line), and closes it again (Escape). Problems go to stderr; what was read is
// returned (source Vision).
QList<Shortcut> exploreMenusByVision(platform::Platform& platform, const platform::WindowInfo& window);

// OCR words (in the coordinates of an image whose top left is root point `origin`) as one menu-item zone per
// text line, its words left to right; with `splitAtGaps`, a gap wider than twice the line's height starts
// another zone (the titles of a menu bar).
QList<Zone> textRows(const QList<canvas::OcrEngine::Word>& words, QPoint origin, bool splitAtGaps);

// The bounding box of the pixels that differ between two grabs of the same screen, from root row `top` down;
// null when none does (or the grabs differ in size).
QRect changedArea(const QImage& before, const QImage& after, int top);

} // namespace ciu::app
