#pragma once

#include "platform/types.h"

#include <QList>
#include <QString>

#include <optional>

namespace ciu {

// One command of the local planner's language (see README "Local planner commands"):
//
//   click OK                      double-click "File Manager"     right-click Notes
//   middle-click X                triple-click X                  hover Submit  (also: move to X)
//   type "hello" into Search      type "hello"                    press ctrl+s  (also: key ctrl+s)
//   scroll down 3 in Results      scroll up                       drag "Item 1" to Trash
//   wait for "Saved"              wait 2s   wait 500ms            launch xterm -e top
//   check Subscribe               uncheck "Remember me"           select Blue in Color  (also: choose)
//   invoke "Save As…"             invoke "File > Save As…"  (a menu action: its known shortcut, else its menu
//   path)
//
// Commands are joined by newlines, ';' or the word "then". Names are quoted ("…" or '…', \" escapes) or
// bare words; a bare name ends at the next keyword of its command (into, in, to). "#z12" names a zone by
// id. A line starting with "#" followed by a space is a comment. Keywords are case-insensitive.
struct ScriptCommand
{
    enum class Verb : quint8
    {
        Click = 1,
        DoubleClick,
        RightClick,
        MiddleClick,
        TripleClick,
        Hover,
        Type,
        Press,
        Scroll,
        Drag,
        WaitFor,
        Wait,
        Launch,
        Check,
        Uncheck,
        Select,
        Append, // type at the end of a field's text ("type" replaces it)
        Invoke, // a menu action by name or menu path ("File > Save As…"): its shortcut, else the menus
    };

    Verb verb = Verb::Click;
    QString target;  // zone name (or "#id"); select: the dropdown; drag: the source
    QString target2; // drag: the destination
    QString text;    // type: text; press: keys; wait for: text; launch: command; select: the option
    platform::ScrollDirection scrollDirection = platform::ScrollDirection::Down;
    int amount = 0;     // scroll clicks (0: default)
    int durationMs = 0; // wait
    int position = 0;   // offset of the command in the script
    QString source;     // the command's own text

    // The command written back in the language's canonical form ("type \"x\" into Search").
    QString toString() const;
};

struct ScriptError
{
    int position = 0; // 0-based offset in the script
    int line = 1;     // 1-based
    int column = 1;   // 1-based
    QString message;
    // "line 2, column 7: expected a key after \"press\""
    QString toString() const;
};

struct ScriptParseResult
{
    QList<ScriptCommand> commands;
    std::optional<ScriptError> error;
    bool ok() const { return !error.has_value(); }
};

// Parses a whole script; stops at the first error.
ScriptParseResult parseScript(const QString& script);
QString toString(ScriptCommand::Verb verb);

// Limits of the language.
inline constexpr int kMaxScriptCommands = 500;
// The one cap on every duration a planner proposes (local wait, the model's wait, hold_key, wait_for_change).
inline constexpr int kMaxWaitMs = 100'000;
inline constexpr int kMaxScrollClicks = 50;

// `value` in units of `unitMs` (1: milliseconds, 1000: seconds) as whole milliseconds in 0..kMaxWaitMs, or
// nullopt and *error ("duration 99999 s is longer than the limit of 100 s") for a negative, non-finite or
// too long value: never a wrapped or silently clamped integer.
std::optional<int> boundedDurationMs(double value, double unitMs, QString* error);

} // namespace ciu
