#pragma once

#include <QImage>
#include <QList>
#include <QRect>
#include <QString>

#include <memory>

namespace ciu::canvas {

// One long-lived Tesseract instance. Not thread-safe: each worker thread owns its own engine (never
// share one TessBaseAPI between threads). Loading the model takes ~80 ms, so keep the engine alive.
class OcrEngine
{
public:
    // Page segmentation restricted to what a region needs.
    enum class Layout : quint8
    {
        SingleLine = 1, // a button, a field, one text line
        SingleWord,
        SingleChar, // one glyph (a key's "+", "1", "."): Tesseract's PSM 10
        SparseText, // a panel with scattered labels
        Block,
    };

    struct Word
    {
        QString text;
        QRect box;             // in the coordinates of the image given to read()
        double confidence = 0; // 0..100
    };

    struct Result
    {
        QString text;          // trimmed, lines joined by '\n'
        double confidence = 0; // mean word confidence 0..100, 0 when no text
        QList<Word> words;
    };

    // Empty tessdataDir: $TESSDATA_PREFIX, else /usr/share/tesseract-ocr/5/tessdata.
    explicit OcrEngine(const QString& tessdataDir = {}, const QString& language = QStringLiteral("eng"));
    ~OcrEngine();
    OcrEngine(const OcrEngine&) = delete;
    OcrEngine& operator=(const OcrEngine&) = delete;

    bool isReady() const;
    QString errorString() const { return m_error; }

    // Recognises `image` (any format; converted to 8-bit grey). Dark text on a light background works
    // best: pass invert=true for light text on dark. `scale` (1..4) upscales small UI text first.
    Result read(const QImage& image, Layout layout, double scale = 2, bool invert = false);

    // Limits OpenMP inside Tesseract to the calling thread (OMP_THREAD_LIMIT=1 equivalent): Tesseract's
    // OpenMP threads make it several times slower on a loaded machine.
    static void limitThreads();

private:
    struct Private;
    std::unique_ptr<Private> d;
    QString m_error;
};

} // namespace ciu::canvas
