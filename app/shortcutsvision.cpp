#include "app/shortcutsvision.h"

#include "app/commonoptions.h"
#include "core/canvas/ocrengine.h"
#include "core/knowledge/shortcutdiscovery.h"
#include "platform/inputactions.h"

#include <QEventLoop>
#include <QTimer>

#include <algorithm>
#include <cstdlib>

namespace ciu::app {
namespace {

constexpr int kSettleStepMs = 150;
constexpr int kSettleTimeoutMs = 3000;
constexpr int kMenuBarHeight = 40; // px below the client area's top where the titles of a menu bar sit
// Tesseract read a Tk menu bar's titles (DejaVu Sans 9 px) only unscaled, and the rows of its menus (with
// their accelerators) best as one block upscaled three times.
constexpr double kOcrBarScale = 1;
constexpr double kOcrScale = 3;

void pause(int ms)
{
    QEventLoop loop;
    QTimer::singleShot(ms, &loop, &QEventLoop::quit);
    loop.exec();
}

// The screen once two grabs in a row are alike (a menu drawn), or the last grab after the timeout.
QImage settledScreen(platform::Screen& screen)
{
    QImage last = screen.grab();
    for (int waitedMs = 0; waitedMs < kSettleTimeoutMs; waitedMs += kSettleStepMs) {
        pause(kSettleStepMs);
        QImage now = screen.grab();
        if (!now.isNull() && now == last)
            return now;
        last = now;
    }
    return last;
}

} // namespace

QRect changedArea(const QImage& before, const QImage& after, int top)
{
    if (before.isNull() || before.size() != after.size())
        return {};
    const QImage a = before.convertToFormat(QImage::Format_RGB32);
    const QImage b = after.convertToFormat(QImage::Format_RGB32);
    int left = a.width();
    int right = -1;
    int first = a.height();
    int last = -1;
    for (int y = std::max(0, top); y < a.height(); ++y) {
        const auto* rowA = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* rowB = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x) {
            if (rowA[x] == rowB[x])
                continue;
            left = std::min(left, x);
            right = std::max(right, x);
            first = std::min(first, y);
            last = y;
        }
    }
    if (right < 0)
        return {};
    return QRect(QPoint(left, first), QPoint(right, last));
}

QList<Zone> textRows(const QList<canvas::OcrEngine::Word>& words, QPoint origin, bool splitAtGaps)
{
    QList<canvas::OcrEngine::Word> sorted;
    for (const canvas::OcrEngine::Word& w : words) {
        if (!w.text.trimmed().isEmpty() && !w.box.isEmpty())
            sorted.append(w);
    }
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.box.center().y() < b.box.center().y(); });
    // Lines: a word whose centre lies within the height of the line's first word joins it.
    QList<QList<canvas::OcrEngine::Word>> lines;
    for (const canvas::OcrEngine::Word& w : std::as_const(sorted)) {
        if (!lines.isEmpty()) {
            const QRect first = lines.last().first().box;
            if (std::abs(w.box.center().y() - first.center().y()) <= first.height() / 2) {
                lines.last().append(w);
                continue;
            }
        }
        lines.append({w});
    }
    QList<Zone> rows;
    for (QList<canvas::OcrEngine::Word>& line : lines) {
        std::stable_sort(line.begin(), line.end(),
                         [](const auto& a, const auto& b) { return a.box.x() < b.box.x(); });
        Zone row;
        row.type = ZoneType::MenuItem;
        row.source = ZoneSource::Local;
        row.labelSource = LabelSource::Ocr;
        for (const canvas::OcrEngine::Word& w : std::as_const(line)) {
            // Titles of a menu bar: a gap wider than most of the line's height (several spaces) starts
            // another one.
            if (splitAtGaps && !row.label.isEmpty() &&
                w.box.x() - (row.bounds.right() - origin.x()) > line.first().box.height() * 4 / 5) {
                rows.append(row);
                row.label.clear();
                row.bounds = {};
            }
            row.label += (row.label.isEmpty() ? QString() : QStringLiteral(" ")) + w.text.trimmed();
            row.bounds |= w.box.translated(origin);
        }
        rows.append(row);
    }
    return rows;
}

QList<Shortcut> exploreMenusByVision(platform::Platform& platform, const platform::WindowInfo& window)
{
    QList<Shortcut> found;
    canvas::OcrEngine ocr;
    if (!ocr.isReady()) {
        printError(QStringLiteral("OCR is unavailable (%1): the menus cannot be read by vision")
                       .arg(ocr.errorString()));
        return found;
    }
    platform.windows().activate(window.id);
    QImage screen = settledScreen(platform.screen());
    if (screen.isNull()) {
        printError(QStringLiteral("cannot grab the screen: %1").arg(platform.screen().errorString()));
        return found;
    }
    const QRect bar =
        QRect(window.geometry.topLeft(), QSize(window.geometry.width(), kMenuBarHeight)) & screen.rect();
    const QList<Zone> titles = menuBarTitles(
        textRows(ocr.read(screen.copy(bar), canvas::OcrEngine::Layout::SparseText, kOcrBarScale).words,
                 bar.topLeft(), true),
        window.geometry, kMenuBarHeight);
    if (titles.isEmpty()) {
        printError(QStringLiteral("no menu bar was seen at the top of the window: no menu was opened"));
        return found;
    }
    platform::InputActions input(platform.input(), platform.pointer());
    for (const Zone& title : titles) {
        const QString name = withoutMnemonic(title.label).trimmed();
        if (!input.clickAt(title.center(), platform::MouseButton::Left)) {
            printError(QStringLiteral("cannot open the menu \"%1\": %2").arg(name, input.errorString()));
            break;
        }
        const QImage open = settledScreen(platform.screen());
        const QRect area = changedArea(screen, open, title.bounds.bottom() + 1);
        if (area.isEmpty()) {
            printError(QStringLiteral("the menu \"%1\" showed nothing below its title").arg(name));
        } else {
            const QList<Zone> rows =
                textRows(ocr.read(open.copy(area), canvas::OcrEngine::Layout::Block, kOcrScale).words,
                         area.topLeft(), false);
            found << shortcutsFromMenuRows(rows, name);
        }
        input.keys(QStringLiteral("Escape"));
        screen = settledScreen(platform.screen());
    }
    return found;
}

} // namespace ciu::app
