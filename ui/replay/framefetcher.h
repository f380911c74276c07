#pragma once

#include <QImage>
#include <QObject>

#include <memory>
#include <optional>

namespace ciu::replay {
class VideoDecoder;
}

namespace ciu::ui {

// Decodes replay frames off the GUI thread: one job at a time on a private decoder (QtConcurrent); while
// a job runs only the newest request is kept, so scrubbing never queues stale work.
class FrameFetcher final : public QObject
{
    Q_OBJECT
public:
    explicit FrameFetcher(QObject* parent = nullptr);
    ~FrameFetcher() override;

    bool open(const QString& videoPath, QString* error);
    bool isOpen() const { return m_decoder != nullptr; }
    // A job is running or waiting: a result delivered now is already stale.
    bool isBusy() const { return m_busy || m_pending.has_value(); }

    // The frame on screen at tNs.
    void requestAt(qint64 tNs);
    // The frame after / before the one at tNs (frame stepping).
    void requestNext(qint64 tNs);
    void requestPrevious(qint64 tNs);

signals:
    // `frameTNs` is the frame's own time; `requestedTNs` the time asked for. `step` is true for the result of
    // requestNext/requestPrevious (the viewer then moves its time to the frame). Emitted after any newer
    // request is known, so isBusy() tells whether this result is already stale.
    void frameReady(const QImage& frame, qint64 frameTNs, qint64 requestedTNs, bool step);

private:
    enum class Kind : quint8
    {
        At = 1,
        Next,
        Previous
    };
    struct Request
    {
        Kind kind = Kind::At;
        qint64 tNs = 0;
    };
    void start(Request request);

    std::shared_ptr<replay::VideoDecoder> m_decoder;
    bool m_busy = false;
    std::optional<Request> m_pending;
};

} // namespace ciu::ui
