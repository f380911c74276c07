#include "core/canvas/ocrengine.h"

#include "core/canvas/canvaslog.h"

#include <QDir>
#include <QFileInfo>

#include <cstring>
#include <dlfcn.h>
#include <tesseract/baseapi.h>
#include <tesseract/resultiterator.h>

namespace ciu::canvas {

struct OcrEngine::Private
{
    tesseract::TessBaseAPI api;
    bool ready = false;
};

void OcrEngine::limitThreads()
{
    // libgomp reads OMP_THREAD_LIMIT when it is loaded, before main(); setting the variable now only
    // helps child processes. The runtime calls below have the same effect for this process: with
    // max-active-levels 0 every parallel region runs on the calling thread alone.
    if (qEnvironmentVariableIsEmpty("OMP_THREAD_LIMIT"))
        qputenv("OMP_THREAD_LIMIT", "1");
    using SetInt = void (*)(int);
    if (auto setLevels = reinterpret_cast<SetInt>(dlsym(RTLD_DEFAULT, "omp_set_max_active_levels")))
        setLevels(0);
    if (auto setThreads = reinterpret_cast<SetInt>(dlsym(RTLD_DEFAULT, "omp_set_num_threads")))
        setThreads(1);
}

OcrEngine::OcrEngine(const QString& tessdataDir, const QString& language)
    : d(std::make_unique<Private>())
{
    limitThreads();
    QString dir = tessdataDir;
    if (dir.isEmpty())
        dir = qEnvironmentVariable("TESSDATA_PREFIX");
    if (dir.isEmpty())
        dir = QStringLiteral("/usr/share/tesseract-ocr/5/tessdata");
    const QString model = QDir(dir).filePath(language + QStringLiteral(".traineddata"));
    if (!QFileInfo::exists(model)) {
        m_error = QStringLiteral("Tesseract language data not found: %1 (install tesseract-ocr-%2)")
                      .arg(model, language);
        qCWarning(lcCanvas) << m_error;
        return;
    }
    if (d->api.Init(dir.toLocal8Bit().constData(), language.toLatin1().constData(),
                    tesseract::OEM_LSTM_ONLY) != 0) {
        m_error = QStringLiteral("Tesseract could not load %1 from %2").arg(language, dir);
        qCWarning(lcCanvas) << m_error;
        return;
    }
    // UI text: no dictionary corrections of short labels, keep spaces between words.
    d->api.SetVariable("load_system_dawg", "0");
    d->api.SetVariable("load_freq_dawg", "0");
    d->api.SetVariable("preserve_interword_spaces", "1");
    d->api.SetVariable("debug_file", "/dev/null");
    // Inversion is decided per crop by the caller; Tesseract's own retry of every doubtful line inverted
    // costs up to twice the time.
    d->api.SetVariable("tessedit_do_invert", "0");
    d->ready = true;
}

OcrEngine::~OcrEngine()
{
    if (d && d->ready)
        d->api.End();
}

bool OcrEngine::isReady() const
{
    return d && d->ready;
}

OcrEngine::Result OcrEngine::read(const QImage& image, Layout layout, double scale, bool invert)
{
    Result result;
    if (!isReady() || image.isNull() || image.width() < 2 || image.height() < 2)
        return result;
    scale = qBound(1.0, scale, 4.0);
    QImage grey = image.convertToFormat(QImage::Format_Grayscale8);
    if (invert)
        grey.invertPixels();
    if (scale > 1)
        grey = grey.scaled(QSize(qRound(grey.width() * scale), qRound(grey.height() * scale)),
                           Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    // A white margin helps Tesseract with text touching the crop's edge.
    constexpr int margin = 8;
    QImage padded(grey.width() + 2 * margin, grey.height() + 2 * margin, QImage::Format_Grayscale8);
    padded.fill(255);
    for (int y = 0; y < grey.height(); ++y)
        std::memcpy(padded.scanLine(y + margin) + margin, grey.constScanLine(y), size_t(grey.width()));

    tesseract::PageSegMode psm = tesseract::PSM_SINGLE_LINE;
    switch (layout) {
    case Layout::SingleLine:
        psm = tesseract::PSM_SINGLE_LINE;
        break;
    case Layout::SingleWord:
        psm = tesseract::PSM_SINGLE_WORD;
        break;
    case Layout::SingleChar:
        psm = tesseract::PSM_SINGLE_CHAR;
        break;
    case Layout::SparseText:
        psm = tesseract::PSM_SPARSE_TEXT;
        break;
    case Layout::Block:
        psm = tesseract::PSM_SINGLE_BLOCK;
        break;
    }
    d->api.SetPageSegMode(psm);
    d->api.SetImage(padded.constBits(), padded.width(), padded.height(), 1, int(padded.bytesPerLine()));
    d->api.SetSourceResolution(qRound(96 * scale));
    if (d->api.Recognize(nullptr) != 0)
        return result;

    std::unique_ptr<tesseract::ResultIterator> it(d->api.GetIterator());
    if (!it)
        return result;
    QStringList lines;
    QString line;
    double confidenceSum = 0;
    const auto level = tesseract::RIL_WORD;
    do {
        std::unique_ptr<char[]> word(it->GetUTF8Text(level));
        if (!word)
            continue;
        const QString text = QString::fromUtf8(word.get()).trimmed();
        if (text.isEmpty())
            continue;
        int left = 0, top = 0, right = 0, bottom = 0;
        it->BoundingBox(level, &left, &top, &right, &bottom);
        Word w;
        w.text = text;
        w.confidence = double(it->Confidence(level));
        w.box = QRect(QPoint(int((left - margin) / scale), int((top - margin) / scale)),
                      QPoint(int((right - margin) / scale) - 1, int((bottom - margin) / scale) - 1))
                    .intersected(image.rect());
        result.words << w;
        confidenceSum += w.confidence;
        if (it->IsAtBeginningOf(tesseract::RIL_TEXTLINE) && !line.isEmpty()) {
            lines << line;
            line.clear();
        }
        line += (line.isEmpty() ? QString() : QStringLiteral(" ")) + text;
    } while (it->Next(level));
    if (!line.isEmpty())
        lines << line;
    result.text =
        lines.join(QLatin1Char('\n')).simplified().isEmpty() ? QString() : lines.join(QLatin1Char('\n'));
    result.confidence = result.words.isEmpty() ? 0 : confidenceSum / double(result.words.size());
    return result;
}

} // namespace ciu::canvas
