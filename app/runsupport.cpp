#include "app/runsupport.h"

#include "app/commonoptions.h"
#include "core/director/secretmask.h"
#include "core/model/secrets.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSocketNotifier>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <unistd.h>

namespace ciu::app {
namespace {

std::atomic<int> g_interrupts{0};

void onSignal(int)
{
    g_interrupts.fetch_add(1);
}

void progress(qint64 tMs, const QString& text)
{
    std::fprintf(stderr, "[%6.2fs] %s\n", double(tMs) / 1000.0, qPrintable(terminalText(text)));
    std::fflush(stderr);
}

QString eventText(const SpatialEvent& e)
{
    const QString what = e.data.value(QStringLiteral("what")).toString();
    const QString message = e.data.value(QStringLiteral("message")).toString();
    switch (e.kind) {
    case SpatialEvent::Kind::Action: {
        const QVariantMap a = e.data.value(QStringLiteral("action")).toMap();
        const auto action = Action::fromJson(QJsonObject::fromVariantMap(a));
        const QString d = action ? action->describe() : QStringLiteral("?");
        if (e.data.value(QStringLiteral("dry_run")).toBool())
            return QStringLiteral("dry run: would %1").arg(d);
        return QStringLiteral("%1: %2").arg(e.data.value(QStringLiteral("recovery")).toBool()
                                                ? QStringLiteral("recovery")
                                                : QStringLiteral("action"),
                                            d);
    }
    case SpatialEvent::Kind::ModelCall:
        return QStringLiteral("model call %1: %2 in / %3 out tokens, $%4 (%5)")
            .arg(e.data.value(QStringLiteral("calls")).toInt())
            .arg(e.data.value(QStringLiteral("input_tokens")).toLongLong())
            .arg(e.data.value(QStringLiteral("output_tokens")).toLongLong())
            .arg(e.data.value(QStringLiteral("cost_usd")).toDouble(), 0, 'f', 4)
            .arg(e.data.value(QStringLiteral("stop_reason")).toString());
    case SpatialEvent::Kind::Error:
        return QStringLiteral("%1: %2").arg(what, message);
    case SpatialEvent::Kind::Info:
        if (what == QLatin1String("finished"))
            return {};
        return QStringLiteral("%1: %2").arg(what, message);
    default:
        return {};
    }
}

// Asks a yes/no question on the terminal without blocking the event loop.
class TerminalPrompt final : public QObject
{
public:
    explicit TerminalPrompt(QObject* parent = nullptr)
        : QObject(parent)
        , m_notifier(STDIN_FILENO, QSocketNotifier::Read, this)
    {
        m_notifier.setEnabled(false);
        QObject::connect(&m_notifier, &QSocketNotifier::activated, this, [this] {
            char buffer[256];
            const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer - 1);
            m_notifier.setEnabled(false);
            const QString answer =
                n > 0 ? QString::fromLocal8Bit(buffer, int(n)).trimmed().toLower() : QString();
            auto done = std::move(m_done);
            if (done)
                done(answer == QLatin1String("y") || answer == QLatin1String("yes"));
        });
    }
    void ask(const QString& question, std::function<void(bool)> done)
    {
        m_done = std::move(done);
        std::fprintf(stderr, "%s [y/N] ", qPrintable(terminalText(question)));
        std::fflush(stderr);
        m_notifier.setEnabled(true);
    }

private:
    QSocketNotifier m_notifier;
    std::function<void(bool)> m_done;
};

} // namespace

bool stdinIsTerminal()
{
    return ::isatty(STDIN_FILENO) == 1;
}

void printSummary(const TaskOutcome& o, const QString& sessionPath, bool json)
{
    if (json) {
        QJsonObject j = o.toJson();
        j.insert(QStringLiteral("session"), sessionPath);
        // JSON escapes control characters itself; secrets are redacted like everywhere else.
        std::printf("%s\n", scrubSecrets(QJsonDocument(j).toJson(QJsonDocument::Compact)).constData());
        std::fflush(stdout);
        return;
    }
    const DirectorUsage& u = o.usage;
    std::printf("outcome:     %s%s\n", qPrintable(toString(o.result)),
                o.dryRun ? " (dry run: nothing was executed)" : "");
    if (!o.message.isEmpty())
        std::printf("detail:      %s\n", qPrintable(terminalText(o.message, true)));
    std::printf("planner:     %s (%s loop), speed %s", qPrintable(o.planner), qPrintable(o.loop),
                qPrintable(toString(o.initialSpeed)));
    if (o.finalSpeed != o.initialSpeed)
        std::printf(" -> %s (escalated)", qPrintable(toString(o.finalSpeed)));
    std::printf("\n");
    std::printf("steps:       %d done, %d skipped, %d failed of %d\n", o.plan.count(PlanStep::Status::Done),
                o.plan.count(PlanStep::Status::Skipped), o.plan.count(PlanStep::Status::Failed),
                int(o.plan.steps.size()));
    std::printf("actions:     %d executed, %d refused\n", u.actionsExecuted, u.actionsRefused);
    std::printf("iterations:  %d of %d\n", u.iterations, u.maxIterations);
    std::printf("model calls: %d, tokens %lld in / %lld out, screenshots sent %d\n", u.modelCalls,
                static_cast<long long>(u.inputTokens), static_cast<long long>(u.outputTokens),
                u.screenshotsSent);
    std::printf("cost:        $%.4f%s\n", u.costUsd,
                u.maxCostUsd >= 0 ? qPrintable(QStringLiteral(" (limit $%1)").arg(u.maxCostUsd, 0, 'f', 2))
                                  : "");
    for (const QJsonValue& similar : o.similarTasks) {
        const QJsonObject s = similar.toObject();
        std::printf("similar to:  %s \"%s\" (relevance %.2f)\n",
                    qPrintable(s.value(QStringLiteral("id")).toString()),
                    qPrintable(terminalText(s.value(QStringLiteral("task")).toString(), true)),
                    s.value(QStringLiteral("relevance")).toDouble());
    }
    if (!o.rememberedTaskId.isEmpty())
        std::printf("remembered:  %s (ciu-agent tasks)\n", qPrintable(o.rememberedTaskId));
    if (!sessionPath.isEmpty())
        std::printf("recording:   %s\n", qPrintable(sessionPath));
    std::printf("\n%s", qPrintable(terminalText(o.plan.toText())));
    std::fflush(stdout);
}

TaskRunResult runTask(const TaskRun& run)
{
    TaskRunResult result;
    QEventLoop loop;
    QElapsedTimer clock;
    clock.start();
    Engine engine(run.engine);
    TerminalPrompt prompt;
    DirectorOptions options = run.director;
    bool finishedOnce = false;
    Plan lastPlan;

    auto tMs = [&] { return clock.elapsed(); };
    QObject::connect(&engine, &Engine::failed, &loop, [&](const QString& error) {
        result.error = error;
        loop.quit();
    });
    QObject::connect(&engine, &Engine::recordingStarted, &loop, [&](const QString& path) {
        result.sessionPath = path;
        progress(tMs(), QStringLiteral("recording into %1").arg(path));
    });
    // Nobody can resume a paused agent from here: a recording that stops (disk full, size limit) stops the
    // task.
    // The reason is in the outcome ("finished:" and "detail:"), printed once each.
    QObject::connect(&engine, &Engine::recordingStopped, &loop, [&](const QString&) {
        progress(tMs(), QStringLiteral("the recording stopped; stopping the task"));
        engine.stop();
    });
    QObject::connect(&engine, &Engine::ready, &loop, [&] {
        result.started = true;
        progress(tMs(), QStringLiteral("pipeline ready; task: %1").arg(maskedTask(run.task)));
        engine.runTask(run.task, options);
    });
    Director* director = nullptr;
    engine.start();
    director = engine.director();
    if (director) {
        QObject::connect(director, &Director::eventOccurred, &loop, [&](const SpatialEvent& e) {
            const QString text = eventText(e);
            if (!text.isEmpty())
                progress(tMs(), text);
        });
        QObject::connect(director, &Director::planUpdated, &loop, [&](const Plan& p) {
            if (p.steps.size() != lastPlan.steps.size() && !p.steps.isEmpty())
                progress(tMs(), QStringLiteral("plan:\n") + p.toText().trimmed());
            else if (p.currentStep != lastPlan.currentStep && p.currentStep > 0 &&
                     p.currentStep <= p.steps.size())
                progress(tMs(), QStringLiteral("step %1 of %2: %3")
                                    .arg(p.currentStep)
                                    .arg(p.steps.size())
                                    .arg(p.steps[p.currentStep - 1].text()));
            lastPlan = p;
        });
        QObject::connect(director, &Director::usageUpdated, &loop,
                         [&](const DirectorUsage& u) { Q_UNUSED(u) });
        QObject::connect(director, &Director::confirmationRequested, &loop,
                         [&](quint64 id, const Action& action, const QString& reason) {
                             prompt.ask(QStringLiteral("\nHigh-risk action: %1\nReason: %2\nAllow it?")
                                            .arg(action.describe(), reason),
                                        [&engine, id](bool yes) { engine.answerConfirmation(id, yes); });
                         });
    }
    QObject::connect(&engine, &Engine::taskFinished, &loop, [&](const TaskOutcome& o) {
        result.outcome = o;
        progress(tMs(), QStringLiteral("finished: %1%2")
                            .arg(toString(o.result),
                                 o.message.isEmpty() ? QString()
                                                     : QStringLiteral(" (") + o.message + QLatin1Char(')')));
        if (!finishedOnce && o.dryRun && o.success() && run.offerExecuteAfterDryRun && stdinIsTerminal()) {
            finishedOnce = true;
            prompt.ask(QStringLiteral("That was a dry run. Execute it now?"), [&](bool yes) {
                if (!yes) {
                    engine.shutdown();
                    return;
                }
                options.dryRun = false;
                engine.runTask(run.task, options);
            });
            return;
        }
        finishedOnce = true;
        engine.shutdown();
    });
    QObject::connect(&engine, &Engine::shutDown, &loop, [&](const QString& path) {
        if (!path.isEmpty())
            result.sessionPath = path;
        loop.quit();
    });

    // Ctrl+C: stop the task cleanly (a second one quits at once).
    g_interrupts = 0;
    auto previousInt = std::signal(SIGINT, onSignal);
    auto previousTerm = std::signal(SIGTERM, onSignal);
    QTimer poll;
    int handled = 0;
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        const int n = g_interrupts.load();
        if (n == handled)
            return;
        handled = n;
        if (n == 1) {
            progress(tMs(), QStringLiteral("interrupted: stopping"));
            engine.stop();
            if (!result.started)
                loop.quit();
        } else {
            loop.quit();
        }
    });
    poll.start(100);
    loop.exec();
    std::signal(SIGINT, previousInt);
    std::signal(SIGTERM, previousTerm);
    if (result.started && !finishedOnce && result.error.isEmpty()) {
        result.outcome.result = TaskOutcome::Result::Stopped;
        result.outcome.message = QStringLiteral("interrupted");
    }
    return result;
}

} // namespace ciu::app
