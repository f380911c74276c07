#include "platform/x11/x11screeninfo.h"

#include <QList>

#include <cstring>

namespace ciu::platform::x11 {

std::optional<double> xftDpiFromResources(const QByteArray& resources)
{
    // Resource lines are "name:\tvalue"; the last definition wins, as in Xrm.
    std::optional<double> dpi;
    const QList<QByteArray> lines = resources.split('\n');
    for (const QByteArray& raw : lines) {
        const QByteArray line = raw.trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0)
            continue;
        if (line.left(colon).trimmed() != "Xft.dpi")
            continue;
        bool ok = false;
        const double value = line.mid(colon + 1).trimmed().toDouble(&ok);
        if (ok && value >= 24.0 && value <= 1200.0)
            dpi = value;
    }
    return dpi;
}

double dpiFromPhysicalSize(int pixels, int millimetres)
{
    if (pixels <= 0 || millimetres <= 0)
        return 96.0;
    return double(pixels) * 25.4 / double(millimetres);
}

int zpixmapStride(int width, int bitsPerPixel, int scanlinePadBits)
{
    const int pad = scanlinePadBits > 0 ? scanlinePadBits : 32;
    const qint64 bits = qint64(width) * bitsPerPixel;
    return int(((bits + pad - 1) / pad) * pad / 8);
}

void copyPixels(const uchar* source, int sourceStride, PixelLayout layout, QSize size, QImage& target,
                QPoint targetPos)
{
    const int w = size.width();
    const int h = size.height();
    const qsizetype targetStride = target.bytesPerLine();
    uchar* targetBase = target.bits() + targetPos.y() * targetStride + qsizetype(targetPos.x()) * 4;
    if (layout == PixelLayout::Xrgb32 && targetPos.x() == 0 && w == target.width() &&
        sourceStride == targetStride) {
        std::memcpy(targetBase, source, size_t(sourceStride) * size_t(h)); // one block
        return;
    }
    for (int y = 0; y < h; ++y) {
        const uchar* src = source + qsizetype(y) * sourceStride;
        auto* dst = reinterpret_cast<quint32*>(targetBase + y * targetStride);
        if (layout == PixelLayout::Xrgb32) {
            std::memcpy(dst, src, size_t(w) * 4);
        } else {
            for (int x = 0; x < w; ++x) {
                quint16 p;
                std::memcpy(&p, src + qsizetype(x) * 2, 2);
                const quint32 r = (p >> 11) & 0x1f;
                const quint32 g = (p >> 5) & 0x3f;
                const quint32 b = p & 0x1f;
                dst[x] = 0xff000000u | (((r << 3) | (r >> 2)) << 16) | (((g << 2) | (g >> 4)) << 8) |
                         ((b << 3) | (b >> 2));
            }
        }
    }
}

} // namespace ciu::platform::x11
