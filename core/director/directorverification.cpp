#include "core/canvas/ocrengine.h"
#include "core/director/director.h"
#include "core/director/directorinternal.h"
#include "core/director/directorlog.h"
#include "core/director/verification.h"

#include <QMetaMethod>
#include <QTimer>

#include <algorithm>
#include <memory>

// Verification after an action as the speed mode asks: wait for the canvas to settle (menus and lists
// until their maps stop coming), then let the ActionVerifier check the expected change in the zone map.

namespace ciu {

using directordetail::proposedJson;

void Director::verify(ActionFlight flight, const ActionResult& result)
{
    const ActionContext context = contextFor(flight.proposed);
    const Verification verification = m_speed.verificationFor(context);
    auto complete = [this, flight, result, context,
                     verification](std::optional<QString> fieldText = {}) mutable {
        QString why;
        const bool met =
            ActionVerifier::expectationMet(flight.proposed, result, flight.mapBefore, m_map, &why, fieldText);
        if (!met) {
            emitError(QStringLiteral("verification_failed"),
                      QStringLiteral("%1: %2").arg(flight.sent.describe(), why));
            escalate(why);
            // Timeout row: re-execute once, then re-plan.
            const RecoveryController::Step next = m_recovery.afterFailedVerification(flight);
            // A click whose effect may repeat (a button's) is never done twice.
            if (next.kind == RecoveryController::Step::Kind::Reexecute && flight.proposed.expect.repeatable) {
                emitInfo(QStringLiteral("reexecute"),
                         QStringLiteral("re-executing %1: %2").arg(flight.sent.describe(), why));
                dispatch(next.flight);
                return;
            }
        }
        ActionOutcome o;
        o.status = ActionOutcome::Status::Executed;
        o.result = result;
        o.mapAfter = m_map;
        o.verificationFailed = !met;
        o.retry = !met;
        o.message = met ? QStringLiteral("done") : QStringLiteral("executed, but %1").arg(why);
        const bool modelCheck = verification == Verification::Model;
        if (modelCheck && m_speed.screenshotForVerification(context) && m_lastFrame.isValid()) {
            o.screenshot = m_lastFrame.image;
        }
        record(QStringLiteral("verification"), {{QStringLiteral("action"), proposedJson(flight.proposed)},
                                                {QStringLiteral("verification"), toString(verification)},
                                                {QStringLiteral("speed"), toString(m_speed.mode())},
                                                {QStringLiteral("met"), met},
                                                {QStringLiteral("why"), why}});
        // A model verification point ends the batch unless the rest of the batch still fits the screen (every
        // zone it names is still there): then the change is explained locally and the model sees it in the
        // next call anyway. SPEED-LOW always asks the model before the next action.
        bool cut = !met;
        if (modelCheck && !cut) {
            cut = m_speed.mode() == SpeedMode::Low;
            for (qsizetype i = 1; i < m_queue.size(); ++i) { // the front is this action
                const ProposedAction& next = m_queue.at(i);
                for (const QString& id : {next.action.zoneId, next.action.endZoneId, next.focusZoneId}) {
                    if (!id.isEmpty() && (!m_map || !m_map->find(id)))
                        cut = true;
                }
            }
        }
        finishAction(o, cut);
    };
    const Expectation::Kind kind = flight.proposed.expect.kind;
    if (kind == Expectation::Kind::TextEquals || kind == Expectation::Kind::TextEndsWith ||
        kind == Expectation::Kind::ShowsText || kind == Expectation::Kind::WindowShowsText) {
        // Typed text and a chosen option are read back at every speed: a wrong "completed" costs more.
        setPhase(Phase::Verifying, kind == Expectation::Kind::ShowsText
                                       ? QStringLiteral("reading the chosen option back")
                                       : QStringLiteral("reading the typed text back"));
        readFieldTextSettled(flight,
                             [complete](const std::optional<QString>& text) mutable { complete(text); });
        return;
    }
    const bool opens = ActionVerifier::opensMenuOrList(flight);
    if (verification == Verification::None && !opens) {
        complete();
        return;
    }
    // Even unverified (SPEED-MAX), a menu or list that opens is waited for: the next step names one of its
    // items, and resolving it on a map without them (or with half of them) would click the wrong row.
    setPhase(
        Phase::Verifying,
        verification == Verification::None
            ? QStringLiteral("waiting for the menu or list to open (speed %1)").arg(toString(m_speed.mode()))
            : QStringLiteral("%1 verification (speed %2)")
                  .arg(toString(verification), toString(m_speed.mode())));
    const quint64 version = flight.mapBefore ? flight.mapBefore->version() : 0;
    // The first newer map may only show the pointer's arrival (a hover look): the effect (a dialog closing,
    // a page loading) can come a map or two later. Wait for a map that shows it, or the settle time.
    // checkMapWaiter() asks with *m_map: the verifier is given the shared pointer itself.
    MapPredicate settled = [this, version, flight, result](const ZoneMap& m) {
        QString why;
        return m.version() > version &&
               ActionVerifier::expectationMet(flight.proposed, result, flight.mapBefore, m_map, &why);
    };
    if (opens && flight.mapBefore) {
        // A menu or list opens: wait for its items, not just any newer map (a hover state comes first).
        settled = [before = flight.mapBefore](const ZoneMap& m) {
            if (m.version() <= before->version())
                return false;
            for (const Zone& z : m.zones()) {
                if (!before->find(z.id))
                    return true;
            }
            return false;
        };
    }
    // No map showing the effect within the settle time does not yet mean that nothing changed: maps come
    // only when something did, and a loaded machine may still be capturing or analysing it. A second look
    // (a fresh frame, the canvas caught up) decides; unless the current map meets the expectation already
    // (the brush saw the change, or no change is expected).
    if (!opens) {
        waitForMap(settled, m_options.settleTimeoutMs,
                   [this, flight, result, settled, complete](bool arrived) mutable {
                       QString why;
                       if (arrived || ActionVerifier::expectationMet(flight.proposed, result,
                                                                     flight.mapBefore, m_map, &why))
                           complete();
                       else
                           takeSecondLook(flight.proposed, settled, [complete]() mutable { complete(); });
                   });
        return;
    }
    // Menus and lists are analysed in pieces: after the first map with new zones, wait until the maps stop
    // coming (a quiet period), at most a few settle periods.
    const qint64 deadlineNs = m_clock.nowNs() + qint64(m_options.settleTimeoutMs) * 3'000'000;
    waitForMap(settled, m_options.settleTimeoutMs * 2,
               [this, proposed = flight.proposed, settled, complete, deadlineNs](bool arrived) mutable {
                   if (arrived)
                       waitForQuietMaps(deadlineNs, complete);
                   else // the second look analysed all the canvas held: no quiet period to wait for
                       takeSecondLook(proposed, settled, [complete]() mutable { complete(); });
               });
}

void Director::takeSecondLook(const ProposedAction& proposed, const MapPredicate& met,
                              std::function<void()> then)
{
    if (!isSignalConnected(QMetaMethod::fromSignal(&Director::lookAgainRequested))) {
        then(); // no canvas to ask: the first look stands
        return;
    }
    const quint64 token = ++m_lastLookToken;
    m_lookPending = token;
    const quint64 versionBefore = m_map ? m_map->version() : 0;
    setPhase(Phase::Verifying, QStringLiteral("taking a second look (the screen may not be analysed yet)"));
    emitInfo(QStringLiteral("second_look"),
             QStringLiteral("no effect of %1 seen yet; asking the canvas for a second look")
                 .arg(proposed.action.describe()));
    emit lookAgainRequested(token);
    // The answer, or a map meeting the expectation that came meanwhile, whichever is first.
    const MapPredicate seen = [this, token, met](const ZoneMap& m) {
        return m_lookAnswered == token || (met && met(m));
    };
    auto after = [this, token, versionBefore, proposed, met, then = std::move(then)](bool arrived) {
        if (m_lookPending == token)
            m_lookPending = 0; // a later answer is too late
        // What ended the wait: the canvas' answer, a map showing the effect (the canvas publishes it before
        // it answers), or the re-analysis time.
        QString endedBy = QStringLiteral("timeout");
        if (m_lookAnswered == token)
            endedBy = QStringLiteral("answer");
        else if (arrived)
            endedBy = QStringLiteral("map");
        QJsonObject r = {{QStringLiteral("action"), proposedJson(proposed)},
                         {QStringLiteral("ended_by"), endedBy},
                         {QStringLiteral("map_version_before"), double(versionBefore)},
                         {QStringLiteral("map_version"), double(m_map ? m_map->version() : 0)},
                         {QStringLiteral("zones"), m_map ? int(m_map->size()) : 0}};
        if (met)
            r.insert(QStringLiteral("met"), m_map && met(*m_map));
        record(QStringLiteral("second_look"), r);
        then();
    };
    waitForMap(seen, m_options.reanalysisTimeoutMs, std::move(after));
}

void Director::onLookedAgain(quint64 token, const ZoneMapPtr& map)
{
    if (token == 0 || token != m_lookPending)
        return; // the answer to a look that is over (its step or task ended)
    m_lookPending = 0;
    m_lookAnswered = token;
    // The canvas published a changed map before it answered; this one is at least as new.
    if (map && (!m_map || map->version() > m_map->version()))
        m_map = map;
    checkMapWaiter();
}

void Director::readFieldTextSettled(const ActionFlight& flight,
                                    std::function<void(const std::optional<QString>&)> done)
{
    const ProposedAction& proposed = flight.proposed;
    // The field as it was found before the typing: once it holds text, an analysis may see only its empty
    // part as the field (the text beside it as static text).
    const Zone* before = flight.mapBefore ? flight.mapBefore->find(proposed.focusZoneId) : nullptr;
    const Zone* now = m_map ? m_map->find(proposed.focusZoneId) : nullptr;
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
    *attempt = [this, state, proposed, field, generation, finish, self = std::weak_ptr(attempt)]() {
        if (state->finished || generation != m_generation)
            return;
        const bool window = proposed.expect.kind == Expectation::Kind::WindowShowsText;
        bool treeText = false;
        const std::optional<QString> text = window  ? readWindowText(proposed.expect, &treeText)
                                            : field ? readFieldText(*field)
                                                    : std::nullopt;
        if (!text) { // nothing to read (a password, no frame, not a text field, an unknown window)
            finish(std::nullopt);
            return;
        }
        if (!window)
            treeText = fromTree(*field);
        state->last = text;
        QString why;
        const bool shows =
            window ? ActionVerifier::windowShowsText(proposed.expect, *text, &why)
            : proposed.expect.kind == Expectation::Kind::ShowsText
                ? ActionVerifier::showsText(proposed.expect, proposed.focusZoneId, *text, &why)
                : ActionVerifier::fieldTextMatches(proposed.expect, proposed.focusZoneId, *text, &why);
        // The tree's text is the program's own: it needs no new frame. A reading of pixels does.
        if (shows && (m_lastFrame.index > state->frameAtStart || treeText)) {
            finish(text);
            return;
        }
        if (auto again = self.lock())
            m_frameWaiter = [again] { (*again)(); };
    };
    QTimer::singleShot(std::max(500, m_options.settleTimeoutMs), this,
                       [this, state, generation, finish, attempt, proposed] {
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
                           takeSecondLook(proposed, {}, [this, state, generation, finish, attempt] {
                               if (generation != m_generation || state->finished)
                                   return;
                               (*attempt)();
                               m_frameWaiter = nullptr;
                               finish(state->last);
                           });
                       });
    (*attempt)();
}

bool Director::fromTree(const Zone& field) const
{
    const Zone* now = ActionVerifier::sameZone(m_map.get(), field);
    return now && now->source == ZoneSource::Accessibility;
}

std::optional<QString> Director::readFieldText(const Zone& field)
{
    if (field.isPassword)
        return std::nullopt;
    // The program's own text, from the accessibility tree (kept current by its events): a field's text, a
    // drop-down's chosen item (its value, else its name).
    if (const Zone* now = ActionVerifier::sameZone(m_map.get(), field);
        now && now->source == ZoneSource::Accessibility && !now->isPassword) {
        if (now->type == ZoneType::TextField)
            return now->value;
        if (now->type == ZoneType::Dropdown)
            return now->value.isEmpty() ? now->label : now->value;
    }
    // Any zone typed into is read, whatever vision took it for (a field drawn like a tab is still a field).
    return readFrameText(field.bounds, field.bounds.height() > 40);
}

std::optional<QString> Director::readWindowText(const Expectation& expectation, bool* fromTree)
{
    *fromTree = false;
    const auto window =
        std::find_if(m_windows.cbegin(), m_windows.cend(),
                     [&](const platform::WindowInfo& w) { return w.id == expectation.windowId; });
    if (window == m_windows.cend())
        return std::nullopt;
    // The program's own text first: the tree's zones of the window (a field's text, a label's name).
    if (m_map) {
        QStringList lines;
        for (const Zone& z : m_map->zones()) {
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
    if (m_map) {
        for (const Zone& z : m_map->zones()) {
            if (z.type != ZoneType::TextField || z.isPassword || !window->geometry.intersects(z.bounds))
                continue;
            if (const auto text = readFrameText(z.bounds, z.bounds.height() > 40); text && !text->isEmpty())
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

std::optional<QString> Director::readFrameText(const QRect& bounds, bool block)
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
