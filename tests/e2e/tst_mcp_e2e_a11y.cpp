// End to end under Xvfb and a private D-Bus session with the AT-SPI bus: `ciu-agent mcp` driven by the
// official MCP TypeScript SDK client against the fixture app with its accessibility bridge on. The zones
// the accessibility tree gives carry their `value` (a field's text) in get_zones and find_zones, text and
// structuredContent (validated against the output schema by the SDK), and a password field's never; typing
// into a password field is verified by how many characters the tree says it holds.

#include "mcpsdkclient.h"
#include "tests/support/fixtureapp.h"
#include "tests/support/xvfbserver.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace ciu::test;

class TestMcpE2eA11y : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void zonesCarryValues();
    void passwordCheckedByItsLength();

private:
    // Starts `client` on an executing `ciu-agent mcp` that accepts every confirmation it asks (typing into a
    // password field is confirmed).
    bool connectAccepting(SdkClient& client);

    std::unique_ptr<XvfbServer> m_x;
    std::unique_ptr<FixtureApp> m_app;
    QTemporaryDir m_sessions;
};

void TestMcpE2eA11y::initTestCase()
{
    if (!xvfbAvailable())
        QSKIP("Xvfb is not installed");
    if (QStandardPaths::findExecutable(QStringLiteral("node")).isEmpty())
        QSKIP("node is not installed here (packaging/install-deps.sh installs nodejs; CI has it)");
    QVERIFY2(!qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS"),
             "run under dbus-run-session (ctest does): the test needs a session bus of its own");
    m_x = std::make_unique<XvfbServer>();
    QVERIFY2(m_x->start(), qPrintable(m_x->errorString()));
    // The fixture with Qt's accessibility bridge on.
    const QProcessEnvironment env = m_x->accessibleEnvironment();
    m_app = std::make_unique<FixtureApp>();
    QVERIFY2(m_app->start(env, {QStringLiteral("--geometry"), QStringLiteral("60,60,900,640")}),
             qPrintable(m_app->errorString()));
}

bool TestMcpE2eA11y::connectAccepting(SdkClient& client)
{
    QString error;
    if (!client.start(&error)) {
        qWarning("%s", qPrintable(error));
        return false;
    }
    const QJsonObject r =
        client.connectStdio({QStringLiteral("mcp"), QStringLiteral("--display"), m_x->displayName(),
                             QStringLiteral("--session-dir"), m_sessions.path(), QStringLiteral("--execute"),
                             QStringLiteral("--max-actions-per-minute"), QStringLiteral("0")},
                            QStringLiteral("accept"));
    if (!r.value(QStringLiteral("ok")).toBool()) {
        qWarning("%s", QByteArray(dump(r) + client.log().toUtf8()).constData());
        return false;
    }
    return true;
}

void TestMcpE2eA11y::cleanupTestCase()
{
    m_app.reset();
    m_x.reset();
}

void TestMcpE2eA11y::zonesCarryValues()
{
    SdkClient client;
    QVERIFY(connectAccepting(client));
    QJsonObject r;
    const auto name = m_app->widget(QStringLiteral("name"));
    const auto password = m_app->widget(QStringLiteral("password"));
    QVERIFY(name && password);

    // Text typed into the fields: the fixture confirms.
    m_app->clearPending();
    r = client.call(
        QStringLiteral("run_steps"),
        {{QStringLiteral("steps"), QJsonArray{QStringLiteral("type \"Ada Lovelace\" into Name"),
                                              QStringLiteral("type \"hunter2secret\" into Password")}}});
    QVERIFY2(r.value(QStringLiteral("ok")).toBool(), dump(r).constData());
    QVERIFY(m_app->waitFor(
        [](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == QLatin1String("text_changed") &&
                   o.value(QStringLiteral("text")).toString() == QLatin1String("Ada Lovelace");
        },
        10'000));
    QVERIFY(m_app->waitFor(
        [](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == QLatin1String("text_changed") &&
                   o.value(QStringLiteral("text")).toString() == QLatin1String("hunter2secret");
        },
        10'000));

    // get_zones: the Name field's zone (where the fixture has it) carries the text as its value, in the
    // structured zones and in the text; the password field's zone carries none.
    auto zoneAt = [](const QJsonArray& zones, const QRect& rect) -> std::optional<QJsonObject> {
        for (const QJsonValue& v : zones) {
            const QJsonArray b = v.toObject().value(QStringLiteral("bounds")).toArray();
            const QRect bounds(b.at(0).toInt(), b.at(1).toInt(), b.at(2).toInt(), b.at(3).toInt());
            if (v.toObject().value(QStringLiteral("type")).toString() == QLatin1String("text_field") &&
                rect.contains(bounds.center()))
                return v.toObject();
        }
        return std::nullopt;
    };
    QJsonObject zones;
    std::optional<QJsonObject> nameZone;
    // The map follows the tree's change events; wait for the one that carries the text.
    QTRY_VERIFY_WITH_TIMEOUT(
        (zones = client.call(QStringLiteral("get_zones"),
                             {{QStringLiteral("role"), QStringLiteral("text_field")}}),
         nameZone = zoneAt(structured(zones).value(QStringLiteral("zones")).toArray(), name->rect),
         nameZone && nameZone->value(QStringLiteral("value")).toString() == QLatin1String("Ada Lovelace")),
        30'000);
    QCOMPARE(nameZone->value(QStringLiteral("source")).toString(), QStringLiteral("accessibility"));
    QVERIFY2(text(zones).contains(QStringLiteral("= \"Ada Lovelace\"")), qPrintable(text(zones)));
    const auto passwordZone =
        zoneAt(structured(zones).value(QStringLiteral("zones")).toArray(), password->rect);
    QVERIFY2(passwordZone, qPrintable(text(zones)));
    QVERIFY2(!passwordZone->contains(QStringLiteral("value")), dump(*passwordZone).constData());
    QVERIFY2(!text(zones).contains(QStringLiteral("hunter2secret")), qPrintable(text(zones)));
    QVERIFY(!dump(structured(zones)).contains("hunter2secret"));

    // find_zones carries it too.
    r = client.call(QStringLiteral("find_zones"),
                    {{QStringLiteral("query"), nameZone->value(QStringLiteral("id"))}});
    QVERIFY2(!isError(r), qPrintable(text(r)));
    const QJsonObject first = structured(r).value(QStringLiteral("candidates")).toArray().at(0).toObject();
    QCOMPARE(first.value(QStringLiteral("id")).toString(), nameZone->value(QStringLiteral("id")).toString());
    QCOMPARE(first.value(QStringLiteral("value")).toString(), QStringLiteral("Ada Lovelace"));
    QVERIFY2(text(r).contains(QStringLiteral("= \"Ada Lovelace\"")), qPrintable(text(r)));
}

void TestMcpE2eA11y::passwordCheckedByItsLength()
{
    SdkClient client;
    QVERIFY(connectAccepting(client));
    QJsonObject r;
    // The field takes 4 characters: of "hunter2secret", 9 are lost. The screen changed (4 bullets), the
    // tree counts 4: not completed.
    m_app->clearPending();
    m_app->send(QStringLiteral("max-length password 4"));
    QVERIFY(m_app->waitForEvent(QStringLiteral("max_length"), 10'000));
    r = client.call(
        QStringLiteral("run_steps"),
        {{QStringLiteral("steps"), QJsonArray{QStringLiteral("type \"hunter2secret\" into Password")}}});
    QVERIFY2(r.value(QStringLiteral("ok")).toBool(), dump(r).constData());
    QJsonObject outcome = structured(r);
    QCOMPARE(outcome.value(QStringLiteral("outcome")).toString(), QStringLiteral("unverified"));
    QVERIFY2(text(r).contains(QStringLiteral("holds fewer characters than were typed")), qPrintable(text(r)));
    QVERIFY2(!dump(r).contains("hunter2secret"), dump(r).constData());
    // The fixture's own field: 4 characters.
    QVERIFY(m_app->waitFor(
        [](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == QLatin1String("text_changed") &&
                   o.value(QStringLiteral("name")).toString() == QLatin1String("password") &&
                   o.value(QStringLiteral("length")).toInt() == 4;
        },
        10'000));

    // Four characters fit: the field is set to them (what it held is replaced), and the count says so.
    m_app->clearPending();
    r = client.call(QStringLiteral("run_steps"),
                    {{QStringLiteral("steps"), QJsonArray{QStringLiteral("type \"wxyz\" into Password")}}});
    QVERIFY2(r.value(QStringLiteral("ok")).toBool(), dump(r).constData());
    outcome = structured(r);
    QVERIFY2(outcome.value(QStringLiteral("outcome")).toString() == QLatin1String("completed"),
             qPrintable(text(r)));
    QVERIFY(m_app->waitFor(
        [](const QJsonObject& o) {
            return o.value(QStringLiteral("event")).toString() == QLatin1String("text_changed") &&
                   o.value(QStringLiteral("name")).toString() == QLatin1String("password") &&
                   o.value(QStringLiteral("text")).toString() == QLatin1String("wxyz");
        },
        10'000));
}

QTEST_GUILESS_MAIN(TestMcpE2eA11y)
#include "tst_mcp_e2e_a11y.moc"
