#include "ui/replay/replayviewer.h"

#include "core/replay/sessionexporter.h"
#include "ui/replay/framefetcher.h"
#include "ui/replay/replayeventmodel.h"
#include "ui/replay/replayframeview.h"
#include "ui/replay/timelinewidget.h"
#include "ui/uilog.h"

#include <QApplication>
#include <QBoxLayout>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressDialog>
#include <QScreen>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>

namespace ciu::ui {
namespace {
constexpr qint64 kTrailNs = 2'000'000'000;
constexpr int kPlayIntervalMs = 33;
constexpr int kFollowIntervalMs = 1000;
constexpr qint64 kAtEndSlackNs = 500'000'000; // this close to the end counts as at the end
const double kSpeeds[] = {0.25, 0.5, 1.0, 2.0, 4.0, 8.0};
} // namespace

ReplayViewer::ReplayViewer(QWidget* parent)
    : QWidget(parent)
    , m_playTimer(this)
{
    setWindowTitle(tr("CIU Agent — Replay"));
    m_playTimer.setInterval(kPlayIntervalMs);
    m_playTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_playTimer, &QTimer::timeout, this, &ReplayViewer::advancePlayback);
    m_followTimer.setInterval(kFollowIntervalMs);
    connect(&m_followTimer, &QTimer::timeout, this, &ReplayViewer::followRecording);
    m_fetcher = new FrameFetcher(this);
    connect(m_fetcher, &FrameFetcher::frameReady, this, &ReplayViewer::onFrameReady);
    buildUi();
}

ReplayViewer::~ReplayViewer() = default;

void ReplayViewer::buildUi()
{
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(6, 6, 6, 6);

    m_banner = new QLabel(this);
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setStyleSheet(
        QStringLiteral("QLabel{background:#fff3cd;color:#5c4400;border:1px solid #e0c060;padding:6px;}"));
    m_banner->hide();
    root->addWidget(m_banner);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    auto* left = new QWidget(splitter);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_frameView = new ReplayFrameView(left);
    leftLayout->addWidget(m_frameView, 1);
    m_directorLabel = new QLabel(left);
    m_directorLabel->setWordWrap(true);
    m_directorLabel->setTextFormat(Qt::PlainText);
    leftLayout->addWidget(m_directorLabel);
    splitter->addWidget(left);

    auto* right = new QWidget(splitter);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    m_filter = new QLineEdit(right);
    m_filter->setPlaceholderText(tr("Filter events"));
    m_filter->setClearButtonEnabled(true);
    rightLayout->addWidget(m_filter);
    m_eventModel = new ReplayEventModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_eventModel);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    m_table = new QTableView(right);
    m_table->setModel(m_proxy);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    connect(m_table, &QTableView::clicked, this, &ReplayViewer::onEventActivated);
    connect(m_table, &QTableView::activated, this, &ReplayViewer::onEventActivated);
    rightLayout->addWidget(m_table);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({920, 480}); // the log needs room for its details column
    root->addWidget(splitter, 1);

    m_timeline = new TimelineWidget(this);
    connect(m_timeline, &TimelineWidget::timeRequested, this, &ReplayViewer::setTime);
    root->addWidget(m_timeline);

    auto* controls = new QHBoxLayout;
    // Icons from the style: the media glyphs (⏮ ⏸ ⏭) are missing from many fonts.
    auto button = [&](QStyle::StandardPixmap icon, const QString& tip, auto slot) {
        auto* b = new QToolButton(this);
        b->setIcon(style()->standardIcon(icon));
        b->setToolTip(tip);
        b->setAccessibleName(tip);
        connect(b, &QToolButton::clicked, this, slot);
        controls->addWidget(b);
        return b;
    };
    button(QStyle::SP_MediaSkipBackward, tr("Previous event (Shift+Left)"), &ReplayViewer::previousEvent);
    button(QStyle::SP_MediaSeekBackward, tr("Previous frame (Left)"), &ReplayViewer::stepBackward);
    m_playButton = button(QStyle::SP_MediaPlay, tr("Play / pause (Space)"), &ReplayViewer::togglePlay);
    button(QStyle::SP_MediaSeekForward, tr("Next frame (Right)"), &ReplayViewer::stepForward);
    button(QStyle::SP_MediaSkipForward, tr("Next event (Shift+Right)"), &ReplayViewer::nextEvent);
    m_speedBox = new QComboBox(this);
    m_speedBox->setToolTip(tr("Playback speed"));
    for (double s : kSpeeds)
        m_speedBox->addItem(QStringLiteral("%1×").arg(s), s);
    m_speedBox->setCurrentIndex(2);
    connect(m_speedBox, &QComboBox::currentIndexChanged, this,
            [this](int index) { setSpeed(m_speedBox->itemData(index).toDouble()); });
    controls->addWidget(m_speedBox);
    m_timeLabel = new QLabel(this);
    m_timeLabel->setMinimumWidth(160);
    controls->addWidget(m_timeLabel);
    controls->addStretch(1);
    auto textButton = [&](const QString& text, const QString& tip, auto slot) {
        auto* b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        connect(b, &QToolButton::clicked, this, slot);
        controls->addWidget(b);
    };
    textButton(tr("Export HTML…"), tr("Export an HTML report of the session"), &ReplayViewer::exportHtml);
    textButton(tr("Export MP4…"), tr("Export the video with the overlay burned in"),
               &ReplayViewer::exportMp4);
    root->addLayout(controls);
    resize(1400, 900);
}

void ReplayViewer::resizeToFitScreen()
{
    const QScreen* screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    if (!screen)
        return;
    const QRect available = screen->availableGeometry();
    // Room for the window frame; never larger than what suits a session video with its log.
    const QSize size(std::min(1400, available.width() * 9 / 10), std::min(900, available.height() * 9 / 10));
    resize(size.expandedTo(minimumSizeHint()).boundedTo(available.size()));
    move(available.center() - rect().center());
}

bool ReplayViewer::openSession(const QString& path)
{
    pause();
    const bool ok = load(path);
    m_shownFrameTNs = -1;
    m_tNs = -1;
    setTime(0);
    if (ok)
        m_followTimer.start();
    else
        m_followTimer.stop();
    return ok;
}

QList<qint64> ReplayViewer::fileSizes() const
{
    QList<qint64> sizes;
    if (m_reader.path().isEmpty())
        return sizes;
    const QDir dir(m_reader.path());
    for (const QFileInfo& file : dir.entryInfoList(QDir::Files, QDir::Name))
        sizes << file.size();
    return sizes;
}

void ReplayViewer::followRecording()
{
    if (m_reader.path().isEmpty() || fileSizes() == m_readSizes)
        return;
    const bool atEnd = m_tNs >= m_reader.durationNs() - kAtEndSlackNs;
    const qint64 t = m_tNs;
    load(m_reader.path());
    qCDebug(lcUi) << "the session grew: read again, now" << m_reader.durationNs() / 1'000'000 << "ms";
    m_tNs = -1;
    setTime(atEnd ? m_reader.durationNs() : t);
}

bool ReplayViewer::load(const QString& path)
{
    const bool ok = m_reader.open(path);
    m_readSizes = fileSizes();
    setWindowTitle(tr("CIU Agent — Replay — %1").arg(QFileInfo(m_reader.path()).fileName()));
    QStringList problems = m_reader.problems();
    if (ok && m_reader.hasVideo()) {
        QString error;
        if (!m_fetcher->open(m_reader.videoPath(), &error))
            problems << tr("The video cannot be decoded: %1").arg(error);
    }
    if (!problems.isEmpty()) {
        m_banner->setText(tr("Some of this session could not be read; the rest is shown.\n• ") +
                          problems.join(QStringLiteral("\n• ")));
        m_banner->show();
    } else {
        m_banner->hide();
    }
    m_eventModel->setEntries(m_reader.log());
    m_table->resizeColumnsToContents();
    // Room for the bold current row (its text is wider than the regular rows the widths were taken from).
    for (int c = 0; c + 1 < m_proxy->columnCount(); ++c)
        m_table->setColumnWidth(c, m_table->columnWidth(c) * 115 / 100 + 6);
    m_timeline->setDuration(m_reader.durationNs());
    m_timeline->setMarkers(m_reader.markers());
    m_frameView->setScreenSize(m_reader.screenSize());
    m_frameView->setPlaceholder(m_reader.hasVideo() ? QString() : tr("This session has no video"));
    return ok;
}

QString ReplayViewer::bannerText() const
{
    return m_banner->isVisibleTo(const_cast<ReplayViewer*>(this)) ? m_banner->text() : QString();
}

QProgressDialog* ReplayViewer::exportProgress() const
{
    return m_progress;
}

qint64 ReplayViewer::duration() const
{
    return m_reader.durationNs();
}

void ReplayViewer::setTime(qint64 tNs)
{
    tNs = qBound<qint64>(0, tNs, m_reader.durationNs());
    if (tNs == m_tNs)
        return;
    m_tNs = tNs;
    const int row = m_eventModel->setCurrentTime(tNs);
    if (row >= 0) {
        const QModelIndex proxyIndex = m_proxy->mapFromSource(m_eventModel->index(row, 0));
        if (proxyIndex.isValid())
            m_table->scrollTo(proxyIndex, QAbstractItemView::EnsureVisible);
    }
    m_timeline->setCurrentTime(tNs);
    updateOverlay();
    updateTimeLabel();
    m_fetcher->requestAt(tNs);
}

void ReplayViewer::updateOverlay()
{
    m_frameView->setOverlay(m_reader.zoneMapAt(m_tNs), m_reader.cursorTrail(m_tNs, kTrailNs), m_tNs);
    const auto step = m_reader.directorStepAt(m_tNs);
    m_directorLabel->setText(
        step ? tr("Director (%1, %2): %3")
                   .arg(TimelineMapping::formatTime(step->tNs, 1'000'000), step->type, step->summary)
             : QString());
}

void ReplayViewer::updateTimeLabel()
{
    m_timeLabel->setText(
        QStringLiteral("%1 / %2").arg(TimelineMapping::formatTime(m_tNs, 1'000'000),
                                      TimelineMapping::formatTime(m_reader.durationNs(), 1'000'000)));
}

void ReplayViewer::onFrameReady(const QImage& frame, qint64 frameTNs, qint64, bool step)
{
    if (frame.isNull())
        return;
    m_frameView->setFrame(frame);
    m_shownFrameTNs = frameTNs;
    // A frame step moves the time to the frame it reached (unless the user asked for another time since).
    if (step && !isPlaying() && !m_fetcher->isBusy() && frameTNs != m_tNs) {
        m_tNs = -1;
        setTime(frameTNs);
    }
    emit frameShown(frameTNs);
}

void ReplayViewer::play()
{
    if (m_reader.durationNs() <= 0)
        return;
    if (m_tNs >= m_reader.durationNs())
        setTime(0);
    m_playClock.start();
    m_playTimer.start();
    m_playButton->setIcon(style()->standardIcon(QStyle::SP_MediaPause));
}

void ReplayViewer::pause()
{
    m_playTimer.stop();
    if (m_playButton)
        m_playButton->setIcon(style()->standardIcon(QStyle::SP_MediaPlay));
}

void ReplayViewer::togglePlay()
{
    isPlaying() ? pause() : play();
}

void ReplayViewer::setSpeed(double speed)
{
    m_speed = qBound(0.25, speed, 8.0);
    for (int i = 0; i < m_speedBox->count(); ++i) {
        if (qFuzzyCompare(m_speedBox->itemData(i).toDouble(), m_speed) && m_speedBox->currentIndex() != i)
            m_speedBox->setCurrentIndex(i);
    }
}

void ReplayViewer::advancePlayback()
{
    const qint64 elapsedNs = m_playClock.nsecsElapsed();
    m_playClock.restart();
    const qint64 next = m_tNs + qint64(double(elapsedNs) * m_speed);
    if (next >= m_reader.durationNs()) {
        setTime(m_reader.durationNs());
        pause();
        return;
    }
    setTime(next);
}

void ReplayViewer::stepForward()
{
    pause();
    m_fetcher->requestNext(m_shownFrameTNs >= 0 ? qMax(m_tNs, m_shownFrameTNs) : m_tNs);
}

void ReplayViewer::stepBackward()
{
    pause();
    m_fetcher->requestPrevious(m_tNs);
}

void ReplayViewer::nextEvent()
{
    const QList<replay::LogEntry>& log = m_eventModel->entries();
    for (const replay::LogEntry& e : log) {
        if (e.tNs > m_tNs) {
            setTime(e.tNs);
            return;
        }
    }
}

void ReplayViewer::previousEvent()
{
    const QList<replay::LogEntry>& log = m_eventModel->entries();
    for (auto it = log.crbegin(); it != log.crend(); ++it) {
        if (it->tNs < m_tNs) {
            setTime(it->tNs);
            return;
        }
    }
    setTime(0);
}

void ReplayViewer::onEventActivated(const QModelIndex& proxyIndex)
{
    const QModelIndex source = m_proxy->mapToSource(proxyIndex);
    if (!source.isValid())
        return;
    pause();
    setTime(m_eventModel->timeAt(source.row()));
}

void ReplayViewer::keyPressEvent(QKeyEvent* event)
{
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    switch (event->key()) {
    case Qt::Key_Space:
        togglePlay();
        return;
    case Qt::Key_Left:
        shift ? previousEvent() : stepBackward();
        return;
    case Qt::Key_Right:
        shift ? nextEvent() : stepForward();
        return;
    case Qt::Key_Home:
        setTime(0);
        return;
    case Qt::Key_End:
        setTime(m_reader.durationNs());
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

void ReplayViewer::exportHtml()
{
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Export an HTML report"), QFileInfo(m_reader.path()).fileName() + QStringLiteral(".html"),
        tr("HTML (*.html)"));
    if (!file.isEmpty())
        exportTo(ExportFormat::Html, file);
}

void ReplayViewer::exportMp4()
{
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Export the video with the overlay"),
        QFileInfo(m_reader.path()).fileName() + QStringLiteral(".mp4"), tr("MP4 video (*.mp4)"));
    if (!file.isEmpty())
        exportTo(ExportFormat::Mp4, file);
}

bool ReplayViewer::exportTo(ExportFormat format, const QString& file)
{
    const bool html = format == ExportFormat::Html;
    if (m_progress)
        return false; // one export at a time
    auto* dialog = new QProgressDialog(html ? tr("Writing the HTML report…")
                                            : tr("Encoding the video with the overlay…"),
                                       tr("Cancel"), 0, 1000, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->setMinimumDuration(0);
    dialog->setValue(0);
    m_progress = dialog;
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    connect(dialog, &QProgressDialog::canceled, this, [cancelled] { *cancelled = true; });
    QPointer<ReplayViewer> self(this);
    const QString sessionPath = m_reader.path();
    QtConcurrent::run([sessionPath, file, html, cancelled, self] {
        replay::SessionReader reader; // a private reader: the decoder is not shared across threads
        reader.open(sessionPath);
        QString error;
        const auto progress = [cancelled, self](qint64 done, qint64 total) {
            const int value = total > 0 ? int(1000 * done / total) : 0;
            // Runs on the GUI thread, where the QPointer may be read.
            QMetaObject::invokeMethod(
                qApp,
                [self, value] {
                    if (self && self->m_progress)
                        self->m_progress->setValue(qMin(value, 999));
                },
                Qt::QueuedConnection);
            return !cancelled->load();
        };
        const bool ok = html ? replay::exportHtmlReport(reader, file, &error, progress)
                             : replay::exportOverlayVideo(reader, file, &error, progress);
        return ok ? QString() : error;
    }).then(this, [this, file, cancelled](const QString& error) {
        // Read before closing: closing a QProgressDialog emits canceled().
        const bool wasCancelled = cancelled->load();
        if (m_progress) {
            m_progress->disconnect(this);
            m_progress->close();
        }
        emit exportFinished(file, wasCancelled ? QStringLiteral("cancelled") : error);
        if (error.isEmpty() && !wasCancelled) {
            // Say that it is done and where the file is (non-modal: the user may go on scrubbing).
            auto* box = new QMessageBox(QMessageBox::Information, tr("Export done"),
                                        tr("The export is done: %1").arg(QDir::toNativeSeparators(file)),
                                        QMessageBox::Ok, this);
            box->setObjectName(QStringLiteral("ExportDone"));
            box->setTextInteractionFlags(Qt::TextSelectableByMouse);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->setWindowModality(Qt::NonModal);
            box->show();
        }
        if (!error.isEmpty() && !wasCancelled) {
            // Window-modal without a nested event loop.
            auto* box =
                new QMessageBox(QMessageBox::Warning, tr("Export failed"),
                                tr("The export to %1 failed: %2").arg(file, error), QMessageBox::Ok, this);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    });
    return true;
}

} // namespace ciu::ui
