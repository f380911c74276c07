#pragma once

#include "platform/types.h"

#include <QList>
#include <QStringList>

#include <optional>

namespace ciu::app {

// One sub-command of the ciu-agent executable. `run` receives the arguments after the command name
// (argv[0] first) and returns the process exit code.
struct Command
{
    const char* name;
    const char* summary;
    enum class Needs : quint8
    {
        Core = 1,
        Gui
    } needs = Needs::Core;
    int (*run)(const QStringList& arguments);
    // For a Gui command: true when these arguments need no display (e.g. a headless export); main() then
    // uses the offscreen platform. Null: always needs one.
    bool (*runsHeadless)(int argc, char* argv[]) = nullptr;
};

// Every command this build has, in help order. Defined in commands.cpp.
const QList<Command>& commands();

// Exit codes shared by every command.
enum ExitCode : int
{
    ExitOk = 0,
    ExitFailure = 1,   // the command ran and failed (task not completed, analysis failed)
    ExitUsage = 2,     // bad command line
    ExitNoDisplay = 3, // the target display cannot be opened or went away
};

// The window a --window option names (ciu-agent shortcuts, schema): a title containing the text or a WM_CLASS
// part equal to it (case-insensitive), the topmost first (`windows` bottom first). Defined in
// cmd_shortcuts.cpp.
std::optional<platform::WindowInfo> findWindow(const QList<platform::WindowInfo>& windows,
                                               const QString& text);

} // namespace ciu::app
