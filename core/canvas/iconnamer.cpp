// IconNamer, the matching side: one shape descriptor per icon pixmap (an ink map on a 16x16 grid of the
// icon's bounding square), the same descriptor for a zone's ink, and the normalised correlation of the two.
//
// Ink is the difference to the background, |g - bg|: light icons on a dark theme and dark icons on a light
// one give the same map. A full-colour icon's ink depends on the background it is drawn on; its descriptor
// keeps the area averages of alpha (A) and alpha x luminance (P), so that |P - bg * A| is its ink map on any
// background grey bg. Symbolic icons are recoloured by the program's theme: their ink map is A alone.

#include "core/canvas/iconnamer.h"

#include "core/canvas/canvaslog.h"
#include "core/canvas/iconnamer_p.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHash>
#include <QImageReader>
#include <QSet>

#include <algorithm>
#include <array>
#include <cmath>
#include <opencv2/imgproc.hpp>

namespace ciu::canvas {
namespace {

constexpr int kGrid = 16;
constexpr int kCells = kGrid * kGrid;
// Backgrounds a full-colour icon's bounding box is measured on (its light parts vanish on a light one);
// a zone uses the nearest.
constexpr std::array<float, 4> kLooks{32, 96, 160, 224};
// Ink above this share of the strongest ink is part of the icon's extent.
constexpr float kExtentShare = 0.3f;
// Longest sides of icon and zone extent may differ by this factor in log terms (aspect ratios).
constexpr double kMaxAspectLog = 0.3;

using Grid = std::array<float, kCells>;

struct Look
{
    cv::Rect box; // the extent on this background (pixmap coordinates)
    Grid a{};     // area average of alpha over the extent's square, 0..1
    Grid p{};     // of alpha x luminance, 0..255
};

struct Descriptor
{
    int size = 0;
    std::vector<Look> looks; // one for symbolic icons, kLooks.size() for full-colour ones
};

struct Variant
{
    QString name; // "document-save-symbolic"
    int label = 0;
    bool symbolic = false;
    std::vector<Descriptor> sizes;
};

// The square around `box` (centred on it, as large as its longer side), resampled to the grid by area.
Grid squareGrid(const cv::Mat& values, const cv::Rect& box)
{
    const int side = std::max(box.width, box.height);
    const int x0 = box.x + box.width / 2 - side / 2;
    const int y0 = box.y + box.height / 2 - side / 2;
    cv::Mat square = cv::Mat::zeros(side, side, CV_32F);
    const cv::Rect src = cv::Rect(x0, y0, side, side) & cv::Rect(0, 0, values.cols, values.rows);
    if (src.area() > 0)
        values(src).copyTo(square(cv::Rect(src.x - x0, src.y - y0, src.width, src.height)));
    cv::Mat small;
    cv::resize(square, small, cv::Size(kGrid, kGrid), 0, 0, cv::INTER_AREA);
    Grid g;
    for (int y = 0; y < kGrid; ++y)
        for (int x = 0; x < kGrid; ++x)
            g[size_t(y * kGrid + x)] = small.at<float>(y, x);
    return g;
}

cv::Rect extent(const cv::Mat& ink)
{
    double maxInk = 0;
    cv::minMaxLoc(ink, nullptr, &maxInk);
    if (maxInk <= 0)
        return {};
    cv::Mat mask = ink > maxInk * kExtentShare;
    std::vector<cv::Point> points;
    cv::findNonZero(mask, points);
    return points.empty() ? cv::Rect() : cv::boundingRect(points);
}

// Zero mean, unit length; false for a flat vector.
bool normalise(Grid& g)
{
    float mean = 0;
    for (const float v : g)
        mean += v;
    mean /= float(kCells);
    float norm = 0;
    for (float& v : g) {
        v -= mean;
        norm += v * v;
    }
    if (norm < 1e-6f)
        return false;
    norm = std::sqrt(norm);
    for (float& v : g)
        v /= norm;
    return true;
}

std::optional<Descriptor> describe(const QImage& pixmap, int size, bool symbolic)
{
    const QImage argb = pixmap.convertToFormat(QImage::Format_ARGB32);
    cv::Mat alpha(argb.height(), argb.width(), CV_32F);
    cv::Mat luma(argb.height(), argb.width(), CV_32F);
    for (int y = 0; y < argb.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(argb.constScanLine(y));
        for (int x = 0; x < argb.width(); ++x) {
            alpha.at<float>(y, x) = float(qAlpha(row[x])) / 255.f;
            luma.at<float>(y, x) =
                0.299f * float(qRed(row[x])) + 0.587f * float(qGreen(row[x])) + 0.114f * float(qBlue(row[x]));
        }
    }
    const cv::Mat premultiplied = alpha.mul(luma);
    Descriptor d;
    d.size = size;
    const size_t looks = symbolic ? 1 : kLooks.size();
    for (size_t l = 0; l < looks; ++l) {
        const cv::Mat ink = symbolic ? alpha : cv::abs(premultiplied - alpha * kLooks[l]);
        Look look;
        look.box = extent(ink);
        if (look.box.area() <= 0)
            return std::nullopt;
        look.a = squareGrid(alpha, look.box);
        look.p = squareGrid(premultiplied, look.box);
        d.looks.push_back(look);
    }
    return d;
}

} // namespace

struct IconNamer::Private
{
    Options options;
    bool loaded = false;
    QString error;
    QStringList chain;
    QStringList labels; // distinct labels; Variant::label indexes it
    QStringList baseNames;
    std::vector<Variant> variants;
    int descriptors = 0;
    double loadMs = 0;

    void load();
    std::optional<IconMatch> match(const QImage& image, const QRect& zone, bool sureOnly);
};

void IconNamer::Private::load()
{
    loaded = true;
    QElapsedTimer timer;
    timer.start();
    const QStringList paths =
        options.searchPaths.isEmpty() ? iconnaming::defaultSearchPaths() : options.searchPaths;
    const iconnaming::ThemeFiles files =
        iconnaming::listThemeFiles(options.themes, paths, options.sizes, options.contexts);
    chain = files.chain;
    // The same picture under two names ("system-search" drawn as "edit-find"): the first name keeps it, or
    // the two would tie for every zone showing it.
    QSet<QByteArray> pictures;
    QHash<QString, int> variantIndex;
    QHash<QString, int> labelIndex;
    for (const iconnaming::IconFile& f : files.files) {
        QImageReader reader(f.path);
        if (f.svg)
            reader.setScaledSize(QSize(f.size, f.size));
        const QImage pixmap = reader.read().convertToFormat(QImage::Format_ARGB32);
        if (pixmap.isNull() || pixmap.width() < 4 || pixmap.height() < 4)
            continue;
        QCryptographicHash hash(QCryptographicHash::Md5);
        for (int y = 0; y < pixmap.height(); ++y)
            hash.addData(QByteArrayView(reinterpret_cast<const char*>(pixmap.constScanLine(y)),
                                        qsizetype(pixmap.width()) * 4));
        const QByteArray picture = hash.result();
        if (pictures.contains(picture))
            continue;
        pictures.insert(picture);
        const bool symbolic = f.variant.contains(QLatin1String("-symbolic"));
        const auto descriptor = describe(pixmap, f.size, symbolic);
        if (!descriptor)
            continue;
        auto it = variantIndex.find(f.variant);
        if (it == variantIndex.end()) {
            const QString base = IconNamer::baseName(f.variant);
            auto label = labelIndex.find(base);
            if (label == labelIndex.end()) {
                label = labelIndex.insert(base, int(baseNames.size()));
                baseNames << base;
                labels << IconNamer::labelFor(base);
            }
            it = variantIndex.insert(f.variant, int(variants.size()));
            variants.push_back(Variant{f.variant, *label, symbolic, {}});
        }
        variants[size_t(*it)].sizes.push_back(*descriptor);
        ++descriptors;
    }
    loadMs = double(timer.nsecsElapsed()) / 1e6;
    if (variants.empty())
        error = chain.isEmpty()
                    ? QStringLiteral("no icon theme found (looked for %1 in %2)")
                          .arg(options.themes.join(QStringLiteral(", ")), paths.join(QStringLiteral(", ")))
                    : QStringLiteral("the icon themes %1 hold no readable icon")
                          .arg(chain.join(QStringLiteral(", ")));
    if (!error.isEmpty())
        qCWarning(lcCanvas) << "icon naming:" << error;
    else
        qCInfo(lcCanvas) << "icon naming: indexed" << baseNames.size() << "icons," << descriptors
                         << "pixmaps from" << chain << "in" << loadMs << "ms";
}

std::optional<IconMatch> IconNamer::Private::match(const QImage& image, const QRect& zone, bool sureOnly)
{
    if (!loaded)
        load();
    if (variants.empty() || image.isNull())
        return std::nullopt;
    const QRect z = zone.intersected(image.rect());
    if (z.width() < options.minIconPx || z.height() < options.minIconPx || z.width() > options.maxZonePx ||
        z.height() > options.maxZonePx)
        return std::nullopt;
    // The zone with a margin: an icon boxed tightly by the segmenter has its background around it.
    constexpr int pad = 3;
    const QRect area = z.adjusted(-pad, -pad, pad, pad).intersected(image.rect());
    const QImage rgb = image.copy(area).convertToFormat(QImage::Format_RGB32);
    cv::Mat grey(rgb.height(), rgb.width(), CV_32F);
    std::array<int, 64> histogram{};
    for (int y = 0; y < rgb.height(); ++y) {
        const auto* row = reinterpret_cast<const QRgb*>(rgb.constScanLine(y));
        for (int x = 0; x < rgb.width(); ++x) {
            const float g =
                0.299f * float(qRed(row[x])) + 0.587f * float(qGreen(row[x])) + 0.114f * float(qBlue(row[x]));
            grey.at<float>(y, x) = g;
            ++histogram[size_t(std::min(63, int(g) / 4))];
        }
    }
    // The background: the most common grey (an icon's own colours are shaded, its background is flat).
    const auto modeBin = size_t(std::max_element(histogram.cbegin(), histogram.cend()) - histogram.cbegin());
    double sum = 0;
    int count = 0;
    for (int y = 0; y < grey.rows; ++y)
        for (int x = 0; x < grey.cols; ++x) {
            const float g = grey.at<float>(y, x);
            if (std::abs(g - (float(modeBin) * 4.f + 2.f)) <= 4.f) {
                sum += g;
                ++count;
            }
        }
    const float bg = count ? float(sum / count) : float(modeBin) * 4.f + 2.f;
    const cv::Mat diff = grey - bg;
    const cv::Mat ink = cv::abs(diff);

    // Ink components; a frame (the button's border: spans the zone, mostly hollow) and what touches the
    // margin's edge (neighbours, the tool bar's lines) are not the icon.
    double maxInk = 0;
    cv::minMaxLoc(ink, nullptr, &maxInk);
    if (maxInk < 24)
        return std::nullopt; // flat: nothing drawn
    cv::Mat mask = ink > std::max(10.0, 0.15 * maxInk);
    cv::Mat components, stats, centroids;
    const int n = cv::connectedComponentsWithStats(mask, components, stats, centroids, 8, CV_32S);
    // Pixels of each component on the rim of the component's own box: a frame has nearly all its ink there.
    std::vector<int> rim(size_t(n), 0);
    for (int y = 0; y < components.rows; ++y) {
        const int* row = components.ptr<int>(y);
        for (int x = 0; x < components.cols; ++x) {
            const int c = row[x];
            if (c == 0)
                continue;
            const int left = stats.at<int>(c, cv::CC_STAT_LEFT);
            const int top = stats.at<int>(c, cv::CC_STAT_TOP);
            const int right = left + stats.at<int>(c, cv::CC_STAT_WIDTH) - 1;
            const int bottom = top + stats.at<int>(c, cv::CC_STAT_HEIGHT) - 1;
            if (x - left < 2 || right - x < 2 || y - top < 2 || bottom - y < 2)
                ++rim[size_t(c)];
        }
    }
    cv::Mat keep = cv::Mat::zeros(mask.size(), CV_8U);
    const QRect zoneLocal = z.translated(-area.topLeft());
    for (int c = 1; c < n; ++c) {
        const cv::Rect r(stats.at<int>(c, cv::CC_STAT_LEFT), stats.at<int>(c, cv::CC_STAT_TOP),
                         stats.at<int>(c, cv::CC_STAT_WIDTH), stats.at<int>(c, cv::CC_STAT_HEIGHT));
        const int pixels = stats.at<int>(c, cv::CC_STAT_AREA);
        const bool atEdge = (r.x == 0 && area.left() < z.left()) || (r.y == 0 && area.top() < z.top()) ||
                            (r.x + r.width == grey.cols && area.right() > z.right()) ||
                            (r.y + r.height == grey.rows && area.bottom() > z.bottom());
        const bool frame = r.width >= zoneLocal.width() - 4 && r.height >= zoneLocal.height() - 4 &&
                           rim[size_t(c)] * 10 >= pixels * 9;
        if (!atEdge && !frame)
            keep.setTo(255, components == c);
    }
    cv::Mat iconInk;
    ink.copyTo(iconInk, keep);
    const cv::Rect box = extent(iconInk);
    const int longSide = std::max(box.width, box.height);
    if (box.area() <= 0 || longSide < options.minIconPx || longSide > options.maxIconPx)
        return std::nullopt;
    cv::Mat masked = cv::Mat::zeros(diff.size(), CV_32F);
    diff.copyTo(masked, keep);
    Grid zoneGrid = squareGrid(masked, box);
    for (float& v : zoneGrid)
        v = std::abs(v);
    if (!normalise(zoneGrid))
        return std::nullopt;
    const double zoneAspect = std::log(double(box.width) / box.height);

    size_t look = 0;
    for (size_t l = 1; l < kLooks.size(); ++l) {
        if (std::abs(kLooks[l] - bg) < std::abs(kLooks[look] - bg))
            look = l;
    }
    struct Best
    {
        float score = -2;
        int variant = -1;
        int size = 0;
    };
    std::vector<Best> perLabel(size_t(labels.size()), Best{});
    Grid candidate;
    for (size_t v = 0; v < variants.size(); ++v) {
        const Variant& var = variants[v];
        const size_t l = var.symbolic ? 0 : look;
        // Every size: a scaled icon (1.5x of 24 px) looks most like its own pixmap scaled, not like the
        // theme's hand-drawn pixmap nearest in size.
        float score = -2;
        int size = 0;
        for (const Descriptor& d : var.sizes) {
            const Look& lk = d.looks[l];
            if (std::abs(std::log(double(lk.box.width) / lk.box.height) - zoneAspect) > kMaxAspectLog)
                continue;
            for (size_t i = 0; i < size_t(kCells); ++i)
                candidate[i] = var.symbolic ? lk.a[i] : std::abs(lk.p[i] - bg * lk.a[i]);
            if (!normalise(candidate))
                continue;
            float dot = 0;
            for (size_t i = 0; i < size_t(kCells); ++i)
                dot += candidate[i] * zoneGrid[i];
            if (dot > score) {
                score = dot;
                size = d.size;
            }
        }
        if (size == 0)
            continue;
        Best& best = perLabel[size_t(var.label)];
        if (score > best.score)
            best = Best{score, int(v), size};
    }
    int first = -1;
    int second = -1;
    for (int i = 0; i < int(perLabel.size()); ++i) {
        if (perLabel[size_t(i)].variant < 0)
            continue;
        if (first < 0 || perLabel[size_t(i)].score > perLabel[size_t(first)].score) {
            second = first;
            first = i;
        } else if (second < 0 || perLabel[size_t(i)].score > perLabel[size_t(second)].score) {
            second = i;
        }
    }
    if (first < 0)
        return std::nullopt;
    IconMatch m;
    const Best& best = perLabel[size_t(first)];
    m.iconName = baseNames[first];
    m.label = labels[first];
    m.score = best.score;
    m.margin = second >= 0 ? best.score - perLabel[size_t(second)].score : best.score + 1;
    m.runnerUp = second >= 0 ? baseNames[second] : QString();
    m.iconRect = QRect(box.x, box.y, box.width, box.height).translated(area.topLeft());
    m.size = best.size;
    // Sure: close to its icon, and much closer than to any icon with another label (the distance of two
    // unit vectors is 2 (1 - correlation): a ratio test on distances).
    const double secondScore = second >= 0 ? perLabel[size_t(second)].score : -1;
    m.distanceRatio = (1 - m.score) / std::max(1e-6, 1 - secondScore);
    if (sureOnly && (m.score < options.minScore || m.distanceRatio > options.maxDistanceRatio))
        return std::nullopt;
    return m;
}

IconNamer::IconNamer()
    : IconNamer(Options{})
{
}

IconNamer::IconNamer(Options options)
    : d(std::make_unique<Private>())
{
    d->options = std::move(options);
}

IconNamer::~IconNamer() = default;

bool IconNamer::load()
{
    if (!d->loaded)
        d->load();
    return !d->variants.empty();
}

bool IconNamer::isLoaded() const
{
    return d->loaded;
}

QString IconNamer::errorString() const
{
    return d->error;
}

int IconNamer::iconCount() const
{
    return int(d->baseNames.size());
}

int IconNamer::descriptorCount() const
{
    return d->descriptors;
}

double IconNamer::loadMs() const
{
    return d->loadMs;
}

QStringList IconNamer::themeChain() const
{
    return d->chain;
}

std::optional<IconMatch> IconNamer::name(const QImage& image, const QRect& zone)
{
    return d->match(image, zone, true);
}

std::optional<IconMatch> IconNamer::bestMatch(const QImage& image, const QRect& zone)
{
    return d->match(image, zone, false);
}

} // namespace ciu::canvas
