#include "core/director/modelplanner.h"

#include "core/director/directorlog.h"
#include "core/director/safety/untrusted.h"
#include "core/knowledge/shortcutstore.h"
#include "core/providers/screenshotscaler.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace ciu {

using director::ContentBlock;
using director::Message;
using director::ProviderRequest;
using director::ProviderResponse;
using director::StopReason;
using director::ToolDefinition;

// The model loops: the request for each decision and its record. The reply turned into actions:
// modelplannerreply.cpp. Tool definitions, the zone map text and the tool results: modelplannertools.cpp.

namespace {

QString textOf(const QList<ContentBlock>& blocks, int* images)
{
    QStringList parts;
    for (const ContentBlock& b : blocks) {
        switch (b.type) {
        case ContentBlock::Type::Text:
            parts << b.text;
            break;
        case ContentBlock::Type::Image:
            ++*images;
            parts << QStringLiteral("[image]");
            break;
        case ContentBlock::Type::ToolResult:
            parts << QStringLiteral("[tool_result %1%2] %3")
                         .arg(b.toolUseId, b.isError ? QStringLiteral(" error") : QString(),
                              textOf(b.content, images));
            break;
        default:
            break;
        }
    }
    return parts.join(QLatin1Char('\n'));
}

} // namespace

ModelPlanner::ModelPlanner(std::unique_ptr<director::Provider> provider, DirectorOptions::Loop loop,
                           QString model, QObject* parent)
    : PlanBackend(parent)
    , m_provider(std::move(provider))
    , m_loop(loop)
    , m_model(std::move(model))
{
    m_provider->setParent(nullptr);
    connect(m_provider.get(), &director::Provider::finished, this, &ModelPlanner::onFinished);
    connect(m_provider.get(), &director::Provider::progress, this,
            [this](quint64, qint64 elapsedMs, qint64 bytes, qint64 silentMs) {
                emit progress(QStringLiteral("waiting for the model: %1 s, %2 bytes received%3")
                                  .arg(elapsedMs / 1000)
                                  .arg(bytes)
                                  .arg(silentMs >= 5000
                                           ? QStringLiteral(", nothing for %1 s").arg(silentMs / 1000)
                                           : QString()));
            });
    connect(m_provider.get(), &director::Provider::retrying, this,
            [this](quint64, int attempt, qint64 delayMs, const QString& reason) {
                emit progress(QStringLiteral("model call attempt %1 failed (%2); retrying in %3 s")
                                  .arg(attempt)
                                  .arg(reason)
                                  .arg(double(delayMs) / 1000.0, 0, 'f', 1));
            });
}

ModelPlanner::~ModelPlanner()
{
    if (m_provider)
        m_provider->disconnect(this);
}

QString ModelPlanner::name() const
{
    return director::toString(m_provider->kind());
}

bool ModelPlanner::wantsScreenshot() const
{
    return m_loop == DirectorOptions::Loop::Classic;
}

bool ModelPlanner::begin(const QString& task, QString* error)
{
    if (task.trimmed().isEmpty()) {
        *error = QStringLiteral("the task is empty");
        return false;
    }
    m_task = task.trimmed();
    m_plan = Plan();
    m_plan.task = m_task.simplified();
    m_plan.status = Plan::Status::Planning;
    m_messages.clear();
    m_calls.clear();
    m_segments.clear();
    m_script.reset();
    m_lastMap.reset();
    m_modelPlanned = false;
    m_shortcutsTold.clear();
    m_first = true;
    emit planChanged();
    return true;
}

void ModelPlanner::cancel()
{
    if (m_requestId != 0)
        m_provider->cancel(m_requestId);
    m_requestId = 0;
}

QString ModelPlanner::systemPrompt(const WorldState& world) const
{
    QString s;
    if (m_loop == DirectorOptions::Loop::Classic) {
        s = QStringLiteral(
                "You operate a Linux desktop (X11) with the computer tool. The screen is %1x%2. After each "
                "action you receive a screenshot. When the task is done, answer with a short summary and no "
                "tool call.")
                .arg(world.screenSize.width())
                .arg(world.screenSize.height());
    } else {
        s = QStringLiteral(
            "You operate a Linux desktop (X11) through a zone map: the interactive elements of the screen "
            "with an id, type, label, bounds [x,y,w,h] in screen pixels and state. Plan the whole task "
            "ahead and do as much as you can in ONE reply: every model call is slow and costly. When the "
            "task takes several steps, and above all when a later step acts on something that only appears "
            "after an earlier one (a menu's items after the menu opens, a dialog's buttons after the "
            "dialog opens, the options of a dropdown), use run_steps: it runs a list of steps by zone "
            "LABEL, looking each one up just before it runs, and answers once; you are called again only "
            "if a step fails. Otherwise act on zones by id with the zone tools (click_zone, type_in_zone, "
            "scroll_zone, drag_zone, press_keys, wait_for_change, invoke_menu_action); several tool calls "
            "in one reply run "
            "in order, are verified, and stop early when the screen changes unexpectedly. After the "
            "results you get the changes of the zone map, and a screenshot only when a verification needs "
            "one. Use the computer tool only for what no zone covers (raw coordinates). Use "
            "request_reanalysis when the map looks wrong. Finish with task_complete, in the same reply as "
            "the last actions when you expect them to succeed (it only counts if they all do), or "
            "task_impossible with an explanation.");
    }
    s += QLatin1Char(' ') + safety::untrustedPolicy();
    s += QStringLiteral(
        " High-risk actions (deleting, sending, paying, system commands, credentials) need a human's "
        "confirmation and may be refused.");
    if (world.dryRun)
        s += QStringLiteral(
            " This is a DRY RUN: actions are logged, not executed, so the screen will not change.");
    return s;
}

void ModelPlanner::decide(const WorldState& world)
{
    if (!world.screenSize.isEmpty())
        m_screenSize = world.screenSize;
    m_lastMap = world.map;
    m_windows = world.windows;
    m_dryRun = world.dryRun;
    // The rest of the last reply first: the next run_steps step, or the tool calls after it.
    if (auto next = advance(world.map)) {
        emit decided(*next);
        return;
    }
    // A task_complete that came with the last actions ends the task once they all succeeded.
    if (!m_calls.isEmpty()) {
        bool completed = false;
        bool clean = true;
        QString summary;
        for (const ToolCall& c : std::as_const(m_calls)) {
            if (c.name == QLatin1String("task_complete")) {
                completed = true;
                summary = c.result ? c.result->content.value(0).text : QString();
            } else if (!c.result || c.result->isError || c.incomplete) {
                clean = false;
            }
        }
        if (completed && clean) {
            m_plan.status = Plan::Status::Completed;
            emit planChanged();
            emit decided({Decision::Kind::Complete, {}, summary});
            return;
        }
    }
    send(world);
}

void ModelPlanner::send(const WorldState& world)
{
    if (!m_continuePaused) {
        QList<ContentBlock> blocks;
        for (const ToolCall& c : std::as_const(m_calls)) {
            if (c.result)
                blocks.append(*c.result);
            else
                blocks.append(ContentBlock::makeToolResultText(c.id, QStringLiteral("not executed"), true));
        }
        m_calls.clear();
        if (m_first) {
            blocks.append(ContentBlock::makeText(QStringLiteral("Task: %1").arg(m_task)));
            if (!m_reference.isEmpty())
                blocks.append(
                    ContentBlock::makeText(safety::wrapUntrusted(m_reference, QStringLiteral("past_tasks"))));
        }
        if (m_loop == DirectorOptions::Loop::Zones && world.map) {
            QString zones;
            if (m_first || !m_lastSentMap)
                zones = describeZones(*world.map);
            else if (m_lastSentMap->version() != world.map->version())
                zones = describeDelta(*m_lastSentMap, *world.map);
            if (zones.isEmpty() && !m_first)
                zones = QStringLiteral("zone map unchanged (v%1)").arg(world.map->version());
            blocks.append(ContentBlock::makeText(safety::wrapUntrusted(zones, QStringLiteral("zone_map"))));
            m_lastSentMap = world.map;
            // The labels are the program's own (read from its menus): untrusted like the map.
            const QString shortcuts = shortcutsToTell(*world.map);
            if (!shortcuts.isEmpty())
                blocks.append(ContentBlock::makeText(
                    safety::wrapUntrusted(shortcuts, QStringLiteral("known_shortcuts"))));
        } else if (m_loop == DirectorOptions::Loop::Zones && m_first) {
            blocks.append(
                ContentBlock::makeText(QStringLiteral("No zone map is available yet; use request_reanalysis "
                                                      "or the computer tool.")));
        }
        if (!world.screenshot.isNull()) {
            // The classic loop puts the screenshot into the last computer tool result, like the reference
            // demo.
            bool placed = false;
            if (m_loop == DirectorOptions::Loop::Classic) {
                for (qsizetype i = blocks.size() - 1; i >= 0 && !placed; --i) {
                    if (blocks[i].type == ContentBlock::Type::ToolResult) {
                        blocks[i].content.append(ContentBlock::makeImage(world.screenshot));
                        placed = true;
                    }
                }
            }
            if (!placed)
                blocks.append(ContentBlock::makeImage(world.screenshot));
        }
        if (!m_nudge.isEmpty()) {
            blocks.append(ContentBlock::makeText(m_nudge));
            m_nudge.clear();
        }
        if (blocks.isEmpty())
            blocks.append(ContentBlock::makeText(QStringLiteral("Continue.")));
        m_messages.append(Message::user(blocks));
    }
    m_continuePaused = false;
    m_first = false;

    ProviderRequest r;
    r.model = m_model;
    r.system = systemPrompt(world);
    r.maxTokens = 2048;
    r.purpose = m_loop == DirectorOptions::Loop::Classic ? QStringLiteral("classic") : QStringLiteral("plan");
    const QSize screen = m_screenSize.isEmpty() ? QSize(1280, 800) : m_screenSize;
    if (m_loop == DirectorOptions::Loop::Zones)
        r.tools = zoneTools();
    r.tools.append(ToolDefinition::computer(screen));
    r.messages = m_messages;
    m_lastRequest = r;
    m_requestId = m_provider->send(r);
}

QString ModelPlanner::shortcutsToTell(const ZoneMap& map)
{
    const QString application = LocalPlanner::frontApplication(map);
    if (application.isEmpty() || m_shortcutsTold.contains(application))
        return {};
    m_shortcutsTold.insert(application);
    std::optional<AppSchema> known;
    if (m_shortcuts) {
        known = m_shortcuts(application);
    } else {
        QString error;
        known = knownShortcuts(ShortcutStore(), application, &error);
        if (!known)
            qCWarning(lcModelPlanner) << "shortcuts of" << application << "not read:" << error;
    }
    return known ? describeShortcuts(*known) : QString();
}

void ModelPlanner::onFinished(quint64 requestId, const ProviderResponse& response)
{
    if (requestId != m_requestId)
        return;
    m_requestId = 0;
    if (response.error == director::ProviderError::Canceled)
        return;
    m_lastResponse = response;
    CallUsage usage;
    usage.inputTokens = response.usage.totalInputTokens();
    usage.outputTokens = response.usage.outputTokens;
    usage.costUsd = response.usage.costUsd;
    usage.estimatedInputTokens = estimateTokens(m_lastRequest);
    emit modelCalled(recordFor(m_lastRequest, response), usage);
    if (!response.ok()) {
        emit decided({Decision::Kind::Failed,
                      {},
                      QStringLiteral("%1 provider: %2 (%3)")
                          .arg(name(), response.errorMessage, director::toString(response.error))});
        return;
    }
    m_messages.append(response.assistantMessage());
    emit decided(interpret(response));
}

qint64 ModelPlanner::estimateTokens(const ProviderRequest& request)
{
    qint64 chars = request.system.size();
    QList<QSize> images;
    std::function<void(const QList<ContentBlock>&)> walk = [&](const QList<ContentBlock>& blocks) {
        for (const ContentBlock& b : blocks) {
            chars += b.text.size();
            if (b.type == ContentBlock::Type::ToolUse)
                chars += QJsonDocument(b.input).toJson(QJsonDocument::Compact).size() + b.name.size();
            if (b.isImage())
                images.append(b.imageSize());
            walk(b.content);
        }
    };
    for (const Message& m : request.messages)
        walk(m.blocks);
    for (const ToolDefinition& t : request.tools)
        chars += t.name.size() + t.description.size() +
                 QJsonDocument(t.inputSchema).toJson(QJsonDocument::Compact).size();
    qint64 tokens = chars / 4;
    // Only the most recent screenshots stay in the history on the wire.
    const qsizetype keep = request.keepScreenshots < 0
                               ? images.size()
                               : std::min<qsizetype>(images.size(), request.keepScreenshots);
    for (qsizetype i = images.size() - keep; i < images.size(); ++i) {
        const QSize target = director::ScreenshotScaler(images[i]).targetSize();
        tokens += qint64(target.width()) * target.height() / 750;
    }
    return tokens;
}

QJsonObject ModelPlanner::recordFor(const ProviderRequest& request, const ProviderResponse& response) const
{
    int images = 0;
    const QString lastUser =
        request.messages.isEmpty() ? QString() : textOf(request.messages.last().blocks, &images);
    QJsonArray reply;
    for (const ContentBlock& b : response.content) {
        if (b.type == ContentBlock::Type::Text)
            reply.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("text")},
                                     {QStringLiteral("text"), b.text}});
        else if (b.type == ContentBlock::Type::ToolUse)
            reply.append(QJsonObject{{QStringLiteral("type"), QStringLiteral("tool_use")},
                                     {QStringLiteral("id"), b.id},
                                     {QStringLiteral("name"), b.name},
                                     {QStringLiteral("input"), b.input}});
    }
    QJsonArray tools;
    for (const ToolDefinition& t : request.tools)
        tools.append(t.name);
    return {
        {QStringLiteral("provider"), name()},
        {QStringLiteral("loop"), toString(m_loop)},
        {QStringLiteral("model"), response.model.isEmpty() ? m_provider->modelFor(request) : response.model},
        {QStringLiteral("purpose"), request.purpose},
        {QStringLiteral("messages"), int(request.messages.size())},
        {QStringLiteral("tools"), tools},
        {QStringLiteral("prompt"), lastUser.left(8000)},
        {QStringLiteral("images_in_prompt"), images},
        {QStringLiteral("reply"), reply},
        {QStringLiteral("stop_reason"), director::toString(response.stopReason)},
        {QStringLiteral("usage"),
         QJsonObject{{QStringLiteral("input_tokens"), double(response.usage.totalInputTokens())},
                     {QStringLiteral("output_tokens"), double(response.usage.outputTokens)},
                     {QStringLiteral("cost_usd"), response.usage.costUsd}}},
        {QStringLiteral("estimated_input_tokens"), double(estimateTokens(request))},
        {QStringLiteral("api_request_id"), response.apiRequestId},
        {QStringLiteral("latency_ms"), double(response.latencyMs)},
        {QStringLiteral("attempts"), response.attempts},
        {QStringLiteral("error"), response.ok() ? QString() : response.errorMessage}};
}

} // namespace ciu
