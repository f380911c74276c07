// DesktopTools: the reading tools (windows, zones, screenshot) and the translation of the acting tools into
// the local command language, with their targets resolved against the current zone map first (a missing
// target is answered at once, with the candidates).

#include "core/director/commandscript.h"
#include "core/director/safety/riskassessor.h"
#include "core/director/safety/untrusted.h"
#include "core/mcp/desktoptools.h"
#include "core/mcp/mcplog.h"
#include "core/providers/screenshotscaler.h"

#include <QBuffer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace ciu::mcp {
namespace {

// A string for the command language: quoted, with \ " newline and tab escaped.
QString scriptQuote(const QString& s)
{
    QString e = s;
    e.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('"'), QLatin1String("\\\""))
        .replace(QLatin1Char('\n'), QLatin1String("\\n"))
        .replace(QLatin1Char('\t'), QLatin1String("\\t"));
    return QLatin1Char('"') + e + QLatin1Char('"');
}

QJsonArray rectJson(const QRect& r)
{
    return {r.x(), r.y(), r.width(), r.height()};
}

QJsonObject windowJson(const platform::WindowInfo& w)
{
    return {{QStringLiteral("id"), QString::number(w.id)},      {QStringLiteral("title"), w.title},
            {QStringLiteral("class"), w.windowClass},           {QStringLiteral("pid"), w.pid},
            {QStringLiteral("geometry"), rectJson(w.geometry)}, {QStringLiteral("active"), w.active}};
}

// Windows matching a name: the id (decimal or 0x hex) exactly, else a part of the title or class.
QList<platform::WindowInfo> matchWindows(const QList<platform::WindowInfo>& windows, const QString& name)
{
    bool ok = false;
    const quint64 id =
        name.startsWith(QLatin1String("0x")) ? name.mid(2).toULongLong(&ok, 16) : name.toULongLong(&ok);
    QList<platform::WindowInfo> found;
    for (const auto& w : windows) {
        if (ok && w.id == id)
            return {w};
        if (w.title.contains(name, Qt::CaseInsensitive) ||
            w.windowClass.compare(name, Qt::CaseInsensitive) == 0 ||
            w.instance.compare(name, Qt::CaseInsensitive) == 0)
            found.append(w);
    }
    return found;
}

std::optional<int> optionalInt(const QJsonObject& args, const char* key, int minimum, int maximum,
                               QString* error)
{
    const QJsonValue v = args.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull())
        return std::nullopt;
    const double d = v.toDouble(-1e18);
    if (!v.isDouble() || d != double(qint64(d)) || d < minimum || d > maximum) {
        *error = QStringLiteral("\"%1\" must be an integer from %2 to %3.")
                     .arg(QLatin1String(key))
                     .arg(minimum)
                     .arg(maximum);
        return std::nullopt;
    }
    return int(d);
}

} // namespace

QJsonObject DesktopTools::zoneJson(const Zone& zone)
{
    QJsonObject o{{QStringLiteral("id"), zone.id},
                  {QStringLiteral("type"), toString(zone.type)},
                  {QStringLiteral("label"), zone.label},
                  {QStringLiteral("state"), QJsonArray::fromStringList(zoneStateNames(zone.state))},
                  {QStringLiteral("bounds"), rectJson(zone.bounds)},
                  {QStringLiteral("source"), toString(zone.source)}};
    // The content (a field's text, a slider's number, a list's selected item): a password's never.
    if (!zone.value.isEmpty() && !zone.isPassword)
        o.insert(QStringLiteral("value"), zone.value);
    if (!zone.role.isEmpty())
        o.insert(QStringLiteral("role"), zone.role);
    if (!zone.application.isEmpty())
        o.insert(QStringLiteral("application"), zone.application);
    if (zone.isPassword)
        o.insert(QStringLiteral("password"), true);
    return o;
}

QString DesktopTools::zoneLine(const Zone& zone)
{
    QStringList state = zoneStateNames(zone.state);
    state.removeAll(QStringLiteral("enabled"));
    QString line = QStringLiteral("%1 %2 \"%3\" [%4,%5,%6,%7]")
                       .arg(zone.id, toString(zone.type), safety::defuseUntrusted(zone.label))
                       .arg(zone.bounds.x())
                       .arg(zone.bounds.y())
                       .arg(zone.bounds.width())
                       .arg(zone.bounds.height());
    if (!state.isEmpty())
        line += QLatin1Char(' ') + state.join(QLatin1Char(','));
    if (!zone.value.isEmpty() && !zone.isPassword)
        line += QStringLiteral(" = \"%1\"").arg(safety::defuseUntrusted(zone.value));
    return line;
}

QString DesktopTools::zoneRef(const Zone& zone)
{
    return scriptQuote(QStringLiteral("#") + zone.id);
}

ToolResult DesktopTools::listWindows()
{
    QString error;
    platform::Platform* p = platform(&error);
    if (!p)
        return ToolResult::error(QStringLiteral("Cannot read the windows: %1").arg(error));
    const QList<platform::WindowInfo> windows = p->windows().topLevelWindows();
    QJsonArray list;
    QStringList lines;
    for (const auto& w : windows) {
        list.append(windowJson(w));
        lines << QStringLiteral("%1 %2 \"%3\" (%4, pid %5) at %6,%7 %8x%9")
                     .arg(QString::number(w.id), w.active ? QStringLiteral("*") : QStringLiteral("-"),
                          safety::defuseUntrusted(w.title), w.windowClass)
                     .arg(w.pid)
                     .arg(w.geometry.x())
                     .arg(w.geometry.y())
                     .arg(w.geometry.width())
                     .arg(w.geometry.height());
    }
    const QString text =
        lines.isEmpty() ? QStringLiteral("No windows.")
                        : safety::wrapUntrusted(lines.join(QLatin1Char('\n')), QStringLiteral("windows"));
    return ToolResult::text(QStringLiteral("%1 windows (* active):\n%2").arg(windows.size()).arg(text),
                            {{QStringLiteral("windows"), list}, {QStringLiteral("untrusted"), true}});
}

ToolResult DesktopTools::focusWindow(const QJsonObject& args)
{
    const QString target = args.value(QStringLiteral("target")).toString().trimmed();
    if (target.isEmpty())
        return ToolResult::error(
            QStringLiteral("focus_window needs a \"target\": a window id, title or class."));
    QString error;
    platform::Platform* p = platform(&error);
    if (!p)
        return ToolResult::error(QStringLiteral("Cannot read the windows: %1").arg(error));
    const QList<platform::WindowInfo> windows = p->windows().topLevelWindows();
    const QList<platform::WindowInfo> found = matchWindows(windows, target);
    QStringList names;
    for (const auto& w : windows)
        names << QStringLiteral("%1 \"%2\" (%3)").arg(QString::number(w.id), w.title, w.windowClass);
    if (found.size() != 1) {
        return ToolResult::error(
            QStringLiteral("%1 window matches \"%2\". Windows:\n%3")
                .arg(found.isEmpty() ? QStringLiteral("No") : QStringLiteral("More than one"), target,
                     safety::wrapUntrusted(names.join(QLatin1Char('\n')), QStringLiteral("windows"))),
            {{QStringLiteral("matches"), int(found.size())}});
    }
    const platform::WindowInfo& w = found.constFirst();
    const QString system = safety::RiskAssessor::systemWindow(w.title + QLatin1Char(' ') + w.windowClass);
    if (!system.isEmpty())
        return ToolResult::error(
            QStringLiteral("Refused: \"%1\" looks like a system window (%2).").arg(w.title, system));
    if (m_options.director.dryRun)
        return ToolResult::text(
            QStringLiteral("dry run: would focus window %1 \"%2\" (start the server with "
                           "--execute to act)")
                .arg(QString::number(w.id), w.title),
            {{QStringLiteral("window"), windowJson(w)}, {QStringLiteral("dry_run"), true}});
    if (!p->windows().activate(w.id))
        return ToolResult::error(QStringLiteral("Could not activate window %1: %2")
                                     .arg(QString::number(w.id), p->windows().errorString()));
    // Verified from the window manager's own report.
    const auto active = p->windows().activeWindow();
    const bool verified = active && active->id == w.id;
    return ToolResult::text(
        QStringLiteral("Focused window %1 \"%2\"; %3")
            .arg(QString::number(w.id), w.title,
                 verified ? QStringLiteral("verified: it is the active window")
                          : QStringLiteral("the window manager has not reported it active yet")),
        {{QStringLiteral("window"), windowJson(w)}, {QStringLiteral("verified"), verified}});
}

ToolResult DesktopTools::getZones(const QJsonObject& args)
{
    if (!m_map)
        return ToolResult::error(QStringLiteral("No zone map yet: the first analysis has not finished."));
    QString error;
    const int limit = optionalInt(args, "limit", 1, 5000, &error).value_or(m_options.maxZonesDefault);
    if (!error.isEmpty())
        return ToolResult::error(error);
    const QString roleName = args.value(QStringLiteral("role")).toString();
    std::optional<ZoneType> role;
    if (!roleName.isEmpty()) {
        role = zoneTypeFromString(roleName);
        if (!role)
            return ToolResult::error(QStringLiteral("Unknown role \"%1\"; roles: %2")
                                         .arg(roleName, allZoneTypeNames().join(QStringLiteral(", "))));
    }
    const QString label = args.value(QStringLiteral("label")).toString();
    const QString window = args.value(QStringLiteral("window")).toString().trimmed();
    std::optional<QList<platform::WindowInfo>> windows;
    if (!window.isEmpty()) {
        platform::Platform* p = platform(&error);
        if (!p)
            return ToolResult::error(QStringLiteral("Cannot read the windows: %1").arg(error));
        windows = matchWindows(p->windows().topLevelWindows(), window);
        if (windows->isEmpty())
            return ToolResult::error(
                QStringLiteral("No window matches \"%1\" (see list_windows).").arg(window));
    }
    QJsonArray zones;
    QStringList lines;
    int total = 0;
    for (const Zone& z : m_map->zones()) {
        if (role && z.type != *role)
            continue;
        if (!label.isEmpty() && !z.label.contains(label, Qt::CaseInsensitive) &&
            !ZoneResolver::normalize(z.label).contains(ZoneResolver::normalize(label)))
            continue;
        if (windows) {
            const bool inside =
                std::any_of(windows->cbegin(), windows->cend(), [&z](const platform::WindowInfo& w) {
                    return (z.windowId != 0 && z.windowId == w.id) ||
                           (z.windowId == 0 && w.geometry.contains(z.bounds));
                });
            if (!inside)
                continue;
        }
        ++total;
        if (zones.size() >= limit)
            continue;
        zones.append(zoneJson(z));
        lines << zoneLine(z);
    }
    QString text =
        QStringLiteral(
            "%1 of %2 zones (zone map version %3; id type \"label\" [x,y,w,h] state = \"value\"):\n")
            .arg(zones.size())
            .arg(total)
            .arg(m_map->version());
    text += safety::wrapUntrusted(lines.join(QLatin1Char('\n')), QStringLiteral("zone_map"));
    return ToolResult::text(text, {{QStringLiteral("version"), QString::number(m_map->version())},
                                   {QStringLiteral("total"), total},
                                   {QStringLiteral("zones"), zones},
                                   {QStringLiteral("untrusted"), true},
                                   {QStringLiteral("note"), untrustedNote()}});
}

ToolResult DesktopTools::findZones(const QJsonObject& args)
{
    const QString query = args.value(QStringLiteral("query")).toString().trimmed();
    if (query.isEmpty())
        return ToolResult::error(QStringLiteral("find_zones needs a \"query\" (a non-empty string)."));
    QString error;
    const int limit = optionalInt(args, "limit", 1, 100, &error).value_or(10);
    if (!error.isEmpty())
        return ToolResult::error(error);
    if (!m_map)
        return ToolResult::error(QStringLiteral("No zone map yet: the first analysis has not finished."));
    QList<std::pair<double, const Zone*>> scored;
    for (const Zone& z : m_map->zones()) {
        const double s = z.id == query ? 1.0 : ZoneResolver::similarity(query, z.label);
        if (s >= 0.3)
            scored.append({s, &z});
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    QJsonArray candidates;
    QStringList lines;
    for (const auto& [score, z] : scored) {
        if (candidates.size() >= limit)
            break;
        QJsonObject o = zoneJson(*z);
        o.insert(QStringLiteral("score"), std::round(score * 1000) / 1000);
        candidates.append(o);
        lines << QStringLiteral("%1 score %2").arg(zoneLine(*z)).arg(score, 0, 'f', 2);
    }
    const ZoneResolver::Result best = ZoneResolver::resolve(query, *m_map, ZoneResolver::Purpose::Any);
    QString text =
        candidates.isEmpty()
            ? QStringLiteral("No zone resembles \"%1\".").arg(query)
            : QStringLiteral("%1 candidates for \"%2\"%3:\n%4")
                  .arg(candidates.size())
                  .arg(query,
                       best.zone ? QStringLiteral(" (the planner would pick %1)").arg(best.zone->id)
                                 : QString(),
                       safety::wrapUntrusted(lines.join(QLatin1Char('\n')), QStringLiteral("zone_map")));
    QJsonObject structured{{QStringLiteral("candidates"), candidates}, {QStringLiteral("untrusted"), true}};
    if (best.zone)
        structured.insert(QStringLiteral("best"), best.zone->id);
    return ToolResult::text(text, structured);
}

ToolResult DesktopTools::screenshot(const QJsonObject& args)
{
    if (!m_frame.isValid())
        return ToolResult::error(QStringLiteral("No frame captured yet."));
    QString error;
    const std::optional<int> maxWidth = optionalInt(args, "max_width", 16, 4096, &error);
    if (!error.isEmpty())
        return ToolResult::error(error);
    QImage image = m_frame.image;
    QRect region = m_frame.rootRect();
    const QJsonValue r = args.value(QStringLiteral("region"));
    if (!r.isUndefined() && !r.isNull()) {
        const QJsonObject o = r.toObject();
        const QRect asked(o.value(QStringLiteral("x")).toInt(), o.value(QStringLiteral("y")).toInt(),
                          o.value(QStringLiteral("width")).toInt(),
                          o.value(QStringLiteral("height")).toInt());
        if (!r.isObject() || asked.width() <= 0 || asked.height() <= 0 || !m_frame.rootRect().contains(asked))
            return ToolResult::error(
                QStringLiteral("\"region\" must be {x, y, width, height} with a positive size "
                               "inside the screen %1,%2 %3x%4.")
                    .arg(m_frame.origin.x())
                    .arg(m_frame.origin.y())
                    .arg(m_frame.image.width())
                    .arg(m_frame.image.height()));
        region = asked;
        image = image.copy(asked.translated(-m_frame.origin));
    }
    // Scaled as the providers scale the model's screenshots.
    if (region == m_frame.rootRect()) {
        image = director::ScreenshotScaler(image.size()).scaleImage(image);
    } else {
        const QSize fit = director::ScreenshotScaler::fitWithinLimits(image.size());
        if (fit != image.size())
            image = image.scaled(fit, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    }
    if (maxWidth && image.width() > *maxWidth)
        image = image.scaledToWidth(*maxWidth, Qt::SmoothTransformation);
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    ToolResult result;
    result.addImage(png, QStringLiteral("image/png"));
    result.addText(
        QStringLiteral("Screenshot of %1,%2 %3x%4 scaled to %5x%6 (screen pixels = image pixels x %7).")
            .arg(region.x())
            .arg(region.y())
            .arg(region.width())
            .arg(region.height())
            .arg(image.width())
            .arg(image.height())
            .arg(double(region.width()) / image.width(), 0, 'f', 3));
    result.structured = {{QStringLiteral("region"), rectJson(region)},
                         {QStringLiteral("width"), image.width()},
                         {QStringLiteral("height"), image.height()},
                         {QStringLiteral("bytes"), int(png.size())}};
    return result;
}

DesktopTools::Target DesktopTools::resolveTarget(const QString& target, ZoneResolver::Purpose purpose) const
{
    Target t;
    if (!m_map) {
        t.error = QStringLiteral("No zone map yet: the first analysis has not finished.");
        return t;
    }
    static const QRegularExpression idPattern(QStringLiteral("^#?(z\\d+)$"));
    const auto idMatch = idPattern.match(target.trimmed());
    if (idMatch.hasMatch()) {
        if (const Zone* z = m_map->find(idMatch.captured(1))) {
            t.zone = *z;
            return t;
        }
    }
    const ZoneResolver::Result r = ZoneResolver::resolve(target, *m_map, purpose);
    if (r.zone) {
        t.zone = r.zone;
        return t;
    }
    QStringList names;
    for (const auto& c : r.candidates) {
        t.candidates.append(QJsonObject{{QStringLiteral("id"), c.zone.id},
                                        {QStringLiteral("label"), c.zone.label},
                                        {QStringLiteral("type"), toString(c.zone.type)},
                                        {QStringLiteral("score"), std::round(c.score * 1000) / 1000}});
        names << QStringLiteral("%1 \"%2\" (%3)")
                     .arg(c.zone.id, safety::defuseUntrusted(c.zone.label), toString(c.zone.type));
    }
    t.error = QStringLiteral("%1 zone for \"%2\".%3")
                  .arg(r.ambiguous ? QStringLiteral("More than one") : QStringLiteral("No"), target,
                       names.isEmpty() ? QStringLiteral(" The zone map has nothing like it (try get_zones).")
                                       : QStringLiteral(" Candidates:\n") +
                                             safety::wrapUntrusted(names.join(QLatin1Char('\n')),
                                                                   QStringLiteral("zone_map")));
    return t;
}

std::optional<ToolResult> DesktopTools::actionScript(const QString& name, const QJsonObject& args,
                                                     QString* script, QJsonObject* resolved)
{
    QStringList lines;
    QString error;
    // Resolves args[key] into "#id"; on failure the error result.
    auto target = [&](const char* key, ZoneResolver::Purpose purpose,
                      bool required) -> std::optional<QString> {
        const QJsonValue v = args.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull() || (v.isString() && v.toString().trimmed().isEmpty())) {
            if (required)
                error = QStringLiteral("%1 needs \"%2\": a zone id (z12) or label.")
                            .arg(name, QLatin1String(key));
            return std::nullopt;
        }
        if (!v.isString()) {
            error = QStringLiteral("\"%1\" must be a string (a zone id or label).").arg(QLatin1String(key));
            return std::nullopt;
        }
        const Target t = resolveTarget(v.toString(), purpose);
        if (!t.zone) {
            error = t.error;
            resolved->insert(QStringLiteral("candidates"), t.candidates);
            return std::nullopt;
        }
        resolved->insert(QLatin1String(key), zoneJson(*t.zone));
        return zoneRef(*t.zone);
    };
    auto failure = [&]() -> std::optional<ToolResult> {
        // Shaped as the tools' output schema's error alternative: {error, resolved}.
        return ToolResult::error(error, resolved->isEmpty()
                                            ? QJsonObject()
                                            : QJsonObject{{QStringLiteral("error"), error},
                                                          {QStringLiteral("resolved"), *resolved}});
    };

    if (name == QLatin1String("click")) {
        const auto ref = target("target", ZoneResolver::Purpose::Click, true);
        if (!ref)
            return failure();
        const QString button = args.value(QStringLiteral("button")).toString(QStringLiteral("left"));
        const int count = optionalInt(args, "count", 1, 3, &error).value_or(1);
        if (!error.isEmpty())
            return failure();
        QString verb;
        if (button == QLatin1String("left"))
            verb = count == 1   ? QStringLiteral("click")
                   : count == 2 ? QStringLiteral("double-click")
                                : QStringLiteral("triple-click");
        else if ((button == QLatin1String("right") || button == QLatin1String("middle")) && count == 1)
            verb = button + QStringLiteral("-click");
        if (verb.isEmpty()) {
            error = QStringLiteral("\"button\" is left, right or middle (right and middle: count 1).");
            return failure();
        }
        lines << verb + QLatin1Char(' ') + *ref;
    } else if (name == QLatin1String("type_text")) {
        const QJsonValue text = args.value(QStringLiteral("text"));
        if (!text.isString() || text.toString().isEmpty()) {
            error = QStringLiteral("type_text needs \"text\" (a non-empty string).");
            return failure();
        }
        const auto ref = target("target", ZoneResolver::Purpose::TypeInto, false);
        if (!error.isEmpty())
            return failure();
        if (ref) {
            lines << QStringLiteral("click ") + *ref;
            lines << (args.value(QStringLiteral("append")).toBool() ? QStringLiteral("press ctrl+End")
                                                                    : QStringLiteral("press ctrl+a"));
        }
        lines << QStringLiteral("type ") + scriptQuote(text.toString());
    } else if (name == QLatin1String("press_keys")) {
        const QString keys = args.value(QStringLiteral("keys")).toString().trimmed();
        if (keys.isEmpty() || keys.contains(QLatin1Char('\n')) || keys.contains(QLatin1Char(';'))) {
            error = QStringLiteral("press_keys needs \"keys\": one key or combination, e.g. \"ctrl+s\".");
            return failure();
        }
        lines << QStringLiteral("press ") + keys;
    } else if (name == QLatin1String("scroll")) {
        const QString direction = args.value(QStringLiteral("direction")).toString();
        if (!platform::scrollDirectionFromString(direction)) {
            error = QStringLiteral("\"direction\" is up, down, left or right.");
            return failure();
        }
        const int amount = optionalInt(args, "amount", 1, kMaxScrollClicks, &error).value_or(3);
        if (!error.isEmpty())
            return failure();
        const auto ref = target("target", ZoneResolver::Purpose::Scroll, false);
        if (!error.isEmpty())
            return failure();
        lines << QStringLiteral("scroll %1 %2%3")
                     .arg(direction)
                     .arg(amount)
                     .arg(ref ? QStringLiteral(" in ") + *ref : QString());
    } else if (name == QLatin1String("drag")) {
        const auto from = target("from", ZoneResolver::Purpose::Click, true);
        if (!from)
            return failure();
        const auto to = target("to", ZoneResolver::Purpose::Any, true);
        if (!to)
            return failure();
        lines << QStringLiteral("drag %1 to %2").arg(*from, *to);
    } else if (name == QLatin1String("launch_app")) {
        const QString command = args.value(QStringLiteral("command")).toString().trimmed();
        if (command.isEmpty() || command.contains(QLatin1Char('\n'))) {
            error = QStringLiteral("launch_app needs \"command\": one command line.");
            return failure();
        }
        lines << QStringLiteral("launch ") + command;
    } else if (name == QLatin1String("run_steps")) {
        const QJsonValue steps = args.value(QStringLiteral("steps"));
        if (steps.isString()) {
            lines << steps.toString();
        } else if (steps.isArray() && !steps.toArray().isEmpty()) {
            for (const QJsonValue& s : steps.toArray()) {
                if (!s.isString()) {
                    error = QStringLiteral("\"steps\" must be strings, one command each.");
                    return failure();
                }
                lines << s.toString();
            }
        } else {
            error = QStringLiteral("run_steps needs \"steps\": a non-empty array of commands.");
            return failure();
        }
    } else {
        error = QStringLiteral("Unknown tool %1.").arg(name);
        return failure();
    }
    *script = lines.join(QLatin1Char('\n'));
    const ScriptParseResult parsed = parseScript(*script);
    if (!parsed.ok()) {
        error = QStringLiteral("The steps cannot be read: %1\n  %2")
                    .arg(parsed.error->toString(),
                         script->section(QLatin1Char('\n'), parsed.error->line - 1, parsed.error->line - 1));
        return failure();
    }
    if (parsed.commands.isEmpty()) {
        error = QStringLiteral("There is no command in the steps.");
        return failure();
    }
    return std::nullopt;
}

} // namespace ciu::mcp
