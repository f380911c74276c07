#include "core/capture/framering.h"

#include <QMutexLocker>

#include <algorithm>

namespace ciu::capture {
namespace {

// Half size, RGB16: every other pixel of every other line, packed to 5-6-5 (1/8 of the RGB32 bytes).
QImage halfSizeRgb16(const QImage& source)
{
    const QImage src = source.format() == QImage::Format_RGB32 || source.format() == QImage::Format_ARGB32
                           ? source
                           : source.convertToFormat(QImage::Format_RGB32);
    QImage out((src.width() + 1) / 2, (src.height() + 1) / 2, QImage::Format_RGB16);
    if (out.isNull())
        return out;
    for (int y = 0; y < out.height(); ++y) {
        const auto* in = reinterpret_cast<const quint32*>(src.constScanLine(y * 2));
        auto* line = reinterpret_cast<quint16*>(out.scanLine(y));
        for (int x = 0; x < out.width(); ++x) {
            const quint32 p = in[x * 2];
            line[x] = quint16(((p >> 8) & 0xf800u) | ((p >> 5) & 0x07e0u) | ((p >> 3) & 0x001fu));
        }
    }
    return out;
}

} // namespace

FrameRing::FrameRing(const FrameRingSettings& settings)
{
    if (validate(settings).isEmpty())
        m_settings = settings;
}

QString FrameRing::validate(const FrameRingSettings& s)
{
    if (s.durationNs <= 0 || s.durationNs > 600'000'000'000LL)
        return QStringLiteral("frame ring length must be more than 0 and at most 600 s");
    if (s.maxBytes < (1LL << 20))
        return QStringLiteral("frame ring memory bound must be at least 1 MiB (got %1 bytes)")
            .arg(s.maxBytes);
    return {};
}

bool FrameRing::setSettings(const FrameRingSettings& settings)
{
    if (!validate(settings).isEmpty())
        return false;
    QMutexLocker lock(&m_mutex);
    m_settings = settings;
    trimLocked();
    return true;
}

FrameRingSettings FrameRing::settings() const
{
    QMutexLocker lock(&m_mutex);
    return m_settings;
}

void FrameRing::addRef(const QImage& image)
{
    int& refs = m_refs[image.cacheKey()];
    if (refs++ == 0)
        m_bytes += image.sizeInBytes();
}

void FrameRing::release(const QImage& image)
{
    const auto it = m_refs.find(image.cacheKey());
    if (it == m_refs.end())
        return;
    if (--it.value() == 0) {
        m_bytes -= image.sizeInBytes();
        m_refs.erase(it);
    }
}

void FrameRing::popFront()
{
    release(m_entries.front().image);
    m_entries.pop_front();
}

bool FrameRing::push(const Frame& frame)
{
    if (frame.image.isNull())
        return false;
    QMutexLocker lock(&m_mutex);
    if (!m_entries.empty() && (frame.tNs < m_entries.back().tNs || frame.index < m_entries.back().index))
        return false;
    Entry e;
    e.index = frame.index;
    e.tNs = frame.tNs;
    e.origin = frame.origin;
    e.size = frame.image.size();
    e.image = frame.image;
    addRef(e.image);
    m_entries.push_back(std::move(e));
    trimLocked();
    return true;
}

void FrameRing::trimLocked()
{
    if (m_entries.empty())
        return;
    const qint64 oldestKept = m_entries.back().tNs - m_settings.durationNs;
    while (m_entries.size() > 1 && m_entries.front().tNs < oldestKept)
        popFront();
    while (m_bytes > m_settings.maxBytes && m_entries.size() > 1) {
        if (m_settings.downscaleOlder && degradeOldestLocked())
            continue;
        popFront();
        ++m_dropped;
    }
}

// Downscales the oldest full-size buffer that the newest frame does not use; every entry sharing that
// buffer gets the same small image, so the memory is really freed.
bool FrameRing::degradeOldestLocked()
{
    const qint64 newestKey = m_entries.back().image.cacheKey();
    for (size_t i = 0; i + 1 < m_entries.size(); ++i) {
        Entry& e = m_entries[i];
        if (e.degraded || e.image.cacheKey() == newestKey)
            continue;
        const qint64 key = e.image.cacheKey();
        const QImage small = halfSizeRgb16(e.image);
        if (small.isNull())
            return false;
        for (size_t j = i; j + 1 < m_entries.size(); ++j) {
            Entry& other = m_entries[j];
            if (other.degraded || other.image.cacheKey() != key)
                continue;
            release(other.image);
            other.image = small;
            other.degraded = true;
            addRef(other.image);
            ++m_downscaled;
        }
        return true;
    }
    return false;
}

void FrameRing::clear()
{
    QMutexLocker lock(&m_mutex);
    m_entries.clear();
    m_refs.clear();
    m_bytes = 0;
}

qsizetype FrameRing::size() const
{
    QMutexLocker lock(&m_mutex);
    return qsizetype(m_entries.size());
}

Frame FrameRing::toFrame(const Entry& e) const
{
    Frame f;
    f.index = e.index;
    f.tNs = e.tNs;
    f.origin = e.origin;
    f.image = e.degraded ? e.image.scaled(e.size, Qt::IgnoreAspectRatio, Qt::FastTransformation)
                               .convertToFormat(QImage::Format_RGB32)
                         : e.image;
    return f;
}

std::optional<Frame> FrameRing::at(qsizetype position) const
{
    QMutexLocker lock(&m_mutex);
    if (position < 0 || size_t(position) >= m_entries.size())
        return std::nullopt;
    return toFrame(m_entries[size_t(position)]);
}

std::optional<Frame> FrameRing::latest() const
{
    QMutexLocker lock(&m_mutex);
    if (m_entries.empty())
        return std::nullopt;
    return toFrame(m_entries.back());
}

std::optional<Frame> FrameRing::atOrBefore(qint64 tNs) const
{
    QMutexLocker lock(&m_mutex);
    // First entry later than tNs; the one before it is the answer.
    const auto it = std::upper_bound(m_entries.begin(), m_entries.end(), tNs,
                                     [](qint64 t, const Entry& e) { return t < e.tNs; });
    if (it == m_entries.begin())
        return std::nullopt;
    return toFrame(*std::prev(it));
}

std::optional<qsizetype> FrameRing::findIndexLocked(quint64 frameIndex) const
{
    const auto it = std::lower_bound(m_entries.begin(), m_entries.end(), frameIndex,
                                     [](const Entry& e, quint64 index) { return e.index < index; });
    if (it == m_entries.end() || it->index != frameIndex)
        return std::nullopt;
    return qsizetype(it - m_entries.begin());
}

std::optional<Frame> FrameRing::byIndex(quint64 frameIndex) const
{
    QMutexLocker lock(&m_mutex);
    const auto position = findIndexLocked(frameIndex);
    if (!position)
        return std::nullopt;
    return toFrame(m_entries[size_t(*position)]);
}

bool FrameRing::isDegraded(quint64 frameIndex) const
{
    QMutexLocker lock(&m_mutex);
    const auto position = findIndexLocked(frameIndex);
    return position && m_entries[size_t(*position)].degraded;
}

qint64 FrameRing::memoryBytes() const
{
    QMutexLocker lock(&m_mutex);
    return m_bytes;
}

FrameRing::Stats FrameRing::stats() const
{
    QMutexLocker lock(&m_mutex);
    Stats s;
    s.frames = qsizetype(m_entries.size());
    for (const Entry& e : m_entries)
        s.degradedFrames += e.degraded ? 1 : 0;
    s.buffers = m_refs.size();
    s.bytes = m_bytes;
    s.maxBytes = m_settings.maxBytes;
    s.droppedForMemory = m_dropped;
    s.downscaled = m_downscaled;
    return s;
}

} // namespace ciu::capture
