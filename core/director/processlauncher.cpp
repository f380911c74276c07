#include "core/director/processlauncher.h"

#include "core/director/directorlog.h"

#include <QProcess>

namespace ciu {

ProcessLauncher::ProcessLauncher(QProcessEnvironment environment)
    : m_environment(std::move(environment))
{
}

ActionResult ProcessLauncher::launch(const QString& commandLine)
{
    ActionResult r;
    QStringList args = QProcess::splitCommand(commandLine);
    if (args.isEmpty()) {
        r.error = QStringLiteral("launch needs a program");
        return r;
    }
    const QString program = args.takeFirst();
    QProcess process;
    process.setProgram(program);
    process.setArguments(args);
    process.setProcessEnvironment(m_environment);
    process.setStandardInputFile(QProcess::nullDevice());
    process.setStandardOutputFile(QProcess::nullDevice());
    process.setStandardErrorFile(QProcess::nullDevice());
    qint64 pid = 0;
    r.success = process.startDetached(&pid);
    if (!r.success)
        r.error = QStringLiteral("cannot start \"%1\": %2").arg(program, process.errorString());
    else
        r.output = QStringLiteral("started %1 (pid %2)").arg(program).arg(pid);
    qCDebug(lcDirector) << "launch" << program << (r.success ? r.output : r.error);
    return r;
}

} // namespace ciu
