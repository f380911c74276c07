#pragma once

// IconNamer's internals shared by its two source files (iconnamer_theme.cpp: the themes on disk and the
// labels; iconnamer.cpp: descriptors and matching). Internal to core/canvas.

#include "core/canvas/iconnamer.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace ciu::canvas::iconnaming {

struct IconFile
{
    QString variant; // file name without extension and ".symbolic" ("document-save-symbolic")
    QString path;
    int size = 0;     // nominal size (the directory's Size, or the size an SVG is rendered at)
    bool svg = false; // render at `size`
};

struct ThemeFiles
{
    QStringList chain; // themes found, in lookup order
    std::vector<IconFile> files;
};

// $XDG_DATA_HOME/icons, ~/.icons, $XDG_DATA_DIRS/icons.
QStringList defaultSearchPaths();

// Every icon of `themes` (and what they inherit, hicolor last) in the given index.theme contexts: one file
// per icon variant and size (the first theme that has it wins); icons that exist only as SVG once per size.
ThemeFiles listThemeFiles(const QStringList& themes, const QStringList& searchPaths, const QList<int>& sizes,
                          const QStringList& contexts);

} // namespace ciu::canvas::iconnaming
