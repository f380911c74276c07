#pragma once

// Small helpers around FFmpeg's C API shared by the encoder and the decoder (private to core/replay).

extern "C" {
#include <libavutil/error.h>
#include <libavutil/log.h>
}

#include <QString>

namespace ciu::replay {

inline QString ffmpegError(int code)
{
    char buffer[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, buffer, sizeof buffer);
    return QString::fromUtf8(buffer);
}

// FFmpeg logs to stderr at "info" by default (libx264 prints its settings on every open): keep errors only,
// unless someone already chose a level.
inline void quietFfmpegLogs()
{
    if (av_log_get_level() == AV_LOG_INFO)
        av_log_set_level(AV_LOG_ERROR);
}

} // namespace ciu::replay
