#pragma once

// The vision benchmark's evaluation: the corpus sample reader (bench/corpus/generate.sh's JSON), the
// matching of detected zones to ground-truth zones, and the counts behind recall, precision, label and
// type accuracy. Pure functions over values, tested in tst_visioneval.

#include "core/model/zone.h"
#include "platform/types.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QSize>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace ciu::bench {

// One screenshot of the corpus with its ground truth.
struct CorpusSample
{
    QString jsonPath;
    QString imagePath; // absolute
    QString program;
    QString toolkit;
    QString look;
    QString state;
    QString set; // "tuning" or "heldout"
    QSize screen;
    QList<platform::WindowInfo> windows; // the program's managed windows (the analyzer's hints)
    QList<Zone> truth;                   // every zone of the tree (interactive and static), screen pixels
};

// The ground-truth zone of one recorded accessible node, by the agent's own mapping
// (canvas::zoneTypeForRole, zoneStateFor, the label order of zonesFromAccessibility); nullopt for
// containers and for static text without a label.
std::optional<Zone> truthZoneFromNode(const QJsonObject& node, QString* error);

// Reads one sample JSON (format "ciu-vision-corpus/1"). nullopt with *error naming the file and the
// problem (unreadable, not JSON, wrong format, a missing field, the image missing).
std::optional<CorpusSample> readCorpusSample(const QString& jsonPath, QString* error);

struct CorpusListing
{
    QList<CorpusSample> samples; // sorted by file name
    QStringList errors;          // one per sample that could not be read (the others are kept)
};
// Every sample JSON under `dir` (recursively; programs.json is the manifest, not a sample). *error is set,
// and nothing listed, when the folder does not exist or holds no sample file at all.
CorpusListing readCorpus(const QString& dir, QString* error);

// Case, spacing, mnemonics and punctuation do not count: lower-case letters and digits only
// ("_Save As…" == "save as").
QString normalizedLabel(const QString& label);
// Widgets whose label is text drawn on them (the ones label accuracy counts).
bool isTextLabelled(ZoneType type);

// Whether a widget's label is drawn as text on it: `read` is what an OCR of the widget's box alone found. It
// is when the reading holds at least half of the label's letters and digits in order (their longest common
// subsequence), so that an icon-only tool button, whose accessible name is drawn nowhere, is told from a
// text button misread by a letter or two.
bool labelShown(const QString& label, const QString& read);

struct MatchCounts
{
    int truth = 0;        // interactive truth zones
    int detected = 0;     // interactive detections
    int matched = 0;      // pairs at IoU >= the threshold
    int typeCorrect = 0;  // matched pairs of the same type
    int labelled = 0;     // matched pairs whose truth is text-labelled with a non-empty label
    int labelCorrect = 0; // of those, the detection's label equal after normalisation
    int drawn = 0;        // of the labelled, those whose label is drawn as text (labelShown)
    int drawnCorrect = 0; // of those, the detection's label equal after normalisation

    double recall() const { return truth > 0 ? double(matched) / truth : 0; }
    double precision() const { return detected > 0 ? double(matched) / detected : 0; }
    double typeAccuracy() const { return matched > 0 ? double(typeCorrect) / matched : 0; }
    double labelAccuracy() const { return labelled > 0 ? double(labelCorrect) / labelled : 0; }
    double drawnLabelAccuracy() const { return drawn > 0 ? double(drawnCorrect) / drawn : 0; }
    MatchCounts& operator+=(const MatchCounts& other);
};

struct ZoneMatch
{
    int truthIndex = -1;
    int detectedIndex = -1;
    double iou = 0;
};

struct FrameEvaluation
{
    QList<ZoneMatch> matches;
    MatchCounts counts;
    QMap<ZoneType, MatchCounts> byTruthType; // truth, matched, typeCorrect... per truth type
};

// Greedy matching at IoU >= minIou: of all (truth, detection) pairs of interactive zones, the one with
// the highest IoU is matched first, then the next among the unmatched, until none is left above the
// threshold. Static zones (labels, text) on either side take no part: the tree does not expose all text.
// `drawn`, when given, tells for a matched text-labelled truth zone (by its index) whether its label is drawn
// (labelShown): those count in MatchCounts::drawn.
FrameEvaluation evaluateFrame(const QList<Zone>& truth, const QList<Zone>& detected, double minIou = 0.5,
                              const std::function<bool(int truthIndex)>& drawn = {});

} // namespace ciu::bench
