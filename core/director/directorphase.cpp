#include "core/director/director.h"
#include "core/director/directorinternal.h"

// The Director's run phase: every transition goes through setPhase(), which logs it and reports the outward
// DirectorState the phase stands for (statusChanged).

namespace ciu {

const char* Director::phaseName(Phase phase)
{
    switch (phase) {
    case Phase::Idle:
        return "idle";
    case Phase::Starting:
        return "starting";
    case Phase::Ready:
        return "ready";
    case Phase::Deciding:
        return "deciding";
    case Phase::AwaitingConfirmation:
        return "awaiting-confirmation";
    case Phase::Executing:
        return "executing";
    case Phase::Recovering:
        return "recovering";
    case Phase::AwaitingMap:
        return "awaiting-map";
    case Phase::Verifying:
        return "verifying";
    case Phase::Paused:
        return "paused";
    case Phase::Finished:
        return "finished";
    }
    return "?";
}

std::optional<DirectorState> Director::outwardState(Phase phase)
{
    switch (phase) {
    case Phase::Idle:
        return DirectorState::Idle;
    case Phase::Starting:
        return DirectorState::Starting;
    case Phase::Ready:
        return std::nullopt; // between two steps: the last state reported stands
    case Phase::Deciding:
        return DirectorState::Planning;
    case Phase::AwaitingConfirmation:
        return DirectorState::Confirming;
    case Phase::Executing:
        return DirectorState::Executing;
    case Phase::Recovering:
    case Phase::AwaitingMap:
        return DirectorState::Recovering;
    case Phase::Verifying:
        return DirectorState::Verifying;
    case Phase::Paused:
        return DirectorState::Paused;
    case Phase::Finished:
        return DirectorState::Finished;
    }
    return std::nullopt;
}

void Director::setPhase(Phase phase, const QString& detail, Report report)
{
    if (phase != m_phase) {
        qCDebug(lcDirector) << "phase" << phaseName(m_phase) << "→" << phaseName(phase);
        m_phase = phase;
    }
    const std::optional<DirectorState> state = outwardState(phase);
    if (!state)
        return;
    if (report == Report::Silently)
        m_state = *state;
    else
        setState(*state, detail);
}

bool Director::waitingForOthers() const
{
    switch (m_phase) {
    case Phase::Deciding:
    case Phase::AwaitingConfirmation:
    case Phase::Executing:
    case Phase::Recovering:
        return true;
    default:
        return false;
    }
}

void Director::setState(DirectorState state, const QString& detail)
{
    if (state == m_state && detail.isEmpty())
        return;
    m_state = state;
    qCDebug(lcDirector) << "state" << toString(state) << detail;
    emit statusChanged(state, detail);
}

} // namespace ciu
