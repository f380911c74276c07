#pragma once

#include <QJsonObject>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

// For end-to-end tests: run the ciu-agent binary the way a shell would (arguments, an environment, a time
// limit, no terminal) and keep what it printed, its exit code and the JSON summary its --json mode ends with.

namespace ciu::test {

struct AgentRun
{
    QStringList args;
    int exitCode = -1;     // -1: it did not start, crashed, or was killed at the time limit
    bool timedOut = false; // killed at the time limit
    QString out;
    QString err;
    QJsonObject
        json; // stdout's last non-empty line as a JSON object (the --json summary); empty if it is not

    // For QVERIFY2 messages: the command, how it ended, the end of its stderr and the start of its stdout.
    QString failure() const;
};

// `base` as the agent should see it in a test: without the providers' API keys (a test never sends the
// user's keys anywhere) and with OMP_THREAD_LIMIT=1 (Tesseract's threads on a shared machine).
QProcessEnvironment
agentEnvironment(const QProcessEnvironment& base = QProcessEnvironment::systemEnvironment());

// Runs ciu-agent with `args` in exactly `env`, its stdin /dev/null (nobody can confirm), and waits up to
// `timeoutMs` for it to end, killing it then. The caller's event loop keeps running meanwhile (a fake API
// server in the test's thread answers from it).
AgentRun runAgent(const QStringList& args, const QProcessEnvironment& env, int timeoutMs = 180'000);

} // namespace ciu::test
