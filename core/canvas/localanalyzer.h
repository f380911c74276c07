#pragma once

#include "core/model/zone.h"
#include "platform/types.h"

#include <QImage>
#include <QList>
#include <QRect>

#include <memory>

namespace ciu::canvas {

// What the caller knows about the region that pixels alone do not tell.
struct AnalysisHints
{
    QList<platform::WindowInfo> windows; // top-level windows: menu bars sit at the top of their client area
    bool temporary = false;              // the zones found are temporary (a tooltip)
    bool menuPopup = false;              // the region is a popup menu: its text rows are menu items
    QList<QRect> excluded; // root coordinates: masked out (flat fill) before segmentation, no zones there
};

struct LocalAnalysisStats
{
    int boxes = 0;
    int textLines = 0;
    int ocrCalls = 0;
    int ocrCacheHits = 0;
    int confirmed = 0; // known zones whose pixels did not change
    int refound = 0;   // known zones found elsewhere by template matching
    int iconZones = 0; // unlabelled icon-sized buttons looked at by the icon namer
    int iconsNamed = 0;
    double segmentMs = 0;
    double ocrMs = 0;
    double iconMs = 0; // naming icons (the themes' first load included)
    double totalMs = 0;
};

struct LocalAnalysisResult
{
    QRect region; // what was analysed (root coordinates, clipped to the frame)
    QList<Zone>
        zones; // root coordinates; new detections have no id, confirmed and re-found zones keep theirs
    LocalAnalysisStats stats;
    QString error; // set when nothing could be analysed (empty region, null image)
};

// Tier 1: OpenCV segmentation and Tesseract OCR of one region of a frame. Owns one Tesseract instance,
// so it lives on one thread (the canvas worker's); not thread-safe.
class LocalAnalyzer
{
public:
    struct Options
    {
        QString tessdataDir; // empty: default location
        QString language = QStringLiteral("eng");
        bool ocr = true;
        double ocrScale = 2; // upscaling of small UI text before OCR
        // Text lines at least this wide are read unscaled first, and again upscaled when the mean
        // confidence is below wideLineConfidence (0: always upscale).
        int wideLineWidth = 120;
        double wideLineConfidence = 90;
        int contextMargin = 24;      // pixels around the region looked at for context (tab rows, labels)
        double templateMatch = 0.9;  // normalised correlation needed to re-find a moved zone
        int maxTemplateSearches = 8; // per call; more missing zones are left to detection
        int ocrCacheSize = 4000;
        // A word of x-height letters with a few tall ones has a slider's profile (a flat band, a few
        // columns standing out): a slider candidate read as a word this sure, of at least
        // sliderWordLetters letters, is text.
        double sliderWordConfidence = 80;
        int sliderWordLetters = 3;
        // Unlabelled icon-sized buttons are named after the installed icon theme's icon they show.
        bool nameIcons = true;
        QStringList iconThemes{QStringLiteral("Adwaita")}; // each with what it inherits, hicolor last
        int maxIconButton = 64; // px, either side: larger unlabelled buttons are not icon buttons
    };

    LocalAnalyzer();
    explicit LocalAnalyzer(Options options);
    ~LocalAnalyzer();
    LocalAnalyzer(const LocalAnalyzer&) = delete;
    LocalAnalyzer& operator=(const LocalAnalyzer&) = delete;

    bool ocrReady() const;
    QString ocrError() const;

    // Analyses `region` (root coordinates; null: the whole image) of `image`, whose top-left pixel is
    // root point `origin`. `known` are the current zones: those inside the region whose pixels did not
    // change are returned as they are; moved ones are re-found by template matching before new zones are
    // created. Only zones whose centre lies in the region are returned.
    LocalAnalysisResult analyze(const QImage& image, QPoint origin, const QRect& region,
                                const QList<Zone>& known = {}, const AnalysisHints& hints = {});

    // Keeps the pixels of `zones` (which now have ids) for template matching.
    void rememberTemplates(const QImage& image, QPoint origin, const QList<Zone>& zones);
    void forgetTemplates(const QStringList& ids);
    int templateCount() const;
    void clearCaches();
    // Does now what the first analysis would otherwise do on the way: indexes the icon themes (when icons
    // are named). Returns how long it took, in ms.
    double preload();

private:
    // `image` drawn at `scale` (a HiDPI screen) analysed downscaled by it, the zones scaled back.
    LocalAnalysisResult analyzeScaled(const QImage& image, QPoint origin, const QRect& region,
                                      const QList<Zone>& known, const AnalysisHints& hints, int scale);

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace ciu::canvas
