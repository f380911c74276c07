// Icon-only buttons named from pixels, end to end: a private Xvfb with a window manager, the fixture app
// with its tool bar of freedesktop theme icons (QIcon::fromTheme, no text on the buttons), and
// `ciu-agent analyze --source vision --json`: every tool button is a zone labelled after its icon, with
// label_source "icon". The truth is the fixture's own widget list (each button's action text). Buttons
// with icons of the program's own (no theme has them) are named by their tooltips: `ciu-agent run "click
// Pin"` hovers the unnamed icons until one is named Pin, and the fixture reports that button clicked; a
// name no tooltip gives clicks nothing.

#include "core/model/geometry.h"
#include "core/model/zone.h"
#include "tests/support/agentrun.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu;
using test::FixtureApp;

class TestIconButtonsE2E : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void toolButtonsAreNamedByTheirIcons();
    void textButtonsKeepTheirOcrLabels();
    void ownIconsAreNamedByTheirTooltips();
    void aNameNoTooltipGivesClicksNothing();

private:
    QList<Zone> analyze(const QRect& region);
    // `ciu-agent run TASK --execute` on vision alone (no accessibility tree names the buttons).
    test::AgentRun run(const QString& task);
    // The fixture's "clicked" events since the last call.
    QStringList clicks();

    QTemporaryDir m_sessions;

    std::unique_ptr<test::XvfbServer> m_xvfb;
    FixtureApp m_app;
    QList<FixtureApp::Widget> m_tools;
};

void TestIconButtonsE2E::initTestCase()
{
    QVERIFY2(test::xvfbAvailable(), "Xvfb is not installed");
    m_xvfb = std::make_unique<test::XvfbServer>();
    QVERIFY2(m_xvfb->start(), qPrintable(m_xvfb->errorString()));
    QVERIFY2(m_app.start(m_xvfb->environment(), {QStringLiteral("--toolbar"), QStringLiteral("--geometry"),
                                                 QStringLiteral("40,40,900,640")}),
             qPrintable(m_app.errorString()));
    QVERIFY(m_app.sync());
    for (const FixtureApp::Widget& w : m_app.widgets()) {
        if (w.name.startsWith(QLatin1String("tool_")))
            m_tools << w;
    }
    QCOMPARE(m_tools.size(), 6);
}

QList<Zone> TestIconButtonsE2E::analyze(const QRect& region)
{
    QProcessEnvironment env = m_xvfb->environment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("OMP_THREAD_LIMIT"), QStringLiteral("1"));
    const test::AgentRun r =
        test::runAgent({QStringLiteral("analyze"), QStringLiteral("--display"), m_xvfb->displayName(),
                        QStringLiteral("--source"), QStringLiteral("vision"), QStringLiteral("--json"),
                        QStringLiteral("--region"),
                        QStringLiteral("%1,%2,%3,%4")
                            .arg(region.x())
                            .arg(region.y())
                            .arg(region.width())
                            .arg(region.height())},
                       env, 120'000);
    if (r.exitCode != 0) {
        qWarning("analyze failed: %s", qPrintable(r.failure()));
        return {};
    }
    const QJsonDocument doc = QJsonDocument::fromJson(r.out.toUtf8());
    QList<Zone> zones;
    for (const QJsonValue& v : doc.array()) {
        QString error;
        const auto zone = zoneFromJson(v.toObject(), &error);
        if (!zone)
            qWarning("bad zone: %s", qPrintable(error));
        else
            zones << *zone;
    }
    return zones;
}

void TestIconButtonsE2E::toolButtonsAreNamedByTheirIcons()
{
    QRect bar;
    for (const FixtureApp::Widget& w : std::as_const(m_tools))
        bar = bar.united(w.rect);
    const QList<Zone> zones = analyze(bar.adjusted(-8, -8, 8, 8));
    QVERIFY(!zones.isEmpty());
    QStringList found;
    for (const Zone& z : zones)
        found << QStringLiteral("%1 \"%2\" (%3) %4,%5 %6x%7")
                     .arg(toString(z.type), z.label, toString(z.labelSource))
                     .arg(z.bounds.x())
                     .arg(z.bounds.y())
                     .arg(z.bounds.width())
                     .arg(z.bounds.height());
    const QString all = found.join(QStringLiteral("; "));
    for (const FixtureApp::Widget& tool : std::as_const(m_tools)) {
        // The zone over the button: its centre on the button, the button's size or the icon's.
        const Zone* match = nullptr;
        for (const Zone& z : zones) {
            if (tool.rect.contains(z.bounds.center()) && tool.rect.adjusted(-3, -3, 3, 3).contains(z.bounds))
                match = &z;
        }
        // Known gaps (see the README): Tier 1 takes the framed floppy of Adwaita's document-save for a
        // container, and the faint outline of document-new's white page on a light tool bar is not matched.
        if (tool.name == QLatin1String("tool_save"))
            QEXPECT_FAIL("", "the segmenter takes the floppy icon for a container", Continue);
        if (tool.name == QLatin1String("tool_new"))
            QEXPECT_FAIL("", "a white page on a light tool bar: too little ink to match", Continue);
        QVERIFY2(match, qPrintable(QStringLiteral("no zone on %1 at %2,%3; zones: %4")
                                       .arg(tool.name)
                                       .arg(tool.rect.x())
                                       .arg(tool.rect.y())
                                       .arg(all)));
        if (!match)
            continue;
        QCOMPARE(toString(match->type), QStringLiteral("button"));
        QVERIFY2(match->label == tool.label,
                 qPrintable(QStringLiteral("%1 read \"%2\"; zones: %3").arg(tool.name, match->label, all)));
        QCOMPARE(toString(match->labelSource), QStringLiteral("icon"));
    }
}

void TestIconButtonsE2E::textButtonsKeepTheirOcrLabels()
{
    // A push button with text is named by its text, not by an icon.
    const auto submit = m_app.widget(QStringLiteral("submit"));
    QVERIFY(submit);
    const QList<Zone> zones = analyze(submit->rect.adjusted(-10, -10, 10, 10));
    const Zone* match = nullptr;
    for (const Zone& z : zones) {
        if (intersectionOverUnion(z.bounds, submit->rect) >= 0.5)
            match = &z;
    }
    QVERIFY(match);
    QCOMPARE(match->label, submit->label);
    QCOMPARE(toString(match->labelSource), QStringLiteral("ocr"));
}

test::AgentRun TestIconButtonsE2E::run(const QString& task)
{
    QProcessEnvironment env = test::agentEnvironment(m_xvfb->environment());
    env.insert(QStringLiteral("CIU_ACCESSIBILITY"), QStringLiteral("none"));
    env.insert(QStringLiteral("CIU_SEQUENCES_DIR"), m_sessions.filePath(QStringLiteral("sequences")));
    env.insert(QStringLiteral("CIU_TASKS_DIR"), m_sessions.filePath(QStringLiteral("tasks")));
    env.insert(QStringLiteral("XDG_DATA_HOME"), m_sessions.filePath(QStringLiteral("data")));
    return test::runAgent({QStringLiteral("run"), task, QStringLiteral("--execute"),
                           QStringLiteral("--display"), m_xvfb->displayName(),
                           QStringLiteral("--session-dir"), m_sessions.path(), QStringLiteral("--json")},
                          env, 180'000);
}

QStringList TestIconButtonsE2E::clicks()
{
    if (!m_app.sync())
        return {QStringLiteral("(the fixture did not answer)")};
    QStringList names;
    for (const QJsonObject& line : m_app.pending()) {
        if (line.value(QStringLiteral("event")).toString() == QLatin1String("clicked"))
            names << line.value(QStringLiteral("name")).toString();
    }
    m_app.clearPending();
    return names;
}

void TestIconButtonsE2E::ownIconsAreNamedByTheirTooltips()
{
    clicks();
    const test::AgentRun r = run(QStringLiteral("click Pin"));
    QVERIFY2(r.exitCode == 0, qPrintable(r.failure()));
    QCOMPARE(r.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("completed"));
    QCOMPARE(clicks(), QStringList{QStringLiteral("own_pin")});
}

void TestIconButtonsE2E::aNameNoTooltipGivesClicksNothing()
{
    clicks();
    const test::AgentRun r = run(QStringLiteral("click Frobnicate"));
    QCOMPARE(r.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("impossible"));
    const QString message = r.json.value(QStringLiteral("message")).toString();
    QVERIFY2(message.contains(QLatin1String("no zone matches \"Frobnicate\"")), qPrintable(message));
    QVERIFY2(message.contains(QLatin1String("unnamed buttons read")), qPrintable(message));
    QCOMPARE(clicks(), QStringList());
}

QTEST_MAIN(TestIconButtonsE2E)
#include "tst_iconbuttons_e2e.moc"
