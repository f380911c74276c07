#pragma once

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QRect>
#include <QString>

#include <optional>

namespace ciu::app {

// The options every command shares (docs/ARCHITECTURE.md).
struct CommonOptions
{
    QString display;            // --display :N, default $DISPLAY
    QString platform;           // hidden: --platform x11|synthetic (also CIU_PLATFORM)
    QString provider;           // --provider local|anthropic|openai
    QString speed;              // --speed max|high|medium|low
    std::optional<bool> dryRun; // --dry-run / --execute
    int maxIterations = 20;
    double maxCostUsd = 1.0;
    QString sessionDir;
    bool verbose = false;
};

void addCommonOptions(QCommandLineParser& parser);
// Validates and reads them; on error returns nullopt with a message for the user in `error`.
std::optional<CommonOptions> readCommonOptions(const QCommandLineParser& parser, QString* error);

// Parses the arguments of a command: handles --help, reports unknown options and bad values on stderr.
// Returns false when the command should exit with `exitCode`.
bool parseCommandLine(QCommandLineParser& parser, const QStringList& arguments, int* exitCode);

// Everything a command does with the common options before its own work: parses the arguments (see
// parseCommandLine), reads and validates the common options (a bad value is reported on stderr) and applies
// --verbose. Returns nullopt when the command should exit with `exitCode`.
std::optional<CommonOptions> parseCommonCommandLine(QCommandLineParser& parser, const QStringList& arguments,
                                                    int* exitCode);

// False, after printing "COMMAND takes no arguments, got "…" (see --help)", when the command line has
// positional arguments; the command then exits with ExitUsage.
bool hasNoPositionals(const QCommandLineParser& parser, const QString& command);

// The log of the components: debug and info with --verbose, only warnings without (the commands print
// their own progress).
void applyVerbose(bool verbose);

// --region x,y,w,h: x,y >= 0, w,h >= 4, and the rectangle within the coordinate range of any screen (the
// sums never overflow). nullopt and a message for the user in `error` otherwise.
std::optional<QRect> parseRegion(const QString& text, QString* error);

// Text as it may go to a terminal: secrets redacted (API keys by pattern and every known key value, see
// core/model/secrets.h) and control characters shown as escapes ("\x1b[31m" stays visible text instead
// of colouring or moving the cursor), at most 4000 characters. Newlines and tabs are kept unless
// `singleLine`.
QString terminalText(const QString& text, bool singleLine = false);

// Prints to stderr with the program's prefix (through terminalText()).
void printError(const QString& message);

} // namespace ciu::app
