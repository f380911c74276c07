#pragma once

#include "core/model/action.h"

#include <QProcessEnvironment>
#include <QString>

namespace ciu {

// Starts the programs a task's `launch` actions name. The brush does not start programs: the Director hands
// the command line of a launch action to its launcher, which starts it detached on the target display (its
// environment carries that display's DISPLAY) and says what happened as an ActionResult. `Launcher` is the
// small interface the Director holds (a test can install one that starts nothing); `ProcessLauncher` starts
// real processes with QProcess.
class Launcher
{
public:
    virtual ~Launcher() = default;

    // Starts `commandLine` (a program and its arguments, split as a shell would split them) without waiting
    // for it. success and output ("started <program> (pid N)") or error; the times are the caller's.
    virtual ActionResult launch(const QString& commandLine) = 0;
};

class ProcessLauncher final : public Launcher
{
public:
    explicit ProcessLauncher(QProcessEnvironment environment = QProcessEnvironment::systemEnvironment());

    void setEnvironment(const QProcessEnvironment& environment) { m_environment = environment; }
    QProcessEnvironment environment() const { return m_environment; }

    ActionResult launch(const QString& commandLine) override;

private:
    QProcessEnvironment m_environment;
};

} // namespace ciu
