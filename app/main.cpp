// ciu-agent: the desktop app (no command) or one of the headless commands.

#include "app/commands.h"
#include "app/commonoptions.h"
#include "core/model/metatypes.h"

#include <QApplication>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryFile>

#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

namespace {

void printUsage()
{
    std::printf("Usage: ciu-agent [COMMAND] [OPTIONS]\n\n"
                "CIU Agent: a desktop computer-use agent that keeps a live map of the screen's interactive\n"
                "zones and asks a language model only when the screen changes in a way it cannot explain.\n\n"
                "Without a command, the desktop app starts.\n\nCommands:\n");
    for (const auto& command : ciu::app::commands())
        std::printf("  %-10s %s\n", command.name, command.summary);
    std::printf(
        "\nGlobal options:\n  -h, --help     Show this help (COMMAND --help for a command's options).\n"
        "  -v, --version  Show the version.\n");
}

const ciu::app::Command* findCommand(const char* name)
{
    for (const auto& command : ciu::app::commands()) {
        if (std::strcmp(command.name, name) == 0)
            return &command;
    }
    return nullptr;
}

// Qt wants $XDG_RUNTIME_DIR (a folder only this user can enter) and prints a warning on every start when it
// is unset, as it is under cron, sudo, ssh without a login session or a container. Without one we make our
// own private folder, so users never see Qt's warning and sockets and locks still go somewhere private.
void ensureRuntimeDir()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    QTemporaryFile probe; // a file we just made tells who we are
    if (!probe.open())
        return;
    const uint me = QFileInfo(probe.fileName()).ownerId();
    const auto isPrivate = [me](const QString& path) {
        const QFileInfo info(path);
        return info.isDir() && !info.isSymLink() && info.ownerId() == me &&
               info.permissions() == (QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                      QFile::ReadUser | QFile::WriteUser | QFile::ExeUser);
    };
    const QString base = QDir::tempPath() + QStringLiteral("/ciu-agent-runtime-") + QString::number(me);
    for (int attempt = 0; attempt < 10; ++attempt) {
        const QString path = attempt == 0 ? base : base + QLatin1Char('-') + QString::number(attempt);
        if (!QFileInfo::exists(path))
            QDir().mkdir(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (isPrivate(path)) {
            qputenv("XDG_RUNTIME_DIR", QFile::encodeName(path));
            return;
        }
    }
    // Every candidate belongs to someone else: leave it to Qt (it warns and uses its own default).
}

} // namespace

int main(int argc, char* argv[])
{
    using namespace ciu::app;

    // Top-level flags and command lookup happen before any Qt application exists, so --help and
    // --version work without a display.
    const Command* command = nullptr;
    if (argc >= 2) {
        if (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-v") == 0) {
            std::printf("ciu-agent %s (Qt %s)\n", CIU_VERSION, qVersion());
            return ExitOk;
        }
        if (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
            printUsage();
            return ExitOk;
        }
        if (argv[1][0] != '-') {
            command = findCommand(argv[1]);
            if (!command) {
                std::fprintf(stderr, "ciu-agent: unknown command \"%s\" (see ciu-agent --help)\n", argv[1]);
                return ExitUsage;
            }
        }
    }
    if (!command)
        command = findCommand("gui");

    // Our --display names the TARGET display, but Qt's xcb plugin would take "-display"/"--display" as the
    // display of the app's own window: Qt gets the arguments without it, the commands get it back.
    QStringList displayArguments;
    std::vector<char*> qtArgv;
    for (int i = 0; i < argc; ++i) {
        const bool display = std::strcmp(argv[i], "--display") == 0 || std::strcmp(argv[i], "-display") == 0;
        if (display && i + 1 < argc) {
            displayArguments << QStringLiteral("--display") << QString::fromLocal8Bit(argv[i + 1]);
            ++i;
            continue;
        }
        if (std::strncmp(argv[i], "--display=", 10) == 0 || std::strncmp(argv[i], "-display=", 9) == 0) {
            displayArguments << QString::fromLocal8Bit(argv[i]);
            continue;
        }
        qtArgv.push_back(argv[i]);
    }
    int qtArgc = int(qtArgv.size());
    qtArgv.push_back(nullptr);

    ensureRuntimeDir();

    // The headless commands never need a window system connection of Qt's own.
    std::unique_ptr<QCoreApplication> app;
    if (command->needs == Command::Needs::Gui &&
        !(command->runsHeadless && command->runsHeadless(argc, argv))) {
        app = std::make_unique<QApplication>(qtArgc, qtArgv.data());
    } else {
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        app = std::make_unique<QApplication>(qtArgc, qtArgv.data());
    }
    QCoreApplication::setOrganizationName(QStringLiteral("ciu-agent"));
    QCoreApplication::setApplicationName(QStringLiteral("ciu-agent"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CIU_VERSION));
    ciu::registerMetaTypes();

    QStringList arguments = QCoreApplication::arguments() + displayArguments;
    if (std::strcmp(command->name, "gui") != 0 && arguments.size() >= 2)
        arguments.removeAt(1); // the command name
    return command->run(arguments);
}
