#pragma once

#include <QObject>
#include <QThread>

#include <memory>

namespace ciu {

// Owns a worker's QThread: destroying it quits the thread's event loop and waits for it.
struct ThreadStopper
{
    void operator()(QThread* thread) const
    {
        if (!thread)
            return;
        thread->quit();
        thread->wait();
        delete thread;
    }
};
using WorkerThread = std::unique_ptr<QThread, ThreadStopper>;

// Moves the parentless `worker` to `thread` (a worker thread already running others, or about to start)
// and has it deleted on that thread when the thread finishes.
inline void addWorkerToThread(QObject* worker, QThread* thread)
{
    worker->moveToThread(thread);
    QObject::connect(thread, &QThread::finished, worker, &QObject::deleteLater);
}

// Moves the parentless `worker` to a new thread named `name`, has it deleted on that thread when the
// thread finishes, and starts the thread. Connect to the worker's signals and slots before or after; the
// worker pointer stays valid until the returned WorkerThread is destroyed.
inline WorkerThread startWorkerThread(QObject* worker, const QString& name)
{
    WorkerThread thread(new QThread);
    thread->setObjectName(name);
    addWorkerToThread(worker, thread.get());
    thread->start();
    return thread;
}

} // namespace ciu
