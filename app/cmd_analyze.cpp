// ciu-agent analyze: one zone inventory of the target display (or of a saved screenshot).

#include "app/commands.h"
#include "app/commonoptions.h"
#include "core/canvas/accessibilityzones.h"
#include "core/canvas/fullanalyzer.h"
#include "core/canvas/inventorymerge.h"
#include "core/canvas/localanalyzer.h"
#include "core/canvas/zoneregistry.h"
#include "core/model/geometry.h"
#include "core/model/zonemap.h"
#include "core/providers/provider.h"
#include "core/providers/providerfactory.h"
#include "platform/platformfactory.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFont>
#include <QImageReader>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPainter>
#include <QTimer>

#include <cstdio>
#include <optional>

namespace ciu::app {
namespace {

QString stateText(const Zone& z)
{
    QStringList names = zoneStateNames(z.state);
    names.removeAll(QStringLiteral("enabled"));
    return names.join(QLatin1Char(','));
}

void printTable(const ZoneMap& map)
{
    std::printf("%-6s %-12s %-28s %-22s %-18s %-5s %s\n", "id", "type", "label", "bounds", "state", "conf",
                "parent");
    for (const Zone& z : map.zones()) {
        const QString bounds = QStringLiteral("%1,%2 %3x%4")
                                   .arg(z.bounds.x())
                                   .arg(z.bounds.y())
                                   .arg(z.bounds.width())
                                   .arg(z.bounds.height());
        QString label = z.isPassword ? QStringLiteral("(password)") : z.label;
        if (label.size() > 28)
            label = label.left(25) + QStringLiteral("...");
        std::printf("%-6s %-12s %-28s %-22s %-18s %-5.2f %s\n", qPrintable(z.id),
                    qPrintable(toString(z.type)), qPrintable(label), qPrintable(bounds),
                    qPrintable(stateText(z)), z.confidence, qPrintable(z.parentId));
    }
}

void writeOverlay(QImage image, const ZoneMap& map, const QString& path)
{
    image = image.convertToFormat(QImage::Format_RGB32);
    QPainter p(&image);
    QFont font = p.font();
    font.setPixelSize(10);
    p.setFont(font);
    for (const Zone& z : map.zones()) {
        const QColor colour = z.type == ZoneType::Static ? QColor(0, 160, 0) : QColor(220, 0, 0);
        p.setPen(QPen(colour, 1));
        p.drawRect(z.bounds.adjusted(0, 0, -1, -1));
        p.drawText(z.bounds.topLeft() + QPoint(1, -2),
                   QString(toString(z.type) + QStringLiteral(":") + z.label));
    }
    p.end();
    if (!image.save(path))
        printError(QStringLiteral("cannot write %1").arg(path));
}

// The model provider for Tier 2, or nullptr with *error (nothing was sent). A command line waits for
// retries, but not for minutes.
std::unique_ptr<director::Provider> createTier2Provider(const QString& name, QString* error)
{
    director::ProviderFactoryOptions options;
    options.maxRetryDelayMs = 10'000;
    return director::configuredProvider(name, director::defaultKeychainReader(), error, options);
}

// Tier 2: the model's inventory of `region` merged with the local zones it did not report (the model
// may miss elements). nullopt and *error when the provider failed, refused or answered no inventory.
std::optional<QList<Zone>> runTier2(director::Provider* provider, const QString& model, const QImage& image,
                                    const QRect& region, const QList<Zone>& localZones,
                                    canvas::FullAnalysisResult* out, QString* error)
{
    canvas::FullAnalyzer analyzer;
    analyzer.setProvider(provider, model);
    std::optional<canvas::FullAnalysisResult> result;
    QEventLoop loop;
    QObject::connect(&analyzer, &canvas::FullAnalyzer::finished, &loop,
                     [&](const canvas::FullAnalysisResult& r) {
                         result = r;
                         loop.quit();
                     });
    if (analyzer.analyze(image, QPoint(0, 0), region, QStringLiteral("command_line")) == 0) {
        *error = QStringLiteral("nothing to send to the model");
        return std::nullopt;
    }
    loop.exec(); // the provider always finishes (its own timeouts and retries)
    *out = *result;
    if (!result->ok) {
        *error = result->error.isEmpty() ? QStringLiteral("no inventory") : result->error;
        return std::nullopt;
    }
    return canvas::mergeInventory(result->report.zones, localZones);
}

// The accessibility tree after the backend's first walk (null when it has none within `timeoutMs`).
platform::AccessibilitySnapshotPtr readAccessibility(platform::Accessibility& accessibility, int timeoutMs)
{
    platform::AccessibilitySnapshotPtr result;
    if (!accessibility.isAvailable())
        return result;
    QEventLoop loop;
    QObject::connect(&accessibility, &platform::Accessibility::snapshotChanged, &loop,
                     [&](const platform::AccessibilitySnapshotPtr& snapshot, const QStringList&) {
                         result = snapshot;
                         loop.quit();
                     });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    accessibility.start();
    if (!result)
        loop.exec();
    return result;
}

QJsonObject nodeJson(const platform::AccessibleNode& n)
{
    QJsonObject o{{QStringLiteral("ref"), n.ref},
                  {QStringLiteral("path"), n.pathString()},
                  {QStringLiteral("depth"), n.depth},
                  {QStringLiteral("role"), n.role},
                  {QStringLiteral("name"), n.name},
                  {QStringLiteral("states"), QJsonArray::fromStringList(n.states)},
                  {QStringLiteral("bounds"), QJsonObject{{QStringLiteral("x"), n.bounds.x()},
                                                         {QStringLiteral("y"), n.bounds.y()},
                                                         {QStringLiteral("width"), n.bounds.width()},
                                                         {QStringLiteral("height"), n.bounds.height()}}}};
    for (const auto& [key, text] :
         {std::pair{"value", &n.value}, std::pair{"key_binding", &n.keyBinding},
          std::pair{"labelled_by", &n.labelledBy}, std::pair{"description", &n.description}}) {
        if (!text->isEmpty())
            o.insert(QLatin1String(key), *text);
    }
    if (n.depth == 0) {
        o.insert(QStringLiteral("application"), n.application);
        o.insert(QStringLiteral("pid"), n.pid);
    }
    return o;
}

// The nodes of the windows in `windowRefs` (all when empty), as an indented outline or JSON.
void printTree(const platform::AccessibilitySnapshot& snapshot, const QStringList& windowRefs, bool json)
{
    QJsonArray array;
    for (const platform::AccessibleNode& n : snapshot.nodes) {
        if (!windowRefs.isEmpty() && !windowRefs.contains(n.windowRef))
            continue;
        if (json) {
            array.append(nodeJson(n));
            continue;
        }
        QStringList states = n.states;
        // Nearly every node is these: only the others say something.
        for (const char* common : {"enabled", "sensitive", "showing", "visible", "focusable"})
            states.removeAll(QLatin1String(common));
        QString line = QString(n.depth * 2, QLatin1Char(' ')) + n.role;
        if (!n.name.isEmpty())
            line += QStringLiteral(" \"%1\"").arg(n.name);
        line += QStringLiteral(" %1,%2 %3x%4")
                    .arg(n.bounds.x())
                    .arg(n.bounds.y())
                    .arg(n.bounds.width())
                    .arg(n.bounds.height());
        if (!states.isEmpty())
            line += QStringLiteral(" [%1]").arg(states.join(QLatin1Char(',')));
        if (!n.value.isEmpty())
            line += QStringLiteral(" value=\"%1\"").arg(n.value.left(60));
        if (!n.keyBinding.isEmpty())
            line += QStringLiteral(" key=%1").arg(n.keyBinding);
        if (!n.labelledBy.isEmpty())
            line += QStringLiteral(" labelled-by=\"%1\"").arg(n.labelledBy);
        if (n.depth == 0)
            line += QStringLiteral(" (%1, pid %2)").arg(n.application).arg(n.pid);
        std::printf("%s\n", qPrintable(line));
    }
    if (json)
        std::fputs(QJsonDocument(array).toJson(QJsonDocument::Indented).constData(), stdout);
}

} // namespace

int runAnalyze(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Prints the zone inventory of the target display: every interactive element found by the "
        "local analysis (OpenCV + Tesseract). With --provider anthropic or openai, a model's inventory "
        "of the same screenshot (Tier 2) is merged with the local zones."));
    parser.addOptions({
        {QStringLiteral("json"), QStringLiteral("Print a JSON array of zones instead of a table.")},
        {QStringLiteral("region"), QStringLiteral("Analyse only this rectangle (root pixels)."),
         QStringLiteral("x,y,w,h")},
        {QStringLiteral("image"), QStringLiteral("Analyse a saved screenshot instead of the display."),
         QStringLiteral("PNG")},
        {QStringLiteral("overlay"), QStringLiteral("Also write the screenshot with the zones drawn on it."),
         QStringLiteral("PNG")},
        {QStringLiteral("model"),
         QStringLiteral("Model for --provider anthropic or openai (default: the provider's)."),
         QStringLiteral("name")},
        {QStringLiteral("source"),
         QStringLiteral("Where zones come from: vision (pixels), atspi (the accessibility tree) or all "
                        "(both, the tree winning where it knows an element; default)."),
         QStringLiteral("vision|atspi|all"), QStringLiteral("all")},
        {QStringLiteral("tree"),
         QStringLiteral("Print the accessibility tree of the active window (all windows when none matches) "
                        "instead of zones.")},
    });
    addCommonOptions(parser);
    int exitCode = ExitOk;
    const auto common = parseCommonCommandLine(parser, arguments, &exitCode);
    if (!common)
        return exitCode;
    if (!hasNoPositionals(parser, QStringLiteral("analyze")))
        return ExitUsage;
    QString error;
    const QString providerName = common->provider.isEmpty() ? QStringLiteral("local") : common->provider;
    const bool tier2 = providerName != QLatin1String("local");
    if (parser.isSet(QStringLiteral("model")) && !tier2) {
        printError(QStringLiteral("--model needs a model provider (--provider anthropic or openai)"));
        return ExitUsage;
    }
    const QString source = parser.value(QStringLiteral("source")).toLower();
    if (source != QLatin1String("vision") && source != QLatin1String("atspi") &&
        source != QLatin1String("all")) {
        printError(QStringLiteral("--source must be vision, atspi or all, got \"%1\"")
                       .arg(parser.value(QStringLiteral("source"))));
        return ExitUsage;
    }
    const bool tree = parser.isSet(QStringLiteral("tree"));
    const bool useTree = source != QLatin1String("vision") || tree;
    const bool useVision = source != QLatin1String("atspi") && !tree;
    if (useTree && parser.isSet(QStringLiteral("image"))) {
        printError(QStringLiteral("--image has no accessibility tree: use --source vision"));
        return ExitUsage;
    }
    if (tier2 && !useVision) {
        printError(QStringLiteral("--provider %1 analyses pixels: not with --source atspi or --tree")
                       .arg(providerName));
        return ExitUsage;
    }
    std::optional<QRect> region;
    if (parser.isSet(QStringLiteral("region"))) {
        region = parseRegion(parser.value(QStringLiteral("region")), &error);
        if (!region) {
            printError(error);
            return ExitUsage;
        }
    }

    QImage image;
    canvas::AnalysisHints hints;
    std::optional<platform::WindowInfo> activeWindow;
    if (parser.isSet(QStringLiteral("image"))) {
        QImageReader reader(parser.value(QStringLiteral("image")));
        image = reader.read();
        if (image.isNull()) {
            printError(QStringLiteral("cannot read %1: %2")
                           .arg(parser.value(QStringLiteral("image")), reader.errorString()));
            return ExitFailure;
        }
    } else {
        auto opened = platform::createPlatform({common->platform, common->display});
        if (!opened.platform) {
            printError(opened.error);
            return ExitNoDisplay;
        }
        image = opened.platform->screen().grab();
        if (image.isNull()) {
            printError(QStringLiteral("cannot grab the screen of %1: %2")
                           .arg(opened.platform->displayName(), opened.platform->screen().errorString()));
            return opened.platform->isConnected() ? ExitFailure : ExitNoDisplay;
        }
        hints.windows = opened.platform->windows().topLevelWindows();
        activeWindow = opened.platform->windows().activeWindow();
    }
    if (region && !QRect(QPoint(0, 0), image.size()).intersects(*region)) {
        printError(QStringLiteral("--region %1,%2 %3x%4 lies outside the %5x%6 screen")
                       .arg(region->x())
                       .arg(region->y())
                       .arg(region->width())
                       .arg(region->height())
                       .arg(image.width())
                       .arg(image.height()));
        return ExitUsage;
    }

    // The provider before any work: a missing key fails at once.
    std::unique_ptr<director::Provider> provider;
    if (tier2) {
        provider = createTier2Provider(providerName, &error);
        if (!provider) {
            printError(error);
            return ExitFailure;
        }
    }

    // The tree first (it answers in milliseconds; a missing bus is one warning, then vision only).
    platform::AccessibilitySnapshotPtr snapshot;
    canvas::AccessibilityZones treeZones;
    QString treeSummary;
    if (useTree) {
        QElapsedTimer treeTimer;
        treeTimer.start();
        const std::unique_ptr<platform::Accessibility> accessibility = platform::createAccessibility();
        snapshot = readAccessibility(*accessibility, 15'000);
        if (!snapshot && !useVision) {
            printError(QStringLiteral("no accessibility tree: %1")
                           .arg(accessibility->isAvailable() ? QStringLiteral("the first walk did not finish")
                                                             : accessibility->errorString()));
            return ExitFailure;
        }
        if (snapshot) {
            canvas::AccessibilityScene scene;
            scene.windows = hints.windows;
            scene.screen = QRect(QPoint(0, 0), image.size());
            scene.ownPid = QCoreApplication::applicationPid();
            treeZones = canvas::zonesFromAccessibility(*snapshot, scene);
            if (tree) {
                QStringList windows;
                for (auto it = treeZones.windowIds.cbegin(); it != treeZones.windowIds.cend(); ++it) {
                    if (activeWindow && it.value() == activeWindow->id)
                        windows << it.key();
                }
                printTree(*snapshot, windows, parser.isSet(QStringLiteral("json")));
                return ExitOk;
            }
            treeSummary = QStringLiteral("accessibility: %1 nodes, %2 zones, %3 ms (full walk %4 ms)")
                              .arg(snapshot->nodes.size())
                              .arg(treeZones.zones.size())
                              .arg(double(treeTimer.nsecsElapsed()) / 1e6, 0, 'f', 0)
                              .arg(double(snapshot->stats.lastWalkNs) / 1e6, 0, 'f', 0);
        }
    }

    QElapsedTimer timer;
    timer.start();
    canvas::LocalAnalysisResult result;
    result.region = region.value_or(QRect(QPoint(0, 0), image.size())) & QRect(QPoint(0, 0), image.size());
    QList<Zone> zones;
    canvas::FullAnalysisResult full;
    if (useVision) {
        canvas::LocalAnalyzer analyzer;
        if (!analyzer.ocrReady())
            printError(
                QStringLiteral("OCR unavailable, zones will have no labels: %1").arg(analyzer.ocrError()));
        result = analyzer.analyze(image, QPoint(0, 0), region.value_or(QRect()), {}, hints);
        if (!result.error.isEmpty()) {
            printError(QStringLiteral("analysis failed: %1").arg(result.error));
            return ExitFailure;
        }
        zones = result.zones;
        if (provider) {
            const auto merged = runTier2(provider.get(), parser.value(QStringLiteral("model")), image,
                                         result.region, result.zones, &full, &error);
            if (!merged) {
                printError(QStringLiteral("tier 2 analysis with %1 failed: %2").arg(providerName, error));
                return ExitFailure;
            }
            zones = *merged;
            if (full.report.rejected > 0) {
                QStringList reasons;
                for (auto it = full.report.rejectedBy.cbegin(); it != full.report.rejectedBy.cend(); ++it)
                    reasons << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
                printError(QStringLiteral("the model reported %1 elements, %2 rejected (%3)")
                               .arg(full.report.total)
                               .arg(full.report.rejected)
                               .arg(reasons.join(QStringLiteral(", "))));
            }
        }
    }
    if (snapshot) {
        QList<Zone> treeIn;
        for (const Zone& z : std::as_const(treeZones.zones)) {
            if (shareInside(z.bounds, result.region) >= 0.6)
                treeIn << z;
        }
        zones = canvas::fuseZones(treeIn, zones);
    }
    canvas::ZoneRegistry registry;
    registry.setScreenSize(image.size());
    QHash<quint64, QPoint> origins; // vision zones' ids are relative to their window
    for (const platform::WindowInfo& w : std::as_const(hints.windows))
        origins.insert(w.id, w.geometry.topLeft());
    registry.setWindowOrigins(origins);
    registry.replaceWithin(result.region, zones, 0);
    const ZoneMapPtr map = registry.snapshot(0);

    if (parser.isSet(QStringLiteral("overlay")))
        writeOverlay(image, *map, parser.value(QStringLiteral("overlay")));
    if (parser.isSet(QStringLiteral("json"))) {
        std::fputs(QJsonDocument(map->toJson()).toJson(QJsonDocument::Indented).constData(), stdout);
    } else {
        printTable(*map);
        std::printf("%lld zones in %dx%d+%d+%d, %.0f ms (%d OCR calls, %.0f ms OCR)\n",
                    qlonglong(map->size()), result.region.width(), result.region.height(), result.region.x(),
                    result.region.y(), double(timer.nsecsElapsed()) / 1e6, result.stats.ocrCalls,
                    result.stats.ocrMs);
        if (provider)
            std::printf("tier 2 (%s): %d of %d model zones accepted, %lld ms, %lld+%lld tokens, $%.4f\n",
                        qPrintable(providerName), full.report.accepted, full.report.total,
                        qlonglong(full.latencyMs), qlonglong(full.inputTokens), qlonglong(full.outputTokens),
                        full.costUsd);
        if (!treeSummary.isEmpty())
            std::printf("%s\n", qPrintable(treeSummary));
    }
    return ExitOk;
}

} // namespace ciu::app
