#pragma once

// Helpers shared by the replay unit tests: synthetic frames drawn with QPainter and image comparison.

#include <QColor>
#include <QImage>
#include <QPainter>

#include <cstdlib>

namespace ciu::test {

// A frame that differs visibly with `n`: a gradient background, a moving block and a counter.
inline QImage syntheticFrame(QSize size, int n)
{
    QImage image(size, QImage::Format_RGB32);
    QPainter p(&image);
    QLinearGradient g(0, 0, size.width(), size.height());
    g.setColorAt(0, QColor(40, 60, 90));
    g.setColorAt(1, QColor(200, 210, 230));
    p.fillRect(image.rect(), g);
    const int block = size.height() / 4;
    const int x = (n * 37) % qMax(1, size.width() - block);
    p.fillRect(QRect(x, size.height() / 3, block, block), QColor::fromHsv((n * 29) % 360, 200, 230));
    p.setPen(Qt::black);
    QFont font = p.font();
    font.setPixelSize(qMax(10, size.height() / 10));
    p.setFont(font);
    p.drawText(QRect(10, 10, size.width() - 20, size.height() / 4), Qt::AlignLeft, QString::number(n));
    return image;
}

// Mean absolute difference per channel (0..255) of two images of the same size; 255 when they differ in size.
inline double meanAbsDiff(const QImage& a, const QImage& b)
{
    if (a.size() != b.size() || a.isNull())
        return 255.0;
    const QImage x = a.convertToFormat(QImage::Format_RGB32);
    const QImage y = b.convertToFormat(QImage::Format_RGB32);
    double sum = 0;
    for (int row = 0; row < x.height(); ++row) {
        const auto* px = reinterpret_cast<const QRgb*>(x.constScanLine(row));
        const auto* py = reinterpret_cast<const QRgb*>(y.constScanLine(row));
        for (int col = 0; col < x.width(); ++col) {
            sum += std::abs(qRed(px[col]) - qRed(py[col])) + std::abs(qGreen(px[col]) - qGreen(py[col])) +
                   std::abs(qBlue(px[col]) - qBlue(py[col]));
        }
    }
    return sum / (3.0 * x.width() * x.height());
}

} // namespace ciu::test
