// AppSettings and the settings dialog: round trip through QSettings in a temp dir, fallbacks for bad
// values, validation, and the dialog's fields.

#include "ui/appsettings.h"
#include "ui/enginebridge.h"
#include "ui/settingsdialog.h"

#include <QComboBox>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include <functional>

using ciu::ui::AppSettings;
using ciu::ui::EngineBridge;
using ciu::ui::SettingsDialog;

class TestSettings : public QObject
{
    Q_OBJECT
private slots:
    void defaults();
    void roundTrip();
    void badValuesFallBack_data();
    void badValuesFallBack();
    void validate_data();
    void validate();
    void dialogRoundTrip();
    void dialogKeepsPerProviderFields();
    void dialogApiKeyIsHandedOutNotStored();
    void dialogRefusesInvalid();
    void germanTranslation();
    void engineRestartsOnlyForEngineSettings();

private:
    QTemporaryDir m_dir;
    AppSettings changed() const;
};

AppSettings TestSettings::changed() const
{
    AppSettings s;
    s.provider = QStringLiteral("anthropic");
    s.anthropicModel = QStringLiteral("claude-sonnet-4-5");
    s.anthropicBaseUrl = QStringLiteral("http://127.0.0.1:8080");
    s.openaiModel = QStringLiteral("gpt-4.1");
    s.openaiBaseUrl = QStringLiteral("https://llm.example/v1");
    s.openaiEmbeddingModel = QStringLiteral("nomic-embed-text");
    s.fps = 24;
    s.ringSeconds = 90;
    s.tier1MinPercent = 1.5;
    s.tier2MinPercent = 42;
    s.speed = QStringLiteral("low");
    s.dryRunDefault = false;
    s.maxIterations = 55;
    s.maxCostUsd = 2.5;
    s.recordingDirectory = m_dir.path();
    s.recordingBudgetMiB = 512;
    s.keepSessionsDays = 7;
    s.keepSessionsCount = 12;
    s.trailSeconds = 7;
    s.flashChanges = false;
    s.stopHotkey = QStringLiteral("ctrl+shift+F12");
    return s;
}

void TestSettings::defaults()
{
    const AppSettings d = AppSettings::defaults();
    QCOMPARE(d.provider, QStringLiteral("local"));
    QCOMPARE(d.speed, QStringLiteral("medium"));
    QVERIFY(d.dryRunDefault); // a new session is a dry run
    QVERIFY(d.validate().isEmpty());
    QSettings empty(m_dir.filePath(QStringLiteral("empty.ini")), QSettings::IniFormat);
    QCOMPARE(AppSettings::load(empty), d);
}

void TestSettings::roundTrip()
{
    const QString path = m_dir.filePath(QStringLiteral("roundtrip.ini"));
    {
        QSettings s(path, QSettings::IniFormat);
        changed().save(s);
    }
    QSettings s(path, QSettings::IniFormat);
    QCOMPARE(AppSettings::load(s), changed());
    // The providers' key store reads the same keys.
    QCOMPARE(s.value(QStringLiteral("providers/anthropic/baseUrl")).toString(),
             QStringLiteral("http://127.0.0.1:8080"));
    QCOMPARE(s.value(QStringLiteral("providers/openai/model")).toString(), QStringLiteral("gpt-4.1"));
    // No key anywhere in the file.
    for (const QString& key : s.allKeys())
        QVERIFY2(!key.contains(QStringLiteral("apiKey"), Qt::CaseInsensitive), qPrintable(key));
}

void TestSettings::badValuesFallBack_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QVariant>("value");
    QTest::newRow("provider") << "agent/provider" << QVariant(QStringLiteral("skynet"));
    QTest::newRow("speed") << "agent/speed" << QVariant(QStringLiteral("ludicrous"));
    QTest::newRow("fps text") << "capture/fps" << QVariant(QStringLiteral("fast"));
    QTest::newRow("fps range") << "capture/fps" << QVariant(1000);
    QTest::newRow("negative cost") << "limits/maxCostUsd" << QVariant(-1.0);
    QTest::newRow("zero iterations") << "limits/maxIterations" << QVariant(0);
    QTest::newRow("tiers inverted") << "canvas/tier2MinPercent" << QVariant(0.1);
}

void TestSettings::badValuesFallBack()
{
    QFETCH(QString, key);
    QFETCH(QVariant, value);
    QSettings s(m_dir.filePath(QStringLiteral("bad.ini")), QSettings::IniFormat);
    s.clear();
    s.setValue(key, value);
    const AppSettings loaded = AppSettings::load(s);
    QCOMPARE(loaded, AppSettings::defaults());
    QVERIFY(loaded.validate().isEmpty());
}

void TestSettings::validate_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::newRow("url scheme") << "url"
                                << "ftp://x";
    QTest::newRow("url garbage") << "url"
                                 << "not a url";
    QTest::newRow("provider") << "provider"
                              << "x";
    QTest::newRow("hotkey") << "hotkey"
                            << " ";
    QTest::newRow("tiers") << "tiers"
                           << "";
}

void TestSettings::validate()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    AppSettings s = changed();
    QVERIFY(s.validate().isEmpty());
    if (field == QLatin1String("url"))
        s.openaiBaseUrl = value;
    else if (field == QLatin1String("provider"))
        s.provider = value;
    else if (field == QLatin1String("hotkey"))
        s.stopHotkey = value;
    else
        s.tier1MinPercent = s.tier2MinPercent + 1;
    QVERIFY(!s.validate().isEmpty());
}

void TestSettings::dialogRoundTrip()
{
    SettingsDialog dialog(changed());
    QCOMPARE(dialog.settings(), changed());
    dialog.setSettings(AppSettings::defaults());
    QCOMPARE(dialog.settings(), AppSettings::defaults());
}

void TestSettings::dialogKeepsPerProviderFields()
{
    SettingsDialog dialog(changed());
    auto* provider = dialog.findChildren<QComboBox*>().first();
    QLineEdit* model = nullptr;
    for (auto* edit : dialog.findChildren<QLineEdit*>()) {
        if (edit->text() == QStringLiteral("claude-sonnet-4-5"))
            model = edit;
    }
    QVERIFY(model);
    model->setText(QStringLiteral("claude-opus-4-5"));
    provider->setCurrentIndex(provider->findData(QStringLiteral("openai")));
    QCOMPARE(model->text(), QStringLiteral("gpt-4.1"));
    const AppSettings s = dialog.settings();
    QCOMPARE(s.provider, QStringLiteral("openai"));
    QCOMPARE(s.anthropicModel, QStringLiteral("claude-opus-4-5"));
    QCOMPARE(s.openaiModel, QStringLiteral("gpt-4.1"));
    // The embedding model is the OpenAI-compatible provider's only: shown and editable there, kept when
    // another provider is shown.
    QLineEdit* embedding = nullptr;
    for (auto* edit : dialog.findChildren<QLineEdit*>()) {
        if (edit->text() == QStringLiteral("nomic-embed-text"))
            embedding = edit;
    }
    QVERIFY(embedding);
    QVERIFY(embedding->isEnabled());
    embedding->setText(QStringLiteral("bge-m3"));
    provider->setCurrentIndex(provider->findData(QStringLiteral("anthropic")));
    QVERIFY(!embedding->isEnabled());
    QVERIFY(embedding->text().isEmpty());
    QCOMPARE(dialog.settings().openaiEmbeddingModel, QStringLiteral("bge-m3"));
    provider->setCurrentIndex(provider->findData(QStringLiteral("openai")));
    QCOMPARE(embedding->text(), QStringLiteral("bge-m3"));
}

void TestSettings::dialogApiKeyIsHandedOutNotStored()
{
    SettingsDialog dialog(changed());
    QSignalSpy keys(&dialog, &SettingsDialog::apiKeyEntered);
    QLineEdit* key = nullptr;
    for (auto* edit : dialog.findChildren<QLineEdit*>()) {
        if (edit->echoMode() == QLineEdit::Password)
            key = edit;
    }
    QVERIFY(key);
    key->setText(QStringLiteral("sk-test-secret"));
    dialog.accept();
    QCOMPARE(keys.count(), 1);
    QCOMPARE(keys.first().at(0).toString(), QStringLiteral("anthropic"));
    QCOMPARE(keys.first().at(1).toString(), QStringLiteral("sk-test-secret"));
    QVERIFY(key->text().isEmpty());
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
}

void TestSettings::dialogRefusesInvalid()
{
    AppSettings s = changed();
    SettingsDialog dialog(s);
    QLineEdit* hotkey = nullptr;
    for (auto* edit : dialog.findChildren<QLineEdit*>()) {
        if (edit->text() == s.stopHotkey)
            hotkey = edit;
    }
    QVERIFY(hotkey);
    hotkey->clear();
    dialog.accept();
    QVERIFY(dialog.result() != int(QDialog::Accepted));
}

void TestSettings::germanTranslation()
{
    // The German catalogue is compiled in and complete for the window's strings.
    QTranslator german;
    QVERIFY(german.load(QStringLiteral(":/i18n/ciu-agent_de.qm")));
    QCOMPARE(german.translate("ciu::ui::MainWindow", "&File"), QStringLiteral("&Datei"));
    QCOMPARE(german.translate("ciu::ui::TaskConsole", "St&op"), QStringLiteral("St&opp"));
    QCOMPARE(german.translate("ciu::ui::ZoneStyle", "Text field"), QStringLiteral("Textfeld"));
    QCoreApplication::installTranslator(&german);
    SettingsDialog dialog(AppSettings::defaults());
    QCOMPARE(dialog.windowTitle(), QStringLiteral("Einstellungen"));
    QCoreApplication::removeTranslator(&german);
}

void TestSettings::engineRestartsOnlyForEngineSettings()
{
    const AppSettings base = AppSettings::defaults();
    QVERIFY(!EngineBridge::needsRestart(base, base));
    AppSettings view = base;
    view.trailSeconds = 9;
    view.flashChanges = !base.flashChanges;
    view.speed = QStringLiteral("low");
    view.maxIterations = 3;
    QVERIFY(!EngineBridge::needsRestart(base, view)); // applied by the window or per task
    const std::function<void(AppSettings&)> engineChanges[] = {
        [](AppSettings& s) { s.fps = 25; },
        [](AppSettings& s) { s.ringSeconds = 42; },
        [](AppSettings& s) { s.tier1MinPercent = 2; },
        [](AppSettings& s) { s.tier2MinPercent = 50; },
        [](AppSettings& s) { s.recordingDirectory = QStringLiteral("/tmp/elsewhere"); },
        [](AppSettings& s) { s.recordingBudgetMiB = 1; },
        [](AppSettings& s) { s.keepSessionsDays = 1; },
        [](AppSettings& s) { s.keepSessionsCount = 1; },
    };
    for (const auto& change : engineChanges) {
        AppSettings changed = base;
        change(changed);
        QVERIFY(EngineBridge::needsRestart(base, changed));
    }
}

QTEST_MAIN(TestSettings)
#include "tst_settings.moc"
