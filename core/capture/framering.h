#pragma once

#include "core/model/frame.h"

#include <QHash>
#include <QMutex>

#include <deque>
#include <optional>

namespace ciu::capture {

struct FrameRingSettings
{
    qint64 durationNs = 5'000'000'000; // keep the frames of the last N seconds
    qint64 maxBytes = 256LL << 20;     // hard bound on pixel memory
    bool downscaleOlder = true;        // over the bound: keep older frames at half size first
};

// The last N seconds of frames under a hard memory bound. Frames that share pixels (an unchanged frame
// shares its predecessor's implicitly shared QImage) are counted once. When the bound would be exceeded,
// the oldest full-size frames are kept at half size in RGB16 (1/8 of the bytes), and when that is not
// enough the oldest frames are dropped; the newest frame is never touched (a single frame larger than the
// bound is kept alone). Lookups return full-size RGB32 frames (a downscaled frame is scaled back up, see
// isDegraded()). Thread-safe: the capture worker pushes, any thread may look up.
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
    };

    explicit FrameRing(const FrameRingSettings& settings = {});

    static QString validate(const FrameRingSettings& settings);
    // Refuses invalid settings (returns false). A smaller bound or duration applies at once.
    bool setSettings(const FrameRingSettings& settings);
    FrameRingSettings settings() const;

    // Appends a frame. Refused (false) when the image is null or the frame is older (time or index) than
    // the newest.
    bool push(const Frame& frame);
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
    // True when the frame with this index is held at reduced size.
    bool isDegraded(quint64 frameIndex) const;

    qint64 memoryBytes() const;
    Stats stats() const;

private:
    struct Entry
    {
        quint64 index = 0;
        qint64 tNs = 0;
        QPoint origin;
        QSize size;   // original size
        QImage image; // full size RGB32, or half size RGB16 when degraded
        bool degraded = false;
    };

    void addRef(const QImage& image);
    void release(const QImage& image);
    void popFront();
    void trimLocked();
    bool degradeOldestLocked();
    Frame toFrame(const Entry& e) const;
    std::optional<qsizetype> findIndexLocked(quint64 frameIndex) const;

    mutable QMutex m_mutex;
    FrameRingSettings m_settings;
    std::deque<Entry> m_entries;
    QHash<qint64, int> m_refs; // QImage::cacheKey → entries holding that buffer
    qint64 m_bytes = 0;
    quint64 m_dropped = 0;
    quint64 m_downscaled = 0;
};

} // namespace ciu::capture
