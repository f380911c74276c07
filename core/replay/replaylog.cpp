#include "core/replay/replaylog.h"

Q_LOGGING_CATEGORY(lcExport, "ciu.replay.export")
Q_LOGGING_CATEGORY(lcReader, "ciu.replay.reader")
Q_LOGGING_CATEGORY(lcRetention, "ciu.replay.retention")
Q_LOGGING_CATEGORY(lcRecorder, "ciu.replay.recorder")
Q_LOGGING_CATEGORY(lcVideoDecoder, "ciu.replay.decoder")
Q_LOGGING_CATEGORY(lcVideoEncoder, "ciu.replay.encoder")
