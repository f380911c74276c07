#pragma once

#include "ui/appsettings.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace ciu::ui {

class KnowledgePage;
class PastTasksPage;

// Edits AppSettings. The API key field is write-only: a typed key is handed out through
// apiKeyEntered() (for the keychain) and never stored in the settings.
class SettingsDialog final : public QDialog
{
    Q_OBJECT
public:
    explicit SettingsDialog(const AppSettings& settings, QWidget* parent = nullptr);

    AppSettings settings() const;
    PastTasksPage* pastTasksPage() const { return m_pastTasks; }
    KnowledgePage* knowledgePage() const { return m_knowledge; }
    void setSettings(const AppSettings& settings);

public slots:
    void accept() override;
    // Shows whether a key is stored for the current provider ("stored in the keychain", an error, ...);
    // `hasKey`: a key exists, so an empty field keeps it.
    void setKeyStatus(const QString& provider, const QString& status, bool hasKey);

signals:
    void apiKeyEntered(const QString& provider, const QString& key);
    void keyStatusWanted(const QString& provider);

private:
    void onProviderChanged();
    void storeProviderFields();

    AppSettings m_settings;
    QString m_shownProvider;
    QComboBox* m_provider;
    QLineEdit* m_model;
    QLineEdit* m_baseUrl;
    QLineEdit* m_embeddingModel; // the OpenAI-compatible provider's only
    QLineEdit* m_apiKey;
    QLabel* m_keyStatus;
    QSpinBox* m_fps;
    QSpinBox* m_ring;
    QDoubleSpinBox* m_tier1;
    QDoubleSpinBox* m_tier2;
    QComboBox* m_speed;
    QCheckBox* m_dryRun;
    QSpinBox* m_maxIterations;
    QDoubleSpinBox* m_maxCost;
    QCheckBox* m_record;
    QLineEdit* m_recordingDir;
    QSpinBox* m_budget;
    QSpinBox* m_keepDays;
    QSpinBox* m_keepCount;
    QSpinBox* m_trail;
    QCheckBox* m_flash;
    QLineEdit* m_hotkey;
    QLabel* m_error;
    PastTasksPage* m_pastTasks;
    KnowledgePage* m_knowledge;
};

} // namespace ciu::ui
