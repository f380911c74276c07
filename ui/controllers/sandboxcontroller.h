#pragma once

#include <QObject>
#include <QSize>
#include <QString>

namespace ciu {
class SandboxDisplay;
}

namespace ciu::ui {

// The sandbox display's lifecycle for the window: starts and stops the private X server and its window
// manager (SandboxDisplay), launches programs into it and reports its state changes and errors through
// signals, so the window itself never starts a process.
class SandboxController final : public QObject
{
    Q_OBJECT
public:
    explicit SandboxController(QObject* parent = nullptr);
    ~SandboxController() override;

    bool isRunning() const;
    bool isStopped() const;
    // The sandbox's display name while it runs (empty before the first start).
    QString displayName() const;
    QString errorString() const;

public slots:
    // Starts the sandbox when it is stopped; returns false (and does nothing) otherwise.
    bool start(QSize size = QSize(1280, 800));
    void stop();
    // Starts `command` on the sandbox display; false with errorString() set when it cannot.
    bool launch(const QString& command);

signals:
    void started(const QString& displayName);
    void failed(const QString& error);
    void stopped();

private:
    SandboxDisplay* m_display = nullptr;
};

} // namespace ciu::ui
