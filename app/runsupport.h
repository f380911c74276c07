#pragma once

// Shared by `ciu-agent run` and `ciu-agent demo`: running one task through the whole pipeline with
// progress on stderr and a summary at the end.

#include "core/director/directortypes.h"
#include "core/engine/engine.h"

#include <QString>

namespace ciu::app {

struct TaskRun
{
    QString task;
    DirectorOptions director;
    Engine::Options engine;
    bool offerExecuteAfterDryRun = false; // on a terminal: "execute it now?" after a dry run
    bool json = false;                    // the summary as JSON on stdout
};

struct TaskRunResult
{
    bool started = false; // the pipeline came up
    QString error;        // why it did not
    TaskOutcome outcome;
    QString sessionPath;
};

// Runs the task in a local event loop (the command line's main thread) and prints progress on stderr.
TaskRunResult runTask(const TaskRun& run);
// "outcome: completed …" block printed at the end.
void printSummary(const TaskOutcome& outcome, const QString& sessionPath, bool json);
// True when a person can answer on this terminal.
bool stdinIsTerminal();

} // namespace ciu::app
