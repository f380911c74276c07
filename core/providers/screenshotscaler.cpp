#include "core/providers/screenshotscaler.h"

#include <QJsonArray>

#include <cmath>

namespace ciu::director {

namespace {
constexpr QSize kTargets[] = {{1024, 768}, {1280, 800}, {1366, 768}}; // XGA, WXGA, FWXGA
constexpr int kMaxLongEdge = 1568;
constexpr qint64 kMaxPixels = 1'150'000;

int scaleCoord(int v, int to, int from)
{
    return from > 0 ? int(std::lround(double(v) * to / from)) : v;
}
} // namespace

std::optional<QSize> ScreenshotScaler::pickTarget(QSize screen)
{
    if (screen.width() <= 0 || screen.height() <= 0)
        return std::nullopt;
    const double ratio = double(screen.width()) / screen.height();
    for (const QSize& t : kTargets) {
        if (std::abs(double(t.width()) / t.height() - ratio) < 0.02) {
            if (t.width() < screen.width())
                return t;
            return std::nullopt; // the demo stops at the first aspect match
        }
    }
    const QSize fitted = fitWithinLimits(screen);
    if (fitted != screen)
        return fitted;
    return std::nullopt;
}

QSize ScreenshotScaler::fitWithinLimits(QSize size)
{
    if (size.width() <= 0 || size.height() <= 0)
        return size;
    double factor = 1.0;
    const int longEdge = std::max(size.width(), size.height());
    if (longEdge > kMaxLongEdge)
        factor = double(kMaxLongEdge) / longEdge;
    const double pixels = double(size.width()) * size.height() * factor * factor;
    if (pixels > kMaxPixels)
        factor *= std::sqrt(kMaxPixels / pixels);
    if (factor >= 1.0)
        return size;
    return QSize(std::max(1, int(std::floor(size.width() * factor))),
                 std::max(1, int(std::floor(size.height() * factor))));
}

ScreenshotScaler::ScreenshotScaler(QSize screenSize)
    : m_screen(screenSize)
    , m_target(pickTarget(screenSize).value_or(screenSize))
{
}

QPoint ScreenshotScaler::toScreen(QPoint p) const
{
    if (!isScaling())
        return p;
    return {scaleCoord(p.x(), m_screen.width(), m_target.width()),
            scaleCoord(p.y(), m_screen.height(), m_target.height())};
}

QPoint ScreenshotScaler::toModel(QPoint p) const
{
    if (!isScaling())
        return p;
    return {scaleCoord(p.x(), m_target.width(), m_screen.width()),
            scaleCoord(p.y(), m_target.height(), m_screen.height())};
}

QRect ScreenshotScaler::toScreen(const QRect& r) const
{
    if (!isScaling())
        return r;
    const QPoint a = toScreen(r.topLeft());
    const QPoint b = toScreen(QPoint(r.x() + r.width(), r.y() + r.height()));
    return QRect(a, QSize(b.x() - a.x(), b.y() - a.y()));
}

QRect ScreenshotScaler::toModel(const QRect& r) const
{
    if (!isScaling())
        return r;
    const QPoint a = toModel(r.topLeft());
    const QPoint b = toModel(QPoint(r.x() + r.width(), r.y() + r.height()));
    return QRect(a, QSize(b.x() - a.x(), b.y() - a.y()));
}

bool ScreenshotScaler::inModelBounds(QPoint p) const
{
    return p.x() >= 0 && p.y() >= 0 && p.x() < m_target.width() && p.y() < m_target.height();
}

QImage ScreenshotScaler::scaleImage(const QImage& screenshot) const
{
    if (!isScaling() || screenshot.isNull() || screenshot.size() == m_target)
        return screenshot;
    return screenshot.scaled(m_target, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
}

namespace {
bool readInts(const QJsonValue& value, int count, QList<int>& out)
{
    if (!value.isArray())
        return false;
    const QJsonArray a = value.toArray();
    if (a.size() != count)
        return false;
    out.clear();
    for (const QJsonValue& v : a) {
        if (!v.isDouble())
            return false;
        const double d = v.toDouble();
        if (!std::isfinite(d) || std::abs(d) > 1e7)
            return false;
        out.append(int(std::lround(d)));
    }
    return true;
}
} // namespace

std::optional<QJsonObject> ScreenshotScaler::mapInputToScreen(const QJsonObject& input, QString* error) const
{
    QJsonObject out = input;
    auto fail = [&](const QString& message) -> std::optional<QJsonObject> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    const QString size = QStringLiteral("%1x%2").arg(m_target.width()).arg(m_target.height());
    for (const QString& key : {QStringLiteral("coordinate"), QStringLiteral("start_coordinate")}) {
        if (!input.contains(key) || input.value(key).isNull())
            continue;
        QList<int> v;
        if (!readInts(input.value(key), 2, v))
            return fail(QString(key + QStringLiteral(" must be [x, y] integers")));
        const QPoint p(v[0], v[1]);
        if (!inModelBounds(p))
            return fail(QStringLiteral("%1 (%2, %3) is outside the screen (%4)")
                            .arg(key)
                            .arg(p.x())
                            .arg(p.y())
                            .arg(size));
        const QPoint s = toScreen(p);
        out.insert(key, QJsonArray{s.x(), s.y()});
    }
    if (input.contains(QStringLiteral("region")) && !input.value(QStringLiteral("region")).isNull()) {
        QList<int> v;
        if (!readInts(input.value(QStringLiteral("region")), 4, v))
            return fail(QStringLiteral("region must be [x1, y1, x2, y2] integers"));
        if (v[0] < 0 || v[1] < 0 || v[2] > m_target.width() || v[3] > m_target.height() || v[2] <= v[0] ||
            v[3] <= v[1])
            return fail(QStringLiteral("region [%1, %2, %3, %4] is not a rectangle on the screen (%5)")
                            .arg(v[0])
                            .arg(v[1])
                            .arg(v[2])
                            .arg(v[3])
                            .arg(size));
        const QPoint a = toScreen(QPoint(v[0], v[1]));
        const QPoint b = toScreen(QPoint(v[2], v[3]));
        out.insert(QStringLiteral("region"), QJsonArray{a.x(), a.y(), b.x(), b.y()});
    }
    return out;
}

} // namespace ciu::director
