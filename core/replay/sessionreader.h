#pragma once

#include "core/model/frame.h"
#include "core/model/spatialevent.h"
#include "core/model/zonemap.h"
#include "core/replay/zonejournal.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <optional>

namespace ciu::replay {

class VideoDecoder;

struct ActionRecord
{
    qint64 tNs = 0;
    QJsonObject action; // Action::toJson()
    QJsonObject result; // ActionResult::toJson()
    QString description;
    bool success = false;
};

struct DirectorRecord
{
    qint64 tNs = 0;
    QJsonObject json;
    QString type;    // "decision", "prompt", "reply", ... (the record's "type")
    QString summary; // a one-line text for lists
};

struct KeyFrameRecord
{
    qint64 tNs = 0;
    QString file; // relative to the session folder
    quint64 frameIndex = 0;
    QString reason;
    QPoint origin;
};

// Something worth a mark on the replay timeline.
struct Marker
{
    enum class Kind : quint8
    {
        Click = 1,
        Typing,
        Analysis,
        ModelCall,
        Error,
        Takeover,
        Action,
        Decision
    };
    qint64 tNs = 0;
    Kind kind = Kind::Action;
    QString label;
};
QString toString(Marker::Kind kind);

// One row of the session's log (events, actions and Director records merged in time order).
struct LogEntry
{
    enum class Source : quint8
    {
        Event = 1,
        Action,
        Director
    };
    qint64 tNs = 0;
    Source source = Source::Event;
    QString kind; // event kind, action name or Director record type
    QString zoneId;
    QString text;
    bool error = false;
};

// Reads a recorded session folder (see sessionformat.h). Tolerant: a missing or corrupt file, or a corrupt
// or truncated JSONL line, is listed in problems() and skipped; everything else still works. Random access
// to the state at any time t. Not thread-safe (the video decoder has state): one reader per thread.
class SessionReader
{
public:
    SessionReader();
    ~SessionReader();
    SessionReader(const SessionReader&) = delete;
    SessionReader& operator=(const SessionReader&) = delete;

    // False only when `dir` is not a readable folder (problems() says why).
    bool open(const QString& dir);
    QString path() const { return m_path; }
    QStringList problems() const { return m_problems; }

    QJsonObject metadata() const { return m_metadata; }
    QString task() const;
    QSize screenSize() const;
    // From 0 to the last recorded moment.
    qint64 durationNs() const { return m_durationNs; }

    // Cursor
    const QList<CursorSample>& cursorSamples() const { return m_cursor; }
    // The last sample at or before tNs.
    std::optional<CursorSample> cursorAt(qint64 tNs) const;
    // Samples in (tNs - windowNs, tNs], oldest first.
    QList<CursorSample> cursorTrail(qint64 tNs, qint64 windowNs) const;

    // Zones
    ZoneMapPtr zoneMapAt(qint64 tNs) const { return m_zones.mapAt(tNs); }
    qsizetype zoneMapCount() const { return m_zones.entryCount(); }

    // Events, actions, Director
    const QList<SpatialEvent>& events() const { return m_events; }
    // Number of events at or before tNs (so events().mid(0, n) are "up to t").
    qsizetype eventCountAt(qint64 tNs) const;
    const QList<ActionRecord>& actions() const { return m_actions; }
    const QList<DirectorRecord>& directorRecords() const { return m_director; }
    // The Director's latest record at or before tNs.
    std::optional<DirectorRecord> directorStepAt(qint64 tNs) const;
    const QList<KeyFrameRecord>& keyFrames() const { return m_keyFrames; }
    QImage keyFrameImage(const KeyFrameRecord& record) const;
    const QList<Marker>& markers() const { return m_markers; }
    const QList<LogEntry>& log() const { return m_log; }

    // Video
    bool hasVideo() const;
    QString videoPath() const;
    QSize videoSize() const;
    // The frame on screen at tNs (null without video). `frameTNs` receives the frame's own time.
    QImage frameAt(qint64 tNs, qint64* frameTNs = nullptr);
    // Time of the next / previous video frame after / before tNs, or nullopt.
    std::optional<qint64> nextFrameTime(qint64 tNs);
    std::optional<qint64> previousFrameTime(qint64 tNs);

private:
    using LineHandler = std::function<bool(qint64 tNs, const QJsonObject& line, QString* error)>;
    void readJsonl(const QString& name, bool required, const LineHandler& handler);
    void readMetadata();
    void buildMarkersAndLog();
    void problem(const QString& text) { m_problems << text; }

    QString m_path;
    QStringList m_problems;
    QJsonObject m_metadata;
    qint64 m_durationNs = 0;
    QList<CursorSample> m_cursor;
    ZoneJournal m_zones;
    QList<SpatialEvent> m_events;
    QList<ActionRecord> m_actions;
    QList<DirectorRecord> m_director;
    QList<KeyFrameRecord> m_keyFrames;
    QList<Marker> m_markers;
    QList<LogEntry> m_log;
    std::unique_ptr<VideoDecoder> m_video;
};

} // namespace ciu::replay
