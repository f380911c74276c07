// ciu-agent schema: a program's app schema as one document (core/knowledge/schemadocument.h): its shortcuts,
// named zones and notes, shipped and learned, with the zone inspector's hand corrections as named zones of
// source user. Exports it to a file and imports one (a schema another user shared).

#include "app/commands.h"
#include "app/commonoptions.h"
#include "core/knowledge/knowledgefiles.h"
#include "core/knowledge/schemadocument.h"
#include "platform/platformfactory.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonDocument>

#include <cstdio>

namespace ciu::app {
namespace {

void printTable(const SchemaDocument& document, const ShortcutStore& shortcuts,
                const CorrectionStore& corrections)
{
    const AppSchema& schema = document.schema;
    std::printf("%s\n", qPrintable(terminalText(schema.application, true)));
    std::printf("shortcuts (%d)\n", int(schema.shortcuts.size()));
    for (const Shortcut& s : schema.shortcuts) {
        std::printf("  %-24s %-24s %-7s %s%s\n", qPrintable(s.keys.isEmpty() ? QStringLiteral("-") : s.keys),
                    qPrintable(terminalText(s.action, true)), qPrintable(toString(s.source)),
                    qPrintable(terminalText(s.menu, true)), s.isVerified() ? " (verified)" : "");
    }
    std::printf("named zones (%d, window-relative)\n", int(schema.zones.size()));
    for (const NamedZone& z : schema.zones) {
        std::printf("  %-24s %5d,%-5d %4dx%-4d %-11s %s\n",
                    qPrintable(terminalText(z.name.isEmpty() ? QStringLiteral("(unnamed)") : z.name, true)),
                    z.bounds.x(), z.bounds.y(), z.bounds.width(), z.bounds.height(),
                    qPrintable(toString(z.type)), qPrintable(toString(z.source)));
    }
    if (!document.suppressed.isEmpty())
        std::printf("removed detections: %d\n", int(document.suppressed.size()));
    if (!document.titlePattern.isEmpty())
        std::printf("windows: titles matching \"%s\"\n",
                    qPrintable(terminalText(document.titlePattern, true)));
    if (!schema.notes.isEmpty())
        std::printf("notes: %s\n", qPrintable(terminalText(schema.notes, true)));
    std::printf("files: %s, %s\n", qPrintable(shortcuts.filePath(schema.application)),
                qPrintable(corrections.filePath(schema.application)));
}

} // namespace

int runSchema(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Shows a program's app schema as one document: its keyboard shortcuts, named zones (window-relative) "
        "and notes, shipped and learned ($XDG_DATA_HOME/ciu-agent/shortcuts), with your zone inspector "
        "corrections as named zones of source user ($XDG_DATA_HOME/ciu-agent/corrections). --export writes "
        "it to a file to share; --import takes such a file into the stores of its program."));
    parser.addOptions({
        {QStringLiteral("application"), QStringLiteral("The program by its WM_CLASS (no display needed)."),
         QStringLiteral("CLASS")},
        {QStringLiteral("window"),
         QStringLiteral("The program of a window: a part of its title or its WM_CLASS (default: the active "
                        "window)."),
         QStringLiteral("T")},
        {QStringLiteral("json"), QStringLiteral("Print the document as JSON (what --export writes).")},
        {QStringLiteral("export"), QStringLiteral("Write the document to FILE."), QStringLiteral("FILE")},
        {QStringLiteral("import"),
         QStringLiteral(
             "Merge the document in FILE into the stores of its program (shortcuts and named zones "
             "into the learned schema, user zones into the corrections)."),
         QStringLiteral("FILE")},
    });
    addCommonOptions(parser);
    int exitCode = ExitOk;
    const auto common = parseCommonCommandLine(parser, arguments, &exitCode);
    if (!common)
        return exitCode;
    if (!hasNoPositionals(parser, QStringLiteral("schema")))
        return ExitUsage;
    const bool hasApplication = parser.isSet(QStringLiteral("application"));
    const bool hasWindow = parser.isSet(QStringLiteral("window"));
    const bool exporting = parser.isSet(QStringLiteral("export"));
    const bool importing = parser.isSet(QStringLiteral("import"));
    if (hasApplication && hasWindow) {
        printError(QStringLiteral("--application and --window exclude each other"));
        return ExitUsage;
    }
    if (exporting && importing) {
        printError(QStringLiteral("--export and --import exclude each other"));
        return ExitUsage;
    }
    const ShortcutStore shortcuts;
    const CorrectionStore corrections;
    QString error;

    if (importing) {
        if (hasWindow) {
            printError(
                QStringLiteral("--import takes the program from the file (--application to check it)"));
            return ExitUsage;
        }
        const QString path = parser.value(QStringLiteral("import"));
        const auto object = knowledgefiles::readObject(path, &error);
        const auto document = object ? SchemaDocument::fromJson(*object, &error) : std::nullopt;
        if (!document) {
            printError(object ? QStringLiteral("%1: %2").arg(path, error) : error);
            return ExitFailure;
        }
        const QString application = parser.value(QStringLiteral("application"));
        if (hasApplication && application != document->schema.application) {
            printError(QStringLiteral("%1 holds the schema of \"%2\", not \"%3\"")
                           .arg(path, document->schema.application, application));
            return ExitFailure;
        }
        if (!importSchemaDocument(*document, shortcuts, corrections, &error)) {
            printError(error);
            return ExitFailure;
        }
        std::printf("imported the schema of %s from %s\n", qPrintable(document->schema.application),
                    qPrintable(path));
        return ExitOk;
    }

    QString application = parser.value(QStringLiteral("application")).trimmed();
    if (hasApplication && application.isEmpty()) {
        printError(QStringLiteral("--application needs a WM_CLASS"));
        return ExitUsage;
    }
    if (!hasApplication) {
        const QString windowText = parser.value(QStringLiteral("window")).trimmed();
        if (hasWindow && windowText.isEmpty()) {
            printError(QStringLiteral("--window needs a part of a title or a WM_CLASS"));
            return ExitUsage;
        }
        auto opened = platform::createPlatform({common->platform, common->display});
        if (!opened.platform) {
            printError(opened.error);
            return ExitNoDisplay;
        }
        platform::Platform& platform = *opened.platform;
        const std::optional<platform::WindowInfo> window =
            windowText.isEmpty() ? platform.windows().activeWindow()
                                 : findWindow(platform.windows().topLevelWindows(), windowText);
        if (!window) {
            printError(windowText.isEmpty()
                           ? QStringLiteral("no active window on %1").arg(platform.displayName())
                           : QStringLiteral("no window on %1 matches \"%2\"")
                                 .arg(platform.displayName(), windowText));
            return ExitFailure;
        }
        if (window->windowClass.isEmpty()) {
            printError(QStringLiteral("the window \"%1\" has no WM_CLASS: it has no schema")
                           .arg(terminalText(window->title, true)));
            return ExitFailure;
        }
        application = window->windowClass;
    }

    const auto document = readSchemaDocument(shortcuts, corrections, application, &error);
    if (!document) {
        printError(error);
        return ExitFailure;
    }
    const QJsonDocument json(document->toJson());
    if (exporting) {
        const QString path = parser.value(QStringLiteral("export"));
        const QFileInfo info(path);
        if (!knowledgefiles::writeObject(info.absolutePath(), info.absoluteFilePath(), document->toJson(),
                                         &error)) {
            printError(error);
            return ExitFailure;
        }
        std::fprintf(stderr, "exported the schema of %s to %s\n", qPrintable(application), qPrintable(path));
    }
    if (parser.isSet(QStringLiteral("json")))
        std::printf("%s\n", json.toJson(QJsonDocument::Compact).constData());
    else if (!exporting)
        printTable(*document, shortcuts, corrections);
    return ExitOk;
}

} // namespace ciu::app
