#pragma once

#include <QImage>
#include <QSize>
#include <QString>

#include <memory>

namespace ciu::replay {

// H.264 into MP4 through libavcodec/libavformat/libswscale (libx264 when the build has it, else FFmpeg's
// default H.264 encoder). Frames are variable-rate: each carries its own time in ms (time base 1/1000).
// Fragmented MP4 (empty moov, a fragment at each key frame and at least every `fragmentIntervalMs`) so a
// killed process leaves a file playable up to about a second before the end; a key frame at least every
// `keyFrameIntervalMs` so seeking is fast. Not thread-safe: use from one thread.
class VideoEncoder
{
public:
    struct Options
    {
        QSize size;                    // output size; odd sizes are rounded down to even
        int nominalFps = 30;           // rate hint for the encoder (frames may come at any rate)
        int keyFrameIntervalMs = 3000; // forced key frame at least this often (seeking decodes from there)
        int fragmentIntervalMs = 1000; // a fragment is closed (and handed to the kernel) at least this often
        QString preset = QStringLiteral("ultrafast");
        QString tune = QStringLiteral("zerolatency");
        int crf = 28;           // x264 quality (lower = better, bigger)
        int threads = 1;        // encoder threads (0: FFmpeg's choice)
        bool fragmented = true; // false: a classic MP4 with the index at the start (exports)
    };

    VideoEncoder();
    ~VideoEncoder();
    VideoEncoder(const VideoEncoder&) = delete;
    VideoEncoder& operator=(const VideoEncoder&) = delete;

    bool open(const QString& path, const Options& options);
    bool isOpen() const;
    // Encodes one frame shown from `ptsMs` on. Images of another size are scaled to the output size.
    // A pts not after the previous frame's is moved 1 ms after it. The time line is absolute: a first frame
    // after 0 is also shown from 0 (MP4 muxers would otherwise shift every frame to start at 0). Returns
    // false on an encoder or write error (see errorString()); the encoder is then unusable.
    bool encode(const QImage& image, qint64 ptsMs);
    // Writes out what was encoded so far as a fragment of its own (fragmented files; a no-op otherwise), so
    // a reader of the growing file sees up to the last frame. A recorder calls it about once a second: on a
    // still screen no new frame would close the fragment. Returns false on a write error.
    bool flush();
    // Flushes the encoder and writes the trailer. Safe to call twice.
    bool finish();

    QString errorString() const;
    QString encoderName() const;
    QSize size() const;
    qint64 framesEncoded() const;
    qint64 bytesWritten() const; // bytes handed to the file so far

private:
    bool sendFrame(qint64 ptsMs); // the converted picture in the frame buffer, at ptsMs

    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace ciu::replay
