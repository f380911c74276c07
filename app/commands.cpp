#include "app/commands.h"

namespace ciu::app {

// Each command lives in its own cmd_*.cpp.
int runGui(const QStringList& arguments);
int runBench(const QStringList& arguments);
int runAnalyze(const QStringList& arguments);
int runReplay(const QStringList& arguments);
int runRun(const QStringList& arguments);
int runDemo(const QStringList& arguments);
int runMcp(const QStringList& arguments);
int runShortcuts(const QStringList& arguments);
int runSchema(const QStringList& arguments);
int runZones(const QStringList& arguments);
int runTasks(const QStringList& arguments);
bool replayRunsHeadless(int argc, char* argv[]);
bool guiRunsHeadless(int argc, char* argv[]);

const QList<Command>& commands()
{
    static const QList<Command> list = {
        {"gui", "Start the desktop app (the default).", Command::Needs::Gui, &runGui, &guiRunsHeadless},
        {"bench", "Run benchmarks and print machine-readable figures.", Command::Needs::Core, &runBench},
        {"run", "Run one task on the display (dry run unless --execute); exit 0 only if it completed.",
         Command::Needs::Core, &runRun},
        {"demo", "Run a recorded multi-step task on the fixture app in a private X server.",
         Command::Needs::Core, &runDemo},
        {"analyze", "Print the zone inventory of the display (or of a screenshot).", Command::Needs::Core,
         &runAnalyze},
        {"shortcuts",
         "List the keyboard shortcuts of the active or named window (and learn them from its menus).",
         Command::Needs::Core, &runShortcuts},
        {"schema",
         "Show a program's app schema (shortcuts, named zones, your corrections, notes); export or import "
         "it.",
         Command::Needs::Core, &runSchema},
        {"zones", "List or remove the remembered zones of programs (zone memory).", Command::Needs::Core,
         &runZones},
        {"mcp", "Serve the desktop to MCP clients (Claude Desktop, Claude Code) over stdio or HTTP.",
         Command::Needs::Core, &runMcp},
        {"tasks", "List the remembered past tasks, or forget them (--forget ID, --clear).",
         Command::Needs::Core, &runTasks},
        {"replay", "Open a recorded session in the replay viewer, or export it.", Command::Needs::Gui,
         &runReplay, &replayRunsHeadless},
    };
    return list;
}

} // namespace ciu::app
