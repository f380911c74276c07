#include "core/replay/sessionreader.h"

#include "core/model/action.h"
#include "core/replay/replaylog.h"
#include "core/replay/sessionformat.h"
#include "core/replay/videodecoder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSysInfo>

#include <algorithm>
#include <cerrno>
#include <csignal>

namespace ciu::replay {
namespace {

// The actions a Director record is about, readable: "left_click zone z49 (executed)". Records carry them as
// {"action": Action} (requests), {"action": {"action": Action, "description": ...}} (outcomes, verifications)
// or {"actions": [...]} (decisions). Empty when the record names no action.
QString actionText(const QJsonObject& entry)
{
    const QString description = entry.value(QLatin1String("description")).toString();
    if (!description.isEmpty())
        return description;
    if (entry.value(QLatin1String("action")).isObject())
        return actionText(entry.value(QLatin1String("action")).toObject());
    if (const auto action = Action::fromJson(entry))
        return action->describe();
    return {};
}

QString actionsSummary(const QJsonObject& record)
{
    QStringList parts;
    if (record.value(QLatin1String("action")).isObject())
        parts << actionText(record.value(QLatin1String("action")).toObject());
    for (const QJsonValue& v : record.value(QLatin1String("actions")).toArray())
        parts << actionText(v.toObject());
    parts.removeAll(QString());
    if (parts.isEmpty())
        return {};
    QString text = parts.join(QLatin1String("; "));
    QStringList state;
    const QString status = record.value(QLatin1String("status")).toString();
    if (!status.isEmpty())
        state << status;
    if (record.value(QLatin1String("met")).isBool())
        state << (record.value(QLatin1String("met")).toBool() ? QStringLiteral("met")
                                                              : QStringLiteral("not met"));
    const QString message = record.value(QLatin1String("message")).toString();
    if (!message.isEmpty() && message != status)
        state << message;
    if (!state.isEmpty())
        text += QStringLiteral(" (") + state.join(QLatin1String(", ")) + QLatin1Char(')');
    return text;
}

constexpr int kMaxProblemsPerFile = 5;
constexpr qint64 kMaxMetadataBytes = 16 * 1024 * 1024;

// A JSON number as a time or count: NaN, negative or beyond 2^62 is clamped (a cast would be undefined).
qint64 clampedInteger(double v)
{
    if (!(v > 0))
        return 0;
    return v >= 4.0e18 ? qint64(4'000'000'000'000'000'000) : qint64(v);
}

// Why `path` cannot be read as a plain file (a FIFO or a device would block or never end), or empty.
QString notARegularFile(const QString& path)
{
    const QFileInfo info(path);
    if (info.exists() && !info.isFile())
        return info.isDir() ? QStringLiteral("is a folder, not a file")
                            : QStringLiteral("is not a regular file (a pipe, socket or device)");
    return {};
}

// The recording process named in metadata.json is running on this machine.
bool recorderAlive(const QJsonObject& recording)
{
    const double pid = recording.value(QLatin1String("pid")).toDouble(0);
    if (!(pid > 0 && pid < 4194304) ||
        recording.value(QLatin1String("host")).toString() != QSysInfo::machineHostName())
        return false;
    return ::kill(pid_t(pid), 0) == 0 || errno == EPERM;
}

QString jsonKind(const QJsonDocument& doc)
{
    return doc.isArray() ? QStringLiteral("an array") : QStringLiteral("not an object");
}

template<typename T> qsizetype countAtOrBefore(const QList<T>& list, qint64 tNs)
{
    const auto it =
        std::upper_bound(list.cbegin(), list.cend(), tNs, [](qint64 t, const T& x) { return t < x.tNs; });
    return it - list.cbegin();
}

template<typename T> void sortByTime(QList<T>& list)
{
    std::stable_sort(list.begin(), list.end(), [](const T& a, const T& b) { return a.tNs < b.tNs; });
}

QString oneLine(QString text, int maxChars = 160)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    if (text.size() > maxChars)
        text = text.left(maxChars - 1) + QChar(0x2026);
    return text;
}

} // namespace

QString toString(Marker::Kind kind)
{
    switch (kind) {
    case Marker::Kind::Click:
        return QStringLiteral("click");
    case Marker::Kind::Typing:
        return QStringLiteral("typing");
    case Marker::Kind::Analysis:
        return QStringLiteral("analysis");
    case Marker::Kind::ModelCall:
        return QStringLiteral("model_call");
    case Marker::Kind::Error:
        return QStringLiteral("error");
    case Marker::Kind::Takeover:
        return QStringLiteral("takeover");
    case Marker::Kind::Action:
        return QStringLiteral("action");
    case Marker::Kind::Decision:
        return QStringLiteral("decision");
    }
    return QStringLiteral("action");
}

SessionReader::SessionReader() = default;
SessionReader::~SessionReader() = default;

bool SessionReader::open(const QString& dir)
{
    m_problems.clear();
    m_metadata = {};
    m_durationNs = 0;
    m_cursor.clear();
    m_zones = ZoneJournal();
    m_events.clear();
    m_actions.clear();
    m_director.clear();
    m_keyFrames.clear();
    m_markers.clear();
    m_log.clear();
    m_video.reset();
    m_path = QDir(dir).absolutePath();
    const QFileInfo info(m_path);
    if (!info.exists()) {
        problem(QStringLiteral("the session folder %1 does not exist").arg(m_path));
        return false;
    }
    if (!info.isDir() || !info.isReadable()) {
        problem(QStringLiteral("%1 is not a readable folder").arg(m_path));
        return false;
    }
    readMetadata();

    readJsonl(files::cursor, true, [this](qint64 t, const QJsonObject& o, QString* error) {
        if (!o.value(QLatin1String("x")).isDouble() || !o.value(QLatin1String("y")).isDouble()) {
            *error = QStringLiteral("no x/y");
            return false;
        }
        CursorSample s;
        s.tNs = t;
        s.pos = QPoint(o.value(QLatin1String("x")).toInt(), o.value(QLatin1String("y")).toInt());
        s.shape = o.contains(QLatin1String("shape"))
                      ? o.value(QLatin1String("shape")).toString()
                      : (m_cursor.isEmpty() ? QString() : m_cursor.last().shape);
        m_cursor << s;
        return true;
    });
    readJsonl(files::zones, true, [this](qint64 t, const QJsonObject& o, QString* error) {
        return m_zones.addLine(t, o, error);
    });
    readJsonl(files::events, true, [this](qint64 t, const QJsonObject& o, QString* error) {
        auto e = SpatialEvent::fromJson(o);
        if (!e) {
            *error = QStringLiteral("not a spatial event (kind \"%1\")")
                         .arg(o.value(QLatin1String("kind")).toString());
            return false;
        }
        e->tNs = t;
        m_events << *e;
        return true;
    });
    readJsonl(files::actions, true, [this](qint64 t, const QJsonObject& o, QString* error) {
        if (!o.value(QLatin1String("action")).isObject()) {
            *error = QStringLiteral("no action");
            return false;
        }
        ActionRecord r;
        r.tNs = t;
        r.action = o.value(QLatin1String("action")).toObject();
        r.result = o.value(QLatin1String("result")).toObject();
        r.description = o.value(QLatin1String("description")).toString();
        if (r.description.isEmpty())
            r.description = r.action.value(QLatin1String("action")).toString();
        r.success = r.result.value(QLatin1String("success")).toBool();
        m_actions << r;
        return true;
    });
    readJsonl(files::director, true, [this](qint64 t, const QJsonObject& o, QString*) {
        DirectorRecord r;
        r.tNs = t;
        r.json = o;
        r.type = o.value(QLatin1String("type")).toString(QStringLiteral("record"));
        QString text;
        for (const char* key : {"summary", "decision", "reasoning", "text", "reply", "prompt", "error"}) {
            const QJsonValue v = o.value(QLatin1String(key));
            if (v.isString() && !v.toString().isEmpty()) {
                text = v.toString();
                break;
            }
        }
        if (text.isEmpty())
            text = actionsSummary(o);
        if (text.isEmpty()) {
            QJsonObject rest = o;
            rest.remove(QLatin1String("t_ns"));
            rest.remove(QLatin1String("type"));
            text = QString::fromUtf8(QJsonDocument(rest).toJson(QJsonDocument::Compact));
        }
        r.summary = oneLine(text);
        m_director << r;
        return true;
    });
    readJsonl(files::framesIndex, false, [this](qint64 t, const QJsonObject& o, QString* error) {
        KeyFrameRecord r;
        r.tNs = t;
        r.file = o.value(QLatin1String("file")).toString();
        if (r.file.isEmpty() || r.file.contains(QLatin1String(".."))) {
            *error = QStringLiteral("no valid file name");
            return false;
        }
        r.frameIndex = quint64(clampedInteger(o.value(QLatin1String("frame_index")).toDouble()));
        r.reason = o.value(QLatin1String("reason")).toString();
        const QJsonArray origin = o.value(QLatin1String("origin")).toArray();
        if (origin.size() == 2)
            r.origin = QPoint(origin.at(0).toInt(), origin.at(1).toInt());
        m_keyFrames << r;
        return true;
    });
    sortByTime(m_cursor);
    sortByTime(m_events);
    sortByTime(m_actions);
    sortByTime(m_director);
    sortByTime(m_keyFrames);

    // Video
    const QString video = videoPath();
    if (!QFileInfo::exists(video)) {
        if (m_metadata.value(QLatin1String("recording"))
                .toObject()
                .value(QLatin1String("video"))
                .toString()
                .isEmpty() &&
            QFileInfo::exists(m_path + QLatin1Char('/') + files::metadata))
            qCDebug(lcReader) << "the session has no video";
        else
            problem(QStringLiteral("%1 is missing: no video frames").arg(files::video));
    } else if (const QString why = notARegularFile(video); !why.isEmpty()) {
        problem(QStringLiteral("%1 %2: no video frames").arg(files::video, why));
    } else {
        m_video = std::make_unique<VideoDecoder>();
        if (!m_video->open(video)) {
            problem(QStringLiteral("%1 cannot be read (%2): no video frames")
                        .arg(files::video, m_video->errorString()));
            m_video.reset();
        }
    }

    // Duration: the last moment anything was recorded.
    qint64 end = clampedInteger(m_metadata.value(QLatin1String("duration_ns")).toDouble());
    if (!m_cursor.isEmpty())
        end = qMax(end, m_cursor.last().tNs);
    if (!m_events.isEmpty())
        end = qMax(end, m_events.last().tNs);
    if (!m_actions.isEmpty())
        end = qMax(end, m_actions.last().tNs);
    if (!m_director.isEmpty())
        end = qMax(end, m_director.last().tNs);
    if (m_zones.entryCount() > 0)
        end = qMax(end, m_zones.times().last());
    if (m_video) {
        const qint64 videoMs = m_video->durationMs();
        if (videoMs > 0)
            end = qMax(end, videoMs * 1'000'000);
    }
    m_durationNs = end;
    buildMarkersAndLog();
    return true;
}

void SessionReader::readMetadata()
{
    QFile file(m_path + QLatin1Char('/') + files::metadata);
    if (const QString why = notARegularFile(file.fileName()); !why.isEmpty()) {
        problem(QStringLiteral("%1 %2: no task, outcome or costs").arg(files::metadata, why));
        return;
    }
    if (file.size() > kMaxMetadataBytes) {
        problem(
            QStringLiteral("%1 is %2 bytes, more than a session's metadata can be: no task, outcome or costs")
                .arg(files::metadata)
                .arg(file.size()));
        return;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        problem(
            QStringLiteral("%1 is missing or unreadable: no task, outcome or costs").arg(files::metadata));
        return;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError) {
        problem(QStringLiteral("%1 is corrupt (%2 at offset %3): no task, outcome or costs")
                    .arg(files::metadata, error.errorString())
                    .arg(error.offset));
        return;
    }
    if (!doc.isObject()) {
        problem(QStringLiteral("%1 is corrupt (valid JSON, but %2 where an object is expected): no task, "
                               "outcome or costs")
                    .arg(files::metadata, jsonKind(doc)));
        return;
    }
    m_metadata = doc.object();
    // No outcome: either the recorder is still at work, or it was killed before it could write one.
    QJsonObject outcome = m_metadata.value(QLatin1String("outcome")).toObject();
    if (outcome.value(QLatin1String("status")).toString().isEmpty()) {
        const QJsonObject recording = m_metadata.value(QLatin1String("recording")).toObject();
        const bool live = recording.value(QLatin1String("state")).toString() == QLatin1String("recording") &&
                          recorderAlive(recording);
        outcome[QLatin1String("status")] = live ? QStringLiteral("recording") : QStringLiteral("interrupted");
        if (outcome.value(QLatin1String("detail")).toString().isEmpty())
            outcome[QLatin1String("detail")] =
                live ? QStringLiteral("the session is still being recorded")
                     : QStringLiteral("the agent ended without recording an outcome (killed, crashed or the "
                                      "machine stopped)");
        m_metadata[QLatin1String("outcome")] = outcome;
    }
}

void SessionReader::readJsonl(const QString& name, bool required, const LineHandler& handler)
{
    QFile file(m_path + QLatin1Char('/') + name);
    if (!file.exists()) {
        if (required)
            problem(QStringLiteral("%1 is missing").arg(name));
        return;
    }
    if (const QString why = notARegularFile(file.fileName()); !why.isEmpty()) {
        problem(QStringLiteral("%1 %2; skipped").arg(name, why));
        return;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        problem(QStringLiteral("%1 cannot be read: %2").arg(name, file.errorString()));
        return;
    }
    const QByteArray data = file.readAll();
    qsizetype start = 0;
    int lineNumber = 0;
    int bad = 0;
    auto report = [&](const QString& text) {
        ++bad;
        if (bad <= kMaxProblemsPerFile)
            problem(text);
    };
    while (start < data.size()) {
        qsizetype end = data.indexOf('\n', start);
        const bool truncated = end < 0;
        if (truncated)
            end = data.size();
        ++lineNumber;
        const QByteArray line = data.mid(start, end - start).trimmed();
        start = end + 1;
        if (line.isEmpty())
            continue;
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
        if (error.error != QJsonParseError::NoError || !doc.isObject()) {
            report(truncated
                       ? QStringLiteral("%1 line %2 is truncated (the recorder stopped mid-line); skipped")
                             .arg(name)
                             .arg(lineNumber)
                       : QStringLiteral("%1 line %2 is corrupt (%3); skipped")
                             .arg(name)
                             .arg(lineNumber)
                             .arg(error.error != QJsonParseError::NoError
                                      ? error.errorString()
                                      : QStringLiteral("valid JSON, but %1 where an object is expected")
                                            .arg(jsonKind(doc))));
            continue;
        }
        const QJsonObject object = doc.object();
        const QJsonValue t = object.value(QLatin1String("t_ns"));
        if (!t.isDouble()) {
            report(QStringLiteral("%1 line %2 has no t_ns; skipped").arg(name).arg(lineNumber));
            continue;
        }
        QString lineError;
        if (!handler(clampedInteger(t.toDouble()), object, &lineError))
            report(QStringLiteral("%1 line %2: %3; skipped").arg(name).arg(lineNumber).arg(lineError));
    }
    if (bad > kMaxProblemsPerFile)
        problem(QStringLiteral("%1: %2 more bad lines skipped").arg(name).arg(bad - kMaxProblemsPerFile));
}

QString SessionReader::task() const
{
    return m_metadata.value(QLatin1String("task")).toString();
}

QSize SessionReader::screenSize() const
{
    const QJsonObject screen = m_metadata.value(QLatin1String("screen")).toObject();
    QSize size(screen.value(QLatin1String("width")).toInt(), screen.value(QLatin1String("height")).toInt());
    if (size.isEmpty() && m_video)
        size = m_video->size();
    return size;
}

std::optional<CursorSample> SessionReader::cursorAt(qint64 tNs) const
{
    const qsizetype n = countAtOrBefore(m_cursor, tNs);
    if (n == 0)
        return std::nullopt;
    return m_cursor.at(n - 1);
}

QList<CursorSample> SessionReader::cursorTrail(qint64 tNs, qint64 windowNs) const
{
    const qsizetype end = countAtOrBefore(m_cursor, tNs);
    const qsizetype begin = countAtOrBefore(m_cursor, tNs - windowNs);
    return m_cursor.mid(begin, end - begin);
}

qsizetype SessionReader::eventCountAt(qint64 tNs) const
{
    return countAtOrBefore(m_events, tNs);
}

std::optional<DirectorRecord> SessionReader::directorStepAt(qint64 tNs) const
{
    const qsizetype n = countAtOrBefore(m_director, tNs);
    if (n == 0)
        return std::nullopt;
    return m_director.at(n - 1);
}

QImage SessionReader::keyFrameImage(const KeyFrameRecord& record) const
{
    const QString path = m_path + QLatin1Char('/') + record.file;
    if (!notARegularFile(path).isEmpty())
        return {};
    return QImage(path);
}

bool SessionReader::hasVideo() const
{
    return m_video != nullptr;
}

QString SessionReader::videoPath() const
{
    return m_path + QLatin1Char('/') + files::video;
}

QSize SessionReader::videoSize() const
{
    return m_video ? m_video->size() : QSize();
}

QImage SessionReader::frameAt(qint64 tNs, qint64* frameTNs)
{
    if (!m_video)
        return {};
    qint64 ptsMs = 0;
    QImage image = m_video->frameAt(tNs / 1'000'000, &ptsMs);
    if (frameTNs)
        *frameTNs = ptsMs * 1'000'000;
    return image;
}

std::optional<qint64> SessionReader::nextFrameTime(qint64 tNs)
{
    if (!m_video)
        return std::nullopt;
    qint64 ptsMs = 0;
    if (m_video->frameAt(tNs / 1'000'000, &ptsMs).isNull())
        return std::nullopt;
    const qint64 next = m_video->peekNextPtsMs();
    if (next < 0)
        return std::nullopt;
    return next * 1'000'000;
}

std::optional<qint64> SessionReader::previousFrameTime(qint64 tNs)
{
    if (!m_video)
        return std::nullopt;
    qint64 currentMs = 0;
    if (m_video->frameAt(tNs / 1'000'000, &currentMs).isNull())
        return std::nullopt;
    qint64 previousMs = 0;
    if (m_video->frameAt(currentMs - 1, &previousMs).isNull() || previousMs >= currentMs)
        return std::nullopt;
    return previousMs * 1'000'000;
}

void SessionReader::buildMarkersAndLog()
{
    for (const SpatialEvent& e : std::as_const(m_events)) {
        std::optional<Marker::Kind> kind;
        QString label = toString(e.kind);
        switch (e.kind) {
        case SpatialEvent::Kind::ZoneClick:
            kind = Marker::Kind::Click;
            break;
        case SpatialEvent::Kind::ZoneType:
            kind = Marker::Kind::Typing;
            break;
        case SpatialEvent::Kind::Analysis:
            if (e.data.value(QStringLiteral("tier")).toInt() >= 2)
                kind = Marker::Kind::Analysis;
            break;
        case SpatialEvent::Kind::ModelCall:
            kind = Marker::Kind::ModelCall;
            break;
        case SpatialEvent::Kind::Error:
            kind = Marker::Kind::Error;
            break;
        case SpatialEvent::Kind::Takeover:
            kind = Marker::Kind::Takeover;
            break;
        default:
            break;
        }
        if (kind)
            m_markers << Marker{e.tNs, *kind, label};
        QString text = e.data.value(QStringLiteral("text")).toString();
        if (text.isEmpty())
            text = e.data.value(QStringLiteral("reason")).toString();
        if (text.isEmpty() && !e.data.isEmpty())
            text = QString::fromUtf8(
                QJsonDocument(QJsonObject::fromVariantMap(e.data)).toJson(QJsonDocument::Compact));
        m_log << LogEntry{e.tNs,    LogEntry::Source::Event, toString(e.kind),
                          e.zoneId, oneLine(text),           e.kind == SpatialEvent::Kind::Error};
    }
    for (const ActionRecord& a : std::as_const(m_actions)) {
        const QString name = a.action.value(QLatin1String("action")).toString();
        Marker::Kind kind = Marker::Kind::Action;
        if (!a.success)
            kind = Marker::Kind::Error;
        else if (name.endsWith(QLatin1String("click")))
            kind = Marker::Kind::Click;
        else if (name == QLatin1String("type") || name == QLatin1String("key"))
            kind = Marker::Kind::Typing;
        m_markers << Marker{a.tNs, kind, a.description};
        QString text = a.description;
        if (!a.success)
            text += QStringLiteral(" — failed: ") + a.result.value(QLatin1String("error")).toString();
        m_log << LogEntry{a.tNs,         LogEntry::Source::Action,
                          name,          a.action.value(QLatin1String("zone_id")).toString(),
                          oneLine(text), !a.success};
    }
    for (const DirectorRecord& r : std::as_const(m_director)) {
        const bool error = r.type == QLatin1String("error") || r.json.contains(QLatin1String("error"));
        const bool call = r.json.contains(QLatin1String("usage")) || r.type == QLatin1String("model_call");
        if (error)
            m_markers << Marker{r.tNs, Marker::Kind::Error, r.summary};
        else if (call)
            m_markers << Marker{r.tNs, Marker::Kind::ModelCall, r.summary};
        else if (r.type == QLatin1String("decision"))
            m_markers << Marker{r.tNs, Marker::Kind::Decision, r.summary};
        m_log << LogEntry{r.tNs, LogEntry::Source::Director, r.type, {}, r.summary, error};
    }
    sortByTime(m_markers);
    sortByTime(m_log);
}

} // namespace ciu::replay
