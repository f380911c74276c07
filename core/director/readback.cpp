#include "core/director/readback.h"

#include "core/canvas/ocrengine.h"
#include "core/director/directorlog.h"
#include "core/director/verification.h"

#include <QTimer>

#include <algorithm>
#include <memory>
#include <utility>

// Reading back typed text and chosen options: the accessibility tree's text where there is one, else OCR of
// the latest frame, read again from each new frame until the expected text shows or the settle time is over.

namespace ciu {

ReadBack::ReadBack() = default;

ReadBack::~ReadBack() = default;

void ReadBack::onFrame(const Frame& frame)
{
    m_lastFrame = frame;
    if (m_frameWaiter)
        std::exchange(m_frameWaiter, nullptr)();
}

void ReadBack::cancel()
{
    ++m_generation;
    m_frameWaiter = nullptr;
}

void ReadBack::readSettled(const ActionFlight& flight, Settling settling,
                           std::function<void(const std::optional<QString>&)> done)
{
    const ProposedAction& proposed = flight.proposed;
    // The field as it was found before the typing: once it holds text, an analysis may see only its empty
    // part as the field (the text beside it as static text).
    const Zone* before = flight.mapBefore ? flight.mapBefore->find(proposed.focusZoneId) : nullptr;
    const ZoneMap* current = settling.currentMap();
    const Zone* now = current ? current->find(proposed.focusZoneId) : nullptr;
    // Neither map has it by its id: the zone as the planner last saw it (readFieldText finds it again by its
    // accessible object, else reads its place).
    std::optional<Zone> field = before ? std::optional<Zone>(*before)
                                : now  ? std::optional<Zone>(*now)
                                       : proposed.focusZone;
    // Read from the whole field: vision may have split the text it held off as static text beside it.
    if (field)
        field->bounds = ActionVerifier::readingBox(*field, flight.mapBefore.get());
    // The program draws the text some time after the keys: read each new frame until the field holds the
    // text, or the settle time is over (then the last reading stands).
    struct State
    {
        quint64 frameAtStart = 0;
        std::optional<QString> last;
        std::function<void(const std::optional<QString>&)> done;
        bool finished = false;
    };
    auto state = std::make_shared<State>();
    state->frameAtStart = m_lastFrame.index;
    state->done = std::move(done);
    const quint64 generation = m_generation;
    auto finish = [state](const std::optional<QString>& text) {
        if (state->finished)
            return;
        state->finished = true;
        state->done(text);
    };
    auto attempt = std::make_shared<std::function<void()>>();
    // The attempt knows itself weakly (no cycle): the frame waiter and the timer keep it alive.
    *attempt = [this, state, before = flight.mapBefore, proposed, field, generation, finish,
                currentMap = settling.currentMap, frameAfter = settling.frameAfter,
                self = std::weak_ptr(attempt)]() {
        if (state->finished || generation != m_generation)
            return;
        const ZoneMap* map = currentMap();
        const bool window = proposed.expect.kind == Expectation::Kind::WindowShowsText;
        bool treeText = false;
        const std::optional<QString> text =
            window  ? readWindowText(proposed.expect, map, &treeText, before.get())
            : field ? readFieldText(*field, map)
                    : std::nullopt;
        if (!text) { // nothing to read (a password, no frame, not a text field, an unknown window)
            finish(std::nullopt);
            return;
        }
        if (!window)
            treeText = fromTree(*field, map);
        state->last = text;
        QString why;
        const bool shows =
            window ? ActionVerifier::windowShowsText(proposed.expect, *text, &why)
            : proposed.expect.kind == Expectation::Kind::ShowsText
                ? ActionVerifier::showsText(proposed.expect, proposed.focusZoneId, *text, &why)
                : ActionVerifier::fieldTextMatches(proposed.expect, proposed.focusZoneId, *text, &why);
        // The tree's text is the program's own: it needs no new frame. A reading of pixels does.
        const bool frameShowsAction =
            m_lastFrame.index > state->frameAtStart || (frameAfter > 0 && m_lastFrame.index >= frameAfter);
        if (shows && (frameShowsAction || treeText)) {
            finish(text);
            return;
        }
        if (auto again = self.lock())
            m_frameWaiter = [again] { (*again)(); };
    };
    QTimer::singleShot(std::max(500, settling.settleTimeoutMs), settling.context,
                       [this, state, generation, finish, attempt, secondLook = settling.secondLook] {
                           if (generation != m_generation || state->finished)
                               return;
                           m_frameWaiter = nullptr;
                           // One last reading: the tree may have changed since the last frame.
                           (*attempt)();
                           m_frameWaiter = nullptr;
                           if (state->finished)
                               return;
                           // Not shown yet: the text may be drawn but not captured yet. A second look (a
                           // fresh frame, the canvas caught up), one more reading, then the last reading
                           // stands.
                           secondLook([this, state, generation, finish, attempt] {
                               if (generation != m_generation || state->finished)
                                   return;
                               (*attempt)();
                               m_frameWaiter = nullptr;
                               finish(state->last);
                           });
                       });
    (*attempt)();
}

bool ReadBack::fromTree(const Zone& field, const ZoneMap* map)
{
    const Zone* now = ActionVerifier::sameZone(map, field);
    return now && now->source == ZoneSource::Accessibility;
}

std::optional<QString> ReadBack::readFieldText(const Zone& field, const ZoneMap* map)
{
    if (field.isPassword)
        return std::nullopt;
    // The program's own text, from the accessibility tree (kept current by its events): a field's text, a
    // drop-down's chosen item (its value, else its name).
    if (const Zone* now = ActionVerifier::sameZone(map, field);
        now && now->source == ZoneSource::Accessibility && !now->isPassword) {
        if (now->type == ZoneType::TextField)
            return now->value;
        if (now->type == ZoneType::Dropdown)
            return now->value.isEmpty() ? now->label : now->value;
    }
    // Any zone typed into is read, whatever vision took it for (a field drawn like a tab is still a field).
    return readFrameText(field.bounds, field.bounds.height() > 40);
}

std::optional<QString> ReadBack::readWindowText(const Expectation& expectation, const ZoneMap* map,
                                                bool* fromTree, const ZoneMap* before)
{
    *fromTree = false;
    const auto window =
        std::find_if(m_windows.cbegin(), m_windows.cend(),
                     [&](const platform::WindowInfo& w) { return w.id == expectation.windowId; });
    if (window == m_windows.cend())
        return std::nullopt;
    // The program's own text first: the tree's zones of the window (a field's text, a label's name).
    if (map) {
        QStringList lines;
        for (const Zone& z : map->zones()) {
            if (z.source != ZoneSource::Accessibility || z.isPassword ||
                (z.windowId != window->id && !window->geometry.contains(z.bounds)))
                continue;
            for (const QString& t : {z.label, z.value}) {
                if (!t.isEmpty())
                    lines << t;
            }
        }
        const QString tree = lines.join(QLatin1Char('\n'));
        QString why;
        if (!tree.isEmpty() && ActionVerifier::windowShowsText(expectation, tree, &why)) {
            *fromTree = true;
            return tree;
        }
    }
    // Then what its fields show (the text went to the focused one; a reading of a whole window may miss a
    // short text in a field), then the whole window (a terminal has no fields).
    QStringList read;
    if (map) {
        for (const Zone& z : map->zones()) {
            if (z.type != ZoneType::TextField || z.isPassword || !window->geometry.intersects(z.bounds))
                continue;
            QRect box = z.bounds;
            if (const Zone* was = before ? before->find(z.id) : nullptr;
                was && was->type == ZoneType::TextField)
                box = box.united(was->bounds);
            if (const auto text = readFrameText(box, box.height() > 40); text && !text->isEmpty())
                read << *text;
        }
        QString why;
        if (!read.isEmpty() &&
            ActionVerifier::windowShowsText(expectation, read.join(QLatin1Char('\n')), &why))
            return read.join(QLatin1Char('\n'));
    }
    if (const auto all = readFrameText(window->geometry, true))
        read << *all;
    if (read.isEmpty())
        return std::nullopt;
    return read.join(QLatin1Char('\n'));
}

std::optional<QString> ReadBack::readFrameText(const QRect& bounds, bool block)
{
    if (!m_lastFrame.isValid())
        return std::nullopt;
    const QRect box = bounds.translated(-m_lastFrame.origin).intersected(m_lastFrame.image.rect());
    if (box.width() < 8 || box.height() < 8)
        return std::nullopt;
    if (!m_ocr) {
        canvas::OcrEngine::limitThreads();
        m_ocr = std::make_unique<canvas::OcrEngine>();
    }
    if (!m_ocr->isReady()) {
        qCWarning(lcDirector) << "cannot read typed text back:" << m_ocr->errorString();
        return std::nullopt;
    }
    // Inside the frame (a border or focus ring is not text); light text on a dark field is inverted.
    const int inset = std::min(3, std::min(box.width(), box.height()) / 6);
    const QImage crop = m_lastFrame.image.copy(box.adjusted(inset, inset, -inset, -inset));
    qint64 sum = 0;
    for (int y = 0; y < crop.height(); ++y) {
        const auto* line = reinterpret_cast<const QRgb*>(crop.constScanLine(y));
        for (int x = 0; x < crop.width(); ++x)
            sum += qGray(line[x]);
    }
    const bool dark = crop.width() * crop.height() > 0 && sum / (qint64(crop.width()) * crop.height()) < 128;
    const canvas::OcrEngine::Result read = m_ocr->read(
        crop, block ? canvas::OcrEngine::Layout::Block : canvas::OcrEngine::Layout::SingleLine, 2, dark);
    return read.text;
}

} // namespace ciu
