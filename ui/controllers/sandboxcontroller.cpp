#include "ui/controllers/sandboxcontroller.h"

#include "core/engine/sandboxdisplay.h"

namespace ciu::ui {

SandboxController::SandboxController(QObject* parent)
    : QObject(parent)
    , m_display(new SandboxDisplay(this))
{
    connect(m_display, &SandboxDisplay::started, this, &SandboxController::started);
    connect(m_display, &SandboxDisplay::failed, this, &SandboxController::failed);
    connect(m_display, &SandboxDisplay::stopped, this, &SandboxController::stopped);
}

SandboxController::~SandboxController() = default;

bool SandboxController::isRunning() const
{
    return m_display->state() == SandboxDisplay::State::Running;
}

bool SandboxController::isStopped() const
{
    return m_display->state() == SandboxDisplay::State::Stopped;
}

QString SandboxController::displayName() const
{
    return m_display->displayName();
}

QString SandboxController::errorString() const
{
    return m_display->errorString();
}

bool SandboxController::start(QSize size)
{
    if (!isStopped())
        return false;
    m_display->start(size);
    return true;
}

void SandboxController::stop()
{
    m_display->stop();
}

bool SandboxController::launch(const QString& command)
{
    return m_display->launch(command);
}

} // namespace ciu::ui
