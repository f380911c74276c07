#include "app/commands.h"

namespace ciu::app {

// Each command lives in its own cmd_*.cpp.
int runGui(const QStringList& arguments);
int runBench(const QStringList& arguments);

const QList<Command>& commands()
{
    static const QList<Command> list = {
        {"gui", "Start the desktop app (the default).", Command::Needs::Gui, &runGui},
        {"bench", "Run benchmarks and print machine-readable figures.", Command::Needs::Core, &runBench},
    };
    return list;
}

}  // namespace ciu::app
