#pragma once

// Helpers shared by the replay unit tests: synthetic frames drawn with QPainter and image comparison.

#include <QColor>
#include <QImage>
#include <QPainter>

#include <cstdlib>

namespace ciu::test {

// A frame that differs visibly with `n`: a gradient background, a moving block and a counter.
inline QImage syntheticFrame(QSize size, int n)
{
    QImage image(size, QImage::Format_RGB32);
    QPainter p(&image);
    QLinearGradient g(0, 0, size.width(), size.height());
    g.setColorAt(0, QColor(40, 60, 90));
    g.setColorAt(1, QColor(200, 210, 230));
    p.fillRect(image.rect(), g);
    const int block = size.height() / 4;
    const int x = (n * 37) % qMax(1, size.width() - block);
    p.fillRect(QRect(x, size.height() / 3, block, block), QColor::fromHsv((n * 29) % 360, 200, 230));
    p.setPen(Qt::black);
    QFont font = p.font();
    font.setPixelSize(qMax(10, size.height() / 10));
    p.setFont(font);
    p.drawText(QRect(10, 10, size.width() - 20, size.height() / 4), Qt::AlignLeft, QString::number(n));
    return image;
}

// Mean absolute difference per channel (0..255) of two images of the same size; 255 when they differ in size.
inline double meanAbsDiff(const QImage& a, const QImage& b)
{
    if (a.size() != b.size() || a.isNull())
        return 255.0;
    const QImage x = a.convertToFormat(QImage::Format_RGB32);
    const QImage y = b.convertToFormat(QImage::Format_RGB32);
    double sum = 0;
    for (int row = 0; row < x.height(); ++row) {
        const auto* px = reinterpret_cast<const QRgb*>(x.constScanLine(row));
        const auto* py = reinterpret_cast<const QRgb*>(y.constScanLine(row));
        for (int col = 0; col < x.width(); ++col) {
            sum += std::abs(qRed(px[col]) - qRed(py[col])) + std::abs(qGreen(px[col]) - qGreen(py[col])) +
                   std::abs(qBlue(px[col]) - qBlue(py[col]));
        }
    }
    return sum / (3.0 * x.width() * x.height());
}

} // namespace ciu::test

// (appended) A small recorded session for the exporter and viewer tests.
#include "core/replay/sessionwriter.h"

namespace ciu::test {

struct SmallSession
{
    QString path;
    QList<qint64> frameTimesNs; // of frames 0..n-1
    QSize size{320, 240};
};

// 3 s: 60 frames (every 50 ms from 100 ms), cursor every 20 ms, one zone map with a button and a password
// field, a click event, a typing action, a Director decision and a model call, one key frame.
inline SmallSession writeSmallSession(const QString& folder)
{
    using namespace ciu::replay;
    SmallSession s;
    SessionWriterOptions o;
    o.sessionPath = folder;
    o.task = QStringLiteral("press OK");
    o.maxFrameLagMs = 0;
    o.metadataIntervalMs = 0;
    o.keyFrameIntervalMs = 500;
    SessionWriter writer(o);
    writer.start();
    Zone ok;
    ok.id = QStringLiteral("ok");
    ok.type = ZoneType::Button;
    ok.label = QStringLiteral("OK");
    ok.bounds = QRect(200, 180, 80, 30);
    Zone password;
    password.id = QStringLiteral("pw");
    password.type = ZoneType::TextField;
    password.bounds = QRect(20, 180, 120, 30);
    password.isPassword = true;
    writer.onZoneMap(std::make_shared<const ZoneMap>(1, 50'000'000, s.size, QList<Zone>{ok, password}));
    for (int n = 0; n < 60; ++n) {
        const qint64 t = 100'000'000 + qint64(n) * 50'000'000;
        writer.onFrame(Frame{quint64(n + 1), t, syntheticFrame(s.size, n), {}});
        s.frameTimesNs << t;
        if (n == 20)
            writer.writeKeyFrame(Frame{quint64(n + 1), t, syntheticFrame(s.size, n), {}},
                                 QStringLiteral("tier2"));
    }
    for (int i = 0; i < 150; ++i)
        writer.onCursor(
            CursorSample{qint64(i) * 20'000'000, QPoint(2 * i, 100 + i / 3), QStringLiteral("left_ptr")});
    SpatialEvent click;
    click.kind = SpatialEvent::Kind::ZoneClick;
    click.tNs = 1'200'000'000;
    click.zoneId = QStringLiteral("ok");
    writer.onEvent(click);
    Action type;
    type.type = Action::Type::TypeText;
    type.zoneId = QStringLiteral("pw");
    type.text = QStringLiteral("secret-password");
    ActionResult r;
    r.success = true;
    r.startNs = 2'000'000'000;
    writer.onAction(type, r);
    writer.onDirectorRecord(QJsonObject{{QStringLiteral("t_ns"), 800'000'000.0},
                                        {QStringLiteral("type"), QStringLiteral("decision")},
                                        {QStringLiteral("decision"), QStringLiteral("click the OK button")}});
    writer.onDirectorRecord(
        QJsonObject{{QStringLiteral("t_ns"), 1'000'000'000.0},
                    {QStringLiteral("type"), QStringLiteral("model_call")},
                    {QStringLiteral("usage"), QJsonObject{{QStringLiteral("input_tokens"), 1500},
                                                          {QStringLiteral("output_tokens"), 80},
                                                          {QStringLiteral("cost_usd"), 0.0123}}}});
    writer.setOutcome(QStringLiteral("completed"), QStringLiteral("pressed OK"));
    writer.stop();
    s.path = writer.sessionPath();
    return s;
}

} // namespace ciu::test
