#include "core/replay/sessionwriter.h"

#include "core/model/secrets.h"
#include "core/replay/atomicfile.h"
#include "core/replay/replaylog.h"
#include "core/replay/sessionformat.h"
#include "core/replay/videoencoder.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
}

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QPainter>
#include <QStorageInfo>
#include <QSysInfo>

#include <algorithm>
#include <cmath>

namespace ciu::replay {
namespace {

QString maskedText(const QString& text)
{
    return QString(qMin<qsizetype>(text.size(), 8), QChar(0x2022)); // •••
}

QJsonObject scrubbed(const QJsonObject& object)
{
    // Round trip through text: every string value is scrubbed.
    const QByteArray text = scrubSecrets(QJsonDocument(object).toJson(QJsonDocument::Compact));
    return QJsonDocument::fromJson(text).object();
}

// Space set aside when recording starts and given back when the disk is full, so that the final
// metadata.json (outcome, usage, why the recording stopped) can still be written.
constexpr qint64 kReserveBytes = 256 * 1024;
const QString kReserveFile = QStringLiteral(".space-reserve");

void reserveSpace(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return;
    const QByteArray zeros(64 * 1024, '\0');
    for (qint64 n = 0; n < kReserveBytes; n += zeros.size()) {
        if (file.write(zeros) != zeros.size() || !file.flush()) {
            file.close();
            QFile::remove(path); // not even that much room: nothing to reserve
            return;
        }
    }
}

// A count from a record added to a total: negative, NaN or huge values never wrap the total.
qint64 saturatedAdd(qint64 total, double part)
{
    if (!(part > 0))
        return total;
    const double sum = double(total) + part;
    return sum >= 9.0e18 ? qint64(9'000'000'000'000'000'000) : total + qint64(part);
}

// Every string of a record longer than this is cut (a 50 MB model reply was recorded three times).
constexpr qsizetype kMaxRecordedChars = 64 * 1024;

QJsonValue cappedStrings(const QJsonValue& value)
{
    if (value.isString()) {
        const QString text = value.toString();
        if (text.size() <= kMaxRecordedChars)
            return value;
        return QString(
            text.left(kMaxRecordedChars) +
            QStringLiteral("\u2026 [%1 more characters not recorded]").arg(text.size() - kMaxRecordedChars));
    }
    if (value.isArray()) {
        QJsonArray array = value.toArray();
        for (qsizetype i = 0; i < array.size(); ++i)
            array[i] = cappedStrings(array.at(i));
        return array;
    }
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            *it = cappedStrings(*it);
        return object;
    }
    return value;
}

QString isoTime(const QDateTime& t)
{
    return t.isValid() ? t.toString(Qt::ISODateWithMs) : QString();
}

} // namespace

SessionWriter::SessionWriter(SessionWriterOptions options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_metadataTimer(this)
    , m_videoFlushTimer(this)
{
    m_screenSize = m_options.screenSize;
    connect(&m_metadataTimer, &QTimer::timeout, this, [this] {
        if (isRecording() && !writeMetadata())
            fail(m_metadataError);
    });
    connect(&m_videoFlushTimer, &QTimer::timeout, this, [this] {
        if (isRecording() && m_video && !m_video->flush())
            qCWarning(lcRecorder) << "the video could not be flushed:" << m_video->errorString();
    });
}

SessionWriter::~SessionWriter()
{
    if (isRecording())
        stop();
}

void SessionWriter::start()
{
    if (m_state != State::Idle)
        return;
    m_startTime = QDateTime::currentDateTime();
    refreshEnvironmentSecrets(); // keys set since the last session are redacted too
    QString root;
    if (!m_options.sessionPath.isEmpty()) {
        m_path = QDir(m_options.sessionPath).absolutePath();
    } else {
        root = m_options.rootDir.isEmpty() ? defaultSessionRoot() : m_options.rootDir;
        const QString base = QDir(root).absoluteFilePath(sessionFolderName(m_startTime));
        m_path = base;
        for (int n = 2; QFileInfo::exists(m_path); ++n)
            m_path = base + QLatin1Char('_') + QString::number(n);
    }
    if (!QDir().mkpath(m_path + QLatin1Char('/') + files::framesDir)) {
        m_state = State::Recording; // so fail() reports it
        fail(QStringLiteral("cannot create the session folder %1").arg(m_path));
        return;
    }
    m_state = State::Recording;
    if (!openStream(m_cursor, files::cursor) || !openStream(m_zones, files::zones) ||
        !openStream(m_events, files::events) || !openStream(m_actions, files::actions) ||
        !openStream(m_director, files::director) || !openStream(m_keyFramesIndex, files::framesIndex))
        return;
    if (!writeMetadata()) {
        fail(m_metadataError);
        return;
    }
    reserveSpace(m_path + QLatin1Char('/') + kReserveFile);
    if (!root.isEmpty())
        applyRetention(root, m_options.retention, m_path);
    if (m_options.metadataIntervalMs > 0)
        m_metadataTimer.start(m_options.metadataIntervalMs);
    m_videoFlushTimer.start(1000);
    m_budgetClock.start();
    checkBudget(true);
    if (!isRecording())
        return;
    qCInfo(lcRecorder) << "recording the session into" << m_path;
    emit started(m_path);
}

bool SessionWriter::openStream(JsonlStream& stream, const QString& name)
{
    if (!stream.open(m_path + QLatin1Char('/') + name)) {
        fail(stream.errorString());
        return false;
    }
    return true;
}

void SessionWriter::closeAll()
{
    m_metadataTimer.stop();
    m_videoFlushTimer.stop();
    if (m_video) {
        if (!m_video->finish())
            qCWarning(lcRecorder) << "the video could not be finished:" << m_video->errorString();
        m_stats.framesEncoded = m_video->framesEncoded();
    }
    for (JsonlStream* s : {&m_cursor, &m_zones, &m_events, &m_actions, &m_director, &m_keyFramesIndex})
        s->close();
}

void SessionWriter::stop()
{
    if (m_state != State::Recording) {
        if (m_state == State::Failed)
            emit stopped(m_path);
        return;
    }
    closeAll();
    m_state = State::Finished;
    m_endTime = QDateTime::currentDateTime();
    QFile::remove(m_path + QLatin1Char('/') + kReserveFile);
    if (!writeMetadata())
        qCWarning(lcRecorder).noquote() << m_metadataError;
    qCInfo(lcRecorder) << "session recorded:" << m_path << m_stats.framesEncoded << "frames,"
                       << m_stats.framesDropped << "dropped";
    emit stopped(m_path);
}

void SessionWriter::fail(const QString& reason)
{
    if (m_state != State::Recording)
        return;
    m_error = reason;
    if (isDiskFullError(reason)) {
        m_error = m_metadataWritten
                      ? QStringLiteral("the disk is full (%1); what was recorded until now is kept in %2")
                            .arg(reason, m_path)
                      : QStringLiteral("the disk is full (%1); nothing could be recorded in %2")
                            .arg(reason, m_path);
    }
    // Reported once by whoever shows the outcome (recordingFailed); the log only with --verbose.
    qCInfo(lcRecorder).noquote() << "recording stopped:" << m_error;
    closeAll();
    m_state = State::Failed;
    m_endTime = QDateTime::currentDateTime();
    // The space set aside at the start makes room for the final metadata; without it the last good copy
    // stays.
    QFile::remove(m_path + QLatin1Char('/') + kReserveFile);
    if (m_metadataWritten && !writeMetadata())
        qCWarning(lcRecorder).noquote() << m_metadataError << "(the previous metadata.json is kept)";
    emit recordingFailed(m_error);
}

void SessionWriter::append(JsonlStream& stream, qint64 tNs, const QJsonObject& object, qint64& counter)
{
    if (!isRecording())
        return;
    if (!stream.append(tNs, object)) {
        fail(stream.errorString());
        return;
    }
    ++counter;
    m_lastTNs = qMax(m_lastTNs, tNs);
    checkBudget();
}

void SessionWriter::checkBudget(bool force)
{
    if (!isRecording())
        return;
    if (!force && m_budgetClock.isValid() && m_budgetClock.elapsed() < m_options.budgetCheckIntervalMs)
        return;
    m_budgetClock.restart();
    qint64 total = m_keyFrameBytes + (m_video ? m_video->bytesWritten() : 0);
    for (const JsonlStream* s : {&m_cursor, &m_zones, &m_events, &m_actions, &m_director, &m_keyFramesIndex})
        total += s->bytesWritten();
    m_stats.bytesWritten = total;
    if (m_options.maxSessionBytes > 0 && total > m_options.maxSessionBytes) {
        fail(QStringLiteral("the session reached its size budget of %1 MiB; what was recorded until now is "
                            "kept in %2")
                 .arg(double(m_options.maxSessionBytes) / (1024.0 * 1024.0), 0, 'f', 1)
                 .arg(m_path));
        return;
    }
    if (m_options.minFreeBytes > 0) {
        QStorageInfo disk(m_path);
        disk.refresh();
        const qint64 available = disk.isValid() ? disk.bytesAvailable() : -1;
        if (available >= 0 && available < m_options.minFreeBytes)
            fail(QStringLiteral("the disk is almost full (%1 MiB free on %2, at least %3 MiB needed); what "
                                "was recorded until now is kept in %4")
                     .arg(available / (1024 * 1024))
                     .arg(disk.rootPath())
                     .arg(m_options.minFreeBytes / (1024 * 1024))
                     .arg(m_path));
    }
}

bool SessionWriter::isPasswordZone(const QString& zoneId) const
{
    if (zoneId.isEmpty() || !m_zoneMap)
        return false;
    const Zone* zone = m_zoneMap->find(zoneId);
    return zone && zone->isPassword;
}

QImage SessionWriter::masked(const QImage& image, QPoint origin) const
{
    if (!m_options.maskPasswords || !m_zoneMap)
        return image;
    QImage out;
    for (const Zone& z : m_zoneMap->zones()) {
        if (!z.isPassword)
            continue;
        if (out.isNull())
            out = image.copy();
        QPainter painter(&out);
        painter.fillRect(z.bounds.translated(-origin), Qt::black);
    }
    return out.isNull() ? image : out;
}

void SessionWriter::onFrame(const Frame& frame)
{
    if (!isRecording() || !m_options.recordVideo || !frame.isValid())
        return;
    ++m_stats.framesReceived;
    if (frame.image.cacheKey() == m_lastImageKey) {
        ++m_stats.framesUnchanged; // variable frame rate: the previous frame stays on screen
        return;
    }
    if (m_options.maxFrameLagMs > 0 && nowNs() - frame.tNs > qint64(m_options.maxFrameLagMs) * 1'000'000) {
        ++m_stats.framesDropped; // we fell behind: catch up rather than queue
        return;
    }
    if (m_lastFrameTNs >= 0 && m_options.maxFps > 0 &&
        frame.tNs - m_lastFrameTNs < qint64(900'000'000.0 / m_options.maxFps)) {
        ++m_stats.framesRateLimited;
        return;
    }
    if (m_screenSize.isEmpty())
        m_screenSize = frame.image.size();
    if (!m_video) {
        m_video = std::make_unique<VideoEncoder>();
        VideoEncoder::Options o;
        o.size = frame.image.size();
        o.nominalFps = qMax(1, m_options.maxFps);
        o.keyFrameIntervalMs = m_options.keyFrameIntervalMs;
        o.fragmentIntervalMs = m_options.fragmentIntervalMs;
        o.preset = m_options.preset;
        o.tune = m_options.tune;
        o.crf = m_options.crf;
        o.threads = m_options.encoderThreads;
        if (!m_video->open(m_path + QLatin1Char('/') + files::video, o)) {
            fail(m_video->errorString());
            return;
        }
        writeMetadata();
    }
    if (!m_video->encode(masked(frame.image, frame.origin), frame.tNs / 1'000'000)) {
        fail(m_video->errorString());
        return;
    }
    m_lastImageKey = frame.image.cacheKey();
    m_lastImage = frame.image; // keeps the pixels shared, so a capture loop must detach to change them
    m_lastFrameTNs = frame.tNs;
    m_lastTNs = qMax(m_lastTNs, frame.tNs);
    m_stats.framesEncoded = m_video->framesEncoded();
    checkBudget();
}

void SessionWriter::onCursor(const CursorSample& sample)
{
    if (!isRecording())
        return;
    if (sample.pos == m_lastCursorPos && sample.shape == m_lastCursorShape)
        return;
    QJsonObject o{{QLatin1String("x"), sample.pos.x()}, {QLatin1String("y"), sample.pos.y()}};
    if (sample.shape != m_lastCursorShape)
        o[QLatin1String("shape")] = sample.shape;
    m_lastCursorPos = sample.pos;
    m_lastCursorShape = sample.shape;
    append(m_cursor, sample.tNs, o, m_stats.cursorSamples);
}

void SessionWriter::onZoneMap(const ZoneMapPtr& map)
{
    if (!isRecording() || !map)
        return;
    m_zoneMap = map;
    if (m_screenSize.isEmpty())
        m_screenSize = map->screenSize();
    if (const auto line = m_zoneEncoder.encode(*maskedMap(map)))
        append(m_zones, map->tNs() > 0 ? map->tNs() : nowNs(), *line, m_stats.zoneMaps);
}

void SessionWriter::onEvent(const SpatialEvent& event)
{
    if (!isRecording())
        return;
    SpatialEvent e = event;
    if (m_options.maskPasswords &&
        (isPasswordZone(e.zoneId) || e.data.value(QStringLiteral("password")).toBool())) {
        if (e.data.contains(QStringLiteral("text")))
            e.data[QStringLiteral("text")] = maskedText(e.data.value(QStringLiteral("text")).toString());
        e.data[QStringLiteral("masked")] = true;
    }
    append(m_events, e.tNs, e.toJson(), m_stats.events);
}

void SessionWriter::onAction(const Action& action, const ActionResult& result)
{
    if (!isRecording())
        return;
    Action recorded = action;
    const bool mask =
        m_options.maskPasswords && action.type == Action::Type::TypeText && isPasswordZone(action.zoneId);
    if (mask)
        recorded.text = maskedText(action.text);
    QJsonObject actionJson = recorded.toJson();
    if (mask)
        actionJson[QLatin1String("masked")] = true;
    const qint64 tNs = result.startNs > 0 ? result.startNs : nowNs();
    append(m_actions, tNs,
           QJsonObject{{QLatin1String("action"), actionJson},
                       {QLatin1String("description"), recorded.describe()},
                       {QLatin1String("result"), result.toJson()}},
           m_stats.actions);
}

void SessionWriter::onDirectorRecord(const QJsonObject& record)
{
    if (!isRecording())
        return;
    const QJsonValue t = record.value(QLatin1String("t_ns"));
    const qint64 tNs =
        t.isDouble() ? qint64(t.toDouble()) : (t.isString() ? t.toString().toLongLong() : nowNs());
    const QJsonObject usage = record.value(QLatin1String("usage")).toObject();
    if (!usage.isEmpty()) {
        m_inputTokens = saturatedAdd(m_inputTokens, usage.value(QLatin1String("input_tokens")).toDouble());
        m_outputTokens = saturatedAdd(m_outputTokens, usage.value(QLatin1String("output_tokens")).toDouble());
        const double cost = usage.value(QLatin1String("cost_usd")).toDouble();
        if (cost > 0 && std::isfinite(cost))
            m_costUsd += cost;
        ++m_modelCalls;
    }
    append(m_director, tNs, cappedStrings(maskedRecord(record)).toObject(), m_stats.directorRecords);
}

ZoneMapPtr SessionWriter::maskedMap(const ZoneMapPtr& map) const
{
    if (!m_options.maskPasswords)
        return map;
    const auto& zones = map->zones();
    if (std::none_of(zones.cbegin(), zones.cend(), [](const Zone& z) { return z.isPassword; }))
        return map;
    QList<Zone> copy = zones;
    for (Zone& z : copy) {
        if (z.isPassword && !z.label.isEmpty())
            z.label = maskedText(z.label);
    }
    return std::make_shared<const ZoneMap>(map->version(), map->tNs(), map->screenSize(), copy);
}

QJsonObject SessionWriter::maskedRecord(const QJsonObject& record) const
{
    if (!m_options.maskPasswords || !m_zoneMap)
        return record;
    // Any object naming a password zone ("zone_id"/"zone") has its "text" masked, at any depth (an action
    // the Director decided on, a tool call's input...).
    QJsonObject out = record;
    const QString zone =
        out.value(QLatin1String("zone_id")).toString(out.value(QLatin1String("zone")).toString());
    if (isPasswordZone(zone) && out.value(QLatin1String("text")).isString()) {
        out[QLatin1String("text")] = maskedText(out.value(QLatin1String("text")).toString());
        out[QLatin1String("masked")] = true;
    }
    for (auto it = out.begin(); it != out.end(); ++it) {
        if (it->isObject()) {
            *it = maskedRecord(it->toObject());
        } else if (it->isArray()) {
            QJsonArray array = it->toArray();
            for (auto e = array.begin(); e != array.end(); ++e) {
                if (e->isObject())
                    *e = maskedRecord(e->toObject());
            }
            *it = array;
        }
    }
    return out;
}

void SessionWriter::writeKeyFrame(const Frame& frame, const QString& reason)
{
    if (!isRecording() || !frame.isValid())
        return;
    const QString file = keyFrameFile(frame.index);
    if (!m_keyFramesWritten.contains(frame.index)) {
        const QString path = m_path + QLatin1Char('/') + file;
        // Quality 80 means light zlib compression: fast enough for the recorder thread.
        if (!masked(frame.image, frame.origin).save(path, "PNG", 80)) {
            fail(QStringLiteral("cannot write the key frame %1").arg(path));
            return;
        }
        m_keyFramesWritten.insert(frame.index);
        m_keyFrameBytes += QFileInfo(path).size();
    }
    append(m_keyFramesIndex, frame.tNs,
           QJsonObject{{QLatin1String("file"), file},
                       {QLatin1String("frame_index"), double(frame.index)},
                       {QLatin1String("reason"), reason},
                       {QLatin1String("origin"), QJsonArray{frame.origin.x(), frame.origin.y()}}},
           m_stats.keyFrames);
}

void SessionWriter::setTask(const QString& task)
{
    if (m_tasks.isEmpty() && !m_options.task.isEmpty() && m_options.task != task)
        m_tasks << m_options.task;
    m_tasks << task;
    m_options.task = task;
    if (isRecording() && !writeMetadata())
        fail(m_metadataError);
}

void SessionWriter::setOutcome(const QString& outcome, const QString& detail)
{
    m_outcome = outcome;
    m_outcomeDetail = detail;
    if (isRecording()) {
        if (!writeMetadata())
            fail(m_metadataError);
    } else if (m_state == State::Failed && m_metadataWritten && !writeMetadata()) {
        // The recording stopped (disk full, size budget) but the task's outcome still belongs in the session.
        qCDebug(lcRecorder).noquote() << m_metadataError << "(the previous metadata.json is kept)";
    }
}

QJsonObject SessionWriter::metadataJson() const
{
    auto stateName = [this] {
        switch (m_state) {
        case State::Idle:
        case State::Recording:
            return QStringLiteral("recording");
        case State::Finished:
            return QStringLiteral("finished");
        case State::Failed:
            return QStringLiteral("failed");
        }
        return QStringLiteral("recording");
    };
    QJsonObject o;
    o[QLatin1String("format")] = QStringLiteral("ciu-session");
    o[QLatin1String("format_version")] = kFormatVersion;
    o[QLatin1String("task")] = m_options.task;
    o[QLatin1String("tasks")] = QJsonArray::fromStringList(
        m_tasks.isEmpty() && !m_options.task.isEmpty() ? QStringList{m_options.task} : m_tasks);
    o[QLatin1String("config")] = m_options.config;
    o[QLatin1String("versions")] = QJsonObject{
        {QLatin1String("ciu_agent"), QStringLiteral(CIU_VERSION)},
        {QLatin1String("qt"), QString::fromLatin1(qVersion())},
        {QLatin1String("libavcodec"), QString::fromLatin1(AV_STRINGIFY(LIBAVCODEC_VERSION))},
        {QLatin1String("libavformat"), QString::fromLatin1(AV_STRINGIFY(LIBAVFORMAT_VERSION))},
    };
    o[QLatin1String("screen")] = QJsonObject{{QLatin1String("width"), m_screenSize.width()},
                                             {QLatin1String("height"), m_screenSize.height()}};
    o[QLatin1String("start")] = isoTime(m_startTime);
    o[QLatin1String("start_epoch_ms")] = double(m_options.clock.startEpochMs());
    o[QLatin1String("end")] = isoTime(m_endTime);
    o[QLatin1String("duration_ns")] = double(m_lastTNs);
    o[QLatin1String("outcome")] =
        QJsonObject{{QLatin1String("status"), m_outcome}, {QLatin1String("detail"), m_outcomeDetail}};
    o[QLatin1String("usage")] = QJsonObject{{QLatin1String("input_tokens"), double(m_inputTokens)},
                                            {QLatin1String("output_tokens"), double(m_outputTokens)},
                                            {QLatin1String("cost_usd"), m_costUsd},
                                            {QLatin1String("model_calls"), double(m_modelCalls)}};
    o[QLatin1String("recording")] = QJsonObject{
        {QLatin1String("state"), stateName()},
        {QLatin1String("error"), m_error},
        {QLatin1String("video"), m_video ? files::video : QString()},
        {QLatin1String("encoder"), m_video ? m_video->encoderName() : QString()},
        {QLatin1String("max_fps"), m_options.maxFps},
        {QLatin1String("key_frame_interval_ms"), m_options.keyFrameIntervalMs},
        {QLatin1String("frames_received"), double(m_stats.framesReceived)},
        {QLatin1String("frames_encoded"), double(m_stats.framesEncoded)},
        {QLatin1String("frames_dropped"), double(m_stats.framesDropped)},
        {QLatin1String("frames_unchanged"), double(m_stats.framesUnchanged)},
        {QLatin1String("password_mask"), m_options.maskPasswords},
        // Who records: a reader tells a session still being recorded from one whose recorder died.
        {QLatin1String("pid"), double(QCoreApplication::applicationPid())},
        {QLatin1String("host"), QSysInfo::machineHostName()},
    };
    return scrubbed(o);
}

bool SessionWriter::writeMetadata()
{
    if (m_path.isEmpty())
        return false;
    const QByteArray data = QJsonDocument(metadataJson()).toJson(QJsonDocument::Indented);
    if (!writeFileAtomically(m_path + QLatin1Char('/') + files::metadata, data, &m_metadataError))
        return false;
    m_metadataWritten = true;
    return true;
}

} // namespace ciu::replay
