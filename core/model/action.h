#pragma once

#include "core/model/frame.h"
#include "platform/types.h"

#include <QJsonObject>
#include <QMetaType>
#include <QPoint>
#include <QSize>
#include <QString>

#include <optional>

namespace ciu {

// One action of the complete action set (that of the Claude computer tool and more), aimed either at a zone
// (zoneId, optionally a point inside it) or at raw root coordinates (point).
struct Action
{
    enum class Type : quint8
    {
        MouseMove = 1,
        LeftClick,
        RightClick,
        MiddleClick,
        DoubleClick,
        TripleClick,
        LeftClickDrag,
        LeftMouseDown,
        LeftMouseUp,
        Scroll,
        TypeText,
        Key,
        HoldKey,
        Wait,
        WaitForChange,
        Screenshot,
        CursorPosition,
        Copy,
        Paste,
        Cut,
        SelectAll,
        ClipboardRead,
        ClipboardWrite,
        Launch,
        ActivateWindow, // raise and activate the top-level window `windowId` (EWMH _NET_ACTIVE_WINDOW)
    };

    Type type = Type::MouseMove;
    QString zoneId;                 // target zone, empty for raw coordinates
    std::optional<QPoint> point;    // raw target, or an offset inside the zone when zoneId is set
    QString endZoneId;              // drag target zone
    std::optional<QPoint> endPoint; // drag target point
    quint64 windowId = 0;           // activate_window: the window (0: none)
    QString text;                   // type / key / hold_key / clipboard / launch command / wait text
    QString heldKeys;               // modifiers held during a click or scroll ("shift")
    platform::ScrollDirection scrollDirection = platform::ScrollDirection::Down;
    int amount = 1;     // scroll clicks
    int durationMs = 0; // hold_key, wait, wait_for_change timeout
    // The text is a secret (typed into a password or credential field): describe() and toJson() show it
    // masked, so it reaches no log, event, dialog or recording. The brush still types `text`.
    bool secretText = false;
    // What is shown instead of a secret text; always the same length, so it does not tell the secret's
    // length.
    static QString maskedText();

    bool needsPointer() const;
    bool isClick() const;
    QJsonObject toJson() const;
    static std::optional<Action> fromJson(const QJsonObject& object, QString* error = nullptr);
    // A short human description: "left_click zone z12 (\"OK\")".
    QString describe() const;
};

QString toString(Action::Type type);
std::optional<Action::Type> actionTypeFromString(const QString& name);

// Limits every proposed action is checked against before execution.
struct ActionLimits
{
    QSize screenSize;
    int maxTextLength = 2000;
    int maxDurationMs = 100'000;
    int maxScrollClicks = 50;
};

// Empty when valid, else the reason it is refused.
QString validate(const Action& action, const ActionLimits& limits);

struct ActionResult
{
    bool success = false;
    QString error;
    qint64 startNs = 0;
    qint64 durationNs = 0;
    // When the input was delivered (session clock; before the watch for its effect): a frame from after
    // this shows what the action did. 0: unknown (the end of the action counts).
    qint64 actedNs = 0;
    QPoint pointUsed;            // where the pointer acted
    QList<ChangeRegion> changes; // canvas changes observed afterwards
    bool changeObserved = false;
    quint64 frameAfter = 0; // index of the frame after the action (0: none)
    QString output;         // clipboard text read, cursor position, ...

    QJsonObject toJson() const;
};

} // namespace ciu

Q_DECLARE_METATYPE(ciu::Action)
Q_DECLARE_METATYPE(ciu::ActionResult)
