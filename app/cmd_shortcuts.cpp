// ciu-agent shortcuts: the keyboard shortcuts of the active (or a named) window, from its shipped app schema,
// what was learned before, and what the accessibility tree shows now. The tree holds only showing nodes, so
// the items of a closed menu are not in it: unless --dry-run, each menu of the window's menu bar is opened
// in turn (a click on its title), read, and closed again (Escape). A window the tree does not show has its
// menus read by vision instead (app/shortcutsvision.cpp). What was discovered is saved.

#include "app/commands.h"
#include "app/commonoptions.h"
#include "app/displaylock.h"
#include "app/shortcutsvision.h"
#include "core/canvas/accessibilityzones.h"
#include "core/knowledge/shortcutdiscovery.h"
#include "core/knowledge/shortcutstore.h"
#include "platform/inputactions.h"
#include "platform/platformfactory.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>

namespace ciu::app {
namespace {

constexpr int kFirstWalkTimeoutMs = 15'000;
constexpr int kMenuTimeoutMs = 5000;

// Waits for a snapshot of `accessibility` that `done` accepts (the current one first); null on timeout.
platform::AccessibilitySnapshotPtr
waitForSnapshot(platform::Accessibility& accessibility, int timeoutMs,
                const std::function<bool(const platform::AccessibilitySnapshot&)>& done)
{
    platform::AccessibilitySnapshotPtr current = accessibility.snapshot();
    if (current && current->version > 0 && done(*current))
        return current;
    platform::AccessibilitySnapshotPtr result;
    QEventLoop loop;
    QObject::connect(&accessibility, &platform::Accessibility::snapshotChanged, &loop,
                     [&](const platform::AccessibilitySnapshotPtr& snapshot, const QStringList&) {
                         if (snapshot && done(*snapshot)) {
                             result = snapshot;
                             loop.quit();
                         }
                     });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    loop.exec();
    return result;
}

// The accessible window (ref) of an X window.
QString accessibleWindow(const platform::AccessibilitySnapshot& snapshot,
                         const QList<platform::WindowInfo>& windows, QRect screen, quint64 windowId)
{
    canvas::AccessibilityScene scene;
    scene.windows = windows;
    scene.screen = screen;
    scene.ownPid = QCoreApplication::applicationPid();
    const canvas::AccessibilityZones zones = canvas::zonesFromAccessibility(snapshot, scene);
    for (auto it = zones.windowIds.cbegin(); it != zones.windowIds.cend(); ++it) {
        if (it.value() == windowId)
            return it.key();
    }
    return {};
}

bool showingItemsUnder(const platform::AccessibilitySnapshot& snapshot, const QString& windowRef,
                       const QString& menuName)
{
    const QString prefix = withoutMnemonic(menuName).trimmed() + QStringLiteral(" > ");
    const QList<Shortcut> found = shortcutsFromAccessibility(snapshot, windowRef);
    return std::any_of(found.cbegin(), found.cend(),
                       [&](const Shortcut& s) { return s.menu.startsWith(prefix); });
}

// Opens each menu of the window's bar, collects its items, closes it. Returns what the tree showed; a menu
// that did not open within the timeout is reported on stderr and skipped.
QList<Shortcut> exploreMenus(platform::Platform& platform, platform::Accessibility& accessibility,
                             const QString& windowRef)
{
    QList<Shortcut> found;
    platform::InputActions input(platform.input(), platform.pointer());
    // A busy program's menu bar may come a moment after its window.
    const auto hasMenuBar = [&](const platform::AccessibilitySnapshot& s) {
        return !menuBarMenus(s, windowRef).isEmpty();
    };
    auto snapshot = waitForSnapshot(accessibility, kMenuTimeoutMs, hasMenuBar);
    if (!snapshot) {
        // Read the tree afresh once (an event the program did not send leaves its menu bar out).
        accessibility.refresh();
        snapshot = waitForSnapshot(accessibility, kMenuTimeoutMs, hasMenuBar);
    }
    if (!snapshot) {
        printError(
            QStringLiteral("the window has no menu bar in the accessibility tree (waited %1 ms): no menu "
                           "was opened")
                .arg(kMenuTimeoutMs));
        return found;
    }
    for (const platform::AccessibleNode& menu : menuBarMenus(*snapshot, windowRef)) {
        if (!input.clickAt(menu.bounds.center(), platform::MouseButton::Left)) {
            printError(QStringLiteral("cannot open the menu \"%1\": %2").arg(menu.name, input.errorString()));
            break;
        }
        const auto open =
            waitForSnapshot(accessibility, kMenuTimeoutMs, [&](const platform::AccessibilitySnapshot& s) {
                return showingItemsUnder(s, windowRef, menu.name);
            });
        if (open)
            found << shortcutsFromAccessibility(*open, windowRef);
        else
            printError(QStringLiteral("the menu \"%1\" showed no items within %2 ms")
                           .arg(withoutMnemonic(menu.name).trimmed())
                           .arg(kMenuTimeoutMs));
        input.keys(QStringLiteral("Escape"));
        waitForSnapshot(accessibility, kMenuTimeoutMs, [&](const platform::AccessibilitySnapshot& s) {
            return !showingItemsUnder(s, windowRef, menu.name);
        });
    }
    return found;
}

QJsonObject shortcutJson(const Shortcut& s)
{
    QJsonObject o{{QStringLiteral("action"), s.action},
                  {QStringLiteral("keys"), s.keys},
                  {QStringLiteral("menu"), s.menu},
                  {QStringLiteral("source"), toString(s.source)},
                  {QStringLiteral("verified"), s.isVerified()}};
    return o;
}

void printTable(const AppSchema& schema, const platform::WindowInfo& window)
{
    std::printf("%s (%s)\n", qPrintable(terminalText(window.title, true)),
                qPrintable(terminalText(schema.application, true)));
    std::printf("%-24s %-18s %-8s %s\n", "keys", "action", "source", "menu");
    for (const Shortcut& s : schema.shortcuts) {
        std::printf("%-24s %-18s %-8s %s\n", qPrintable(s.keys.isEmpty() ? QStringLiteral("-") : s.keys),
                    qPrintable(terminalText(s.action, true)), qPrintable(toString(s.source)),
                    qPrintable(terminalText(s.menu, true)));
    }
}

} // namespace

std::optional<platform::WindowInfo> findWindow(const QList<platform::WindowInfo>& windows,
                                               const QString& text)
{
    for (auto it = windows.crbegin(); it != windows.crend(); ++it) {
        if (it->windowClass.compare(text, Qt::CaseInsensitive) == 0 ||
            it->instance.compare(text, Qt::CaseInsensitive) == 0 ||
            it->title.contains(text, Qt::CaseInsensitive))
            return *it;
    }
    return std::nullopt;
}

int runShortcuts(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Lists the keyboard shortcuts of the active window (or of --window), from the program's app schema, "
        "what was learned before and its menus. Each menu of the window's menu bar is opened and closed "
        "again to read its items (not with --dry-run), by vision when the window has no accessibility tree. "
        "What was discovered is saved under "
        "$XDG_DATA_HOME/ciu-agent/shortcuts."));
    parser.addOptions({
        {QStringLiteral("window"),
         QStringLiteral("The window: a part of its title or its WM_CLASS (default: the active window)."),
         QStringLiteral("T")},
        {QStringLiteral("json"), QStringLiteral("Print one JSON object.")},
    });
    addCommonOptions(parser);
    int exitCode = ExitOk;
    const auto common = parseCommonCommandLine(parser, arguments, &exitCode);
    if (!common)
        return exitCode;
    if (!hasNoPositionals(parser, QStringLiteral("shortcuts")))
        return ExitUsage;
    const QString windowText = parser.value(QStringLiteral("window")).trimmed();
    if (parser.isSet(QStringLiteral("window")) && windowText.isEmpty()) {
        printError(QStringLiteral("--window needs a part of a title or a WM_CLASS"));
        return ExitUsage;
    }
    const bool explore = !common->dryRun.value_or(false);

    auto opened = platform::createPlatform({common->platform, common->display});
    if (!opened.platform) {
        printError(opened.error);
        return ExitNoDisplay;
    }
    platform::Platform& platform = *opened.platform;
    const QList<platform::WindowInfo> windows = platform.windows().topLevelWindows();
    const std::optional<platform::WindowInfo> window =
        windowText.isEmpty() ? platform.windows().activeWindow() : findWindow(windows, windowText);
    if (!window) {
        printError(
            windowText.isEmpty()
                ? QStringLiteral("no active window on %1").arg(platform.displayName())
                : QStringLiteral("no window on %1 matches \"%2\"").arg(platform.displayName(), windowText));
        return ExitFailure;
    }
    if (window->windowClass.isEmpty()) {
        printError(QStringLiteral("the window \"%1\" has no WM_CLASS: its shortcuts cannot be kept")
                       .arg(terminalText(window->title, true)));
        return ExitFailure;
    }

    // What is known, before touching anything: a corrupt store file stops here.
    const ShortcutStore store;
    QString error;
    const auto stored = store.load(window->windowClass, &error);
    if (!stored) {
        printError(error);
        return ExitFailure;
    }

    DisplayLock lock(platform.displayName());
    if (explore && !lock.acquire(0, &error)) {
        printError(error);
        return ExitFailure;
    }
    QList<Shortcut> discovered;
    bool treeRead = false; // the window's menus were read from the accessibility tree
    const std::unique_ptr<platform::Accessibility> accessibility = platform::createAccessibility();
    if (!accessibility->isAvailable()) {
        printError(QStringLiteral("no accessibility tree (%1): only the known shortcuts")
                       .arg(accessibility->errorString()));
    } else {
        accessibility->start();
        // The window once the tree has it: a busy program may miss the first walk and be read a moment later.
        QString windowRef;
        const QRect screen(QPoint(0, 0), platform.screen().size());
        const auto first = waitForSnapshot(*accessibility, kFirstWalkTimeoutMs,
                                           [&](const platform::AccessibilitySnapshot& s) {
                                               windowRef = accessibleWindow(s, windows, screen, window->id);
                                               return !windowRef.isEmpty();
                                           });
        if (!first)
            printError(QStringLiteral("the window \"%1\" is not in the accessibility tree (waited %2 ms)")
                           .arg(terminalText(window->title, true))
                           .arg(kFirstWalkTimeoutMs));
        else {
            treeRead = true;
            discovered = shortcutsFromAccessibility(*first, windowRef);
            if (explore) {
                platform.windows().activate(window->id);
                discovered << exploreMenus(platform, *accessibility, windowRef);
            }
        }
    }

    // No tree for the window (a Tk, Xt or Motif program, or no accessibility bus): its menus read by vision.
    if (!treeRead && explore) {
        printError(
            QStringLiteral("reading the menus of \"%1\" by vision").arg(terminalText(window->title, true)));
        discovered << exploreMenusByVision(platform, *window);
    }

    AppSchema learned = *stored;
    bool changed = false;
    for (const Shortcut& s : discovered)
        changed = learned.merge(s) || changed;
    if (changed && !store.save(learned, &error)) {
        printError(error);
        return ExitFailure;
    }
    const auto known = knownShortcuts(store, window->windowClass, &error);
    if (!known) {
        printError(error);
        return ExitFailure;
    }

    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray list;
        for (const Shortcut& s : known->shortcuts)
            list.append(shortcutJson(s));
        const QJsonObject o{{QStringLiteral("application"), known->application},
                            {QStringLiteral("window"), window->title},
                            {QStringLiteral("discovered"), int(discovered.size())},
                            {QStringLiteral("shortcuts"), list}};
        std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    } else {
        printTable(*known, *window);
    }
    return ExitOk;
}

} // namespace ciu::app
