#include "core/director/modelplanner.h"

#include "core/director/directorlog.h"
#include "core/director/safety/untrusted.h"
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

// The model loops: the request for each decision, the reply turned into actions. Tool definitions, the
// zone map text and the tool results: modelplannertools.cpp.

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

Decision ModelPlanner::interpret(const ProviderResponse& response)
{
    switch (response.stopReason) {
    case StopReason::Refusal:
        return {Decision::Kind::Failed,
                {},
                QStringLiteral("the model refused the task%1")
                    .arg(response.text().isEmpty() ? QString() : QStringLiteral(": ") + response.text())};
    case StopReason::ContextWindowExceeded:
        return {Decision::Kind::Failed,
                {},
                QStringLiteral("the conversation exceeded the model's context window")};
    case StopReason::PauseTurn:
        m_continuePaused = true; // send the paused reply back unchanged
        return {Decision::Kind::Act, {}, QStringLiteral("pause_turn: continuing")};
    default:
        break;
    }
    const QList<ContentBlock> uses = response.toolUses();
    if (response.stopReason == StopReason::MaxTokens) {
        bool complete = !uses.isEmpty();
        for (const ContentBlock& u : uses)
            complete = complete && u.inputError.isEmpty();
        if (!complete) {
            if (++m_maxTokensRetries > 2)
                return {Decision::Kind::Failed,
                        {},
                        QStringLiteral("the model's replies were cut at max_tokens three times")};
            m_nudge = QStringLiteral(
                "Your reply was cut off (max_tokens). Answer briefly: fewer tool calls, no long text.");
        }
    }
    if (uses.isEmpty()) {
        if (!m_nudge.isEmpty()) {
            // Only the cut text came back: ask again (the assistant turn is in the history).
            return {Decision::Kind::Act, {}, QStringLiteral("max_tokens: asking again")};
        }
        // No tool call: the model considers the task finished (classic loop convention).
        m_plan.status = Plan::Status::Completed;
        emit planChanged();
        return {Decision::Kind::Complete, {}, response.text()};
    }

    Decision d;
    d.kind = Decision::Kind::Act;
    m_segments.clear(); // a new reply: whatever was left of the last one was answered as not executed
    m_script.reset();
    const auto scaler = response.scaler;
    for (const ContentBlock& u : uses) {
        ToolCall call;
        call.id = u.id;
        call.name = u.name;
        m_calls.append(call);
        ToolCall& c = m_calls.last();
        auto error = [&](const QString& text) {
            c.result = ContentBlock::makeToolResultText(c.id, text, true);
        };
        if (!u.inputError.isEmpty()) {
            error(QStringLiteral("the arguments were not a JSON object: %1").arg(u.inputError));
            continue;
        }
        const QJsonObject in = u.input;
        auto zoneAction = [&](Action::Type type, const QString& zone) {
            ProposedAction p;
            p.action.type = type;
            p.action.zoneId = zone;
            p.toolUseId = u.id;
            p.toolName = u.name;
            return p;
        };
        QList<ProposedAction> actions;
        const QString zone = in.value(QStringLiteral("zone_id")).toString();
        if (u.name == QLatin1String("task_complete")) {
            c.result = ContentBlock::makeToolResultText(c.id, in.value(QStringLiteral("summary")).toString());
            continue;
        }
        if (u.name == QLatin1String("task_impossible")) {
            m_plan.status = Plan::Status::Failed;
            emit planChanged();
            return {Decision::Kind::Impossible, {}, in.value(QStringLiteral("explanation")).toString()};
        }
        if (u.name == QLatin1String("update_plan")) {
            m_plan.steps.clear();
            for (const QJsonValue& v : in.value(QStringLiteral("steps")).toArray()) {
                const QJsonObject o = v.toObject();
                PlanStep s;
                s.description = o.value(QStringLiteral("description")).toString();
                s.zoneId = o.value(QStringLiteral("zone_id")).toString();
                s.expectedChange = o.value(QStringLiteral("expected_change")).toString();
                m_plan.steps.append(s);
            }
            m_plan.currentStep =
                std::clamp(in.value(QStringLiteral("current_step")).toInt(1), 0, int(m_plan.steps.size()));
            m_plan.status = Plan::Status::Executing;
            m_modelPlanned = true;
            emit planChanged();
            c.result = ContentBlock::makeToolResultText(c.id, QStringLiteral("plan recorded"));
            continue;
        }
        if (u.name == QLatin1String("request_reanalysis")) {
            c.result = ContentBlock::makeToolResultText(
                c.id, QStringLiteral("re-analysis requested; the new zone map follows"));
            if (uses.size() == 1)
                return {Decision::Kind::Reanalyze, {}, in.value(QStringLiteral("reason")).toString()};
            continue;
        }
        if (u.name == QLatin1String("invoke_menu_action")) {
            const QString action = in.value(QStringLiteral("action")).toString().simplified();
            if (action.isEmpty()) {
                error(QStringLiteral("invoke_menu_action needs \"action\": a menu item's label or path"));
                continue;
            }
            ScriptCommand command;
            command.verb = ScriptCommand::Verb::Invoke;
            command.target = action;
            command.source = command.toString();
            Segment script;
            script.scriptCallId = u.id;
            script.commands = {command};
            m_segments.append(std::move(script));
            continue;
        }
        if (u.name == QLatin1String("run_steps")) {
            QString scriptError;
            auto commands = parseSteps(in, &scriptError);
            if (!commands) {
                error(QStringLiteral("run_steps was not run: %1").arg(scriptError));
                continue;
            }
            Segment script;
            script.scriptCallId = u.id;
            script.commands = std::move(*commands);
            m_segments.append(std::move(script));
            continue;
        }
        if (u.name == QLatin1String("click_zone")) {
            const QString button = in.value(QStringLiteral("button")).toString(QStringLiteral("left"));
            const int clicks = in.value(QStringLiteral("clicks")).toInt(1);
            Action::Type type = Action::Type::LeftClick;
            if (button == QLatin1String("right"))
                type = Action::Type::RightClick;
            else if (button == QLatin1String("middle"))
                type = Action::Type::MiddleClick;
            else if (clicks == 2)
                type = Action::Type::DoubleClick;
            else if (clicks == 3)
                type = Action::Type::TripleClick;
            if (zone.isEmpty() || clicks < 1 || clicks > 3 ||
                (button != QLatin1String("left") && button != QLatin1String("right") &&
                 button != QLatin1String("middle"))) {
                error(QStringLiteral("click_zone needs zone_id, button left/right/middle and clicks 1..3"));
                continue;
            }
            actions << zoneAction(type, zone);
        } else if (u.name == QLatin1String("type_in_zone")) {
            const QString text = in.value(QStringLiteral("text")).toString();
            if (zone.isEmpty() || text.isEmpty()) {
                error(QStringLiteral("type_in_zone needs zone_id and text"));
                continue;
            }
            actions << zoneAction(Action::Type::LeftClick, zone);
            ProposedAction t = zoneAction(Action::Type::TypeText, {});
            t.action.text = text;
            t.focusZoneId = zone;
            // Read back: the field ends with the text (the tool result says what it reads otherwise).
            t.expect.kind = Expectation::Kind::TextEndsWith;
            t.expect.text = text;
            t.expect.description = QStringLiteral("typed text");
            actions << t;
            if (in.value(QStringLiteral("press_enter")).toBool()) {
                ProposedAction k = zoneAction(Action::Type::Key, {});
                k.action.text = QStringLiteral("Return");
                actions << k;
            }
        } else if (u.name == QLatin1String("scroll_zone")) {
            const auto dir =
                platform::scrollDirectionFromString(in.value(QStringLiteral("direction")).toString());
            if (zone.isEmpty() || !dir) {
                error(QStringLiteral("scroll_zone needs zone_id and direction up/down/left/right"));
                continue;
            }
            ProposedAction p = zoneAction(Action::Type::Scroll, zone);
            p.action.scrollDirection = *dir;
            p.action.amount = in.value(QStringLiteral("amount")).toInt(3);
            actions << p;
        } else if (u.name == QLatin1String("drag_zone")) {
            ProposedAction p =
                zoneAction(Action::Type::LeftClickDrag, in.value(QStringLiteral("from_zone_id")).toString());
            p.action.endZoneId = in.value(QStringLiteral("to_zone_id")).toString();
            if (p.action.zoneId.isEmpty() || p.action.endZoneId.isEmpty()) {
                error(QStringLiteral("drag_zone needs from_zone_id and to_zone_id"));
                continue;
            }
            actions << p;
        } else if (u.name == QLatin1String("press_keys")) {
            ProposedAction p = zoneAction(Action::Type::Key, {});
            p.action.text = in.value(QStringLiteral("keys")).toString();
            actions << p;
        } else if (u.name == QLatin1String("wait_for_change")) {
            ProposedAction p = zoneAction(Action::Type::WaitForChange, {});
            p.action.text = in.value(QStringLiteral("text")).toString();
            p.local = true;
            QString why;
            const auto timeout =
                boundedDurationMs(in.value(QStringLiteral("timeout_ms")).toDouble(5000), 1.0, &why);
            if (!timeout) {
                error(QStringLiteral("timeout_ms: %1").arg(why));
                continue;
            }
            p.action.durationMs = *timeout;
            actions << p;
        } else if (u.name == QLatin1String("computer")) {
            QString mapError;
            const auto mapped = scaler.mapInputToScreen(in, &mapError);
            if (!mapped) {
                error(QStringLiteral("refused: %1").arg(mapError));
                continue;
            }
            QString actionError;
            auto p = computerAction(*mapped, &actionError);
            if (!p) {
                error(actionError);
                continue;
            }
            p->toolUseId = u.id;
            actions << *p;
        } else {
            error(QStringLiteral("unknown tool \"%1\"").arg(u.name));
            continue;
        }
        c.expected = int(actions.size());
        // Consecutive zone tools form one batch; a run_steps script between them keeps the order.
        if (m_segments.isEmpty() || !m_segments.last().scriptCallId.isEmpty())
            m_segments.append(Segment());
        m_segments.last().actions.append(actions);
    }
    if (m_plan.steps.isEmpty() || m_plan.status == Plan::Status::Planning) {
        m_plan.status = Plan::Status::Executing;
        emit planChanged();
    }
    // The first segment starts on the zone map the model saw (the Director checks every action against
    // the current one before it runs).
    if (auto next = advance(m_lastMap))
        return *next;
    return d;
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
