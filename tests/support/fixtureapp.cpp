#include "tests/support/fixtureapp.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>

namespace ciu::test {

QRect rectFromJson(const QJsonObject& o)
{
    return QRect(o.value(QLatin1String("x")).toInt(), o.value(QLatin1String("y")).toInt(),
                 o.value(QLatin1String("w")).toInt(), o.value(QLatin1String("h")).toInt());
}

FixtureApp::FixtureApp() = default;

FixtureApp::~FixtureApp()
{
    stop();
}

bool FixtureApp::start(const QProcessEnvironment& env, const QStringList& extraArgs, int timeoutMs)
{
    m_process = std::make_unique<QProcess>();
    m_process->setProcessEnvironment(env);
    m_process->setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_process->start(QStringLiteral(CIU_FIXTURE_APP_PATH), extraArgs);
    if (!m_process->waitForStarted(5000)) {
        m_error = QStringLiteral("cannot start the fixture app: %1").arg(m_process->errorString());
        return false;
    }
    if (!waitForEvent(QStringLiteral("ready"), timeoutMs)) {
        m_error = QStringLiteral("the fixture app did not report ready");
        return false;
    }
    return true;
}

void FixtureApp::stop()
{
    if (!m_process || m_process->state() == QProcess::NotRunning)
        return;
    send(QStringLiteral("quit"));
    if (!m_process->waitForFinished(2000)) {
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

std::optional<FixtureApp::Widget> FixtureApp::widget(const QString& name) const
{
    for (const Widget& w : m_widgets) {
        if (w.name == name)
            return w;
    }
    return std::nullopt;
}

void FixtureApp::applyWidgets(const QJsonObject& line)
{
    m_window = rectFromJson(line.value(QLatin1String("window")).toObject());
    m_widgets.clear();
    for (const QJsonValue& v : line.value(QLatin1String("widgets")).toArray()) {
        const QJsonObject o = v.toObject();
        m_widgets << Widget{o.value(QLatin1String("name")).toString(),
                            o.value(QLatin1String("type")).toString(),
                            o.value(QLatin1String("label")).toString(),
                            rectFromJson(o.value(QLatin1String("rect")).toObject())};
    }
}

void FixtureApp::readOutput()
{
    if (!m_process)
        return;
    m_buffer += m_process->readAllStandardOutput();
    qsizetype nl;
    while ((nl = m_buffer.indexOf('\n')) >= 0) {
        const QByteArray raw = m_buffer.left(nl);
        m_buffer.remove(0, nl + 1);
        const QJsonObject o = QJsonDocument::fromJson(raw).object();
        if (o.isEmpty())
            continue;
        const QString event = o.value(QLatin1String("event")).toString();
        if (event == QLatin1String("ready") || event == QLatin1String("widgets"))
            applyWidgets(o);
        m_lines << o;
    }
}

bool FixtureApp::refreshWidgets(int timeoutMs)
{
    send(QStringLiteral("dump"));
    return waitForEvent(QStringLiteral("widgets"), timeoutMs).has_value();
}

void FixtureApp::send(const QString& command)
{
    if (m_process && m_process->state() == QProcess::Running) {
        m_process->write(command.toUtf8() + '\n');
        m_process->waitForBytesWritten(1000);
    }
}

bool FixtureApp::sync(int timeoutMs)
{
    // Lines before the answer stay pending; the answer itself is dropped.
    const qsizetype consumed = m_consumed;
    send(QStringLiteral("sync"));
    const bool synced = waitForEvent(QStringLiteral("synced"), timeoutMs).has_value();
    if (synced)
        m_lines.removeAt(m_consumed - 1);
    m_consumed = consumed;
    return synced;
}

std::optional<QJsonObject> FixtureApp::waitFor(const std::function<bool(const QJsonObject&)>& predicate,
                                               int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    while (true) {
        readOutput();
        while (m_consumed < m_lines.size()) {
            const QJsonObject line = m_lines.at(m_consumed++);
            if (predicate(line))
                return line;
        }
        if (deadline.hasExpired() || !m_process || m_process->state() != QProcess::Running)
            return std::nullopt;
        m_process->waitForReadyRead(int(qMin<qint64>(50, qMax<qint64>(1, deadline.remainingTime()))));
        QCoreApplication::processEvents();
    }
}

std::optional<QJsonObject> FixtureApp::waitForEvent(const QString& event, int timeoutMs)
{
    return waitFor([&](const QJsonObject& o) { return o.value(QLatin1String("event")).toString() == event; },
                   timeoutMs);
}

void FixtureApp::clearPending()
{
    readOutput();
    m_consumed = m_lines.size();
}

QList<QJsonObject> FixtureApp::pending()
{
    readOutput();
    return m_lines.mid(m_consumed);
}

} // namespace ciu::test
