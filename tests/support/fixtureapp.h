#pragma once

#include <QJsonObject>
#include <QList>
#include <QProcess>
#include <QRect>

#include <functional>
#include <memory>
#include <optional>

namespace ciu::test {

// The fixture app (tests/fixture-app) as a child process on a test display: start it, wait for its
// JSON lines, send it commands.
class FixtureApp
{
public:
    struct Widget
    {
        QString name;
        QString type; // zone type name ("button", "text_field", ...)
        QString label;
        QRect rect; // root coordinates
    };

    FixtureApp();
    ~FixtureApp();

    // Starts the app with `env` (from XvfbServer::environment()) and waits for its "ready" line.
    bool start(const QProcessEnvironment& env, const QStringList& extraArgs = {}, int timeoutMs = 15000);
    void stop();
    QString errorString() const { return m_error; }

    // Widgets from the latest "ready" or "widgets" line.
    QList<Widget> widgets() const { return m_widgets; }
    std::optional<Widget> widget(const QString& name) const;
    QRect windowRect() const { return m_window; }
    // Sends "dump" and waits for the fresh widget list.
    bool refreshWidgets(int timeoutMs = 5000);

    void send(const QString& command);
    // A barrier: returns once the app has handled every event that reached it and its repaints have reached
    // the X server (the "sync" command).
    bool sync(int timeoutMs = 5000);
    // Waits for a line matching `predicate` among lines not consumed yet; consumes lines up to it.
    std::optional<QJsonObject> waitFor(const std::function<bool(const QJsonObject&)>& predicate,
                                       int timeoutMs = 5000);
    std::optional<QJsonObject> waitForEvent(const QString& event, int timeoutMs = 5000);
    // Every line received so far (consumed or not).
    QList<QJsonObject> allLines() const { return m_lines; }
    // Drops the unconsumed lines.
    void clearPending();
    // Lines received, not consumed yet (drains the process output first).
    QList<QJsonObject> pending();

private:
    void readOutput();
    void applyWidgets(const QJsonObject& line);

    std::unique_ptr<QProcess> m_process;
    QByteArray m_buffer;
    QList<QJsonObject> m_lines;
    qsizetype m_consumed = 0;
    QList<Widget> m_widgets;
    QRect m_window;
    QString m_error;
};

QRect rectFromJson(const QJsonObject& o);

} // namespace ciu::test
