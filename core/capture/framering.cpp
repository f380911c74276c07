#include "core/capture/framering.h"

#include <QMutexLocker>
#include <QPainter>

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
    const int width = out.width();
    const int height = out.height();
    for (int y = 0; y < height; ++y) {
        const auto* in = reinterpret_cast<const quint32*>(src.constScanLine(y * 2));
        auto* line = reinterpret_cast<quint16*>(out.scanLine(y));
        for (int x = 0; x < width; ++x) {
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
    Entry& front = m_entries.front();
    if (front.isDelta())
        m_bytes -= front.patchBytes;
    else
        release(front.image);
    m_entries.pop_front();
}

bool FrameRing::push(const Frame& frame, const QRegion* changedSincePrevious)
{
    if (frame.image.isNull())
        return false;
    QMutexLocker lock(&m_mutex);
    if (!m_entries.empty() && (frame.tNs < m_entries.back().tNs || frame.index < m_entries.back().index))
        return false;
    if (changedSincePrevious && !m_entries.empty())
        makeDeltaLocked(m_entries.back(), frame, *changedSincePrevious);
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

// Keeps `previous` (the newest so far) as its pixels in `changed` only, when that is small enough.
void FrameRing::makeDeltaLocked(Entry& previous, const Frame& next, const QRegion& changed)
{
    if (previous.isDelta() || previous.degraded || previous.size != next.image.size() ||
        previous.origin != next.origin) {
        m_chainPatchBytes = 0;
        return;
    }
    const QRect frameRect(QPoint(0, 0), previous.size);
    QRegion local = changed.translated(-next.origin).intersected(frameRect);
    if (local.rectCount() > 64)
        local = local.boundingRect();
    qint64 area = 0;
    for (const QRect& r : local)
        area += qint64(r.width()) * r.height();
    const qint64 frameArea = qint64(frameRect.width()) * frameRect.height();
    const qint64 bytes = area * previous.image.depth() / 8;
    if (area * 4 > frameArea || m_chainPatchBytes + bytes > 4 * previous.image.sizeInBytes()) {
        m_chainPatchBytes = 0; // stays a whole frame: a key
        return;
    }
    QList<Patch> patches;
    qint64 patchBytes = 0;
    for (const QRect& r : local) {
        Patch patch{r.topLeft(), previous.image.copy(r)};
        if (patch.pixels.isNull())
            return; // out of memory: keep the whole frame
        patchBytes += patch.pixels.sizeInBytes();
        patches << patch;
    }
    release(previous.image);
    previous.image = QImage();
    previous.patches = std::move(patches);
    previous.patchBytes = patchBytes;
    m_bytes += patchBytes;
    m_chainPatchBytes += patchBytes;
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
        if (e.degraded || e.isDelta() || e.image.cacheKey() == newestKey)
            continue;
        const qint64 key = e.image.cacheKey();
        const QImage small = halfSizeRgb16(e.image);
        if (small.isNull())
            return false;
        for (size_t j = i; j + 1 < m_entries.size(); ++j) {
            Entry& other = m_entries[j];
            if (other.degraded || other.isDelta() || other.image.cacheKey() != key)
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
    m_chainPatchBytes = 0;
}

qsizetype FrameRing::size() const
{
    QMutexLocker lock(&m_mutex);
    return qsizetype(m_entries.size());
}

// Whole frames are returned as held (scaled up when degraded); a delta is rebuilt from the next whole
// frame by laying the patches of the deltas in between over it, newest first.
Frame FrameRing::toFrameLocked(size_t position) const
{
    size_t key = position;
    while (key + 1 < m_entries.size() && m_entries[key].isDelta())
        ++key;
    const Entry& e = m_entries[position];
    const Entry& k = m_entries[key];
    Frame f;
    f.index = e.index;
    f.tNs = e.tNs;
    f.origin = e.origin;
    f.image = k.degraded ? k.image.scaled(k.size, Qt::IgnoreAspectRatio, Qt::FastTransformation)
                               .convertToFormat(QImage::Format_RGB32)
                         : k.image;
    if (key == position)
        return f;
    if (!k.degraded)
        f.image = f.image.copy();
    QPainter painter(&f.image);
    painter.setCompositionMode(QPainter::CompositionMode_Source);
    for (size_t i = key; i-- > position;) {
        for (const Patch& patch : m_entries[i].patches)
            painter.drawImage(patch.pos, patch.pixels);
    }
    return f;
}

bool FrameRing::degradedLocked(size_t position) const
{
    size_t key = position;
    while (key + 1 < m_entries.size() && m_entries[key].isDelta())
        ++key;
    return m_entries[key].degraded;
}

std::optional<Frame> FrameRing::at(qsizetype position) const
{
    QMutexLocker lock(&m_mutex);
    if (position < 0 || size_t(position) >= m_entries.size())
        return std::nullopt;
    return toFrameLocked(size_t(position));
}

std::optional<Frame> FrameRing::latest() const
{
    QMutexLocker lock(&m_mutex);
    if (m_entries.empty())
        return std::nullopt;
    return toFrameLocked(m_entries.size() - 1);
}

std::optional<Frame> FrameRing::atOrBefore(qint64 tNs) const
{
    QMutexLocker lock(&m_mutex);
    // First entry later than tNs; the one before it is the answer.
    const auto it = std::upper_bound(m_entries.begin(), m_entries.end(), tNs,
                                     [](qint64 t, const Entry& e) { return t < e.tNs; });
    if (it == m_entries.begin())
        return std::nullopt;
    return toFrameLocked(size_t(std::prev(it) - m_entries.begin()));
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
    return toFrameLocked(size_t(*position));
}

bool FrameRing::isDegraded(quint64 frameIndex) const
{
    QMutexLocker lock(&m_mutex);
    const auto position = findIndexLocked(frameIndex);
    return position && degradedLocked(size_t(*position));
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
    bool keyDegraded = false; // of the next whole frame, walking from the newest
    for (size_t i = m_entries.size(); i-- > 0;) {
        const Entry& e = m_entries[i];
        if (!e.isDelta())
            keyDegraded = e.degraded;
        s.degradedFrames += keyDegraded ? 1 : 0;
        s.deltaFrames += e.isDelta() ? 1 : 0;
    }
    s.buffers = m_refs.size();
    s.bytes = m_bytes;
    s.maxBytes = m_settings.maxBytes;
    s.droppedForMemory = m_dropped;
    s.downscaled = m_downscaled;
    return s;
}

} // namespace ciu::capture
