#include "app/commonoptions.h"

#include "app/commands.h"
#include "core/model/secrets.h"

#include <QLoggingCategory>

#include <cmath>
#include <cstdio>

namespace ciu::app {

std::optional<QRect> parseRegion(const QString& text, QString* error)
{
    // X11 coordinates are 16-bit: no screen reaches past this.
    constexpr qint64 kMaxCoordinate = 65535;
    const QStringList parts = text.split(QLatin1Char(','));
    qint64 v[4] = {};
    bool ok = parts.size() == 4;
    for (int i = 0; ok && i < 4; ++i)
        v[i] = parts.at(i).trimmed().toLongLong(&ok);
    if (!ok || v[0] < 0 || v[1] < 0 || v[2] < 4 || v[3] < 4) {
        *error = QStringLiteral("--region must be x,y,w,h with x,y >= 0 and w,h >= 4, got \"%1\"").arg(text);
        return std::nullopt;
    }
    if (v[0] + v[2] > kMaxCoordinate || v[1] + v[3] > kMaxCoordinate) {
        *error = QStringLiteral("--region \"%1\" reaches beyond %2 pixels, past any screen")
                     .arg(text)
                     .arg(kMaxCoordinate);
        return std::nullopt;
    }
    return QRect(int(v[0]), int(v[1]), int(v[2]), int(v[3]));
}

QString terminalText(const QString& text, bool singleLine)
{
    // A 50 MB reply printed 100 MB: what goes to the terminal is cut (the session keeps more).
    constexpr qsizetype kMaxChars = 4000;
    QString scrubbed = scrubSecrets(text.size() > kMaxChars ? text.left(kMaxChars) : text);
    if (text.size() > kMaxChars)
        scrubbed += QStringLiteral("\u2026 (%1 more characters)").arg(text.size() - kMaxChars);
    QString out;
    out.reserve(scrubbed.size());
    for (const QChar c : scrubbed) {
        const char16_t u = c.unicode();
        const bool keep = !singleLine && (u == u'\n' || u == u'\t');
        // C0 and C1 controls, DEL, and the bidirectional overrides that reorder what the terminal shows.
        const bool control = u < 0x20 || (u >= 0x7f && u < 0xa0) || (u >= 0x202a && u <= 0x202e) ||
                             (u >= 0x2066 && u <= 0x2069);
        if (control && !keep)
            out += u < 0x100 ? QStringLiteral("\\x%1").arg(int(u), 2, 16, QLatin1Char('0'))
                             : QStringLiteral("\\u%1").arg(int(u), 4, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out;
}

void printError(const QString& message)
{
    std::fprintf(stderr, "ciu-agent: %s\n", qPrintable(terminalText(message)));
    std::fflush(stderr);
}

void addCommonOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("display"), QStringLiteral("Target X display (default: $DISPLAY)."),
         QStringLiteral(":N")},
        {QStringLiteral("provider"),
         QStringLiteral("Planner: local, anthropic or openai (default: local unless a key is set)."),
         QStringLiteral("name")},
        {QStringLiteral("speed"), QStringLiteral("Speed mode: max, high, medium or low (default: medium)."),
         QStringLiteral("mode")},
        {QStringLiteral("dry-run"), QStringLiteral("Log what would happen without acting (the default).")},
        {QStringLiteral("execute"), QStringLiteral("Act on the display.")},
        {QStringLiteral("max-iterations"), QStringLiteral("Stop after N iterations (default: 20)."),
         QStringLiteral("N")},
        {QStringLiteral("max-cost"), QStringLiteral("Stop when the model cost reaches USD (default: 1.00)."),
         QStringLiteral("USD")},
        {QStringLiteral("session-dir"), QStringLiteral("Where recordings go (default: XDG data dir)."),
         QStringLiteral("DIR")},
        {QStringLiteral("verbose"), QStringLiteral("Log debug output of every component.")},
    });
    QCommandLineOption platform(QStringLiteral("platform"),
                                QStringLiteral("Platform backend: x11 or synthetic."),
                                QStringLiteral("name"));
    platform.setFlags(QCommandLineOption::HiddenFromHelp);
    parser.addOption(platform);
}

std::optional<CommonOptions> readCommonOptions(const QCommandLineParser& parser, QString* error)
{
    CommonOptions o;
    auto fail = [&](const QString& message) -> std::optional<CommonOptions> {
        *error = message;
        return std::nullopt;
    };
    o.display = parser.value(QStringLiteral("display"));
    if (parser.isSet(QStringLiteral("display")) && o.display.trimmed().isEmpty())
        return fail(QStringLiteral("--display needs a display name such as :1"));
    o.platform = parser.value(QStringLiteral("platform"));
    if (!o.platform.isEmpty() && o.platform != QLatin1String("x11") &&
        o.platform != QLatin1String("synthetic"))
        return fail(QStringLiteral("--platform must be x11 or synthetic, got \"%1\"").arg(o.platform));
    o.provider = parser.value(QStringLiteral("provider")).toLower();
    if (!o.provider.isEmpty() && o.provider != QLatin1String("local") &&
        o.provider != QLatin1String("anthropic") && o.provider != QLatin1String("openai"))
        return fail(
            QStringLiteral("--provider must be local, anthropic or openai, got \"%1\"").arg(o.provider));
    o.speed = parser.value(QStringLiteral("speed")).toLower();
    if (!o.speed.isEmpty() && o.speed != QLatin1String("max") && o.speed != QLatin1String("high") &&
        o.speed != QLatin1String("medium") && o.speed != QLatin1String("low"))
        return fail(QStringLiteral("--speed must be max, high, medium or low, got \"%1\"").arg(o.speed));
    if (parser.isSet(QStringLiteral("dry-run")) && parser.isSet(QStringLiteral("execute")))
        return fail(QStringLiteral("--dry-run and --execute exclude each other"));
    if (parser.isSet(QStringLiteral("dry-run")))
        o.dryRun = true;
    if (parser.isSet(QStringLiteral("execute")))
        o.dryRun = false;
    if (parser.isSet(QStringLiteral("max-iterations"))) {
        bool ok = false;
        o.maxIterations = parser.value(QStringLiteral("max-iterations")).toInt(&ok);
        if (!ok || o.maxIterations < 1 || o.maxIterations > 10000)
            return fail(QStringLiteral("--max-iterations must be a whole number from 1 to 10000, got \"%1\"")
                            .arg(parser.value(QStringLiteral("max-iterations"))));
    }
    if (parser.isSet(QStringLiteral("max-cost"))) {
        bool ok = false;
        o.maxCostUsd = parser.value(QStringLiteral("max-cost")).toDouble(&ok);
        if (!ok || o.maxCostUsd < 0 || !std::isfinite(o.maxCostUsd))
            return fail(QStringLiteral("--max-cost must be a non-negative amount in USD, got \"%1\"")
                            .arg(parser.value(QStringLiteral("max-cost"))));
    }
    o.sessionDir = parser.value(QStringLiteral("session-dir"));
    o.verbose = parser.isSet(QStringLiteral("verbose"));
    return o;
}

bool parseCommandLine(QCommandLineParser& parser, const QStringList& arguments, int* exitCode)
{
    const QCommandLineOption help = parser.addHelpOption();
    if (!parser.parse(arguments)) {
        printError(parser.errorText() + QStringLiteral(" (see --help)"));
        *exitCode = ExitUsage;
        return false;
    }
    if (parser.isSet(help)) {
        std::fputs(qPrintable(parser.helpText()), stdout);
        *exitCode = ExitOk;
        return false;
    }
    return true;
}

std::optional<CommonOptions> parseCommonCommandLine(QCommandLineParser& parser, const QStringList& arguments,
                                                    int* exitCode)
{
    *exitCode = ExitOk;
    if (!parseCommandLine(parser, arguments, exitCode))
        return std::nullopt;
    QString error;
    auto common = readCommonOptions(parser, &error);
    if (!common) {
        printError(error);
        *exitCode = ExitUsage;
        return std::nullopt;
    }
    applyVerbose(common->verbose);
    return common;
}

bool hasNoPositionals(const QCommandLineParser& parser, const QString& command)
{
    if (parser.positionalArguments().isEmpty())
        return true;
    printError(QStringLiteral("%1 takes no arguments, got \"%2\" (see --help)")
                   .arg(command, parser.positionalArguments().join(QLatin1Char(' '))));
    return false;
}

void applyVerbose(bool verbose)
{
    // The commands print their own progress; the components' log is for --verbose (warnings always show).
    // QT_LOGGING_RULES still overrides both.
    QLoggingCategory::setFilterRules(verbose ? QStringLiteral("ciu.*.debug=true")
                                             : QStringLiteral("ciu.*.debug=false\nciu.*.info=false"));
}

} // namespace ciu::app
