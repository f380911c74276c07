#include "platform/x11/x11grabber.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <xcb/shm.h>

namespace ciu::platform::x11 {

// A shared-memory segment attached to the server. Heap-allocated because a QImage that wraps it may
// outlive the grabber: whoever sees the other side gone frees it (see the state transitions below).
struct ShmSegment
{
    static constexpr int Free = 1;     // in the pool
    static constexpr int Lent = 2;     // wrapped by a live QImage
    static constexpr int Orphaned = 3; // still lent, but the grabber is gone: the QImage frees it

    int shmId = -1;
    uchar* data = nullptr;
    qsizetype bytes = 0;
    xcb_shm_seg_t seg = 0;
    std::atomic<int> state{Free};
};

namespace {

void freeSegmentMemory(ShmSegment* segment)
{
    shmdt(segment->data);
    delete segment;
}

// QImageCleanupFunction: the last QImage sharing the segment is gone (any thread).
void returnSegment(void* info)
{
    auto* segment = static_cast<ShmSegment*>(info);
    if (segment->state.exchange(ShmSegment::Free) == ShmSegment::Orphaned)
        freeSegmentMemory(segment);
}

} // namespace

X11Grabber::X11Grabber(X11Connection& conn)
    : m_conn(conn)
{
    if (!m_conn.extensions().shm)
        disableShm(QStringLiteral("the server has no MIT-SHM extension"));
}

X11Grabber::~X11Grabber()
{
    if (m_staging)
        releaseSegment(m_staging);
    for (ShmSegment* segment : std::as_const(m_lendable))
        releaseSegment(segment);
    if (m_conn.isAlive())
        xcb_flush(m_conn.xcb());
}

void X11Grabber::releaseSegment(ShmSegment* segment)
{
    if (m_conn.isAlive())
        xcb_shm_detach(m_conn.xcb(), segment->seg);
    // The local mapping stays until the last QImage using it is gone.
    if (segment->state.exchange(ShmSegment::Orphaned) == ShmSegment::Free)
        freeSegmentMemory(segment);
}

bool X11Grabber::fail(const QString& message)
{
    m_error = message;
    return false;
}

bool X11Grabber::initFormat()
{
    if (m_layout)
        return true;
    const xcb_setup_t* setup = xcb_get_setup(m_conn.xcb());
    if (setup->image_byte_order != XCB_IMAGE_ORDER_LSB_FIRST)
        return fail(QStringLiteral("the X display %1 uses MSB-first images, which are not supported")
                        .arg(m_conn.displayName()));
    const int depth = m_conn.screen()->root_depth;
    for (auto it = xcb_setup_pixmap_formats_iterator(setup); it.rem; xcb_format_next(&it)) {
        if (it.data->depth == depth) {
            m_bitsPerPixel = it.data->bits_per_pixel;
            m_scanlinePad = it.data->scanline_pad;
        }
    }
    if ((depth == 24 || depth == 32) && m_bitsPerPixel == 32)
        m_layout = PixelLayout::Xrgb32;
    else if (depth == 16 && m_bitsPerPixel == 16)
        m_layout = PixelLayout::Rgb565;
    else
        return fail(
            QStringLiteral("unsupported pixel format on the X display %1 (depth %2, %3 bits per pixel)")
                .arg(m_conn.displayName())
                .arg(depth)
                .arg(m_bitsPerPixel));
    return true;
}

void X11Grabber::disableShm(const QString& reason)
{
    if (m_shmDisabled)
        return;
    m_shmDisabled = true;
    qCWarning(
        lcX11,
        "MIT-SHM unavailable on the X display %s (%s): falling back to plain GetImage, grabs are slower",
        qPrintable(m_conn.displayName()), qPrintable(reason));
}

qsizetype X11Grabber::fullScreenBytes(const QRect& rootRect) const
{
    // Every segment holds the whole screen, so it serves any region without re-allocation.
    const xcb_screen_t* s = m_conn.screen();
    const int w = qMax(int(s->width_in_pixels), rootRect.width());
    const int h = qMax(int(s->height_in_pixels), rootRect.height());
    return qsizetype(zpixmapStride(w, m_bitsPerPixel, m_scanlinePad)) * h;
}

ShmSegment* X11Grabber::createSegment(qsizetype bytes)
{
    const int id = shmget(IPC_PRIVATE, size_t(bytes), IPC_CREAT | 0600);
    if (id < 0) {
        disableShm(QStringLiteral("shmget: %1").arg(QString::fromLocal8Bit(strerror(errno))));
        return nullptr;
    }
    void* data = shmat(id, nullptr, 0);
    if (data == reinterpret_cast<void*>(-1)) {
        shmctl(id, IPC_RMID, nullptr);
        disableShm(QStringLiteral("shmat: %1").arg(QString::fromLocal8Bit(strerror(errno))));
        return nullptr;
    }
    const xcb_shm_seg_t seg = xcb_generate_id(m_conn.xcb());
    Reply<xcb_generic_error_t> error(
        xcb_request_check(m_conn.xcb(), xcb_shm_attach_checked(m_conn.xcb(), seg, quint32(id), 0)));
    // Marked for removal now: the segment disappears with the last attachment, even after a crash.
    shmctl(id, IPC_RMID, nullptr);
    if (error || !m_conn.isAlive()) {
        shmdt(data);
        if (error && m_conn.isAlive()) // e.g. a remote display: the server cannot see our memory
            disableShm(
                QStringLiteral("the server refused to attach a segment (X error %1)").arg(error->error_code));
        return nullptr;
    }
    auto* segment = new ShmSegment;
    segment->shmId = id;
    segment->data = static_cast<uchar*>(data);
    segment->bytes = bytes;
    segment->seg = seg;
    qCDebug(lcX11) << "attached a shared segment of" << bytes << "bytes on" << m_conn.displayName();
    return segment;
}

ShmSegment* X11Grabber::lendableSegment(qsizetype bytes)
{
    for (qsizetype i = 0; i < m_lendable.size(); ++i) {
        ShmSegment* segment = m_lendable.at(i);
        int expected = ShmSegment::Free;
        if (!segment->state.compare_exchange_strong(expected, ShmSegment::Lent))
            continue;
        if (segment->bytes >= bytes)
            return segment;
        // Too small after a resolution change: replace it.
        segment->state = ShmSegment::Free;
        releaseSegment(segment);
        m_lendable.removeAt(i--);
    }
    if (m_lendable.size() >= kMaxLentSegments)
        return nullptr;
    ShmSegment* segment = createSegment(bytes);
    if (!segment)
        return nullptr;
    segment->state = ShmSegment::Lent;
    m_lendable << segment;
    return segment;
}

bool X11Grabber::shmGetImage(ShmSegment* segment, const QRect& r)
{
    xcb_connection_t* c = m_conn.xcb();
    const auto cookie =
        xcb_shm_get_image(c, m_conn.root(), qint16(r.x()), qint16(r.y()), quint16(r.width()),
                          quint16(r.height()), ~0u, XCB_IMAGE_FORMAT_Z_PIXMAP, segment->seg, 0);
    xcb_generic_error_t* rawError = nullptr;
    Reply<xcb_shm_get_image_reply_t> reply(xcb_shm_get_image_reply(c, cookie, &rawError));
    Reply<xcb_generic_error_t> error(rawError);
    if (reply)
        return true;
    if (!m_conn.isAlive())
        return fail(m_conn.lostError());
    return fail(QStringLiteral("shared-memory GetImage of %1,%2 %3x%4 failed (X error %5)")
                    .arg(r.x())
                    .arg(r.y())
                    .arg(r.width())
                    .arg(r.height())
                    .arg(error ? error->error_code : 0));
}

QImage X11Grabber::grab(const QRect& rootRect)
{
    if (!m_conn.isAlive()) {
        fail(m_conn.lostError());
        return {};
    }
    if (!initFormat())
        return {};
    const int stride = zpixmapStride(rootRect.width(), m_bitsPerPixel, m_scanlinePad);
    const qsizetype bytes = qsizetype(stride) * rootRect.height();
    if (!m_shmDisabled && m_layout == PixelLayout::Xrgb32 && bytes >= kZeroCopyMinBytes) {
        if (ShmSegment* segment = lendableSegment(fullScreenBytes(rootRect))) {
            if (!shmGetImage(segment, rootRect)) {
                segment->state = ShmSegment::Free;
                return {};
            }
            return QImage(segment->data, rootRect.width(), rootRect.height(), stride, QImage::Format_RGB32,
                          returnSegment, segment);
        }
        if (!m_conn.isAlive()) {
            fail(m_conn.lostError());
            return {};
        }
    }
    QImage image(rootRect.size(), QImage::Format_RGB32);
    if (image.isNull()) {
        fail(QStringLiteral("out of memory for a %1x%2 grab").arg(rootRect.width()).arg(rootRect.height()));
        return {};
    }
    if (!grabInto(image, QPoint(0, 0), rootRect))
        return {};
    return image;
}

bool X11Grabber::grabInto(QImage& target, QPoint targetPos, const QRect& rootRect)
{
    if (!m_conn.isAlive())
        return fail(m_conn.lostError());
    if (!initFormat())
        return false;
    if (rootRect.isEmpty())
        return true;
    if (!m_shmDisabled) {
        const qsizetype needed = fullScreenBytes(rootRect);
        if (m_staging && m_staging->bytes < needed) {
            releaseSegment(m_staging);
            m_staging = nullptr;
        }
        if (!m_staging)
            m_staging = createSegment(needed);
        if (m_staging) {
            if (!shmGetImage(m_staging, rootRect))
                return false;
            copyPixels(m_staging->data, zpixmapStride(rootRect.width(), m_bitsPerPixel, m_scanlinePad),
                       *m_layout, rootRect.size(), target, targetPos);
            return true;
        }
        if (!m_conn.isAlive())
            return fail(m_conn.lostError());
    }
    return grabPlain(target, targetPos, rootRect);
}

bool X11Grabber::grabPlain(QImage& target, QPoint targetPos, const QRect& r)
{
    xcb_connection_t* c = m_conn.xcb();
    const auto cookie = xcb_get_image(c, XCB_IMAGE_FORMAT_Z_PIXMAP, m_conn.root(), qint16(r.x()),
                                      qint16(r.y()), quint16(r.width()), quint16(r.height()), ~0u);
    xcb_generic_error_t* rawError = nullptr;
    Reply<xcb_get_image_reply_t> reply(xcb_get_image_reply(c, cookie, &rawError));
    Reply<xcb_generic_error_t> error(rawError);
    if (!reply) {
        if (!m_conn.isAlive())
            return fail(m_conn.lostError());
        return fail(QStringLiteral("GetImage of %1,%2 %3x%4 failed (X error %5)")
                        .arg(r.x())
                        .arg(r.y())
                        .arg(r.width())
                        .arg(r.height())
                        .arg(error ? error->error_code : 0));
    }
    const int stride = zpixmapStride(r.width(), m_bitsPerPixel, m_scanlinePad);
    if (xcb_get_image_data_length(reply.get()) < stride * r.height())
        return fail(QStringLiteral("GetImage returned a short image"));
    copyPixels(xcb_get_image_data(reply.get()), stride, *m_layout, r.size(), target, targetPos);
    return true;
}

} // namespace ciu::platform::x11
