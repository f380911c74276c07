#include "core/canvas/localanalyzer.h"

#include "core/canvas/canvaslog.h"
#include "core/canvas/glyphrecognizer.h"
#include "core/canvas/iconnamer.h"
#include "core/canvas/ocrengine.h"
#include "core/canvas/uisegmenter.h"
#include "core/canvas/zoneassembler.h"

#include <QCache>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QHash>
#include <QRegion>

#include <algorithm>
#include <cstring>
#include <limits>
#include <opencv2/imgproc.hpp>

namespace ciu::canvas {
namespace {

struct Template
{
    Zone zone;
    QImage pixels; // RGB32 copy of the zone's pixels when last seen
    cv::Mat gray;  // owns its data
    double contrast = 0;
};

cv::Rect toCv(const QRect& r)
{
    return cv::Rect(r.x(), r.y(), r.width(), r.height());
}

QRect toQ(const cv::Rect& r)
{
    return QRect(r.x, r.y, r.width, r.height);
}

// A deep copy of an 8-bit grey area as a QImage.
QImage greyImage(const cv::Mat& gray, const cv::Rect& r)
{
    const cv::Rect c = r & cv::Rect(0, 0, gray.cols, gray.rows);
    if (c.area() <= 0)
        return {};
    QImage image(c.width, c.height, QImage::Format_Grayscale8);
    for (int y = 0; y < c.height; ++y)
        std::memcpy(image.scanLine(y), gray.ptr<uchar>(c.y + y) + c.x, size_t(c.width));
    return image;
}

bool samePixels(const QImage& a, const QImage& frame, const QRect& at)
{
    if (a.size() != at.size() || !frame.rect().contains(at))
        return false;
    const size_t bytes = size_t(at.width()) * 4;
    for (int y = 0; y < at.height(); ++y) {
        const uchar* row = frame.constScanLine(at.y() + y) + size_t(at.x()) * 4;
        if (std::memcmp(a.constScanLine(y), row, bytes) != 0)
            return false;
    }
    return true;
}

// A scaled screen (GDK_SCALE=2, QT_SCALE_FACTOR=2: every widget drawn at twice its size) is told by its
// text: the lines' median height, over a frame with enough of them, against a line of UI text at scale 1.
constexpr int kScaleMinLines = 12;           // lines needed to tell the scale (else the last one told holds)
constexpr double kUnscaledLineHeight = 11.0; // px: the median text line of a UI at scale 1 (10 to 12)
constexpr double kScaleRoundUp = 0.3;        // a median this share of a line above a whole scale rounds up

double ms(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

// Tool bars (toolBarCells): flat buttons drawn as an icon alone, side by side at a regular pitch. Only the
// icon's ink is seen (often only part of it), but the button spans its share of the row: as wide as the
// pitch, and as tall unless the next row of icons is closer.
constexpr int kToolIconMaxSide = 28;  // an icon button found by its ink is at most this big
constexpr int kToolRowSlack = 3;      // the centres of one row's icons differ by at most this vertically
constexpr double kToolMinPitch = 1.4; // neighbours at least this many icon sides apart (centre to centre):
                                      // closer ones are one block (keys), left as they are
constexpr int kToolMaxPitch = 48;     // and at most this many pixels: further ones are no neighbours
constexpr int kToolRowMinButtons = 2; // icons side by side that make a tool bar

// Grows the icon-sized buttons of tool bar rows to their cells (see the constants above). Icon-sized
// buttons inside a grown one (the parts of its icon found as boxes of their own) are no buttons.
void toolBarCells(QList<Zone>& zones)
{
    const auto iconSized = [&](qsizetype i) {
        const QRect& b = zones.at(i).bounds;
        return zones.at(i).type == ZoneType::Button && b.width() <= kToolIconMaxSide &&
               b.height() <= kToolIconMaxSide;
    };
    std::vector<qsizetype> icons;
    std::vector<qsizetype> container(size_t(zones.size()), -1); // the icon button a part lies in
    for (qsizetype i = 0; i < zones.size(); ++i) {
        if (!iconSized(i))
            continue;
        for (qsizetype j = 0; j < zones.size() && container[size_t(i)] < 0; ++j) {
            if (j != i && iconSized(j) && zones.at(j).bounds != zones.at(i).bounds &&
                zones.at(j).bounds.contains(zones.at(i).bounds))
                container[size_t(i)] = j;
        }
        if (container[size_t(i)] < 0)
            icons.push_back(i);
    }
    // Centres doubled, to stay in integers (QRect::center() rounds).
    const auto cx2 = [&](qsizetype i) { return 2 * zones.at(i).bounds.x() + zones.at(i).bounds.width(); };
    const auto cy2 = [&](qsizetype i) { return 2 * zones.at(i).bounds.y() + zones.at(i).bounds.height(); };
    const auto side = [&](qsizetype i) {
        return std::max(zones.at(i).bounds.width(), zones.at(i).bounds.height());
    };
    std::sort(icons.begin(), icons.end(), [&](qsizetype a, qsizetype b) { return cx2(a) < cx2(b); });
    std::vector<QRect> grown(size_t(zones.size()));
    std::vector<bool> used(icons.size(), false);
    for (size_t k = 0; k < icons.size(); ++k) {
        if (used[k])
            continue;
        // The row: the next icon to the right on the same line, each a neighbour of the last.
        std::vector<qsizetype> row{icons[k]};
        used[k] = true;
        bool block = false;
        for (size_t m = k + 1; m < icons.size(); ++m) {
            if (used[m] || std::abs(cy2(icons[m]) - cy2(row.back())) > 2 * kToolRowSlack)
                continue;
            const int pitch2 = cx2(icons[m]) - cx2(row.back());
            if (pitch2 > 2 * kToolMaxPitch)
                break;
            block = block || pitch2 < 2 * kToolMinPitch * std::max(side(row.back()), side(icons[m]));
            row.push_back(icons[m]);
            used[m] = true;
        }
        if (block || int(row.size()) < kToolRowMinButtons)
            continue;
        for (size_t m = 0; m < row.size(); ++m) {
            const qsizetype i = row[m];
            int width2 = std::numeric_limits<int>::max();
            if (m > 0)
                width2 = std::min(width2, cx2(i) - cx2(row[m - 1]));
            if (m + 1 < row.size())
                width2 = std::min(width2, cx2(row[m + 1]) - cx2(i));
            // The nearest icon above or below limits the height the same way.
            int height2 = width2;
            for (const qsizetype j : icons) {
                if (std::abs(cx2(j) - cx2(i)) < width2 && std::abs(cy2(j) - cy2(i)) > 2 * kToolRowSlack)
                    height2 = std::min(height2, std::abs(cy2(j) - cy2(i)));
            }
            if (height2 < 2 * kToolMinPitch * side(i))
                continue;
            const int w = width2 / 2 - 1; // the pitch less a pixel between cells
            const int h = height2 / 2 - 1;
            grown[size_t(i)] = QRect((cx2(i) - w) / 2, (cy2(i) - h) / 2, w, h);
        }
    }
    QList<Zone> kept;
    for (qsizetype i = 0; i < zones.size(); ++i) {
        Zone z = zones.at(i);
        if (!grown[size_t(i)].isNull()) {
            qCDebug(lcCanvas) << "tool bar cell" << z.bounds << "->" << grown[size_t(i)];
            z.bounds = grown[size_t(i)];
        } else if (container[size_t(i)] >= 0 && !grown[size_t(container[size_t(i)])].isNull()) {
            continue;
        }
        kept << z;
    }
    zones = kept;
}

} // namespace

struct LocalAnalyzer::Private
{
    Options options;
    std::unique_ptr<OcrEngine> ocr;
    bool ocrTried = false;
    QHash<QString, Template> templates;
    QCache<QByteArray, OcrEngine::Result> ocrCache;
    std::unique_ptr<IconNamer> icons; // created (and the themes read) at the first unlabelled icon button
    int uiScale = 1;                  // the screen's scale, as its text last told it
    bool inScaled = false;            // analysing a downscaled copy: no second look at the scale

    // The scale of the UI in `s` (1 unless it is drawn at twice the size or more), from its text lines'
    // heights; too few lines: the scale last told.
    int scaleOf(const seg::Segmentation& s)
    {
        if (int(s.textLines.size()) < kScaleMinLines)
            return uiScale;
        std::vector<int> heights;
        for (const cv::Rect& r : s.textLines)
            heights.push_back(r.height);
        std::nth_element(heights.begin(), heights.begin() + long(heights.size() / 2), heights.end());
        const double lines = double(heights[heights.size() / 2]) / kUnscaledLineHeight;
        uiScale = std::max(1, int(std::floor(lines + kScaleRoundUp)));
        return uiScale;
    }

    OcrEngine* engine()
    {
        if (!ocrTried) {
            ocrTried = true;
            ocr = std::make_unique<OcrEngine>(options.tessdataDir, options.language);
        }
        return ocr && ocr->isReady() ? ocr.get() : nullptr;
    }

    // Slider candidates that read as a word are text lines (the segmenter judges by shape alone).
    void wordsOnSliders(seg::Segmentation& s, LocalAnalysisStats& stats)
    {
        const auto isWord = [this](const OcrEngine::Result& r) {
            const qsizetype letters =
                std::count_if(r.text.cbegin(), r.text.cend(), [](QChar c) { return c.isLetter(); });
            return r.confidence >= options.sliderWordConfidence && letters >= options.sliderWordLetters &&
                   2 * letters >= r.text.simplified().size();
        };
        const cv::Rect all(0, 0, s.gray.cols, s.gray.rows);
        bool moved = false;
        for (auto it = s.sliders.begin(); it != s.sliders.end();) {
            const cv::Rect padded = cv::Rect(it->x - 2, it->y - 2, it->width + 4, it->height + 4) & all;
            if (!isWord(read(greyImage(s.gray, padded), OcrEngine::Layout::SingleLine, stats))) {
                ++it;
                continue;
            }
            s.textLines.push_back(*it);
            it = s.sliders.erase(it);
            moved = true;
        }
        if (moved)
            seg::sortTextLines(s.textLines);
    }

    OcrEngine::Result read(const QImage& grey, OcrEngine::Layout layout, LocalAnalysisStats& stats,
                           double scale = 0)
    {
        OcrEngine* e = options.ocr ? engine() : nullptr;
        if (!e || grey.isNull())
            return {};
        QCryptographicHash hash(QCryptographicHash::Md5);
        const int header[4] = {grey.width(), grey.height(), int(layout), int(scale * 100)};
        hash.addData(QByteArrayView(reinterpret_cast<const char*>(header), sizeof header));
        for (int y = 0; y < grey.height(); ++y)
            hash.addData(QByteArrayView(reinterpret_cast<const char*>(grey.constScanLine(y)), grey.width()));
        const QByteArray key = hash.result();
        if (const OcrEngine::Result* cached = ocrCache.object(key)) {
            ++stats.ocrCacheHits;
            return *cached;
        }
        // Light text on a dark background (title bars, selections): invert for Tesseract. The median is
        // the background (text covers less than half of a line); the mean of white text on a blue title
        // bar looks light.
        int histogram[256] = {};
        for (int y = 0; y < grey.height(); ++y) {
            const uchar* row = grey.constScanLine(y);
            for (int x = 0; x < grey.width(); ++x)
                ++histogram[row[x]];
        }
        int median = 0;
        for (int seen = 0; median < 255 && (seen += histogram[median]) * 2 < grey.width() * grey.height();)
            ++median;
        const bool dark = median < 128;
        QElapsedTimer timer;
        timer.start();
        OcrEngine::Result result = e->read(grey, layout, scale > 0 ? scale : options.ocrScale, dark);
        stats.ocrMs += ms(timer);
        ++stats.ocrCalls;
        ocrCache.insert(key, new OcrEngine::Result(result));
        return result;
    }

    IconNamer& iconNamer()
    {
        if (!icons) {
            IconNamer::Options o;
            o.themes = options.iconThemes;
            icons = std::make_unique<IconNamer>(o);
        }
        return *icons;
    }

    // Labels unlabelled icon-sized buttons and toggles by their icon, and makes buttons of icons drawn
    // without a frame (a tool bar's flat buttons: the segmenter sees their ink as an unreadable run of
    // glyphs). Zones and texts in `frame`'s coordinates.
    void nameIcons(const QImage& frame, QList<Zone>& zones, const std::vector<detail::TextItem>& texts,
                   LocalAnalysisStats& stats)
    {
        if (!options.nameIcons)
            return;
        QElapsedTimer timer;
        timer.start();
        auto iconSized = [this](const QRect& r) {
            return r.width() <= options.maxIconButton && r.height() <= options.maxIconButton;
        };
        for (Zone& z : zones) {
            // One or two characters read in an icon-sized button are often its icon read as text (a
            // magnifier as "Q", a cross as "x"): the icon's name replaces them when the namer is sure.
            const bool glyphLabel = z.label.size() <= 2 && z.labelSource == LabelSource::Ocr;
            if ((!z.label.isEmpty() && !glyphLabel) ||
                (z.type != ZoneType::Button && z.type != ZoneType::CheckBox) || !iconSized(z.bounds))
                continue;
            ++stats.iconZones;
            const auto match = iconNamer().name(frame, z.bounds);
            if (!match)
                continue;
            z.label = match->label;
            z.labelSource = LabelSource::Icon;
            ++stats.iconsNamed;
            qCDebug(lcCanvas) << "icon" << z.bounds << match->iconName << match->score << "ratio"
                              << match->distanceRatio;
        }
        for (const detail::TextItem& t : texts) {
            const QRect r = toQ(t.rect);
            if (detail::readable(t) || t.known || !iconSized(r) || r.width() > 2 * r.height() + 4 ||
                r.height() > 2 * r.width() + 4)
                continue;
            // Inside an icon button, or on the face of a control with one action (a drop-down's arrow, a
            // file button's icon, a tab's or a menu item's icon): no button of its own. An entry's icons
            // and a view's are (a clear button, a spin button's steps).
            const bool taken = std::any_of(zones.cbegin(), zones.cend(), [&](const Zone& z) {
                const bool oneAction = z.type == ZoneType::Button || z.type == ZoneType::Dropdown ||
                                       z.type == ZoneType::Tab || z.type == ZoneType::MenuItem ||
                                       z.type == ZoneType::CheckBox;
                return z.bounds.contains(r.center()) && (iconSized(z.bounds) || oneAction);
            });
            if (taken)
                continue;
            ++stats.iconZones;
            const auto match = iconNamer().name(frame, r.adjusted(-3, -3, 3, 3));
            if (!match)
                continue;
            Zone z;
            // The flat button: the icon with the padding toolkits give it.
            z.bounds = match->iconRect.adjusted(-4, -4, 4, 4);
            z.type = ZoneType::Button;
            z.label = match->label;
            z.labelSource = LabelSource::Icon;
            z.confidence = 0.4 + 0.4 * match->score;
            z.events = {QStringLiteral("click")};
            z.source = ZoneSource::Local;
            zones << z;
            ++stats.iconsNamed;
            qCDebug(lcCanvas) << "flat icon button" << z.bounds << match->iconName << match->score << "ratio"
                              << match->distanceRatio;
        }
        stats.iconMs += ms(timer);
    }

    // Keys (a keypad's, a tool bar's): a short centred label, often one glyph, which the line
    // segmentation misses ("-", ".") and Tesseract's line mode drops or misreads ("+", "1"). Each is
    // read from the key's interior alone: simple symbols by the shape of their ink, the rest in single
    // character or single line mode, upscaled. Replaces the key's own lines by one glyph item.
    void readKeys(const seg::Segmentation& s, const std::vector<int>& owners, detail::AssemblyInput& input,
                  std::vector<bool>& skip, LocalAnalysisStats& stats)
    {
        for (size_t b = 0; b < s.boxes.size(); ++b) {
            if (!detail::keyShaped(s, int(b)))
                continue;
            const cv::Rect r = s.boxes[b].rect;
            std::vector<size_t> own;
            cv::Rect lines;
            bool settled = false;
            for (size_t i = 0; i < owners.size(); ++i) {
                if (owners[i] != int(b))
                    continue;
                own.push_back(i);
                lines = lines.area() ? (lines | s.textLines[i]) : s.textLines[i];
                settled = settled || input.texts[i].known || skip[i];
            }
            // A word label ("Apply", "CE/C") reads well as a line, and so do letters and digits.
            static const QString strokes = QStringLiteral("|[]");
            bool legible = false;
            for (const size_t i : own) {
                const detail::TextItem& t = input.texts[i];
                legible = legible ||
                          (detail::readable(t) && !(t.text.size() == 1 && strokes.contains(t.text.front())));
            }
            if (settled || legible || (!own.empty() && lines.width > 2 * lines.height + 4))
                continue;
            const cv::Rect in = cv::Rect(r.x + 3, r.y + 3, r.width - 6, r.height - 6) &
                                cv::Rect(0, 0, s.gray.cols, s.gray.rows);
            if (in.width < 6 || in.height < 6)
                continue;
            const cv::Mat area = s.gray(in);
            const int background = seg::medianGray(s, in);
            cv::Mat diff, ink;
            cv::absdiff(area, cv::Scalar(background), diff);
            cv::threshold(diff, ink, 60, 255, cv::THRESH_BINARY);
            // Ink touching the interior's edge is the border (rounded corners, a bevel), not the label.
            cv::Mat labels, cstats, centroids;
            const int n = cv::connectedComponentsWithStats(ink, labels, cstats, centroids, 8, CV_32S);
            cv::Rect glyphs;
            for (int c = 1; c < n; ++c) {
                const cv::Rect part(cstats.at<int>(c, cv::CC_STAT_LEFT), cstats.at<int>(c, cv::CC_STAT_TOP),
                                    cstats.at<int>(c, cv::CC_STAT_WIDTH),
                                    cstats.at<int>(c, cv::CC_STAT_HEIGHT));
                if (part.x == 0 || part.y == 0 || part.x + part.width == in.width ||
                    part.y + part.height == in.height) {
                    ink.setTo(0, labels == c);
                    continue;
                }
                glyphs = glyphs.area() ? (glyphs | part) : part;
            }
            if (glyphs.area() <= 0 || glyphs.width > 2 * glyphs.height + 4)
                continue;
            const int dx = std::abs((glyphs.x + glyphs.width / 2) - in.width / 2);
            if (dx > std::max(4, in.width / 8))
                continue; // not centred: a field's text
            detail::TextItem item;
            item.rect = glyphs + in.tl();
            item.owner = int(b);
            item.glyph = true;
            item.text = detail::symbolFromInk(ink);
            item.confidence = item.text.isEmpty() ? 0 : 90;
            if (item.text.isEmpty()) {
                const QImage crop = greyImage(s.gray, in);
                const bool one = glyphs.width <= glyphs.height + 2;
                const OcrEngine::Result word = read(
                    crop, one ? OcrEngine::Layout::SingleChar : OcrEngine::Layout::SingleLine, stats, 3.0);
                item.text = word.text.simplified();
                item.confidence = word.confidence;
                if (item.confidence < 45) {
                    // Unsure: again from a tight crop, the glyph with a margin of half its height.
                    const int pad = std::max(4, glyphs.height / 2);
                    const cv::Rect tight = cv::Rect(glyphs.x - pad, glyphs.y - pad, glyphs.width + 2 * pad,
                                                    glyphs.height + 2 * pad) &
                                           cv::Rect(0, 0, in.width, in.height);
                    const OcrEngine::Result again =
                        read(greyImage(s.gray, tight + in.tl()),
                             one ? OcrEngine::Layout::SingleChar : OcrEngine::Layout::SingleLine, stats, 3.0);
                    if (again.confidence > item.confidence) {
                        item.text = again.text.simplified();
                        item.confidence = again.confidence;
                    }
                }
                // A lone vertical stroke on a key is the digit one.
                if (one && item.text.size() == 1 && strokes.contains(item.text.front()))
                    item.text = QStringLiteral("1");
            }
            if (item.text.isEmpty())
                continue; // the lines are read as usual
            for (const size_t i : own) {
                input.texts[i].text.clear();
                input.texts[i].confidence = 0;
                skip[i] = true;
            }
            input.texts.push_back(item);
            skip.push_back(true);
        }
    }
};

LocalAnalyzer::LocalAnalyzer()
    : LocalAnalyzer(Options{})
{
}

LocalAnalyzer::LocalAnalyzer(Options options)
    : d(std::make_unique<Private>())
{
    d->options = std::move(options);
    d->ocrCache.setMaxCost(std::max(1, d->options.ocrCacheSize));
}

LocalAnalyzer::~LocalAnalyzer() = default;

bool LocalAnalyzer::ocrReady() const
{
    return d->engine() != nullptr;
}

QString LocalAnalyzer::ocrError() const
{
    if (!d->options.ocr)
        return QStringLiteral("OCR disabled");
    d->engine();
    return d->ocr ? d->ocr->errorString() : QString();
}

int LocalAnalyzer::templateCount() const
{
    return int(d->templates.size());
}

double LocalAnalyzer::preload()
{
    QElapsedTimer timer;
    timer.start();
    if (d->options.nameIcons)
        d->iconNamer().load();
    return double(timer.nsecsElapsed()) / 1e6;
}

LocalAnalysisResult LocalAnalyzer::analyzeScaled(const QImage& image, QPoint origin, const QRect& region,
                                                 const QList<Zone>& known, const AnalysisHints& hints,
                                                 int scale)
{
    // Logical coordinates: root point p is origin / scale + (p - origin) / scale.
    const QPoint logicalOrigin(origin.x() / scale, origin.y() / scale);
    const auto down = [&](const QRect& r) {
        if (r.isNull())
            return r;
        const QPoint a =
            logicalOrigin + QPoint((r.left() - origin.x()) / scale, (r.top() - origin.y()) / scale);
        const QPoint b = logicalOrigin + QPoint((r.right() + 1 - origin.x() + scale - 1) / scale,
                                                (r.bottom() + 1 - origin.y() + scale - 1) / scale);
        return QRect(a, b - QPoint(1, 1));
    };
    const auto up = [&](const QRect& r) {
        return QRect(origin + (r.topLeft() - logicalOrigin) * scale, r.size() * scale);
    };
    const QImage small = image.scaled(image.width() / scale, image.height() / scale, Qt::IgnoreAspectRatio,
                                      Qt::SmoothTransformation);
    QList<Zone> knownSmall = known;
    for (Zone& z : knownSmall)
        z.bounds = down(z.bounds);
    AnalysisHints hintsSmall = hints;
    for (platform::WindowInfo& w : hintsSmall.windows)
        w.geometry = down(w.geometry);
    for (QRect& r : hintsSmall.excluded)
        r = down(r);
    d->inScaled = true;
    LocalAnalysisResult result = analyze(small, logicalOrigin, down(region), knownSmall, hintsSmall);
    d->inScaled = false;
    for (Zone& z : result.zones)
        z.bounds = up(z.bounds);
    const QRect imageRoot(origin, image.size());
    result.region = region.isNull() ? imageRoot : region.intersected(imageRoot);
    qCDebug(lcCanvas) << "tier 1 at scale" << scale << result.region << "zones" << result.zones.size();
    return result;
}

void LocalAnalyzer::clearCaches()
{
    d->templates.clear();
    d->ocrCache.clear();
    d->uiScale = 1;
}

void LocalAnalyzer::forgetTemplates(const QStringList& ids)
{
    for (const QString& id : ids)
        d->templates.remove(id);
}

void LocalAnalyzer::rememberTemplates(const QImage& image, QPoint origin, const QList<Zone>& zones)
{
    if (image.isNull())
        return;
    const QImage frame =
        image.format() == QImage::Format_RGB32 ? image : image.convertToFormat(QImage::Format_RGB32);
    for (const Zone& z : zones) {
        if (z.id.isEmpty())
            continue;
        const QRect local = z.bounds.translated(-origin);
        // Containers are re-detected, not matched: their pixels change with every child.
        if (!frame.rect().contains(local) || local.width() * local.height() > 120000 || local.width() < 6 ||
            local.height() < 6) {
            d->templates.remove(z.id);
            continue;
        }
        Template t;
        t.zone = z;
        t.pixels = frame.copy(local);
        const cv::Mat view(t.pixels.height(), t.pixels.width(), CV_8UC4,
                           const_cast<uchar*>(t.pixels.constBits()), size_t(t.pixels.bytesPerLine()));
        cv::cvtColor(view, t.gray, cv::COLOR_BGRA2GRAY);
        cv::Scalar mean, dev;
        cv::meanStdDev(t.gray, mean, dev);
        t.contrast = dev[0];
        d->templates.insert(z.id, std::move(t));
    }
    if (d->templates.size() > 4000)
        d->templates.clear(); // a runaway map; templates come back with the next analysis
}

LocalAnalysisResult LocalAnalyzer::analyze(const QImage& image, QPoint origin, const QRect& region,
                                           const QList<Zone>& known, const AnalysisHints& hints)
{
    QElapsedTimer total;
    total.start();
    LocalAnalysisResult result;
    if (image.isNull()) {
        result.error = QStringLiteral("no image to analyse");
        return result;
    }
    OcrEngine::limitThreads();
    QImage frame = image.format() == QImage::Format_RGB32 || image.format() == QImage::Format_ARGB32
                       ? image
                       : image.convertToFormat(QImage::Format_RGB32);
    const QRect imageRoot(origin, frame.size());
    // Excluded areas (the agent's own windows): a flat grey without edges, so nothing there is found.
    QRegion excluded;
    for (const QRect& r : hints.excluded) {
        const QRect masked = r.normalized().intersected(imageRoot);
        if (masked.isEmpty())
            continue;
        excluded += masked;
        const QRect l = masked.translated(-origin);
        for (int y = l.top(); y <= l.bottom(); ++y) {
            auto* row = reinterpret_cast<quint32*>(frame.scanLine(y)) + l.left(); // detaches once
            std::fill(row, row + l.width(), 0xff808080u);
        }
    }
    const QRect want = region.isNull() ? imageRoot : region.intersected(imageRoot);
    result.region = want;
    if (want.width() < 4 || want.height() < 4) {
        result.error = QStringLiteral("the region %1,%2 %3x%4 is outside the frame or too small")
                           .arg(region.x())
                           .arg(region.y())
                           .arg(region.width())
                           .arg(region.height());
        return result;
    }
    const QRect local = want.translated(-origin);
    const int m = d->options.contextMargin;
    const QRect ctx = local.adjusted(-m, -m, m, m).intersected(frame.rect());
    const cv::Mat full(frame.height(), frame.width(), CV_8UC4, const_cast<uchar*>(frame.constBits()),
                       size_t(frame.bytesPerLine()));
    const cv::Mat crop = full(toCv(ctx));

    // 1. Known zones: unchanged ones stay, moved ones are re-found by template matching.
    QElapsedTimer timer;
    timer.start();
    seg::Segmentation s = seg::segment(crop);
    result.stats.segmentMs = ms(timer);
    if (lcCanvas().isDebugEnabled()) {
        for (const seg::Box& b : s.boxes)
            qCDebug(lcCanvas) << "box" << toQ(b.rect);
        for (const cv::Rect& r : s.scrollBars)
            qCDebug(lcCanvas) << "scroll bar piece" << toQ(r);
    }
    d->wordsOnSliders(s, result.stats);
    // A scaled screen is analysed at its toolkit's logical size: at twice the size, the counters of letters
    // are as large as check boxes and the cues' pixel sizes no longer fit.
    if (!d->inScaled) {
        if (const int scale = d->scaleOf(s); scale >= 2) {
            LocalAnalysisResult scaled = analyzeScaled(image, origin, region, known, hints, scale);
            scaled.stats.segmentMs += result.stats.segmentMs;
            scaled.stats.totalMs = ms(total);
            return scaled;
        }
    }
    QList<Zone> kept;
    QList<const Template*> missing;
    for (const Zone& z : known) {
        if (!want.contains(z.bounds.center()))
            continue;
        const auto it = d->templates.constFind(z.id);
        if (it == d->templates.cend())
            continue;
        if (it->zone.bounds == z.bounds && samePixels(it->pixels, frame, z.bounds.translated(-origin))) {
            kept << z;
            ++result.stats.confirmed;
        } else if (it->contrast > 6 && z.source != ZoneSource::User) {
            missing << &*it;
        }
    }
    int searches = 0;
    for (const Template* t : std::as_const(missing)) {
        if (++searches > d->options.maxTemplateSearches)
            break;
        if (t->gray.cols > s.gray.cols || t->gray.rows > s.gray.rows)
            continue;
        cv::Mat score;
        cv::matchTemplate(s.gray, t->gray, score, cv::TM_CCOEFF_NORMED);
        double best = 0;
        cv::Point at;
        cv::minMaxLoc(score, nullptr, &best, nullptr, &at);
        if (best < d->options.templateMatch)
            continue;
        Zone moved = t->zone;
        moved.bounds = QRect(origin + ctx.topLeft() + QPoint(at.x, at.y), t->pixels.size());
        // A window above the zone's own where the template matched: a look-alike on that window (a faint
        // disabled icon on a dialog's plain background), not the zone.
        if (!want.contains(moved.bounds.center()) || coveredByWindowAbove(moved, hints.windows))
            continue;
        kept << moved;
        ++result.stats.refound;
    }

    // 2. OCR: one single-line call per text line (word group). Reading whole blocks (lists, terminals)
    //    in one call costs twice as much: Tesseract's layout analysis, and its lines run through the
    //    gaps between columns.
    detail::AssemblyInput input;
    input.seg = &s;
    input.menuPopup = hints.menuPopup;
    for (const platform::WindowInfo& w : hints.windows) {
        const QRect wr = w.geometry.translated(-origin - ctx.topLeft());
        if (wr.intersects(QRect(QPoint(0, 0), ctx.size())))
            input.windows.push_back(toCv(wr));
    }
    const std::vector<int> owners = detail::textOwners(s);
    input.texts.resize(s.textLines.size());
    std::vector<bool> skip(s.textLines.size(), false);
    for (size_t i = 0; i < s.textLines.size(); ++i) {
        detail::TextItem& t = input.texts[i];
        t.rect = s.textLines[i];
        t.owner = owners[i];
        const QRect rootRect = toQ(t.rect).translated(origin + ctx.topLeft());
        for (const Zone& z : std::as_const(kept))
            t.known = t.known || z.bounds.contains(rootRect);
        // Context above or below the region names nothing inside it (labels sit beside their fields):
        // not worth reading.
        // Nor is context well right of it (only a check box's label sits right of its box, 12 px
        // away at most).
        skip[i] = rootRect.bottom() < want.top() || rootRect.top() > want.bottom() ||
                  rootRect.left() > want.right() + 12;
    }
    result.stats.boxes = int(s.boxes.size());
    result.stats.textLines = int(s.textLines.size());
    for (size_t i = 0; i < input.texts.size(); ++i) {
        detail::TextItem& t = input.texts[i];
        if (t.known || skip[i])
            continue;
        // A leading icon (a file row's, an icon button's) is read as letters ("ff cmake", "iOpen"): left out.
        const int icon = seg::leadingIconWidth(s, t.rect);
        const cv::Rect padded(t.rect.x + icon - 2, t.rect.y - 2, t.rect.width - icon + 4, t.rect.height + 4);
        const QImage lineCrop = greyImage(s.gray, padded);
        // Long lines dominate the cost (Tesseract's LSTM runs along the line) and mostly read well
        // without upscaling: unscaled first, upscaled when unsure.
        OcrEngine::Result line;
        const bool wide = d->options.wideLineWidth > 0 && t.rect.width >= d->options.wideLineWidth;
        if (wide)
            line = d->read(lineCrop, OcrEngine::Layout::SingleLine, result.stats, 1.0);
        if (!wide || line.text.isEmpty() || line.confidence < d->options.wideLineConfidence)
            line = d->read(lineCrop, OcrEngine::Layout::SingleLine, result.stats);
        t.text = line.text.simplified();
        t.confidence = line.confidence;
        t.words.clear();
        for (const OcrEngine::Word& w : std::as_const(line.words)) {
            t.words.push_back({toCv(w.box) + padded.tl(), w.text});
            qCDebug(lcCanvas) << "word" << toQ(t.rect) << w.text << w.box << w.confidence;
        }
        // A few letters spread over a wide box are icons read as text (title bar buttons as "Boo").
        const qsizetype chars = t.text.size();
        if (chars > 0 && chars <= 4 && t.rect.width - icon > 1.1 * t.rect.height * double(chars) + 4) {
            t.text.clear();
            t.confidence = 0;
        }
    }
    d->readKeys(s, owners, input, skip, result.stats);

    if (lcCanvas().isDebugEnabled()) {
        for (const detail::TextItem& t : input.texts)
            qCDebug(lcCanvas) << "text" << toQ(t.rect).translated(origin + ctx.topLeft()) << t.text
                              << t.confidence << "owner" << t.owner;
    }

    // 3. Classification, then back to root coordinates; only zones centred in the region and not cut
    //    by the context border (unless that border is the frame's).
    QList<Zone> found = detail::assemble(input);
    for (Zone& z : found)
        z.bounds.translate(ctx.topLeft());
    std::vector<detail::TextItem> framedTexts = input.texts;
    for (detail::TextItem& t : framedTexts)
        t.rect += cv::Point(ctx.x(), ctx.y());
    d->nameIcons(frame, found, framedTexts, result.stats);
    toolBarCells(found);
    const QRect ctxRoot = ctx.translated(origin);
    const QRect inner =
        QRect(ctxRoot.left() + (ctx.left() > 0 ? 1 : 0), ctxRoot.top() + (ctx.top() > 0 ? 1 : 0),
              ctxRoot.width() - (ctx.left() > 0 ? 1 : 0) - (ctx.right() < frame.width() - 1 ? 1 : 0),
              ctxRoot.height() - (ctx.top() > 0 ? 1 : 0) - (ctx.bottom() < frame.height() - 1 ? 1 : 0));
    result.zones = kept;
    for (Zone z : found) {
        z.bounds.translate(origin);
        if (!want.contains(z.bounds.center()) || !inner.contains(z.bounds) ||
            excluded.contains(z.bounds.center()))
            continue;
        bool duplicate = false;
        for (const Zone& k : std::as_const(kept)) {
            const QRect i = k.bounds.intersected(z.bounds);
            const double overlap = double(i.width()) * i.height();
            const double uni = double(k.bounds.width()) * k.bounds.height() +
                               double(z.bounds.width()) * z.bounds.height() - overlap;
            duplicate = duplicate || (uni > 0 && overlap / uni >= 0.5);
        }
        if (duplicate)
            continue;
        z.temporary = hints.temporary;
        for (auto w = hints.windows.crbegin(); w != hints.windows.crend(); ++w) {
            if (w->geometry.contains(z.bounds.center())) {
                z.windowId = w->id;
                z.application = w->windowClass;
                break;
            }
        }
        result.zones << z;
    }
    result.stats.totalMs = ms(total);
    qCDebug(lcCanvas) << "tier 1" << want << "zones" << result.zones.size() << "boxes" << result.stats.boxes
                      << "lines" << result.stats.textLines << "ocr" << result.stats.ocrCalls << "cached"
                      << result.stats.ocrCacheHits << "ms" << result.stats.totalMs;
    return result;
}

} // namespace ciu::canvas
