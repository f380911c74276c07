#pragma once

#include "core/replay/sessionreader.h"

#include <QElapsedTimer>
#include <QPointer>
#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressDialog;
class QSortFilterProxyModel;
class QTableView;
class QToolButton;

namespace ciu::ui {

class FrameFetcher;
class ReplayEventModel;
class ReplayFrameView;
class TimelineWidget;

// The scrubbable replay viewer of one recorded session (`ciu-agent replay DIR`, or from the main window):
// the frame at t with the zone overlay as it was and the cursor trail of the last 2 s, the event log in sync
// with t (click an event to jump to it), the Director's step at t, a timeline with markers and scrubbing,
// play/pause, speed 0.25×–8×, frame step, previous/next event, and exports (HTML report, MP4 with overlay).
//
// Frames come from our FFmpeg decoder (VideoDecoder, on a worker via FrameFetcher), for playback too:
// Qt 6.4's QMediaPlayer seeks to key frames rather than to the exact frame, so scrubbing, stepping and the
// overlay (which must match each frame's recorded time) would drift; one decoding path keeps them in sync.
// Problems reading the session are shown in a banner; the rest still works.
class ReplayViewer final : public QWidget
{
    Q_OBJECT
public:
    enum class ExportFormat : quint8
    {
        Html = 1, // self-contained report: steps, key frames with zones, decisions, costs
        Mp4,      // the video with the overlay burned in
    };
    Q_ENUM(ExportFormat)

    explicit ReplayViewer(QWidget* parent = nullptr);
    ~ReplayViewer() override;

    // Opens a session folder. False when it cannot be read at all (the banner says why). A session still
    // being recorded is followed: when its files grow it is read again (every second), and a viewer at
    // the end stays at the (new) end.
    bool openSession(const QString& path);
    // A comfortable size that fits the available area of the screen the viewer is on.
    void resizeToFitScreen();

    qint64 currentTime() const { return m_tNs; }
    qint64 duration() const;
    bool isPlaying() const { return m_playTimer.isActive(); }
    double speed() const { return m_speed; }
    QString bannerText() const;
    const replay::SessionReader& reader() const { return m_reader; }
    ReplayEventModel* eventModel() const { return m_eventModel; }
    ReplayFrameView* frameView() const { return m_frameView; }
    TimelineWidget* timeline() const { return m_timeline; }
    QTableView* eventTable() const { return m_table; }
    // Time of the frame currently shown (-1 before the first one arrives).
    qint64 shownFrameTime() const { return m_shownFrameTNs; }
    // The progress dialog of the running export (null when none runs).
    QProgressDialog* exportProgress() const;

public slots:
    void setTime(qint64 tNs);
    void play();
    void pause();
    void togglePlay();
    void setSpeed(double speed); // clamped to 0.25–8
    void stepForward();
    void stepBackward();
    void nextEvent();
    void previousEvent();
    // Ask for a file name, then export with a progress dialog.
    void exportHtml();
    void exportMp4();
    // Exports to `file` on a worker with a (cancellable) progress dialog; exportFinished() when done. False
    // when another export still runs.
    bool exportTo(ciu::ui::ReplayViewer::ExportFormat format, const QString& file);

signals:
    void frameShown(qint64 frameTNs);
    // error is empty on success; "cancelled" when the user cancelled.
    void exportFinished(const QString& file, const QString& error);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void buildUi();
    // Reads the session again (the reader, the video, the log, the timeline); the time is left as it is.
    bool load(const QString& path);
    // Reads the session again when its files changed since the last read.
    void followRecording();
    QList<qint64> fileSizes() const;
    void updateOverlay();
    void advancePlayback();
    void onFrameReady(const QImage& frame, qint64 frameTNs, qint64 requestedTNs, bool step);
    void onEventActivated(const QModelIndex& proxyIndex);
    void updateTimeLabel();

    replay::SessionReader m_reader;
    qint64 m_tNs = 0;
    qint64 m_shownFrameTNs = -1;
    double m_speed = 1.0;
    QTimer m_playTimer;
    QTimer m_followTimer;
    QList<qint64> m_readSizes; // of the session's files when it was last read
    QElapsedTimer m_playClock;
    QPointer<QProgressDialog> m_progress;

    QLabel* m_banner = nullptr;
    ReplayFrameView* m_frameView = nullptr;
    QLabel* m_directorLabel = nullptr;
    TimelineWidget* m_timeline = nullptr;
    QToolButton* m_playButton = nullptr;
    QComboBox* m_speedBox = nullptr;
    QLabel* m_timeLabel = nullptr;
    QLineEdit* m_filter = nullptr;
    QTableView* m_table = nullptr;
    ReplayEventModel* m_eventModel = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    FrameFetcher* m_fetcher = nullptr;
};

} // namespace ciu::ui
