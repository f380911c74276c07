#include "app/commands.h"
#include "app/commonoptions.h"
#include "ui/mainwindow.h"

#include <QApplication>

namespace ciu::app {

int runGui(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("CIU Agent desktop app."));
    addCommonOptions(parser);
    int exitCode = ExitOk;
    if (!parseCommandLine(parser, arguments, &exitCode))
        return exitCode;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("unexpected argument \"%1\" (see ciu-agent --help)").arg(parser.positionalArguments().first()));
        return ExitUsage;
    }
    QString error;
    const auto common = readCommonOptions(parser, &error);
    if (!common) {
        printError(error);
        return ExitUsage;
    }
    applyVerbose(common->verbose);
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/ciu-agent.svg")));
    ui::MainWindow window({common->display, common->platform});
    window.show();
    return QApplication::exec();
}

}  // namespace ciu::app
