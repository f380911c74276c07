#pragma once

// Pure helpers of the X11 screen backend (no server needed; unit-tested).

#include <QByteArray>
#include <QImage>
#include <QRect>

#include <cstdint>
#include <optional>

namespace ciu::platform::x11 {

// "Xft.dpi" from the RESOURCE_MANAGER string ("Xft.dpi:\t120\n..."), if set and sane.
std::optional<double> xftDpiFromResources(const QByteArray& resources);
// DPI from a size in pixels and millimetres; 96 when the millimetres are unknown.
double dpiFromPhysicalSize(int pixels, int millimetres);

// Pixel layouts the grabber can convert into QImage::Format_RGB32.
enum class PixelLayout : quint8
{
    Xrgb32 = 1,
    Rgb565
};

// Bytes per row of a ZPixmap image of `width` pixels (rows padded to `scanlinePadBits`).
int zpixmapStride(int width, int bitsPerPixel, int scanlinePadBits);

// Copies `size` pixels from a ZPixmap buffer into `target` at `targetPos`. `target` must be
// Format_RGB32 and large enough; the caller clips. 32-bit pixels are copied as they are: the padding
// byte of a depth-24 visual (0 on Xvfb) stays, which Qt ignores for RGB32 (pixel(), ==, conversions),
// so copied and zero-copy grabs hold the same bytes.
void copyPixels(const uchar* source, int sourceStride, PixelLayout layout, QSize size, QImage& target,
                QPoint targetPos);

} // namespace ciu::platform::x11
