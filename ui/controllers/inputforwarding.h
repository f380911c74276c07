#pragma once

#include "core/model/workerthread.h"

#include <QObject>
#include <QPoint>
#include <QString>

namespace ciu {
class InputForwarder;
}

namespace ciu::ui {

// Takeover input for another display: owns the InputForwarder worker and its thread (started on the first
// open()), opens the target display on it and passes the user's pointer, button, wheel and key input on.
// Input that arrives before the first open() is dropped.
class InputForwarding final : public QObject
{
    Q_OBJECT
public:
    explicit InputForwarding(QObject* parent = nullptr);
    ~InputForwarding() override;

    // The display input goes to (empty before the first open()).
    QString display() const { return m_display; }
    bool isStarted() const { return m_forwarder != nullptr; }

public slots:
    // Starts the worker if needed and opens `displayName` with `backend` unless it is open already.
    void open(const QString& backend, const QString& displayName);
    void moveTo(QPoint rootPos);
    void button(int button, bool down);
    void wheel(int direction);
    void key(quint32 keysym, bool down);

signals:
    void opened(const QString& displayName);
    void failed(const QString& error);

private:
    // Runs `call(forwarder)` on the forwarder's thread (nothing before start()).
    template<typename Call> void post(Call call);

    InputForwarder* m_forwarder = nullptr; // lives on m_thread, deleted when it finishes
    WorkerThread m_thread;
    QString m_display;
};

} // namespace ciu::ui
