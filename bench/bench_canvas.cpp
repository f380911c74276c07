// bench canvas [SCREENSHOT.png]: the canvas mapper's Tier 1 costs on one core.
//  - cold full local analysis of a screenshot (the display's, or a PNG given as argument), compared in the
//    same run with the `tesseract` command line on the same image (which returns text only);
//  - a Tier 1 update for a button-sized change and for an 800×600 dialog (new text every time, so the OCR
//    cache does not help).
// bench/bench_canvas.sh runs it on a 1920×1080 Xvfb desktop with the fixture app and an xterm.

#include "bench/benchmark.h"
#include "core/canvas/localanalyzer.h"
#include "core/canvas/ocrengine.h"
#include "core/canvas/zoneregistry.h"
#include "platform/platformfactory.h"

#include <QElapsedTimer>
#include <QImageReader>
#include <QPainter>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <sys/resource.h>

namespace ciu::bench {
namespace {

double childCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
           double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

double msSince(const QElapsedTimer& t)
{
    return double(t.nsecsElapsed()) / 1e6;
}

void paintDialog(QImage& image, const QRect& r, int variant)
{
    QPainter p(&image);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(12);
    p.setFont(font);
    p.setPen(QColor(0x80, 0x80, 0x80));
    p.setBrush(QColor(0xef, 0xef, 0xef));
    p.drawRect(r.adjusted(0, 0, -1, -1));
    p.fillRect(QRect(r.x() + 1, r.y() + 1, r.width() - 2, 24), QColor(0x3c, 0x6e, 0xb4));
    p.setPen(Qt::white);
    p.drawText(QRect(r.x(), r.y(), r.width(), 26), Qt::AlignCenter,
               QStringLiteral("Export settings %1").arg(variant));
    auto field = [&](int row, const QString& label, const QString& text) {
        const int y = r.y() + 50 + row * 36;
        p.setPen(Qt::black);
        p.drawText(QRect(r.x() + 20, y, 120, 24), Qt::AlignVCenter | Qt::AlignLeft, label);
        p.setPen(QColor(0x9a, 0x9a, 0x9a));
        p.setBrush(Qt::white);
        p.drawRect(QRect(r.x() + 150, y, r.width() - 180, 24).adjusted(0, 0, -1, -1));
        p.setPen(Qt::black);
        p.drawText(QRect(r.x() + 156, y, r.width() - 190, 24), Qt::AlignVCenter | Qt::AlignLeft, text);
    };
    field(0, QStringLiteral("File name:"), QStringLiteral("report-%1.pdf").arg(variant));
    field(1, QStringLiteral("Folder:"), QStringLiteral("/home/user/documents/%1").arg(variant * 7));
    field(2, QStringLiteral("Author:"), QStringLiteral("Person %1").arg(variant));
    field(3, QStringLiteral("Title:"), QStringLiteral("Quarterly numbers %1").arg(2000 + variant));
    for (int i = 0; i < 4; ++i) {
        const QRect box(r.x() + 20 + (i % 2) * 300, r.y() + 210 + (i / 2) * 30, 14, 14);
        p.setPen(QColor(0x80, 0x80, 0x80));
        p.setBrush(Qt::white);
        p.drawRect(box.adjusted(0, 0, -1, -1));
        p.setPen(Qt::black);
        p.drawText(QRect(box.right() + 8, box.y() - 3, 250, 20), Qt::AlignVCenter | Qt::AlignLeft,
                   QStringLiteral("Option %1 of set %2").arg(i + 1).arg(variant));
    }
    p.setPen(Qt::black);
    for (int line = 0; line < 8; ++line)
        p.drawText(
            QRect(r.x() + 20, r.y() + 290 + line * 22, r.width() - 40, 20), Qt::AlignVCenter | Qt::AlignLeft,
            QStringLiteral("Line %1: the export writes every page of document %2 to the chosen folder.")
                .arg(line + 1)
                .arg(variant));
    const QStringList buttons{QStringLiteral("Help"), QStringLiteral("Cancel"),
                              QStringLiteral("Export %1").arg(variant)};
    for (int i = 0; i < buttons.size(); ++i) {
        const QRect b(r.right() - 3 * 110 + i * 110 - 10, r.bottom() - 44, 100, 28);
        p.setPen(QColor(0x90, 0x90, 0x90));
        p.setBrush(QColor(0xe6, 0xe6, 0xe6));
        p.drawRect(b.adjusted(0, 0, -1, -1));
        p.setPen(Qt::black);
        p.drawText(b, Qt::AlignCenter, buttons.at(i));
    }
}

} // namespace

int runCanvasBenchmark(const Context& context, Reporter& out)
{
    QImage screen;
    QString source;
    QList<platform::WindowInfo> windows;
    if (!context.args.isEmpty()) {
        QImageReader reader(context.args.first());
        screen = reader.read().convertToFormat(QImage::Format_RGB32);
        if (screen.isNull()) {
            out.note(QStringLiteral("cannot read %1: %2").arg(context.args.first(), reader.errorString()));
            return 2;
        }
        source = context.args.first();
    } else {
        auto opened = platform::createPlatform({context.platform, context.display});
        if (!opened.platform) {
            out.note(opened.error +
                     QStringLiteral(" (or pass a screenshot: ciu-agent bench canvas FILE.png)"));
            return 3;
        }
        screen = opened.platform->screen().grab();
        windows = opened.platform->windows().topLevelWindows();
        if (screen.isNull()) {
            out.note(QStringLiteral("grab failed: %1").arg(opened.platform->screen().errorString()));
            return 1;
        }
        source = opened.platform->displayName();
    }
    canvas::OcrEngine::limitThreads();
    const int iterations = context.iterations > 0 ? context.iterations : 3;
    const QJsonObject info{{QLatin1String("width"), screen.width()},
                           {QLatin1String("height"), screen.height()},
                           {QLatin1String("source"), source},
                           {QLatin1String("iterations"), iterations}};
    canvas::AnalysisHints hints;
    hints.windows = windows;

    // 1. Cold full analysis: a new analyzer each time (no OCR cache, no templates).
    QList<double> initMs, coldMs, coldCpuMs;
    canvas::LocalAnalysisResult full;
    for (int i = 0; i < iterations; ++i) {
        QElapsedTimer timer;
        timer.start();
        canvas::LocalAnalyzer analyzer;
        if (!analyzer.ocrReady()) {
            out.note(analyzer.ocrError());
            return 1;
        }
        initMs << msSince(timer);
        const double cpu0 = processCpuSeconds();
        timer.restart();
        full = analyzer.analyze(screen, QPoint(0, 0), {}, {}, hints);
        coldMs << msSince(timer);
        coldCpuMs << (processCpuSeconds() - cpu0) * 1000.0;
    }
    QJsonObject fullInfo = info;
    fullInfo.insert(QLatin1String("zones"), int(full.zones.size()));
    fullInfo.insert(QLatin1String("ocr_calls"), full.stats.ocrCalls);
    fullInfo.insert(QLatin1String("ocr_ms"), full.stats.ocrMs);
    fullInfo.insert(QLatin1String("segment_ms"), full.stats.segmentMs);
    out.figure(QStringLiteral("tesseract_init"), median(initMs), QStringLiteral("ms"), info);
    out.figure(QStringLiteral("full_local_cold"), median(coldMs), QStringLiteral("ms"), fullInfo);
    out.figure(QStringLiteral("full_local_cold_cpu"), median(coldCpuMs), QStringLiteral("ms"), fullInfo);

    // 2. The tesseract command line on the same image (text only, no boxes or types).
    const QString tesseract = QStandardPaths::findExecutable(QStringLiteral("tesseract"));
    QTemporaryDir dir;
    if (tesseract.isEmpty() || !dir.isValid()) {
        out.note(QStringLiteral("tesseract CLI not found: comparison skipped"));
    } else {
        const QString png = dir.filePath(QStringLiteral("screen.png"));
        screen.save(png);
        QList<double> cliMs, cliCpuMs;
        qsizetype chars = 0;
        for (int i = 0; i < iterations; ++i) {
            QProcess process;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("OMP_THREAD_LIMIT"), QStringLiteral("1"));
            process.setProcessEnvironment(env);
            const double cpu0 = childCpuSeconds();
            QElapsedTimer timer;
            timer.start();
            process.start(tesseract, {png, QStringLiteral("stdout")});
            if (!process.waitForFinished(120000)) {
                out.note(QStringLiteral("tesseract CLI failed: %1").arg(process.errorString()));
                break;
            }
            cliMs << msSince(timer);
            cliCpuMs << (childCpuSeconds() - cpu0) * 1000.0;
            chars = QString::fromUtf8(process.readAllStandardOutput()).simplified().size();
        }
        if (!cliMs.isEmpty()) {
            QJsonObject cliInfo = info;
            cliInfo.insert(QLatin1String("text_chars"), int(chars));
            out.figure(QStringLiteral("tesseract_cli"), median(cliMs), QStringLiteral("ms"), cliInfo);
            out.figure(QStringLiteral("tesseract_cli_cpu"), median(cliCpuMs), QStringLiteral("ms"), cliInfo);
        }
    }

    // 3. Tier 1 updates on a warm analyzer with a populated registry.
    canvas::LocalAnalyzer analyzer;
    canvas::ZoneRegistry registry;
    registry.setScreenSize(screen.size());
    registry.replaceWithin({}, analyzer.analyze(screen, QPoint(0, 0), {}, {}, hints).zones, 0);
    analyzer.rememberTemplates(screen, QPoint(0, 0), registry.zones());
    const int updates = std::max(10, iterations * 5);

    // A button-sized change: a button's label changes.
    QRect buttonRect(screen.width() / 2 - 50, screen.height() - 60, 100, 26);
    for (const Zone& z : registry.zones()) {
        if (z.type == ZoneType::Button && z.bounds.width() >= 50 && z.bounds.width() <= 200 &&
            !z.label.isEmpty()) {
            buttonRect = z.bounds;
            break;
        }
    }
    QList<double> buttonMs;
    for (int i = 0; i < updates; ++i) {
        QImage frame = screen.copy();
        QPainter p(&frame);
        QFont font(QStringLiteral("DejaVu Sans"));
        font.setPixelSize(12);
        p.setFont(font);
        p.setPen(QColor(0x90, 0x90, 0x90));
        p.setBrush(QColor(0xe6, 0xe6, 0xe6));
        p.drawRect(buttonRect.adjusted(0, 0, -1, -1));
        p.setPen(Qt::black);
        p.drawText(buttonRect, Qt::AlignCenter, QStringLiteral("Save %1").arg(i));
        p.end();
        const QRect region = buttonRect.adjusted(-4, -4, 4, 4);
        QList<Zone> known;
        for (const Zone& z : registry.zones()) {
            if (region.contains(z.bounds.center()))
                known << z;
        }
        QElapsedTimer timer;
        timer.start();
        const auto result = analyzer.analyze(frame, QPoint(0, 0), region, known, hints);
        registry.replaceWithin(result.region, result.zones, i + 1);
        buttonMs << msSince(timer);
    }
    QJsonObject buttonInfo = info;
    buttonInfo.insert(QLatin1String("region_width"), buttonRect.width() + 8);
    buttonInfo.insert(QLatin1String("region_height"), buttonRect.height() + 8);
    out.figure(QStringLiteral("tier1_button_median"), median(buttonMs), QStringLiteral("ms"), buttonInfo);
    out.figure(QStringLiteral("tier1_button_p95"), percentile(buttonMs, 95), QStringLiteral("ms"),
               buttonInfo);

    // An 800×600 dialog appears (different text every time).
    const QRect dialog(QRect(QPoint(0, 0), screen.size()).center() - QPoint(400, 300), QSize(800, 600));
    QList<double> dialogMs, dialogCpuMs;
    int dialogZones = 0;
    for (int i = 0; i < updates; ++i) {
        QImage frame = screen.copy();
        paintDialog(frame, dialog, i);
        QList<Zone> known;
        for (const Zone& z : registry.zones()) {
            if (dialog.contains(z.bounds.center()))
                known << z;
        }
        QElapsedTimer timer;
        timer.start();
        const double cpu0 = processCpuSeconds();
        const auto result = analyzer.analyze(frame, QPoint(0, 0), dialog, known, hints);
        registry.replaceWithin(result.region, result.zones, 100 + i);
        dialogMs << msSince(timer);
        dialogCpuMs << (processCpuSeconds() - cpu0) * 1000.0;
        dialogZones = int(result.zones.size());
    }
    QJsonObject dialogInfo = info;
    dialogInfo.insert(QLatin1String("zones"), dialogZones);
    out.figure(QStringLiteral("tier1_dialog_800x600_median"), median(dialogMs), QStringLiteral("ms"),
               dialogInfo);
    out.figure(QStringLiteral("tier1_dialog_800x600_p95"), percentile(dialogMs, 95), QStringLiteral("ms"),
               dialogInfo);
    out.figure(QStringLiteral("tier1_dialog_800x600_cpu_median"), median(dialogCpuMs), QStringLiteral("ms"),
               dialogInfo);
    out.figure(QStringLiteral("peak_rss"), peakRssMiB(), QStringLiteral("MiB"), info);
    return 0;
}

} // namespace ciu::bench
