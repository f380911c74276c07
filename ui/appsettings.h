#pragma once

#include <QString>

class QSettings;

namespace ciu::ui {

// The desktop app's settings (QSettings). API keys are not here: they live in the OS keychain.
// Provider keys follow the providers' key store ("providers/<kind>/model", "providers/<kind>/baseUrl").
struct AppSettings
{
    QString provider = QStringLiteral("local"); // local | anthropic | openai
    QString anthropicModel;
    QString anthropicBaseUrl;
    QString openaiModel;
    QString openaiBaseUrl;
    // The OpenAI-compatible provider's embedding model for past-task retrieval ("providers/openai/
    // embeddingModel"); empty: none, retrieval is BM25 alone.
    QString openaiEmbeddingModel;

    int fps = 10;                             // capture rate
    int ringSeconds = 30;                     // length of the frame ring
    double tier1MinPercent = 0.5;             // changed share that triggers Tier 1
    double tier2MinPercent = 30.0;            // changed share that triggers Tier 2
    QString speed = QStringLiteral("medium"); // max | high | medium | low
    bool dryRunDefault = true;
    int maxIterations = 20;
    double maxCostUsd = 1.0;
    bool record = true;            // record every run (README "Recordings")
    QString recordingDirectory;    // empty: the default folder (replay::defaultSessionRoot())
    int recordingBudgetMiB = 4096; // one session stops recording at this size (0: no limit)
    int keepSessionsDays = 90;     // older sessions are deleted when a recording starts (0: keep)
    int keepSessionsCount = 100;   // at most this many sessions are kept (0: no limit)
    int trailSeconds = 3;
    bool flashChanges = true;
    QString stopHotkey = QStringLiteral("ctrl+alt+End");

    // The built-in defaults, overridden by the shipped defaults file (:/settings/defaults.ini).
    static AppSettings defaults();
    // Missing or invalid values fall back to the defaults.
    static AppSettings load(const QSettings& settings);
    void save(QSettings& settings) const;
    // Empty when valid, else a message for the user.
    QString validate() const;

    QString modelFor(const QString& providerName) const;
    QString baseUrlFor(const QString& providerName) const;

    bool operator==(const AppSettings&) const = default;
};

} // namespace ciu::ui
