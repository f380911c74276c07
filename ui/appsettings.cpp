#include "ui/appsettings.h"

#include <QCoreApplication>
#include <QFile>
#include <QSettings>
#include <QUrl>

namespace ciu::ui {
namespace {

const QStringList kProviders{QStringLiteral("local"), QStringLiteral("anthropic"), QStringLiteral("openai")};
const QStringList kSpeeds{QStringLiteral("max"), QStringLiteral("high"), QStringLiteral("medium"),
                          QStringLiteral("low")};

template<typename T> T clampedValue(const QSettings& s, const QString& key, T fallback, T minimum, T maximum)
{
    bool ok = false;
    const QVariant v = s.value(key);
    T value = fallback;
    if constexpr (std::is_same_v<T, int>)
        value = v.toInt(&ok);
    else
        value = v.toDouble(&ok);
    if (!ok || value < minimum || value > maximum)
        return fallback;
    return value;
}

QString choice(const QSettings& s, const QString& key, const QString& fallback, const QStringList& allowed)
{
    const QString value = s.value(key, fallback).toString().toLower();
    return allowed.contains(value) ? value : fallback;
}

AppSettings read(const QSettings& s, const AppSettings& d)
{
    AppSettings a;
    a.provider = choice(s, QStringLiteral("agent/provider"), d.provider, kProviders);
    a.anthropicModel = s.value(QStringLiteral("providers/anthropic/model"), d.anthropicModel).toString();
    a.anthropicBaseUrl =
        s.value(QStringLiteral("providers/anthropic/baseUrl"), d.anthropicBaseUrl).toString();
    a.openaiModel = s.value(QStringLiteral("providers/openai/model"), d.openaiModel).toString();
    a.openaiBaseUrl = s.value(QStringLiteral("providers/openai/baseUrl"), d.openaiBaseUrl).toString();
    a.openaiEmbeddingModel =
        s.value(QStringLiteral("providers/openai/embeddingModel"), d.openaiEmbeddingModel)
            .toString()
            .trimmed();
    a.fps = clampedValue(s, QStringLiteral("capture/fps"), d.fps, 15, 30);
    a.ringSeconds = clampedValue(s, QStringLiteral("capture/ringSeconds"), d.ringSeconds, 1, 600);
    a.tier1MinPercent =
        clampedValue(s, QStringLiteral("canvas/tier1MinPercent"), d.tier1MinPercent, 0.0, 100.0);
    a.tier2MinPercent =
        clampedValue(s, QStringLiteral("canvas/tier2MinPercent"), d.tier2MinPercent, 0.0, 100.0);
    a.speed = choice(s, QStringLiteral("agent/speed"), d.speed, kSpeeds);
    a.dryRunDefault = s.value(QStringLiteral("agent/dryRunDefault"), d.dryRunDefault).toBool();
    a.maxIterations = clampedValue(s, QStringLiteral("limits/maxIterations"), d.maxIterations, 1, 10000);
    a.maxCostUsd = clampedValue(s, QStringLiteral("limits/maxCostUsd"), d.maxCostUsd, 0.0, 10000.0);
    a.record = s.value(QStringLiteral("recording/enabled"), d.record).toBool();
    a.recordingDirectory = s.value(QStringLiteral("recording/directory"), d.recordingDirectory).toString();
    a.recordingBudgetMiB =
        clampedValue(s, QStringLiteral("recording/budgetMiB"), d.recordingBudgetMiB, 0, 1024 * 1024);
    a.keepSessionsDays = clampedValue(s, QStringLiteral("recording/keepDays"), d.keepSessionsDays, 0, 36500);
    a.keepSessionsCount =
        clampedValue(s, QStringLiteral("recording/keepCount"), d.keepSessionsCount, 0, 100000);
    a.trailSeconds = clampedValue(s, QStringLiteral("view/trailSeconds"), d.trailSeconds, 1, 60);
    a.flashChanges = s.value(QStringLiteral("view/flashChanges"), d.flashChanges).toBool();
    a.stopHotkey = s.value(QStringLiteral("agent/stopHotkey"), d.stopHotkey).toString();
    if (a.tier2MinPercent < a.tier1MinPercent)
        a.tier2MinPercent = d.tier2MinPercent;
    return a;
}

} // namespace

AppSettings AppSettings::defaults()
{
    static const AppSettings shipped = [] {
        const AppSettings builtIn;
        const QString path = QStringLiteral(":/settings/defaults.ini");
        if (!QFile::exists(path))
            return builtIn;
        const QSettings file(path, QSettings::IniFormat);
        return read(file, builtIn);
    }();
    return shipped;
}

AppSettings AppSettings::load(const QSettings& settings)
{
    return read(settings, defaults());
}

void AppSettings::save(QSettings& s) const
{
    s.setValue(QStringLiteral("agent/provider"), provider);
    s.setValue(QStringLiteral("providers/anthropic/model"), anthropicModel);
    s.setValue(QStringLiteral("providers/anthropic/baseUrl"), anthropicBaseUrl);
    s.setValue(QStringLiteral("providers/openai/model"), openaiModel);
    s.setValue(QStringLiteral("providers/openai/baseUrl"), openaiBaseUrl);
    s.setValue(QStringLiteral("providers/openai/embeddingModel"), openaiEmbeddingModel);
    s.setValue(QStringLiteral("capture/fps"), fps);
    s.setValue(QStringLiteral("capture/ringSeconds"), ringSeconds);
    s.setValue(QStringLiteral("canvas/tier1MinPercent"), tier1MinPercent);
    s.setValue(QStringLiteral("canvas/tier2MinPercent"), tier2MinPercent);
    s.setValue(QStringLiteral("agent/speed"), speed);
    s.setValue(QStringLiteral("agent/dryRunDefault"), dryRunDefault);
    s.setValue(QStringLiteral("limits/maxIterations"), maxIterations);
    s.setValue(QStringLiteral("limits/maxCostUsd"), maxCostUsd);
    s.setValue(QStringLiteral("recording/enabled"), record);
    s.setValue(QStringLiteral("recording/directory"), recordingDirectory);
    s.setValue(QStringLiteral("recording/budgetMiB"), recordingBudgetMiB);
    s.setValue(QStringLiteral("recording/keepDays"), keepSessionsDays);
    s.setValue(QStringLiteral("recording/keepCount"), keepSessionsCount);
    s.setValue(QStringLiteral("view/trailSeconds"), trailSeconds);
    s.setValue(QStringLiteral("view/flashChanges"), flashChanges);
    s.setValue(QStringLiteral("agent/stopHotkey"), stopHotkey);
}

QString AppSettings::validate() const
{
    if (!kProviders.contains(provider))
        return QCoreApplication::translate("ciu::ui::AppSettings", "Unknown provider “%1”.").arg(provider);
    if (!kSpeeds.contains(speed))
        return QCoreApplication::translate("ciu::ui::AppSettings", "Unknown speed mode “%1”.").arg(speed);
    for (const QString& url : {anthropicBaseUrl, openaiBaseUrl}) {
        if (url.isEmpty())
            continue;
        const QUrl parsed(url, QUrl::StrictMode);
        if (!parsed.isValid() ||
            (parsed.scheme() != QLatin1String("http") && parsed.scheme() != QLatin1String("https")) ||
            parsed.host().isEmpty())
            return QCoreApplication::translate("ciu::ui::AppSettings",
                                               "The base URL “%1” is not an http(s) URL.")
                .arg(url);
    }
    if (fps < 15 || fps > 30)
        return QCoreApplication::translate("ciu::ui::AppSettings",
                                           "The capture rate must be between 15 and 30 frames per second.");
    if (tier1MinPercent > tier2MinPercent)
        return QCoreApplication::translate("ciu::ui::AppSettings",
                                           "The Tier 1 threshold must not be above the Tier 2 threshold.");
    if (maxIterations < 1)
        return QCoreApplication::translate("ciu::ui::AppSettings", "The iteration limit must be at least 1.");
    if (maxCostUsd < 0)
        return QCoreApplication::translate("ciu::ui::AppSettings", "The cost limit must not be negative.");
    if (recordingBudgetMiB < 0 || keepSessionsDays < 0 || keepSessionsCount < 0)
        return QCoreApplication::translate("ciu::ui::AppSettings",
                                           "The recording limits must not be negative.");
    if (stopHotkey.trimmed().isEmpty())
        return QCoreApplication::translate("ciu::ui::AppSettings", "The emergency stop needs a hotkey.");
    return {};
}

QString AppSettings::modelFor(const QString& providerName) const
{
    if (providerName == QLatin1String("anthropic"))
        return anthropicModel;
    if (providerName == QLatin1String("openai"))
        return openaiModel;
    return {};
}

QString AppSettings::baseUrlFor(const QString& providerName) const
{
    if (providerName == QLatin1String("anthropic"))
        return anthropicBaseUrl;
    if (providerName == QLatin1String("openai"))
        return openaiBaseUrl;
    return {};
}

} // namespace ciu::ui
