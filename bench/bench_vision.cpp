// bench vision: each corpus screenshot through the same full local analysis as `ciu-agent analyze
// --source vision` (a new LocalAnalyzer per frame, the zone registry's snapshot), matched to the ground
// truth with bench/visioneval, and summed per set, program, toolkit, look, state, screen and zone type.

#include "bench/bench_vision.h"

#include "bench/visioneval.h"
#include "core/canvas/localanalyzer.h"
#include "core/canvas/ocrengine.h"
#include "core/canvas/zoneregistry.h"
#include "core/model/geometry.h"
#include "core/model/zonemap.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QPainter>
#include <QSet>

#include <cstdio>

namespace ciu::bench {
namespace {

constexpr double k1080pPixels = 1920.0 * 1080.0;
constexpr int kMinReadSide = 4;  // px: a widget's box narrower or lower than this is not read for its label
constexpr double kReadScale = 3; // its box is read at this scale (small UI text)

struct Tally
{
    MatchCounts counts;
    int frames = 0;
    double ms1080p = 0; // summed over the frames

    void add(const MatchCounts& c, double ms)
    {
        counts += c;
        ++frames;
        ms1080p += ms;
    }
};

QJsonObject toJson(const MatchCounts& c)
{
    return {{QStringLiteral("truth"), c.truth},
            {QStringLiteral("detected"), c.detected},
            {QStringLiteral("matched"), c.matched},
            {QStringLiteral("type_correct"), c.typeCorrect},
            {QStringLiteral("labelled"), c.labelled},
            {QStringLiteral("label_correct"), c.labelCorrect},
            {QStringLiteral("drawn_labelled"), c.drawn},
            {QStringLiteral("drawn_label_correct"), c.drawnCorrect},
            {QStringLiteral("drawn_label_accuracy"), c.drawnLabelAccuracy()},
            {QStringLiteral("recall"), c.recall()},
            {QStringLiteral("precision"), c.precision()},
            {QStringLiteral("label_accuracy"), c.labelAccuracy()},
            {QStringLiteral("type_accuracy"), c.typeAccuracy()}};
}

QJsonObject toJson(const Tally& t)
{
    QJsonObject o = toJson(t.counts);
    o.insert(QStringLiteral("frames"), t.frames);
    o.insert(QStringLiteral("ms_per_1080p_frame"), t.frames > 0 ? t.ms1080p / t.frames : 0.0);
    return o;
}

void printRow(const QString& group, const QString& name, const Tally& t)
{
    const MatchCounts& c = t.counts;
    std::printf("%-8s %-22s %6d %6d %6d %6.3f %6.3f %6.3f %6.3f %9.0f %6.3f\n", qPrintable(group),
                qPrintable(name.left(22)), t.frames, c.truth, c.detected, c.recall(), c.precision(),
                c.labelAccuracy(), c.typeAccuracy(), t.frames > 0 ? t.ms1080p / t.frames : 0.0,
                c.drawnLabelAccuracy());
}

// Overlap from which a missed truth zone counts as a near miss: something was found there.
constexpr double kNearMissIou = 0.25;

// Which truth zones and detections of a frame were matched (indices).
struct Matched
{
    QSet<int> truth;
    QSet<int> detected;
    explicit Matched(const FrameEvaluation& eval)
    {
        for (const ZoneMatch& m : eval.matches) {
            truth.insert(m.truthIndex);
            detected.insert(m.detectedIndex);
        }
    }
};

// Missed interactive truth zones with an unmatched interactive detection at kNearMissIou <= IoU < minIou.
int countNearMisses(const QList<Zone>& truth, const QList<Zone>& detected, const Matched& matched,
                    double minIou)
{
    int near = 0;
    for (int i = 0; i < truth.size(); ++i) {
        if (!truth.at(i).isInteractive() || matched.truth.contains(i))
            continue;
        for (int j = 0; j < detected.size(); ++j) {
            if (!detected.at(j).isInteractive() || matched.detected.contains(j))
                continue;
            const double iou = intersectionOverUnion(truth.at(i).bounds, detected.at(j).bounds);
            if (iou >= kNearMissIou && iou < minIou) {
                ++near;
                break;
            }
        }
    }
    return near;
}

// The frame with what was scored drawn on it: each truth zone green when matched, red when missed (with its
// type), each interactive detection that matched nothing blue (with its type and label).
void writeOverlay(const QString& dir, const CorpusSample& s, const QImage& image, const QList<Zone>& detected,
                  const Matched& matched)
{
    QImage out = image.convertToFormat(QImage::Format_RGB32);
    QPainter painter(&out);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(10);
    painter.setFont(font);
    const auto draw = [&](const Zone& z, const QColor& colour, const QString& text) {
        painter.setPen(QPen(colour, 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(z.bounds);
        if (!text.isEmpty())
            painter.drawText(z.bounds.topLeft() + QPoint(2, -2), text);
    };
    for (int i = 0; i < s.truth.size(); ++i) {
        const Zone& z = s.truth.at(i);
        if (z.isInteractive())
            draw(z, matched.truth.contains(i) ? QColor(0, 170, 0) : QColor(230, 0, 0),
                 matched.truth.contains(i) ? QString() : toString(z.type));
    }
    for (int j = 0; j < detected.size(); ++j) {
        const Zone& z = detected.at(j);
        if (z.isInteractive() && !matched.detected.contains(j))
            draw(z, QColor(0, 90, 255), QStringLiteral("%1 %2").arg(toString(z.type), z.label.left(20)));
    }
    painter.end();
    const QString path =
        QDir(dir).filePath(QFileInfo(s.imagePath).completeBaseName() + QStringLiteral(".overlay.png"));
    if (!out.save(path))
        std::fprintf(stderr, "bench vision: cannot write %s\n", qPrintable(path));
}

// The matched zones scored for their label whose label is wrong: what the tree says and what was read, with
// the truth's type and box, so a label's failures can be read per widget.
QJsonArray wrongLabels(const QList<Zone>& truth, const QList<Zone>& detected, const FrameEvaluation& eval,
                       const QHash<int, bool>& drawn)
{
    QJsonArray out;
    for (const ZoneMatch& m : eval.matches) {
        const Zone& a = truth.at(m.truthIndex);
        const Zone& b = detected.at(m.detectedIndex);
        if (!isTextLabelled(a.type) || normalizedLabel(a.label).isEmpty() ||
            normalizedLabel(a.label) == normalizedLabel(b.label))
            continue;
        const QRect& r = a.bounds;
        out.append(QJsonObject{{QStringLiteral("type"), toString(a.type)},
                               {QStringLiteral("truth"), a.label},
                               {QStringLiteral("read"), b.label},
                               {QStringLiteral("drawn"), drawn.value(m.truthIndex)},
                               {QStringLiteral("bounds"), QJsonArray{r.x(), r.y(), r.width(), r.height()}}});
    }
    return out;
}

// The interactive truth zones nothing matched: type, label and box.
QJsonArray missedTruth(const QList<Zone>& truth, const Matched& matched)
{
    QJsonArray out;
    for (int i = 0; i < truth.size(); ++i) {
        const Zone& z = truth.at(i);
        if (!z.isInteractive() || matched.truth.contains(i))
            continue;
        const QRect& r = z.bounds;
        out.append(QJsonObject{{QStringLiteral("type"), toString(z.type)},
                               {QStringLiteral("truth"), z.label},
                               {QStringLiteral("bounds"), QJsonArray{r.x(), r.y(), r.width(), r.height()}}});
    }
    return out;
}

// The matched zones of another type than the truth's: the truth's type, label and box, and the type found.
QJsonArray wrongTypes(const QList<Zone>& truth, const QList<Zone>& detected, const FrameEvaluation& eval)
{
    QJsonArray out;
    for (const ZoneMatch& m : eval.matches) {
        const Zone& a = truth.at(m.truthIndex);
        const Zone& b = detected.at(m.detectedIndex);
        if (a.type == b.type)
            continue;
        const QRect& r = a.bounds;
        out.append(QJsonObject{{QStringLiteral("type"), toString(a.type)},
                               {QStringLiteral("found"), toString(b.type)},
                               {QStringLiteral("truth"), a.label},
                               {QStringLiteral("bounds"), QJsonArray{r.x(), r.y(), r.width(), r.height()}}});
    }
    return out;
}

} // namespace

int runVisionBench(const VisionBenchOptions& options)
{
    QString error;
    CorpusListing listing = readCorpus(options.corpusDir, &error);
    if (!error.isEmpty()) {
        std::fprintf(stderr, "bench vision: %s\n", qPrintable(error));
        return 1;
    }
    for (const QString& e : std::as_const(listing.errors))
        std::fprintf(stderr, "bench vision: skipped %s\n", qPrintable(e));
    QList<CorpusSample> samples;
    for (const CorpusSample& s : std::as_const(listing.samples)) {
        if (options.set == QLatin1String("all") || s.set == options.set)
            samples << s;
    }
    if (samples.isEmpty()) {
        std::fprintf(stderr, "bench vision: no sample of set \"%s\" in %s\n", qPrintable(options.set),
                     qPrintable(options.corpusDir));
        return 1;
    }
    canvas::OcrEngine::limitThreads();

    static const QStringList kGroups{QStringLiteral("set"),     QStringLiteral("program"),
                                     QStringLiteral("toolkit"), QStringLiteral("look"),
                                     QStringLiteral("state"),   QStringLiteral("screen")};
    QMap<QString, QMap<QString, Tally>> groups;
    QMap<QString, Tally> types;
    QMap<QString, QMap<QString, int>> confusions; // truth type -> detected type -> matches of another type
    Tally overall;
    QJsonArray frames;
    QStringList failures = listing.errors;
    int index = 0;
    int nearMissesAll = 0;
    canvas::LocalAnalyzer analyzer;
    canvas::OcrEngine labelReader; // reads each matched widget's box alone, for the drawn-label figure
    if (!labelReader.isReady())
        std::fprintf(stderr, "bench vision: OCR unavailable, no label counts as drawn: %s\n",
                     qPrintable(labelReader.errorString()));
    if (!analyzer.ocrReady())
        std::fprintf(stderr, "bench vision: OCR unavailable, zones have no labels: %s\n",
                     qPrintable(analyzer.ocrError()));
    {
        // The one-time loads, timed apart: the icon themes' index and Tesseract's first page (a line of
        // text).
        QElapsedTimer warm;
        warm.start();
        const double iconMs = analyzer.preload();
        QImage warmup(320, 120, QImage::Format_ARGB32);
        warmup.fill(QColor(0xf0, 0xf0, 0xf0));
        {
            QPainter p(&warmup);
            p.setPen(Qt::black);
            p.drawText(QRect(20, 20, 200, 30), Qt::AlignLeft | Qt::AlignVCenter, QStringLiteral("Open file"));
        }
        const canvas::LocalAnalysisResult loaded = analyzer.analyze(warmup, QPoint(0, 0), QRect());
        std::fprintf(
            stderr,
            "bench vision: loaded the analyzer in %.0f ms (the icon themes %.0f ms, a first page read with "
            "%d OCR calls); not counted in ms per frame\n",
            double(warm.nsecsElapsed()) / 1e6, iconMs, loaded.stats.ocrCalls);
    }
    for (const CorpusSample& s : std::as_const(samples)) {
        ++index;
        QImageReader reader(s.imagePath);
        const QImage image = reader.read();
        if (image.isNull()) {
            failures << QStringLiteral("%1: %2").arg(s.imagePath, reader.errorString());
            std::fprintf(stderr, "bench vision: cannot read %s: %s\n", qPrintable(s.imagePath),
                         qPrintable(reader.errorString()));
            continue;
        }
        // No OCR cache or template carried from frame to frame (each frame is analysed as a new screen);
        // what a running agent loads once (Tesseract, the icon themes) is loaded before the first frame.
        analyzer.clearCaches();
        canvas::AnalysisHints hints;
        hints.windows = s.windows;
        QElapsedTimer timer;
        timer.start();
        const canvas::LocalAnalysisResult result = analyzer.analyze(image, QPoint(0, 0), QRect(), {}, hints);
        canvas::ZoneRegistry registry;
        registry.setScreenSize(image.size());
        registry.replaceWithin(result.region, result.zones, 0);
        const ZoneMapPtr map = registry.snapshot(0);
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        if (!result.error.isEmpty()) {
            failures << QStringLiteral("%1: %2").arg(s.imagePath, result.error);
            std::fprintf(stderr, "bench vision: analysis of %s failed: %s\n", qPrintable(s.imagePath),
                         qPrintable(result.error));
            continue;
        }
        const double ms1080p = ms * k1080pPixels / (double(image.width()) * image.height());
        // Whether a matched widget's label is drawn: its box alone read again (not timed), as one line and
        // as scattered text, dark on light and, failing that, light on dark.
        const QImage grey = image.convertToFormat(QImage::Format_Grayscale8);
        const auto labelDrawn = [&](const Zone& z) {
            const QRect box = z.bounds.intersected(grey.rect());
            if (box.width() < kMinReadSide || box.height() < kMinReadSide)
                return false;
            const QImage crop = grey.copy(box);
            for (const bool invert : {false, true}) {
                for (const auto layout :
                     {canvas::OcrEngine::Layout::SingleLine, canvas::OcrEngine::Layout::SparseText}) {
                    if (labelShown(z.label, labelReader.read(crop, layout, kReadScale, invert).text))
                        return true;
                }
            }
            return false;
        };
        QHash<int, bool> drawnOf; // truth index -> drawn, for the frame's list of wrong labels
        const auto drawn = [&](int truthIndex) {
            const bool shown = labelDrawn(s.truth.at(truthIndex));
            drawnOf.insert(truthIndex, shown);
            return shown;
        };
        const FrameEvaluation eval = evaluateFrame(s.truth, map->zones(), options.minIou, drawn);
        const QString screen = QStringLiteral("%1x%2").arg(s.screen.width()).arg(s.screen.height());
        const QStringList keys{s.set, s.program, s.toolkit, s.look, s.state, screen};
        for (int g = 0; g < kGroups.size(); ++g)
            groups[kGroups.at(g)][keys.at(g)].add(eval.counts, ms1080p);
        overall.add(eval.counts, ms1080p);
        for (auto it = eval.byTruthType.cbegin(); it != eval.byTruthType.cend(); ++it)
            types[toString(it.key())].add(it.value(), ms1080p);
        const QList<Zone> detected = map->zones();
        for (const ZoneMatch& m : eval.matches) {
            const ZoneType truthType = s.truth.at(m.truthIndex).type;
            const ZoneType detectedType = detected.at(m.detectedIndex).type;
            if (truthType != detectedType)
                ++confusions[toString(truthType)][toString(detectedType)];
        }
        const Matched matched(eval);
        if (!options.overlayDir.isEmpty())
            writeOverlay(options.overlayDir, s, image, map->zones(), matched);
        const int nearMisses = countNearMisses(s.truth, map->zones(), matched, options.minIou);
        nearMissesAll += nearMisses;
        QJsonObject frame = toJson(eval.counts);
        frame.insert(QStringLiteral("sample"), s.jsonPath);
        frame.insert(QStringLiteral("program"), s.program);
        frame.insert(QStringLiteral("look"), s.look);
        frame.insert(QStringLiteral("state"), s.state);
        frame.insert(QStringLiteral("set"), s.set);
        frame.insert(QStringLiteral("ms"), ms);
        frame.insert(QStringLiteral("near_misses"), nearMisses);
        frame.insert(QStringLiteral("ms_per_1080p_frame"), ms1080p);
        frame.insert(QStringLiteral("wrong_labels"), wrongLabels(s.truth, detected, eval, drawnOf));
        frame.insert(QStringLiteral("wrong_types"), wrongTypes(s.truth, detected, eval));
        frame.insert(QStringLiteral("missed"), missedTruth(s.truth, matched));
        frame.insert(QStringLiteral("stages"),
                     QJsonObject{{QStringLiteral("segment_ms"), result.stats.segmentMs},
                                 {QStringLiteral("ocr_ms"), result.stats.ocrMs},
                                 {QStringLiteral("ocr_calls"), result.stats.ocrCalls},
                                 {QStringLiteral("icon_ms"), result.stats.iconMs},
                                 {QStringLiteral("analysis_ms"), result.stats.totalMs},
                                 {QStringLiteral("text_lines"), result.stats.textLines},
                                 {QStringLiteral("boxes"), result.stats.boxes}});
        frames.append(frame);
        std::fprintf(stderr, "[%d/%lld] %s: recall %.3f precision %.3f, %.0f ms\n", index,
                     qlonglong(samples.size()), qPrintable(QFileInfo(s.jsonPath).fileName()),
                     eval.counts.recall(), eval.counts.precision(), ms);
    }

    if (options.json) {
        QJsonObject groupsJson;
        for (auto g = groups.cbegin(); g != groups.cend(); ++g) {
            QJsonObject members;
            for (auto m = g.value().cbegin(); m != g.value().cend(); ++m)
                members.insert(m.key(), toJson(m.value()));
            groupsJson.insert(g.key(), members);
        }
        QJsonObject typesJson;
        for (auto t = types.cbegin(); t != types.cend(); ++t) {
            QJsonObject o = toJson(t.value().counts);
            o.remove(QStringLiteral("detected")); // per truth type: detections have no truth type
            o.remove(QStringLiteral("precision"));
            QJsonObject mistaken;
            const QMap<QString, int> as = confusions.value(t.key());
            for (auto c = as.cbegin(); c != as.cend(); ++c)
                mistaken.insert(c.key(), c.value());
            o.insert(QStringLiteral("matched_as"), mistaken);
            typesJson.insert(t.key(), o);
        }
        const QJsonObject doc{{QStringLiteral("bench"), QStringLiteral("vision")},
                              {QStringLiteral("corpus"), options.corpusDir},
                              {QStringLiteral("set"), options.set},
                              {QStringLiteral("min_iou"), options.minIou},
                              {QStringLiteral("matching"), QStringLiteral("greedy")},
                              {QStringLiteral("overall"), toJson(overall)},
                              {QStringLiteral("near_misses"), nearMissesAll},
                              {QStringLiteral("groups"), groupsJson},
                              {QStringLiteral("truth_types"), typesJson},
                              {QStringLiteral("frames"), frames},
                              {QStringLiteral("errors"), QJsonArray::fromStringList(failures)}};
        std::fputs(QJsonDocument(doc).toJson(QJsonDocument::Indented).constData(), stdout);
    } else {
        std::printf("vision benchmark: %s, set %s, IoU >= %.2f, greedy matching, %d frames\n",
                    qPrintable(options.corpusDir), qPrintable(options.set), options.minIou, overall.frames);
        std::printf("%-8s %-22s %6s %6s %6s %6s %6s %6s %6s %9s %6s\n", "group", "name", "frames", "truth",
                    "det", "recall", "prec", "label", "type", "ms/1080p", "drawn");
        printRow(QStringLiteral("all"), QStringLiteral("all"), overall);
        for (const QString& g : kGroups) {
            const QMap<QString, Tally>& members = groups.value(g);
            for (auto m = members.cbegin(); m != members.cend(); ++m)
                printRow(g, m.key(), m.value());
        }
        std::printf("\n\"label\" counts every matched widget whose accessible name is not empty; \"drawn\" "
                    "only those whose name an OCR of the widget's own box reads (at least half its letters "
                    "in order): text-labelled widgets, not icon-only ones\n");
        std::printf("\nper truth type (recall, and of the matched: type and label accuracy)\n");
        for (auto t = types.cbegin(); t != types.cend(); ++t) {
            const MatchCounts& c = t.value().counts;
            QStringList mistaken;
            const QMap<QString, int> as = confusions.value(t.key());
            for (auto m = as.cbegin(); m != as.cend(); ++m)
                mistaken << QStringLiteral("%1 %2").arg(m.key()).arg(m.value());
            std::printf("%-12s truth %5d matched %5d recall %.3f type %.3f label %.3f (%d labelled; drawn "
                        "%.3f of %d)%s\n",
                        qPrintable(t.key()), c.truth, c.matched, c.recall(), c.typeAccuracy(),
                        c.labelAccuracy(), c.labelled, c.drawnLabelAccuracy(), c.drawn,
                        mistaken.isEmpty() ? ""
                                           : qPrintable(QStringLiteral("; typed as ") +
                                                        mistaken.join(QStringLiteral(", "))));
        }
        std::printf(
            "\nnear misses: %d missed truth zones overlap an unmatched detection at IoU %.2f..%.2f (a box "
            "found but drawn too small or too large)\n",
            nearMissesAll, kNearMissIou, options.minIou);
        if (!failures.isEmpty())
            std::printf("%lld samples could not be scored (see stderr)\n", qlonglong(failures.size()));
    }
    return failures.isEmpty() && overall.frames > 0 ? 0 : 1;
}

} // namespace ciu::bench
