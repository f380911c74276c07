// The local planner: the command language (parsing, errors with positions), name resolution against
// zone labels (fuzzy, preferences, ambiguity, missing), and the step-by-step decisions.

#include "core/director/commandscript.h"
#include "core/director/localplanner.h"
#include "core/director/modelplanner.h"
#include "core/director/zoneresolver.h"
#include "core/knowledge/schemazones.h"
#include "core/knowledge/shortcutstore.h"
#include "tests/support/testzones.h"

#include <QJsonObject>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;

class TestLocalPlanner : public QObject
{
    Q_OBJECT
private slots:
    void parse_data();
    void parse();
    void separators();
    void parseErrors_data();
    void parseErrors();
    void oneDurationCap_data();
    void oneDurationCap();
    void similarity_data();
    void similarity();
    void resolve_data();
    void resolve();
    void ambiguous();
    void zoneUnderAWindowAboveIsNoCandidate();
    void sameZoneSeenTwiceIsOne();
    void exactLabelWinsATie();
    void symbolNames();
    void missing();
    void byId();
    void exactMenuItemBeatsLongerLabel();
    void formSequence();
    void clickSchemaNamedZone();
    void checkAlreadyChecked();
    void selectClicksTheOptionInTheOpenList();
    void selectClicksTheCurrentOptionOverTheDropdown();
    void selectScrollsTheListToTheOption();
    void selectScrollsUpWhenTheListEndsBelow();
    void selectOptionNotInTheListFails();
    void selectWithoutVisibleOption();
    void selectInMergedRowsTypesTheName();
    void selectInEditableDropdownTypesTheName();
    void expectationPerZoneType_data();
    void expectationPerZoneType();
    void selectShowingTheOptionIsSkipped();
    void selectInAListBox();
    void selectInAMenu();
    void missingZoneReanalyzesThenGivesUp();
    void missingZoneWaitsForAWindowsTree();
    void unnamedIconButtonsAreHoveredForTheirTooltips();
    void failedActionRetriesThenFails();
    void dryRunOutcomesAdvance();
    void invokeByShortcut_data();
    void invokeByShortcut();
    void invokeFallsBackToMenuPath();
    void invokeUnverifiedKeysUseTheMenuPath_data();
    void invokeUnverifiedKeysUseTheMenuPath();
    void invokeUnverifiedKeysWithoutMenuPath();
    void invokeKeepsWhatTheMenuPathShowed();
    void invokeTreeKeysCheckedByTheMenusEffect();
    void invokeLearnsMenuRowsReadByVision();
    void invokeKeepsWhatItLearnsInTheStore();
    void invokeUnknownAction();
    void untypedTextGoesToTheWindowOfTheTask_data();
    void untypedTextGoesToTheWindowOfTheTask();
};

using ciu::test::zone;

namespace {

// A map like the fixture app's main page.
ZoneMap formMap(ZoneState subscribeState = ZoneStateFlag::Enabled)
{
    return ZoneMap(
        1, 0, QSize(1280, 800),
        {zone(QStringLiteral("z1"), ZoneType::Static, QStringLiteral("Name:"), QRect(20, 60, 50, 20)),
         zone(QStringLiteral("z2"), ZoneType::TextField, QString(), QRect(90, 58, 300, 24)),
         zone(QStringLiteral("z3"), ZoneType::Static, QStringLiteral("Color:"), QRect(20, 120, 50, 20)),
         zone(QStringLiteral("z4"), ZoneType::Dropdown, QStringLiteral("Red"), QRect(90, 118, 300, 24)),
         zone(QStringLiteral("z5"), ZoneType::CheckBox, QStringLiteral("Subscribe"), QRect(20, 200, 120, 22),
              subscribeState),
         zone(QStringLiteral("z6"), ZoneType::CheckBox, QStringLiteral("Remember me"),
              QRect(150, 200, 140, 22)),
         zone(QStringLiteral("z7"), ZoneType::Button, QStringLiteral("OK"), QRect(20, 500, 80, 30)),
         zone(QStringLiteral("z8"), ZoneType::Button, QStringLiteral("Cancel"), QRect(110, 500, 80, 30)),
         zone(QStringLiteral("z9"), ZoneType::Button, QStringLiteral("Submit"), QRect(200, 500, 80, 30)),
         zone(QStringLiteral("z10"), ZoneType::Static, QStringLiteral("Submit"), QRect(215, 505, 50, 20)),
         zone(QStringLiteral("z11"), ZoneType::ScrollArea, QStringLiteral("Items"), QRect(700, 60, 200, 500)),
         zone(QStringLiteral("z12"), ZoneType::MenuItem, QStringLiteral("File"), QRect(0, 0, 40, 20)),
         zone(QStringLiteral("z13"), ZoneType::Static, QStringLiteral("File Manager"),
              QRect(300, 300, 90, 20)),
         zone(QStringLiteral("z14"), ZoneType::Button, QStringLiteral("Open Dialog"),
              QRect(290, 500, 110, 30))});
}

Decision decideOnce(LocalPlanner& planner, const ZoneMap& map,
                    const QList<platform::WindowInfo>& windows = {}, bool dryRun = true)
{
    QSignalSpy spy(&planner, &PlanBackend::decided);
    WorldState w;
    w.map = std::make_shared<const ZoneMap>(map);
    w.windows = windows;
    w.dryRun = dryRun;
    planner.decide(w);
    if (spy.size() != 1)
        return {Decision::Kind::Failed, {}, QStringLiteral("no decision")};
    return spy.first().first().value<Decision>();
}

// decideOnce() of a run that acts (not a dry run).
Decision decideActing(LocalPlanner& planner, const ZoneMap& map)
{
    return decideOnce(planner, map, {}, false);
}

ActionOutcome ok()
{
    ActionOutcome o;
    o.status = ActionOutcome::Status::Executed;
    o.result.success = true;
    o.result.changeObserved = true;
    return o;
}

} // namespace

void TestLocalPlanner::parse_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<QString>("canonical");
    QTest::newRow("click bare") << "click OK"
                                << "click \"OK\"";
    // Found with fuzz_commandscript: canonical forms that did not read back as the same command (a newline
    // inside quotes ended the quote; a quoted program with a ';' became two commands).
    QTest::newRow("type newline") << "type \"a\\nb\" into Notes"
                                  << "type \"a\\nb\" into \"Notes\"";
    QTest::newRow("launch with separator") << "launch \"sh -c 'a; b'\""
                                           << "launch \"sh -c 'a; b'\"";
    QTest::newRow("launch with then") << "launch 'echo then'"
                                      << "launch \"echo then\"";
    QTest::newRow("press semicolon") << "press ';'"
                                     << "press \";\"";
    QTest::newRow("launch bare") << "launch xterm  -e top"
                                 << "launch xterm  -e top";
    QTest::newRow("click on the") << "click on the Submit"
                                  << "click \"Submit\"";
    QTest::newRow("click multi-word") << "Click File Manager"
                                      << "click \"File Manager\"";
    QTest::newRow("double-click quoted") << "double-click \"File Manager\""
                                         << "double-click \"File Manager\"";
    QTest::newRow("right-click") << "right-click Notes"
                                 << "right-click \"Notes\"";
    QTest::newRow("triple-click") << "triple-click 'Name'"
                                  << "triple-click \"Name\"";
    QTest::newRow("hover") << "hover Submit"
                           << "hover \"Submit\"";
    QTest::newRow("move to") << "move to Submit"
                             << "hover \"Submit\"";
    QTest::newRow("type into") << "type \"hello\" into Search"
                               << "type \"hello\" into \"Search\"";
    QTest::newRow("type into quoted") << "type 'a \"b\"' into \"Search box\""
                                      << "type \"a \\\"b\\\"\" into \"Search box\"";
    QTest::newRow("type bare words") << "type hello world into Search"
                                     << "type \"hello world\" into \"Search\"";
    QTest::newRow("type only") << "type \"x\""
                               << "type \"x\"";
    QTest::newRow("escape") << "type \"say \\\"hi\\\"\""
                            << "type \"say \\\"hi\\\"\"";
    QTest::newRow("invoke") << "invoke \"File > Save As…\""
                            << "invoke \"File > Save As…\"";
    QTest::newRow("press") << "press ctrl+s"
                           << "press ctrl+s";
    QTest::newRow("press two combos") << "press ctrl+a Delete"
                                      << "press ctrl+a Delete";
    QTest::newRow("key alias") << "key Return"
                               << "press Return";
    QTest::newRow("scroll in") << "scroll down 3 in Results"
                               << "scroll down 3 in \"Results\"";
    QTest::newRow("scroll plain") << "scroll up"
                                  << "scroll up";
    QTest::newRow("scroll times") << "scroll left 2 times"
                                  << "scroll left 2";
    QTest::newRow("drag") << "drag \"Item 1\" to Trash"
                          << "drag \"Item 1\" to \"Trash\"";
    QTest::newRow("drag bare") << "drag Item 1 to Trash Can"
                               << "drag \"Item 1\" to \"Trash Can\"";
    QTest::newRow("wait for text") << "wait for \"Saved\""
                                   << "wait for \"Saved\"";
    QTest::newRow("wait seconds") << "wait 2s"
                                  << "wait 2000ms";
    QTest::newRow("wait spaced") << "wait 1.5 seconds"
                                 << "wait 1500ms";
    QTest::newRow("wait ms") << "wait 500ms"
                             << "wait 500ms";
    QTest::newRow("wait for seconds") << "wait for 3s"
                                      << "wait 3000ms";
    QTest::newRow("launch") << "launch xterm -e top"
                            << "launch xterm -e top";
    QTest::newRow("check") << "check Subscribe"
                           << "check \"Subscribe\"";
    QTest::newRow("uncheck") << "uncheck \"Remember me\""
                             << "uncheck \"Remember me\"";
    QTest::newRow("select") << "select Blue in Color"
                            << "select \"Blue\" in \"Color\"";
    QTest::newRow("choose from") << "choose \"Dark Blue\" from \"Color\""
                                 << "select \"Dark Blue\" in \"Color\"";
    QTest::newRow("zone id") << "click #z12"
                             << "click \"#z12\"";
}

void TestLocalPlanner::parse()
{
    QFETCH(QString, script);
    QFETCH(QString, canonical);
    const ScriptParseResult r = parseScript(script);
    QVERIFY2(r.ok(), qPrintable(r.error ? r.error->toString() : QString()));
    QCOMPARE(r.commands.size(), 1);
    QCOMPARE(r.commands.first().toString(), canonical);
    // The canonical form parses to the same command.
    const ScriptParseResult again = parseScript(canonical);
    QVERIFY(again.ok());
    QCOMPARE(again.commands.first().toString(), canonical);
}

void TestLocalPlanner::separators()
{
    const ScriptParseResult r =
        parseScript(QStringLiteral("# fill the form\n  type \"Ada\" into Name; check Subscribe then select "
                                   "Blue in Color\n\nclick \"then\"\n"));
    QVERIFY(r.ok());
    QCOMPARE(r.commands.size(), 4);
    QCOMPARE(int(r.commands[0].verb), int(ScriptCommand::Verb::Type));
    QCOMPARE(int(r.commands[1].verb), int(ScriptCommand::Verb::Check));
    QCOMPARE(int(r.commands[2].verb), int(ScriptCommand::Verb::Select));
    QCOMPARE(r.commands[3].target, QStringLiteral("then"));
    QCOMPARE(r.commands[1].source, QStringLiteral("check Subscribe"));
    QCOMPARE(r.commands[1].position, 40);
}

void TestLocalPlanner::parseErrors_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<int>("line");
    QTest::addColumn<int>("column");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("empty") << "" << 1 << 1 << "no commands";
    QTest::newRow("only comments") << "# nothing\n" << 1 << 1 << "no commands";
    QTest::newRow("unknown verb") << "click OK\nfrobnicate X" << 2 << 1 << "unknown command \"frobnicate\"";
    QTest::newRow("click without name") << "click" << 1 << 6 << "zone name";
    QTest::newRow("unterminated") << "click OK; type \"abc" << 1 << 16 << "unterminated";
    QTest::newRow("bad key") << "press ctrl+nosuchkey" << 1 << 7 << "bad key";
    QTest::newRow("press nothing") << "press" << 1 << 6 << "key";
    QTest::newRow("scroll direction") << "scroll sideways" << 1 << 8 << "up, down";
    QTest::newRow("scroll amount") << "scroll down 500" << 1 << 13 << "1..50";
    QTest::newRow("drag without to") << "drag A" << 1 << 7 << "\"to\"";
    QTest::newRow("drag without dest") << "drag A to" << 1 << 10 << "destination";
    QTest::newRow("wait bad") << "wait forever and ever" << 1 << 6 << "forever";
    QTest::newRow("wait too long") << "wait 500s" << 1 << 6 << "longer than the limit of 100 s";
    QTest::newRow("wait 1e7 s") << "wait 10000000s" << 1 << 6 << "duration 1e+07 s is longer than the limit";
    QTest::newRow("wait overflow ms")
        << "wait 99999999999999999999999ms" << 1 << 6 << "longer than the limit";
    QTest::newRow("select without in") << "select Blue" << 1 << 12 << "\"in\"";
    QTest::newRow("trailing words") << "check Subscribe \"now\"" << 1 << 17 << "unexpected";
    QTest::newRow("empty quoted name") << "click \"\"" << 1 << 7 << "empty";
    QTest::newRow("launch nothing") << "launch" << 1 << 7 << "program";
    // Found with fuzz_commandscript: an empty quoted program was a command ("launch" with no program).
    QTest::newRow("launch empty quote") << "launch ''" << 1 << 8 << "program to launch is empty";
    QTest::newRow("launch blank quote") << "launch \"  \"" << 1 << 8 << "program to launch is empty";
    QTest::newRow("type into nothing") << "type \"x\" into" << 1 << 14 << "zone name";
}

void TestLocalPlanner::parseErrors()
{
    QFETCH(QString, script);
    QFETCH(int, line);
    QFETCH(int, column);
    QFETCH(QString, fragment);
    const ScriptParseResult r = parseScript(script);
    QVERIFY(!r.ok());
    QVERIFY2(r.error->message.contains(fragment), qPrintable(r.error->message));
    QCOMPARE(r.error->line, line);
    QCOMPARE(r.error->column, column);
    QVERIFY(r.error->toString().startsWith(QStringLiteral("line %1, column %2: ").arg(line).arg(column)));
}

// Every planner has the same duration cap: the model's computer wait (99999 s used to be accepted, 27.7 h),
// hold_key (1e7 s was refused as "duration -2147483648 ms") and wait (1e7 s silently became 0 ms).
void TestLocalPlanner::oneDurationCap_data()
{
    QTest::addColumn<QString>("action");
    QTest::addColumn<QJsonValue>("duration");
    QTest::addColumn<int>("expectedMs"); // -1: refused
    QTest::addColumn<QString>("fragment");
    QTest::newRow("wait 2.5 s") << "wait" << QJsonValue(2.5) << 2500 << "";
    QTest::newRow("wait at the cap") << "wait" << QJsonValue(100) << 100'000 << "";
    QTest::newRow("wait 99999 s") << "wait" << QJsonValue(99999) << -1 << "longer than the limit of 100 s";
    QTest::newRow("wait 1e7 s") << "wait" << QJsonValue(1e7) << -1 << "longer than the limit of 100 s";
    QTest::newRow("wait negative") << "wait" << QJsonValue(-1) << -1 << "not a length of time";
    QTest::newRow("wait text") << "wait" << QJsonValue(QStringLiteral("10")) << -1 << "number of seconds";
    QTest::newRow("hold 1 s") << "hold_key" << QJsonValue(1) << 1000 << "";
    QTest::newRow("hold 1e7 s") << "hold_key" << QJsonValue(1e7) << -1 << "longer than the limit of 100 s";
    QTest::newRow("hold 1e300 s") << "hold_key" << QJsonValue(1e300) << -1 << "longer than the limit";
}

void TestLocalPlanner::oneDurationCap()
{
    QFETCH(QString, action);
    QFETCH(QJsonValue, duration);
    QFETCH(int, expectedMs);
    QFETCH(QString, fragment);
    QJsonObject input{{QStringLiteral("action"), action}, {QStringLiteral("duration"), duration}};
    if (action == QLatin1String("hold_key"))
        input.insert(QStringLiteral("text"), QStringLiteral("shift"));
    QString error;
    const auto proposed = ModelPlanner::computerAction(input, &error);
    if (expectedMs < 0) {
        QVERIFY(!proposed);
        QVERIFY2(error.contains(fragment) && error.startsWith(action), qPrintable(error));
        QVERIFY2(!error.contains(QStringLiteral("-2147483648")), qPrintable(error));
    } else {
        QVERIFY2(proposed, qPrintable(error));
        QCOMPARE(proposed->action.durationMs, expectedMs);
        // The same cap as the local language and the action validation.
        QVERIFY(proposed->action.durationMs <= kMaxWaitMs);
        QVERIFY(proposed->action.durationMs <= ActionLimits{}.maxDurationMs);
    }
}

void TestLocalPlanner::similarity_data()
{
    QTest::addColumn<QString>("query");
    QTest::addColumn<QString>("label");
    QTest::addColumn<bool>("matches");
    QTest::newRow("exact") << "OK"
                           << "OK" << true;
    QTest::newRow("case") << "submit"
                          << "SUBMIT" << true;
    QTest::newRow("mnemonic and colon") << "Name"
                                        << "&Name:" << true;
    QTest::newRow("ocr slip") << "Subscribe"
                              << "Subscrlbe" << true;
    QTest::newRow("ocr drop") << "Remember me"
                              << "Remembr me" << true;
    QTest::newRow("token in longer label") << "Manager"
                                           << "File Manager" << true;
    QTest::newRow("different") << "OK"
                               << "No" << false;
    QTest::newRow("prefix is not a word") << "Blue"
                                          << "Bluetooth settings" << false;
    QTest::newRow("empty label") << "OK"
                                 << "" << false;
    // A label cut in its middle by the toolkit (a file dialog's column, a long file name) is the name it
    // was cut from; not another name with the same ends, nor a menu's "…".
    QTest::newRow("elided date") << "28 Nov 2026 13:57:05"
                                 << "28 Nov...:57:05" << true;
    QTest::newRow("elided file name") << "quarterly_report_final_v2.txt"
                                      << "quarterly_re\u2026nal_v2.txt" << true;
    QTest::newRow("elided, other ends") << "28 Nov 2026 13:57:06"
                                        << "28 Nov...:57:05" << false;
    QTest::newRow("a menu's dialog mark is no cut") << "Save As Template"
                                                    << "Save As\u2026" << false;
}

void TestLocalPlanner::similarity()
{
    QFETCH(QString, query);
    QFETCH(QString, label);
    QFETCH(bool, matches);
    const double s = ZoneResolver::similarity(query, label);
    QVERIFY2((s >= ZoneResolver::kMinScore) == matches, qPrintable(QString::number(s)));
}

void TestLocalPlanner::resolve_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("purpose");
    QTest::addColumn<QString>("id");
    QTest::newRow("button") << "OK" << int(ZoneResolver::Purpose::Click) << "z7";
    QTest::newRow("case-insensitive") << "cancel" << int(ZoneResolver::Purpose::Click) << "z8";
    QTest::newRow("button over its caption") << "Submit" << int(ZoneResolver::Purpose::Click) << "z9";
    QTest::newRow("label names the field") << "Name" << int(ZoneResolver::Purpose::TypeInto) << "z2";
    QTest::newRow("label names the dropdown") << "Color" << int(ZoneResolver::Purpose::Dropdown) << "z4";
    QTest::newRow("check box") << "subscribe" << int(ZoneResolver::Purpose::Toggle) << "z5";
    QTest::newRow("fuzzy") << "Remembr me" << int(ZoneResolver::Purpose::Toggle) << "z6";
    QTest::newRow("scroll area") << "items" << int(ZoneResolver::Purpose::Scroll) << "z11";
    QTest::newRow("exact beats token") << "File" << int(ZoneResolver::Purpose::Click) << "z12";
    QTest::newRow("two words") << "open dialog" << int(ZoneResolver::Purpose::Click) << "z14";
}

void TestLocalPlanner::resolve()
{
    QFETCH(QString, name);
    QFETCH(int, purpose);
    QFETCH(QString, id);
    const auto r = ZoneResolver::resolve(name, formMap(), ZoneResolver::Purpose(purpose));
    QVERIFY2(r.zone, qPrintable(r.error));
    QCOMPARE(r.zone->id, id);
}

void TestLocalPlanner::symbolNames()
{
    // A calculator's keys: names made of symbols match the key with that symbol, look-alikes included.
    const auto key = [](const char* id, const QString& label, int column) {
        return zone(QString::fromLatin1(id), ZoneType::Button, label, QRect(20 + column * 50, 300, 42, 28));
    };
    const ZoneMap map(1, 0, QSize(800, 600),
                      {key("plus", QStringLiteral("+"), 0), key("minus", QStringLiteral("-"), 1),
                       key("equals", QStringLiteral("="), 2), key("divide", QStringLiteral("\u00F7"), 3),
                       key("seven", QStringLiteral("7"), 4), key("inverse", QStringLiteral("1/x"), 5),
                       key("open", QStringLiteral("("), 6), key("times", QStringLiteral("\u00D7"), 7)});
    const QList<std::pair<QString, QString>> cases = {
        {QStringLiteral("+"), QStringLiteral("plus")},   {QStringLiteral("="), QStringLiteral("equals")},
        {QStringLiteral("-"), QStringLiteral("minus")},  {QStringLiteral("\u2212"), QStringLiteral("minus")},
        {QStringLiteral("/"), QStringLiteral("divide")}, {QStringLiteral("\u00F7"), QStringLiteral("divide")},
        {QStringLiteral("*"), QStringLiteral("times")},  {QStringLiteral("("), QStringLiteral("open")},
        {QStringLiteral("7"), QStringLiteral("seven")},  {QStringLiteral("1/x"), QStringLiteral("inverse")},
    };
    for (const auto& [name, id] : cases) {
        const auto r = ZoneResolver::resolve(name, map, ZoneResolver::Purpose::Click);
        QVERIFY2(r.zone, qPrintable(name + QStringLiteral(": ") + r.error));
        QCOMPARE(r.zone->id, id);
    }
    // A symbol never matches a word or another symbol.
    auto r = ZoneResolver::resolve(QStringLiteral("%"), map, ZoneResolver::Purpose::Click);
    QVERIFY(!r.zone);
    QVERIFY2(r.error.contains(QLatin1String("no zone matches")), qPrintable(r.error));
    QCOMPARE(ZoneResolver::similarity(QStringLiteral("+"), QStringLiteral("Add")), 0.0);
    r = ZoneResolver::resolve(QStringLiteral("   "), map, ZoneResolver::Purpose::Click);
    QVERIFY(!r.zone);
    QVERIFY2(r.error.contains(QLatin1String("not a usable")), qPrintable(r.error));
    // And the command language takes them.
    const ScriptParseResult parsed = parseScript(QStringLiteral("click 7; click +; click 5; click ="));
    QVERIFY2(parsed.ok(), qPrintable(parsed.error ? parsed.error->toString() : QString()));
    QCOMPARE(parsed.commands.size(), 4);
    QCOMPARE(parsed.commands.at(1).toString(), QStringLiteral("click \"+\""));
    QCOMPARE(parsed.commands.at(3).toString(), QStringLiteral("click \"=\""));
}

void TestLocalPlanner::ambiguous()
{
    const ZoneMap map(
        1, 0, QSize(800, 600),
        {zone(QStringLiteral("a"), ZoneType::Button, QStringLiteral("OK"), QRect(10, 10, 50, 20)),
         zone(QStringLiteral("b"), ZoneType::Button, QStringLiteral("Ok"), QRect(300, 300, 50, 20)),
         zone(QStringLiteral("c"), ZoneType::Button, QStringLiteral("Cancel"), QRect(400, 300, 50, 20))});
    const auto r = ZoneResolver::resolve(QStringLiteral("ok"), map);
    QVERIFY(!r.zone);
    QVERIFY(r.ambiguous);
    QVERIFY2(r.error.contains(QStringLiteral("ambiguous")), qPrintable(r.error));
    QVERIFY(r.error.contains(QStringLiteral("a button \"OK\"")));
    QVERIFY(r.error.contains(QStringLiteral("b button \"Ok\"")));
    QVERIFY(!r.error.contains(QStringLiteral("Cancel")));
    QVERIFY(r.error.contains(QStringLiteral("#")));
}

void TestLocalPlanner::zoneUnderAWindowAboveIsNoCandidate()
{
    // A Qt editor's toolbar "Save" (window 1) under its modal Save dialog (window 2) with its own "Save".
    Zone toolbar =
        zone(QStringLiteral("tool"), ZoneType::Button, QStringLiteral("Save"), QRect(362, 183, 33, 32));
    toolbar.windowId = 1;
    Zone dialog =
        zone(QStringLiteral("dlg"), ZoneType::Button, QStringLiteral("Save"), QRect(863, 528, 80, 25));
    dialog.windowId = 2;
    const ZoneMap map(1, 0, QSize(1280, 800), {toolbar, dialog});
    platform::WindowInfo editor;
    editor.id = 1;
    editor.geometry = QRect(290, 157, 700, 500);
    platform::WindowInfo saveAs;
    saveAs.id = 2;
    saveAs.geometry = QRect(324, 180, 630, 415);
    // Without the windows both are candidates.
    QVERIFY(ZoneResolver::resolve(QStringLiteral("Save"), map).ambiguous);
    const auto r =
        ZoneResolver::resolve(QStringLiteral("Save"), map, ZoneResolver::Purpose::Click, {editor, saveAs});
    QVERIFY2(r.zone, qPrintable(r.error));
    QCOMPARE(r.zone->id, QStringLiteral("dlg"));
    // The stacking decides, not the overlap: with the editor raised above the dialog, its button shows and
    // the dialog's (centre under the editor) does not.
    const auto raised =
        ZoneResolver::resolve(QStringLiteral("Save"), map, ZoneResolver::Purpose::Click, {saveAs, editor});
    QVERIFY2(raised.zone, qPrintable(raised.error));
    QCOMPARE(raised.zone->id, QStringLiteral("tool"));
    // A zone whose window is not listed (or unknown) stays a candidate.
    toolbar.windowId = 0;
    QVERIFY(ZoneResolver::resolve(QStringLiteral("Save"), ZoneMap(1, 0, QSize(1280, 800), {toolbar, dialog}),
                                  ZoneResolver::Purpose::Click, {editor, saveAs})
                .ambiguous);
}

void TestLocalPlanner::sameZoneSeenTwiceIsOne()
{
    // A label read from the tree and OCR'd again a pixel off: one label, and the field beside it is found.
    QList<Zone> zones = formMap().zones();
    Zone tree = zones[0]; // "Name:"
    tree.id = QStringLiteral("z50");
    tree.bounds.translate(1, 0);
    tree.source = ZoneSource::Accessibility;
    zones << tree;
    const ZoneResolver::Result r = ZoneResolver::resolve(
        QStringLiteral("Name"), ZoneMap(1, 0, QSize(1280, 800), zones), ZoneResolver::Purpose::TypeInto);
    QVERIFY2(r.zone, qPrintable(r.error));
    QCOMPARE(r.zone->id, QStringLiteral("z2"));
    // The tree's label widget is wider than the OCR'd text in it.
    zones.last().bounds = QRect(18, 58, 64, 24);
    const ZoneResolver::Result wide = ZoneResolver::resolve(
        QStringLiteral("Name"), ZoneMap(1, 0, QSize(1280, 800), zones), ZoneResolver::Purpose::TypeInto);
    QVERIFY2(wide.zone, qPrintable(wide.error));
    QCOMPARE(wide.zone->id, QStringLiteral("z2"));
    // Two labels apart from each other stay ambiguous.
    zones.last().bounds.translate(0, 300);
    QVERIFY(ZoneResolver::resolve(QStringLiteral("Name"), ZoneMap(1, 0, QSize(1280, 800), zones),
                                  ZoneResolver::Purpose::Click)
                .ambiguous);
}

void TestLocalPlanner::exactLabelWinsATie()
{
    // A window with "Page 2" and four tabs "page 2": the name written exactly wins before "ambiguous".
    QList<Zone> zones{
        zone(QStringLiteral("t0"), ZoneType::Tab, QStringLiteral("Page 2"), QRect(10, 10, 60, 20))};
    for (int i = 1; i <= 4; ++i)
        zones << zone(QStringLiteral("t%1").arg(i), ZoneType::Tab, QStringLiteral("page 2"),
                      QRect(10 + 70 * i, 10, 60, 20));
    const ZoneMap tabs(1, 0, QSize(800, 600), zones);
    const auto exact = ZoneResolver::resolve(QStringLiteral("Page 2"), tabs);
    QVERIFY2(exact.zone, qPrintable(exact.error));
    QCOMPARE(exact.zone->id, QStringLiteral("t0"));
    // Four written exactly so: still ambiguous.
    const auto four = ZoneResolver::resolve(QStringLiteral("page 2"), tabs);
    QVERIFY(!four.zone);
    QVERIFY(four.ambiguous);
    // Exact beats equal-but-for-case, which beats the fuzzy matches.
    const ZoneMap buttons(
        1, 0, QSize(800, 600),
        {zone(QStringLiteral("a"), ZoneType::Button, QStringLiteral("OK"), QRect(10, 10, 50, 20)),
         zone(QStringLiteral("b"), ZoneType::Button, QStringLiteral("Ok"), QRect(300, 300, 50, 20)),
         zone(QStringLiteral("c"), ZoneType::Button, QStringLiteral("&Save"), QRect(400, 300, 50, 20)),
         zone(QStringLiteral("d"), ZoneType::Button, QStringLiteral("save"), QRect(500, 300, 50, 20))});
    QCOMPARE(ZoneResolver::resolve(QStringLiteral("OK"), buttons).zone->id, QStringLiteral("a"));
    QCOMPARE(ZoneResolver::resolve(QStringLiteral("Ok"), buttons).zone->id, QStringLiteral("b"));
    QCOMPARE(ZoneResolver::resolve(QStringLiteral("Save"), buttons).zone->id, QStringLiteral("c"));
    QVERIFY(ZoneResolver::resolve(QStringLiteral("SAVE"), buttons).ambiguous); // two equal but for case
}

void TestLocalPlanner::missing()
{
    const auto r =
        ZoneResolver::resolve(QStringLiteral("Subscribe now"), formMap(), ZoneResolver::Purpose::Toggle);
    QVERIFY(!r.zone);
    QVERIFY(!r.ambiguous);
    QVERIFY2(r.error.contains(QStringLiteral("no zone matches \"Subscribe now\"")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QStringLiteral("closest")) && r.error.contains(QStringLiteral("Subscribe")),
             qPrintable(r.error));
    const auto none = ZoneResolver::resolve(QStringLiteral("Xylophone"), formMap());
    QVERIFY(!none.zone);
    QVERIFY(none.error.contains(QStringLiteral("no zone matches")));
    const auto empty = ZoneResolver::resolve(QStringLiteral("OK"), ZoneMap());
    QVERIFY(!empty.zone);
    // Symbols are names too (calculator keys); none of the form's labels is "!!!".
    const auto junk = ZoneResolver::resolve(QStringLiteral("!!!"), formMap());
    QVERIFY(!junk.zone);
    QVERIFY2(junk.error.contains(QStringLiteral("no zone matches")), qPrintable(junk.error));
}

void TestLocalPlanner::byId()
{
    const auto r = ZoneResolver::resolve(QStringLiteral("#z5"), formMap());
    QVERIFY(r.zone);
    QCOMPARE(r.zone->label, QStringLiteral("Subscribe"));
    const auto bad = ZoneResolver::resolve(QStringLiteral("#z99"), formMap());
    QVERIFY(!bad.zone);
    QVERIFY(bad.error.contains(QStringLiteral("z99")));
}

void TestLocalPlanner::exactMenuItemBeatsLongerLabel()
{
    // An open File menu over a window with an "Open Dialog" button.
    Zone menu =
        zone(QStringLiteral("z73"), ZoneType::MenuItem, QStringLiteral("Open"), QRect(419, 128, 118, 23));
    menu.parentId = QStringLiteral("z46");
    const ZoneMap map(
        3, 0, QSize(1280, 800),
        {zone(QStringLiteral("z46"), ZoneType::MenuItem, QStringLiteral("File"), QRect(418, 87, 29, 19)),
         zone(QStringLiteral("z53"), ZoneType::Button, QStringLiteral("Open Dialog"),
              QRect(696, 694, 85, 22)),
         menu});
    const auto r = ZoneResolver::resolve(QStringLiteral("Open"), map);
    QVERIFY2(r.zone, qPrintable(r.error));
    QCOMPARE(r.zone->id, QStringLiteral("z73"));
}

void TestLocalPlanner::formSequence()
{
    LocalPlanner planner;
    QString error;
    QVERIFY(planner.begin(
        QStringLiteral("type \"Ada\" into Name; check Subscribe; select Blue in Color; click Submit"),
        &error));
    QCOMPARE(planner.plan().steps.size(), 4);
    QCOMPARE(planner.plan().steps[0].text(), QStringLiteral("Navigate to zone \"Name\" \u2192 type \"Ada\""));

    ZoneMap map = formMap();
    auto expectAction = [&](Action::Type type, const QString& zoneId, const QString& text = {}) {
        const Decision d = decideOnce(planner, map);
        QCOMPARE(int(d.kind), int(Decision::Kind::Act));
        QCOMPARE(d.actions.size(), 1);
        QCOMPARE(int(d.actions[0].action.type), int(type));
        QCOMPARE(d.actions[0].action.zoneId, zoneId);
        QCOMPARE(d.actions[0].action.text, text);
        planner.report(d.actions[0], ok());
    };
    expectAction(Action::Type::LeftClick, QStringLiteral("z2"));
    QVERIFY(planner.plan().steps[0].zoneType == ZoneType::TextField);
    expectAction(Action::Type::Key, QString(), QStringLiteral("ctrl+a")); // typing replaces what is there
    expectAction(Action::Type::TypeText, QString(), QStringLiteral("Ada"));
    QCOMPARE(int(planner.plan().steps[0].status), int(PlanStep::Status::Done));
    expectAction(Action::Type::LeftClick, QStringLiteral("z5"));
    expectAction(Action::Type::LeftClick, QStringLiteral("z4")); // opens the list
    // The list is open: its items are zones now.
    QList<Zone> zones = map.zones();
    zones.append(
        zone(QStringLiteral("z20"), ZoneType::MenuItem, QStringLiteral("Red"), QRect(90, 142, 300, 20)));
    zones.append(
        zone(QStringLiteral("z21"), ZoneType::MenuItem, QStringLiteral("Green"), QRect(90, 162, 300, 20)));
    zones.append(
        zone(QStringLiteral("z22"), ZoneType::MenuItem, QStringLiteral("Blue"), QRect(90, 182, 300, 20)));
    map = ZoneMap(2, 0, map.screenSize(), zones);
    expectAction(Action::Type::LeftClick, QStringLiteral("z22"));
    QCOMPARE(int(planner.plan().steps[2].status), int(PlanStep::Status::Done));
    expectAction(Action::Type::LeftClick, QStringLiteral("z9"));
    const Decision done = decideOnce(planner, map);
    QCOMPARE(int(done.kind), int(Decision::Kind::Complete));
    QCOMPARE(int(planner.plan().status), int(Plan::Status::Completed));
    QCOMPARE(planner.plan().count(PlanStep::Status::Done), 4);
}

// `click "<name>"` with a name from the program's app schema: the zone the schema named (a detection at its
// place) and the zone the schema added where nothing was detected.
void TestLocalPlanner::clickSchemaNamedZone()
{
    platform::WindowInfo window;
    window.id = 5;
    window.windowClass = QStringLiteral("Mousepad");
    window.geometry = QRect(0, 40, 1280, 760);
    const QList<NamedZone> named{
        {QStringLiteral("Confirm"), QRect(20, 460, 80, 30), ZoneType::Button},
        {QStringLiteral("Side panel toggle"), QRect(1200, 0, 40, 30), ZoneType::Button}};
    const ZoneMap map(1, 0, QSize(1280, 800), applySchemaZones(named, window, formMap().zones(), {window}));
    LocalPlanner planner;
    QString error;
    QVERIFY2(planner.begin(QStringLiteral("click \"Confirm\"; click \"Side panel toggle\""), &error),
             qPrintable(error));
    Decision d = decideOnce(planner, map);
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("z7")); // the detected OK button, named Confirm
    planner.report(d.actions[0], ok());
    d = decideOnce(planner, map);
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(d.actions[0].action.zoneId, schemaZoneId(5, QStringLiteral("Side panel toggle")));
    QCOMPARE(int(d.actions[0].action.type), int(Action::Type::LeftClick));
}

void TestLocalPlanner::checkAlreadyChecked()
{
    LocalPlanner planner;
    QString error;
    QVERIFY(planner.begin(QStringLiteral("check Subscribe then click OK"), &error));
    const Decision d = decideOnce(planner, formMap(ZoneStateFlag::Enabled | ZoneStateFlag::Checked));
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("z7")); // the check box needed nothing
    QCOMPARE(int(planner.plan().steps[0].status), int(PlanStep::Status::Skipped));
}

// The form with the Color drop-down (z4) open: `options` listed under it, 24 px apart, from `first`.
ZoneMap openList(const QStringList& options, int version = 2)
{
    QList<Zone> zones = formMap().zones();
    for (int i = 0; i < options.size(); ++i)
        zones << zone(QStringLiteral("z5%1").arg(i), ZoneType::MenuItem, options[i],
                      QRect(90, 143 + 24 * i, 300, 24));
    return ZoneMap(version, 0, QSize(1280, 800), zones);
}

// Runs `script` from its first decision on `maps` (the map after each action, the last repeated; a decision
// to look again gets the same map), reporting each action done, until the planner stops acting; returns the
// actions it proposed.
QList<ProposedAction> runScript(LocalPlanner& planner, const QString& script, const QList<ZoneMap>& maps,
                                Decision* last)
{
    QString error;
    if (!planner.begin(script, &error))
        return {};
    QList<ProposedAction> actions;
    for (int i = 0; i < 60; ++i) {
        *last = decideOnce(planner, maps[std::min(int(actions.size()), int(maps.size()) - 1)]);
        if (last->kind == Decision::Kind::Reanalyze)
            continue;
        if (last->kind != Decision::Kind::Act)
            break;
        actions << last->actions[0];
        planner.report(last->actions[0], ok());
    }
    return actions;
}

// "select OPTION in Color" (runScript()).
QList<ProposedAction> runSelect(LocalPlanner& planner, const QString& option, const QList<ZoneMap>& maps,
                                Decision* last)
{
    return runScript(planner, QStringLiteral("select %1 in Color").arg(option), maps, last);
}

// A select that typed "Blue" (after opening Color, z4) and pressed Return, checked on the drop-down.
void verifyTypedThenReturn(const Decision& last, const QList<ProposedAction>& actions)
{
    QCOMPARE(int(last.kind), int(Decision::Kind::Complete));
    QCOMPARE(actions.size(), 3);
    QCOMPARE(int(actions[1].action.type), int(Action::Type::TypeText));
    QCOMPARE(actions[1].action.text, QStringLiteral("Blue"));
    QCOMPARE(actions[2].action.text, QStringLiteral("Return"));
    QCOMPARE(int(actions[2].expect.kind), int(Expectation::Kind::ShowsText));
    QCOMPARE(actions[2].focusZoneId, QStringLiteral("z4"));
}

void TestLocalPlanner::selectClicksTheOptionInTheOpenList()
{
    LocalPlanner planner;
    Decision last;
    const QList<ProposedAction> actions = runSelect(
        planner, QStringLiteral("Blue"),
        {formMap(),
         openList(QStringList{QStringLiteral("Red"), QStringLiteral("Green"), QStringLiteral("Blue")})},
        &last);
    QCOMPARE(int(last.kind), int(Decision::Kind::Complete));
    QCOMPARE(actions.size(), 2);
    QCOMPARE(actions[0].action.zoneId, QStringLiteral("z4"));
    QCOMPARE(actions[1].action.zoneId, QStringLiteral("z52"));
    // The choice is checked on the drop-down: it must show the option afterwards.
    QCOMPARE(int(actions[1].expect.kind), int(Expectation::Kind::ShowsText));
    QCOMPARE(actions[1].expect.text, QStringLiteral("Blue"));
    QCOMPARE(actions[1].focusZoneId, QStringLiteral("z4"));
}

void TestLocalPlanner::selectClicksTheCurrentOptionOverTheDropdown()
{
    // GTK lays the list's current row over its combo box, and the map gives that row the combo's id. It is an
    // option, not the drop-down; the list's own box (labelled with its rows) is none either.
    ZoneMap open = openList(QStringList{QStringLiteral("Japan"), QStringLiteral("Peru")});
    QList<Zone> zones = open.zones();
    zones[3] =
        zone(QStringLiteral("z4"), ZoneType::MenuItem, QStringLiteral("France"), QRect(90, 119, 300, 24));
    zones << zone(QStringLiteral("z60"), ZoneType::MenuItem, QStringLiteral("Japan Peru"),
                  QRect(90, 117, 300, 80));
    open = ZoneMap(2, 0, QSize(1280, 800), zones);
    for (const QString& option : {QStringLiteral("France"), QStringLiteral("Mars")}) {
        LocalPlanner planner;
        Decision last;
        const QList<ProposedAction> actions = runSelect(planner, option, {formMap(), open}, &last);
        if (option == QLatin1String("France")) {
            QCOMPARE(int(last.kind), int(Decision::Kind::Complete));
            QCOMPARE(actions.size(), 2);
            QCOMPARE(actions[1].action.zoneId, QStringLiteral("z4"));
            QCOMPARE(int(actions[1].expect.kind), int(Expectation::Kind::ShowsText));
            continue;
        }
        QCOMPARE(int(last.kind), int(Decision::Kind::Failed));
        QVERIFY2(last.message.contains(QLatin1String("(seen: France, Japan, Peru)")),
                 qPrintable(last.message));
    }
}

void TestLocalPlanner::selectScrollsTheListToTheOption()
{
    // The list shows two options at a time; Blue is the third. The wheel turns over the list, not the
    // drop-down, and the option is clicked once it is in view.
    LocalPlanner planner;
    Decision last;
    const QList<ProposedAction> actions =
        runSelect(planner, QStringLiteral("Blue"),
                  {formMap(), openList(QStringList{QStringLiteral("Red"), QStringLiteral("Green")}),
                   openList(QStringList{QStringLiteral("Green"), QStringLiteral("Blue")}, 3)},
                  &last);
    QCOMPARE(int(last.kind), int(Decision::Kind::Complete));
    QCOMPARE(actions.size(), 3);
    QCOMPARE(int(actions[1].action.type), int(Action::Type::Scroll));
    QCOMPARE(int(actions[1].action.scrollDirection), int(platform::ScrollDirection::Down));
    QVERIFY(actions[1].action.point);
    QCOMPARE(*actions[1].action.point, QRect(90, 143, 300, 48).center());
    QCOMPARE(actions[2].action.zoneId, QStringLiteral("z51"));
}

void TestLocalPlanner::selectScrollsUpWhenTheListEndsBelow()
{
    // The list opened at its current option (the end): scrolling down shows nothing new, up shows Green.
    LocalPlanner planner;
    Decision last;
    const QList<ProposedAction> actions =
        runSelect(planner, QStringLiteral("Green"),
                  {formMap(), openList(QStringList{QStringLiteral("Blue"), QStringLiteral("Mauve")}),
                   openList(QStringList{QStringLiteral("Blue"), QStringLiteral("Mauve")}, 3),
                   openList(QStringList{QStringLiteral("Green"), QStringLiteral("Blue")}, 4)},
                  &last);
    QCOMPARE(int(last.kind), int(Decision::Kind::Complete));
    QCOMPARE(actions.size(), 4);
    QCOMPARE(int(actions[1].action.scrollDirection), int(platform::ScrollDirection::Down));
    QCOMPARE(int(actions[2].action.scrollDirection), int(platform::ScrollDirection::Up));
    QCOMPARE(actions[3].action.zoneId, QStringLiteral("z50"));
}

void TestLocalPlanner::selectOptionNotInTheListFails()
{
    // Never typed: the list is scrolled both ways, closed with Escape, and the step fails naming what the
    // list offered.
    LocalPlanner planner;
    Decision last;
    const QList<ProposedAction> actions = runSelect(
        planner, QStringLiteral("Mauve"),
        {formMap(),
         openList(QStringList{QStringLiteral("Red"), QStringLiteral("Green"), QStringLiteral("Blue")})},
        &last);
    QCOMPARE(int(last.kind), int(Decision::Kind::Failed));
    QVERIFY2(
        last.message.contains(QLatin1String("\"Mauve\" is not among the options of \"Color\" (seen: Red, "
                                            "Green, Blue)")),
        qPrintable(last.message));
    QList<Action::Type> types;
    for (const ProposedAction& a : actions)
        types << a.action.type;
    QVERIFY(types == (QList<Action::Type>{Action::Type::LeftClick, Action::Type::Scroll, Action::Type::Scroll,
                                          Action::Type::Key}));
    QCOMPARE(actions[3].action.text, QStringLiteral("Escape"));
    QCOMPARE(int(planner.plan().steps[0].status), int(PlanStep::Status::Failed));
}

void TestLocalPlanner::selectWithoutVisibleOption()
{
    // Opening showed no list: nothing to scroll, nothing typed; the step fails.
    LocalPlanner planner;
    Decision last;
    const QList<ProposedAction> actions = runSelect(planner, QStringLiteral("Blue"), {formMap()}, &last);
    QCOMPARE(int(last.kind), int(Decision::Kind::Failed));
    QVERIFY2(
        last.message.contains(QLatin1String("no option named \"Blue\" showed when \"Color\" was opened")),
        qPrintable(last.message));
    QCOMPARE(actions.size(), 2);
    QCOMPARE(int(actions[1].action.type), int(Action::Type::Key));
    QCOMPARE(actions[1].action.text, QStringLiteral("Escape"));
}

void TestLocalPlanner::selectInMergedRowsTypesTheName()
{
    // Vision read the open list's rows as one zone ("Green Blue"): nothing to click, the name is typed into
    // the open list and Return takes it; the drop-down must show it. A tree row is never typed into.
    for (const bool tree : {false, true}) {
        ZoneMap open = openList(QStringList{QStringLiteral("Green Blue")});
        QList<Zone> zones = open.zones();
        zones.last().bounds = QRect(90, 143, 300, 48);
        if (tree)
            zones.last().source = ZoneSource::Accessibility;
        open = ZoneMap(2, 0, QSize(1280, 800), zones);
        LocalPlanner planner;
        Decision last;
        const QList<ProposedAction> actions =
            runSelect(planner, QStringLiteral("Blue"), {formMap(), open}, &last);
        if (tree) {
            QCOMPARE(int(last.kind), int(Decision::Kind::Failed));
            QVERIFY(std::none_of(actions.cbegin(), actions.cend(), [](const ProposedAction& a) {
                return a.action.type == Action::Type::TypeText;
            }));
            continue;
        }
        verifyTypedThenReturn(last, actions);
    }
}

void TestLocalPlanner::selectInEditableDropdownTypesTheName()
{
    // An editable drop-down takes the name typed, then Return; the result is checked on the drop-down.
    QList<Zone> zones = formMap().zones();
    zones[3].state = ZoneStateFlag::Enabled | ZoneStateFlag::Editable;
    const ZoneMap map(1, 0, QSize(1280, 800), zones);
    LocalPlanner planner;
    Decision last;
    const QList<ProposedAction> actions = runSelect(planner, QStringLiteral("Blue"), {map}, &last);
    verifyTypedThenReturn(last, actions);
}

void TestLocalPlanner::expectationPerZoneType_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<int>("kind");
    QTest::newRow("button") << "click OK" << int(Expectation::Kind::AnyChange);
    QTest::newRow("tab") << "click Advanced" << int(Expectation::Kind::Selected);
    QTest::newRow("check") << "check Subscribe" << int(Expectation::Kind::StateChecked);
    QTest::newRow("drop-down") << "click Red" << int(Expectation::Kind::AnyChange);
}

void TestLocalPlanner::expectationPerZoneType()
{
    QFETCH(QString, task);
    QFETCH(int, kind);
    QList<Zone> zones = formMap().zones();
    zones << zone(QStringLiteral("z40"), ZoneType::Tab, QStringLiteral("Advanced"), QRect(400, 20, 90, 24));
    const ZoneMap map(1, 0, QSize(1280, 800), zones);
    LocalPlanner planner;
    QString error;
    QVERIFY(planner.begin(task, &error));
    const Decision d = decideOnce(planner, map);
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(int(d.actions[0].expect.kind), kind);
}

void TestLocalPlanner::selectShowingTheOptionIsSkipped()
{
    // A drop-down from the tree names itself ("Country") and holds its choice as its value.
    QList<Zone> zones = formMap().zones();
    zones[3].label = QStringLiteral("Color");
    zones[3].value = QStringLiteral("Blue");
    zones[3].source = ZoneSource::Accessibility;
    const ZoneMap map(1, 0, QSize(1280, 800), zones);
    LocalPlanner planner;
    QString error;
    QVERIFY(planner.begin(QStringLiteral("select Blue in Color"), &error));
    QCOMPARE(int(decideOnce(planner, map).kind), int(Decision::Kind::Complete));
    QCOMPARE(planner.plan().count(PlanStep::Status::Skipped), 1);
}

void TestLocalPlanner::missingZoneReanalyzesThenGivesUp()
{
    LocalPlanner planner;
    QString error;
    QVERIFY(planner.begin(QStringLiteral("click Frobnicate"), &error));
    for (int i = 1; i < LocalPlanner::kMaxResolveAttempts; ++i) {
        const Decision d = decideOnce(planner, formMap());
        QCOMPARE(int(d.kind), int(Decision::Kind::Reanalyze));
        QVERIFY(d.message.contains(QStringLiteral("Frobnicate")));
    }
    const Decision d = decideOnce(planner, formMap());
    QCOMPARE(int(d.kind), int(Decision::Kind::Impossible));
    QVERIFY2(d.message.contains(QStringLiteral("no zone matches \"Frobnicate\"")), qPrintable(d.message));
    QCOMPARE(int(planner.plan().status), int(Plan::Status::Failed));
}

void TestLocalPlanner::unnamedIconButtonsAreHoveredForTheirTooltips()
{
    // A tool bar of three icon buttons vision could not name, right to left on the map; beside them an
    // unnamed box too large for an icon, an unnamed button of the tree and a disabled one: never hovered.
    // A tooltip reading "Save" is up all along.
    const auto toolBar = [](const QString& u2Label, const QString& u3Label) {
        QList<Zone> zones = formMap().zones();
        zones << zone(QStringLiteral("u3"), ZoneType::Button, u3Label, QRect(84, 24, 28, 28))
              << zone(QStringLiteral("u2"), ZoneType::Button, u2Label, QRect(52, 24, 28, 28))
              << zone(QStringLiteral("u1"), ZoneType::Button, QString(), QRect(20, 24, 28, 28))
              << zone(QStringLiteral("big"), ZoneType::Button, QString(), QRect(400, 300, 200, 150));
        // A tooltip up (read as a button): its text is no target.
        Zone tip =
            zone(QStringLiteral("tip"), ZoneType::Button, QStringLiteral("Save"), QRect(60, 56, 40, 20));
        tip.temporary = true;
        zones << tip;
        Zone tree = zone(QStringLiteral("a1"), ZoneType::Button, QString(), QRect(116, 24, 28, 28));
        tree.source = ZoneSource::Accessibility;
        zones << tree
              << zone(QStringLiteral("off"), ZoneType::Button, QString(), QRect(148, 24, 28, 28),
                      ZoneStateFlag::Disabled);
        return ZoneMap(1, 0, QSize(1280, 800), zones);
    };
    auto hovers = [](const Decision& d, const QString& id) {
        return d.kind == Decision::Kind::Act && d.actions.size() == 1 &&
               d.actions.first().action.type == Action::Type::MouseMove &&
               d.actions.first().action.zoneId == id && d.actions.first().awaitLabelOf == id;
    };

    LocalPlanner planner;
    QString error;
    QVERIFY(planner.begin(QStringLiteral("click Save; click OK"), &error));
    for (int i = 1; i < LocalPlanner::kMaxResolveAttempts; ++i)
        QCOMPARE(int(decideActing(planner, toolBar({}, {})).kind), int(Decision::Kind::Reanalyze));
    // The re-analyses found no "Save": the unnamed icons are hovered in reading order, one at a time.
    Decision d = decideActing(planner, toolBar({}, {}));
    QVERIFY2(hovers(d, QStringLiteral("u1")), qPrintable(d.message));
    planner.report(d.actions.first(), ok());
    QCOMPARE(planner.plan().currentStep, 1); // a hover is no step
    QCOMPARE(int(planner.plan().steps.first().status), int(PlanStep::Status::Running));
    // u1 showed no tooltip, but a box read "Save" came with the hover (a tooltip not seen as one): no target.
    QList<Zone> withGhost = toolBar({}, {}).zones();
    withGhost << zone(QStringLiteral("ghost"), ZoneType::MenuItem, QStringLiteral("Save"),
                      QRect(22, 60, 60, 20));
    d = decideActing(planner, ZoneMap(2, 0, QSize(1280, 800), withGhost));
    QVERIFY2(hovers(d, QStringLiteral("u2")), qPrintable(d.message));
    planner.report(d.actions.first(), ok());
    // u2 is named "Save" by its tooltip: clicked.
    d = decideActing(planner, toolBar(QStringLiteral("Save"), {}));
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(int(d.actions.first().action.type), int(Action::Type::LeftClick));
    QCOMPARE(d.actions.first().action.zoneId, QStringLiteral("u2"));
    QVERIFY(d.actions.first().awaitLabelOf.isEmpty());
    planner.report(d.actions.first(), ok());
    QCOMPARE(planner.plan().currentStep, 2);

    // A name no tooltip gives: every unnamed icon read once, then the step gives up and says so.
    LocalPlanner missing;
    QVERIFY(missing.begin(QStringLiteral("click Frobnicate"), &error));
    for (int i = 1; i < LocalPlanner::kMaxResolveAttempts; ++i)
        decideActing(missing, toolBar({}, {}));
    QStringList hovered;
    for (int i = 0; i < 10; ++i) {
        d = decideActing(missing, toolBar(QStringLiteral("Open"), QStringLiteral("Find")));
        if (d.kind != Decision::Kind::Act)
            break;
        hovered << d.actions.first().action.zoneId;
        missing.report(d.actions.first(), ok());
    }
    QCOMPARE(hovered, QStringList({QStringLiteral("u1")})); // u2 and u3 were named meanwhile
    QCOMPARE(int(d.kind), int(Decision::Kind::Impossible));
    QVERIFY2(d.message.contains(QStringLiteral("no zone matches \"Frobnicate\"")), qPrintable(d.message));
    QVERIFY2(d.message.contains(QStringLiteral("the tooltips of 1 unnamed buttons read")),
             qPrintable(d.message));

    // A dry run moves no pointer: no tooltip shows, none is waited for.
    LocalPlanner dry;
    QVERIFY(dry.begin(QStringLiteral("click Save"), &error));
    for (int i = 1; i < LocalPlanner::kMaxResolveAttempts; ++i)
        decideOnce(dry, toolBar({}, {}));
    QCOMPARE(int(decideOnce(dry, toolBar({}, {})).kind), int(Decision::Kind::Impossible));
}

void TestLocalPlanner::missingZoneWaitsForAWindowsTree()
{
    // An editor whose tree is on the map, and its save dialog above it with only what vision saw so far.
    platform::WindowInfo editor;
    editor.id = 1;
    editor.title = QStringLiteral("Untitled");
    editor.windowClass = QStringLiteral("Editor");
    editor.geometry = QRect(0, 0, 800, 600);
    platform::WindowInfo dialog = editor;
    dialog.id = 2;
    dialog.title = QStringLiteral("Save as");
    dialog.geometry = QRect(100, 100, 500, 300);
    Zone file = zone(QStringLiteral("z1"), ZoneType::MenuItem, QStringLiteral("File"), QRect(0, 0, 40, 20));
    file.source = ZoneSource::Accessibility;
    file.application = editor.windowClass;
    file.windowId = editor.id;
    const Zone seen =
        zone(QStringLiteral("z2"), ZoneType::Button, QStringLiteral("Cancel"), QRect(400, 350, 80, 24));
    const ZoneMap visionOnly(1, 0, QSize(1280, 800), {file, seen});

    LocalPlanner planner;
    QString error;
    QVERIFY(planner.begin(QStringLiteral("type \"a.txt\" into \"File name\""), &error));
    // The tree's waits first, then the re-analyses every missing zone gets.
    for (int i = 0; i < LocalPlanner::kMaxTreeWaits; ++i) {
        const Decision d = decideOnce(planner, visionOnly, {editor, dialog});
        QCOMPARE(int(d.kind), int(Decision::Kind::Reanalyze));
        QVERIFY2(d.message.contains(QStringLiteral("waiting for the accessibility tree of \"Save as\"")),
                 qPrintable(d.message));
    }
    for (int i = 1; i < LocalPlanner::kMaxResolveAttempts; ++i) {
        const Decision d = decideOnce(planner, visionOnly, {editor, dialog});
        QCOMPARE(int(d.kind), int(Decision::Kind::Reanalyze));
        QVERIFY2(!d.message.contains(QStringLiteral("accessibility tree")), qPrintable(d.message));
    }
    QCOMPARE(int(decideOnce(planner, visionOnly, {editor, dialog}).kind), int(Decision::Kind::Impossible));

    // Once the dialog's tree is on the map, the field is found.
    Zone field = zone(QStringLiteral("z3"), ZoneType::TextField, QStringLiteral("File name"),
                      QRect(200, 150, 300, 24));
    field.source = ZoneSource::Accessibility;
    field.application = editor.windowClass;
    field.windowId = dialog.id;
    LocalPlanner again;
    QVERIFY(again.begin(QStringLiteral("type \"a.txt\" into \"File name\""), &error));
    QCOMPARE(int(decideOnce(again, visionOnly, {editor, dialog}).kind), int(Decision::Kind::Reanalyze));
    const Decision found =
        decideOnce(again, ZoneMap(2, 0, QSize(1280, 800), {file, seen, field}), {editor, dialog});
    QCOMPARE(int(found.kind), int(Decision::Kind::Act));
    QCOMPARE(found.actions.first().action.zoneId, QStringLiteral("z3"));

    // No wait for a program without a tree on the map, nor for a window hidden by one above, nor for a
    // window of another program.
    for (const QList<platform::WindowInfo>& windows :
         {QList<platform::WindowInfo>{editor}, QList<platform::WindowInfo>{dialog, editor}}) {
        LocalPlanner plain;
        QVERIFY(plain.begin(QStringLiteral("click Frobnicate"), &error));
        const Decision d = decideOnce(plain, visionOnly, windows);
        QCOMPARE(int(d.kind), int(Decision::Kind::Reanalyze));
        QVERIFY2(!d.message.contains(QStringLiteral("accessibility tree")), qPrintable(d.message));
    }
    platform::WindowInfo other = dialog;
    other.windowClass = QStringLiteral("Other");
    LocalPlanner plain;
    QVERIFY(plain.begin(QStringLiteral("click Frobnicate"), &error));
    QVERIFY(!decideOnce(plain, visionOnly, {editor, other})
                 .message.contains(QStringLiteral("accessibility tree")));
}

void TestLocalPlanner::failedActionRetriesThenFails()
{
    LocalPlanner planner;
    QString error;
    QVERIFY(planner.begin(QStringLiteral("click OK"), &error));
    ActionOutcome failed;
    failed.status = ActionOutcome::Status::Executed;
    failed.result.success = false;
    failed.result.error = QStringLiteral("xtest refused");
    failed.retry = true;
    for (int i = 0; i <= LocalPlanner::kMaxStepRetries; ++i) {
        const Decision d = decideOnce(planner, formMap());
        QCOMPARE(int(d.kind), int(Decision::Kind::Act));
        planner.report(d.actions[0], failed);
    }
    const Decision d = decideOnce(planner, formMap());
    QCOMPARE(int(d.kind), int(Decision::Kind::Failed));
    QVERIFY2(d.message.contains(QStringLiteral("xtest refused")), qPrintable(d.message));
}

void TestLocalPlanner::dryRunOutcomesAdvance()
{
    LocalPlanner planner;
    QString error;
    QVERIFY(!planner.begin(QStringLiteral("click"), &error));
    QVERIFY(error.contains(QStringLiteral("line 1")));
    QVERIFY(planner.begin(QStringLiteral("press ctrl+s; wait 1s; launch xterm"), &error));
    ActionOutcome dry;
    dry.status = ActionOutcome::Status::DryRun;
    dry.result.success = true;
    QList<Action::Type> types;
    for (;;) {
        const Decision d = decideOnce(planner, ZoneMap());
        if (d.kind != Decision::Kind::Act)
            break;
        types << d.actions[0].action.type;
        planner.report(d.actions[0], dry);
    }
    QVERIFY(types == (QList<Action::Type>{Action::Type::Key, Action::Type::Wait, Action::Type::Launch}));
}

namespace {

// The fixture's window in front: a menu bar title, and (once File is open) its items.
ZoneMap menuMap(bool fileOpen)
{
    QList<Zone> zones{
        zone(QStringLiteral("m1"), ZoneType::MenuItem, QStringLiteral("File"), QRect(0, 0, 40, 20)),
        zone(QStringLiteral("m2"), ZoneType::MenuItem, QStringLiteral("Edit"), QRect(40, 0, 40, 20)),
        zone(QStringLiteral("m3"), ZoneType::Button, QStringLiteral("Submit"), QRect(200, 500, 80, 30),
             ZoneState(ZoneStateFlag::Enabled) | ZoneStateFlag::Focused)};
    if (fileOpen) {
        zones << zone(QStringLiteral("m4"), ZoneType::MenuItem, QStringLiteral("Save"), QRect(0, 22, 160, 20))
              << zone(QStringLiteral("m5"), ZoneType::MenuItem, QStringLiteral("Save As..."),
                      QRect(0, 44, 160, 20));
    }
    for (Zone& z : zones)
        z.application = QStringLiteral("Fixture");
    return ZoneMap(1, 0, QSize(1280, 800), zones);
}

// The fixture's window with File open, its rows as read from the screen (accelerators at their right) or
// from the tree (`rowSource`).
ZoneMap readMenuMap(ZoneSource rowSource)
{
    QList<Zone> zones = menuMap(false).zones();
    zones << zone(QStringLiteral("v1"), ZoneType::MenuItem, QStringLiteral("Save            Ctrl+S"),
                  QRect(0, 22, 200, 20))
          << zone(QStringLiteral("v2"), ZoneType::MenuItem, QStringLiteral("Save As...  Shift+Ctrl+S"),
                  QRect(0, 44, 200, 20))
          << zone(QStringLiteral("v3"), ZoneType::MenuItem, QStringLiteral("Recent Files"),
                  QRect(0, 66, 200, 20))
          << zone(QStringLiteral("v4"), ZoneType::Button, QStringLiteral("Reload  F5"),
                  QRect(300, 300, 80, 24));
    for (Zone& z : zones) {
        z.application = QStringLiteral("Fixture");
        if (z.id.startsWith(QLatin1Char('v')))
            z.source = rowSource;
    }
    return ZoneMap(2, 0, QSize(1280, 800), zones);
}

// Save As… = ctrl+shift+s, under File unless `menu` is false.
AppSchema fixtureShortcuts(ShortcutSource source = ShortcutSource::Schema, qint64 verifiedAtMs = 0,
                           bool menu = true)
{
    AppSchema schema;
    schema.application = QStringLiteral("Fixture");
    Shortcut s;
    s.action = QStringLiteral("Save As…");
    s.keys = QStringLiteral("ctrl+shift+s");
    if (menu)
        s.menu = QStringLiteral("File > Save As…");
    s.source = source;
    s.verifiedAtMs = verifiedAtMs;
    schema.shortcuts << s;
    return schema;
}

} // namespace

void TestLocalPlanner::invokeByShortcut_data()
{
    QTest::addColumn<int>("source");
    QTest::addColumn<qint64>("verifiedAtMs");
    // Keys that had their effect before, or that a person checked.
    QTest::newRow("verified, from the tree") << int(ShortcutSource::Atspi) << qint64(1000);
    QTest::newRow("verified, from the screen") << int(ShortcutSource::Vision) << qint64(1000);
    QTest::newRow("shipped schema") << int(ShortcutSource::Schema) << qint64(0);
    QTest::newRow("the user's") << int(ShortcutSource::User) << qint64(0);
}

void TestLocalPlanner::invokeByShortcut()
{
    QFETCH(int, source);
    QFETCH(qint64, verifiedAtMs);
    LocalPlanner planner;
    QStringList asked;
    planner.setShortcutLookup([&](const QString& application) {
        asked << application;
        return std::optional<AppSchema>(fixtureShortcuts(ShortcutSource(source), verifiedAtMs));
    });
    QStringList verified;
    planner.setShortcutVerified([&](const QString& application, const QString& action) {
        verified << application + QLatin1Char('/') + action;
    });
    QString error;
    QVERIFY(planner.begin(QStringLiteral("invoke \"save as...\""), &error));
    const Decision d = decideOnce(planner, menuMap(false));
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(int(d.actions[0].action.type), int(Action::Type::Key));
    QCOMPARE(d.actions[0].action.text, QStringLiteral("ctrl+shift+s"));
    QCOMPARE(int(d.actions[0].expect.kind), int(Expectation::Kind::AnyChange));
    QCOMPARE(asked, QStringList{QStringLiteral("Fixture")}); // the focused zone's program
    planner.report(d.actions[0], ok());
    QCOMPARE(verified, QStringList{QStringLiteral("Fixture/save as...")});
    QCOMPARE(int(decideOnce(planner, menuMap(false)).kind), int(Decision::Kind::Complete));
}

void TestLocalPlanner::invokeFallsBackToMenuPath()
{
    LocalPlanner planner;
    planner.setShortcutLookup([](const QString&) { return std::optional<AppSchema>(fixtureShortcuts()); });
    int verifiedCalls = 0;
    planner.setShortcutVerified([&](const QString&, const QString&) { ++verifiedCalls; });
    QString error;
    QVERIFY(planner.begin(QStringLiteral("invoke \"Save As…\""), &error));
    Decision d = decideOnce(planner, menuMap(false));
    QCOMPARE(d.actions[0].action.text, QStringLiteral("ctrl+shift+s"));
    // The keys showed no effect: the retry walks the menu path, File then the item (not "Save").
    ActionOutcome noEffect = ok();
    noEffect.verificationFailed = true;
    planner.report(d.actions[0], noEffect);
    QCOMPARE(verifiedCalls, 0);
    d = decideOnce(planner, menuMap(false));
    QCOMPARE(int(d.actions[0].action.type), int(Action::Type::LeftClick));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("m1"));
    planner.report(d.actions[0], ok());
    d = decideOnce(planner, menuMap(true));
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("m5"));
    planner.report(d.actions[0], ok());
    QCOMPARE(int(decideOnce(planner, menuMap(false)).kind), int(Decision::Kind::Complete));
    QCOMPARE(verifiedCalls, 0);

    // A path named in the command needs no knowledge.
    LocalPlanner bare;
    bare.setShortcutLookup([](const QString&) { return std::optional<AppSchema>(); });
    QVERIFY(bare.begin(QStringLiteral("invoke \"Edit > Paste\""), &error));
    d = decideOnce(bare, menuMap(false));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("m2"));
}

void TestLocalPlanner::invokeUnverifiedKeysUseTheMenuPath_data()
{
    QTest::addColumn<int>("source");
    QTest::newRow("from the tree") << int(ShortcutSource::Atspi);
    QTest::newRow("from the screen") << int(ShortcutSource::Vision);
}

void TestLocalPlanner::invokeUnverifiedKeysUseTheMenuPath()
{
    // Keys read from the tree or the screen and never seen working: the menu path, no key pressed.
    QFETCH(int, source);
    LocalPlanner planner;
    planner.setShortcutLookup(
        [&](const QString&) { return std::optional<AppSchema>(fixtureShortcuts(ShortcutSource(source))); });
    int verifiedCalls = 0;
    planner.setShortcutVerified([&](const QString&, const QString&) { ++verifiedCalls; });
    QString error;
    QVERIFY(planner.begin(QStringLiteral("invoke \"Save As…\""), &error));
    QList<Action::Type> types;
    QStringList clicked;
    for (const ZoneMap& map : {menuMap(false), menuMap(true)}) {
        const Decision d = decideOnce(planner, map);
        QCOMPARE(int(d.kind), int(Decision::Kind::Act));
        types << d.actions[0].action.type;
        clicked << d.actions[0].action.zoneId;
        planner.report(d.actions[0], ok());
    }
    QVERIFY(types == (QList<Action::Type>{Action::Type::LeftClick, Action::Type::LeftClick}));
    QCOMPARE(clicked, (QStringList{QStringLiteral("m1"), QStringLiteral("m5")}));
    QCOMPARE(planner.plan().steps.at(0).description, QStringLiteral("Invoke File > Save As…"));
    QCOMPARE(int(decideOnce(planner, menuMap(false)).kind), int(Decision::Kind::Complete));
    QCOMPARE(verifiedCalls, 0);
}

void TestLocalPlanner::invokeUnverifiedKeysWithoutMenuPath()
{
    // No menu path known: the keys are tried, and once they had their effect they are verified.
    LocalPlanner planner;
    planner.setShortcutLookup([](const QString&) {
        return std::optional<AppSchema>(fixtureShortcuts(ShortcutSource::Atspi, 0, false));
    });
    QStringList verified;
    planner.setShortcutVerified([&](const QString& application, const QString& action) {
        verified << application + QLatin1Char('/') + action;
    });
    QString error;
    QVERIFY(planner.begin(QStringLiteral("invoke \"Save As…\""), &error));
    Decision d = decideOnce(planner, menuMap(false));
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(int(d.actions[0].action.type), int(Action::Type::Key));
    QCOMPARE(d.actions[0].action.text, QStringLiteral("ctrl+shift+s"));
    // No effect seen: with no menu to fall back on, the keys again.
    ActionOutcome noEffect = ok();
    noEffect.verificationFailed = true;
    planner.report(d.actions[0], noEffect);
    QVERIFY(verified.isEmpty());
    d = decideOnce(planner, menuMap(false));
    QCOMPARE(int(d.actions[0].action.type), int(Action::Type::Key));
    QCOMPARE(d.actions[0].action.text, QStringLiteral("ctrl+shift+s"));
    planner.report(d.actions[0], ok());
    QCOMPARE(verified, QStringList{QStringLiteral("Fixture/Save As…")});
    QCOMPARE(int(decideOnce(planner, menuMap(false)).kind), int(Decision::Kind::Complete));
}

namespace {

// The fixture's window once "Save As…" ran: its dialog.
ZoneMap saveDialogMap()
{
    QList<Zone> zones = menuMap(false).zones();
    zones << zone(QStringLiteral("d1"), ZoneType::Static, QStringLiteral("Save File"),
                  QRect(300, 200, 90, 20))
          << zone(QStringLiteral("d2"), ZoneType::TextField, QStringLiteral("File name"),
                  QRect(300, 240, 200, 24))
          << zone(QStringLiteral("d3"), ZoneType::Button, QStringLiteral("OK"), QRect(420, 300, 60, 24));
    for (Zone& z : zones)
        z.application = QStringLiteral("Fixture");
    return ZoneMap(2, 0, QSize(1280, 800), zones);
}

} // namespace

void TestLocalPlanner::invokeKeepsWhatTheMenuPathShowed()
{
    // Keys from the tree, never pressed: the menu path, and what its last click showed is kept.
    LocalPlanner planner;
    planner.setShortcutLookup(
        [](const QString&) { return std::optional<AppSchema>(fixtureShortcuts(ShortcutSource::Atspi)); });
    QStringList effects;
    planner.setShortcutEffectSeen(
        [&](const QString& application, const QString& action, const QString& label) {
            effects << application + QLatin1Char('/') + action + QLatin1Char('/') + label;
        });
    planner.setShortcutVerified([](const QString&, const QString&) { QFAIL("no keys were pressed"); });
    QString error;
    QVERIFY(planner.begin(QStringLiteral("invoke \"Save As…\""), &error));
    Decision d = decideOnce(planner, menuMap(false));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("m1"));
    planner.report(d.actions[0], ok());
    d = decideOnce(planner, menuMap(true));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("m5"));
    ActionOutcome shown = ok();
    shown.mapAfter = std::make_shared<const ZoneMap>(saveDialogMap());
    planner.report(d.actions[0], shown);
    // The topmost new label, not "File name" below it nor "OK" (too short).
    QCOMPARE(effects, QStringList{QStringLiteral("Fixture/Save As…/Save File")});

    // A click whose effect was not seen keeps nothing.
    LocalPlanner unseen;
    unseen.setShortcutLookup(
        [](const QString&) { return std::optional<AppSchema>(fixtureShortcuts(ShortcutSource::Atspi)); });
    unseen.setShortcutEffectSeen(
        [&](const QString&, const QString&, const QString&) { QFAIL("nothing seen"); });
    QVERIFY(unseen.begin(QStringLiteral("invoke \"Save As…\""), &error));
    d = decideOnce(unseen, menuMap(false));
    unseen.report(d.actions[0], ok());
    d = decideOnce(unseen, menuMap(true));
    ActionOutcome failed = shown;
    failed.verificationFailed = true;
    unseen.report(d.actions[0], failed);
}

void TestLocalPlanner::invokeTreeKeysCheckedByTheMenusEffect()
{
    // Keys from the tree whose menu path showed "Save File": pressed first, and they must show it too.
    AppSchema schema = fixtureShortcuts(ShortcutSource::Atspi);
    schema.shortcuts[0].effect = QStringLiteral("Save File");
    LocalPlanner planner;
    planner.setShortcutLookup([&](const QString&) { return std::optional<AppSchema>(schema); });
    QStringList verified;
    planner.setShortcutVerified([&](const QString& application, const QString& action) {
        verified << application + QLatin1Char('/') + action;
    });
    QString error;
    QVERIFY(planner.begin(QStringLiteral("invoke \"Save As…\""), &error));
    Decision d = decideOnce(planner, menuMap(false));
    QCOMPARE(int(d.actions[0].action.type), int(Action::Type::Key));
    QCOMPARE(d.actions[0].action.text, QStringLiteral("ctrl+shift+s"));
    QCOMPARE(int(d.actions[0].expect.kind), int(Expectation::Kind::ZoneAppears));
    QCOMPARE(d.actions[0].expect.text, QStringLiteral("Save File"));
    // They did not show it: through the menu, and the keys stay unverified.
    ActionOutcome other = ok();
    other.verificationFailed = true;
    planner.report(d.actions[0], other);
    d = decideOnce(planner, menuMap(false));
    QCOMPARE(int(d.actions[0].action.type), int(Action::Type::LeftClick));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("m1"));
    QVERIFY(verified.isEmpty());

    // They showed it: verified, and the step is done.
    LocalPlanner again;
    again.setShortcutLookup([&](const QString&) { return std::optional<AppSchema>(schema); });
    again.setShortcutVerified([&](const QString& application, const QString& action) {
        verified << application + QLatin1Char('/') + action;
    });
    QVERIFY(again.begin(QStringLiteral("invoke \"Save As…\""), &error));
    d = decideOnce(again, menuMap(false));
    again.report(d.actions[0], ok());
    QCOMPARE(verified, QStringList{QStringLiteral("Fixture/Save As…")});
    QCOMPARE(int(decideOnce(again, saveDialogMap()).kind), int(Decision::Kind::Complete));

    // The label on the screen already would prove nothing: the menu path.
    LocalPlanner shown;
    shown.setShortcutLookup([&](const QString&) { return std::optional<AppSchema>(schema); });
    QVERIFY(shown.begin(QStringLiteral("invoke \"Save As…\""), &error));
    QCOMPARE(int(decideOnce(shown, saveDialogMap()).actions[0].action.type), int(Action::Type::LeftClick));
    // Keys read from the screen are never tried first on an effect (a misread key may do harm).
    schema.shortcuts[0].source = ShortcutSource::Vision;
    LocalPlanner vision;
    vision.setShortcutLookup([&](const QString&) { return std::optional<AppSchema>(schema); });
    QVERIFY(vision.begin(QStringLiteral("invoke \"Save As…\""), &error));
    QCOMPARE(int(decideOnce(vision, menuMap(false)).actions[0].action.type), int(Action::Type::LeftClick));
}

void TestLocalPlanner::invokeLearnsMenuRowsReadByVision()
{
    LocalPlanner planner;
    planner.setShortcutLookup([](const QString&) { return std::optional<AppSchema>(); });
    QStringList seen;
    QList<Shortcut> learned;
    planner.setShortcutsSeen([&](const QString& application, const QList<Shortcut>& shortcuts) {
        seen << application;
        learned << shortcuts;
    });
    QString error;
    QVERIFY(planner.begin(QStringLiteral("invoke \"File > Save As\""), &error));
    Decision d = decideOnce(planner, menuMap(false));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("m1"));
    QVERIFY(seen.isEmpty()); // no menu open yet
    planner.report(d.actions[0], ok());
    d = decideOnce(planner, readMenuMap(ZoneSource::Local));
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("v2"));
    QCOMPARE(seen, QStringList{QStringLiteral("Fixture")});
    QCOMPARE(learned.size(), 2); // the rows with an accelerator; not "Recent Files", not the button
    Shortcut save;
    save.action = QStringLiteral("Save");
    save.keys = QStringLiteral("ctrl+s");
    save.menu = QStringLiteral("File > Save");
    save.source = ShortcutSource::Vision;
    QCOMPARE(learned.at(0), save);
    Shortcut saveAs = save;
    saveAs.action = QStringLiteral("Save As...");
    saveAs.keys = QStringLiteral("ctrl+shift+s");
    saveAs.menu = QStringLiteral("File > Save As...");
    QCOMPARE(learned.at(1), saveAs);
    planner.report(d.actions[0], ok());
    QCOMPARE(int(decideOnce(planner, menuMap(false)).kind), int(Decision::Kind::Complete));
    QCOMPARE(seen.size(), 1);

    // Rows from the accessibility tree are not read as vision's.
    LocalPlanner tree;
    tree.setShortcutLookup([](const QString&) { return std::optional<AppSchema>(); });
    int treeSeen = 0;
    tree.setShortcutsSeen([&](const QString&, const QList<Shortcut>&) { ++treeSeen; });
    QVERIFY(tree.begin(QStringLiteral("invoke \"File > Save As\""), &error));
    d = decideOnce(tree, menuMap(false));
    tree.report(d.actions[0], ok());
    d = decideOnce(tree, readMenuMap(ZoneSource::Accessibility));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("v2"));
    QCOMPARE(treeSeen, 0);
}

void TestLocalPlanner::invokeKeepsWhatItLearnsInTheStore()
{
    // The default hooks: the store under XDG data.
    QTemporaryDir data;
    QVERIFY(data.isValid());
    const QByteArray oldData = qgetenv("XDG_DATA_HOME");
    qputenv("XDG_DATA_HOME", data.path().toUtf8());
    const auto restore = qScopeGuard([&] {
        if (oldData.isNull())
            qunsetenv("XDG_DATA_HOME");
        else
            qputenv("XDG_DATA_HOME", oldData);
    });
    const ShortcutStore store;
    QCOMPARE(store.directory(), data.path() + QStringLiteral("/ciu-agent/shortcuts"));
    QString error;

    // A menu walked with vision's rows: what they show is kept, source vision, not verified.
    LocalPlanner walk;
    QVERIFY(walk.begin(QStringLiteral("invoke \"File > Save As\""), &error));
    Decision d = decideOnce(walk, menuMap(false));
    walk.report(d.actions[0], ok());
    d = decideOnce(walk, readMenuMap(ZoneSource::Local));
    walk.report(d.actions[0], ok());
    auto stored = store.load(QStringLiteral("Fixture"), &error);
    QVERIFY2(stored, qPrintable(error));
    QCOMPARE(stored->shortcuts.size(), 2);
    const Shortcut* saveAs = stored->find(QStringLiteral("Save As…"));
    QVERIFY(saveAs);
    QCOMPARE(saveAs->keys, QStringLiteral("ctrl+shift+s"));
    QCOMPARE(toString(saveAs->source), toString(ShortcutSource::Vision));
    QVERIFY(!saveAs->isVerified());

    // Invoked by name next: keys not yet seen working, so the menu path again.
    LocalPlanner byName;
    QVERIFY(byName.begin(QStringLiteral("invoke \"Save As…\""), &error));
    d = decideOnce(byName, menuMap(false));
    QCOMPARE(int(d.actions[0].action.type), int(Action::Type::LeftClick));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("m1"));

    // Keys with no menu path are tried; their effect marks them verified in the store.
    Shortcut quit;
    quit.action = QStringLiteral("Quit");
    quit.keys = QStringLiteral("ctrl+q");
    quit.source = ShortcutSource::Atspi;
    stored->merge(quit);
    QVERIFY2(store.save(*stored, &error), qPrintable(error));
    LocalPlanner byKeys;
    QVERIFY(byKeys.begin(QStringLiteral("invoke Quit"), &error));
    d = decideOnce(byKeys, menuMap(false));
    QCOMPARE(int(d.actions[0].action.type), int(Action::Type::Key));
    QCOMPARE(d.actions[0].action.text, QStringLiteral("ctrl+q"));
    byKeys.report(d.actions[0], ok());
    stored = store.load(QStringLiteral("Fixture"), &error);
    QVERIFY2(stored, qPrintable(error));
    QVERIFY(stored->find(QStringLiteral("Quit"))->isVerified());
    QVERIFY(!stored->find(QStringLiteral("Save As"))->isVerified());
}

void TestLocalPlanner::invokeUnknownAction()
{
    LocalPlanner planner;
    planner.setShortcutLookup([](const QString&) { return std::optional<AppSchema>(fixtureShortcuts()); });
    QString error;
    QVERIFY(planner.begin(QStringLiteral("invoke Frobnicate"), &error));
    const Decision d = decideOnce(planner, menuMap(false));
    QCOMPARE(int(d.kind), int(Decision::Kind::Impossible));
    QVERIFY2(
        d.message.contains(QStringLiteral("no shortcut or menu path is known for \"Frobnicate\" in Fixture")),
        qPrintable(d.message));
}

// `type "X"` with no target: the window the task is about takes the keys. Two windows of a program: A holds
// the form (its zones), B lies beside it.
void TestLocalPlanner::untypedTextGoesToTheWindowOfTheTask_data()
{
    QTest::addColumn<QString>("script");
    QTest::addColumn<int>("activeWindow");   // 0: none (the desktop was clicked)
    QTest::addColumn<bool>("bAppearsLater"); // B opened after the task's first action
    QTest::addColumn<int>("onlyWindow");     // 0: both windows exist; else only this one
    QTest::addColumn<int>("activates");      // the window activated before typing, 0: none; -1: fails
    QTest::newRow("active window, nothing acted on: typed there") << "type \"hi\"" << 2 << false << 0 << 0;
    QTest::newRow("no focus, one window: it is activated") << "type \"hi\"" << 0 << false << 1 << 1;
    QTest::newRow("no focus, two windows, none acted on: fails") << "type \"hi\"" << 0 << false << 0 << -1;
    QTest::newRow("no focus: the window acted on last") << "click OK; type \"hi\"" << 0 << false << 0 << 1;
    QTest::newRow("another window took the focus: back to the one acted on")
        << "click OK; type \"hi\"" << 2 << false << 0 << 1;
    QTest::newRow("a window the action opened keeps it") << "click OK; type \"hi\"" << 2 << true << 0 << 0;
    QTest::newRow("the window acted on is active") << "click OK; type \"hi\"" << 1 << false << 0 << 0;
}

void TestLocalPlanner::untypedTextGoesToTheWindowOfTheTask()
{
    QFETCH(QString, script);
    QFETCH(int, activeWindow);
    QFETCH(bool, bAppearsLater);
    QFETCH(int, onlyWindow);
    QFETCH(int, activates);
    platform::WindowInfo a;
    a.id = 1;
    a.title = QStringLiteral("Form");
    a.windowClass = QStringLiteral("Fixture");
    a.pid = 4242;
    a.geometry = QRect(0, 0, 640, 600);
    platform::WindowInfo b = a;
    b.id = 2;
    b.title = QStringLiteral("Notes");
    b.windowClass = QStringLiteral("Editor");
    b.geometry = QRect(700, 0, 500, 600);
    const auto windows = [&](bool withB) {
        QList<platform::WindowInfo> list;
        for (platform::WindowInfo w : {a, b}) {
            if ((onlyWindow != 0 && int(w.id) != onlyWindow) || (w.id == b.id && !withB))
                continue;
            w.active = int(w.id) == activeWindow;
            list << w;
        }
        return list;
    };
    LocalPlanner planner;
    QString error;
    QVERIFY2(planner.begin(script, &error), qPrintable(error));
    const ZoneMap map = formMap();
    Decision d = decideOnce(planner, map, windows(!bAppearsLater));
    if (script.startsWith(QLatin1String("click"))) {
        QCOMPARE(int(d.kind), int(Decision::Kind::Act));
        QCOMPARE(d.actions.first().action.zoneId, QStringLiteral("z7")); // OK, in window A
        planner.report(d.actions.first(), ok());
        d = decideOnce(planner, map, windows(true));
    }
    if (activates < 0) {
        QCOMPARE(int(d.kind), int(Decision::Kind::Impossible));
        QVERIFY2(d.message.contains(QStringLiteral("no window has the keyboard focus")) &&
                     d.message.contains(QStringLiteral("\"Notes\"")) &&
                     d.message.contains(QStringLiteral("\"Form\"")),
                 qPrintable(d.message));
        return;
    }
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    quint64 typedInto = quint64(activeWindow);
    if (activates > 0) {
        QCOMPARE(int(d.actions.first().action.type), int(Action::Type::ActivateWindow));
        QCOMPARE(d.actions.first().action.windowId, quint64(activates));
        planner.report(d.actions.first(), ok());
        typedInto = quint64(activates);
        d = decideOnce(planner, map, windows(true));
        QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    }
    const ProposedAction& typing = d.actions.first();
    QCOMPARE(int(typing.action.type), int(Action::Type::TypeText));
    QCOMPARE(typing.action.text, QStringLiteral("hi"));
    QCOMPARE(int(typing.expect.kind), int(Expectation::Kind::WindowShowsText));
    QCOMPARE(typing.expect.windowId, typedInto);
    planner.report(typing, ok());
    QCOMPARE(int(decideOnce(planner, map, windows(true)).kind), int(Decision::Kind::Complete));
}

// A list box (a list always open, "Fruit"): its rows are the options. Nothing is opened or closed: the row is
// clicked and must end selected; a row scrolled into view over the list; a fruit it does not have fails the
// step without a key (Escape would close the dialog), naming what it showed. "Cherry" elsewhere (a button) is
// not a row.
void TestLocalPlanner::selectInAListBox()
{
    const auto listMap = [](const QStringList& rows, int version, const QString& selected = {}) {
        QList<Zone> zones = formMap().zones() + ciu::test::listBoxZones(rows, selected);
        zones << zone(QStringLiteral("b9"), ZoneType::Button, QStringLiteral("Cherry"),
                      QRect(800, 500, 80, 30));
        return ZoneMap(version, 0, QSize(1280, 800), zones);
    };
    {
        LocalPlanner planner;
        Decision last;
        const QList<ProposedAction> actions = runScript(
            planner, QStringLiteral("select Cherry in Fruit"),
            {listMap({QStringLiteral("Apple"), QStringLiteral("Banana"), QStringLiteral("Cherry")}, 1)},
            &last);
        QCOMPARE(int(last.kind), int(Decision::Kind::Complete));
        QCOMPARE(actions.size(), 1);
        QCOMPARE(actions[0].action.zoneId, QStringLiteral("rCherry"));
        QCOMPARE(int(actions[0].expect.kind), int(Expectation::Kind::Selected));
    }
    {
        // Scrolled into view: the wheel over the list itself.
        LocalPlanner planner;
        Decision last;
        const QList<ProposedAction> actions =
            runScript(planner, QStringLiteral("select Cherry in Fruit"),
                      {listMap({QStringLiteral("Apple"), QStringLiteral("Banana")}, 1),
                       listMap({QStringLiteral("Banana"), QStringLiteral("Cherry")}, 2)},
                      &last);
        QCOMPARE(int(last.kind), int(Decision::Kind::Complete));
        QCOMPARE(actions.size(), 2);
        QCOMPARE(int(actions[0].action.type), int(Action::Type::Scroll));
        QCOMPARE(*actions[0].action.point, QRect(500, 60, 200, 80).center());
        QCOMPARE(actions[1].action.zoneId, QStringLiteral("rCherry"));
    }
    {
        // The list has not moved on the map yet after the scroll: looked at again, not taken for its end.
        LocalPlanner planner;
        QString error;
        QVERIFY(planner.begin(QStringLiteral("select Cherry in Fruit"), &error));
        const ZoneMap before = listMap({QStringLiteral("Apple"), QStringLiteral("Banana")}, 1);
        Decision d = decideOnce(planner, before);
        QCOMPARE(int(d.actions.value(0).action.type), int(Action::Type::Scroll));
        planner.report(d.actions[0], ok());
        d = decideOnce(planner, before);
        QCOMPARE(int(d.kind), int(Decision::Kind::Reanalyze));
        QVERIFY2(d.message.contains(QStringLiteral("waiting for the list of \"Fruit\" to move")),
                 qPrintable(d.message));
        d = decideOnce(planner, listMap({QStringLiteral("Banana"), QStringLiteral("Cherry")}, 2));
        QCOMPARE(int(d.kind), int(Decision::Kind::Act));
        QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("rCherry"));
    }
    {
        // Not a fruit of the list: scrolled both ways, then the step fails; no key is pressed.
        LocalPlanner planner;
        Decision last;
        const QList<ProposedAction> actions = runScript(
            planner, QStringLiteral("select Mango in Fruit"),
            {listMap({QStringLiteral("Apple"), QStringLiteral("Banana"), QStringLiteral("Cherry")}, 1)},
            &last);
        QCOMPARE(int(last.kind), int(Decision::Kind::Failed));
        QVERIFY2(last.message.contains(QLatin1String(
                     "\"Mango\" is not among the options of \"Fruit\" (seen: Apple, Banana, Cherry)")),
                 qPrintable(last.message));
        for (const ProposedAction& a : actions)
            QCOMPARE(int(a.action.type), int(Action::Type::Scroll));
    }
    {
        // Looked through both ways: the way back up goes over the rows seen going down in one scroll, of the
        // clicks that moved the list (the last scroll down met its end), then on. Every scroll waits for the
        // list box's rows to move.
        LocalPlanner planner;
        Decision last;
        const QStringList ab{QStringLiteral("Apple"), QStringLiteral("Banana")};
        const QStringList cd{QStringLiteral("Cherry"), QStringLiteral("Date")};
        const QStringList ef{QStringLiteral("Elder"), QStringLiteral("Fig")};
        const QList<ProposedAction> actions = runScript(
            planner, QStringLiteral("select Mango in Fruit"),
            {listMap(ab, 1), listMap(cd, 2), listMap(ef, 3), listMap(ef, 4), listMap(ab, 5)}, &last);
        QCOMPARE(int(last.kind), int(Decision::Kind::Failed));
        QVERIFY2(last.message.contains(QLatin1String("(seen: Apple, Banana, Cherry, Date, Elder, Fig)")),
                 qPrintable(last.message));
        QStringList scrolls;
        for (const ProposedAction& a : actions) {
            QCOMPARE(int(a.action.type), int(Action::Type::Scroll));
            QCOMPARE(a.awaitChangeIn, QRect(500, 60, 200, 80));
            scrolls << QStringLiteral("%1 %2")
                           .arg(platform::toString(a.action.scrollDirection))
                           .arg(a.action.amount);
        }
        QCOMPARE(scrolls,
                 (QStringList{QStringLiteral("down 3"), QStringLiteral("down 3"), QStringLiteral("down 3"),
                              QStringLiteral("up 6"), QStringLiteral("up 3")}));
    }
    {
        // Already selected: nothing to do.
        LocalPlanner planner;
        Decision last;
        const QList<ProposedAction> actions = runScript(
            planner, QStringLiteral("select Banana in Fruit"),
            {listMap({QStringLiteral("Apple"), QStringLiteral("Banana")}, 1, QStringLiteral("Banana"))},
            &last);
        QCOMPARE(int(last.kind), int(Decision::Kind::Complete));
        QVERIFY(actions.isEmpty());
        QCOMPARE(int(planner.plan().steps[0].status), int(PlanStep::Status::Skipped));
    }
}

// A menu ("File"): opened, its item clicked among its rows (not the "Open Dialog" button); the item's effect
// is what is checked, not the menu "showing" it.
void TestLocalPlanner::selectInAMenu()
{
    QList<Zone> open = formMap().zones();
    open << zone(QStringLiteral("m1"), ZoneType::MenuItem, QStringLiteral("New"), QRect(0, 22, 160, 22))
         << zone(QStringLiteral("m2"), ZoneType::MenuItem, QStringLiteral("Open"), QRect(0, 44, 160, 22));
    LocalPlanner planner;
    QString error;
    QVERIFY(planner.begin(QStringLiteral("select Open in File"), &error));
    Decision d = decideOnce(planner, formMap());
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("z12"));
    planner.report(d.actions[0], ok());
    d = decideOnce(planner, ZoneMap(2, 0, QSize(1280, 800), open));
    QCOMPARE(int(d.kind), int(Decision::Kind::Act));
    QCOMPARE(d.actions[0].action.zoneId, QStringLiteral("m2"));
    QCOMPARE(int(d.actions[0].expect.kind), int(Expectation::Kind::AnyChange));
    QVERIFY(!d.actions[0].expect.repeatable);
    planner.report(d.actions[0], ok());
    QCOMPARE(int(decideOnce(planner, formMap()).kind), int(Decision::Kind::Complete));
}

QTEST_GUILESS_MAIN(TestLocalPlanner)
#include "tst_localplanner.moc"
