#include "core/capture/changedetector.h"

#include <algorithm>
#include <cstring>
#include <opencv2/imgproc.hpp>

namespace ciu::capture {
namespace {

constexpr quint32 kRgbMask = 0x00ffffffu;

QImage asRgb32(const QImage& image)
{
    switch (image.format()) {
    case QImage::Format_RGB32:
    case QImage::Format_ARGB32:
    case QImage::Format_ARGB32_Premultiplied:
        return image;
    default:
        return image.convertToFormat(QImage::Format_RGB32);
    }
}

} // namespace

ChangeDetector::ChangeDetector(const ChangeDetectorSettings& settings)
{
    if (validate(settings).isEmpty())
        m_settings = settings;
}

QString ChangeDetector::validate(const ChangeDetectorSettings& s)
{
    if (s.tileSize < 8 || s.tileSize > 256)
        return QStringLiteral("tile size must be 8..256 pixels (got %1)").arg(s.tileSize);
    if (!(s.thresholdPercent >= 0.0 && s.thresholdPercent <= 100.0))
        return QStringLiteral("change threshold must be 0..100 percent (got %1)").arg(s.thresholdPercent);
    if (s.animationFrames < 2 || s.animationFrames > 1000)
        return QStringLiteral("animation frames must be 2..1000 (got %1)").arg(s.animationFrames);
    if (s.animationMaxGapNs < 0)
        return QStringLiteral("animation gap must not be negative");
    if (s.stabilityWindowNs < 0 || s.stabilityWindowNs > 60'000'000'000LL)
        return QStringLiteral("stability window must be 0..60000 ms (got %1 ms)")
            .arg(s.stabilityWindowNs / 1'000'000);
    return {};
}

bool ChangeDetector::setSettings(const ChangeDetectorSettings& settings)
{
    if (!validate(settings).isEmpty())
        return false;
    const bool newTiles = settings.tileSize != m_settings.tileSize;
    m_settings = settings;
    if (newTiles) {
        m_cols = m_rows = 0; // per-tile history restarts on the next frame
        m_tiles.clear();
        m_streak.clear();
        m_lastTileNs.clear();
    }
    return true;
}

void ChangeDetector::reset()
{
    m_previous = QImage();
    m_previousOrigin = {};
    m_previousCursor = {};
    m_cols = m_rows = 0;
    m_tiles.clear();
    m_streak.clear();
    m_lastTileNs.clear();
    m_stableReported = false;
}

ChangeDetector::Result ChangeDetector::process(const Frame& frame, const QRect& cursorRect,
                                               const QRegion* damage)
{
    Result result;
    result.diff.frameIndex = frame.index;
    result.diff.tNs = frame.tNs;
    if (frame.image.isNull())
        return result;

    const QImage current = asRgb32(frame.image);
    const QRect frameRect(QPoint(0, 0), current.size());
    const QRect cursorNow = cursorRect.translated(-frame.origin).intersected(frameRect);
    const int ts = m_settings.tileSize;
    const int cols = (current.width() + ts - 1) / ts;
    const int rows = (current.height() + ts - 1) / ts;

    if (m_previous.isNull() || m_previous.size() != current.size() || m_previousOrigin != frame.origin ||
        cols != m_cols || rows != m_rows) {
        m_cols = cols;
        m_rows = rows;
        m_tiles.assign(size_t(cols) * size_t(rows), TileState{});
        m_streak.assign(m_tiles.size(), 0);
        m_lastTileNs.assign(m_tiles.size(), 0);
        result = wholeFrameChange(frame);
        m_previous = current;
        m_previousOrigin = frame.origin;
        m_previousCursor = cursorNow;
        return result;
    }

    std::fill(m_tiles.begin(), m_tiles.end(), TileState{});
    if (current.cacheKey() == m_previous.cacheKey()) {
        result.identical = true; // the same pixels (implicitly shared)
    } else {
        std::vector<quint8> selected(m_tiles.size(), damage ? 0 : 1);
        if (damage) {
            for (const QRect& rootRect : *damage) {
                const QRect r = rootRect.translated(-frame.origin).intersected(frameRect);
                if (r.isEmpty())
                    continue;
                for (int row = r.top() / ts; row <= r.bottom() / ts; ++row) {
                    for (int col = r.left() / ts; col <= r.right() / ts; ++col)
                        selected[size_t(row) * size_t(cols) + size_t(col)] = 1;
                }
            }
        }
        compareTiles(m_previous, current, selected, cursorNow, m_previousCursor, result);
        result.identical = result.changedPixels == 0 && result.cursorPixels == 0;
    }
    updateStreaks(frame.tNs);
    mergeRegions(frame, result);
    finish(frame, result);

    if (!result.identical) // identical: keep the older buffer, so a caller sharing it hits the fast path
        m_previous = current;
    m_previousCursor = cursorNow;
    return result;
}

ChangeDetector::Result ChangeDetector::wholeFrameChange(const Frame& frame)
{
    Result result;
    result.diff.frameIndex = frame.index;
    result.diff.tNs = frame.tNs;
    result.changedPixels = qint64(frame.image.width()) * frame.image.height();
    result.reported = true;
    result.diff.regions = {ChangeRegion{frame.rootRect(), 100.0, false}};
    result.diff.totalPercent = 100.0;
    m_lastChangeNs = frame.tNs;
    m_stableReported = false;
    return result;
}

void ChangeDetector::compareTiles(const QImage& previous, const QImage& current,
                                  const std::vector<quint8>& selected, const QRect& cursorA,
                                  const QRect& cursorB, Result& result)
{
    const int ts = m_settings.tileSize;
    const int width = current.width();
    const int height = current.height();
    std::vector<std::pair<int, int>> runs; // [firstCol, endCol) of selected tiles in a tile row
    runs.reserve(size_t(m_cols));

    for (int row = 0; row < m_rows; ++row) {
        runs.clear();
        const quint8* sel = selected.data() + size_t(row) * size_t(m_cols);
        for (int col = 0; col < m_cols;) {
            if (!sel[col]) {
                ++col;
                continue;
            }
            const int first = col;
            while (col < m_cols && sel[col])
                ++col;
            runs.emplace_back(first, col);
        }
        if (runs.empty())
            continue;

        const int y0 = row * ts;
        const int y1 = std::min(height, y0 + ts);
        TileState* tiles = m_tiles.data() + size_t(row) * size_t(m_cols);
        for (int y = y0; y < y1; ++y) {
            const auto* a = reinterpret_cast<const quint32*>(previous.constScanLine(y));
            const auto* b = reinterpret_cast<const quint32*>(current.constScanLine(y));
            const bool rowInA = y >= cursorA.top() && y <= cursorA.bottom() && !cursorA.isEmpty();
            const bool rowInB = y >= cursorB.top() && y <= cursorB.bottom() && !cursorB.isEmpty();
            for (const auto& [firstCol, endCol] : runs) {
                const int runX0 = firstCol * ts;
                const int runX1 = std::min(width, endCol * ts);
                // Pre-check: the whole run of this scanline at once.
                if (std::memcmp(a + runX0, b + runX0, size_t(runX1 - runX0) * sizeof(quint32)) == 0)
                    continue;
                for (int col = firstCol; col < endCol; ++col) {
                    const int x0 = col * ts;
                    const int x1 = std::min(width, x0 + ts);
                    if (std::memcmp(a + x0, b + x0, size_t(x1 - x0) * sizeof(quint32)) == 0)
                        continue;
                    TileState& tile = tiles[col];
                    for (int x = x0; x < x1; ++x) {
                        if (((a[x] ^ b[x]) & kRgbMask) == 0)
                            continue;
                        if ((rowInA && x >= cursorA.left() && x <= cursorA.right()) ||
                            (rowInB && x >= cursorB.left() && x <= cursorB.right())) {
                            ++result.cursorPixels;
                            continue;
                        }
                        if (tile.changed == 0) {
                            tile.minX = tile.maxX = x;
                            tile.minY = tile.maxY = y;
                        } else {
                            tile.minX = std::min(tile.minX, x);
                            tile.maxX = std::max(tile.maxX, x);
                            tile.maxY = y; // scanlines go down
                        }
                        ++tile.changed;
                        ++result.changedPixels;
                    }
                }
            }
        }
    }
}

void ChangeDetector::updateStreaks(qint64 tNs)
{
    for (size_t i = 0; i < m_tiles.size(); ++i) {
        if (m_tiles[i].changed > 0) {
            const bool continues = m_streak[i] > 0 && tNs - m_lastTileNs[i] <= m_settings.animationMaxGapNs;
            m_streak[i] = continues ? m_streak[i] + 1 : 1;
            m_lastTileNs[i] = tNs;
        } else if (m_streak[i] > 0 && tNs - m_lastTileNs[i] > m_settings.animationMaxGapNs) {
            m_streak[i] = 0;
        }
    }
}

void ChangeDetector::mergeRegions(const Frame& frame, Result& result)
{
    if (result.changedPixels == 0)
        return;
    cv::Mat mask(m_rows, m_cols, CV_8U);
    for (int row = 0; row < m_rows; ++row) {
        auto* line = mask.ptr<quint8>(row);
        for (int col = 0; col < m_cols; ++col)
            line[col] = m_tiles[size_t(row) * size_t(m_cols) + size_t(col)].changed > 0 ? 255 : 0;
    }
    cv::Mat labels;
    const int count = cv::connectedComponents(mask, labels, 8, CV_32S);
    struct Acc
    {
        QRect rect;
        qint64 pixels = 0;
        bool animating = false;
    };
    std::vector<Acc> acc(size_t(std::max(count, 1)));
    for (int row = 0; row < m_rows; ++row) {
        const int* line = labels.ptr<int>(row);
        for (int col = 0; col < m_cols; ++col) {
            const int label = line[col];
            if (label <= 0)
                continue;
            const size_t i = size_t(row) * size_t(m_cols) + size_t(col);
            const TileState& t = m_tiles[i];
            Acc& a = acc[size_t(label)];
            a.rect |= QRect(QPoint(t.minX, t.minY), QPoint(t.maxX, t.maxY));
            a.pixels += t.changed;
            a.animating = a.animating || m_streak[i] >= m_settings.animationFrames;
        }
    }
    for (int label = 1; label < count; ++label) {
        const Acc& a = acc[size_t(label)];
        if (a.pixels == 0)
            continue;
        const double area = double(a.rect.width()) * double(a.rect.height());
        result.diff.regions << ChangeRegion{a.rect.translated(frame.origin), 100.0 * double(a.pixels) / area,
                                            a.animating};
    }
    std::sort(result.diff.regions.begin(), result.diff.regions.end(),
              [](const ChangeRegion& l, const ChangeRegion& r) {
                  return l.rect.top() != r.rect.top() ? l.rect.top() < r.rect.top()
                                                      : l.rect.left() < r.rect.left();
              });
}

void ChangeDetector::finish(const Frame& frame, Result& result)
{
    const double pixels = double(frame.image.width()) * double(frame.image.height());
    result.diff.totalPercent = 100.0 * double(result.changedPixels) / pixels;
    result.reported = result.changedPixels > 0 && result.diff.totalPercent >= m_settings.thresholdPercent;
    if (result.reported) {
        for (const ChangeRegion& r : std::as_const(result.diff.regions))
            result.diff.animating = result.diff.animating || r.animating;
        m_lastChangeNs = frame.tNs;
        m_stableReported = false;
        return;
    }
    result.diff.regions.clear();
    result.diff.cursorOnly = result.changedPixels == 0 && result.cursorPixels > 0;
    if (!m_stableReported && frame.tNs - m_lastChangeNs >= m_settings.stabilityWindowNs) {
        result.diff.stable = true;
        m_stableReported = true;
    }
}

} // namespace ciu::capture
