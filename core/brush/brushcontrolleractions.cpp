// BrushController's acting: once the cursor is verified at the target, the action itself (clicks, typing,
// keys, drags, holds, waits, the clipboard), then watching for the canvas change it causes. The motion is
// in brushcontrollermotion.cpp, the safety in brushcontrollersafety.cpp, tracking in brushcontroller.cpp.

#include "core/brush/brushcontroller.h"
#include "core/brush/brushlog.h"
#include "platform/inputactions.h"
#include "platform/keys.h"
#include "platform/windowsystem.h"

#include <QCoreApplication>
#include <QThread>

namespace ciu {
namespace {

// Keyboard actions aimed at a zone focus it first with a left click.
bool focusesTarget(Action::Type type)
{
    switch (type) {
    case Action::Type::TypeText:
    case Action::Type::Key:
    case Action::Type::HoldKey:
    case Action::Type::Paste:
    case Action::Type::SelectAll:
        return true;
    default:
        return false;
    }
}

bool watchesForChange(Action::Type type)
{
    switch (type) {
    case Action::Type::MouseMove:
    case Action::Type::Wait:
    case Action::Type::CursorPosition:
    case Action::Type::Copy:
    case Action::Type::ClipboardRead:
    case Action::Type::ClipboardWrite:
    case Action::Type::Screenshot:
    case Action::Type::Launch:
    case Action::Type::ActivateWindow:
        return false;
    default:
        return true;
    }
}

// Asks the window manager to raise and activate `id` and waits up to `waitMs` for its report; false with
// `error` when it refuses or does not report the window active.
bool activateAndWait(platform::WindowSystem& ws, quint64 id, int waitMs, QString* error)
{
    if (!ws.activate(id)) {
        *error = QStringLiteral("activating window 0x%1 failed: %2").arg(id, 0, 16).arg(ws.errorString());
        return false;
    }
    // The window manager activates it asynchronously (its _NET_ACTIVE_WINDOW follows).
    for (int i = 0; i < waitMs / 10; ++i) {
        if (const auto active = ws.activeWindow(); active && active->id == id)
            return true;
        QThread::msleep(10);
    }
    *error = QStringLiteral("the window manager did not make window 0x%1 active").arg(id, 0, 16);
    return false;
}

} // namespace

void BrushController::act()
{
    if (!m_job)
        return;
    const Action& a = m_job->action;
    const bool targeted = !a.zoneId.isEmpty() || a.point.has_value();
    const auto pos = readPointer();
    if (!pos)
        return fail(QStringLiteral("cannot read the cursor position: the display is gone"));
    if (m_job->actZoneId.isEmpty())
        m_job->actZoneId = zoneIdAt(*pos);
    if (m_job->result.pointUsed.isNull())
        m_job->result.pointUsed = *pos;
    m_job->actNs = m_clock.nowNs();
    platform::InputActions& in = *m_actions;

    auto clickEvent = [&](platform::MouseButton button, int count) {
        SpatialEvent e;
        e.kind = SpatialEvent::Kind::ZoneClick;
        e.tNs = m_clock.nowNs();
        e.zoneId = m_job->actZoneId;
        e.point = *pos;
        e.data = {{QStringLiteral("button"), platform::toString(button)}, {QStringLiteral("count"), count}};
        if (!a.heldKeys.isEmpty())
            e.data.insert(QStringLiteral("held_keys"), a.heldKeys);
        emitEvent(e);
    };
    auto typeEvent = [&](const QString& key, const QString& value) {
        SpatialEvent e;
        e.kind = SpatialEvent::Kind::ZoneType;
        e.tNs = m_clock.nowNs();
        e.zoneId = m_job->actZoneId;
        e.point = *pos;
        e.data = {{key, value}};
        emitEvent(e);
    };
    auto click = [&](platform::MouseButton button, int count, const QString& held) {
        if (!in.click(button, count, held)) {
            fail(QStringLiteral("click failed: %1").arg(in.errorString()));
            return false;
        }
        clickEvent(button, count);
        return true;
    };
    // Keyboard actions aimed at a zone: focus it first. Aimed at nothing: they go to the focused window,
    // and when none is, to the window acted on last (or the topmost), raised first.
    if (targeted && focusesTarget(a.type) && !click(platform::MouseButton::Left, 1, {}))
        return;
    if (targeted)
        noteWindowAt(*pos);
    else if (focusesTarget(a.type))
        focusWindowForKeys();

    bool ok = true;
    QString error;
    switch (a.type) {
    case Action::Type::MouseMove:
        break;
    case Action::Type::LeftClick:
        ok = click(platform::MouseButton::Left, 1, a.heldKeys);
        break;
    case Action::Type::RightClick:
        ok = click(platform::MouseButton::Right, 1, a.heldKeys);
        break;
    case Action::Type::MiddleClick:
        ok = click(platform::MouseButton::Middle, 1, a.heldKeys);
        break;
    case Action::Type::DoubleClick:
        ok = click(platform::MouseButton::Left, 2, a.heldKeys);
        break;
    case Action::Type::TripleClick:
        ok = click(platform::MouseButton::Left, 3, a.heldKeys);
        break;
    case Action::Type::LeftClickDrag: {
        if (!in.buttonDown(platform::MouseButton::Left))
            return fail(QStringLiteral("pressing the button failed: %1").arg(in.errorString()));
        m_held.addButton(platform::MouseButton::Left);
        Leg leg;
        leg.zoneId = a.endZoneId;
        if (a.endZoneId.isEmpty())
            leg.target = *a.endPoint;
        leg.kind = TrajectoryKind::Direct;
        leg.then = [this] {
            if (!m_actions->buttonUp(platform::MouseButton::Left))
                return fail(QStringLiteral("releasing the button failed: %1").arg(m_actions->errorString()));
            m_held.removeButton(platform::MouseButton::Left);
            watchForChange();
        };
        beginLeg(std::move(leg));
        return; // continues when the drag reached its end
    }
    case Action::Type::LeftMouseDown:
        ok = in.buttonDown(platform::MouseButton::Left);
        if (ok && !m_held.holdsButton(platform::MouseButton::Left))
            m_held.addButton(platform::MouseButton::Left);
        break;
    case Action::Type::LeftMouseUp:
        ok = in.buttonUp(platform::MouseButton::Left);
        m_held.removeButton(platform::MouseButton::Left);
        break;
    case Action::Type::Scroll:
        ok = in.scroll(a.scrollDirection, a.amount, a.heldKeys);
        break;
    case Action::Type::TypeText:
        ok = in.type(a.text, std::max(0, m_settings.typeDelayMs));
        if (ok)
            typeEvent(QStringLiteral("text"),
                      isPasswordZone(m_job->actZoneId) ? QStringLiteral("\u2022\u2022\u2022\u2022") : a.text);
        break;
    case Action::Type::Key:
        ok = in.keys(a.text);
        if (ok)
            typeEvent(QStringLiteral("keys"), a.text);
        break;
    case Action::Type::HoldKey: {
        const platform::KeyParseResult parsed = platform::parseKeySequence(a.text);
        if (!parsed.ok())
            return fail(parsed.error);
        if (parsed.combos.size() != 1)
            return fail(QStringLiteral("hold_key takes one key combination, got \"%1\"").arg(a.text));
        const platform::KeyCombo& combo = parsed.combos.first();
        QList<platform::Keysym> keys = combo.modifiers;
        if (combo.key != 0)
            keys << combo.key;
        for (const platform::Keysym k : keys) {
            if (!m_platform->input().key(k, true)) {
                const QString e = m_platform->input().errorString();
                releaseAll();
                return fail(QStringLiteral("pressing %1 failed: %2").arg(platform::keysymName(k), e));
            }
            m_held.addKey(k);
        }
        m_platform->input().sync();
        typeEvent(QStringLiteral("keys"), a.text);
        m_holdTimer.start(std::max(0, a.durationMs));
        return; // holdKeyDone() continues
    }
    case Action::Type::Wait:
        m_waitTimer.start(std::max(0, a.durationMs));
        return;
    case Action::Type::WaitForChange:
        watchForChange();
        return;
    case Action::Type::CursorPosition:
        m_job->result.pointUsed = *pos;
        m_job->result.output = QStringLiteral("[%1, %2]").arg(pos->x()).arg(pos->y());
        break;
    case Action::Type::Copy:
        ok = in.keys(QStringLiteral("ctrl+c"));
        break;
    case Action::Type::Paste:
        ok = in.keys(QStringLiteral("ctrl+v"));
        break;
    case Action::Type::Cut:
        ok = in.keys(QStringLiteral("ctrl+x"));
        break;
    case Action::Type::SelectAll:
        ok = in.keys(QStringLiteral("ctrl+a"));
        break;
    case Action::Type::ClipboardRead: {
        const auto text = m_platform->clipboard().text();
        if (!text) {
            ok = false;
            error =
                QStringLiteral("the clipboard holds no text (%1)").arg(m_platform->clipboard().errorString());
        } else {
            m_job->result.output = *text;
        }
        break;
    }
    case Action::Type::ClipboardWrite:
        ok = m_platform->clipboard().setText(a.text);
        if (!ok)
            error =
                QStringLiteral("setting the clipboard failed: %1").arg(m_platform->clipboard().errorString());
        break;
    case Action::Type::Screenshot:
    case Action::Type::Launch:
        return fail(QStringLiteral("%1 is not executed by the brush").arg(toString(a.type)));
    case Action::Type::ActivateWindow:
        ok = activateAndWait(m_platform->windows(), a.windowId, 1000, &error);
        if (ok) {
            m_lastWindowId = a.windowId; // untargeted keys go there from now on
            m_job->result.output = QStringLiteral("window 0x%1 is active").arg(a.windowId, 0, 16);
        }
        break;
    }
    if (!m_job)
        return; // a failing click already finished the job
    if (!ok)
        return fail(error.isEmpty() ? QStringLiteral("%1 failed: %2").arg(toString(a.type), in.errorString())
                                    : error);
    if (watchesForChange(a.type))
        watchForChange();
    else
        finish(true);
}

void BrushController::holdKeyDone()
{
    if (!m_job)
        return;
    platform::Input& input = m_platform->input();
    if (!m_held.releaseKeys(input))
        return fail(QStringLiteral("releasing the held keys failed: %1").arg(input.errorString()));
    watchForChange();
}

void BrushController::noteWindowAt(QPoint pos)
{
    const QList<platform::WindowInfo> windows = m_platform->windows().topLevelWindows();
    for (auto it = windows.crbegin(); it != windows.crend(); ++it) { // topmost first
        if (it->geometry.contains(pos)) {
            m_lastWindowId = it->id;
            return;
        }
    }
}

void BrushController::focusWindowForKeys()
{
    platform::WindowSystem& ws = m_platform->windows();
    if (ws.activeWindow())
        return;
    const QList<platform::WindowInfo> windows = ws.topLevelWindows();
    const qint64 self = QCoreApplication::applicationPid();
    const platform::WindowInfo* pick = nullptr;
    for (const platform::WindowInfo& w : windows) {
        if (w.pid == self)
            continue; // never the agent's own window
        if (w.id == m_lastWindowId) {
            pick = &w;
            break;
        }
        pick = &w; // stacking order, bottom first: the last one is the topmost
    }
    if (!pick)
        return; // no window manager or no window: the keys go where the X server sends them
    qCInfo(lcBrush) << "no window has the focus; activating" << pick->title << "before the keys";
    QString error;
    if (!activateAndWait(ws, pick->id, 500, &error))
        qCWarning(lcBrush) << pick->title << ":" << error;
}

void BrushController::watchForChange()
{
    if (!m_job)
        return;
    const bool explicitWait = m_job->action.type == Action::Type::WaitForChange;
    if (!m_haveChangeFeed && !explicitWait) {
        finish(true); // no capture engine connected: nothing to watch
        return;
    }
    if (m_job->actNs == 0)
        m_job->actNs = m_clock.nowNs();
    if (m_settings.changeScope == ChangeScope::Anywhere)
        m_job->watchRect = {};
    if (m_job->action.isClick() && m_map && !m_job->actZoneId.isEmpty()) {
        if (const Zone* z = m_map->find(m_job->actZoneId);
            z && (z->type == ZoneType::Button || z->type == ZoneType::Link))
            m_job->ownLook = z->bounds.adjusted(-6, -6, 6, 6); // its focus ring reaches a little outside
    }
    m_job->watching = true;
    const int timeoutMs = explicitWait && m_job->action.durationMs > 0
                              ? m_job->action.durationMs
                              : std::max(0, m_settings.changeTimeoutMs);
    m_watchTimer.start(timeoutMs);
}

} // namespace ciu
