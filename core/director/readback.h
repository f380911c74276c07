#pragma once

#include "core/director/actionflight.h"
#include "core/model/action.h"
#include "core/model/frame.h"
#include "core/model/zonemap.h"
#include "platform/types.h"

#include <QList>
#include <QRect>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

class QObject;

namespace ciu {
namespace canvas {
class OcrEngine;
}

// Reads back what text fields, drop-downs and windows show, for the verification of typed text and chosen
// options: the program's own text from the accessibility tree where the zone map has it, else OCR of the
// latest frame. It is fed the frames and the window list (the Director forwards onFrame and onWindows) and
// answers single reads against a given zone map, or reads a field from each new frame until it shows the
// expected text (readSettled). A password field is never read.
class ReadBack
{
public:
    ReadBack();
    ~ReadBack();
    ReadBack(const ReadBack&) = delete;
    ReadBack& operator=(const ReadBack&) = delete;

    // The latest frame; a settled read waiting for one reads again.
    void onFrame(const Frame& frame);
    // The top-level windows (bottom first) as last reported.
    void onWindows(const QList<platform::WindowInfo>& windows) { m_windows = windows; }
    const Frame& lastFrame() const { return m_lastFrame; }
    const QList<platform::WindowInfo>& windows() const { return m_windows; }

    // What the text field or drop-down `field` reads now: its text in `map`'s accessibility tree zone when
    // it comes from there, else OCR of its box in the latest frame; nullopt when it cannot be read: no frame,
    // neither a field nor a drop-down, or a password field (never read).
    std::optional<QString> readFieldText(const Zone& field, const ZoneMap* map);
    // What the window `expectation.windowId` shows: the text of its tree zones in `map`, else OCR of its area
    // in the latest frame; nullopt when the window is not known or nothing can be read. `fromTree`: the text
    // is the tree's (it showed the expected text), not a reading of pixels.
    // `before`: the map before the typing; a field's text is read from the field as it was there too
    // (vision may since have split the typed text off the field as static text beside it).
    std::optional<QString> readWindowText(const Expectation& expectation, const ZoneMap* map, bool* fromTree,
                                          const ZoneMap* before = nullptr);
    // OCR of `box` (root coordinates) in the latest frame (dark backgrounds inverted); nullopt: no frame,
    // too small, or no OCR engine.
    std::optional<QString> readFrameText(const QRect& box, bool block);
    // The field is in `map` as a tree zone.
    static bool fromTree(const Zone& field, const ZoneMap* map);

    // What a settled read needs of its owner.
    struct Settling
    {
        QObject* context = nullptr; // the settle timer's (its thread runs the read)
        int settleTimeoutMs = 0;
        std::function<const ZoneMap*()> currentMap; // the zone map as it is now (null: none yet)
        // Asks for a second look (a fresh frame, the canvas caught up) and calls `then` once it is over.
        std::function<void(std::function<void()> then)> secondLook;
        // The frame in which the brush saw the action's change (0: none): a frame from then on shows it.
        quint64 frameAfter = 0;
    };
    // Reads the field `flight` typed into (or the window it expects text in) from each new frame until it
    // holds the expected text or the settle time is over, then after a second look once more; `done` gets
    // the last reading (nullopt: the field cannot be read). Nothing after cancel().
    void readSettled(const ActionFlight& flight, Settling settling,
                     std::function<void(const std::optional<QString>&)> done);
    // The task ended: a settled read in progress stops without calling its `done`.
    void cancel();

private:
    std::unique_ptr<canvas::OcrEngine> m_ocr; // created on first use
    Frame m_lastFrame;
    QList<platform::WindowInfo> m_windows;
    std::function<void()> m_frameWaiter; // called (once) with the next frame
    quint64 m_generation = 0;            // bumped by cancel(): a settled read of an earlier one does nothing
};

} // namespace ciu
