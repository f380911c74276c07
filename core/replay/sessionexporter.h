#pragma once

#include <QString>

#include <functional>

namespace ciu::replay {

class SessionReader;

// Reports progress (done out of total); returning false cancels the export.
using ExportProgress = std::function<bool(qint64 done, qint64 total)>;

// A self-contained HTML report of a session: summary (task, times, outcome, tokens and cost), problems,
// the steps (events, actions, Director records), key frames embedded as base64 JPEG with the zones of their
// moment drawn, and the Director's decisions. Secrets are scrubbed. Returns false with `error` set.
bool exportHtmlReport(SessionReader& reader, const QString& file, QString* error,
                      const ExportProgress& progress = {});

// Frames per second of the overlay video export.
inline constexpr int kExportFps = 15;

// The session video re-encoded at a constant kExportFps with the overlay burned in at every frame (zones as
// they were, the cursor trail, the time), from 0 to the session's end: it plays in real time anywhere.
bool exportOverlayVideo(SessionReader& reader, const QString& file, QString* error,
                        const ExportProgress& progress = {});

} // namespace ciu::replay
