#include "ui/replay/framefetcher.h"

#include "core/replay/videodecoder.h"

#include <QFuture>
#include <QtConcurrent/QtConcurrentRun>

namespace ciu::ui {
namespace {
struct Result
{
    QImage image;
    qint64 frameTNs = 0;
    qint64 requestedTNs = 0;
};
} // namespace

FrameFetcher::FrameFetcher(QObject* parent)
    : QObject(parent)
{
}

FrameFetcher::~FrameFetcher() = default;

bool FrameFetcher::open(const QString& videoPath, QString* error)
{
    auto decoder = std::make_shared<replay::VideoDecoder>();
    if (!decoder->open(videoPath)) {
        if (error)
            *error = decoder->errorString();
        return false;
    }
    m_decoder = std::move(decoder);
    return true;
}

void FrameFetcher::requestAt(qint64 tNs)
{
    start({Kind::At, tNs});
}

void FrameFetcher::requestNext(qint64 tNs)
{
    start({Kind::Next, tNs});
}

void FrameFetcher::requestPrevious(qint64 tNs)
{
    start({Kind::Previous, tNs});
}

void FrameFetcher::start(Request request)
{
    if (!m_decoder)
        return;
    if (m_busy) {
        m_pending = request; // replaces any older request
        return;
    }
    m_busy = true;
    m_pending.reset(); // this request is newer than any waiting one
    std::shared_ptr<replay::VideoDecoder> decoder = m_decoder;
    QtConcurrent::run([decoder, request] {
        Result r;
        qint64 ptsMs = 0;
        const qint64 tMs = request.tNs / 1'000'000;
        r.image = decoder->frameAt(tMs, &ptsMs);
        if (request.kind == Kind::Next && !r.image.isNull()) {
            qint64 nextMs = 0;
            const QImage next = decoder->nextFrame(&nextMs);
            if (!next.isNull()) {
                r.image = next;
                ptsMs = nextMs;
            }
        } else if (request.kind == Kind::Previous && !r.image.isNull()) {
            qint64 previousMs = 0;
            const QImage previous = decoder->frameAt(ptsMs - 1, &previousMs);
            if (!previous.isNull() && previousMs < ptsMs) {
                r.image = previous;
                ptsMs = previousMs;
            }
        }
        r.frameTNs = ptsMs * 1'000'000;
        r.requestedTNs = request.kind == Kind::At ? request.tNs : r.frameTNs;
        return r;
    }).then(this, [this, step = request.kind != Kind::At](const Result& r) {
        m_busy = false;
        // Deliver first: starting the next job may finish it (and deliver it) before this returns.
        emit frameReady(r.image, r.frameTNs, r.requestedTNs, step);
        if (m_pending && !m_busy) {
            const Request next = *m_pending;
            m_pending.reset();
            start(next);
        }
    });
}

} // namespace ciu::ui
