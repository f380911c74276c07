// ciu-agent zones: what the zone memory holds ($XDG_DATA_HOME/ciu-agent/zones), and removing it.

#include "app/commands.h"
#include "app/commonoptions.h"
#include "core/knowledge/zonememory.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

#include <cstdio>

namespace ciu::app {

int runZones(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Lists the programs whose window layouts the zone memory holds (remembered zones come back at once "
        "when the window does), or removes them."));
    parser.addHelpOption();
    parser.addOptions({
        {QStringLiteral("forget"), QStringLiteral("Remove what is remembered of one program (its WM_CLASS)."),
         QStringLiteral("PROGRAM")},
        {QStringLiteral("clear"), QStringLiteral("Remove everything the zone memory holds.")},
        {QStringLiteral("json"), QStringLiteral("Print the list as JSON.")},
        {QStringLiteral("directory"),
         QStringLiteral("The zone memory's folder (default: %1).").arg(ZoneMemory::defaultDirectory()),
         QStringLiteral("DIR")},
    });
    if (!parser.parse(arguments)) {
        printError(parser.errorText());
        return ExitUsage;
    }
    if (parser.isSet(QStringLiteral("help"))) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        return ExitOk;
    }
    if (!hasNoPositionals(parser, QStringLiteral("zones")))
        return ExitUsage;
    const bool forget = parser.isSet(QStringLiteral("forget"));
    const bool clear = parser.isSet(QStringLiteral("clear"));
    if (forget && clear) {
        printError(QStringLiteral("--forget and --clear exclude each other"));
        return ExitUsage;
    }
    const ZoneMemory memory(parser.isSet(QStringLiteral("directory"))
                                ? parser.value(QStringLiteral("directory"))
                                : ZoneMemory::defaultDirectory());
    QString error;
    if (forget) {
        const QString program = parser.value(QStringLiteral("forget"));
        if (!memory.forget(program, &error)) {
            printError(error);
            return ExitFailure;
        }
        std::printf("forgot the zones of %s\n", qPrintable(program));
        return ExitOk;
    }
    if (clear) {
        if (!memory.clear(&error)) {
            printError(error);
            return ExitFailure;
        }
        std::printf("zone memory cleared (%s)\n", qPrintable(memory.directory()));
        return ExitOk;
    }
    QJsonArray list;
    int failures = 0;
    for (const QString& program : memory.programs()) {
        const auto remembered = memory.load(program, &error);
        if (!remembered) {
            printError(error); // listed as broken, left as it is
            ++failures;
            continue;
        }
        int zones = 0;
        for (const RememberedLayout& layout : remembered->layouts)
            zones += int(layout.zones.size());
        list.append(QJsonObject{{QStringLiteral("program"), program},
                                {QStringLiteral("layouts"), int(remembered->layouts.size())},
                                {QStringLiteral("zones"), zones},
                                {QStringLiteral("file"), memory.filePath(program)}});
    }
    if (parser.isSet(QStringLiteral("json"))) {
        std::fputs(QJsonDocument(QJsonObject{{QStringLiteral("programs"), list}}).toJson().constData(),
                   stdout);
    } else {
        for (const QJsonValue& v : std::as_const(list)) {
            const QJsonObject o = v.toObject();
            std::printf("%-24s %3d layouts %5d zones  %s\n",
                        qPrintable(o.value(QLatin1String("program")).toString()),
                        o.value(QLatin1String("layouts")).toInt(), o.value(QLatin1String("zones")).toInt(),
                        qPrintable(o.value(QLatin1String("file")).toString()));
        }
        if (list.isEmpty() && failures == 0)
            std::printf("nothing remembered (%s)\n", qPrintable(memory.directory()));
    }
    return failures > 0 ? ExitFailure : ExitOk;
}

} // namespace ciu::app
