#pragma once

#include "core/brush/trajectoryplanner.h"

#include <QMetaType>
#include <QPoint>

#include <optional>

namespace ciu {

// Which canvas changes count as the effect of an action.
enum class ChangeScope : quint8
{
    Target = 1, // changed regions intersecting the target zone (or the point acted on)
    Anywhere,   // any change that is not the cursor alone
};

struct BrushSettings
{
    TrajectorySettings trajectory;
    TrajectoryKind trajectoryKind = TrajectoryKind::Direct; // how actions reach their target
    int hoverDwellMs = 300;

    // The OS cursor farther than this from where the brush last put it means someone else moved it:
    // brush_lost, then takeover (pause until resume()). Never fight the user for the pointer.
    int lostTolerancePx = 3;
    bool takeoverDetection = true;
    int verifyRetries = 1; // recalibrate and retry when the cursor is not inside the target

    // pyautogui-style fail-safe: the cursor pushed into this corner stops everything until reset.
    bool failSafeEnabled = true;
    QPoint failSafeCorner{0, 0};
    int failSafeTolerancePx = 3;

    // Hover ticks, and pointer polls (fail-safe, takeover) while a run or an action is active.
    int pollIntervalMs = 50;

    // Watching for the effect of an action.
    int changeTimeoutMs = 1000;
    ChangeScope changeScope = ChangeScope::Anywhere;
    bool waitForStable = false; // after the first change, wait for a diff flagged stable
    // A click on a button or link first changes the button itself (its pressed or hover look); its effect
    // elsewhere (a status line, a page) is drawn a frame or more later. Changes only inside the target do not
    // end the watch until this long after the click, so the effect is part of the action's result.
    int ownLookGraceMs = 250;
    int typeDelayMs = 0; // per character

    // Pointer speed of the command line's --speed modes (max: jump in one step).
    static std::optional<double> speedForMode(const QString& mode);
};

} // namespace ciu

Q_DECLARE_METATYPE(ciu::BrushSettings)
