#pragma once

#include "core/model/frame.h"

#include <QHash>
#include <QMutex>
#include <QRegion>

#include <deque>
#include <optional>

namespace ciu::capture {

struct FrameRingSettings
{
    qint64 durationNs = 5'000'000'000; // keep the frames of the last N seconds
    qint64 maxBytes = 256LL << 20;     // hard bound on pixel memory
    bool downscaleOlder = true;        // over the bound: keep older frames at half size first
};

// The last N seconds of frames under a hard memory bound. Thread-safe: the capture worker pushes, any
// thread may look up.
//
// Memory: frames that share pixels (an unchanged frame shares its predecessor's implicitly shared QImage)
// are counted once. When push() is told which area changed since the previous frame (the damage), the
// previous frame is kept as a reverse delta: only its pixels in that area, laid over the next frame on
// lookup. Dropping the oldest frame therefore never breaks a newer one, and a small animation costs its
// area per frame instead of a whole frame. The newest frame is always held whole; a whole frame (key) is
// also kept when the change is large or the deltas since the last key add up to 4 frames of pixels, which
// bounds the cost of a lookup. When the bound would be exceeded, the oldest whole frames are kept at half
// size in RGB16 (1/8 of the bytes), and when that is not enough the oldest frames are dropped; the newest
// frame is never touched (a single frame larger than the bound is kept alone).
//
// Lookups return full-size RGB32 frames: a delta is rebuilt from the next whole frame, and a downscaled
// frame is scaled back up (see isDegraded()).
class FrameRing
{
public:
    struct Stats
    {
        qsizetype frames = 0;
        qsizetype degradedFrames = 0; // currently held at reduced size
        qsizetype buffers = 0;        // distinct pixel buffers
        qint64 bytes = 0;             // pixel memory of the distinct buffers
        qint64 maxBytes = 0;
        quint64 droppedForMemory = 0; // frames dropped early because of the bound (total)
        quint64 downscaled = 0;       // frames downscaled because of the bound (total)
        qsizetype deltaFrames = 0;    // currently held as reverse deltas
    };

    explicit FrameRing(const FrameRingSettings& settings = {});

    static QString validate(const FrameRingSettings& settings);
    // Refuses invalid settings (returns false). A smaller bound or duration applies at once.
    bool setSettings(const FrameRingSettings& settings);
    FrameRingSettings settings() const;

    // Appends a frame. Refused (false) when the image is null or the frame is older (time or index) than
    // the newest. `changedSincePrevious` (root coordinates), when given, must contain every pixel that
    // differs from the previous frame pushed (the server's damage is such a region); it lets the ring keep
    // the previous frame as a delta.
    bool push(const Frame& frame, const QRegion* changedSincePrevious = nullptr);
    void clear();

    qsizetype size() const;
    bool isEmpty() const { return size() == 0; }
    // Position 0 is the oldest frame held.
    std::optional<Frame> at(qsizetype position) const;
    std::optional<Frame> latest() const;
    // The newest frame taken at or before tNs.
    std::optional<Frame> atOrBefore(qint64 tNs) const;
    // The frame with this Frame::index, if still held.
    std::optional<Frame> byIndex(quint64 frameIndex) const;
    // True when the frame with this index is held (or rebuilt from a frame held) at reduced size.
    bool isDegraded(quint64 frameIndex) const;

    qint64 memoryBytes() const;
    Stats stats() const;

private:
    struct Patch
    {
        QPoint pos; // image coordinates
        QImage pixels;
    };
    struct Entry
    {
        quint64 index = 0;
        qint64 tNs = 0;
        QPoint origin;
        QSize size;           // original size
        QImage image;         // whole frame: RGB32, or half size RGB16 when degraded; null for a delta
        QList<Patch> patches; // delta: this frame is the next frame with these areas laid over it
        qint64 patchBytes = 0;
        bool degraded = false;
        bool isDelta() const { return image.isNull(); }
    };

    void makeDeltaLocked(Entry& previous, const Frame& next, const QRegion& changed);
    void addRef(const QImage& image);
    void release(const QImage& image);
    void popFront();
    void trimLocked();
    bool degradeOldestLocked();
    Frame toFrameLocked(size_t position) const;
    bool degradedLocked(size_t position) const;
    std::optional<qsizetype> findIndexLocked(quint64 frameIndex) const;

    mutable QMutex m_mutex;
    FrameRingSettings m_settings;
    std::deque<Entry> m_entries;
    QHash<qint64, int> m_refs; // QImage::cacheKey → entries holding that buffer
    qint64 m_bytes = 0;
    quint64 m_dropped = 0;
    quint64 m_downscaled = 0;
    qint64 m_chainPatchBytes = 0; // patch bytes of the deltas since the last key
};

} // namespace ciu::capture
