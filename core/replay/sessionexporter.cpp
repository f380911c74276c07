#include "core/replay/sessionexporter.h"

#include "core/model/secrets.h"
#include "core/replay/exporttarget.h"
#include "core/replay/overlaypainter.h"
#include "core/replay/replaylog.h"
#include "core/replay/sessionformat.h"
#include "core/replay/sessionreader.h"
#include "core/replay/videodecoder.h"
#include "core/replay/videoencoder.h"

#include <QBuffer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QPainter>
#include <QSaveFile>

namespace ciu::replay {
namespace {

constexpr int kMaxReportImages = 60;
constexpr int kReportImageWidth = 960;

QString formatTime(qint64 tNs)
{
    const qint64 ms = tNs / 1'000'000;
    return QStringLiteral("%1:%2.%3")
        .arg(ms / 60000)
        .arg((ms / 1000) % 60, 2, 10, QLatin1Char('0'))
        .arg(ms % 1000, 3, 10, QLatin1Char('0'));
}

QString esc(const QString& text)
{
    return scrubSecrets(text).toHtmlEscaped();
}

// The frame with the zones of its moment drawn, as a data: URL.
QString annotatedImage(const QImage& frame, QPoint origin, SessionReader& reader, qint64 tNs)
{
    QImage image = frame.convertToFormat(QImage::Format_RGB32);
    {
        QPainter painter(&image);
        painter.translate(-origin);
        if (const ZoneMapPtr map = reader.zoneMapAt(tNs))
            paintZones(painter, *map);
        paintCursorTrail(painter, reader.cursorTrail(tNs, 2'000'000'000), tNs);
    }
    if (image.width() > kReportImageWidth)
        image = image.scaledToWidth(kReportImageWidth, Qt::SmoothTransformation);
    QByteArray jpeg;
    QBuffer buffer(&jpeg);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "JPEG", 80);
    return QStringLiteral("data:image/jpeg;base64,") + QString::fromLatin1(jpeg.toBase64());
}

bool fail(QString* error, const QString& message)
{
    if (error)
        *error = message;
    qCWarning(lcExport) << message;
    return false;
}

} // namespace

bool exportHtmlReport(SessionReader& reader, const QString& file, QString* error,
                      const ExportProgress& progress)
{
    if (const QString why = exportTargetProblem(reader, file); !why.isEmpty())
        return fail(error, why);
    const QJsonObject meta = reader.metadata();
    const QJsonObject usage = meta.value(QLatin1String("usage")).toObject();
    const QJsonObject outcome = meta.value(QLatin1String("outcome")).toObject();

    // The pictures: the recorded key frames, else video frames at the actions and decisions.
    struct Picture
    {
        qint64 tNs;
        QString caption;
        QImage image;
        QPoint origin;
    };
    QList<Picture> pictures;
    const QList<KeyFrameRecord>& keyFrames = reader.keyFrames();
    const qint64 total =
        qMin<qint64>(kMaxReportImages, keyFrames.isEmpty() ? reader.log().size() : keyFrames.size());
    qint64 done = 0;
    auto step = [&] { return !progress || progress(++done, qMax<qint64>(total, 1)); };
    if (!keyFrames.isEmpty()) {
        for (const KeyFrameRecord& k : keyFrames) {
            if (pictures.size() >= kMaxReportImages)
                break;
            pictures << Picture{k.tNs, k.reason, reader.keyFrameImage(k), k.origin};
            if (!step())
                return fail(error, QStringLiteral("export cancelled"));
        }
    } else if (reader.hasVideo()) {
        for (const LogEntry& e : reader.log()) {
            if (pictures.size() >= kMaxReportImages)
                break;
            if (e.source == LogEntry::Source::Event)
                continue;
            pictures << Picture{e.tNs, e.kind + QStringLiteral(": ") + e.text, reader.frameAt(e.tNs), {}};
            if (!step())
                return fail(error, QStringLiteral("export cancelled"));
        }
    }

    QString html;
    html +=
        QStringLiteral(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>CIU Agent session "
            "%1</title>\n"
            "<style>body{font-family:sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:"
            "1em 0}"
            "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top;font-size:90%}"
            "th{background:#eee}.error{color:#b00020}.problems{background:#fff3cd;padding:.5em "
            "1em;border:1px solid #e0c060}"
            "figure{margin:1em 0}figcaption{font-size:90%;color:#555}img{max-width:100%;border:1px solid "
            "#999}"
            "code{white-space:pre-wrap}</style></head><body>\n")
            .arg(esc(QFileInfo(reader.path()).fileName()));
    html += QStringLiteral("<h1>Session %1</h1>\n").arg(esc(QFileInfo(reader.path()).fileName()));
    html += QStringLiteral("<table>");
    auto row = [&](const QString& key, const QString& value) {
        html += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>").arg(key.toHtmlEscaped(), value);
    };
    row(QStringLiteral("Task"), esc(reader.task()));
    row(QStringLiteral("Start"), esc(meta.value(QLatin1String("start")).toString()));
    row(QStringLiteral("End"), esc(meta.value(QLatin1String("end")).toString()));
    row(QStringLiteral("Duration"), formatTime(reader.durationNs()));
    row(QStringLiteral("Outcome"), esc(outcome.value(QLatin1String("status")).toString() + QLatin1Char(' ') +
                                       outcome.value(QLatin1String("detail")).toString()));
    row(QStringLiteral("Screen"),
        QStringLiteral("%1 × %2").arg(reader.screenSize().width()).arg(reader.screenSize().height()));
    row(QStringLiteral("Model calls"), QString::number(usage.value(QLatin1String("model_calls")).toDouble()));
    row(QStringLiteral("Tokens"), QStringLiteral("%1 in, %2 out")
                                      .arg(usage.value(QLatin1String("input_tokens")).toDouble())
                                      .arg(usage.value(QLatin1String("output_tokens")).toDouble()));
    row(QStringLiteral("Cost"),
        QStringLiteral("$%1").arg(usage.value(QLatin1String("cost_usd")).toDouble(), 0, 'f', 4));
    row(QStringLiteral("Events / actions / decisions"), QStringLiteral("%1 / %2 / %3")
                                                            .arg(reader.events().size())
                                                            .arg(reader.actions().size())
                                                            .arg(reader.directorRecords().size()));
    html += QStringLiteral("</table>\n");

    // Every task the session holds (the app runs several in one recording), with how each ended.
    QStringList tasks;
    for (const DirectorRecord& r : reader.directorRecords()) {
        if (r.type == QLatin1String("task_started")) {
            tasks << QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td></tr>")
                         .arg(formatTime(r.tNs), esc(r.json.value(QLatin1String("task")).toString()),
                              QStringLiteral("—"));
        } else if (r.type == QLatin1String("finished") && !tasks.isEmpty()) {
            const QString ended =
                r.json.value(QLatin1String("outcome")).toString() +
                (r.json.value(QLatin1String("dry_run")).toBool() ? QStringLiteral(" (dry run)") : QString()) +
                QStringLiteral(": ") + r.json.value(QLatin1String("message")).toString();
            tasks.last().replace(QStringLiteral("<td>—</td>"), QStringLiteral("<td>%1</td>").arg(esc(ended)));
        }
    }
    if (!tasks.isEmpty()) {
        html += QStringLiteral("<h2>Tasks</h2>\n<table><tr><th>Time</th><th>Task</th><th>Result</th></tr>");
        html += tasks.join(QString());
        html += QStringLiteral("</table>\n");
    }

    if (!reader.problems().isEmpty()) {
        html += QStringLiteral("<div class=\"problems\"><b>Problems reading this session</b><ul>");
        for (const QString& p : reader.problems())
            html += QStringLiteral("<li>%1</li>").arg(esc(p));
        html += QStringLiteral("</ul></div>\n");
    }

    html += QStringLiteral("<h2>Decisions</h2>\n");
    if (reader.directorRecords().isEmpty())
        html += QStringLiteral("<p>No Director records.</p>\n");
    for (const DirectorRecord& r : reader.directorRecords()) {
        html += QStringLiteral("<details><summary>%1 <b>%2</b> %3</summary><code>%4</code></details>\n")
                    .arg(formatTime(r.tNs), esc(r.type), esc(r.summary),
                         esc(QString::fromUtf8(QJsonDocument(r.json).toJson(QJsonDocument::Indented))));
    }

    html += QStringLiteral("<h2>Key frames</h2>\n");
    if (pictures.isEmpty())
        html += QStringLiteral("<p>No key frames.</p>\n");
    for (const Picture& p : std::as_const(pictures)) {
        if (p.image.isNull()) {
            html += QStringLiteral("<p class=\"error\">%1: frame missing</p>\n").arg(formatTime(p.tNs));
            continue;
        }
        const auto decision = reader.directorStepAt(p.tNs);
        html +=
            QStringLiteral(
                "<figure><img alt=\"frame at %1\" src=\"%2\"><figcaption>%1 — %3%4</figcaption></figure>\n")
                .arg(formatTime(p.tNs), annotatedImage(p.image, p.origin, reader, p.tNs), esc(p.caption),
                     decision ? QStringLiteral("<br>Director: ") + esc(decision->summary) : QString());
    }

    html += QStringLiteral("<h2>Steps</h2>\n<table><tr><th>Time</th><th>Source</th><th>Kind</th><th>Zone</"
                           "th><th>Detail</th></tr>\n");
    for (const LogEntry& e : reader.log()) {
        const QString source = e.source == LogEntry::Source::Event    ? QStringLiteral("event")
                               : e.source == LogEntry::Source::Action ? QStringLiteral("action")
                                                                      : QStringLiteral("director");
        html += QStringLiteral("<tr%1><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td></tr>\n")
                    .arg(e.error ? QStringLiteral(" class=\"error\"") : QString(), formatTime(e.tNs), source,
                         esc(e.kind), esc(e.zoneId), esc(e.text));
    }
    html += QStringLiteral("</table>\n</body></html>\n");

    QSaveFile out(file);
    if (!out.open(QIODevice::WriteOnly))
        return fail(error, QStringLiteral("cannot write %1: %2").arg(file, out.errorString()));
    const QByteArray bytes = html.toUtf8();
    if (out.write(bytes) != bytes.size() || !out.commit())
        return fail(error, QStringLiteral("cannot write %1: %2").arg(file, out.errorString()));
    return true;
}

bool exportOverlayVideo(SessionReader& reader, const QString& file, QString* error,
                        const ExportProgress& progress)
{
    if (const QString why = exportTargetProblem(reader, file); !why.isEmpty())
        return fail(error, why);
    if (!reader.hasVideo())
        return fail(error, QStringLiteral("the session has no readable video to export"));
    VideoDecoder decoder;
    if (!decoder.open(reader.videoPath()) || !decoder.rewind())
        return fail(error, decoder.errorString());
    // The recording is variable-rate (a frame when the screen changed); the export is constant-rate, with
    // the overlay drawn for each output frame's own moment, so the cursor and its trail move smoothly and any
    // player plays it in real time.
    qint64 nextPtsMs = 0;
    QImage next = decoder.nextFrame(&nextPtsMs);
    if (next.isNull())
        return fail(error, QStringLiteral("the session video has no decodable frame"));
    VideoEncoder encoder;
    VideoEncoder::Options o;
    o.size = decoder.size();
    o.nominalFps = kExportFps;
    o.fragmented = false;
    o.preset = QStringLiteral("veryfast");
    o.tune.clear();
    o.crf = 23;
    o.threads = 0;
    o.keyFrameIntervalMs = 2000;
    ExportFile out(file); // no stub is left when the export fails
    if (!encoder.open(out.path(), o))
        return fail(error, encoder.errorString());
    const qint64 totalMs = qMax<qint64>(1, reader.durationNs() / 1'000'000);
    OverlayOptions overlay;
    overlay.lineScale = qMax(1.0, decoder.size().width() / 1280.0);
    QImage current = next; // the first picture is shown from 0 until the next one
    for (qint64 k = 0;; ++k) {
        const qint64 tMs = k * 1000 / kExportFps;
        if (tMs > totalMs)
            break;
        while (!next.isNull() && nextPtsMs <= tMs) {
            current = next;
            next = decoder.nextFrame(&nextPtsMs);
        }
        const qint64 tNs = tMs * 1'000'000;
        QImage image = current.convertToFormat(QImage::Format_RGB32);
        {
            QPainter painter(&image);
            if (const ZoneMapPtr map = reader.zoneMapAt(tNs))
                paintZones(painter, *map, overlay);
            paintCursorTrail(painter, reader.cursorTrail(tNs, overlay.trailWindowNs), tNs, overlay);
            QFont font = painter.font();
            font.setPixelSize(int(18 * overlay.lineScale));
            painter.setFont(font);
            const QString label = formatTime(tNs);
            const QRect box = painter.fontMetrics()
                                  .boundingRect(label)
                                  .adjusted(-6, -3, 6, 3)
                                  .translated(12, 12 + font.pixelSize());
            painter.fillRect(box, QColor(0, 0, 0, 160));
            painter.setPen(Qt::white);
            painter.drawText(box, Qt::AlignCenter, label);
        }
        if (!encoder.encode(image, tMs))
            return fail(error, encoder.errorString());
        if (progress && !progress(qMin(tMs, totalMs), totalMs)) {
            encoder.finish();
            return fail(error, QStringLiteral("export cancelled"));
        }
    }
    if (!encoder.finish())
        return fail(error, encoder.errorString());
    if (encoder.framesEncoded() == 0)
        return fail(error, QStringLiteral("the session video has no decodable frame"));
    QString commitError;
    if (!out.commit(&commitError))
        return fail(error, commitError);
    if (progress)
        progress(totalMs, totalMs);
    return true;
}

} // namespace ciu::replay
