#pragma once

#include <QMetaType>
#include <QString>

namespace ciu {

// Live settings of the CaptureEngine (slot CaptureEngine::applySettings).
struct CaptureSettings
{
    int fps = 20;                      // full rate, 15..30
    int idleFps = 5;                   // rate once the screen is stable and no action runs, 1..fps
    double ringSeconds = 5.0;          // frame ring length, (0, 600]
    qint64 ringMaxBytes = 256LL << 20; // hard memory bound of the ring, >= 1 MiB
    double thresholdPercent = 0.5;     // Tier 0: below this share of changed pixels nothing is reported
    int tileSize = 32;                 // Tier 0 tile edge, 8..256
    int stabilityWindowMs = 300;       // no change for this long → `stable` (reported once)
    int animationFrames = 3;           // a tile changing in this many frames in a row is animating
    int monitorIndex = -1;             // -1: the whole screen, else the index into Screen::monitors()
    bool useDamage = true;             // use the server's damage reports when it has them

    // Empty when valid, else a readable error.
    QString validate() const;
};

// Figures of the last stats period (about one second), plus totals.
struct CaptureStats
{
    qint64 tNs = 0;
    double fps = 0;    // frames emitted per second in the period
    int targetFps = 0; // the rate in force (full or idle)
    bool idle = false; // idle rate in force
    bool actionActive = false;
    double grabMs = 0;           // mean grab time per frame in the period (0 for skips)
    double diffMs = 0;           // mean Tier 0 time per frame in the period
    double totalMs = 0;          // mean capture+diff+ring time per frame in the period
    quint64 frames = 0;          // frames emitted (total)
    quint64 lateFrames = 0;      // ticks that started more than half an interval late, or were missed (total)
    quint64 fullGrabs = 0;       // whole-target grabs (total)
    quint64 damageGrabs = 0;     // frames patched from damaged areas only (total)
    quint64 skippedGrabs = 0;    // frames with no damage: no grab, pixels shared with the previous frame
    quint64 unchangedFrames = 0; // frames whose pixels equal the previous frame (shared buffer)
    quint64 recycledBuffers = 0; // damage frames patched into a recycled buffer instead of a copy
    quint64 cursorSamples = 0;   // (total)
    qint64 ringBytes = 0;
    qsizetype ringFrames = 0;
    qsizetype ringDegradedFrames = 0;
};

} // namespace ciu

Q_DECLARE_METATYPE(ciu::CaptureSettings)
Q_DECLARE_METATYPE(ciu::CaptureStats)
