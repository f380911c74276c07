#include "app/applog.h"
#include "app/commands.h"
#include "app/commonoptions.h"
#include "app/displaylock.h"
#include "core/model/secrets.h"
#include "core/providers/keystore.h"
#include "ui/enginebridge.h"
#include "ui/mainwindow.h"
#include "ui/taskconsole.h"

#include <QApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace ciu::app {
namespace {

// The app's own translation (compiled in by qt_add_translations) and Qt's, for the user's locale.
void installTranslators(QApplication& app)
{
    auto* own = new QTranslator(&app);
    if (own->load(QLocale(), QStringLiteral("ciu-agent"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QApplication::installTranslator(own);
    auto* qt = new QTranslator(&app);
    if (qt->load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QApplication::installTranslator(qt);
}

} // namespace

// --help and --version need no window: the app then starts on the offscreen platform (main.cpp).
bool guiRunsHeadless(int argc, char* argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--help" || arg == "-h" || arg == "--help-all" || arg == "--version" || arg == "-v")
            return true;
    }
    return false;
}

int runGui(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("CIU Agent desktop app."));
    addCommonOptions(parser);
    const QCommandLineOption taskOption(
        QStringLiteral("task"), QStringLiteral("Put TASK into the task console."), QStringLiteral("TASK"));
    const QCommandLineOption runOption(QStringLiteral("run"),
                                       QStringLiteral("Run the task as soon as the engine is ready."));
    const QCommandLineOption noEngineOption(
        QStringLiteral("no-engine"),
        QStringLiteral("Start the window without the engine (for screenshots)."));
    parser.addOptions({taskOption, runOption, noEngineOption});
    int exitCode = ExitOk;
    const auto common = parseCommonCommandLine(parser, arguments, &exitCode);
    if (!common)
        return exitCode;
    if (!parser.positionalArguments().isEmpty()) {
        printError(QStringLiteral("unexpected argument \"%1\" (see ciu-agent --help)")
                       .arg(parser.positionalArguments().first()));
        return ExitUsage;
    }
    if (parser.isSet(runOption) && !parser.isSet(taskOption)) {
        printError(QStringLiteral("--run needs --task"));
        return ExitUsage;
    }
    auto* app = qobject_cast<QApplication*>(QCoreApplication::instance());
    installTranslators(*app);
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/ciu-agent.svg")));

    ui::MainWindowOptions windowOptions;
    windowOptions.display = common->display;
    windowOptions.platform = common->platform;
    ui::MainWindow window(windowOptions);
    // Command-line choices override the settings for this session.
    ui::TaskConsole* console = window.taskConsole();
    if (!common->provider.isEmpty())
        console->setProvider(common->provider);
    if (!common->speed.isEmpty())
        console->setSpeed(common->speed);
    if (common->dryRun)
        console->setDryRun(*common->dryRun);
    if (parser.isSet(taskOption))
        console->setTask(parser.value(taskOption));

    // API keys: the keychain first; when it refuses, the user may keep the key for this session (in this
    // process's environment, where the providers look first); a key is never dropped without a word.
    QObject::connect(
        &window, &ui::MainWindow::apiKeyEntered, &window,
        [&window](const QString& provider, const QString& key) {
            const auto kind = director::providerKindFromString(provider);
            if (!kind)
                return;
            registerSecret(key);
            director::keystore::writeKeychain(
                *kind, key, &window, [&window, provider, key](const QString&, const QString& failure) {
                    if (failure.isEmpty())
                        window.setStatusMessage(QObject::tr("The API key is stored in the keychain."));
                    else
                        window.offerSessionKey(provider, key, failure);
                });
        });
    QObject::connect(
        &window, &ui::MainWindow::sessionKeyChosen, &window, [](const QString& provider, const QString& key) {
            if (const auto kind = director::providerKindFromString(provider))
                qputenv(director::keystore::environmentKeyName(*kind).toLatin1().constData(), key.toUtf8());
        });
    QObject::connect(&window, &ui::MainWindow::keyFileChosen, &window,
                     [&window](const QString& provider, const QString& key) {
                         const auto kind = director::providerKindFromString(provider);
                         if (!kind)
                             return;
                         QString error;
                         if (director::keystore::writeKeyFile(*kind, key, &error)) {
                             window.setStatusMessage(
                                 QObject::tr("The API key is kept in %1, readable only by you.")
                                     .arg(director::keystore::keyFilePath(*kind)));
                         } else {
                             window.setStatusMessage(
                                 QObject::tr("The API key could not be kept in a file: %1").arg(error));
                             window.offerSessionKey(provider, key, error); // still not dropped
                         }
                     });
    QObject::connect(
        &window, &ui::MainWindow::apiKeyStatusWanted, &window, [&window](const QString& provider) {
            const auto kind = director::providerKindFromString(provider);
            if (!kind)
                return;
            const QString variable = director::keystore::environmentKeyName(*kind);
            const director::keystore::LocalKey local = director::keystore::localKey(*kind);
            switch (local.origin) {
            case director::keystore::LocalKey::Origin::Environment:
                window.setApiKeyStatus(
                    provider, QObject::tr("A key is set (%1, or kept for this session).").arg(variable),
                    true);
                return;
            case director::keystore::LocalKey::Origin::File:
                window.setApiKeyStatus(provider,
                                       QObject::tr("A key is kept in %1 (readable only by you).")
                                           .arg(director::keystore::keyFilePath(*kind)),
                                       true);
                return;
            case director::keystore::LocalKey::Origin::None:
                break;
            }
            if (!local.error.isEmpty()) {
                window.setApiKeyStatus(provider, local.error, false);
                return;
            }
            window.setApiKeyStatus(provider, QObject::tr("Looking for a key in the keychain…"), false);
            director::keystore::readKeychain(
                *kind, &window, [&window, provider, variable](const QString& key, const QString& error) {
                    if (!key.isEmpty())
                        window.setApiKeyStatus(provider, QObject::tr("A key is stored in the keychain."),
                                               true);
                    else if (!error.isEmpty())
                        window.setApiKeyStatus(
                            provider, QObject::tr("No key: %1. Set %2 or paste a key.").arg(error, variable),
                            false);
                    else
                        window.setApiKeyStatus(provider, QObject::tr("No key yet."), false);
                });
        });
    QObject::connect(&window, &ui::MainWindow::excludedRegionsChanged, &window,
                     [](const QList<QRect>& rects, const QList<quint64>&) {
                         qCDebug(lcGui) << "own windows on the target display:" << rects;
                     });

    // A second app on the same display would map the first's windows as zones and act beside it: it
    // starts without the engine and says why.
    DisplayLock displayLock(window.targetDisplay());
    QString lockError;
    const bool synthetic = (common->platform.isEmpty() ? qEnvironmentVariable("CIU_PLATFORM")
                                                       : common->platform) == QLatin1String("synthetic");
    const bool displayFree = parser.isSet(noEngineOption) || synthetic || displayLock.acquire(0, &lockError);
    if (!displayFree) {
        printError(QStringLiteral("%1; this window starts without the engine").arg(lockError));
        window.setStatusMessage(
            QObject::tr("Another CIU Agent works on display %1: this window starts without the engine.")
                .arg(displayLock.display()));
    }

    std::unique_ptr<ui::EngineBridge> bridge;
    if (!parser.isSet(noEngineOption) && displayFree) {
        ui::EngineBridge::Options bridgeOptions;
        bridgeOptions.platform = common->platform;
        bridgeOptions.sessionRoot = common->sessionDir;
        bridgeOptions.record = !common->sessionDir.isEmpty();
        bridge = std::make_unique<ui::EngineBridge>(&window, bridgeOptions);
        if (parser.isSet(runOption)) {
            QObject::connect(
                bridge.get(), &ui::EngineBridge::ready, &window, [console] { console->run(); },
                Qt::SingleShotConnection);
        }
        bridge->startOn(window.targetDisplay());
    }
    window.show();
    const int result = QApplication::exec();
    bridge.reset();
    return result;
}

} // namespace ciu::app
