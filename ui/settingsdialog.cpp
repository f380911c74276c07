#include "ui/settingsdialog.h"

#include "core/replay/sessionformat.h"
#include "ui/knowledgepage.h"
#include "ui/pasttaskspage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ciu::ui {

SettingsDialog::SettingsDialog(const AppSettings& settings, QWidget* parent)
    : QDialog(parent)
    , m_provider(new QComboBox(this))
    , m_model(new QLineEdit(this))
    , m_baseUrl(new QLineEdit(this))
    , m_embeddingModel(new QLineEdit(this))
    , m_apiKey(new QLineEdit(this))
    , m_keyStatus(new QLabel(this))
    , m_fps(new QSpinBox(this))
    , m_ring(new QSpinBox(this))
    , m_tier1(new QDoubleSpinBox(this))
    , m_tier2(new QDoubleSpinBox(this))
    , m_speed(new QComboBox(this))
    , m_dryRun(new QCheckBox(tr("Start new tasks as a &dry run"), this))
    , m_maxIterations(new QSpinBox(this))
    , m_maxCost(new QDoubleSpinBox(this))
    , m_record(new QCheckBox(tr("&Record every run"), this))
    , m_recordingDir(new QLineEdit(this))
    , m_budget(new QSpinBox(this))
    , m_keepDays(new QSpinBox(this))
    , m_keepCount(new QSpinBox(this))
    , m_trail(new QSpinBox(this))
    , m_flash(new QCheckBox(tr("&Flash changed regions"), this))
    , m_hotkey(new QLineEdit(this))
    , m_error(new QLabel(this))
    , m_pastTasks(new PastTasksPage({}, this))
    , m_knowledge(new KnowledgePage({}, this))
{
    setWindowTitle(tr("Settings"));
    m_provider->addItem(tr("Local planner (offline)"), QStringLiteral("local"));
    m_provider->addItem(tr("Anthropic (Claude)"), QStringLiteral("anthropic"));
    m_provider->addItem(tr("OpenAI-compatible"), QStringLiteral("openai"));
    m_model->setPlaceholderText(tr("provider default"));
    m_baseUrl->setPlaceholderText(tr("official endpoint"));
    m_embeddingModel->setPlaceholderText(tr("none: similar tasks by their words"));
    m_embeddingModel->setToolTip(
        tr("An embedding model of the OpenAI-compatible server (POST /v1/embeddings), "
           "used to find similar past tasks by meaning"));
    m_apiKey->setEchoMode(QLineEdit::Password);
    m_apiKey->setPlaceholderText(tr("paste the key here"));
    m_apiKey->setToolTip(tr("Stored in the system keychain, never in the settings file"));
    m_keyStatus->setWordWrap(true);
    m_fps->setRange(15, 30);
    m_fps->setSuffix(tr(" fps"));
    m_ring->setRange(1, 600);
    m_ring->setSuffix(tr(" s"));
    for (QDoubleSpinBox* box : {m_tier1, m_tier2}) {
        box->setRange(0, 100);
        box->setDecimals(1);
        box->setSuffix(tr(" %"));
    }
    m_speed->addItem(tr("Max"), QStringLiteral("max"));
    m_speed->addItem(tr("High"), QStringLiteral("high"));
    m_speed->addItem(tr("Medium"), QStringLiteral("medium"));
    m_speed->addItem(tr("Low"), QStringLiteral("low"));
    m_maxIterations->setRange(1, 10000);
    m_maxCost->setRange(0, 10000);
    m_maxCost->setDecimals(2);
    m_maxCost->setPrefix(QStringLiteral("$"));
    m_trail->setRange(1, 60);
    m_trail->setSuffix(tr(" s"));
    m_recordingDir->setPlaceholderText(QDir::toNativeSeparators(replay::defaultSessionRoot()));
    m_recordingDir->setToolTip(tr("Empty: the default folder shown"));
    m_record->setToolTip(tr("Each run is kept as a session you can replay (File ▸ Open last recording)"));
    m_budget->setRange(0, 1024 * 1024);
    m_budget->setSuffix(tr(" MiB"));
    m_budget->setSpecialValueText(tr("no limit"));
    m_budget->setToolTip(tr("A session stops recording at this size; what was recorded is kept"));
    m_keepDays->setRange(0, 36500);
    m_keepDays->setSuffix(tr(" days"));
    m_keepDays->setSpecialValueText(tr("forever"));
    m_keepCount->setRange(0, 100000);
    m_keepCount->setSuffix(tr(" sessions"));
    m_keepCount->setSpecialValueText(tr("no limit"));
    m_hotkey->setToolTip(tr("xdotool syntax, e.g. ctrl+alt+End"));

    auto* agentPage = new QWidget;
    auto* agent = new QFormLayout(agentPage);
    agent->addRow(tr("&Provider:"), m_provider);
    agent->addRow(tr("&Model:"), m_model);
    agent->addRow(tr("&Base URL:"), m_baseUrl);
    agent->addRow(tr("&Embedding model:"), m_embeddingModel);
    agent->addRow(tr("API &key:"), m_apiKey);
    agent->addRow(QString(), m_keyStatus);
    agent->addRow(tr("&Speed mode:"), m_speed);
    agent->addRow(QString(), m_dryRun);
    agent->addRow(tr("Emergency stop &hotkey:"), m_hotkey);

    auto* capturePage = new QWidget;
    auto* capture = new QFormLayout(capturePage);
    capture->addRow(tr("Capture &rate:"), m_fps);
    capture->addRow(tr("Frame &ring length:"), m_ring);
    capture->addRow(tr("Tier &1 from:"), m_tier1);
    capture->addRow(tr("Tier &2 from:"), m_tier2);
    capture->addRow(tr("Cursor &trail:"), m_trail);
    capture->addRow(QString(), m_flash);

    auto* limitsPage = new QWidget;
    auto* limits = new QFormLayout(limitsPage);
    limits->addRow(tr("Maximum &iterations:"), m_maxIterations);
    limits->addRow(tr("Maximum &cost:"), m_maxCost);
    auto* browse = new QPushButton(style()->standardIcon(QStyle::SP_DirOpenIcon), tr("B&rowse…"), limitsPage);
    auto* dirRow = new QHBoxLayout;
    dirRow->addWidget(m_recordingDir, 1);
    dirRow->addWidget(browse);
    limits->addRow(QString(), m_record);
    // The field is a row of widgets: the label needs its buddy by hand for its mnemonic.
    auto* dirLabel = new QLabel(tr("Recording &directory:"), limitsPage);
    dirLabel->setBuddy(m_recordingDir);
    limits->addRow(dirLabel, dirRow);
    limits->addRow(tr("Session si&ze limit:"), m_budget);
    limits->addRow(tr("Keep sessions &for:"), m_keepDays);
    limits->addRow(tr("Keep at &most:"), m_keepCount);

    auto* tabs = new QTabWidget(this);
    tabs->addTab(agentPage, tr("&Agent"));
    tabs->addTab(capturePage, tr("&Capture"));
    tabs->addTab(limitsPage, tr("&Limits and recording"));
    tabs->addTab(m_pastTasks, tr("&Past tasks"));
    tabs->addTab(m_knowledge, tr("&Knowledge"));

    m_error->setStyleSheet(QStringLiteral("color: #c62828;"));
    m_error->setWordWrap(true);
    m_error->hide();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(tabs);
    layout->addWidget(m_error);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &SettingsDialog::onProviderChanged);
    connect(m_record, &QCheckBox::toggled, m_recordingDir, &QWidget::setEnabled);
    connect(m_record, &QCheckBox::toggled, browse, &QWidget::setEnabled);
    connect(browse, &QPushButton::clicked, this, [this] {
        auto* dialog = new QFileDialog(this, tr("Recording directory"), m_recordingDir->text());
        dialog->setFileMode(QFileDialog::Directory);
        dialog->setOption(QFileDialog::ShowDirsOnly);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &QFileDialog::fileSelected, m_recordingDir, &QLineEdit::setText);
        dialog->open();
    });
    setSettings(settings);
}

void SettingsDialog::setSettings(const AppSettings& s)
{
    m_settings = s;
    m_shownProvider.clear();
    m_provider->setCurrentIndex(std::max(0, m_provider->findData(s.provider)));
    onProviderChanged();
    m_fps->setValue(s.fps);
    m_ring->setValue(s.ringSeconds);
    m_tier1->setValue(s.tier1MinPercent);
    m_tier2->setValue(s.tier2MinPercent);
    m_speed->setCurrentIndex(std::max(0, m_speed->findData(s.speed)));
    m_dryRun->setChecked(s.dryRunDefault);
    m_maxIterations->setValue(s.maxIterations);
    m_maxCost->setValue(s.maxCostUsd);
    m_record->setChecked(s.record);
    m_recordingDir->setEnabled(s.record);
    m_recordingDir->setText(s.recordingDirectory);
    m_budget->setValue(s.recordingBudgetMiB);
    m_keepDays->setValue(s.keepSessionsDays);
    m_keepCount->setValue(s.keepSessionsCount);
    m_trail->setValue(s.trailSeconds);
    m_flash->setChecked(s.flashChanges);
    m_hotkey->setText(s.stopHotkey);
}

void SettingsDialog::storeProviderFields()
{
    if (m_shownProvider == QLatin1String("anthropic")) {
        m_settings.anthropicModel = m_model->text().trimmed();
        m_settings.anthropicBaseUrl = m_baseUrl->text().trimmed();
    } else if (m_shownProvider == QLatin1String("openai")) {
        m_settings.openaiModel = m_model->text().trimmed();
        m_settings.openaiBaseUrl = m_baseUrl->text().trimmed();
        m_settings.openaiEmbeddingModel = m_embeddingModel->text().trimmed();
    }
}

void SettingsDialog::onProviderChanged()
{
    storeProviderFields();
    if (!m_apiKey->text().isEmpty() && !m_shownProvider.isEmpty() &&
        m_shownProvider != QLatin1String("local"))
        emit apiKeyEntered(m_shownProvider, m_apiKey->text());
    m_apiKey->clear();
    m_shownProvider = m_provider->currentData().toString();
    const bool remote = m_shownProvider != QLatin1String("local");
    m_model->setEnabled(remote);
    m_baseUrl->setEnabled(remote);
    m_embeddingModel->setEnabled(m_shownProvider == QLatin1String("openai"));
    m_embeddingModel->setText(m_shownProvider == QLatin1String("openai") ? m_settings.openaiEmbeddingModel
                                                                         : QString());
    m_apiKey->setEnabled(remote);
    m_model->setText(m_settings.modelFor(m_shownProvider));
    m_baseUrl->setText(m_settings.baseUrlFor(m_shownProvider));
    m_keyStatus->clear();
    m_apiKey->setPlaceholderText(tr("paste the key here"));
    if (remote)
        emit keyStatusWanted(m_shownProvider);
}

void SettingsDialog::setKeyStatus(const QString& provider, const QString& status, bool hasKey)
{
    if (provider != m_shownProvider)
        return;
    m_keyStatus->setText(status);
    m_apiKey->setPlaceholderText(hasKey ? tr("unchanged (a key is set)") : tr("paste the key here"));
}

AppSettings SettingsDialog::settings() const
{
    AppSettings s = m_settings;
    if (m_shownProvider == QLatin1String("anthropic")) {
        s.anthropicModel = m_model->text().trimmed();
        s.anthropicBaseUrl = m_baseUrl->text().trimmed();
    } else if (m_shownProvider == QLatin1String("openai")) {
        s.openaiModel = m_model->text().trimmed();
        s.openaiBaseUrl = m_baseUrl->text().trimmed();
        s.openaiEmbeddingModel = m_embeddingModel->text().trimmed();
    }
    s.provider = m_provider->currentData().toString();
    s.fps = m_fps->value();
    s.ringSeconds = m_ring->value();
    s.tier1MinPercent = m_tier1->value();
    s.tier2MinPercent = m_tier2->value();
    s.speed = m_speed->currentData().toString();
    s.dryRunDefault = m_dryRun->isChecked();
    s.maxIterations = m_maxIterations->value();
    s.maxCostUsd = m_maxCost->value();
    s.record = m_record->isChecked();
    s.recordingDirectory = m_recordingDir->text().trimmed();
    s.recordingBudgetMiB = m_budget->value();
    s.keepSessionsDays = m_keepDays->value();
    s.keepSessionsCount = m_keepCount->value();
    s.trailSeconds = m_trail->value();
    s.flashChanges = m_flash->isChecked();
    s.stopHotkey = m_hotkey->text().trimmed();
    return s;
}

void SettingsDialog::accept()
{
    const QString error = settings().validate();
    if (!error.isEmpty()) {
        m_error->setText(error);
        m_error->show();
        return;
    }
    if (!m_apiKey->text().isEmpty() && m_shownProvider != QLatin1String("local")) {
        emit apiKeyEntered(m_shownProvider, m_apiKey->text());
        m_apiKey->clear();
    }
    QDialog::accept();
}

} // namespace ciu::ui
