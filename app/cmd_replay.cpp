// ciu-agent replay SESSION_DIR [--export-html FILE] [--export-mp4 FILE]

#include "app/commands.h"
#include "app/commonoptions.h"
#include "core/replay/sessionexporter.h"
#include "core/replay/sessionreader.h"
#include "ui/replay/replayviewer.h"

#include <QApplication>
#include <QFileInfo>
#include <QGuiApplication>

#include <cstdio>
#include <cstring>

namespace ciu::app {

namespace {
bool haveDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}
} // namespace

// With an export option (or --help) the command needs no display: main() then runs it on the offscreen
// platform. Without any display the command also starts offscreen, so it can say so instead of aborting.
bool replayRunsHeadless(int argc, char* argv[])
{
    if (!haveDisplay())
        return true;
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--export-html", 13) == 0 ||
            std::strncmp(argv[i], "--export-mp4", 12) == 0 || std::strcmp(argv[i], "--help") == 0 ||
            std::strcmp(argv[i], "-h") == 0)
            return true;
    }
    return false;
}

int runReplay(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Opens a recorded session in the replay viewer, or exports it without a display."));
    parser.addPositionalArgument(QStringLiteral("session"),
                                 QStringLiteral("The session folder (session_YYYYMMDD_HHMMSS)."),
                                 QStringLiteral("SESSION_DIR"));
    const QCommandLineOption html(QStringLiteral("export-html"),
                                  QStringLiteral("Write a self-contained HTML report to FILE and exit."),
                                  QStringLiteral("FILE"));
    const QCommandLineOption mp4(
        QStringLiteral("export-mp4"),
        QStringLiteral("Write the video with the overlay burned in to FILE and exit."),
        QStringLiteral("FILE"));
    parser.addOption(html);
    parser.addOption(mp4);
    const QCommandLineOption verbose(QStringLiteral("verbose"),
                                     QStringLiteral("Log debug output of every component."));
    parser.addOption(verbose);
    int exitCode = ExitOk;
    if (!parseCommandLine(parser, arguments, &exitCode))
        return exitCode;
    applyVerbose(parser.isSet(verbose));
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1) {
        printError(positional.isEmpty()
                       ? QStringLiteral("replay needs a session folder (see ciu-agent replay --help)")
                       : QStringLiteral("unexpected argument \"%1\"").arg(positional.at(1)));
        return ExitUsage;
    }
    const QString dir = positional.first();
    if (!QFileInfo(dir).isDir()) {
        printError(QStringLiteral("%1 is not a session folder").arg(dir));
        return ExitUsage;
    }
    for (const QCommandLineOption* option : {&html, &mp4}) {
        if (parser.isSet(*option) && parser.value(*option).trimmed().isEmpty()) {
            printError(QStringLiteral("--%1 needs a file name").arg(option->names().first()));
            return ExitUsage;
        }
    }

    if (parser.isSet(html) || parser.isSet(mp4)) {
        replay::SessionReader reader;
        if (!reader.open(dir)) {
            printError(reader.problems().join(QStringLiteral("; ")));
            return ExitFailure;
        }
        for (const QString& problem : reader.problems())
            std::fprintf(stderr, "ciu-agent: warning: %s\n", qPrintable(terminalText(problem)));
        int result = ExitOk;
        auto run = [&](bool toHtml, const QString& file) {
            int lastPercent = -1;
            const auto progress = [&](qint64 done, qint64 total) {
                const int percent = total > 0 ? int(100 * done / total) : 100;
                if (percent / 10 != lastPercent / 10) {
                    std::fprintf(stderr, "\r%s: %3d %%", toHtml ? "html" : "mp4", percent);
                    std::fflush(stderr);
                }
                lastPercent = percent;
                return true;
            };
            QString error;
            const bool ok = toHtml ? replay::exportHtmlReport(reader, file, &error, progress)
                                   : replay::exportOverlayVideo(reader, file, &error, progress);
            std::fprintf(stderr, "\n");
            if (!ok) {
                printError(error);
                result = ExitFailure;
            } else {
                std::printf("%s\n", qPrintable(QFileInfo(file).absoluteFilePath()));
            }
        };
        if (parser.isSet(html))
            run(true, parser.value(html));
        if (parser.isSet(mp4))
            run(false, parser.value(mp4));
        return result;
    }

    if (!haveDisplay() && QGuiApplication::platformName() == QLatin1String("offscreen")) {
        printError(QStringLiteral("the replay viewer needs a display (DISPLAY is not set); "
                                  "--export-html and --export-mp4 work without one"));
        return ExitNoDisplay;
    }
    ui::ReplayViewer viewer;
    if (!viewer.openSession(dir)) {
        printError(viewer.reader().problems().join(QStringLiteral("; ")));
        return ExitFailure;
    }
    viewer.resizeToFitScreen();
    viewer.show();
    return QApplication::exec();
}

} // namespace ciu::app
