#include "tests/support/agentrun.h"

#include <QJsonDocument>
#include <QProcess>
#include <QTest>

namespace ciu::test {

namespace {

constexpr qsizetype kErrShown = 4000;
constexpr qsizetype kOutShown = 2000;

} // namespace

QString AgentRun::failure() const
{
    QString how;
    if (timedOut)
        how = QStringLiteral("killed at the time limit");
    else if (exitCode < 0)
        how = QStringLiteral("did not start or crashed");
    else
        how = QStringLiteral("exit code %1").arg(exitCode);
    return QStringLiteral("ciu-agent %1: %2\n--- stderr%3:\n%4\n--- stdout%5:\n%6")
        .arg(args.join(QLatin1Char(' ')), how,
             err.size() > kErrShown ? QStringLiteral(" (the last %1 characters)").arg(kErrShown) : QString(),
             err.right(kErrShown),
             out.size() > kOutShown ? QStringLiteral(" (the first %1 characters)").arg(kOutShown) : QString(),
             out.left(kOutShown));
}

QProcessEnvironment agentEnvironment(const QProcessEnvironment& base)
{
    QProcessEnvironment env = base;
    env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
    env.remove(QStringLiteral("OPENAI_API_KEY"));
    env.insert(QStringLiteral("OMP_THREAD_LIMIT"), QStringLiteral("1"));
    return env;
}

AgentRun runAgent(const QStringList& args, const QProcessEnvironment& env, int timeoutMs)
{
    AgentRun r;
    r.args = args;
    QProcess p;
    p.setProcessEnvironment(env);
    p.setStandardInputFile(QProcess::nullDevice());
    p.start(QStringLiteral(CIU_AGENT_BIN), args);
    if (!p.waitForStarted()) {
        r.err = p.errorString();
        return r;
    }
    if (!QTest::qWaitFor([&p] { return p.state() == QProcess::NotRunning; }, timeoutMs)) {
        r.timedOut = true;
        p.kill();
        p.waitForFinished();
    }
    if (!r.timedOut && p.exitStatus() == QProcess::NormalExit)
        r.exitCode = p.exitCode();
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (!lines.isEmpty())
        r.json = QJsonDocument::fromJson(lines.last().toUtf8()).object();
    return r;
}

} // namespace ciu::test
