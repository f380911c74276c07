#pragma once

// The on-disk layout of a recorded session:
//
//   session_YYYYMMDD_HHMMSS/
//     metadata.json    config, task, versions, screen geometry, start/end, outcome, token and cost totals
//     session.mp4      H.264, fragmented MP4 (a killed recorder leaves a playable file)
//     frames/          PNG key frames (frame_<index>.png) and frames/index.jsonl (t_ns, file, reasons)
//     cursor.jsonl     {"t_ns","x","y"[,"shape"]}
//     zones.jsonl      {"t_ns","version","kind":"snapshot"|"delta", ...} (see ZoneJournal)
//     events.jsonl     SpatialEvent::toJson()
//     actions.jsonl    {"t_ns","action":{...},"result":{...}}
//     director.jsonl   the Director's records (decisions, prompts, replies, usage), images by file name
//
// Every JSONL line is one JSON object whose first key is "t_ns" (ns since the session start, an integer).

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace ciu::replay {

inline constexpr int kFormatVersion = 1;

namespace files {
inline const QString metadata = QStringLiteral("metadata.json");
inline const QString video = QStringLiteral("session.mp4");
inline const QString framesDir = QStringLiteral("frames");
inline const QString framesIndex = QStringLiteral("frames/index.jsonl");
inline const QString cursor = QStringLiteral("cursor.jsonl");
inline const QString zones = QStringLiteral("zones.jsonl");
inline const QString events = QStringLiteral("events.jsonl");
inline const QString actions = QStringLiteral("actions.jsonl");
inline const QString director = QStringLiteral("director.jsonl");
} // namespace files

// "session_YYYYMMDD_HHMMSS" for a local time.
QString sessionFolderName(const QDateTime& localTime);
// True for names made by sessionFolderName() (optionally with a "_N" suffix for collisions).
bool isSessionFolderName(const QString& name);
// The local start time in a session folder's name (invalid for other names).
QDateTime sessionFolderTime(const QString& name);
// Where sessions go without --session-dir: <XDG data dir>/sessions.
QString defaultSessionRoot();
// Relative path of a key frame inside the session: "frames/frame_000123.png". Deterministic, so a component
// that asked for a key frame can reference it (e.g. in a Director record) without waiting for a reply.
QString keyFrameFile(quint64 frameIndex);

// One JSONL line: {"t_ns":<tNs>, ...rest} and a newline. A "t_ns" key in `rest` is ignored.
QByteArray jsonLine(qint64 tNs, const QJsonObject& rest);

} // namespace ciu::replay
