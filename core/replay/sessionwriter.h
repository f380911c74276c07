#pragma once

#include "core/model/action.h"
#include "core/model/frame.h"
#include "core/model/sessionclock.h"
#include "core/model/spatialevent.h"
#include "core/model/zonemap.h"
#include "core/replay/jsonlstream.h"
#include "core/replay/sessionretention.h"
#include "core/replay/zonejournal.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <memory>

namespace ciu::replay {

class VideoEncoder;

struct SessionWriterOptions
{
    QString rootDir;     // where session folders go; empty: defaultSessionRoot()
    QString sessionPath; // exact folder to record into (tests, resuming); overrides rootDir
    QString task;
    QJsonObject config; // recorded in metadata.json (secrets scrubbed)
    QSize screenSize;   // for the metadata; empty: the first frame's size
    SessionClock clock; // the session's clock: frames older than maxFrameLagMs on arrival are dropped

    bool recordVideo = true;
    int maxFps = 30; // frames closer together than 1/maxFps are skipped
    // Forced key frame at least this often: longer means a smaller file (key frames are most of a desktop
    // video) and a slower seek (decoding from the key frame before). bench/record_vs_ffmpeg.sh and
    // `ciu-agent bench seek` measure the trade-off; 3 s: ~2.4 MiB/min of desktop, seek p95 ~55 ms.
    int keyFrameIntervalMs = 3000;
    int fragmentIntervalMs = 1000; // MP4 fragment at least this often: what a killed recorder can lose
    QString preset = QStringLiteral("ultrafast");
    QString tune = QStringLiteral("zerolatency"); // empty: none
    int crf = 28;
    int encoderThreads = 1;
    int maxFrameLagMs = 250; // encoding fell behind: drop (and count) frames older than this

    bool maskPasswords =
        true; // black out password zones in frames, mask their labels and the text typed in them
    // Size budget of one session; 0: none. Reaching it stops recording (recordingFailed), keeping the files.
    qint64 maxSessionBytes = 4LL * 1024 * 1024 * 1024;
    // Recording stops when the disk holding the session has less free space than this (0: only on a write
    // error), so a long session never fills the disk for everyone else.
    qint64 minFreeBytes = 256LL * 1024 * 1024;
    int budgetCheckIntervalMs = 1000; // how often the size budget and the free space are checked
    RetentionPolicy retention;        // applied to rootDir when recording starts
    int metadataIntervalMs =
        10000; // metadata.json is rewritten this often while recording (0: only on changes)
};

// Counters of a recording (also written to metadata.json).
struct RecordingStats
{
    qint64 framesReceived = 0;
    qint64 framesEncoded = 0;
    qint64 framesDropped = 0;   // the encoder fell behind
    qint64 framesUnchanged = 0; // identical to the previous frame: not encoded (variable frame rate)
    qint64 framesRateLimited = 0;
    qint64 keyFrames = 0;
    qint64 cursorSamples = 0;
    qint64 zoneMaps = 0;
    qint64 events = 0;
    qint64 actions = 0;
    qint64 directorRecords = 0;
    qint64 bytesWritten = 0;
};

// The Replay Buffer's recorder: a worker for the "recorder" thread that writes everything
// the other components emit into a session folder (see sessionformat.h). Files are append-only and
// flushed per line; the video is fragmented MP4. On a write error (e.g. a full disk) or when the size budget
// is reached it stops cleanly, keeps what was written and emits recordingFailed() so the app pauses the
// agent.
class SessionWriter final : public QObject
{
    Q_OBJECT
public:
    enum class State : quint8
    {
        Idle = 1,
        Recording,
        Finished,
        Failed
    };
    Q_ENUM(State)

    explicit SessionWriter(SessionWriterOptions options, QObject* parent = nullptr);
    ~SessionWriter() override;

    State state() const { return m_state; }
    QString sessionPath() const { return m_path; }
    QString errorString() const { return m_error; }
    RecordingStats stats() const { return m_stats; }

public slots:
    // Creates the session folder and its files; emits started() or recordingFailed().
    void start();
    // Finishes the video, writes the final metadata; emits stopped().
    void stop();

    void onFrame(const ciu::Frame& frame);
    void onCursor(const ciu::CursorSample& sample);
    void onZoneMap(const ciu::ZoneMapPtr& map);
    void onEvent(const ciu::SpatialEvent& event);
    void onAction(const ciu::Action& action, const ciu::ActionResult& result);
    // A Director record: decision, prompt, reply, usage ({"input_tokens","output_tokens","cost_usd"}).
    // Its "t_ns" (if any) is used as the time; images go in as files (see writeKeyFrame / keyFrameFile()).
    void onDirectorRecord(const QJsonObject& record);
    // Saves frames/frame_<index>.png (every frame analysed by Tier 1/2 or sent to a model).
    void writeKeyFrame(const ciu::Frame& frame, const QString& reason);
    void setTask(const QString& task);
    // outcome: "completed", "failed", "stopped", "error" ...; detail: a sentence for the user.
    void setOutcome(const QString& outcome, const QString& detail = {});

signals:
    void started(const QString& sessionPath);
    void stopped(const QString& sessionPath);
    void recordingFailed(const QString& reason);

private:
    bool isRecording() const { return m_state == State::Recording; }
    qint64 nowNs() const { return m_options.clock.nowNs(); }
    bool openStream(JsonlStream& stream, const QString& name);
    void append(JsonlStream& stream, qint64 tNs, const QJsonObject& object, qint64& counter);
    void fail(const QString& reason);
    void closeAll();
    bool writeMetadata();
    QJsonObject metadataJson() const;
    QImage masked(const QImage& image, QPoint origin) const;
    bool isPasswordZone(const QString& zoneId) const;
    void checkBudget(bool force = false);
    ZoneMapPtr maskedMap(const ZoneMapPtr& map) const;
    QJsonObject maskedRecord(const QJsonObject& record) const;

    SessionWriterOptions m_options;
    State m_state = State::Idle;
    QString m_path;
    QString m_error;
    RecordingStats m_stats;
    QDateTime m_startTime;
    QDateTime m_endTime;
    qint64 m_lastTNs = 0;
    bool m_metadataWritten = false; // a complete metadata.json exists (the last good copy)
    QString m_metadataError;        // why the last metadata.json write failed
    QString m_outcome;
    QString m_outcomeDetail;
    QSize m_screenSize;

    std::unique_ptr<VideoEncoder> m_video;
    qint64 m_lastFrameTNs = -1;
    qint64 m_lastImageKey = 0;
    QImage m_lastImage;
    JsonlStream m_cursor, m_zones, m_events, m_actions, m_director, m_keyFramesIndex;
    QPoint m_lastCursorPos{-1, -1};
    QString m_lastCursorShape;
    ZoneJournalEncoder m_zoneEncoder;
    ZoneMapPtr m_zoneMap;
    QSet<quint64> m_keyFramesWritten;
    qint64 m_keyFrameBytes = 0;

    qint64 m_inputTokens = 0;
    qint64 m_outputTokens = 0;
    double m_costUsd = 0;
    qint64 m_modelCalls = 0;

    QTimer m_metadataTimer;
    QTimer m_videoFlushTimer;
    QStringList m_tasks; // every task of the session, in order (metadata.json "tasks") // cuts a video
                         // fragment every second: a live replay shows up to a second ago
    QElapsedTimer m_budgetClock;
};

} // namespace ciu::replay
