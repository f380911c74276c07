#include "core/replay/videoencoder.h"

#include "core/replay/ffmpegutil.h"
#include "core/replay/replaylog.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
}

namespace ciu::replay {

struct VideoEncoder::Private
{
    Options options;
    QSize size;
    QString path;
    QString error;
    QString encoderName;
    AVFormatContext* format = nullptr;
    AVCodecContext* codec = nullptr;
    AVStream* stream = nullptr;
    AVFrame* frame = nullptr;
    AVPacket* packet = nullptr;
    SwsContext* sws = nullptr;
    QSize swsSource;
    qint64 lastPtsMs = -1;
    qint64 lastKeyPtsMs = -1;
    qint64 frames = 0;
    bool headerWritten = false;
    bool finished = false;

    bool fail(const QString& message)
    {
        if (error.isEmpty())
            error = message;
        qCWarning(lcVideoEncoder) << message;
        return false;
    }
    bool drain();
    void release();
};

VideoEncoder::VideoEncoder()
    : d(std::make_unique<Private>())
{
}

VideoEncoder::~VideoEncoder()
{
    if (isOpen())
        finish();
    d->release();
}

void VideoEncoder::Private::release()
{
    if (format) {
        if (format->pb)
            avio_closep(&format->pb);
        avformat_free_context(format);
        format = nullptr;
    }
    avcodec_free_context(&codec);
    av_frame_free(&frame);
    av_packet_free(&packet);
    sws_freeContext(sws);
    sws = nullptr;
    stream = nullptr;
}

bool VideoEncoder::open(const QString& path, const Options& options)
{
    quietFfmpegLogs();
    d->release();
    d->options = options;
    d->path = path;
    d->error.clear();
    d->finished = false;
    d->headerWritten = false;
    d->frames = 0;
    d->lastPtsMs = -1;
    d->lastKeyPtsMs = -1;
    d->size = QSize(options.size.width() & ~1, options.size.height() & ~1);
    if (d->size.width() < 16 || d->size.height() < 16)
        return d->fail(QStringLiteral("video size %1x%2 is too small")
                           .arg(options.size.width())
                           .arg(options.size.height()));

    const QByteArray pathUtf8 = path.toUtf8();
    int rc = avformat_alloc_output_context2(&d->format, nullptr, "mp4", pathUtf8.constData());
    if (rc < 0 || !d->format)
        return d->fail(QStringLiteral("cannot create an MP4 muxer: %1").arg(ffmpegError(rc)));

    const AVCodec* encoder = avcodec_find_encoder_by_name("libx264");
    if (!encoder)
        encoder = avcodec_find_encoder(AV_CODEC_ID_H264);
    if (!encoder)
        return d->fail(QStringLiteral("this FFmpeg build has no H.264 encoder"));
    d->encoderName = QString::fromUtf8(encoder->name);

    d->codec = avcodec_alloc_context3(encoder);
    d->codec->width = d->size.width();
    d->codec->height = d->size.height();
    d->codec->pix_fmt = AV_PIX_FMT_YUV420P;
    d->codec->time_base = AVRational{1, 1000};
    d->codec->framerate = AVRational{qMax(1, options.nominalFps), 1};
    d->codec->gop_size = qMax(1, options.nominalFps * options.keyFrameIntervalMs / 1000);
    d->codec->max_b_frames = 0;
    d->codec->thread_count = qMax(0, options.threads);
    if (d->format->oformat->flags & AVFMT_GLOBALHEADER)
        d->codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    AVDictionary* codecOptions = nullptr;
    if (d->encoderName == QLatin1String("libx264")) {
        av_dict_set(&codecOptions, "preset", options.preset.toUtf8().constData(), 0);
        if (!options.tune.isEmpty())
            av_dict_set(&codecOptions, "tune", options.tune.toUtf8().constData(), 0);
        av_dict_set(&codecOptions, "crf", QByteArray::number(options.crf).constData(), 0);
        av_dict_set(&codecOptions, "forced-idr", "1", 0);
    }
    rc = avcodec_open2(d->codec, encoder, &codecOptions);
    av_dict_free(&codecOptions);
    if (rc < 0)
        return d->fail(QStringLiteral("cannot open the %1 encoder: %2").arg(d->encoderName, ffmpegError(rc)));

    d->stream = avformat_new_stream(d->format, nullptr);
    d->stream->time_base = d->codec->time_base;
    avcodec_parameters_from_context(d->stream->codecpar, d->codec);

    rc = avio_open(&d->format->pb, pathUtf8.constData(), AVIO_FLAG_WRITE);
    if (rc < 0)
        return d->fail(QStringLiteral("cannot create %1: %2").arg(path, ffmpegError(rc)));
    AVDictionary* muxOptions = nullptr;
    if (options.fragmented) {
        av_dict_set(&muxOptions, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0);
        // Fragments between key frames too (they may start with a P frame): a killed recorder loses at most
        // this much video, whatever the key frame interval.
        if (options.fragmentIntervalMs > 0)
            av_dict_set(&muxOptions, "frag_duration",
                        QByteArray::number(qint64(options.fragmentIntervalMs) * 1000).constData(), 0);
    } else
        av_dict_set(&muxOptions, "movflags", "faststart", 0);
    rc = avformat_write_header(d->format, &muxOptions);
    av_dict_free(&muxOptions);
    if (rc < 0)
        return d->fail(QStringLiteral("cannot write the MP4 header to %1: %2").arg(path, ffmpegError(rc)));
    d->headerWritten = true;
    avio_flush(d->format->pb);

    d->frame = av_frame_alloc();
    d->frame->format = d->codec->pix_fmt;
    d->frame->width = d->codec->width;
    d->frame->height = d->codec->height;
    rc = av_frame_get_buffer(d->frame, 0);
    if (rc < 0)
        return d->fail(QStringLiteral("cannot allocate a video frame: %1").arg(ffmpegError(rc)));
    d->packet = av_packet_alloc();
    qCDebug(lcVideoEncoder) << "recording" << d->size << "with" << d->encoderName << "to" << path;
    return true;
}

bool VideoEncoder::isOpen() const
{
    return d->headerWritten && !d->finished && d->error.isEmpty();
}

bool VideoEncoder::Private::drain()
{
    for (;;) {
        const int rc = avcodec_receive_packet(codec, packet);
        if (rc == AVERROR(EAGAIN) || rc == AVERROR_EOF)
            return true;
        if (rc < 0)
            return fail(QStringLiteral("the encoder failed: %1").arg(ffmpegError(rc)));
        // The last frame comes without a duration: give it one frame at the nominal rate, or the MP4's edit
        // list would end where it starts and players would drop it.
        if (packet->duration <= 0 && options.nominalFps > 0)
            packet->duration = av_rescale_q(1, AVRational{1, options.nominalFps}, codec->time_base);
        av_packet_rescale_ts(packet, codec->time_base, stream->time_base);
        packet->stream_index = stream->index;
        const int wrc = av_interleaved_write_frame(format, packet);
        av_packet_unref(packet);
        if (wrc < 0)
            return fail(QStringLiteral("cannot write %1: %2").arg(path, ffmpegError(wrc)));
        // The muxer keeps the current fragment in memory and writes it whole when the next one starts (a key
        // frame or the fragment interval): hand what it wrote to the kernel now (a no-op in between).
        avio_flush(format->pb);
        // The muxer writes through a buffer: a failed write (a full disk) only shows in the I/O context.
        if (format->pb->error < 0)
            return fail(QStringLiteral("cannot write %1: %2").arg(path, ffmpegError(format->pb->error)));
    }
}

bool VideoEncoder::encode(const QImage& input, qint64 ptsMs)
{
    if (!isOpen())
        return false;
    if (input.isNull())
        return true;
    QImage image = input;
    if (image.format() != QImage::Format_RGB32 && image.format() != QImage::Format_ARGB32)
        image = image.convertToFormat(QImage::Format_RGB32);

    if (!d->sws || d->swsSource != image.size()) {
        sws_freeContext(d->sws);
        d->sws =
            sws_getContext(image.width(), image.height(), AV_PIX_FMT_BGRA, d->size.width(), d->size.height(),
                           AV_PIX_FMT_YUV420P, image.size() == d->size ? SWS_POINT : SWS_BILINEAR, nullptr,
                           nullptr, nullptr);
        d->swsSource = image.size();
        if (!d->sws)
            return d->fail(
                QStringLiteral("cannot convert %1x%2 frames").arg(image.width()).arg(image.height()));
    }
    int rc = av_frame_make_writable(d->frame);
    if (rc < 0)
        return d->fail(QStringLiteral("cannot reuse the video frame: %1").arg(ffmpegError(rc)));
    const uint8_t* src[1] = {image.constBits()};
    const int srcStride[1] = {int(image.bytesPerLine())};
    // An odd source height is cropped by one row (the output size is even).
    const int rows = qMin(image.height(), image.size() == d->size ? d->size.height() : image.height());
    sws_scale(d->sws, src, srcStride, 0, rows, d->frame->data, d->frame->linesize);

    if (d->lastPtsMs < 0 && ptsMs > 0) {
        // MP4 muxers move the first sample to time 0 (fragmented files get no edit list), which would shift
        // every frame. Showing the first frame from 0 keeps the time line absolute.
        if (!sendFrame(0))
            return false;
    }
    if (ptsMs <= d->lastPtsMs)
        ptsMs = d->lastPtsMs + 1;
    if (!sendFrame(ptsMs))
        return false;
    ++d->frames;
    return true;
}

bool VideoEncoder::sendFrame(qint64 ptsMs)
{
    d->frame->pts = ptsMs;
    const bool forceKey = d->lastKeyPtsMs < 0 || ptsMs - d->lastKeyPtsMs >= d->options.keyFrameIntervalMs;
    d->frame->pict_type = forceKey ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
    if (forceKey)
        d->lastKeyPtsMs = ptsMs;
    d->lastPtsMs = ptsMs;
    const int rc = avcodec_send_frame(d->codec, d->frame);
    if (rc < 0)
        return d->fail(QStringLiteral("the encoder refused a frame: %1").arg(ffmpegError(rc)));
    return d->drain();
}

bool VideoEncoder::flush()
{
    if (!isOpen() || !d->error.isEmpty())
        return false;
    if (!d->options.fragmented || d->frames == 0)
        return true;
    // The MP4 muxer takes a null packet as "cut the fragment here" (AVFMT_ALLOW_FLUSH).
    const int rc = av_write_frame(d->format, nullptr);
    if (rc < 0)
        return d->fail(QStringLiteral("cannot write %1: %2").arg(d->path, ffmpegError(rc)));
    avio_flush(d->format->pb);
    if (d->format->pb->error < 0)
        return d->fail(QStringLiteral("cannot write %1: %2").arg(d->path, ffmpegError(d->format->pb->error)));
    return true;
}

bool VideoEncoder::finish()
{
    if (!d->headerWritten || d->finished)
        return d->error.isEmpty();
    d->finished = true;
    bool ok = d->error.isEmpty();
    if (ok) {
        avcodec_send_frame(d->codec, nullptr);
        ok = d->drain();
    }
    const int rc = av_write_trailer(d->format);
    if (rc < 0 && ok)
        ok = d->fail(QStringLiteral("cannot finish %1: %2").arg(d->path, ffmpegError(rc)));
    if (d->format->pb) {
        avio_flush(d->format->pb);
        if (d->format->pb->error < 0 && ok)
            ok = d->fail(
                QStringLiteral("cannot write %1: %2").arg(d->path, ffmpegError(d->format->pb->error)));
    }
    avio_closep(&d->format->pb);
    return ok;
}

QString VideoEncoder::errorString() const
{
    return d->error;
}

QString VideoEncoder::encoderName() const
{
    return d->encoderName;
}

QSize VideoEncoder::size() const
{
    return d->size;
}

qint64 VideoEncoder::framesEncoded() const
{
    return d->frames;
}

qint64 VideoEncoder::bytesWritten() const
{
    if (d->format && d->format->pb)
        return avio_tell(d->format->pb);
    return 0;
}

} // namespace ciu::replay
