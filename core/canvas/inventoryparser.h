#pragma once

#include "core/model/zone.h"

#include <QList>
#include <QMap>
#include <QRect>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>

namespace ciu::canvas {

// The Tier 2 answer of a model, validated. Everything read from the screen is untrusted data: boxes
// must lie on the image, types must be known, sizes must be sane; the rest is rejected and counted.
struct InventoryReport
{
    QList<Zone> zones; // accepted, in screen coordinates, source model, no ids
    int total = 0;     // elements in the reply
    int accepted = 0;
    int rejected = 0;
    QMap<QString, int> rejectedBy; // reason → count: out_of_bounds, bad_box, unknown_type, too_small,
                                   // too_large, not_an_object, bad_label
    QStringList problems;          // human-readable, at most a few dozen
    bool malformed = false;        // no JSON array found, or it did not parse
    bool refused = false;          // the model declined
    QString error;                 // set when malformed or refused
    bool ok() const { return !malformed && !refused; }
};

struct InventoryParseOptions
{
    QSize imageSize; // the image the model saw (its coordinate space)
    // Maps a rectangle in the model's image to screen coordinates (scaling, region offset).
    std::function<QRect(const QRect&)> toScreen;
    int tolerancePx = 3;        // boxes may overflow the image by this much (clipped)
    int minSidePx = 4;          // in the model's image
    double maxAreaShare = 0.95; // a box covering (almost) the whole image is not an element
    int maxLabelLength = 200;
    int maxElements = 1000;
};

// The Tier 2 prompt for an image of `size`.
QString inventoryPrompt(QSize size);

// Parses a reply: a JSON array of {x, y, width, height, type, label, state, parent}, bare or inside a
// ```json fence or an object with an "elements" array. `parent` is the index of another element (or its
// "id"). Text without JSON that declines the task is a refusal.
InventoryReport parseInventory(const QString& reply, const InventoryParseOptions& options);

} // namespace ciu::canvas
