#include "core/replay/videodecoder.h"

#include "core/replay/ffmpegutil.h"
#include "core/replay/replaylog.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libswscale/swscale.h>
}

#include <limits>

namespace ciu::replay {
namespace {
constexpr qint64 kNoPts = std::numeric_limits<qint64>::min();
// Decoding forward is cheaper than seeking as long as the target is this close after the current frame.
constexpr qint64 kForwardWindowMs = 1000;
} // namespace

struct VideoDecoder::Private
{
    QString path;
    QString error;
    AVFormatContext* format = nullptr;
    AVCodecContext* codec = nullptr;
    AVPacket* packet = nullptr;
    AVFrame* current = nullptr; // the last frame handed out or passed while decoding forward
    AVFrame* pending = nullptr; // decoded but later than the last request
    AVFrame* scratch = nullptr;
    SwsContext* sws = nullptr;
    int streamIndex = -1;
    AVRational timeBase{1, 1000};
    qint64 currentPts = kNoPts;
    qint64 pendingPts = kNoPts;
    bool eof = false;
    QImage cachedImage;
    qint64 cachedPts = kNoPts;

    qint64 toMs(const AVFrame* f) const
    {
        qint64 ts = f->best_effort_timestamp != AV_NOPTS_VALUE ? f->best_effort_timestamp : f->pts;
        if (ts == AV_NOPTS_VALUE)
            return 0;
        return av_rescale_q(ts, timeBase, AVRational{1, 1000});
    }
    // Decodes one more frame into `scratch`. 1: a frame, 0: end of stream, -1: error.
    int decodeOne();
    bool seek(qint64 tMs);
    void takePending();
    QImage convert(const AVFrame* f);
    void release();
};

VideoDecoder::VideoDecoder()
    : d(std::make_unique<Private>())
{
}

VideoDecoder::~VideoDecoder()
{
    d->release();
}

void VideoDecoder::Private::release()
{
    avcodec_free_context(&codec);
    avformat_close_input(&format);
    av_packet_free(&packet);
    av_frame_free(&current);
    av_frame_free(&pending);
    av_frame_free(&scratch);
    sws_freeContext(sws);
    sws = nullptr;
    streamIndex = -1;
    currentPts = pendingPts = cachedPts = kNoPts;
    cachedImage = QImage();
    eof = false;
}

void VideoDecoder::close()
{
    d->release();
}

bool VideoDecoder::open(const QString& path)
{
    quietFfmpegLogs();
    d->release();
    d->error.clear();
    d->path = path;
    const QByteArray pathUtf8 = path.toUtf8();
    int rc = avformat_open_input(&d->format, pathUtf8.constData(), nullptr, nullptr);
    if (rc < 0) {
        d->error = QStringLiteral("cannot open %1: %2").arg(path, ffmpegError(rc));
        return false;
    }
    rc = avformat_find_stream_info(d->format, nullptr);
    if (rc < 0) {
        d->error = QStringLiteral("cannot read %1: %2").arg(path, ffmpegError(rc));
        d->release();
        return false;
    }
    const AVCodec* decoder = nullptr;
    d->streamIndex = av_find_best_stream(d->format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0);
    if (d->streamIndex < 0 || !decoder) {
        d->error = QStringLiteral("%1 has no video stream").arg(path);
        d->release();
        return false;
    }
    AVStream* stream = d->format->streams[d->streamIndex];
    d->timeBase = stream->time_base;
    d->codec = avcodec_alloc_context3(decoder);
    avcodec_parameters_to_context(d->codec, stream->codecpar);
    // Slice threads add no latency (frame threads would delay every frame of a seek).
    d->codec->thread_count = 2;
    d->codec->thread_type = FF_THREAD_SLICE;
    rc = avcodec_open2(d->codec, decoder, nullptr);
    if (rc < 0) {
        d->error = QStringLiteral("cannot open the decoder for %1: %2").arg(path, ffmpegError(rc));
        d->release();
        return false;
    }
    d->packet = av_packet_alloc();
    d->current = av_frame_alloc();
    d->pending = av_frame_alloc();
    d->scratch = av_frame_alloc();
    return true;
}

bool VideoDecoder::isOpen() const
{
    return d->codec != nullptr;
}

QString VideoDecoder::errorString() const
{
    return d->error;
}

QSize VideoDecoder::size() const
{
    return d->codec ? QSize(d->codec->width, d->codec->height) : QSize();
}

qint64 VideoDecoder::durationMs() const
{
    if (!d->format)
        return -1;
    const AVStream* stream = d->format->streams[d->streamIndex];
    if (stream->duration > 0 && stream->duration != AV_NOPTS_VALUE)
        return av_rescale_q(stream->duration, stream->time_base, AVRational{1, 1000});
    if (d->format->duration > 0 && d->format->duration != AV_NOPTS_VALUE)
        return d->format->duration / 1000;
    return -1;
}

int VideoDecoder::Private::decodeOne()
{
    for (;;) {
        int rc = avcodec_receive_frame(codec, scratch);
        if (rc == 0)
            return 1;
        if (rc == AVERROR_EOF)
            return 0;
        if (rc != AVERROR(EAGAIN)) {
            error = QStringLiteral("decoding failed: %1").arg(ffmpegError(rc));
            return -1;
        }
        if (eof)
            return 0;
        // Feed the next packet of our stream.
        for (;;) {
            rc = av_read_frame(format, packet);
            if (rc < 0) {
                // End of file, or a truncated file left by a killed recorder: decode what we have.
                eof = true;
                avcodec_send_packet(codec, nullptr);
                break;
            }
            if (packet->stream_index != streamIndex) {
                av_packet_unref(packet);
                continue;
            }
            rc = avcodec_send_packet(codec, packet);
            av_packet_unref(packet);
            if (rc < 0 && rc != AVERROR(EAGAIN))
                qCDebug(lcVideoDecoder) << "skipping a bad packet:" << ffmpegError(rc);
            break;
        }
    }
}

bool VideoDecoder::Private::seek(qint64 tMs)
{
    const qint64 ts = av_rescale_q(tMs, AVRational{1, 1000}, timeBase);
    int rc = av_seek_frame(format, streamIndex, ts, AVSEEK_FLAG_BACKWARD);
    if (rc < 0) {
        // Before the first key frame: take the first key frame after it.
        rc = av_seek_frame(format, streamIndex, ts, 0);
    }
    avcodec_flush_buffers(codec);
    av_frame_unref(current);
    av_frame_unref(pending);
    currentPts = pendingPts = kNoPts;
    eof = false;
    if (rc < 0) {
        error = QStringLiteral("cannot seek: %1").arg(ffmpegError(rc));
        return false;
    }
    return true;
}

void VideoDecoder::Private::takePending()
{
    av_frame_unref(current);
    av_frame_move_ref(current, pending);
    currentPts = pendingPts;
    pendingPts = kNoPts;
}

QImage VideoDecoder::Private::convert(const AVFrame* f)
{
    QImage image(f->width, f->height, QImage::Format_RGB32);
    sws = sws_getCachedContext(sws, f->width, f->height, AVPixelFormat(f->format), f->width, f->height,
                               AV_PIX_FMT_BGRA, SWS_POINT, nullptr, nullptr, nullptr);
    if (!sws)
        return {};
    uint8_t* dst[1] = {image.bits()};
    const int dstStride[1] = {int(image.bytesPerLine())};
    sws_scale(sws, f->data, f->linesize, 0, f->height, dst, dstStride);
    return image;
}

QImage VideoDecoder::frameAt(qint64 tMs, qint64* ptsMs)
{
    if (!isOpen())
        return {};
    const bool haveCurrent = d->currentPts != kNoPts;
    const bool inCurrent =
        haveCurrent && d->currentPts <= tMs && (d->pendingPts == kNoPts ? d->eof : d->pendingPts > tMs);
    if (!inCurrent) {
        const bool forward = haveCurrent && tMs >= d->currentPts && tMs - d->currentPts <= kForwardWindowMs;
        if (!forward && !d->seek(tMs) && !reopen())
            return {};
        for (;;) {
            if (d->pendingPts == kNoPts) {
                const int rc = d->decodeOne();
                if (rc <= 0)
                    break;
                av_frame_unref(d->pending);
                av_frame_move_ref(d->pending, d->scratch);
                d->pendingPts = d->toMs(d->pending);
            }
            // Keep the first frame even when it is after tMs (nothing earlier exists).
            if (d->pendingPts <= tMs || d->currentPts == kNoPts)
                d->takePending();
            if (d->pendingPts != kNoPts)
                break;
            if (d->currentPts > tMs)
                break;
        }
    }
    if (d->currentPts == kNoPts)
        return {};
    if (d->cachedPts != d->currentPts || d->cachedImage.isNull()) {
        d->cachedImage = d->convert(d->current);
        d->cachedPts = d->currentPts;
    }
    if (ptsMs)
        *ptsMs = d->currentPts;
    return d->cachedImage;
}

qint64 VideoDecoder::peekNextPtsMs()
{
    if (!isOpen())
        return -1;
    if (d->pendingPts == kNoPts) {
        if (d->decodeOne() <= 0)
            return -1;
        av_frame_unref(d->pending);
        av_frame_move_ref(d->pending, d->scratch);
        d->pendingPts = d->toMs(d->pending);
    }
    return d->pendingPts;
}

QImage VideoDecoder::nextFrame(qint64* ptsMs)
{
    if (peekNextPtsMs() < 0 && d->pendingPts == kNoPts)
        return {};
    d->takePending();
    d->cachedImage = d->convert(d->current);
    d->cachedPts = d->currentPts;
    if (ptsMs)
        *ptsMs = d->currentPts;
    return d->cachedImage;
}

bool VideoDecoder::rewind()
{
    if (!isOpen())
        return false;
    return d->seek(0) || reopen();
}

bool VideoDecoder::reopen()
{
    // Some files cannot seek at all (a very short fragmented recording has no index to seek in: FFmpeg
    // answers -1, "Operation not permitted"); opened again, they are at their start and decode forward.
    const QString path = d->path;
    const QString seekError = d->error;
    if (path.isEmpty() || !open(path)) {
        d->error = seekError;
        return false;
    }
    return true;
}

} // namespace ciu::replay
