// The Director loop with a fake executor (standing in for the brush) and hand-made zone maps: the local
// planner end to end, the seed's error table, safety (dry run, confirmations, refusal, limits), pause and
// step, speed-mode escalation; and the model loops against the fake Claude server: tool_use chains,
// is_error tool results, refusal, max_tokens, pause_turn, the cost limit, run_steps (steps by label, run
// one by one, one tool result), and the call count of the zone loop against the classic screenshot loop on
// three fixture tasks; the same through the OpenAI-compatible
// provider (tool_calls chains, a malformed reply, a 429); the MAX speed mode's recorded sequences (record,
// replay without model calls, fall back to the planner, a corrupt file ignored).

#include "core/director/director.h"
#include "core/director/modelplanner.h"
#include "core/director/secretmask.h"
#include "core/director/sequencelibrary.h"
#include "core/director/zoneresolver.h"
#include "core/model/metatypes.h"
#include "core/providers/keystore.h"
#include "tests/support/fakeapiserver.h"
#include "tests/support/testzones.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPainter>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>

using namespace ciu;
using ciu::test::FakeApiServer;

using ciu::test::zone;

namespace {

QList<Zone> formZones()
{
    return {
        zone(QStringLiteral("z1"), ZoneType::Static, QStringLiteral("Name:"), QRect(20, 60, 50, 20)),
        zone(QStringLiteral("z2"), ZoneType::TextField, QString(), QRect(90, 58, 300, 24)),
        zone(QStringLiteral("z3"), ZoneType::Static, QStringLiteral("Color:"), QRect(20, 120, 50, 20)),
        zone(QStringLiteral("z4"), ZoneType::Dropdown, QStringLiteral("Red"), QRect(90, 118, 300, 24)),
        zone(QStringLiteral("z5"), ZoneType::CheckBox, QStringLiteral("Subscribe"), QRect(20, 200, 120, 22)),
        zone(QStringLiteral("z7"), ZoneType::Button, QStringLiteral("OK"), QRect(20, 500, 80, 30)),
        zone(QStringLiteral("z8"), ZoneType::Button, QStringLiteral("Delete"), QRect(110, 500, 80, 30)),
        zone(QStringLiteral("z9"), ZoneType::Button, QStringLiteral("Submit"), QRect(200, 500, 80, 30))};
}

// The Director with a fake brush: answers every actionRequested on the next event-loop turn, and
// publishes a new zone map version after each action (the canvas saw a change).
class Harness : public QObject
{
public:
    explicit Harness(QList<Zone> zones = formZones())
        : m_zones(std::move(zones))
    {
        registerMetaTypes();
        director.setSessionClock(clock);
        publish();
        QObject::connect(&director, &Director::actionRequested, this, [this](quint64 id, const Action& a) {
            requested.append(a);
            if (!answer)
                return;
            QTimer::singleShot(0, this, [this, id, a] {
                ActionResult r = answer(a);
                if (r.actedNs == 0)
                    r.actedNs = clock.nowNs(); // the input went out now; what it changed is published next
                if (r.changeObserved && r.changes.isEmpty()) {
                    // As the real brush reports it: the change it saw, here in the zone acted on; a button's
                    // effect shows elsewhere (a status line).
                    ChangeRegion region;
                    region.rect = QRect(600, 700, 40, 20);
                    for (const Zone& z : m_zones) {
                        if (z.id == a.zoneId && z.type != ZoneType::Button && z.type != ZoneType::Link)
                            region.rect = z.bounds;
                    }
                    region.changedPercent = 60;
                    r.changes << region;
                }
                if (r.changeObserved)
                    publish();
                director.onActionFinished(id, r);
            });
        });
        QObject::connect(&director, &Director::finished, this, [this](const TaskOutcome& o) { outcome = o; });
        QObject::connect(&director, &Director::eventOccurred, this,
                         [this](const SpatialEvent& e) { events.append(e); });
        QObject::connect(&director, &Director::analysisRequested, this, [this](const QString& r) {
            analyses.append(r);
            if (onAnalysis)
                onAnalysis();
        });
        QObject::connect(&director, &Director::decisionRecorded, this,
                         [this](const QJsonObject& r) { records.append(r); });
        answer = [](const Action&) {
            ActionResult r;
            r.success = true;
            r.changeObserved = true;
            return r;
        };
        options.settleTimeoutMs = 30;
        options.reanalysisTimeoutMs = 100;
        options.actionTimeoutMs = 300;
        options.firstMapTimeoutMs = 100;
        options.dryRun = false;
        options.sequenceDir = sequences.path();                              // never the user's library
        options.taskMemoryDir = sequences.path() + QStringLiteral("/tasks"); // nor the user's past tasks
    }

    void publish()
    {
        ++m_version;
        // As the canvas publishes it: with the time of the frame it was built from (now).
        m_map = std::make_shared<const ZoneMap>(m_version, clock.nowNs(), QSize(1280, 800), m_zones);
        director.onZoneMap(m_map);
    }
    // A map built from a frame of `tNs` (the canvas still publishing what it analysed earlier).
    void publishAt(QList<Zone> zones, qint64 tNs)
    {
        m_zones = std::move(zones);
        ++m_version;
        m_map = std::make_shared<const ZoneMap>(m_version, tNs, QSize(1280, 800), m_zones);
        director.onZoneMap(m_map);
    }
    ZoneMapPtr map() const { return m_map; } // as last published
    void setZones(QList<Zone> zones)
    {
        m_zones = std::move(zones);
        publish();
    }
    bool run(const QString& task, int timeoutMs = 5000)
    {
        outcome.reset();
        director.startTask(task, options);
        return QTest::qWaitFor([this] { return outcome.has_value(); }, timeoutMs);
    }
    QStringList infos(const QString& what) const
    {
        QStringList out;
        for (const SpatialEvent& e : events) {
            if (e.data.value(QStringLiteral("what")).toString() == what)
                out << e.data.value(QStringLiteral("message")).toString();
        }
        return out;
    }

    SessionClock clock; // the session's, shared with the Director
    QTemporaryDir sequences;
    Director director;
    DirectorOptions options;
    QList<Action> requested;
    std::function<ActionResult(const Action&)> answer;
    std::function<void()> onAnalysis;
    std::optional<TaskOutcome> outcome;
    QList<SpatialEvent> events;
    QStringList analyses;
    QList<QJsonObject> records;

private:
    QList<Zone> m_zones;
    quint64 m_version = 0;
    ZoneMapPtr m_map;
};

// What a fake program shows in a field or drop-down: its text on white, as the Director reads it back.
void drawField(QImage& image, const QRect& box, const QString& text)
{
    QPainter painter(&image);
    painter.fillRect(box, Qt::white);
    painter.setPen(Qt::black);
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(14);
    painter.setFont(font);
    painter.drawText(box.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
}

ActionResult okResult(bool changed = true)
{
    ActionResult r;
    r.success = true;
    r.changeObserved = changed;
    if (changed) { // as the real brush reports it: the region that changed
        ChangeRegion region;
        region.rect = QRect(600, 700, 40, 20);
        region.changedPercent = 60;
        r.changes << region;
    }
    return r;
}

} // namespace

class TestDirector : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void localTaskCompletes();
    void typedTextReadBack_data();
    void typedTextReadBack();
    void choiceReadBack_data();
    void choiceReadBack();
    void treeCheckStateDecides();
    void buttonWithoutEffectIsNotClickedTwice();
    void secondLookSeesALateEffect_data();
    void secondLookSeesALateEffect();
    void secondLookSeesALateList();
    void lateMapOfAnEarlierFrameIsNoMenu();
    void decisionWaitsForTheScreenAfterTheAction_data();
    void decisionWaitsForTheScreenAfterTheAction();
    void secondLookReadsLateText_data();
    void secondLookReadsLateText();
    void dryRunExecutesNothing();
    void zoneNotFoundReanalyzesAndReplans();
    void impossibleWhenStillMissing();
    void wrongZoneUndoesAndReplans();
    void brushLostRecalibrates();
    void timeoutReexecutesThenFails();
    void noChangeReexecutesAndEscalates();
    void disabledZoneWaitsThenFails();
    void disabledZoneClickedOnceEnabled();
    void highRiskRefusedHeadless();
    void highRiskConfirmed();
    void highRiskDeclined();
    void secretTypedIsMaskedEverywhere_data();
    void secretTypedIsMaskedEverywhere();
    void iterationLimitNeverExceeded();
    void scrolledRowsWaitedFor();
    void pauseStepResume();
    void stopEndsTheTask();
    void takeoverPauses();
    void takeoverStopsWhenNobodyCanResume();
    void parseErrorFails();
    void model_toolUseChain();
    void model_unknownZoneIsError();
    void model_knownShortcutsTold();
    void model_knownShortcutsCapped();
    void model_offScreenRefused();
    void model_refusal();
    void model_maxTokens();
    void model_pauseTurn();
    void model_costLimit();
    void model_providerError();
    void model_callsVersusClassic();
    void model_callsVersusClassicTable();
    void model_runStepsResolvesLabelsAsTheyAppear();
    void model_runStepsMissingZoneAsksTheModel();
    void model_runStepsHighRiskConfirmed();
    void model_runStepsHighRiskDeclined();
    void model_runStepsIterationLimit();
    void model_runStepsMalformed();
    void model_runStepsDryRun();
    void model_runStepsLowSpeedAsksTheModel();
    void model_runStepsAfterZoneTools();
    void model_doneWithUnseenEffectIsUnverified_data();
    void model_doneWithUnseenEffectIsUnverified();
    void model_zoneLineCarriesTreeFields_data();
    void model_zoneLineCarriesTreeFields();
    void openai_multiStepChain();
    void openai_malformedReplyFails();
    void openai_malformedArgumentsIsError();
    void openai_rateLimitRetried();
    void sequence_recordThenReplay();
    void sequence_replayFallsBackToPlanner();
    void sequence_corruptFileIgnored();
    void sequence_notRecordedFromCoordinatesOrDryRun();

private:
    Director::BackendFactory modelFactory(FakeApiServer& server, DirectorOptions::Loop loop);
    Director::BackendFactory openAiFactory(FakeApiServer& server, DirectorOptions::Loop loop);
};

void TestDirector::initTestCase()
{
    registerMetaTypes();
    QStandardPaths::setTestModeEnabled(true);
}

void TestDirector::typedTextReadBack_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("prefilled");    // what the field holds before
    QTest::addColumn<bool>("selectAllWorks");  // the program honours ctrl+a
    QTest::addColumn<bool>("selectLineWorks"); // the program honours End, shift+Home
    QTest::addColumn<int>("result");
    QTest::newRow("replaced") << "type \"qt.txt\" into Name"
                              << "Untitled" << true << true << int(TaskOutcome::Result::Completed);
    // A program that ignores the selection appends: the field reads "Untitledqt.txt", never "completed".
    QTest::newRow("appended instead") << "type \"qt.txt\" into Name"
                                      << "Untitled" << false << false << int(TaskOutcome::Result::Unverified);
    // ctrl+a moves to the line's start there (Tk, Emacs bindings): the retry selects the line instead.
    QTest::newRow("ctrl+a is not select-all")
        << "type \"qt.txt\" into Name"
        << "Untitled" << false << true << int(TaskOutcome::Result::Completed);
    QTest::newRow("append") << "append \"qt.txt\" to Name"
                            << "Untitled" << false << false << int(TaskOutcome::Result::Completed);
}

void TestDirector::typedTextReadBack()
{
    QFETCH(QString, task);
    QFETCH(QString, prefilled);
    QFETCH(bool, selectAllWorks);
    QFETCH(bool, selectLineWorks);
    QFETCH(int, result);
    // The fake program draws its field into the frame the Director reads the text back from.
    Harness h;
    Frame frame;
    frame.index = 1;
    frame.image = QImage(1280, 800, QImage::Format_RGB32);
    frame.image.fill(Qt::lightGray);
    QString text = prefilled;
    bool selected = false;
    const QRect field(90, 58, 300, 24); // z2
    const auto draw = [&] {
        drawField(frame.image, field, text);
        ++frame.index;
        h.director.onFrame(frame);
    };
    draw();
    int typed = 0;
    h.answer = [&](const Action& a) {
        if (a.type == Action::Type::Key && a.text == QLatin1String("ctrl+a"))
            selected = selectAllWorks;
        if (a.type == Action::Type::Key && a.text == QLatin1String("End shift+Home"))
            selected = selectLineWorks;
        if (a.type == Action::Type::TypeText) {
            ++typed;
            text = selected ? a.text : text + a.text;
            selected = false;
            draw();
        }
        return okResult();
    };
    QVERIFY(h.run(task));
    QCOMPARE(int(h.outcome->result), result);
    QCOMPARE(h.outcome->success(), result == int(TaskOutcome::Result::Completed));
    if (result == int(TaskOutcome::Result::Unverified)) {
        // Retyped (each time selecting first), and the outcome says what the field showed.
        QVERIFY(typed > 1);
        QVERIFY2(h.outcome->message.contains(QLatin1String("could not be verified")),
                 qPrintable(h.outcome->message));
        QVERIFY2(h.outcome->message.contains(QLatin1String("z2")), qPrintable(h.outcome->message));
        QVERIFY2(h.outcome->message.contains(QLatin1String("Untitled")), qPrintable(h.outcome->message));
    } else {
        QCOMPARE(typed, selectAllWorks || task.startsWith(QLatin1String("append")) ? 1 : 2);
        QCOMPARE(
            text,
            QStringLiteral("%1qt.txt").arg(task.startsWith(QLatin1String("append")) ? prefilled : QString()));
    }
}

void TestDirector::choiceReadBack_data()
{
    QTest::addColumn<bool>("tree");    // the drop-down comes from the accessibility tree
    QTest::addColumn<bool>("honours"); // the program takes the clicked option
    QTest::addColumn<int>("result");
    QTest::newRow("pixels, taken") << false << true << int(TaskOutcome::Result::Completed);
    // A drop-down that stays on its first item is never "completed" (the GTK combo trace).
    QTest::newRow("pixels, ignored") << false << false << int(TaskOutcome::Result::Unverified);
    // The tree's value wins over the pixels (which keep showing "Red" in both rows).
    QTest::newRow("tree, taken") << true << true << int(TaskOutcome::Result::Completed);
    QTest::newRow("tree, ignored") << true << false << int(TaskOutcome::Result::Unverified);
}

void TestDirector::choiceReadBack()
{
    QFETCH(bool, tree);
    QFETCH(bool, honours);
    QFETCH(int, result);
    QList<Zone> zones = formZones();
    Zone& color = zones[3]; // z4, the drop-down showing "Red"
    if (tree) {
        color.source = ZoneSource::Accessibility;
        color.accessibleRef = QStringLiteral(":1.9:/org/a11y/atspi/accessible/4");
        color.value = QStringLiteral("Red");
    }
    const QRect box = color.bounds;
    Harness h(zones);
    Frame frame;
    frame.index = 1;
    frame.image = QImage(1280, 800, QImage::Format_RGB32);
    frame.image.fill(Qt::lightGray);
    const auto draw = [&](const QString& text) {
        drawField(frame.image, box, text);
        ++frame.index;
        h.director.onFrame(frame);
    };
    draw(QStringLiteral("Red"));
    QList<Zone> open = zones;
    const QStringList options = {QStringLiteral("Red"), QStringLiteral("Green"), QStringLiteral("Blue")};
    for (int i = 0; i < options.size(); ++i)
        open << zone(QStringLiteral("z3%1").arg(i), ZoneType::MenuItem, options[i],
                     QRect(box.x(), box.bottom() + 1 + 24 * i, box.width(), 24));
    h.answer = [&](const Action& a) {
        if (a.type == Action::Type::LeftClick && a.zoneId == QLatin1String("z4")) {
            h.setZones(open);
        } else if (a.type == Action::Type::LeftClick && a.zoneId == QLatin1String("z32")) {
            QList<Zone> closed = zones;
            if (honours && tree)
                closed[3].value = QStringLiteral("Blue");
            h.setZones(closed);
            draw(honours && !tree ? QStringLiteral("Blue") : QStringLiteral("Red"));
        }
        return okResult();
    };
    QVERIFY(h.run(QStringLiteral("select Blue in Color")));
    QCOMPARE(int(h.outcome->result), result);
    // The option was clicked, never typed into the drop-down.
    QVERIFY(std::any_of(h.requested.cbegin(), h.requested.cend(),
                        [](const Action& a) { return a.zoneId == QLatin1String("z32"); }));
    QVERIFY(std::none_of(h.requested.cbegin(), h.requested.cend(),
                         [](const Action& a) { return a.type == Action::Type::TypeText; }));
    if (result == int(TaskOutcome::Result::Unverified))
        QVERIFY2(h.outcome->message.contains(QLatin1String("z4 does not show \"Blue\"; it reads \"Red\"")),
                 qPrintable(h.outcome->message));
}

void TestDirector::treeCheckStateDecides()
{
    // A check box from the tree: the program's own state decides. One that ignores the click ends
    // unverified however much the screen changed around it.
    for (const bool honours : {true, false}) {
        QList<Zone> zones = formZones();
        zones[4].source = ZoneSource::Accessibility;
        zones[4].accessibleRef = QStringLiteral(":1.9:/org/a11y/atspi/accessible/5");
        zones[4].state = ZoneStateFlag::Enabled | ZoneStateFlag::Unchecked;
        Harness h(zones);
        h.answer = [&](const Action& a) {
            if (a.zoneId == QLatin1String("z5") && honours) {
                QList<Zone> checked = zones;
                checked[4].state = ZoneStateFlag::Enabled | ZoneStateFlag::Checked;
                h.setZones(checked);
            }
            return okResult(); // something changed on the screen either way
        };
        QVERIFY(h.run(QStringLiteral("check Subscribe")));
        QCOMPARE(int(h.outcome->result),
                 int(honours ? TaskOutcome::Result::Completed : TaskOutcome::Result::Unverified));
        if (!honours)
            QVERIFY2(h.outcome->message.contains(QLatin1String("zone z5 is still unchecked")),
                     qPrintable(h.outcome->message));
    }
}

void TestDirector::buttonWithoutEffectIsNotClickedTwice()
{
    // Nothing shows after the click: the task cannot end "completed", and the button is not pressed again
    // (it may have submitted a form whose answer is not on the screen).
    Harness h;
    h.answer = [](const Action&) { return okResult(false); };
    QVERIFY(h.run(QStringLiteral("click Submit")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Unverified));
    QCOMPARE(h.requested.size(), 1);
    QVERIFY2(h.outcome->message.contains(QLatin1String("nothing changed that z9 explains")),
             qPrintable(h.outcome->message));
}

void TestDirector::secondLookSeesALateEffect_data()
{
    QTest::addColumn<QString>("canvas"); // what the canvas does when asked for a second look
    QTest::addColumn<bool>("brushSaw");  // the brush saw the status line change (no map showed it)
    QTest::addColumn<int>("result");
    // It was behind: the status line the click brought is analysed only now.
    QTest::newRow("effect held back") << "effect" << false << int(TaskOutcome::Result::Completed);
    // It was not behind: nothing changed, and the second look says so (no false completion).
    QTest::newRow("nothing changed") << "nothing" << false << int(TaskOutcome::Result::Unverified);
    // It never answers (within the re-analysis time): the first look stands.
    QTest::newRow("no answer") << "silent" << false << int(TaskOutcome::Result::Unverified);
    // The brush's evidence meets the expectation already: no second look is needed.
    QTest::newRow("brush saw it") << "effect" << true << int(TaskOutcome::Result::Completed);
}

void TestDirector::secondLookSeesALateEffect()
{
    QFETCH(QString, canvas);
    QFETCH(bool, brushSaw);
    QFETCH(int, result);
    // The click lands, but neither the brush's watch nor the canvas within the settle time shows its effect
    // (a loaded machine: the capture and the analysis are behind). The canvas publishes what it holds back
    // only when the Director asks it for a second look.
    Harness h;
    h.answer = [brushSaw](const Action&) {
        ActionResult r = okResult(brushSaw);
        r.changeObserved = false; // no map follows the action
        return r;
    };
    QList<quint64> looks;
    QObject::connect(&h.director, &Director::lookAgainRequested, &h, [&](quint64 token) {
        looks << token;
        if (canvas == QLatin1String("silent"))
            return;
        QTimer::singleShot(0, &h, [&h, &canvas, token] {
            if (canvas == QLatin1String("effect"))
                h.setZones(formZones() << zone(QStringLiteral("z20"), ZoneType::Static,
                                               QStringLiteral("Submit clicked"), QRect(10, 770, 200, 20)));
            h.director.onLookedAgain(token + 1, h.map()); // not the look asked for: ignored
            h.director.onLookedAgain(token, h.map());
        });
    });
    QVERIFY(h.run(QStringLiteral("click Submit")));
    QCOMPARE(int(h.outcome->result), result);
    QCOMPARE(h.requested.size(), 1); // a button is never clicked twice
    QList<QJsonObject> seconds;
    QList<QJsonObject> fresh;
    for (const QJsonObject& r : std::as_const(h.records)) {
        if (r.value(QStringLiteral("type")).toString() == QLatin1String("second_look"))
            seconds << r;
        if (r.value(QStringLiteral("type")).toString() == QLatin1String("fresh_look"))
            fresh << r;
    }
    if (brushSaw) {
        // No second look for the verification; but no map came after the click, so the decision after it
        // waits for the canvas' look at the screen as the click left it (here the effect's map).
        QVERIFY(seconds.isEmpty());
        QCOMPARE(looks.size(), 1);
        QCOMPARE(fresh.size(), 1);
        QCOMPARE(fresh.first().value(QStringLiteral("ended_by")).toString(), QStringLiteral("map"));
        return;
    }
    if (canvas == QLatin1String("silent")) {
        // The canvas answered neither look: the decision after the click is taken on the map from before it,
        // marked as such (here it only concludes the task, unverified by the step's own account).
        QCOMPARE(looks.size(), 2);
        QCOMPARE(fresh.size(), 1);
        QCOMPARE(fresh.first().value(QStringLiteral("ended_by")).toString(), QStringLiteral("timeout"));
        const auto decision = std::find_if(h.records.crbegin(), h.records.crend(), [](const QJsonObject& r) {
            return r.value(QStringLiteral("type")).toString() == QLatin1String("decision");
        });
        QVERIFY(decision != h.records.crend());
        QVERIFY(decision->value(QStringLiteral("map_outdated")).toBool());
    } else {
        // The second look's answer or map was taken after the click: the next decision needs no other.
        QCOMPARE(looks.size(), 1);
        QVERIFY(fresh.isEmpty());
    }
    QCOMPARE(h.infos(QStringLiteral("second_look")).size(), 1);
    // director.jsonl says that a second look was taken and what it saw.
    QCOMPARE(seconds.size(), 1);
    const QJsonObject second = seconds.first();
    // The canvas publishes the map that shows the effect before it answers: that map ends the wait.
    QCOMPARE(second.value(QStringLiteral("ended_by")).toString(),
             canvas == QLatin1String("effect")    ? QStringLiteral("map")
             : canvas == QLatin1String("nothing") ? QStringLiteral("answer")
                                                  : QStringLiteral("timeout"));
    QCOMPARE(second.value(QStringLiteral("met")).toBool(), canvas == QLatin1String("effect"));
    QCOMPARE(second.value(QStringLiteral("map_version")).toDouble() >
                 second.value(QStringLiteral("map_version_before")).toDouble(),
             canvas == QLatin1String("effect"));
    QCOMPARE(second.value(QStringLiteral("action"))
                 .toObject()
                 .value(QStringLiteral("action"))
                 .toObject()
                 .value(QStringLiteral("zone_id"))
                 .toString(),
             QStringLiteral("z9"));
    if (result == int(TaskOutcome::Result::Unverified))
        QVERIFY2(h.outcome->message.contains(QLatin1String("nothing changed that z9 explains")),
                 qPrintable(h.outcome->message));
}

void TestDirector::decisionWaitsForTheScreenAfterTheAction_data()
{
    QTest::addColumn<bool>("answers"); // the canvas answers the look asked for before the decision
    QTest::newRow("the canvas answers") << true;
    QTest::newRow("the canvas never answers") << false;
}

void TestDirector::decisionWaitsForTheScreenAfterTheAction()
{
    QFETCH(bool, answers);
    // "Next" brings a page with an "Open" button. The brush saw the click change the screen, but the canvas
    // is behind (a loaded machine: a full analysis under way) and publishes no map of the new page by itself.
    // On the map from before the click, "Open" names the "Open Dialog" button: a decision taken there
    // clicked it and ended the task completed, wrongly.
    QList<Zone> before = formZones();
    before << zone(QStringLiteral("z22"), ZoneType::Button, QStringLiteral("Open Dialog"),
                   QRect(300, 500, 100, 30))
           << zone(QStringLiteral("z23"), ZoneType::Button, QStringLiteral("Next"), QRect(410, 500, 80, 30));
    const QList<Zone> after = {
        zone(QStringLiteral("z30"), ZoneType::Button, QStringLiteral("Open"), QRect(500, 600, 80, 30)),
        zone(QStringLiteral("z31"), ZoneType::Button, QStringLiteral("Back"), QRect(590, 600, 80, 30))};
    {
        const ZoneMap stale(1, 0, QSize(1280, 800), before);
        const ZoneResolver::Result r = ZoneResolver::resolve(QStringLiteral("Open"), stale);
        QVERIFY(r.zone);
        QCOMPARE(r.zone->id, QStringLiteral("z22")); // the hazard
    }
    Harness h(before);
    h.answer = [](const Action&) {
        ActionResult r = okResult(true);
        r.changeObserved = false; // the brush saw the change; no map follows by itself
        return r;
    };
    int looks = 0;
    QObject::connect(&h.director, &Director::lookAgainRequested, &h, [&](quint64 token) {
        ++looks;
        if (!answers)
            return;
        QTimer::singleShot(0, &h, [&h, &after, token] {
            h.setZones(after);
            h.director.onLookedAgain(token, h.map());
        });
    });
    QVERIFY(h.run(QStringLiteral("click Next; click Open")));
    QList<QJsonObject> fresh;
    for (const QJsonObject& r : std::as_const(h.records)) {
        if (r.value(QStringLiteral("type")).toString() == QLatin1String("fresh_look"))
            fresh << r;
    }
    QVERIFY(!fresh.isEmpty());
    QCOMPARE(h.requested.first().zoneId, QStringLiteral("z23"));
    if (answers) {
        QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
        QCOMPARE(h.requested.size(), 2);
        QCOMPARE(h.requested[1].zoneId, QStringLiteral("z30")); // the new page's Open
        QCOMPARE(fresh.first().value(QStringLiteral("ended_by")).toString(), QStringLiteral("map"));
        QCOMPARE(looks, 2); // before "click Open", and before the task's conclusion after it
        return;
    }
    // No look answered within three re-analysis times: no action is chosen on the outdated map.
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Failed));
    QCOMPARE(h.requested.size(), 1);
    QVERIFY2(h.outcome->message.contains(QLatin1String("not analysed after the last action")),
             qPrintable(h.outcome->message));
    QCOMPARE(fresh.size(), 1);
    QCOMPARE(fresh.first().value(QStringLiteral("ended_by")).toString(), QStringLiteral("timeout"));
    QCOMPARE(looks, 1);
}

void TestDirector::secondLookSeesALateList()
{
    // A drop-down opens, but its list is not on any map within the settle time: the second look has it.
    // The click is not repeated (a second click would close the list).
    const QList<Zone> zones = formZones();
    const QRect box = zones[3].bounds; // z4, the drop-down
    QList<Zone> open = zones;
    const QStringList options = {QStringLiteral("Red"), QStringLiteral("Green"), QStringLiteral("Blue")};
    for (int i = 0; i < options.size(); ++i)
        open << zone(QStringLiteral("z3%1").arg(i), ZoneType::MenuItem, options[i],
                     QRect(box.x(), box.bottom() + 1 + 24 * i, box.width(), 24));
    Harness h(zones);
    h.answer = [](const Action&) { return okResult(false); };
    int looks = 0;
    QObject::connect(&h.director, &Director::lookAgainRequested, &h, [&](quint64 token) {
        ++looks;
        QTimer::singleShot(0, &h, [&h, &open, token] {
            h.setZones(open);
            h.director.onLookedAgain(token, h.map());
        });
    });
    QVERIFY(h.run(QStringLiteral("click Color")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.requested.size(), 1);
    QCOMPARE(looks, 1);
}

void TestDirector::lateMapOfAnEarlierFrameIsNoMenu()
{
    // "click File; click Open" on a loaded machine: after the click on File the canvas first publishes the
    // rest of an analysis of an earlier frame (a zone it found late), then the pointer's hover on File, and
    // only then the open menu. The menu's rows are waited for; "Open" is its row, not "Open Dialog".
    QList<Zone> zones = formZones();
    zones << zone(QStringLiteral("m0"), ZoneType::MenuItem, QStringLiteral("File"), QRect(10, 0, 40, 20))
          << zone(QStringLiteral("b1"), ZoneType::Button, QStringLiteral("Open Dialog"),
                  QRect(300, 500, 100, 30));
    Harness h(zones);
    h.options.settleTimeoutMs = 300; // the rows come within it, after a quiet period of a third of it
    QList<Zone> late = zones;
    late << zone(QStringLiteral("s1"), ZoneType::Static, QStringLiteral("Options"), QRect(20, 300, 80, 20));
    QList<Zone> hovered = late;
    hovered[zones.size() - 2].state |= ZoneStateFlag::Hovered;
    QList<Zone> open = late;
    open << zone(QStringLiteral("m1"), ZoneType::MenuItem, QStringLiteral("New"), QRect(10, 22, 200, 22))
         << zone(QStringLiteral("m2"), ZoneType::MenuItem, QStringLiteral("Open"), QRect(10, 44, 200, 22));
    h.answer = [&](const Action& a) {
        ActionResult r = okResult(false);
        if (a.zoneId != QStringLiteral("m0"))
            return okResult();
        r.actedNs = h.clock.nowNs();
        h.publishAt(late, r.actedNs - 1'000'000);
        h.publishAt(hovered, r.actedNs + 1'000'000);
        QTimer::singleShot(150, &h, [&h, &open] { h.setZones(open); });
        return r;
    };
    QVERIFY(h.run(QStringLiteral("click File; click Open")));
    QCOMPARE(h.requested.size(), 2);
    QCOMPARE(h.requested.at(1).zoneId, QStringLiteral("m2"));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
}

void TestDirector::secondLookReadsLateText_data()
{
    QTest::addColumn<bool>("drawn"); // the program has drawn the text by the time of the second look
    QTest::addColumn<int>("result");
    QTest::newRow("drawn late") << true << int(TaskOutcome::Result::Completed);
    QTest::newRow("never drawn") << false << int(TaskOutcome::Result::Unverified);
}

void TestDirector::secondLookReadsLateText()
{
    QFETCH(bool, drawn);
    QFETCH(int, result);
    // The typed text is not in any frame within the read-back time: the capture is behind. The second
    // look brings a fresh frame (as the capture's frame grabbed for it does) before the canvas' answer.
    Harness h;
    Frame frame;
    frame.index = 1;
    frame.image = QImage(1280, 800, QImage::Format_RGB32);
    frame.image.fill(Qt::lightGray);
    const QRect field(90, 58, 300, 24); // z2
    drawField(frame.image, field, QString());
    h.director.onFrame(frame);
    QString typed;
    int typings = 0;
    h.answer = [&](const Action& a) {
        if (a.type == Action::Type::TypeText) {
            typed = a.text;
            ++typings;
        }
        return okResult();
    };
    int looks = 0;
    QObject::connect(&h.director, &Director::lookAgainRequested, &h, [&](quint64 token) {
        ++looks;
        QTimer::singleShot(0, &h, [&, token] {
            drawField(frame.image, field, drawn ? typed : QString());
            ++frame.index;
            h.director.onFrame(frame);
            h.director.onLookedAgain(token, h.map());
        });
    });
    QVERIFY(h.run(QStringLiteral("type \"Ada\" into Name")));
    QCOMPARE(int(h.outcome->result), result);
    QVERIFY(typings >= 1);
    QCOMPARE(looks, typings); // one second look for each reading that did not show the text
    if (drawn) {
        QCOMPARE(typings, 1);
    } else {
        QVERIFY2(h.outcome->message.contains(QLatin1String("z2")), qPrintable(h.outcome->message));
    }
}

void TestDirector::localTaskCompletes()
{
    Harness h;
    QVERIFY(h.run(QStringLiteral("type \"Ada\" into Name; check Subscribe; click Submit")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.requested.size(), 5);
    QCOMPARE(h.requested[0].zoneId, QStringLiteral("z2"));
    QCOMPARE(int(h.requested[1].type), int(Action::Type::Key));
    QCOMPARE(h.requested[1].text, QStringLiteral("ctrl+a")); // typing into a field replaces its text
    QCOMPARE(int(h.requested[2].type), int(Action::Type::TypeText));
    QCOMPARE(h.requested[2].text, QStringLiteral("Ada"));
    QCOMPARE(h.requested[3].zoneId, QStringLiteral("z5"));
    QCOMPARE(h.requested[4].zoneId, QStringLiteral("z9"));
    QCOMPARE(h.outcome->usage.modelCalls, 0); // the local planner never calls a model
    QCOMPARE(h.outcome->usage.actionsExecuted, 5);
    QCOMPARE(h.outcome->plan.count(PlanStep::Status::Done), 3);
    QCOMPARE(int(h.outcome->plan.status), int(Plan::Status::Completed));
    QCOMPARE(int(h.director.state()), int(DirectorState::Finished));
    // director.jsonl gets the decisions, never a key.
    QVERIFY(!h.records.isEmpty());
    QCOMPARE(h.records.first().value(QStringLiteral("type")).toString(), QStringLiteral("task_started"));
    QCOMPARE(h.records.last().value(QStringLiteral("type")).toString(), QStringLiteral("finished"));
}

void TestDirector::dryRunExecutesNothing()
{
    Harness h;
    h.options.dryRun = true;
    QVERIFY(h.run(QStringLiteral("click OK; press ctrl+s; click Delete")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QVERIFY(h.outcome->dryRun);
    QVERIFY(h.requested.isEmpty());
    // The would-be confirmation of the Delete click is logged, not asked.
    QCOMPARE(h.infos(QStringLiteral("would_confirm")).size(), 1);
}

void TestDirector::zoneNotFoundReanalyzesAndReplans()
{
    Harness h;
    // The re-analysis finds the missing button.
    h.onAnalysis = [&h] {
        QList<Zone> zones = formZones();
        zones.append(
            zone(QStringLiteral("z20"), ZoneType::Button, QStringLiteral("Apply"), QRect(600, 500, 80, 30)));
        QTimer::singleShot(10, &h, [&h, zones] { h.setZones(zones); });
    };
    QVERIFY(h.run(QStringLiteral("click Apply")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.analyses.size(), 1);
    QVERIFY(h.analyses.first().contains(QStringLiteral("Apply")));
    QCOMPARE(h.requested.size(), 1);
    QCOMPARE(h.requested.first().zoneId, QStringLiteral("z20"));
}

void TestDirector::impossibleWhenStillMissing()
{
    Harness h;
    QVERIFY(h.run(QStringLiteral("click Apply")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Impossible));
    QVERIFY2(h.outcome->message.contains(QStringLiteral("no zone matches \"Apply\"")),
             qPrintable(h.outcome->message));
    QCOMPARE(h.analyses.size(), 2);
    QVERIFY(h.requested.isEmpty());
}

void TestDirector::wrongZoneUndoesAndReplans()
{
    Harness h;
    int clicks = 0;
    h.answer = [&](const Action& a) {
        ActionResult r = okResult();
        if (a.type == Action::Type::LeftClick && a.zoneId == QStringLiteral("z9") && clicks++ == 0) {
            // The first click lands on OK instead of Submit.
            SpatialEvent e;
            e.kind = SpatialEvent::Kind::ZoneClick;
            e.zoneId = QStringLiteral("z7");
            e.point = QPoint(40, 510);
            h.director.onEvent(e);
            r.pointUsed = e.point;
        }
        return r;
    };
    QVERIFY(h.run(QStringLiteral("click Submit")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.requested.size(), 3);
    QCOMPARE(int(h.requested[1].type), int(Action::Type::Key));
    QCOMPARE(h.requested[1].text, QStringLiteral("Escape")); // navigate back
    QCOMPARE(h.requested[2].zoneId, QStringLiteral("z9"));   // re-planned and retried
    QCOMPARE(h.infos(QStringLiteral("undo")).size(), 1);
}

void TestDirector::brushLostRecalibrates()
{
    Harness h;
    int n = 0;
    h.answer = [&](const Action&) {
        ActionResult r = okResult();
        if (n++ == 0) {
            r.success = false;
            r.error = QStringLiteral("brush lost: the cursor at (5, 5) is not inside zone \"z7\"");
        }
        return r;
    };
    QVERIFY(h.run(QStringLiteral("click OK")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.requested.size(), 3);
    QCOMPARE(int(h.requested[1].type), int(Action::Type::MouseMove)); // recalibration to a known position
    QCOMPARE(*h.requested[1].point, QRect(20, 500, 80, 30).center());
    QCOMPARE(h.requested[2].zoneId, QStringLiteral("z7")); // the step restarted
    QCOMPARE(h.infos(QStringLiteral("recalibrate")).size(), 1);
}

void TestDirector::timeoutReexecutesThenFails()
{
    Harness h;
    h.answer = nullptr; // the brush never answers
    h.options.actionTimeoutMs = 50;
    QVERIFY(h.run(QStringLiteral("click OK"), 10000));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Failed));
    // Each attempt of the step: the action, then its one re-execution.
    QVERIFY(h.requested.size() >= 2);
    QCOMPARE(h.requested[0].zoneId, h.requested[1].zoneId);
    QVERIFY(!h.infos(QStringLiteral("reexecute")).isEmpty());
    QVERIFY2(h.outcome->message.contains(QStringLiteral("no result")), qPrintable(h.outcome->message));
}

void TestDirector::noChangeReexecutesAndEscalates()
{
    Harness h;
    int n = 0;
    // Opening the dropdown shows nothing the first time.
    h.answer = [&](const Action&) { return okResult(n++ > 0); };
    h.options.speed = SpeedMode::High;
    QVERIFY(h.run(QStringLiteral("click Color")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.requested.size(), 2); // re-executed once
    QCOMPARE(int(h.outcome->finalSpeed), int(SpeedMode::Medium));
    QCOMPARE(h.infos(QStringLiteral("speed_escalated")).size(), 1);
}

void TestDirector::disabledZoneWaitsThenFails()
{
    QList<Zone> zones = formZones();
    zones[7].state = ZoneStateFlag::Disabled; // Submit
    Harness h(zones);
    h.options.disabledWaitMs = 300;
    QVERIFY(h.run(QStringLiteral("click Submit")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Failed));
    QVERIFY2(h.outcome->message.contains(QStringLiteral("stays disabled after 300 ms")),
             qPrintable(h.outcome->message));
    QVERIFY(h.requested.isEmpty());
    QVERIFY(h.infos(QStringLiteral("zone_disabled")).size() >= 2);
}

void TestDirector::disabledZoneClickedOnceEnabled()
{
    // A dialog's button enabled only once the program took a field's text in: maps of other changes
    // (the typing's echo, a cursor) come first, with the button still disabled. The wait is for the
    // button's own state, not for the next map: it is clicked once, after it is enabled.
    QList<Zone> zones = formZones();
    zones[7].state = ZoneStateFlag::Disabled; // Submit
    Harness h(zones);
    h.options.disabledWaitMs = 4000;
    QTimer echoes;
    int maps = 0;
    QObject::connect(&echoes, &QTimer::timeout, &h, [&] {
        if (++maps == 5) {
            zones[7].state = ZoneStateFlag::Enabled;
            echoes.stop();
        }
        h.setZones(zones);
    });
    echoes.start(20);
    QVERIFY(h.run(QStringLiteral("click Submit")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.requested.size(), 1);
    QCOMPARE(h.requested.first().zoneId, zones[7].id);
    QCOMPARE(maps, 5);
    QCOMPARE(h.infos(QStringLiteral("zone_disabled")).size(), 1);
}

void TestDirector::highRiskRefusedHeadless()
{
    Harness h;
    h.options.confirmation = safety::ConfirmationMode::Refuse;
    QVERIFY(h.run(QStringLiteral("click OK; click Delete; click Submit")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Failed));
    QVERIFY2(h.outcome->message.contains(QStringLiteral("nobody can confirm")),
             qPrintable(h.outcome->message));
    QCOMPARE(h.requested.size(), 1); // OK only: Delete refused, Submit never reached
    QCOMPARE(h.outcome->usage.actionsRefused, 1);
}

void TestDirector::highRiskConfirmed()
{
    Harness h;
    h.options.confirmation = safety::ConfirmationMode::Ask;
    QObject::connect(&h.director, &Director::confirmationRequested, &h,
                     [&h](quint64 id, const Action& a, const QString& reason) {
                         QCOMPARE(a.zoneId, QStringLiteral("z8"));
                         QVERIFY(reason.contains(QStringLiteral("Delete")));
                         QVERIFY(h.requested.isEmpty()); // nothing executed while asking
                         QTimer::singleShot(0, &h, [&h, id] { h.director.answerConfirmation(id, true); });
                     });
    QVERIFY(h.run(QStringLiteral("click Delete")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.requested.size(), 1);
}

void TestDirector::highRiskDeclined()
{
    Harness h;
    h.options.confirmation = safety::ConfirmationMode::Ask;
    QObject::connect(&h.director, &Director::confirmationRequested, &h,
                     [&h](quint64 id, const Action&, const QString&) {
                         QTimer::singleShot(0, &h, [&h, id] {
                             h.director.answerConfirmation(id + 100, true); // unknown ids are ignored
                             h.director.answerConfirmation(id, false);
                         });
                     });
    QVERIFY(h.run(QStringLiteral("type \"rm -rf ~\"")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Failed));
    QVERIFY2(h.outcome->message.contains(QStringLiteral("declined")), qPrintable(h.outcome->message));
    QVERIFY(h.requested.isEmpty());
}

void TestDirector::secretTypedIsMaskedEverywhere_data()
{
    QTest::addColumn<QString>("label");
    QTest::addColumn<bool>("passwordField");
    QTest::addColumn<bool>("knownFromTheStart");
    // The script names a credential field: the text is secret before the field is seen, the task included.
    QTest::newRow("named like a credential") << QStringLiteral("PIN") << false << true;
    // The field is a password field: secret from the decision that types into it on.
    QTest::newRow("a password field") << QStringLiteral("Code") << true << false;
}

void TestDirector::secretTypedIsMaskedEverywhere()
{
    QFETCH(QString, label);
    QFETCH(bool, passwordField);
    QFETCH(bool, knownFromTheStart);
    const QString secret = QStringLiteral("2468x");
    QList<Zone> zones = formZones();
    Zone field = zone(QStringLiteral("z20"), ZoneType::TextField, label, QRect(90, 300, 300, 24));
    field.isPassword = passwordField;
    zones << field;
    Harness h(zones);
    h.options.confirmation = safety::ConfirmationMode::Ask;
    QStringList asked;
    QObject::connect(&h.director, &Director::confirmationRequested, &h,
                     [&h, &asked](quint64 id, const Action& a, const QString& reason) {
                         asked << a.describe() + QLatin1Char(' ') + reason;
                         QTimer::singleShot(0, &h, [&h, id] { h.director.answerConfirmation(id, true); });
                     });
    QStringList statuses;
    QObject::connect(&h.director, &Director::statusChanged, &h,
                     [&statuses](DirectorState, const QString& detail) { statuses << detail; });
    QStringList plans;
    QObject::connect(&h.director, &Director::planUpdated, &h,
                     [&plans](const Plan& p) { plans << p.toText(); });
    const QString task = QStringLiteral("type \"%1\" into %2; click OK").arg(secret, label);
    QVERIFY(h.run(task));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    // The brush typed the text itself.
    const bool typed = std::any_of(h.requested.cbegin(), h.requested.cend(), [&](const Action& a) {
        return a.type == Action::Type::TypeText && a.text == secret;
    });
    QVERIFY(typed);
    // Nothing the Director gave out holds it, but the task as recorded before the field was seen.
    const auto holds = [&secret](const QString& text) { return text.contains(secret); };
    int recordsHolding = 0;
    for (const QJsonObject& r : std::as_const(h.records)) {
        if (holds(QString::fromUtf8(QJsonDocument(r).toJson(QJsonDocument::Compact))))
            ++recordsHolding;
    }
    QCOMPARE(recordsHolding, knownFromTheStart ? 0 : 1);
    if (!knownFromTheStart) {
        const auto started = std::find_if(h.records.cbegin(), h.records.cend(), [&](const QJsonObject& r) {
            return r.value(QStringLiteral("type")).toString() == QLatin1String("task_started");
        });
        QVERIFY(started != h.records.cend());
        QCOMPARE(started->value(QStringLiteral("task")).toString(), task);
    }
    for (const SpatialEvent& e : std::as_const(h.events)) {
        for (const QVariant& v : e.data)
            QVERIFY2(!holds(v.toString()), qPrintable(v.toString()));
    }
    for (const QString& s : std::as_const(asked) + statuses)
        QVERIFY2(!holds(s) || (!knownFromTheStart && s == task), qPrintable(s));
    QVERIFY(!holds(plans.last()));
    QVERIFY(!holds(h.outcome->plan.task));
    QVERIFY(!holds(QString::fromUtf8(QJsonDocument(h.outcome->toJson()).toJson())));
    QCOMPARE(h.outcome->plan.task,
             QStringLiteral("type \"%1\" into %2; click OK").arg(Action::maskedText(), label));
    QCOMPARE(maskedTask(task), knownFromTheStart ? h.outcome->plan.task : task);
}

void TestDirector::iterationLimitNeverExceeded()
{
    Harness h;
    h.options.maxIterations = 5;
    QVERIFY(h.run(
        QStringLiteral("click OK; click OK; click OK; click OK; click OK; click OK; click OK; click OK")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::IterationLimit));
    QCOMPARE(h.outcome->usage.iterations, 5);
    QCOMPARE(h.requested.size(), 5);
    const QStringList warnings = h.infos(QStringLiteral("iteration_warning"));
    QCOMPARE(warnings.size(), 1);
    QVERIFY(warnings.first().startsWith(QStringLiteral("4 of 5")));
}

// A list box whose rows move a moment after the wheel turned (a smooth scroll, the program reporting late):
// the next decision waits for them instead of deciding on the unmoved list and looking again (a decision of
// the iteration budget). Fig comes into view with the second scroll and is clicked.
void TestDirector::scrolledRowsWaitedFor()
{
    const auto listZones = [](const QStringList& rows, const QString& selected = {}) {
        return formZones() + ciu::test::listBoxZones(rows, selected);
    };
    const QList<QStringList> views{{QStringLiteral("Apple"), QStringLiteral("Banana")},
                                   {QStringLiteral("Cherry"), QStringLiteral("Date")},
                                   {QStringLiteral("Elder"), QStringLiteral("Fig")}};
    Harness h(listZones(views[0]));
    h.options.settleTimeoutMs = 2'000; // the rows come well within it
    int scrolls = 0;
    h.answer = [&](const Action& a) {
        ActionResult r;
        r.success = true;
        if (a.type == Action::Type::Scroll) {
            // A first map from after the wheel turned still shows the rows where they were; they move later.
            r.actedNs = h.clock.nowNs();
            const QStringList before = views[std::min(scrolls, 2)];
            const QStringList after = views[std::min(++scrolls, 2)];
            QTimer::singleShot(5, &h, [&h, listZones, before] { h.setZones(listZones(before)); });
            QTimer::singleShot(60, &h, [&h, listZones, after] { h.setZones(listZones(after)); });
            return r;
        }
        if (a.zoneId == QLatin1String("rFig"))
            h.setZones(listZones(views[2], QStringLiteral("Fig")));
        r.changeObserved = true;
        return r;
    };
    QVERIFY(h.run(QStringLiteral("select Fig in Fruit")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.requested.size(), 3);
    QCOMPARE(int(h.requested[0].type), int(Action::Type::Scroll));
    QCOMPARE(int(h.requested[1].type), int(Action::Type::Scroll));
    QCOMPARE(h.requested[2].zoneId, QStringLiteral("rFig"));
    QStringList kinds;
    for (const QJsonObject& r : h.records) {
        if (r.value(QStringLiteral("type")).toString() == QLatin1String("decision"))
            kinds << r.value(QStringLiteral("kind")).toString();
    }
    QCOMPARE(kinds, (QStringList{QStringLiteral("act"), QStringLiteral("act"), QStringLiteral("act"),
                                 QStringLiteral("complete")}));
    QCOMPARE(h.outcome->usage.iterations, 4);
}

void TestDirector::pauseStepResume()
{
    Harness h;
    h.director.startTask(QStringLiteral("click OK; click OK; click OK"), h.options);
    h.director.pause();
    QCoreApplication::processEvents(); // what was queued has run: it asked for nothing
    QVERIFY(h.requested.isEmpty());
    QCOMPARE(int(h.director.state()), int(DirectorState::Paused));
    QCOMPARE(int(h.director.plan().status), int(Plan::Status::Paused));
    h.director.step();
    QTRY_COMPARE(h.requested.size(), 1);
    QTRY_COMPARE(h.director.plan().count(PlanStep::Status::Done), 1); // the step is over
    QCoreApplication::processEvents();
    QCOMPARE(h.requested.size(), 1); // one action, then paused again
    QCOMPARE(int(h.director.state()), int(DirectorState::Paused));
    h.director.resume();
    QTRY_VERIFY(h.outcome.has_value());
    QVERIFY(h.outcome->success());
    QCOMPARE(h.requested.size(), 3);
}

void TestDirector::stopEndsTheTask()
{
    Harness h;
    h.answer = nullptr;
    h.options.actionTimeoutMs = 10'000;
    h.director.startTask(QStringLiteral("click OK; click Submit"), h.options);
    QTRY_COMPARE(h.requested.size(), 1);
    h.director.stop();
    QVERIFY(h.outcome.has_value());
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Stopped));
    h.director.onActionFinished(1, okResult()); // a late answer changes nothing
    QCoreApplication::processEvents();
    QCOMPARE(h.requested.size(), 1);
}

void TestDirector::takeoverPauses()
{
    Harness h;
    h.answer = nullptr;
    h.options.actionTimeoutMs = 10'000;
    h.options.resumable = true; // the app: its Resume button goes on
    h.director.startTask(QStringLiteral("click OK; click Submit"), h.options);
    QTRY_COMPARE(h.requested.size(), 1);
    SpatialEvent takeover;
    takeover.kind = SpatialEvent::Kind::Takeover;
    h.director.onEvent(takeover);
    QCOMPARE(h.infos(QStringLiteral("takeover")).size(), 1);
    h.director.onActionFinished(1, okResult());
    // The step is verified, then the director pauses: Submit waits for resume.
    QTRY_COMPARE(int(h.director.state()), int(DirectorState::Paused));
    QCoreApplication::processEvents();
    QCOMPARE(h.requested.size(), 1);
    h.director.stop();
}

// Headless (run, mcp) nobody can resume: a takeover stops the task, with the reason, instead of leaving it
// paused for good (an MCP tool call that never answered).
void TestDirector::takeoverStopsWhenNobodyCanResume()
{
    Harness h;
    h.answer = nullptr;
    h.options.actionTimeoutMs = 10'000;
    QVERIFY(!h.options.resumable);
    h.director.startTask(QStringLiteral("click OK; click Submit"), h.options);
    QTRY_COMPARE(h.requested.size(), 1);
    SpatialEvent takeover;
    takeover.kind = SpatialEvent::Kind::Takeover;
    takeover.point = QPoint(647, 682);
    h.director.onEvent(takeover);
    QVERIFY(h.outcome.has_value());
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Stopped));
    QCOMPARE(h.outcome->message,
             QStringLiteral("stopped: the user took over the mouse or keyboard (the pointer "
                            "at 647, 682), and nothing here can resume a paused task"));
    h.director.onActionFinished(1, okResult()); // the aborted action's late answer changes nothing
    QCoreApplication::processEvents();
    QCOMPARE(h.requested.size(), 1);
    QCOMPARE(int(h.director.state()), int(DirectorState::Finished));
}

void TestDirector::parseErrorFails()
{
    Harness h;
    QVERIFY(h.run(QStringLiteral("click OK; frobnicate")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Failed));
    QVERIFY2(h.outcome->message.contains(QStringLiteral("line 1, column 11")),
             qPrintable(h.outcome->message));
}

// ---------------------------------------------------------------------------------------------------------
// Model loops against the fake Claude server

namespace {

// A model planner over `kind`'s provider aimed at the fake server (fast retries).
Director::BackendFactory plannerFactory(FakeApiServer& server, DirectorOptions::Loop loop,
                                        director::ProviderKind kind)
{
    return [&server, loop, kind](const DirectorOptions&, QString*) -> std::unique_ptr<PlanBackend> {
        const bool anthropic = kind == director::ProviderKind::Anthropic;
        director::ProviderConfig config;
        config.baseUrl = server.baseUrl();
        config.apiKey = anthropic ? QStringLiteral("sk-ant-test-key-never-logged")
                                  : QStringLiteral("sk-openai-test-key-never-logged");
        config.defaultModel = anthropic ? QStringLiteral("claude-sonnet-4-5") : QStringLiteral("gpt-4o");
        config.maxRetryDelayMs = 10;
        return std::make_unique<ModelPlanner>(director::createProvider(kind, config), loop);
    };
}

} // namespace

Director::BackendFactory TestDirector::modelFactory(FakeApiServer& server, DirectorOptions::Loop loop)
{
    return plannerFactory(server, loop, director::ProviderKind::Anthropic);
}

Director::BackendFactory TestDirector::openAiFactory(FakeApiServer& server, DirectorOptions::Loop loop)
{
    return plannerFactory(server, loop, director::ProviderKind::OpenAi);
}

namespace {

FakeApiServer::Step reply(const QJsonArray& content, const QString& stop = QStringLiteral("tool_use"),
                          const QJsonObject& usage = FakeApiServer::usage(1000, 50))
{
    return FakeApiServer::message(FakeApiServer::messageJson(content, stop, usage));
}

QJsonObject use(const QString& id, const QString& name, const QJsonObject& input)
{
    return FakeApiServer::toolUseBlock(id, name, input);
}

// The tool_result blocks of a request's last user message, by tool_use id.
QHash<QString, QJsonObject> toolResults(const FakeApiServer::Request& request)
{
    QHash<QString, QJsonObject> out;
    const QJsonArray messages = request.json.value(QStringLiteral("messages")).toArray();
    const QJsonArray content = messages.last().toObject().value(QStringLiteral("content")).toArray();
    for (const QJsonValue& v : content) {
        const QJsonObject b = v.toObject();
        if (b.value(QStringLiteral("type")).toString() == QLatin1String("tool_result"))
            out.insert(b.value(QStringLiteral("tool_use_id")).toString(), b);
    }
    return out;
}

// run_steps with these steps of the local command language.
QJsonObject runSteps(const QString& id, const QStringList& steps)
{
    return use(id, QStringLiteral("run_steps"),
               {{QStringLiteral("steps"), QJsonArray::fromStringList(steps)}});
}

QJsonObject complete(const QString& id, const QString& summary = QStringLiteral("done"))
{
    return use(id, QStringLiteral("task_complete"), {{QStringLiteral("summary"), summary}});
}

QString resultText(const QJsonObject& toolResult)
{
    const QJsonValue c = toolResult.value(QStringLiteral("content"));
    if (c.isString())
        return c.toString();
    QString text;
    for (const QJsonValue& v : c.toArray())
        text += v.toObject().value(QStringLiteral("text")).toString();
    return text;
}

} // namespace

void TestDirector::model_toolUseChain()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(
        reply({use(QStringLiteral("t1"), QStringLiteral("update_plan"),
                   {{QStringLiteral("steps"),
                     QJsonArray{QJsonObject{{QStringLiteral("description"), QStringLiteral("type the name")}},
                                QJsonObject{{QStringLiteral("description"), QStringLiteral("subscribe")}},
                                QJsonObject{{QStringLiteral("description"), QStringLiteral("submit")}}}}}),
               use(QStringLiteral("t2"), QStringLiteral("type_in_zone"),
                   {{QStringLiteral("zone_id"), QStringLiteral("z2")},
                    {QStringLiteral("text"), QStringLiteral("Ada")}}),
               use(QStringLiteral("t3"), QStringLiteral("click_zone"),
                   {{QStringLiteral("zone_id"), QStringLiteral("z5")}}),
               use(QStringLiteral("t4"), QStringLiteral("click_zone"),
                   {{QStringLiteral("zone_id"), QStringLiteral("z9")}}),
               use(QStringLiteral("t5"), QStringLiteral("task_complete"),
                   {{QStringLiteral("summary"), QStringLiteral("form sent")}})}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    h.options.provider = QStringLiteral("anthropic");
    QVERIFY(h.run(QStringLiteral("Fill in the form with the name Ada, subscribe and submit it.")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.outcome->message, QStringLiteral("form sent"));
    QCOMPARE(server.requestCount(), 1); // one call planned and finished the whole task
    QCOMPARE(h.outcome->usage.modelCalls, 1);
    QCOMPARE(h.requested.size(), 4);
    QCOMPARE(h.requested[0].zoneId, QStringLiteral("z2"));
    QCOMPARE(h.requested[1].text, QStringLiteral("Ada"));
    QCOMPARE(h.requested[3].zoneId, QStringLiteral("z9"));
    QCOMPARE(h.outcome->plan.steps.size(), 3);
    // The request: zone tools + the computer tool, the zone map as delimited untrusted data, no image.
    const QJsonObject body = server.requests().first().json;
    QStringList tools;
    for (const QJsonValue& t : body.value(QStringLiteral("tools")).toArray())
        tools << t.toObject().value(QStringLiteral("name")).toString();
    QVERIFY(tools.contains(QStringLiteral("click_zone")) && tools.contains(QStringLiteral("computer")));
    const QByteArray raw = server.requests().first().body;
    QVERIFY(raw.contains("untrusted_screen_text"));
    QVERIFY(raw.contains("z9 button \\\"Submit\\\""));
    QVERIFY(!raw.contains("\"type\":\"image\""));
    // The key goes in the header only, never into the records.
    QCOMPARE(server.requests().first().header("x-api-key"), QByteArray("sk-ant-test-key-never-logged"));
    for (const QJsonObject& r : h.records)
        QVERIFY(!QJsonDocument(r).toJson().contains("sk-ant-test-key"));
}

void TestDirector::model_unknownZoneIsError()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(reply({use(QStringLiteral("t1"), QStringLiteral("click_zone"),
                              {{QStringLiteral("zone_id"), QStringLiteral("z99")}})}));
    server.enqueue(reply({use(QStringLiteral("t2"), QStringLiteral("task_impossible"),
                              {{QStringLiteral("explanation"), QStringLiteral("no such button")}})}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Press the magic button.")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Impossible));
    QCOMPARE(h.outcome->message, QStringLiteral("no such button"));
    QVERIFY(h.requested.isEmpty());
    QCOMPARE(h.analyses.size(), 1); // zone not found: Tier 2 re-analysis
    QCOMPARE(server.requestCount(), 2);
    const auto results = toolResults(server.requests()[1]);
    QVERIFY(results.contains(QStringLiteral("t1")));
    QVERIFY(results[QStringLiteral("t1")].value(QStringLiteral("is_error")).toBool());
    QVERIFY2(resultText(results[QStringLiteral("t1")]).contains(QStringLiteral("z99")),
             qPrintable(resultText(results[QStringLiteral("t1")])));
}

void TestDirector::model_knownShortcutsTold()
{
    // The program in front has known shortcuts: the first request tells them (labels are the program's:
    // untrusted), once; the next request does not repeat them.
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(reply({use(QStringLiteral("t1"), QStringLiteral("click_zone"),
                              {{QStringLiteral("zone_id"), QStringLiteral("z7")}})}));
    server.enqueue(reply({complete(QStringLiteral("t2"))}));
    QList<Zone> zones = formZones();
    for (Zone& z : zones)
        z.application = QStringLiteral("Mousepad");
    Harness h(zones);
    QStringList asked;
    h.director.setBackendFactory(
        [&server, &asked](const DirectorOptions&, QString*) -> std::unique_ptr<PlanBackend> {
            director::ProviderConfig config;
            config.baseUrl = server.baseUrl();
            config.apiKey = QStringLiteral("sk-ant-test-key-never-logged");
            config.defaultModel = QStringLiteral("claude-sonnet-4-5");
            config.maxRetryDelayMs = 10;
            auto planner = std::make_unique<ModelPlanner>(
                director::createProvider(director::ProviderKind::Anthropic, config),
                DirectorOptions::Loop::Zones);
            planner->setShortcutLookup([&asked](const QString& application) {
                asked << application;
                AppSchema schema;
                schema.application = application;
                Shortcut open{QStringLiteral("Open…"), QStringLiteral("ctrl+o"),
                              QStringLiteral("File > Open…"), ShortcutSource::Schema, 0};
                Shortcut find{
                    QStringLiteral("Find"), {}, QStringLiteral("Search > Find"), ShortcutSource::Atspi, 0};
                Shortcut reload{QStringLiteral("Reload"), QStringLiteral("ctrl+r"),
                                QStringLiteral("File > Reload"), ShortcutSource::Vision, 0};
                Shortcut saveAs{QStringLiteral("Save As…"), QStringLiteral("ctrl+shift+s"),
                                QStringLiteral("File > Save As…"), ShortcutSource::Atspi, 1000};
                schema.shortcuts << open << find << reload << saveAs;
                return std::optional<AppSchema>(schema);
            });
            return planner;
        });
    QVERIFY(h.run(QStringLiteral("Press OK.")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(asked, QStringList{QStringLiteral("Mousepad")});
    const auto texts = [&](int request) {
        QStringList out;
        const QJsonArray messages =
            server.requests()[request].json.value(QStringLiteral("messages")).toArray();
        for (const QJsonValue& b : messages.last().toObject().value(QStringLiteral("content")).toArray()) {
            if (b.toObject().value(QStringLiteral("type")).toString() == QLatin1String("text"))
                out << b.toObject().value(QStringLiteral("text")).toString();
        }
        return out;
    };
    const QString told = QStringLiteral(
        "<untrusted_screen_text source=\"known_shortcuts\">\nKnown shortcuts of Mousepad: Save As… = "
        "ctrl+shift+s (verified), Open… = ctrl+o, Reload = ctrl+r\n</untrusted_screen_text>");
    QVERIFY2(texts(0).contains(told), qPrintable(texts(0).join(QLatin1Char('\n'))));
    QVERIFY2(!texts(1).join(QLatin1Char('\n')).contains(QStringLiteral("known_shortcuts")),
             qPrintable(texts(1).join(QLatin1Char('\n'))));
}

void TestDirector::model_knownShortcutsCapped()
{
    AppSchema schema;
    schema.application = QStringLiteral("App");
    for (int i = 1; i <= 30; ++i)
        schema.shortcuts << Shortcut{QStringLiteral("Action %1").arg(i),
                                     QStringLiteral("F%1").arg(i % 24 + 1),
                                     {},
                                     ShortcutSource::Atspi,
                                     0};
    QCOMPARE(ModelPlanner::describeShortcuts(schema, 2),
             QStringLiteral("Known shortcuts of App: Action 1 = F2, Action 2 = F3, … 28 more"));
    QCOMPARE(ModelPlanner::describeShortcuts(schema).count(QStringLiteral(" = F")),
             ModelPlanner::kMaxShortcutsTold);
    // Only keys are told: a program whose actions have menu paths only gets no line.
    AppSchema menusOnly;
    menusOnly.application = QStringLiteral("App");
    menusOnly.shortcuts << Shortcut{
        QStringLiteral("Find"), {}, QStringLiteral("Search > Find"), ShortcutSource::Atspi, 0};
    QCOMPARE(ModelPlanner::describeShortcuts(menusOnly), QString());
}

void TestDirector::model_offScreenRefused()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(reply({use(QStringLiteral("t1"), QStringLiteral("computer"),
                              {{QStringLiteral("action"), QStringLiteral("left_click")},
                               {QStringLiteral("coordinate"), QJsonArray{5000, 10}}})}));
    server.enqueue(FakeApiServer::textReply(QStringLiteral("Giving up.")));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Click far away.")));
    QVERIFY(h.requested.isEmpty());
    QCOMPARE(server.requestCount(), 2);
    const auto results = toolResults(server.requests()[1]);
    QVERIFY(results[QStringLiteral("t1")].value(QStringLiteral("is_error")).toBool());
    QVERIFY2(resultText(results[QStringLiteral("t1")]).contains(QStringLiteral("refused")),
             qPrintable(resultText(results[QStringLiteral("t1")])));
}

void TestDirector::model_refusal()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(reply({FakeApiServer::textBlock(QStringLiteral("I can't help with that."))},
                         QStringLiteral("refusal")));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Do something bad.")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Failed));
    QVERIFY2(h.outcome->message.contains(QStringLiteral("refused")), qPrintable(h.outcome->message));
    QCOMPARE(server.requestCount(), 1);
}

void TestDirector::model_maxTokens()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(reply({FakeApiServer::textBlock(QStringLiteral("Let me think about this at great len"))},
                         QStringLiteral("max_tokens")));
    server.enqueue(reply({use(QStringLiteral("t1"), QStringLiteral("click_zone"),
                              {{QStringLiteral("zone_id"), QStringLiteral("z7")}}),
                          use(QStringLiteral("t2"), QStringLiteral("task_complete"),
                              {{QStringLiteral("summary"), QStringLiteral("ok")}})}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Click OK.")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(server.requestCount(), 2);
    QVERIFY(server.requests()[1].body.contains("max_tokens"));
    QCOMPARE(h.requested.size(), 1);
}

void TestDirector::model_pauseTurn()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(
        reply({FakeApiServer::textBlock(QStringLiteral("Working on it"))}, QStringLiteral("pause_turn")));
    server.enqueue(reply({use(QStringLiteral("t1"), QStringLiteral("task_complete"),
                              {{QStringLiteral("summary"), QStringLiteral("done")}})}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Look at the screen.")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(server.requestCount(), 2);
    // The paused reply went back unchanged as the last assistant turn.
    const QJsonArray messages = server.requests()[1].json.value(QStringLiteral("messages")).toArray();
    QCOMPARE(messages.last().toObject().value(QStringLiteral("role")).toString(),
             QStringLiteral("assistant"));
    QVERIFY(QJsonDocument(messages.last().toObject()).toJson().contains("Working on it"));
}

void TestDirector::model_costLimit()
{
    FakeApiServer server;
    QVERIFY(server.start());
    // 1M input tokens of claude-sonnet-4-5 cost $3: over a $1 limit after the first call.
    server.enqueue(reply({use(QStringLiteral("t1"), QStringLiteral("click_zone"),
                              {{QStringLiteral("zone_id"), QStringLiteral("z7")}})},
                         QStringLiteral("tool_use"), FakeApiServer::usage(1'000'000, 10)));
    server.enqueue(reply({use(QStringLiteral("t2"), QStringLiteral("task_complete"),
                              {{QStringLiteral("summary"), QStringLiteral("done")}})}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    h.options.maxCostUsd = 1.0;
    QVERIFY(h.run(QStringLiteral("Click OK.")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::CostLimit));
    QCOMPARE(server.requestCount(), 1); // auto-stop: no call after the limit
    QVERIFY(h.outcome->usage.costUsd >= 1.0);
    QVERIFY(!h.infos(QStringLiteral("cost_warning")).isEmpty());
}

void TestDirector::model_providerError()
{
    FakeApiServer server;
    QVERIFY(server.start());
    for (int i = 0; i < 3; ++i)
        server.enqueue(FakeApiServer::error(401, QStringLiteral("authentication_error"),
                                            QStringLiteral("invalid x-api-key")));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Click OK.")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Failed));
    QVERIFY2(h.outcome->message.contains(QStringLiteral("invalid x-api-key")),
             qPrintable(h.outcome->message));
    QVERIFY(!h.outcome->message.contains(QStringLiteral("sk-ant-test")));
}

void TestDirector::model_callsVersusClassic()
{
    // The same scripted fixture task — fill the name, subscribe, pick Blue, submit — both ways. Each loop
    // runs against its own fake server with the replies a model would give.
    QList<Zone> zones = formZones();
    QList<Zone> withList = zones;
    withList.append(
        zone(QStringLiteral("z30"), ZoneType::MenuItem, QStringLiteral("Red"), QRect(90, 142, 300, 20)));
    withList.append(
        zone(QStringLiteral("z31"), ZoneType::MenuItem, QStringLiteral("Green"), QRect(90, 162, 300, 20)));
    withList.append(
        zone(QStringLiteral("z32"), ZoneType::MenuItem, QStringLiteral("Blue"), QRect(90, 182, 300, 20)));

    QImage screen(1280, 800, QImage::Format_RGB32);
    screen.fill(Qt::lightGray);
    Frame frame;
    frame.index = 1;
    frame.image = screen;

    auto run = [&](DirectorOptions::Loop loop, FakeApiServer& server) {
        Harness h(zones);
        h.director.onFrame(frame);
        h.director.setBackendFactory(modelFactory(server, loop));
        h.answer = [&h, withList, &frame](const Action& a) {
            if (a.zoneId == QStringLiteral("z4") || (a.point && QRect(90, 118, 300, 24).contains(*a.point)))
                QTimer::singleShot(0, &h, [&h, withList] { h.setZones(withList); }); // the list opens
            if (a.type == Action::Type::TypeText) { // the name field shows what was typed (read back)
                Frame typed = frame;
                typed.image = frame.image.copy();
                drawField(typed.image, QRect(90, 58, 300, 24), a.text);
                typed.index = frame.index + 1;
                h.director.onFrame(typed);
            }
            return okResult();
        };
        [&] {
            QVERIFY(
                h.run(QStringLiteral("Fill the form: name Ada, subscribe, color Blue, then submit."), 10000));
        }();
        return h.outcome.value_or(TaskOutcome());
    };

    FakeApiServer zonesServer;
    QVERIFY(zonesServer.start());
    zonesServer.enqueue(reply({use(QStringLiteral("a1"), QStringLiteral("type_in_zone"),
                                   {{QStringLiteral("zone_id"), QStringLiteral("z2")},
                                    {QStringLiteral("text"), QStringLiteral("Ada")}}),
                               use(QStringLiteral("a2"), QStringLiteral("click_zone"),
                                   {{QStringLiteral("zone_id"), QStringLiteral("z5")}}),
                               use(QStringLiteral("a3"), QStringLiteral("click_zone"),
                                   {{QStringLiteral("zone_id"), QStringLiteral("z4")}})}));
    zonesServer.enqueue(reply({use(QStringLiteral("a4"), QStringLiteral("click_zone"),
                                   {{QStringLiteral("zone_id"), QStringLiteral("z32")}}),
                               use(QStringLiteral("a5"), QStringLiteral("click_zone"),
                                   {{QStringLiteral("zone_id"), QStringLiteral("z9")}}),
                               use(QStringLiteral("a6"), QStringLiteral("task_complete"),
                                   {{QStringLiteral("summary"), QStringLiteral("sent")}})}));
    const TaskOutcome zonesOutcome = run(DirectorOptions::Loop::Zones, zonesServer);

    FakeApiServer classicServer;
    QVERIFY(classicServer.start());
    auto computer = [](const QString& id, const QString& action, QJsonObject input = {}) {
        input.insert(QStringLiteral("action"), action);
        return reply({use(id, QStringLiteral("computer"), input)});
    };
    // Coordinates in the model's scaled space: the 1280x800 screen is sent as WXGA 1280x800 (unscaled).
    auto at = [](int x, int y) { return QJsonObject{{QStringLiteral("coordinate"), QJsonArray{x, y}}}; };
    classicServer.enqueue(computer(QStringLiteral("c1"), QStringLiteral("screenshot")));
    classicServer.enqueue(computer(QStringLiteral("c2"), QStringLiteral("left_click"), at(240, 70)));
    classicServer.enqueue(computer(QStringLiteral("c3"), QStringLiteral("type"),
                                   {{QStringLiteral("text"), QStringLiteral("Ada")}}));
    classicServer.enqueue(computer(QStringLiteral("c4"), QStringLiteral("left_click"), at(80, 211)));
    classicServer.enqueue(computer(QStringLiteral("c5"), QStringLiteral("left_click"), at(240, 130)));
    classicServer.enqueue(computer(QStringLiteral("c6"), QStringLiteral("left_click"), at(240, 192)));
    classicServer.enqueue(computer(QStringLiteral("c7"), QStringLiteral("left_click"), at(240, 515)));
    classicServer.enqueue(FakeApiServer::textReply(QStringLiteral("The form is submitted.")));
    const TaskOutcome classicOutcome = run(DirectorOptions::Loop::Classic, classicServer);

    QVERIFY2(zonesOutcome.success(), qPrintable(zonesOutcome.message));
    QVERIFY2(classicOutcome.success(), qPrintable(classicOutcome.message));
    const DirectorUsage& z = zonesOutcome.usage;
    const DirectorUsage& c = classicOutcome.usage;
    qInfo("MEASURE fill-form zones:   calls=%d estimated_input_tokens=%lld screenshots=%d actions=%d",
          z.modelCalls, static_cast<long long>(z.estimatedInputTokens), z.screenshotsSent, z.actionsExecuted);
    qInfo("MEASURE fill-form classic: calls=%d estimated_input_tokens=%lld screenshots=%d actions=%d",
          c.modelCalls, static_cast<long long>(c.estimatedInputTokens), c.screenshotsSent, c.actionsExecuted);
    QCOMPARE(z.modelCalls, 2);
    QCOMPARE(c.modelCalls, 8);
    QVERIFY(z.modelCalls * 3 <= c.modelCalls);                     // target: at most a third of the calls
    QVERIFY(z.estimatedInputTokens * 3 <= c.estimatedInputTokens); // and of the input tokens
    QCOMPARE(z.screenshotsSent, 0);
    // Both did the same work on the screen.
    QCOMPARE(z.actionsExecuted, 6);
    QCOMPARE(c.actionsExecuted, 6);
}

namespace {

// One scripted fixture task for the calls measurement: the zones before, what appears after an action, and
// the replies a model gives in each loop.
struct Scenario
{
    QString name;
    QString task;
    QList<Zone> zones;
    // Zones shown after an action (nullopt: unchanged).
    std::function<std::optional<QList<Zone>>(const Action&)> after;
    // The zone loop as a model uses it: one run_steps call that names every step by label.
    QList<FakeApiServer::Step> zonesReplies;
    // The zone loop with the per-zone tools only (ids: a zone that appears later needs another call).
    QList<FakeApiServer::Step> zoneToolReplies;
    QList<FakeApiServer::Step> classicReplies;
};

bool hits(const Action& a, const QString& zoneId, const QRect& bounds)
{
    return a.zoneId == zoneId || (a.point && a.zoneId.isEmpty() && bounds.contains(*a.point));
}

FakeApiServer::Step computerReply(const QString& id, const QString& action, QJsonObject input = {})
{
    input.insert(QStringLiteral("action"), action);
    return reply({use(id, QStringLiteral("computer"), input)});
}

QJsonObject at(int x, int y)
{
    return QJsonObject{{QStringLiteral("coordinate"), QJsonArray{x, y}}};
}

// A two-step task: click `opener`, then `choice` among the zones that appear; both back to the start after.
// `steps`: the same in the local command language (run_steps).
Scenario openThenChoose(const QString& name, const QString& task, const Zone& opener,
                        const QList<Zone>& appearing, const QString& choiceId, const QStringList& steps)
{
    Scenario s;
    s.name = name;
    s.task = task;
    s.zones = formZones();
    s.zones.append(opener);
    QList<Zone> open = s.zones;
    open.append(appearing);
    const Zone choice = *std::find_if(appearing.begin(), appearing.end(),
                                      [&choiceId](const Zone& z) { return z.id == choiceId; });
    const QList<Zone> closed = s.zones;
    s.after = [=](const Action& a) -> std::optional<QList<Zone>> {
        if (hits(a, opener.id, opener.bounds))
            return open;
        if (hits(a, choice.id, choice.bounds))
            return closed;
        return std::nullopt;
    };
    s.zonesReplies = {reply({runSteps(QStringLiteral("s1"), steps), complete(QStringLiteral("s2"))})};
    s.zoneToolReplies = {reply({use(QStringLiteral("s1"), QStringLiteral("click_zone"),
                                    {{QStringLiteral("zone_id"), opener.id}})}),
                         reply({use(QStringLiteral("s2"), QStringLiteral("click_zone"),
                                    {{QStringLiteral("zone_id"), choice.id}}),
                                use(QStringLiteral("s3"), QStringLiteral("task_complete"),
                                    {{QStringLiteral("summary"), QStringLiteral("done")}})})};
    const QPoint first = opener.center();
    const QPoint second = choice.center();
    s.classicReplies = {
        computerReply(QStringLiteral("c1"), QStringLiteral("screenshot")),
        computerReply(QStringLiteral("c2"), QStringLiteral("left_click"), at(first.x(), first.y())),
        computerReply(QStringLiteral("c3"), QStringLiteral("left_click"), at(second.x(), second.y())),
        FakeApiServer::textReply(QStringLiteral("Done."))};
    return s;
}

Scenario menuScenario()
{
    return openThenChoose(
        QStringLiteral("open-menu-item"), QStringLiteral("Open the File menu and choose Open."),
        zone(QStringLiteral("z20"), ZoneType::MenuItem, QStringLiteral("File"), QRect(5, 2, 40, 20)),
        {zone(QStringLiteral("z40"), ZoneType::MenuItem, QStringLiteral("Open"), QRect(5, 24, 150, 22)),
         zone(QStringLiteral("z41"), ZoneType::MenuItem, QStringLiteral("Save"), QRect(5, 46, 150, 22)),
         zone(QStringLiteral("z42"), ZoneType::MenuItem, QStringLiteral("Quit"), QRect(5, 68, 150, 22))},
        QStringLiteral("z40"), {QStringLiteral("click File"), QStringLiteral("click Open")});
}

Scenario dialogScenario()
{
    return openThenChoose(
        QStringLiteral("answer-dialog"), QStringLiteral("Open the dialog and answer Yes."),
        zone(QStringLiteral("z22"), ZoneType::Button, QStringLiteral("Open Dialog"),
             QRect(400, 500, 120, 30)),
        {zone(QStringLiteral("z50"), ZoneType::Static, QStringLiteral("Save the changes?"),
              QRect(500, 300, 200, 20)),
         zone(QStringLiteral("z51"), ZoneType::Button, QStringLiteral("Yes"), QRect(500, 340, 80, 30)),
         zone(QStringLiteral("z52"), ZoneType::Button, QStringLiteral("No"), QRect(600, 340, 80, 30))},
        QStringLiteral("z51"), {QStringLiteral("click \"Open Dialog\""), QStringLiteral("click Yes")});
}

Scenario formScenario()
{
    Scenario s;
    s.name = QStringLiteral("fill-form-submit");
    s.task = QStringLiteral("Fill the form: name Ada, subscribe, color Blue, then submit.");
    s.zones = formZones();
    QList<Zone> withList = s.zones;
    withList.append(
        zone(QStringLiteral("z30"), ZoneType::MenuItem, QStringLiteral("Red"), QRect(90, 142, 300, 20)));
    withList.append(
        zone(QStringLiteral("z31"), ZoneType::MenuItem, QStringLiteral("Green"), QRect(90, 162, 300, 20)));
    withList.append(
        zone(QStringLiteral("z32"), ZoneType::MenuItem, QStringLiteral("Blue"), QRect(90, 182, 300, 20)));
    s.after = [withList](const Action& a) -> std::optional<QList<Zone>> {
        if (hits(a, QStringLiteral("z4"), QRect(90, 118, 300, 24)))
            return withList; // the list opens
        return std::nullopt;
    };
    s.zonesReplies = {
        reply({runSteps(QStringLiteral("a1"),
                        {QStringLiteral("type \"Ada\" into Name"), QStringLiteral("check Subscribe"),
                         QStringLiteral("select Blue in Color"), QStringLiteral("click Submit")}),
               complete(QStringLiteral("a2"), QStringLiteral("sent"))})};
    s.zoneToolReplies = {reply({use(QStringLiteral("a1"), QStringLiteral("type_in_zone"),
                                    {{QStringLiteral("zone_id"), QStringLiteral("z2")},
                                     {QStringLiteral("text"), QStringLiteral("Ada")}}),
                                use(QStringLiteral("a2"), QStringLiteral("click_zone"),
                                    {{QStringLiteral("zone_id"), QStringLiteral("z5")}}),
                                use(QStringLiteral("a3"), QStringLiteral("click_zone"),
                                    {{QStringLiteral("zone_id"), QStringLiteral("z4")}})}),
                         reply({use(QStringLiteral("a4"), QStringLiteral("click_zone"),
                                    {{QStringLiteral("zone_id"), QStringLiteral("z32")}}),
                                use(QStringLiteral("a5"), QStringLiteral("click_zone"),
                                    {{QStringLiteral("zone_id"), QStringLiteral("z9")}}),
                                use(QStringLiteral("a6"), QStringLiteral("task_complete"),
                                    {{QStringLiteral("summary"), QStringLiteral("sent")}})})};
    s.classicReplies = {computerReply(QStringLiteral("c1"), QStringLiteral("screenshot")),
                        computerReply(QStringLiteral("c2"), QStringLiteral("left_click"), at(240, 70)),
                        computerReply(QStringLiteral("c3"), QStringLiteral("type"),
                                      {{QStringLiteral("text"), QStringLiteral("Ada")}}),
                        computerReply(QStringLiteral("c4"), QStringLiteral("left_click"), at(80, 211)),
                        computerReply(QStringLiteral("c5"), QStringLiteral("left_click"), at(240, 130)),
                        computerReply(QStringLiteral("c6"), QStringLiteral("left_click"), at(240, 192)),
                        computerReply(QStringLiteral("c7"), QStringLiteral("left_click"), at(240, 515)),
                        FakeApiServer::textReply(QStringLiteral("The form is submitted."))};
    return s;
}

// Runs a scenario's task through the Director (fake brush) with `factory`; the options may be adjusted.
TaskOutcome runScenario(const Scenario& s, const Director::BackendFactory& factory,
                        const std::function<void(DirectorOptions&)>& adjust = {},
                        QList<Action>* requested = nullptr, QStringList* escalations = nullptr,
                        const QString& sequenceDir = {})
{
    QImage screen(1280, 800, QImage::Format_RGB32);
    screen.fill(Qt::lightGray);
    Frame frame;
    frame.index = 1;
    frame.image = screen;
    Harness h(s.zones);
    if (!sequenceDir.isEmpty())
        h.options.sequenceDir = sequenceDir;
    if (adjust)
        adjust(h.options);
    h.director.onFrame(frame);
    h.director.setBackendFactory(factory);
    const auto after = s.after;
    // The fake brush's screen: text typed after a click on a field shows in that field (the Director reads
    // it back), replacing it as ctrl+a selected it; an option clicked in an open drop-down shows in the
    // drop-down.
    QString clicked;
    QString openDropdown;
    QList<Zone> current = s.zones;
    auto drawInto = [&frame](const QRect& box, const QString& text) { drawField(frame.image, box, text); };
    h.answer = [&h, after, &frame, &clicked, &openDropdown, &current, drawInto,
                zones = s.zones](const Action& a) {
        if (a.type == Action::Type::LeftClick) {
            clicked = a.zoneId;
            const auto z = std::find_if(current.cbegin(), current.cend(),
                                        [&a](const Zone& c) { return c.id == a.zoneId; });
            if (z != current.cend() && z->type == ZoneType::Dropdown) {
                openDropdown = z->id;
            } else if (z != current.cend() && !openDropdown.isEmpty()) {
                for (const Zone& d : zones) {
                    if (d.id == openDropdown)
                        drawInto(d.bounds, z->label);
                }
                openDropdown.clear();
                ++frame.index;
                h.director.onFrame(frame);
            }
        }
        if (a.type == Action::Type::TypeText) {
            for (const Zone& z : zones) {
                if (z.id == clicked && z.type == ZoneType::TextField)
                    drawInto(z.bounds, a.text);
            }
            ++frame.index;
            h.director.onFrame(frame);
        }
        if (auto next = after(a)) {
            current = *next;
            QTimer::singleShot(0, &h, [&h, zones = *next] { h.setZones(zones); });
        }
        return okResult();
    };
    h.run(s.task, 15000);
    if (requested)
        *requested = h.requested;
    if (escalations)
        *escalations =
            h.infos(QStringLiteral("replay_escalated")) + h.infos(QStringLiteral("sequence_ignored"));
    return h.outcome.value_or(TaskOutcome());
}

// The chat messages of role "tool" in a request, by tool_call_id.
QHash<QString, QString> chatToolResults(const FakeApiServer::Request& request)
{
    QHash<QString, QString> out;
    for (const QJsonValue& v : request.json.value(QStringLiteral("messages")).toArray()) {
        const QJsonObject m = v.toObject();
        if (m.value(QStringLiteral("role")).toString() == QLatin1String("tool"))
            out.insert(m.value(QStringLiteral("tool_call_id")).toString(),
                       m.value(QStringLiteral("content")).toString());
    }
    return out;
}

QJsonObject chatCall(const QString& id, const QString& name, const QJsonObject& arguments)
{
    return FakeApiServer::chatToolCall(id, name, arguments);
}

} // namespace

void TestDirector::model_callsVersusClassicTable()
{
    // The measure of the issue on three fixture tasks: model calls and input tokens of the zone loop —
    // with run_steps (the steps named by label, one call) and with the per-zone tools only (ids, a second
    // call for what appears later) — against the classic screenshot-per-action loop, each against its own
    // fake server; and the same task again in SPEED-MAX, replayed from the sequence the zone run recorded.
    struct Row
    {
        QString name;
        DirectorUsage zones;
        DirectorUsage zoneTools;
        DirectorUsage classic;
        DirectorUsage replay;
    };
    QList<Row> rows;
    // Planners compared on equal terms: no run is given the one before it as a remembered past task.
    const auto forget = [](DirectorOptions& o) { o.rememberTasks = false; };
    for (const Scenario& s : {formScenario(), menuScenario(), dialogScenario()}) {
        QTemporaryDir library;
        FakeApiServer zonesServer;
        FakeApiServer zoneToolsServer;
        FakeApiServer classicServer;
        FakeApiServer replayServer; // no reply scripted: any call would fail the task
        QVERIFY(zonesServer.start());
        QVERIFY(zoneToolsServer.start());
        QVERIFY(classicServer.start());
        QVERIFY(replayServer.start());
        zonesServer.enqueue(s.zonesReplies);
        zoneToolsServer.enqueue(s.zoneToolReplies);
        classicServer.enqueue(s.classicReplies);
        QList<Action> zActions;
        const TaskOutcome z = runScenario(s, modelFactory(zonesServer, DirectorOptions::Loop::Zones), forget,
                                          &zActions, nullptr, library.path());
        // run_steps' "type X into F" selects the field's text first (one key more than the other loops).
        const int selects = int(std::count_if(zActions.cbegin(), zActions.cend(), [](const Action& a) {
            return a.type == Action::Type::Key && a.text == QLatin1String("ctrl+a");
        }));
        const TaskOutcome t =
            runScenario(s, modelFactory(zoneToolsServer, DirectorOptions::Loop::Zones), forget);
        const TaskOutcome c = runScenario(s, modelFactory(classicServer, DirectorOptions::Loop::Classic),
                                          forget, nullptr, nullptr, library.path());
        const TaskOutcome r = runScenario(
            s, modelFactory(replayServer, DirectorOptions::Loop::Zones),
            [](DirectorOptions& o) {
                o.speed = SpeedMode::Max;
                o.rememberTasks = false;
            },
            nullptr, nullptr, library.path());
        QVERIFY2(z.success(), qPrintable(s.name + QStringLiteral(" zones: ") + z.message));
        QVERIFY2(t.success(), qPrintable(s.name + QStringLiteral(" zone tools: ") + t.message));
        QVERIFY2(c.success(), qPrintable(s.name + QStringLiteral(" classic: ") + c.message));
        QVERIFY2(r.success(), qPrintable(s.name + QStringLiteral(" replay: ") + r.message));
        QCOMPARE(z.usage.actionsExecuted - selects, c.usage.actionsExecuted); // the same work on the screen
        QCOMPARE(t.usage.actionsExecuted, c.usage.actionsExecuted);
        QCOMPARE(r.usage.actionsExecuted, z.usage.actionsExecuted);
        QCOMPARE(zonesServer.pendingSteps(), 0);
        QCOMPARE(zoneToolsServer.pendingSteps(), 0);
        QCOMPARE(classicServer.pendingSteps(), 0);
        QCOMPARE(replayServer.requestCount(), 0);
        rows.append({s.name, z.usage, t.usage, c.usage, r.usage});
    }
    qInfo("MEASURE %-18s | %-19s | %-19s | %-19s | %-12s | %6s", "task", "run_steps calls/tok",
          "zone tools calls/tok", "classic calls/tok", "ratio calls tok", "replay");
    for (const Row& r : rows) {
        qInfo("MEASURE %-18s | %5d %7lld %5d | %5d %7lld %5d | %5d %7lld %5d | %5.2f %6.2f | %6d",
              qPrintable(r.name), r.zones.modelCalls, static_cast<long long>(r.zones.estimatedInputTokens),
              r.zones.screenshotsSent, r.zoneTools.modelCalls,
              static_cast<long long>(r.zoneTools.estimatedInputTokens), r.zoneTools.screenshotsSent,
              r.classic.modelCalls, static_cast<long long>(r.classic.estimatedInputTokens),
              r.classic.screenshotsSent, double(r.zones.modelCalls) / std::max(1, r.classic.modelCalls),
              double(r.zones.estimatedInputTokens) / std::max<qint64>(1, r.classic.estimatedInputTokens),
              r.replay.modelCalls);
        // The issue's target: at most a third of the classic loop's calls and input tokens, on every task.
        QCOMPARE(r.zones.modelCalls, 1);
        QVERIFY2(r.zones.modelCalls * 3 <= r.classic.modelCalls, qPrintable(r.name));
        QVERIFY2(r.zones.estimatedInputTokens * 3 <= r.classic.estimatedInputTokens, qPrintable(r.name));
        QCOMPARE(r.zones.screenshotsSent, 0);
        // The per-zone tools alone: a third of the tokens, fewer calls.
        QVERIFY2(r.zoneTools.estimatedInputTokens * 3 <= r.classic.estimatedInputTokens, qPrintable(r.name));
        QVERIFY(r.zoneTools.modelCalls < r.classic.modelCalls);
        QCOMPARE(r.replay.modelCalls, 0);
    }
}

void TestDirector::model_runStepsResolvesLabelsAsTheyAppear()
{
    // "click Open" names a menu item that only exists once the menu is open: resolved just before it runs.
    const Scenario s = menuScenario();
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(s.zonesReplies);
    QList<Action> requested;
    const TaskOutcome o = runScenario(s, modelFactory(server, DirectorOptions::Loop::Zones), {}, &requested);
    QVERIFY2(o.success(), qPrintable(o.message));
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(requested.size(), 2);
    QCOMPARE(requested[0].zoneId, QStringLiteral("z20"));
    QCOMPARE(requested[1].zoneId, QStringLiteral("z40"));
    // The model is told about the tool and when to use it.
    const QJsonObject body = server.requests().first().json;
    bool described = false;
    for (const QJsonValue& t : body.value(QStringLiteral("tools")).toArray()) {
        const QJsonObject tool = t.toObject();
        if (tool.value(QStringLiteral("name")).toString() == QLatin1String("run_steps"))
            described =
                tool.value(QStringLiteral("description")).toString().contains(QStringLiteral("LABEL"));
    }
    QVERIFY(described);
    QVERIFY(
        body.value(QStringLiteral("system")).toVariant().toString().contains(QStringLiteral("run_steps")) ||
        QJsonDocument(body).toJson().contains("use run_steps"));
    // The plan shows the script's steps.
    QCOMPARE(o.plan.steps.size(), 2);
    QCOMPARE(o.plan.count(PlanStep::Status::Done), 2);
}

void TestDirector::model_runStepsMissingZoneAsksTheModel()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(
        reply({runSteps(QStringLiteral("r1"), {QStringLiteral("click OK"), QStringLiteral("click Frobnicate"),
                                               QStringLiteral("click Submit")}),
               complete(QStringLiteral("r2"))}));
    server.enqueue(reply({use(QStringLiteral("r3"), QStringLiteral("task_impossible"),
                              {{QStringLiteral("explanation"), QStringLiteral("there is no Frobnicate")}})}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Click OK, Frobnicate and Submit.")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Impossible));
    QCOMPARE(h.outcome->message, QStringLiteral("there is no Frobnicate"));
    // Step 1 ran; step 2's zone was looked for again after one re-analysis; step 3 never ran.
    QCOMPARE(h.requested.size(), 1);
    QCOMPARE(h.requested[0].zoneId, QStringLiteral("z7"));
    QCOMPARE(h.analyses.size(), 1);
    // The task_complete of the first reply did not count: the model was asked again.
    QCOMPARE(server.requestCount(), 2);
    const auto results = toolResults(server.requests()[1]);
    QVERIFY(results.contains(QStringLiteral("r1")));
    QVERIFY(results.contains(QStringLiteral("r2")));
    QVERIFY(results[QStringLiteral("r1")].value(QStringLiteral("is_error")).toBool());
    const QString text = resultText(results[QStringLiteral("r1")]);
    QVERIFY2(text.startsWith(QStringLiteral("stopped at step 2 of 3 (click Frobnicate): no zone matches")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("no zone matches \"Frobnicate\"")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("1. click OK: done (z7)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("2. click Frobnicate: failed")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("3. click Submit: not run")), qPrintable(text));
    // One tool_result for the whole script.
    int forScript = 0;
    const QJsonArray content = server.requests()[1]
                                   .json.value(QStringLiteral("messages"))
                                   .toArray()
                                   .last()
                                   .toObject()
                                   .value(QStringLiteral("content"))
                                   .toArray();
    for (const QJsonValue& v : content)
        forScript += v.toObject().value(QStringLiteral("tool_use_id")).toString() == QLatin1String("r1");
    QCOMPARE(forScript, 1);
}

void TestDirector::model_runStepsHighRiskConfirmed()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(
        reply({runSteps(QStringLiteral("r1"), {QStringLiteral("click OK"), QStringLiteral("click Delete"),
                                               QStringLiteral("click Submit")}),
               complete(QStringLiteral("r2"))}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    h.options.confirmation = safety::ConfirmationMode::Ask;
    int asked = 0;
    QObject::connect(&h.director, &Director::confirmationRequested, &h,
                     [&h, &asked](quint64 id, const Action& a, const QString& reason) {
                         ++asked;
                         QCOMPARE(a.zoneId, QStringLiteral("z8"));
                         QVERIFY(reason.contains(QStringLiteral("Delete")));
                         QCOMPARE(h.requested.size(), 1); // OK ran; Delete waits for the answer
                         QTimer::singleShot(0, &h, [&h, id] { h.director.answerConfirmation(id, true); });
                     });
    QVERIFY(h.run(QStringLiteral("Click OK, Delete and Submit.")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(asked, 1);
    QCOMPARE(server.requestCount(), 1);
    QStringList ids;
    for (const Action& a : h.requested)
        ids << a.zoneId;
    QCOMPARE(ids, QStringList({QStringLiteral("z7"), QStringLiteral("z8"), QStringLiteral("z9")}));
}

void TestDirector::model_runStepsHighRiskDeclined()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(
        reply({runSteps(QStringLiteral("r1"), {QStringLiteral("click OK"), QStringLiteral("click Delete"),
                                               QStringLiteral("click Submit")}),
               complete(QStringLiteral("r2"))}));
    server.enqueue(reply({use(QStringLiteral("r3"), QStringLiteral("task_impossible"),
                              {{QStringLiteral("explanation"), QStringLiteral("the user declined")}})}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    h.options.confirmation = safety::ConfirmationMode::Ask;
    QObject::connect(&h.director, &Director::confirmationRequested, &h,
                     [&h](quint64 id, const Action&, const QString&) {
                         QTimer::singleShot(0, &h, [&h, id] { h.director.answerConfirmation(id, false); });
                     });
    QVERIFY(h.run(QStringLiteral("Click OK, Delete and Submit.")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Impossible));
    QCOMPARE(h.requested.size(), 1); // OK only: Delete declined, Submit never reached
    QCOMPARE(h.outcome->usage.actionsRefused, 1);
    QCOMPARE(server.requestCount(), 2);
    const auto results = toolResults(server.requests()[1]);
    QVERIFY(results[QStringLiteral("r1")].value(QStringLiteral("is_error")).toBool());
    const QString text = resultText(results[QStringLiteral("r1")]);
    QVERIFY2(text.startsWith(QStringLiteral("stopped at step 2 of 3 (click Delete) was not executed")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("declined")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("3. click Submit: not run")), qPrintable(text));
}

void TestDirector::model_runStepsIterationLimit()
{
    // Every step is one decision of the Director: a long script stops at the iteration limit.
    FakeApiServer server;
    QVERIFY(server.start());
    QStringList steps;
    for (int i = 0; i < 8; ++i)
        steps << QStringLiteral("click OK");
    server.enqueue(reply({runSteps(QStringLiteral("r1"), steps), complete(QStringLiteral("r2"))}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    h.options.maxIterations = 4;
    QVERIFY(h.run(QStringLiteral("Click OK eight times.")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::IterationLimit));
    QCOMPARE(h.outcome->usage.iterations, 4);
    QCOMPARE(h.requested.size(), 4); // the model call carried step 1, then one step an iteration
    QCOMPARE(server.requestCount(), 1);
    QCOMPARE(h.infos(QStringLiteral("iteration_warning")).size(), 1);
}

void TestDirector::model_runStepsMalformed()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(reply(
        {use(QStringLiteral("m1"), QStringLiteral("run_steps"),
             {{QStringLiteral("steps"), QStringLiteral("click OK; frobnicate")}}),
         use(QStringLiteral("m2"), QStringLiteral("run_steps"),
             {{QStringLiteral("steps"), QJsonArray{1, 2}}}),
         use(QStringLiteral("m3"), QStringLiteral("run_steps"), {}),
         use(QStringLiteral("m4"), QStringLiteral("run_steps"), {{QStringLiteral("steps"), QJsonArray()}}),
         use(QStringLiteral("m5"), QStringLiteral("run_steps"),
             {{QStringLiteral("steps"),
               QJsonArray{QStringLiteral("click OK"), QStringLiteral("launch xterm")}}}),
         use(QStringLiteral("m6"), QStringLiteral("run_steps"),
             {{QStringLiteral("steps"),
               QJsonArray{QStringLiteral("click OK"), QStringLiteral("type into")}}})}));
    server.enqueue(reply({complete(QStringLiteral("m7"), QStringLiteral("gave up"))}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Click OK.")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QVERIFY(h.requested.isEmpty()); // a malformed script runs no step at all
    QCOMPARE(server.requestCount(), 2);
    const auto results = toolResults(server.requests()[1]);
    const QList<std::pair<const char*, const char*>> expected = {
        {"m1", "line 1, column"}, {"m2", "step 1 is not a string"},  {"m3", "needs \"steps\""},
        {"m4", "empty"},          {"m5", "launch is not available"}, {"m6", "step 2"}};
    for (const auto& [id, what] : expected) {
        const QJsonObject r = results.value(QLatin1String(id));
        QVERIFY2(r.value(QStringLiteral("is_error")).toBool(), id);
        QVERIFY2(resultText(r).contains(QLatin1String(what)), qPrintable(resultText(r)));
    }
}

void TestDirector::model_runStepsDryRun()
{
    // A dry run executes nothing, so the menu never opens: the script logs what it can and says why it
    // stopped, without an error, a re-analysis or another call.
    const Scenario s = menuScenario();
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(s.zonesReplies);
    QList<Action> requested;
    const TaskOutcome o = runScenario(
        s, modelFactory(server, DirectorOptions::Loop::Zones), [](DirectorOptions& d) { d.dryRun = true; },
        &requested);
    QVERIFY2(o.success(), qPrintable(o.message));
    QVERIFY(o.dryRun);
    QVERIFY(requested.isEmpty());
    QCOMPARE(server.requestCount(), 1);
}

void TestDirector::model_runStepsLowSpeedAsksTheModel()
{
    // SPEED-LOW verifies every action with the model: the script pauses after each step and the model
    // sends the rest again.
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(
        reply({runSteps(QStringLiteral("r1"), {QStringLiteral("click OK"), QStringLiteral("click Submit")}),
               complete(QStringLiteral("r2"))}));
    server.enqueue(reply({runSteps(QStringLiteral("r3"), {QStringLiteral("click Submit")}),
                          complete(QStringLiteral("r4"), QStringLiteral("submitted"))}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    h.options.speed = SpeedMode::Low;
    QVERIFY(h.run(QStringLiteral("Click OK, then Submit.")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(h.outcome->message, QStringLiteral("submitted"));
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(h.requested.size(), 2);
    const auto results = toolResults(server.requests()[1]);
    QVERIFY(!results[QStringLiteral("r1")].value(QStringLiteral("is_error")).toBool());
    const QString text = resultText(results[QStringLiteral("r1")]);
    QVERIFY2(text.startsWith(QStringLiteral("paused after step 1 of 2")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("2. click Submit: not run")), qPrintable(text));
}

void TestDirector::model_zoneLineCarriesTreeFields_data()
{
    QTest::addColumn<Zone>("zone");
    QTest::addColumn<QString>("line");
    Zone vision;
    vision.id = QStringLiteral("z1");
    vision.type = ZoneType::Button;
    vision.label = QStringLiteral("OK");
    vision.bounds = QRect(10, 20, 80, 24);
    QTest::newRow("vision: no tree fields") << vision << QStringLiteral("z1 button \"OK\" [10,20,80,24]");
    Zone box = vision;
    box.id = QStringLiteral("z2");
    box.type = ZoneType::CheckBox;
    box.label = QStringLiteral("Subscribe");
    box.source = ZoneSource::Accessibility;
    box.role = QStringLiteral("check box");
    box.state = ZoneState(ZoneStateFlag::Enabled) | ZoneStateFlag::Checked | ZoneStateFlag::Focused;
    QTest::newRow("role and states")
        << box
        << QStringLiteral("z2 checkbox \"Subscribe\" [10,20,80,24] focused,checked role \"check box\"");
    Zone field = vision;
    field.id = QStringLiteral("z3");
    field.type = ZoneType::TextField;
    field.label = QStringLiteral("Name");
    field.role = QStringLiteral("text");
    field.value = QStringLiteral("Ada \"the first\"");
    field.parentId = QStringLiteral("z1");
    QTest::newRow("value, quoted")
        << field
        << QStringLiteral(
               "z3 text_field \"Name\" [10,20,80,24] role \"text\" value \"Ada \\\"the first\\\"\" in z1");
    Zone secret = field;
    secret.isPassword = true;
    secret.value = QStringLiteral("hunter2");
    QTest::newRow("a password's value never")
        << secret << QStringLiteral("z3 text_field \"(password field)\" [10,20,80,24] role \"text\" in z1");
    Zone long_ = field;
    long_.parentId.clear();
    long_.value = QString(100, QLatin1Char('a'));
    QTest::newRow("a long value is cut")
        << long_
        << QStringLiteral("z3 text_field \"Name\" [10,20,80,24] role \"text\" value \"%1...\"")
               .arg(QString(80, QLatin1Char('a')));
}

void TestDirector::model_zoneLineCarriesTreeFields()
{
    QFETCH(Zone, zone);
    QFETCH(QString, line);
    QCOMPARE(ModelPlanner::describeZone(zone), line);
}

void TestDirector::model_runStepsAfterZoneTools()
{
    // Zone tools and run_steps in one reply run in the order of the calls.
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(reply({use(QStringLiteral("r1"), QStringLiteral("click_zone"),
                              {{QStringLiteral("zone_id"), QStringLiteral("z5")}}),
                          runSteps(QStringLiteral("r2"), {QStringLiteral("click OK")}),
                          use(QStringLiteral("r3"), QStringLiteral("click_zone"),
                              {{QStringLiteral("zone_id"), QStringLiteral("z9")}}),
                          complete(QStringLiteral("r4"))}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Subscribe, OK, Submit.")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(server.requestCount(), 1);
    QStringList ids;
    for (const Action& a : h.requested)
        ids << a.zoneId;
    QCOMPARE(ids, QStringList({QStringLiteral("z5"), QStringLiteral("z7"), QStringLiteral("z9")}));
}

void TestDirector::openai_multiStepChain()
{
    // The fill-form task through the OpenAI-compatible provider: several tool_calls per reply, the
    // results go back as role "tool" messages with the same ids.
    FakeApiServer server;
    QVERIFY(server.start());
    Scenario s = formScenario();
    server.enqueue(FakeApiServer::chatToolCallsReply(
        {chatCall(QStringLiteral("call_1"), QStringLiteral("type_in_zone"),
                  {{QStringLiteral("zone_id"), QStringLiteral("z2")},
                   {QStringLiteral("text"), QStringLiteral("Ada")}}),
         chatCall(QStringLiteral("call_2"), QStringLiteral("click_zone"),
                  {{QStringLiteral("zone_id"), QStringLiteral("z5")}}),
         chatCall(QStringLiteral("call_3"), QStringLiteral("click_zone"),
                  {{QStringLiteral("zone_id"), QStringLiteral("z4")}})},
        QStringLiteral("Filling the form."), FakeApiServer::chatUsage(900, 60)));
    server.enqueue(
        FakeApiServer::chatToolCallsReply({chatCall(QStringLiteral("call_4"), QStringLiteral("click_zone"),
                                                    {{QStringLiteral("zone_id"), QStringLiteral("z32")}}),
                                           chatCall(QStringLiteral("call_5"), QStringLiteral("click_zone"),
                                                    {{QStringLiteral("zone_id"), QStringLiteral("z9")}}),
                                           chatCall(QStringLiteral("call_6"), QStringLiteral("task_complete"),
                                                    {{QStringLiteral("summary"), QStringLiteral("sent")}})},
                                          {}, FakeApiServer::chatUsage(1100, 40)));
    QList<Action> requested;
    const TaskOutcome o = runScenario(s, openAiFactory(server, DirectorOptions::Loop::Zones), {}, &requested);
    QVERIFY2(o.success(), qPrintable(o.message));
    QCOMPARE(o.message, QStringLiteral("sent"));
    QCOMPARE(o.usage.modelCalls, 2);
    QCOMPARE(o.usage.inputTokens, qint64(2000));
    QCOMPARE(o.usage.outputTokens, qint64(100));
    QCOMPARE(server.requestCount(), 2);
    QCOMPARE(server.requests()[0].path, QByteArray("/v1/chat/completions"));
    QCOMPARE(server.requests()[0].header("authorization"),
             QByteArray("Bearer sk-openai-test-key-never-logged"));
    QStringList ids;
    for (const Action& a : requested)
        ids << a.zoneId;
    QCOMPARE(ids, QStringList({QStringLiteral("z2"), QString(), QStringLiteral("z5"), QStringLiteral("z4"),
                               QStringLiteral("z32"), QStringLiteral("z9")}));
    QCOMPARE(requested[1].text, QStringLiteral("Ada"));
    // The second request answers every call of the first, in the chat format.
    const auto results = chatToolResults(server.requests()[1]);
    for (const char* id : {"call_1", "call_2", "call_3"})
        QVERIFY2(results.contains(QLatin1String(id)), id);
    const QJsonArray messages = server.requests()[1].json.value(QStringLiteral("messages")).toArray();
    bool echoed = false;
    for (const QJsonValue& v : messages) {
        const QJsonObject m = v.toObject();
        if (m.value(QStringLiteral("role")).toString() == QLatin1String("assistant"))
            echoed = m.value(QStringLiteral("tool_calls")).toArray().size() == 3;
    }
    QVERIFY(echoed); // the assistant turn with its tool_calls went back before the tool results
}

void TestDirector::openai_malformedReplyFails()
{
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(FakeApiServer::chatMalformed());
    Harness h;
    h.director.setBackendFactory(openAiFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Click OK.")));
    QCOMPARE(int(h.outcome->result), int(TaskOutcome::Result::Failed));
    QVERIFY2(h.outcome->message.contains(QStringLiteral("JSON")), qPrintable(h.outcome->message));
    QVERIFY(!h.outcome->message.contains(QStringLiteral("sk-openai-test")));
    QVERIFY(h.requested.isEmpty());
}

void TestDirector::openai_malformedArgumentsIsError()
{
    // Arguments that are not a JSON object: the call is answered with an error the model can act on.
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(FakeApiServer::chatToolCallsReply({FakeApiServer::chatToolCallRaw(
        QStringLiteral("call_bad"), QStringLiteral("click_zone"), QStringLiteral("{\"zone_id\": \"z7"))}));
    server.enqueue(FakeApiServer::chatToolCallsReply(
        {chatCall(QStringLiteral("call_ok"), QStringLiteral("click_zone"),
                  {{QStringLiteral("zone_id"), QStringLiteral("z7")}}),
         chatCall(QStringLiteral("call_done"), QStringLiteral("task_complete"),
                  {{QStringLiteral("summary"), QStringLiteral("ok")}})}));
    Harness h;
    h.director.setBackendFactory(openAiFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Click OK.")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(server.requestCount(), 2);
    const auto results = chatToolResults(server.requests()[1]);
    QVERIFY(results.contains(QStringLiteral("call_bad")));
    QVERIFY2(results[QStringLiteral("call_bad")].contains(QStringLiteral("JSON")),
             qPrintable(results[QStringLiteral("call_bad")]));
    QCOMPARE(h.requested.size(), 1);
    QCOMPARE(h.requested[0].zoneId, QStringLiteral("z7"));
}

void TestDirector::openai_rateLimitRetried()
{
    // 429 with retry-after: the provider waits and retries; the task goes on as if nothing happened.
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(FakeApiServer::chatError(429, QStringLiteral("rate_limit_exceeded"),
                                            QStringLiteral("Rate limit reached"),
                                            {{QByteArrayLiteral("retry-after"), QByteArrayLiteral("0")}}));
    server.enqueue(
        FakeApiServer::chatToolCallsReply({chatCall(QStringLiteral("call_1"), QStringLiteral("click_zone"),
                                                    {{QStringLiteral("zone_id"), QStringLiteral("z7")}})}));
    server.enqueue(FakeApiServer::chatError(429, QStringLiteral("rate_limit_exceeded"),
                                            QStringLiteral("Rate limit reached"),
                                            {{QByteArrayLiteral("retry-after"), QByteArrayLiteral("0")}}));
    server.enqueue(FakeApiServer::chatToolCallsReply(
        {chatCall(QStringLiteral("call_2"), QStringLiteral("task_complete"),
                  {{QStringLiteral("summary"), QStringLiteral("clicked")}})}));
    Harness h;
    h.director.setBackendFactory(openAiFactory(server, DirectorOptions::Loop::Zones));
    QVERIFY(h.run(QStringLiteral("Click OK.")));
    QVERIFY2(h.outcome->success(), qPrintable(h.outcome->message));
    QCOMPARE(server.requestCount(), 4);
    QCOMPARE(h.outcome->usage.modelCalls, 2); // a retried call is one call
    QCOMPARE(h.requested.size(), 1);
    // The retry sent the same request again.
    QCOMPARE(server.requests()[0].body, server.requests()[1].body);
}

void TestDirector::sequence_recordThenReplay()
{
    QTemporaryDir library;
    const Scenario s = formScenario();
    auto max = [](DirectorOptions& o) { o.speed = SpeedMode::Max; };

    FakeApiServer first;
    QVERIFY(first.start());
    first.enqueue(s.zonesReplies);
    QList<Action> recorded;
    const TaskOutcome o1 = runScenario(s, modelFactory(first, DirectorOptions::Loop::Zones), max, &recorded,
                                       nullptr, library.path());
    QVERIFY2(o1.success(), qPrintable(o1.message));
    QCOMPARE(o1.usage.modelCalls, 1); // run_steps: the whole form in one call
    const SequenceLibrary lib(library.path());
    QString warning;
    const auto stored = lib.find(s.task, &warning);
    QVERIFY2(stored, qPrintable(warning));
    QCOMPARE(stored->steps.size(), 7); // click, select all, type; check; open, pick; submit
    QCOMPARE(stored->planner, QStringLiteral("anthropic"));
    // Zone references, not ids or coordinates.
    QFile file(lib.pathFor(s.task));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray json = file.readAll();
    QVERIFY(!json.contains("\"z32\""));
    QVERIFY(json.contains("\"Blue\""));
    QVERIFY(json.contains("\"Name:\"")); // the unlabelled field by its caption

    // The same task (worded a little differently) in MAX again: replayed, no model call at all.
    FakeApiServer second;
    QVERIFY(second.start());
    Scenario again = s;
    again.task = QStringLiteral("fill the form:  Name Ada, subscribe, color Blue and submit");
    // The zone ids changed since (another analysis): the labels still resolve.
    for (Zone& z : again.zones)
        z.id.prepend(QLatin1Char('n'));
    auto after = s.after;
    again.after = [after](const Action& a) -> std::optional<QList<Zone>> {
        Action mapped = a;
        if (mapped.zoneId.startsWith(QLatin1Char('n')))
            mapped.zoneId.remove(0, 1);
        auto next = after(mapped);
        if (next) {
            for (Zone& z : *next)
                z.id.prepend(QLatin1Char('n'));
        }
        return next;
    };
    QList<Action> replayed;
    const TaskOutcome o2 = runScenario(again, modelFactory(second, DirectorOptions::Loop::Zones), max,
                                       &replayed, nullptr, library.path());
    QVERIFY2(o2.success(), qPrintable(o2.message));
    QCOMPARE(o2.usage.modelCalls, 0);
    QCOMPARE(second.requestCount(), 0);
    QCOMPARE(o2.planner, QStringLiteral("replay"));
    QCOMPARE(replayed.size(), recorded.size());
    for (qsizetype i = 0; i < replayed.size(); ++i) {
        QCOMPARE(int(replayed[i].type), int(recorded[i].type));
        QCOMPARE(replayed[i].zoneId,
                 recorded[i].zoneId.isEmpty() ? QString() : QLatin1Char('n') + recorded[i].zoneId);
        QCOMPARE(replayed[i].text, recorded[i].text);
    }
    QCOMPARE(int(o2.finalSpeed), int(SpeedMode::Max)); // verified at the end, nothing escalated
}

void TestDirector::sequence_replayFallsBackToPlanner()
{
    QTemporaryDir library;
    const Scenario s = dialogScenario();
    auto max = [](DirectorOptions& o) { o.speed = SpeedMode::Max; };
    FakeApiServer first;
    QVERIFY(first.start());
    first.enqueue(s.zonesReplies);
    const TaskOutcome o1 = runScenario(s, modelFactory(first, DirectorOptions::Loop::Zones), max, nullptr,
                                       nullptr, library.path());
    QVERIFY2(o1.success(), qPrintable(o1.message));

    // The dialog now answers with "OK" instead of "Yes": the replay cannot resolve its last step and the
    // model planner takes over.
    Scenario changed = s;
    const auto after = s.after;
    changed.after = [after](const Action& a) -> std::optional<QList<Zone>> {
        auto next = after(a);
        if (next) {
            for (Zone& z : *next) {
                if (z.id == QLatin1String("z51"))
                    z.label = QStringLiteral("Proceed");
            }
        }
        return next;
    };
    FakeApiServer second;
    QVERIFY(second.start());
    second.enqueue(reply({use(QStringLiteral("f1"), QStringLiteral("click_zone"),
                              {{QStringLiteral("zone_id"), QStringLiteral("z51")}}),
                          use(QStringLiteral("f2"), QStringLiteral("task_complete"),
                              {{QStringLiteral("summary"), QStringLiteral("answered")}})}));
    QList<Action> requested;
    QStringList escalations;
    const TaskOutcome o2 = runScenario(changed, modelFactory(second, DirectorOptions::Loop::Zones), max,
                                       &requested, &escalations, library.path());
    QVERIFY2(o2.success(), qPrintable(o2.message));
    QCOMPARE(second.requestCount(), 1);
    QCOMPARE(o2.usage.modelCalls, 1);
    QCOMPARE(o2.planner, QStringLiteral("anthropic"));
    QCOMPARE(escalations.size(), 1);
    QVERIFY2(escalations.first().contains(QStringLiteral("\"Yes\"")), qPrintable(escalations.first()));
    QVERIFY(int(o2.finalSpeed) > int(SpeedMode::Max)); // escalated, logged
    QCOMPARE(requested.size(), 2);                     // Open Dialog (replayed), then the model's click
    QCOMPARE(requested[0].zoneId, QStringLiteral("z22"));
    QCOMPARE(requested[1].zoneId, QStringLiteral("z51"));
    // The new way is recorded over the old one.
    const auto stored = SequenceLibrary(library.path()).find(s.task);
    QVERIFY(stored);
    QCOMPARE(stored->steps.size(), 2); // the replayed step that worked, then the planner's
    QCOMPARE(stored->steps.first().target.label, QStringLiteral("Open Dialog"));
    QCOMPARE(stored->steps.last().target.label, QStringLiteral("Proceed"));
}

void TestDirector::sequence_corruptFileIgnored()
{
    QTemporaryDir library;
    const Scenario s = menuScenario();
    const SequenceLibrary lib(library.path());
    QVERIFY(QDir().mkpath(library.path()));
    QFile file(lib.pathFor(s.task));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"format\": 1, \"task\": \"Open the File menu\", \"steps\": [{\"act");
    file.close();
    QString warning;
    QVERIFY(!lib.find(s.task, &warning));
    QVERIFY2(warning.contains(lib.pathFor(s.task)), qPrintable(warning));

    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(s.zonesReplies);
    QStringList warnings;
    const TaskOutcome o = runScenario(
        s, modelFactory(server, DirectorOptions::Loop::Zones),
        [](DirectorOptions& d) { d.speed = SpeedMode::Max; }, nullptr, &warnings, library.path());
    QVERIFY2(o.success(), qPrintable(o.message));
    QCOMPARE(o.usage.modelCalls, 1); // planned normally (one run_steps call)
    QCOMPARE(warnings.size(), 1);
    QVERIFY2(warnings.first().contains(QStringLiteral("ignoring the recorded sequence")),
             qPrintable(warnings.first()));
}

void TestDirector::sequence_notRecordedFromCoordinatesOrDryRun()
{
    QTemporaryDir library;
    const Scenario s = menuScenario();
    // The classic loop clicks raw coordinates: nothing to replay on another run.
    FakeApiServer classic;
    QVERIFY(classic.start());
    classic.enqueue(s.classicReplies);
    const TaskOutcome o = runScenario(s, modelFactory(classic, DirectorOptions::Loop::Classic), {}, nullptr,
                                      nullptr, library.path());
    QVERIFY2(o.success(), qPrintable(o.message));
    QVERIFY(!QFileInfo::exists(SequenceLibrary(library.path()).pathFor(s.task)));
    // A dry run executed nothing: nothing recorded.
    FakeApiServer dry;
    QVERIFY(dry.start());
    dry.enqueue(s.zonesReplies);
    runScenario(
        s, modelFactory(dry, DirectorOptions::Loop::Zones), [](DirectorOptions& d) { d.dryRun = true; },
        nullptr, nullptr, library.path());
    QVERIFY(!QFileInfo::exists(SequenceLibrary(library.path()).pathFor(s.task)));
}

void TestDirector::model_doneWithUnseenEffectIsUnverified_data()
{
    QTest::addColumn<bool>("fieldTakesText"); // the fake program's field shows what is typed
    QTest::addColumn<int>("result");
    QTest::newRow("field shows the text") << true << int(TaskOutcome::Result::Completed);
    // The model's "done" is its word: the field never showed "Ada", so the run is not "completed".
    QTest::newRow("field unchanged") << false << int(TaskOutcome::Result::Unverified);
}

void TestDirector::model_doneWithUnseenEffectIsUnverified()
{
    QFETCH(bool, fieldTakesText);
    QFETCH(int, result);
    FakeApiServer server;
    QVERIFY(server.start());
    server.enqueue(reply({use(QStringLiteral("t1"), QStringLiteral("type_in_zone"),
                              {{QStringLiteral("zone_id"), QStringLiteral("z2")},
                               {QStringLiteral("text"), QStringLiteral("Ada")}})}));
    server.enqueue(reply({use(QStringLiteral("t2"), QStringLiteral("task_complete"),
                              {{QStringLiteral("summary"), QStringLiteral("name typed")}})}));
    Harness h;
    h.director.setBackendFactory(modelFactory(server, DirectorOptions::Loop::Zones));
    h.options.provider = QStringLiteral("anthropic");
    // The fake program draws its field (z2, pre-filled "Untitled") into the frames the Director reads.
    Frame frame;
    frame.index = 1;
    frame.image = QImage(1280, 800, QImage::Format_RGB32);
    frame.image.fill(Qt::lightGray);
    QString text = QStringLiteral("Untitled");
    const auto draw = [&] {
        drawField(frame.image, QRect(90, 58, 300, 24), text);
        ++frame.index;
        h.director.onFrame(frame);
    };
    draw();
    h.answer = [&](const Action& a) {
        if (a.type == Action::Type::TypeText && fieldTakesText) {
            text = a.text;
            draw();
        } else if (a.type == Action::Type::TypeText) {
            draw(); // a new frame, the same field
        }
        return okResult();
    };
    QVERIFY(h.run(QStringLiteral("Type the name Ada.")));
    QCOMPARE(int(h.outcome->result), result);
    QCOMPARE(h.outcome->success(), fieldTakesText);
    QCOMPARE(server.requestCount(), 2);
    // The tool result the model saw carried the evidence: what the field reads.
    const auto results = toolResults(server.requests()[1]);
    QVERIFY(results.contains(QStringLiteral("t1")));
    const QString seen = resultText(results[QStringLiteral("t1")]);
    if (fieldTakesText) {
        QVERIFY2(!seen.contains(QLatin1String("did not appear")), qPrintable(seen));
        QCOMPARE(h.outcome->message, QStringLiteral("name typed"));
        return;
    }
    QVERIFY2(seen.contains(QLatin1String("the typed text did not appear in z2")), qPrintable(seen));
    QVERIFY2(seen.contains(QLatin1String("Untitled")), qPrintable(seen));
    // And the outcome says which action's effect was missing, and what was seen.
    QVERIFY2(h.outcome->message.contains(QLatin1String("name typed")), qPrintable(h.outcome->message));
    QVERIFY2(h.outcome->message.contains(QLatin1String("\"Ada\"")), qPrintable(h.outcome->message));
    QVERIFY2(h.outcome->message.contains(QLatin1String("Untitled")), qPrintable(h.outcome->message));
    QCOMPARE(int(h.outcome->plan.status), int(Plan::Status::Failed));
}

QTEST_MAIN(TestDirector)
#include "tst_director.moc"
