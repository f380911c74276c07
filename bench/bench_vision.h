#pragma once

// `ciu-agent bench vision`: the analyzer, vision only, over the generated corpus (bench/corpus/), scored
// against the accessibility tree's zones.

#include <QString>

namespace ciu::bench {

struct VisionBenchOptions
{
    QString corpusDir;
    QString set = QStringLiteral("all"); // tuning, heldout or all
    bool json = false;                   // one JSON document on stdout instead of tables
    double minIou = 0.5;
    QString overlayDir; // non-empty: each frame is also written there with truth and detections drawn
};

// Prints the figures on stdout, progress and unreadable samples on stderr. Returns 0, or 1 when a sample
// could not be read or analysed (the others are still scored) or when there is nothing to score.
int runVisionBench(const VisionBenchOptions& options);

} // namespace ciu::bench
