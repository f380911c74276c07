#pragma once

#include "core/model/frame.h"

#include <QImage>
#include <QRect>
#include <QRegion>

#include <vector>

namespace ciu::capture {

struct ChangeDetectorSettings
{
    int tileSize = 32;                      // tile edge in pixels, 8..256
    double thresholdPercent = 0.5;          // below this share of the frame's pixels nothing is reported
    int animationFrames = 3;                // a tile changed in this many frames in a row is animating ...
    qint64 animationMaxGapNs = 150'000'000; // ... where "in a row" allows this gap between changes
    qint64 stabilityWindowNs = 300'000'000; // no reported change for this long: `stable` (once)
};

// Tier 0: tile-based comparison of consecutive frames. A plain class: feed it every frame in order.
//
// Per frame: tiles to compare are all tiles, or the tiles touching the damage when given. Scanlines of
// those tiles are compared with memcmp (the pre-check; vectorised by libc, exits early), and only tile
// segments that differ are counted pixel by pixel (alpha ignored), tracking the tight bounding box of the
// changed pixels per tile. Changed pixels inside the cursor sprite (current or previous position) are not
// counted. Changed tiles are merged into regions (8-connected components of tiles); a region's rect is
// the union of its tiles' tight boxes.
class ChangeDetector
{
public:
    struct Result
    {
        FrameDiff diff;
        qint64 changedPixels = 0; // outside the cursor, including changes below the threshold
        qint64 cursorPixels = 0;  // changed pixels inside the cursor sprite
        bool identical = false;   // no pixel differs from the previous frame (compared area)
        bool reported = false;    // diff.regions is non-empty (at or above the threshold)
    };

    explicit ChangeDetector(const ChangeDetectorSettings& settings = {});

    // Empty when valid, else a readable error.
    static QString validate(const ChangeDetectorSettings& settings);
    // Invalid settings are refused (returns false and keeps the old ones). A new tile size restarts the
    // per-tile history.
    bool setSettings(const ChangeDetectorSettings& settings);
    const ChangeDetectorSettings& settings() const { return m_settings; }

    // Forgets the previous frame: the next frame is reported as a whole-frame change.
    void reset();

    // Compares `frame` with the previous one. `cursorRect` (root coordinates) is the cursor sprite in this
    // frame; `damage` (root coordinates) restricts the comparison when given. The first frame, and a frame
    // whose size or origin differs from the previous one, is reported as a 100 % change.
    Result process(const Frame& frame, const QRect& cursorRect = {}, const QRegion* damage = nullptr);

    // True when no change was reported for the stability window up to the last processed frame.
    bool isStable() const { return m_stableReported; }
    bool hasPrevious() const { return !m_previous.isNull(); }

private:
    struct TileState
    {
        qint64 changed = 0;
        int minX = 0, minY = 0, maxX = 0, maxY = 0; // frame coordinates, valid when changed > 0
    };

    Result wholeFrameChange(const Frame& frame);
    void compareTiles(const QImage& previous, const QImage& current, const std::vector<quint8>& selected,
                      const QRect& cursorA, const QRect& cursorB, Result& result);
    void mergeRegions(const Frame& frame, Result& result);
    void updateStreaks(qint64 tNs);
    void finish(const Frame& frame, Result& result);

    ChangeDetectorSettings m_settings;
    QImage m_previous;
    QPoint m_previousOrigin;
    QRect m_previousCursor; // frame coordinates
    int m_cols = 0;
    int m_rows = 0;
    std::vector<TileState> m_tiles;
    std::vector<int> m_streak;        // consecutive changes per tile
    std::vector<qint64> m_lastTileNs; // time of the tile's last change
    qint64 m_lastChangeNs = 0;
    bool m_stableReported = false;
};

} // namespace ciu::capture
