#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <memory>

namespace ciu::replay {

// Random access to the frames of a session video (FFmpeg). A seek goes to the key frame before t and
// decodes forward; a request a little after the previous one decodes forward without seeking; the last
// converted frame is cached. Times are ms on the video's own time line (session time, as recorded).
// Not thread-safe: one decoder per thread.
class VideoDecoder
{
public:
    VideoDecoder();
    ~VideoDecoder();
    VideoDecoder(const VideoDecoder&) = delete;
    VideoDecoder& operator=(const VideoDecoder&) = delete;

    bool open(const QString& path);
    void close();
    bool isOpen() const;
    QString errorString() const;
    QSize size() const;
    // Duration from the container, or -1 when unknown (e.g. a file left by a killed recorder).
    qint64 durationMs() const;

    // The frame on screen at `tMs`: the last frame whose time is <= tMs (the first frame when tMs is
    // before it). Null when the video has no decodable frame. `ptsMs` receives the frame's time.
    QImage frameAt(qint64 tMs, qint64* ptsMs = nullptr);
    // The frame after the one returned last (sequential reading for exports and frame stepping); null at
    // the end of the video.
    QImage nextFrame(qint64* ptsMs = nullptr);
    // Time of the frame that nextFrame() would return, or -1 at the end.
    qint64 peekNextPtsMs();
    // Decodes from the start (sequential reading).
    bool rewind();

private:
    bool reopen(); // back to the start when the file cannot seek
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace ciu::replay
