#pragma once

// The MCP end-to-end tests' client (tst_mcp_e2e, tst_mcp_e2e_tools): the official MCP TypeScript SDK
// (tests/mcp-client/driver.mjs) as a child process, one JSON command a line in, one answer a line out; and
// small readers of the answers.

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

namespace ciu::test {

class SdkClient
{
public:
    bool start(QString* error)
    {
        const QString dir = QStringLiteral(CIU_SOURCE_DIR "/tests/mcp-client");
        if (!QFileInfo::exists(dir +
                               QStringLiteral("/node_modules/@modelcontextprotocol/sdk/package.json"))) {
            *error = QStringLiteral("the MCP SDK is not installed: run `npm ci` in tests/mcp-client "
                                    "(packaging/setup.sh does)");
            return false;
        }
        m_process.setWorkingDirectory(dir);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("OMP_THREAD_LIMIT"), QStringLiteral("1"));
        env.remove(QStringLiteral("ANTHROPIC_API_KEY"));
        env.remove(QStringLiteral("OPENAI_API_KEY"));
        m_process.setProcessEnvironment(env);
        m_process.start(QStandardPaths::findExecutable(QStringLiteral("node")),
                        {QStringLiteral("driver.mjs")});
        if (!m_process.waitForStarted()) {
            *error = m_process.errorString();
            return false;
        }
        return true;
    }
    ~SdkClient()
    {
        m_process.closeWriteChannel();
        if (!m_process.waitForFinished(30000))
            m_process.kill();
        m_process.waitForFinished();
    }
    // Sends one command and waits for its answer (the test's event loop keeps running: the fixture's output
    // is read meanwhile).
    QJsonObject send(const QJsonObject& command, int timeoutMs = 240'000)
    {
        m_process.write(QJsonDocument(command).toJson(QJsonDocument::Compact) + '\n');
        QByteArray line;
        (void)QTest::qWaitFor(
            [&] {
                m_buffer += m_process.readAllStandardOutput();
                m_stderr += m_process.readAllStandardError();
                const qsizetype nl = m_buffer.indexOf('\n');
                if (nl < 0)
                    return m_process.state() == QProcess::NotRunning;
                line = m_buffer.left(nl);
                m_buffer.remove(0, nl + 1);
                return true;
            },
            timeoutMs);
        if (line.isEmpty()) {
            // No answer: what the driver and the server said last is what explains it.
            m_stderr += m_process.readAllStandardError();
            qWarning("no answer to %s within %d ms; the driver's and the server's last output:\n%s",
                     QJsonDocument(command).toJson(QJsonDocument::Compact).left(300).constData(), timeoutMs,
                     m_stderr.right(6000).constData());
        }
        return QJsonDocument::fromJson(line).object();
    }
    QJsonObject call(const QString& name, const QJsonObject& arguments)
    {
        return send({{QStringLiteral("op"), QStringLiteral("call")},
                     {QStringLiteral("name"), name},
                     {QStringLiteral("arguments"), arguments}});
    }
    // Connects over stdio to `ciu-agent` with `args`.
    QJsonObject connectStdio(const QStringList& args, const QString& elicitation = QStringLiteral("none"))
    {
        return send({{QStringLiteral("op"), QStringLiteral("connect")},
                     {QStringLiteral("transport"), QStringLiteral("stdio")},
                     {QStringLiteral("command"), QStringLiteral(CIU_AGENT_BIN)},
                     {QStringLiteral("elicitation"), elicitation},
                     {QStringLiteral("args"), QJsonArray::fromStringList(args)}});
    }
    QString log() { return QString::fromUtf8(m_stderr + m_process.readAllStandardError()); }

private:
    QProcess m_process;
    QByteArray m_buffer;
    QByteArray m_stderr;
};

inline QByteArray dump(const QJsonValue& v)
{
    return v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                       : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
}

// The text blocks of a tools/call answer.
inline QString text(const QJsonObject& answer)
{
    QStringList parts;
    for (const QJsonValue& c :
         answer.value(QStringLiteral("result")).toObject().value(QStringLiteral("content")).toArray()) {
        if (c.toObject().value(QStringLiteral("type")).toString() == QLatin1String("text"))
            parts << c.toObject().value(QStringLiteral("text")).toString();
    }
    return parts.join(QLatin1Char('\n'));
}

inline bool isError(const QJsonObject& answer)
{
    return answer.value(QStringLiteral("result")).toObject().value(QStringLiteral("isError")).toBool();
}

inline QJsonObject structured(const QJsonObject& answer)
{
    return answer.value(QStringLiteral("result"))
        .toObject()
        .value(QStringLiteral("structuredContent"))
        .toObject();
}

} // namespace ciu::test
