// End to end under Xvfb (openbox, the real X11 backend, OpenCV and Tesseract, the fixture app): the zone
// inspector's stored corrections reach a headless run. A correction file for the fixture's program (in the
// agent's $XDG_DATA_HOME, where the app saves it) relabels the Submit button "Send the form" (a user zone in
// its place) and removes the Cancel button; `ciu-agent run 'click OK; click "Send the form"'` (a dry run)
// finds the detected OK button (once the first analysis is on the map: the user zone may come before it) and
// the user's zone by its name, and the session's last zone map holds the user zone and neither the replaced
// nor the removed detection.

#include "core/knowledge/correctionstore.h"
#include "core/model/geometry.h"
#include "core/replay/sessionreader.h"
#include "platform/platformfactory.h"
#include "tests/support/agentrun.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QTemporaryDir>
#include <QTest>

#include <limits>

using namespace ciu;
using namespace ciu::test;

class TestCorrectionsE2e : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void headlessRunUsesStoredCorrections();

private:
    std::unique_ptr<XvfbServer> m_x;
    std::unique_ptr<FixtureApp> m_app;
    std::optional<platform::WindowInfo> m_window; // the fixture's, as the agent's platform lists it
    QTemporaryDir m_dir;
};

void TestCorrectionsE2e::initTestCase()
{
    if (!xvfbAvailable())
        QSKIP("Xvfb is not installed");
    QVERIFY(m_dir.isValid());
    m_x = std::make_unique<XvfbServer>();
    QVERIFY2(m_x->start(), qPrintable(m_x->errorString()));
    m_app = std::make_unique<FixtureApp>();
    QVERIFY2(
        m_app->start(m_x->environment(), {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
        qPrintable(m_app->errorString()));
    auto opened = platform::createPlatform({QStringLiteral("x11"), m_x->displayName()});
    QVERIFY2(opened.platform, qPrintable(opened.error));
    // The fixture's window once the window manager manages it (listed with its class).
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            for (const platform::WindowInfo& w : opened.platform->windows().topLevelWindows()) {
                if (w.title == QLatin1String("CIU Fixture") && !w.windowClass.isEmpty() &&
                    w.geometry.width() > 200)
                    m_window = w;
            }
            return m_window.has_value();
        }(),
        15000);
}

void TestCorrectionsE2e::cleanupTestCase()
{
    m_app.reset();
    m_x.reset();
}

void TestCorrectionsE2e::headlessRunUsesStoredCorrections()
{
    const auto submit = m_app->widget(QStringLiteral("submit"));
    const auto cancel = m_app->widget(QStringLiteral("cancel"));
    QVERIFY(submit && cancel);
    const QPoint origin = m_window->geometry.topLeft();

    // What the zone inspector saves: window-relative, for windows titled like the fixture's.
    CorrectionSet set;
    set.application = m_window->windowClass;
    set.titlePattern = QStringLiteral("CIU Fix*");
    Zone send;
    send.id = QStringLiteral("u5e11d000");
    send.type = ZoneType::Button;
    send.label = QStringLiteral("Send the form");
    send.bounds = submit->rect.translated(-origin);
    send.events = {QStringLiteral("click")};
    set.zones = {send};
    set.suppressed = {cancel->rect.translated(-origin)};
    const QString data = m_dir.filePath(QStringLiteral("data"));
    QString error;
    QVERIFY2(CorrectionStore(data + QStringLiteral("/ciu-agent/corrections")).save(set, &error),
             qPrintable(error));

    QProcessEnvironment env = agentEnvironment(m_x->environment());
    env.insert(QStringLiteral("XDG_DATA_HOME"), data);
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    const AgentRun r =
        runAgent({QStringLiteral("run"), QStringLiteral("click OK; click \"Send the form\""),
                  QStringLiteral("--display"), m_x->displayName(), QStringLiteral("--session-dir"),
                  m_dir.filePath(QStringLiteral("sessions")), QStringLiteral("--json")},
                 env, 240'000);
    // The director found both zones (a dry run: nothing is clicked).
    QVERIFY2(r.exitCode == 0, qPrintable(r.failure()));
    QCOMPARE(r.json.value(QStringLiteral("outcome")).toString(), QStringLiteral("completed"));
    QVERIFY(r.json.value(QStringLiteral("dry_run")).toBool());

    replay::SessionReader reader;
    QVERIFY2(reader.open(r.json.value(QStringLiteral("session")).toString()),
             qPrintable(reader.problems().join(QLatin1Char('\n'))));
    const ZoneMapPtr map = reader.zoneMapAt(std::numeric_limits<qint64>::max());
    QVERIFY(map);
    const Zone* user = map->find(send.id);
    QVERIFY2(user, qPrintable(QStringLiteral("%1 zones, no %2").arg(map->size()).arg(send.id)));
    QCOMPARE(user->label, send.label);
    QVERIFY(user->source == ZoneSource::User);
    QCOMPARE(user->bounds, submit->rect);
    QStringList labels;
    for (const Zone& z : map->zones())
        labels << z.label;
    QVERIFY2(labels.contains(QStringLiteral("OK")), qPrintable(labels.join(QLatin1Char('|')))); // detected
    QVERIFY2(!labels.contains(QStringLiteral("Submit")), qPrintable(labels.join(QLatin1Char('|'))));
    QVERIFY2(!labels.contains(QStringLiteral("Cancel")), qPrintable(labels.join(QLatin1Char('|'))));
    for (const Zone& z : map->zones()) {
        if (z.source != ZoneSource::User)
            QVERIFY2(intersectionOverUnion(z.bounds, cancel->rect) < 0.5, qPrintable(z.label));
    }
}

QTEST_GUILESS_MAIN(TestCorrectionsE2e)
#include "tst_corrections_e2e.moc"
